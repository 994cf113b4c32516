"""Security tier: photo albums whose library of photos is already on disk in /workspace (setup
files) and whose uploads the app keeps apart; hidden probes try path traversal through the
photo name on download, upload and delete (dot segments, encoded and back slashes, absolute
paths), uploads past the stated byte bound and past the user's quota, reading or changing
someone else's private album, forged tokens and setting the owner through the body."""

import json

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROWS_WITHOUT_HIDDEN
from fastapi_env.tasks.traps import extras_ignored

REFERENCE = '''\
import json
import re
import tempfile
from pathlib import Path
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${t3}": "${u3}"}
NAME = r"^[A-Za-z0-9_-]{1,${stem_max}}\\.(${ext_alt})$$"
MEDIA = {"jpg": "image/jpeg", "png": "image/png", "gif": "image/gif"}
MAX_BYTES = ${max_bytes}
QUOTA = ${quota}
LIBRARY = Path("library")
# uploads live apart from the library, in a folder of their own for this run of the app
UPLOADS = Path(tempfile.mkdtemp(prefix="uploads-", dir="."))

albums = {a["id"]: a for a in json.loads((LIBRARY / "albums.json").read_text())}


def library_folder(album_id: int) -> list[str]:
    folder = LIBRARY / str(album_id)
    files = sorted(p.name for p in folder.iterdir() if p.is_file()) if folder.is_dir() else []
    return [name for name in files if re.fullmatch(NAME, name)]


library_photos = {album_id: library_folder(album_id) for album_id in albums}
uploads: dict[int, dict[str, int]] = {}  # album id -> uploaded photo name -> size
used = {user: 0 for user in TOKENS.values()}

app = FastAPI()


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


class AlbumIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=1, max_length=${title_max})
    private: bool = ${default_private}


class AlbumPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str | None = Field(None, min_length=1, max_length=${title_max})
    private: bool | None = None


def viewer(authorization: Annotated[str | None, Header()] = None) -> str | None:
    """The caller, or None without credentials; credentials that are sent must be valid."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


def signed_in(user: Annotated[str | None, Depends(viewer)]) -> str:
    if user is None:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    return user


def photo_names(album_id: int) -> list[str]:
    return sorted(library_photos.get(album_id, []) + list(uploads.get(album_id, {})))


def album_out(album: dict) -> dict:
    return album | {"photos": len(photo_names(album["id"]))}


def can_see(album: dict, user: str | None) -> bool:
    return not album["private"] or album["owner"] == user


def visible_album(album_id: int, user: Annotated[str | None, Depends(viewer)]) -> dict:
    album = albums.get(album_id)
    if album is None or not can_see(album, user):
        raise HTTPException(404, "not_found")
    return album


def own_album(album_id: int, user: Annotated[str, Depends(signed_in)]) -> dict:
    album = visible_album(album_id, user)
    if album["owner"] != user:
        raise HTTPException(403, "forbidden")
    return album


PhotoName = Annotated[str, Query(pattern=NAME)]


def photo_file(album_id: int, name: str) -> Path:
    if name in library_photos.get(album_id, []):
        return LIBRARY / str(album_id) / name
    if name in uploads.get(album_id, {}):
        return UPLOADS / str(album_id) / name
    raise HTTPException(404, "not_found")


@app.get("/albums")
def list_albums(user: Annotated[str | None, Depends(viewer)]):
    return [album_out(a) for _, a in sorted(albums.items()) if can_see(a, user)]


@app.post("/albums", status_code=201)
def create_album(body: AlbumIn, user: Annotated[str, Depends(signed_in)]):
    album = {"id": max(albums) + 1, "owner": user, "title": body.title, "private": body.private}
    albums[album["id"]] = album
    return album_out(album)


@app.get("/albums/{album_id}")
def read_album(album: Annotated[dict, Depends(visible_album)]):
    return album_out(album)


@app.patch("/albums/{album_id}")
def update_album(album: Annotated[dict, Depends(own_album)], changes: AlbumPatch):
    album.update(changes.model_dump(exclude_none=True))
    return album_out(album)


@app.get("/albums/{album_id}/photos")
def list_photos(album: Annotated[dict, Depends(visible_album)]):
    return [{"name": name, "size": photo_file(album["id"], name).stat().st_size}
            for name in photo_names(album["id"])]


@app.post("/albums/{album_id}/photos", status_code=201)
async def upload_photo(album: Annotated[dict, Depends(own_album)], file: UploadFile):
    name = file.filename or ""
    if not re.fullmatch(NAME, name):
        raise RequestValidationError([{"type": "name", "loc": ("body", "file")}])
    data = await file.read(MAX_BYTES + 1)  # never more than one byte past the bound
    if not data:
        raise RequestValidationError([{"type": "empty", "loc": ("body", "file")}])
    if name in photo_names(album["id"]):
        raise HTTPException(409, "exists")
    if len(data) > MAX_BYTES:
        raise HTTPException(413, "too_large")
    if used[album["owner"]] + len(data) > QUOTA:
        raise HTTPException(413, "quota")
    folder = UPLOADS / str(album["id"])
    folder.mkdir(exist_ok=True)
    (folder / name).write_bytes(data)
    uploads.setdefault(album["id"], {})[name] = len(data)
    used[album["owner"]] += len(data)
    return {"name": name, "size": len(data)}


@app.get("/albums/{album_id}/file")
def download(album: Annotated[dict, Depends(visible_album)], name: PhotoName):
    path = photo_file(album["id"], name)
    cache = "private, no-store" if album["private"] else "public, max-age=${max_age}"
    return Response(path.read_bytes(), media_type=MEDIA[name.rsplit(".", 1)[1]],
                    headers={"Content-Disposition": f'attachment; filename="{name}"',
                             "Cache-Control": cache})


@app.delete("/albums/{album_id}/file", status_code=204)
def delete_photo(album: Annotated[dict, Depends(own_album)], name: PhotoName):
    photo_file(album["id"], name)
    if name not in uploads.get(album["id"], {}):
        raise HTTPException(409, "read_only")
    (UPLOADS / str(album["id"]) / name).unlink()
    used[album["owner"]] -= uploads[album["id"]].pop(name)


@app.get("/me")
def me(user: Annotated[str, Depends(signed_in)]):
    return {"user": user, "albums": sum(a["owner"] == user for a in albums.values()),
            "uploaded_bytes": used[user], "quota": QUOTA}


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
as1 = {"Authorization": "Bearer ${t1}"}
download_1 = client.get("/albums/1/file", params={"name": "sunset.jpg"})
result = [
    row(client.get("/albums", headers=as1)),
    row(client.get("/albums/1/photos")),
    [download_1.status_code, download_1.headers["content-type"], download_1.text],
    row(client.get("/albums/2", headers=as1)),
    row(client.post("/albums", json={"title": "${new_title}"}, headers=as1)),
]
'''

PROBES = '''\
HIDDEN = ("id",)
A1 = {"Authorization": "Bearer ${t1}"}
A2 = {"Authorization": "Bearer ${t2}"}
A3 = {"Authorization": "Bearer ${t3}"}
MAX_BYTES = ${max_bytes}
QUOTA = ${quota}
EXTS = ${exts__repr}
''' + ROWS_WITHOUT_HIDDEN + '''

def _album(client, headers, title, private):
    r = client.post("/albums", json={"title": title, "private": private}, headers=headers)
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _upload(client, headers, album_id, name, data, kind="image/png"):
    return client.post(f"/albums/{album_id}/photos", files={"file": (name, data, kind)},
                       headers=headers)


def _download(r):
    if r.status_code != 200:
        return _row(r)
    return [200, r.headers.get("content-type"), r.headers.get("content-disposition"),
            r.headers.get("cache-control"), r.content.decode(errors="replace")]


def probe_credentials_checked(client):
    rows = []
    for value in ["", "Bearer", "Bearer ", "bearer ${t1}", "Basic ${t1}", "${t1}", "Bearer ${u1}",
                  "Bearer ${t1} ", "Bearer  ${t1}", "Bearer ${t1}".upper()]:
        for method, path in [("GET", "/albums"), ("GET", "/albums/1"), ("GET", "/albums/1/photos"),
                             ("GET", "/albums/1/file?name=sunset.jpg"), ("GET", "/me"),
                             ("POST", "/albums")]:
            r = client.request(method, path, headers={"Authorization": value}, json={"title": "t"})
            rows.append([value, method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    for method, path in [("POST", "/albums"), ("PATCH", "/albums/1"), ("GET", "/me"),
                         ("DELETE", "/albums/1/file?name=sunset.jpg"),
                         ("POST", "/albums/1/photos")]:
        r = client.request(method, path, json={"title": "t"})
        rows.append([None, method, path, r.status_code, r.json(),
                     r.headers.get("www-authenticate")])
    return rows


def probe_anonymous_reads_public_only(client):
    rows = [[[a["id"] for a in client.get("/albums").json()]],
            [[a["id"] for a in client.get("/albums", headers=A3).json()]],
            [[a["id"] for a in client.get("/albums", headers=A2).json()]]]
    for album_id in [1, 2, 3]:
        rows.append([album_id, _row(client.get(f"/albums/{album_id}")),
                     _row(client.get(f"/albums/{album_id}/photos"))])
    return rows


def probe_private_albums_stay_private(client):
    mine = _album(client, A2, "hidden of ${u2}", True)
    assert _upload(client, A2, mine, "secret.png", b"top secret").status_code == 201
    rows = []
    for headers in [A1, A3, {}]:
        for path in [f"/albums/{mine}", f"/albums/{mine}/photos",
                     f"/albums/{mine}/file?name=secret.png", "/albums/2/file?name=kids.jpg",
                     "/albums/2/photos"]:
            rows.append([path.replace(str(mine), "NEW"), _row(client.get(path, headers=headers))])
        rows.append([mine in [a["id"] for a in client.get("/albums", headers=headers).json()]])
    rows.append([_row(client.patch(f"/albums/{mine}", json={"private": False}, headers=A1)),
                 _row(client.delete(f"/albums/{mine}/file", params={"name": "secret.png"},
                                    headers=A1)),
                 _row(_upload(client, A1, mine, "plant.png", b"x"))])
    rows.append([_download(client.get(f"/albums/{mine}/file", params={"name": "secret.png"},
                                      headers=A2))])
    return rows


def probe_only_the_owner_changes_an_album(client):
    public = _album(client, A1, "open house", False)
    rows = [_row(client.patch(f"/albums/{public}", json={"title": "mine now"}, headers=A2)),
            _row(_upload(client, A2, public, "intruder.png", b"x")),
            _row(client.delete("/albums/1/file", params={"name": "sunset.jpg"}, headers=A2)),
            _row(client.patch("/albums/1", json={"private": True}, headers=A3)),
            _row(client.patch(f"/albums/{public}", json={"title": "renamed"}, headers=A1)),
            _row(client.patch(f"/albums/{public}", json={"private": True}, headers=A1)),
            _row(client.get(f"/albums/{public}", headers=A2)),
            _row(client.get(f"/albums/{public}", headers=A1))]
    return rows


def probe_body_cannot_set_owner(client):
    rows = []
    for extra in [{"owner": "${u2}"}, {"id": 1}, {"photos": 9}]:
        rows.append([extra, _row(client.post("/albums", json={"title": "t"} | extra,
                                             headers=A3))])
    album = _album(client, A3, "mass", True)
    for change in [{"owner": "${u1}"}, {"id": 1}, {"title": "ok", "owner": "${u1}"}, {}]:
        rows.append([change, _row(client.patch(f"/albums/{album}", json=change, headers=A3))])
    rows.append([sorted(a["owner"] for a in client.get("/albums", headers=A3).json()
                        if a["id"] == album)])
    return rows


def probe_album_fields(client):
    rows = []
    for body in [{"title": ""}, {"title": "t" * ${title_max}}, {"title": "t" * (${title_max} + 1)},
                 {"title": "x", "private": "maybe"}, {"private": True}, {"title": 5},
                 {"title": "defaults"}]:
        rows.append([body if len(str(body)) < 80 else "long", _row(client.post(
            "/albums", json=body, headers=A2))])
    r = client.get("/me", headers=A2)
    rows.append([r.status_code, r.json()["albums"] >= 2, r.json()["user"]])
    return rows


def probe_download_headers(client):
    rows = []
    for album_id, name, headers in [(1, "sunset.jpg", {}), (1, "waves.png", A3),
                                    (3, "draft.png", A1), (2, "kids.jpg", A2),
                                    (2, "cake.gif", A2)]:
        rows.append([album_id, name, _download(client.get(
            f"/albums/{album_id}/file", params={"name": name}, headers=headers))])
    rows.append([_row(client.get("/albums/1/photos", headers=A1))])
    rows.append([_row(client.get("/albums/2/photos", headers=A2))])
    return rows


def probe_names_cannot_escape_the_album(client):
    rows = []
    for name in ["../2/kids.jpg", "..%2F2%2Fkids.jpg", "../albums.json", "..\\\\2\\\\kids.jpg",
                 "/workspace/library/2/kids.jpg", "library/2/kids.jpg", "./sunset.jpg",
                 "sunset.jpg/", "sunset.jpg%00.png", "sunset%2Ejpg", "..", ".", "notes.txt",
                 "SUNSET.JPG", "sunset.JPG", "sunset.jpg ", " sunset.jpg", "sunset.jpg\\n", "",
                 "../../solution.py", "....//2/kids.jpg", "sunset.jpg"]:
        r = client.get("/albums/1/file", params={"name": name}, headers=A1)
        rows.append([name, _download(r)])
    return rows


def probe_uploads_cannot_escape_the_album(client):
    album = _album(client, A1, "escape", True)
    rows = []
    for name in ["../evil.png", "..\\\\evil.png", "sub/evil.png", ".png",
                 "evil.png.txt", "evil.PNG", "e" * ${stem_max} + ".png",
                 "e" * (${stem_max} + 1) + ".png", "evil", "evil..png", "ev il.png",
                 "evil.png"] + [f"kind.{ext}" for ext in ["jpg", "png", "gif", "jpeg", "webp"]]:
        r = _upload(client, A1, album, name, b"payload")
        rows.append([name, _row(r)])
    rows.append([_row(client.get(f"/albums/{album}/photos", headers=A1))])
    for name in ["../2/kids.jpg", "../../library/1/sunset.jpg", "evil.png/"]:
        r = client.delete(f"/albums/{album}/file", params={"name": name}, headers=A1)
        rows.append([name, _row(r)])
    rows.append([_row(client.get("/albums/1/photos", headers=A1))])
    return rows


def probe_upload_size_bounds(client):
    album = _album(client, A3, "sizes", False)
    rows = []
    for n, size in enumerate([0, 1, MAX_BYTES - 1, MAX_BYTES, MAX_BYTES + 1, 10 * MAX_BYTES,
                              1_000_000]):
        r = _upload(client, A3, album, f"s{n}.png", b"z" * size)
        rows.append([size, _row(r)])
    rows.append([_row(client.get(f"/albums/{album}/photos", headers=A3))])
    r = client.post(f"/albums/{album}/photos", headers=A3, data={"file": "not a file"})
    rows.append([r.status_code, r.json()])
    rows.append([client.post(f"/albums/{album}/photos", headers=A3).status_code])
    return rows


def probe_quota_and_delete(client):
    album = _album(client, A2, "quota", True)
    rows = []
    used = client.get("/me", headers=A2).json()["uploaded_bytes"]
    n = 0
    while used + MAX_BYTES <= QUOTA:
        r = _upload(client, A2, album, f"q{n}.png", b"q" * MAX_BYTES)
        rows.append([r.status_code])
        used += MAX_BYTES
        n += 1
    room = QUOTA - used
    rows.append(_row(_upload(client, A2, album, "over.png", b"o" * (room + 1))))
    rows.append(_row(_upload(client, A2, album, "fits.png", b"f" * room)) if room else [room])
    rows.append(_row(_upload(client, A2, album, "one.png", b"1")))
    me = client.get("/me", headers=A2).json()
    rows.append([me["uploaded_bytes"], me["quota"]])
    rows.append(_row(client.delete(f"/albums/{album}/file", params={"name": "q0.png"},
                                   headers=A2)))
    rows.append(_row(client.delete(f"/albums/{album}/file", params={"name": "q0.png"},
                                   headers=A2)))
    rows.append([client.get("/me", headers=A2).json()["uploaded_bytes"]])
    rows.append(_row(_upload(client, A2, album, "again.png", b"a" * MAX_BYTES)))
    rows.append([client.get("/me", headers=A3).json()["uploaded_bytes"] <= QUOTA])
    return rows


def probe_library_is_read_only(client):
    rows = [_row(client.delete("/albums/1/file", params={"name": "sunset.jpg"}, headers=A1)),
            _row(client.delete("/albums/1/file", params={"name": "gone.jpg"}, headers=A1)),
            _row(_upload(client, A1, 1, "sunset.jpg", b"overwrite")),
            _row(_upload(client, A1, 1, "fresh.png", b"fresh")),
            _row(_upload(client, A1, 1, "fresh.png", b"twice")),
            _row(client.delete("/albums/1/file", params={"name": "fresh.png"}, headers=A1)),
            _row(client.get("/albums/1", headers=A1)),
            _download(client.get("/albums/1/file", params={"name": "sunset.jpg"}))]
    return rows


def probe_photo_listing(client):
    album = _album(client, A3, "listing", False)
    for name, size in [("alpha.png", 3), ("Zeta.png", 5), ("_under.png", 1), ("-dash.jpg", 2),
                       ("9nine.jpg", 4), ("beta.jpg", 6)]:
        assert _upload(client, A3, album, name, b"L" * size).status_code == 201
    rows = [_row(client.get(f"/albums/{album}/photos")),
            _row(client.get(f"/albums/{album}", headers=A1)),
            _row(client.get("/albums/3/photos", headers=A1)),
            _row(client.get("/albums/${last_id}/photos")),
            _row(client.get("/albums/${last_id}"))]
    return rows


def probe_checks_in_order(client):
    album = _album(client, A1, "order", True)
    assert _upload(client, A1, album, "dup.png", b"d").status_code == 201
    big = b"b" * (MAX_BYTES + 1)
    return [_row(_upload(client, {}, 2, "../x.png", big)),
            _row(_upload(client, A2, album, "../x.png", big)),
            _row(_upload(client, A2, 1, "../x.png", big)),
            _row(_upload(client, A1, 987654, "../x.png", big)),
            _row(_upload(client, A1, album, "../x.png", big)),
            _row(_upload(client, A1, album, "dup.png", big)),
            _row(_upload(client, A1, album, "dup.png", b"")),
            _row(client.get(f"/albums/{album}/file", params={"name": "../x"}, headers=A2)),
            _row(client.get("/albums/987654/file", headers=A1)),
            _row(client.patch(f"/albums/{album}", json={"title": ""}, headers=A3)),
            _row(client.patch("/albums/1", json={"title": ""}, headers=A2))]
'''

PROMPT = '''\
Build a photo-sharing API. A library of albums and photos is already on disk in the working
directory (`/workspace`): `library/albums.json` lists the albums
(`{"id", "owner", "title", "private"}` each) and `library/<album id>/` holds each album's
photo files (an album without photos may have no folder). Three users exist, each with a fixed bearer token:

| token | user |
|---|---|
| `${t1}` | `${u1}` |
| `${t2}` | `${u2}` |
| `${t3}` | `${u3}` |

**Credentials.** A request may carry `Authorization: Bearer <token>` exactly so (the scheme
`Bearer` as written, one space, a token from the table). A request carrying any other
`Authorization` value is 401, on every route; without the header a request is anonymous,
which only reading (`GET`, except `/me`) allows: anything else anonymous is 401. Every 401 has
the header `WWW-Authenticate: Bearer`.

**Errors** have the body `{"error": <code>}`: 401 `"unauthorized"`, 403 `"forbidden"`, 404
`"not_found"`, 409 `"exists"` or `"read_only"`, 413 `"too_large"` or `"quota"`, and 422
`"invalid"` for any body, path or query parameter that is not valid as described. When several
apply, the first in this order wins: 401, 404 (the album), 403, 422, 404 (the photo), 409,
413.

**Who sees what.** A public album (`"private": false`) can be read by anyone, anonymous
callers included; a private one only by its owner: to anyone else it does not exist (404).
Only the owner changes an album or its photos; another caller who can see the album gets 403.

**Photo names.** A photo's name is a stem of 1 to ${stem_max} characters, each an ASCII
letter, digit, `-` or `_`, then a dot and one of the extensions ${ext_text} (lower case), and nothing else.
Any other name, on any route, is 422. The photos of an album are the files in its library
folder whose names follow this rule, plus those uploaded to it.

**Storage.** The app never changes anything under `library/`: uploaded photos are kept
elsewhere, and an app started anew has only the library's photos (and albums). A photo is 1
to ${max_bytes} bytes; the photos a user uploads (library photos do not count) take at most
${quota} bytes together, counted over the photos they currently have.

**An album** is `{"id", "owner", "title", "private", "photos"}`, photos being how many it has.
Titles are 1-${title_max} characters. New albums get ids after the highest in the library, in
creation order. A body with any field not listed for its route is 422.

**Routes.**
- `GET /albums`: 200, the albums the caller may read, by id.
- `POST /albums` `{"title", "private"?}` (`private` defaults to `${default_private_json}`):
  201 with the album; the owner is the caller.
- `GET /albums/{id}`: 200 with the album.
- `PATCH /albums/{id}` `{"title"?, "private"?}`: changes what is given; 200 with the album.
- `GET /albums/{id}/photos`: 200, `[{"name", "size"}]` (size in bytes), by name (code point
  order).
- `POST /albums/{id}/photos`, multipart form with the file in the field `file`: the photo's
  name is the uploaded file's name. 201 with `{"name", "size"}`. An empty file is 422; a name
  the album already has is 409 `"exists"`; a file over ${max_bytes} bytes is 413
  `"too_large"` (whatever the quota); one that would take the owner past the quota is 413
  `"quota"`.
- `GET /albums/{id}/file?name=`: 200, the photo's exact bytes, with `Content-Type`
  `image/jpeg`, `image/png` or `image/gif` after the extension (`jpg`, `png`, `gif`),
  `Content-Disposition: attachment; filename="<name>"`, and `Cache-Control` `private, no-store`
  for a private album or `public, max-age=${max_age}` for a public one. An unknown photo is 404.
- `DELETE /albums/{id}/file?name=`: 204, an uploaded photo is gone (its bytes no longer count
  against the quota); a library photo is 409 `"read_only"`; an unknown photo 404.
- `GET /me`: 200, `{"user", "albums", "uploaded_bytes", "quota"}`: how many albums the caller
  owns and how many bytes their uploaded photos take.

`result`: rows for each of, anonymous unless said otherwise:
1. `[status code, JSON body]` of `GET /albums` as `${u1}`
2. `[status code, JSON body]` of `GET /albums/1/photos`
3. `[status code, Content-Type, body as text]` of `GET /albums/1/file?name=sunset.jpg`
4. `[status code, JSON body]` of `GET /albums/2` as `${u1}`
5. `[status code, JSON body]` of `POST /albums` with `{"title": "${new_title}"}` as `${u1}`
'''


def _photo(text, extra=""):
    return lambda p: f"{text}:{p['u1']}:" + "#" * p["pad"] + extra


def _albums_json(p):
    albums = [{"id": 1, "owner": p["u1"], "title": p["title1"], "private": False},
              {"id": 2, "owner": p["u2"], "title": "Family", "private": True},
              {"id": 3, "owner": p["u1"], "title": "Drafts", "private": p["album3_private"]},
              {"id": p["last_id"], "owner": p["u3"], "title": "Empty", "private": False}]
    return json.dumps(albums, indent=1) + "\n"


SETUP = {
    "library/albums.json": _albums_json,
    "library/1/sunset.jpg": _photo("JPEG sunset"),
    "library/1/waves.png": _photo("PNG waves", "+"),
    "library/1/notes.txt": "not a photo\n",
    "library/1/Beach-2.gif": _photo("GIF beach"),
    "library/2/kids.jpg": _photo("JPEG kids, private"),
    "library/2/cake.gif": _photo("GIF cake"),
    "library/3/draft.png": _photo("PNG draft"),
    "library/3/.hidden.png": "dotfile\n",
}


def _derive(p):
    exts = p["exts"]
    return {
        "t1": p["tp"] + p["u1"], "t2": p["tp"] + p["u2"], "t3": p["tp"] + p["u3"],
        "ext_alt": "|".join(exts), "ext_text": ", ".join(f"`{e}`" for e in exts),
        "default_private_json": "true" if p["default_private"] else "false",
        "quota": p["max_bytes"] * p["quota_photos"] + p["max_bytes"] // 2,
    }


_SIZE_CHECK = '''    if len(data) > MAX_BYTES:
        raise HTTPException(413, "too_large")
'''
_DUPLICATE = '''    if name in photo_names(album["id"]):
        raise HTTPException(409, "exists")
'''

FAMILY = Family(
    id="security/photo_share",
    title="Photo albums on disk that withstand path traversal, oversized uploads and peeking",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    setup=SETUP,
    original={"u1": "nina", "u2": "otto", "u3": "pia", "tp": "ph-", "exts": ["jpg", "png", "gif"],
              "stem_max": 24, "max_bytes": 2048, "quota_photos": 3, "default_private": True,
              "max_age": 300, "album3_private": True, "title_max": 50, "pad": 40,
              "title1": "Seaside", "last_id": 4, "new_title": "Hiking"},
    space={
        "u1": [{"u1": "nina", "u2": "otto", "u3": "pia"},
               {"u1": "raj", "u2": "sofia", "u3": "tom"}],
        "tp": ["ph-", "tok_"],
        "exts": [["jpg", "png", "gif"], ["jpg", "png"]],
        "stem_max": [24, 40],
        "max_bytes": [{"max_bytes": 2048, "quota_photos": 3},
                      {"max_bytes": 1000, "quota_photos": 2},
                      {"max_bytes": 4096, "quota_photos": 2}],
        "default_private": [{"default_private": True, "max_age": 300},
                            {"default_private": False, "max_age": 60}],
        "title_max": [50, 30],
        # the library's contents reach no prompt: they change with the prompt's new title
        "pad": [{"pad": 40, "title1": "Seaside", "last_id": 4, "new_title": "Hiking",
                 "album3_private": True},
                {"pad": 97, "title1": "Mountains", "last_id": 7, "new_title": "City walks",
                 "album3_private": False}],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement(
            "A sent `Authorization` must be exactly `Bearer <token>` with a listed token or the "
            "request is 401 on every route; anonymous callers only read; every 401 carries "
            "`WWW-Authenticate: Bearer`.",
            probes=("credentials_checked",),
            traps=(Edit("scheme case ignored", 'if scheme != "Bearer" or token not in TOKENS:',
                        'if scheme.lower() != "bearer" or token not in TOKENS:'),
                   Edit("bad credentials read as anonymous", """    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]""", """    if scheme != "Bearer" or token not in TOKENS:
        return None
    return TOKENS[token]"""),
                   Edit("no challenge for anonymous writes", """    if user is None:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})""",
                        """    if user is None:
        raise HTTPException(401, "unauthorized")"""),
                   Edit("token trimmed", "    scheme, _, token = authorization.partition(\" \")",
                        "    scheme, _, token = authorization.strip().partition(\" \")\n"
                        "    token = token.strip()")),
            security=True),
        Requirement(
            "A private album, its photos and their files exist only for its owner: to anyone "
            "else, anonymous callers included, they are 404 and left out of `GET /albums`.",
            probes=("anonymous_reads_public_only", "private_albums_stay_private"),
            traps=(Edit("every album listed",
                        "    return [album_out(a) for _, a in sorted(albums.items()) "
                        "if can_see(a, user)]",
                        "    return [album_out(a) for _, a in sorted(albums.items())]"),
                   Edit("photo list of any album",
                        "def list_photos(album: Annotated[dict, Depends(visible_album)]):",
                        "def list_photos(album_id: int):\n    album = albums[album_id]"),
                   Edit("files of any album", "def download(album: Annotated[dict, "
                        "Depends(visible_album)], name: PhotoName):",
                        "def download(album_id: int, name: PhotoName):\n"
                        "    album = albums[album_id]")),
            security=True),
        Requirement(
            "Only the owner changes an album or its photos; another caller who can read the "
            "album gets 403 `forbidden`.",
            probes=("only_the_owner_changes_an_album",),
            traps=(Edit("anyone who reads may change", """    if album["owner"] != user:
        raise HTTPException(403, "forbidden")
""", ""),
                   Edit("non-owners told 404", 'raise HTTPException(403, "forbidden")',
                        'raise HTTPException(404, "not_found")')),
            security=True),
        Requirement(
            "A body can never set an album's id, owner or photo count: any unlisted field is "
            "422, on creation and on update.",
            probes=("body_cannot_set_owner",),
            traps=(extras_ignored("create ignores extras", "AlbumIn"),
                   extras_ignored("patch ignores extras", "AlbumPatch")),
            security=True),
        Requirement(
            "Titles are 1-${title_max} characters, `private` a boolean defaulting to "
            "`${default_private_json}`; `/me` counts the caller's albums.",
            probes=("album_fields",),
            traps=(Edit("title unbounded",
                        "title: str = Field(min_length=1, max_length=${title_max})",
                        "title: str = Field(min_length=1)"),
                   Edit("default flipped", "private: bool = ${default_private}",
                        lambda p: f"private: bool = {not p['default_private']}"))),
        Requirement(
            "A download gives the photo's exact bytes with `Content-Type` after its extension, "
            "`Content-Disposition: attachment; filename=\"<name>\"` and `Cache-Control` "
            "`private, no-store` or `public, max-age=${max_age}`.",
            probes=("download_headers",),
            traps=(Edit("always cached publicly", 'cache = "private, no-store" if '
                        'album["private"] else "public, max-age=${max_age}"',
                        'cache = "public, max-age=${max_age}"'),
                   Edit("inline disposition", """f'attachment; filename="{name}"'""",
                        """f'inline; filename="{name}"'"""),
                   Edit("generic content type", 'media_type=MEDIA[name.rsplit(".", 1)[1]]',
                        'media_type="application/octet-stream"'))),
        Requirement(
            "An album's photos are the library files whose names follow the rule plus its "
            "uploads, listed by name in code point order with their sizes.",
            probes=("photo_listing", "download_headers"),
            traps=(Edit("every library file a photo",
                        "    return [name for name in files if re.fullmatch(NAME, name)]",
                        "    return files"),
                   Edit("listing ignores case", "    return sorted(library_photos.get(album_id, "
                        "[]) + list(uploads.get(album_id, {})))",
                        "    return sorted(library_photos.get(album_id, []) + "
                        "list(uploads.get(album_id, {})), key=str.lower)"))),
        Requirement(
            "A photo is read only from its own album: a name outside the stated rule is 422 and "
            "never reaches another album or file.",
            probes=("names_cannot_escape_the_album",),
            traps=(Edit("download path from the name", """name: PhotoName):
    path = photo_file(album["id"], name)
    cache""", """name: str):
    path = LIBRARY / str(album["id"]) / name
    if not path.is_file():
        raise HTTPException(404, "not_found")
    cache"""),
                   Edit("name unquoted", "def download(album: Annotated[dict, "
                        "Depends(visible_album)], name: PhotoName):",
                        "def download(album: Annotated[dict, Depends(visible_album)], "
                        "name: str):\n    import urllib.parse\n"
                        "    name = urllib.parse.unquote(name)\n"
                        "    if not re.fullmatch(NAME, name):\n"
                        "        raise RequestValidationError([])"),
                   Edit("name checked loosely", "PhotoName = Annotated[str, Query(pattern=NAME)]",
                        'PhotoName = Annotated[str, Query(pattern=NAME.lstrip("^"))]')),
            security=True),
        Requirement(
            "An upload's file name must follow the rule (else 422): it is never cleaned up, "
            "and nothing is stored outside the album.",
            probes=("uploads_cannot_escape_the_album",),
            traps=(Edit("directory part dropped", '    name = file.filename or ""',
                        '    name = Path(file.filename or "").name'),
                   Edit("upload name unchecked", """    if not re.fullmatch(NAME, name):
        raise RequestValidationError([{"type": "name", "loc": ("body", "file")}])
""", """    if not name:
        raise RequestValidationError([{"type": "name", "loc": ("body", "file")}])
"""),
                   Edit("extension case ignored", "    if not re.fullmatch(NAME, name):\n",
                        "    if not re.fullmatch(NAME, name, re.IGNORECASE):\n")),
            security=True),
        Requirement(
            "A photo is 1 to ${max_bytes} bytes: an empty file is 422, a larger one 413 "
            "`too_large` and is not stored.",
            probes=("upload_size_bounds",),
            traps=(Edit("size unbounded", _SIZE_CHECK, ""),
                   Edit("bound off by one", "    if len(data) > MAX_BYTES:\n",
                        "    if len(data) >= MAX_BYTES:\n"),
                   Edit("empty accepted", """    if not data:
        raise RequestValidationError""", """    if data is None:
        raise RequestValidationError""")),
            security=True),
        Requirement(
            "A user's uploaded photos take at most ${quota} bytes together (else 413 `quota`); "
            "deleting one (204, then 404) frees its bytes; `/me` reports them.",
            probes=("quota_and_delete",),
            traps=(Edit("quota never freed",
                        "    used[album[\"owner\"]] -= uploads[album[\"id\"]].pop(name)",
                        "    uploads[album[\"id\"]].pop(name)"),
                   Edit("quota not enforced", """    if used[album["owner"]] + len(data) > QUOTA:
        raise HTTPException(413, "quota")
""", ""),
                   Edit("quota off by one", "    if used[album[\"owner\"]] + len(data) > QUOTA:",
                        "    if used[album[\"owner\"]] + len(data) >= QUOTA:")),
            security=True),
        Requirement(
            "Library photos cannot be deleted (409 `read_only`) or replaced: an existing name is "
            "409 `exists`.",
            probes=("library_is_read_only",),
            traps=(Edit("library photos deletable", """    if name not in uploads.get(album["id"], {}):
        raise HTTPException(409, "read_only")
    (UPLOADS""", """    if name not in uploads.get(album["id"], {}):
        library_photos[album["id"]].remove(name)
        return
    (UPLOADS"""),
                   Edit("names replaced", _DUPLICATE, "")),
            security=True),
        Requirement(
            "With several failures the first of 401, 404, 403, 422, 409, 413 wins.",
            probes=("checks_in_order",),
            traps=(Edit("size before duplicates", _DUPLICATE + _SIZE_CHECK,
                        _SIZE_CHECK + _DUPLICATE),
                   Edit("owner checked before visibility", """    album = visible_album(album_id, user)
    if album["owner"] != user:""", """    album = albums.get(album_id)
    if album is not None and album["owner"] != user:
        raise HTTPException(403, "forbidden")
    album = visible_album(album_id, user)
    if album["owner"] != user:"""))),
    ),
)
