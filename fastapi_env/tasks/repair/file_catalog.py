"""Repair tier: a catalogue of text files and their metadata, a package of four modules in
/workspace with ten planted bugs (`/files/recent` declared after `/files/{file_id}`, so an int
path parameter answers it with a 422; an HTTPException handler that drops the exception's
headers; an editor dependency that returns its HTTPException instead of raising it, so viewers
write; a partial update dumped with exclude_none, so a null description is ignored; raw content
returned as a str and so JSON-encoded; a hyphenated query parameter without its alias; a
descending sort that reverses the ascending list and so the ties; sizes counted in characters,
not UTF-8 bytes; names compared case-sensitively; ids from len()+1, reused after a delete).
Each bug is one requirement's trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Edit, Family, Requirement, with_edits
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROWS_422_TYPE_LOC
from fastapi_env.tasks.repair._plumbing import editor

INIT = '''\
"""A catalogue of small text files: metadata, raw content, recent changes."""
'''

AUTH = '''\
from typing import Annotated

from fastapi import Depends, Header, HTTPException

TOKENS = {
    "${tok_editor}": {"name": "${editor}", "role": "editor"},
    "${tok_viewer}": {"name": "${viewer}", "role": "viewer"},
}
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="${realm}"'}


def current_user(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer" or token not in TOKENS:
        raise HTTPException(401, "invalid token", headers=CHALLENGE)
    return TOKENS[token]


def require_editor(user: Annotated[dict, Depends(current_user)]) -> dict:
    if user["role"] != "editor":
        raise HTTPException(403, "editors only", headers={"X-Required-Role": "editor"})
    return user
'''

STORE = '''\
from fastapi import HTTPException

FILES: dict[int, dict] = {}
COUNTERS = {"id": 0, "change": 0}


def _next(counter: str) -> int:
    COUNTERS[counter] += 1
    return COUNTERS[counter]


def size_of(content: str) -> int:
    return len(content.encode("utf-8"))


def touch(file: dict) -> None:
    """Mark the file as the most recently changed one."""
    file["changed"] = _next("change")


def add(name: str, media_type: str, content: str, description: str | None) -> dict:
    file = {"id": _next("id"), "name": name, "media_type": media_type, "content": content,
            "size": size_of(content), "description": description, "version": 1}
    touch(file)
    FILES[file["id"]] = file
    return file


def find(file_id: int) -> dict:
    if file_id not in FILES:
        raise HTTPException(404, "no such file")
    return FILES[file_id]


def by_name(name: str) -> dict | None:
    return next((f for f in FILES.values() if f["name"].lower() == name.lower()), None)


add("${name1}", "${type1}", ${content1__repr}, ${desc1__repr})
add("${name2}", "${type2}", ${content2__repr}, ${desc2__repr})
add("${name3}", "${type3}", ${content3__repr}, ${desc3__repr})
'''

MODELS = '''\
from typing import Literal

from pydantic import BaseModel, Field, field_validator

MediaType = Literal["text/plain", "text/csv", "application/json"]


class FileIn(BaseModel):
    name: str = Field(min_length=1, max_length=${name_max})
    media_type: MediaType
    content: str
    description: str | None = None


class FilePatch(BaseModel):
    """Only the fields sent change; a null description clears it."""

    description: str | None = None
    content: str | None = None

    @field_validator("content")
    @classmethod
    def content_not_null(cls, value):
        if value is None:
            raise ValueError("content cannot be null")
        return value


class FileOut(BaseModel):
    id: int
    name: str
    media_type: MediaType
    size: int
    description: str | None
    version: int
'''

ROUTES = '''\
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
''' + late_body.IMPORT + '''
from . import store
from .auth import current_user, require_editor
from .models import FileIn, FileOut, FilePatch


''' + late_body.ROUTE_CLASSES + '''

router = APIRouter(route_class=CallerFirstRoute, dependencies=[Depends(current_user)])
editors_only = [Depends(require_editor)]


def sort_files(files: list[dict], sort: str) -> list[dict]:
    if sort == "name":
        return sorted(files, key=lambda f: f["name"].lower())
    if sort == "size":
        return sorted(files, key=lambda f: (f["size"], f["id"]))
    return sorted(files, key=lambda f: (-f["size"], f["id"]))


@router.get("/files", response_model=list[FileOut])
def list_files(media_type: Annotated[str | None, Query(alias="media-type")] = None,
               sort: Literal["name", "size", "-size"] = "name"):
    files = [f for f in store.FILES.values() if media_type is None or f["media_type"] == media_type]
    return sort_files(files, sort)


@router.post("/files", status_code=201, response_model=FileOut, dependencies=editors_only)
def create_file(body: FileIn):
    if store.by_name(body.name) is not None:
        raise HTTPException(409, "name taken")
    return store.add(body.name, body.media_type, body.content, body.description)


@router.get("/files/recent", response_model=list[FileOut])
def recent_files(n: Annotated[int, Query(ge=1, le=10)] = ${recent_default}):
    return sorted(store.FILES.values(), key=lambda f: -f["changed"])[:n]


@router.get("/files/{file_id}", response_model=FileOut)
def read_file(file_id: int):
    return store.find(file_id)


@router.get("/files/{file_id}/raw")
def read_raw(file_id: int):
    file = store.find(file_id)
    return Response(file["content"], media_type=file["media_type"])


@router.patch("/files/{file_id}", response_model=FileOut, dependencies=editors_only)
def update_file(file_id: int, body: FilePatch):
    file = store.find(file_id)
    changes = body.model_dump(exclude_unset=True)
    if "content" in changes:
        changes["size"] = store.size_of(changes["content"])
    file.update(changes)
    file["version"] += 1
    store.touch(file)
    return file


@router.delete("/files/{file_id}", status_code=204, dependencies=editors_only)
def delete_file(file_id: int):
    store.find(file_id)
    del store.FILES[file_id]
'''

SOLUTION = '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException

from catalogue.routes import router

app = FastAPI()
app.include_router(router)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
EDITOR = {"Authorization": "Bearer ${tok_editor}"}
result = [
    row(client.get("/files", headers=EDITOR)),
    row(client.post("/files", headers=EDITOR, json={
        "name": "${new_name}", "media_type": "text/plain", "content": ${new_content__repr}})),
    [client.get("/files/4/raw", headers=EDITOR).text],
    row(client.patch("/files/1", headers=EDITOR, json={"description": "checked"})),
]
'''

_in = editor("catalogue")

_SHADOWED = _in("routes", "recent route declared after the id route", '''\
@router.get("/files/recent", response_model=list[FileOut])
def recent_files(n: Annotated[int, Query(ge=1, le=10)] = ${recent_default}):
    return sorted(store.FILES.values(), key=lambda f: -f["changed"])[:n]


@router.get("/files/{file_id}", response_model=FileOut)
def read_file(file_id: int):
    return store.find(file_id)
''', '''\
@router.get("/files/{file_id}", response_model=FileOut)
def read_file(file_id: int):
    return store.find(file_id)


@router.get("/files/recent", response_model=list[FileOut])
def recent_files(n: Annotated[int, Query(ge=1, le=10)] = ${recent_default}):
    return sorted(store.FILES.values(), key=lambda f: -f["changed"])[:n]
''')
_HEADERS_DROPPED = Edit("error handler drops the exception's headers",
                        "status_code=exc.status_code, headers=exc.headers)",
                        "status_code=exc.status_code)")
_RETURNED = _in("auth", "editor check returns the exception",
                '        raise HTTPException(403, "editors only"',
                '        return HTTPException(403, "editors only"')
_EXCLUDE_NONE = _in("routes", "partial update drops explicit nulls",
                    "changes = body.model_dump(exclude_unset=True)",
                    "changes = body.model_dump(exclude_none=True)")
_RAW_AS_JSON = _in("routes", "raw content returned as a JSON string",
                   '    return Response(file["content"], media_type=file["media_type"])',
                   '    return file["content"]')
# Planted with it, so the setup imports nothing it does not use.
_RESPONSE_UNUSED = _in("routes", "Response no longer imported",
                       "from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response\n",
                       "from fastapi import APIRouter, Depends, HTTPException, Query, Request\n")
_NO_ALIAS = _in("routes", "media-type filter without its alias",
                'Annotated[str | None, Query(alias="media-type")] = None',
                "Annotated[str | None, Query()] = None")
_TIES_REVERSED = _in("routes", "largest first by reversing smallest first",
                     '    return sorted(files, key=lambda f: (-f["size"], f["id"]))',
                     '    return sort_files(files, "size")[::-1]')
_CHAR_SIZE = _in("store", "size counted in characters",
                 '    return len(content.encode("utf-8"))', "    return len(content)")
_NAME_CASE = _in("store", "names compared case-sensitively",
                 'f["name"].lower() == name.lower()', 'f["name"] == name')
_IDS_REUSED = _in("store", "ids from the number of files",
                  'file = {"id": _next("id"),', 'file = {"id": len(FILES) + 1,')

FILES = {"catalogue/__init__.py": INIT, "catalogue/auth.py": AUTH, "catalogue/store.py": STORE,
         "catalogue/models.py": MODELS, "catalogue/routes.py": ROUTES}
PLANTED = (_SHADOWED, _HEADERS_DROPPED, _RETURNED, _EXCLUDE_NONE, _RAW_AS_JSON, _RESPONSE_UNUSED,
           _NO_ALIAS,
           _TIES_REVERSED, _CHAR_SIZE, _NAME_CASE, _IDS_REUSED)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = ROWS_422_TYPE_LOC + '''\
EDITOR = {"Authorization": "Bearer ${tok_editor}"}
VIEWER = {"Authorization": "Bearer ${tok_viewer}"}


def _new(client, name, content="x", media_type="text/plain", description=None):
    body = {"name": name, "media_type": media_type, "content": content,
            "description": description}
    return client.post("/files", headers=EDITOR, json=body)


def _names(r):
    return [f["name"] for f in r.json()] if r.status_code == 200 else _brief(r)


def probe_recent_files(client):
    rows = []
    for query in ["", "?n=1", "?n=10", "?n=0", "?n=11", "?n=two"]:
        r = client.get("/files/recent" + query, headers=VIEWER)
        rows.append([query, _names(r)])
    client.patch("/files/2", headers=EDITOR, json={})
    rows.append(_names(client.get("/files/recent?n=2", headers=VIEWER)))
    made = _new(client, "recent.txt")
    rows.append(_names(client.get("/files/recent?n=2", headers=EDITOR)))
    client.delete(f"/files/{made.json()['id']}", headers=EDITOR)
    rows.append(_names(client.get("/files/recent?n=1", headers=EDITOR)))
    return rows


def probe_failures_carry_their_headers(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer nope"},
                    {"Authorization": "bearer ${tok_viewer}"},
                    {"Authorization": "Token ${tok_viewer}"},
                    {"Authorization": "${tok_viewer}"}, {"Authorization": "Bearer ${viewer}"}]:
        for method, path in [("GET", "/files"), ("GET", "/files/recent"), ("GET", "/files/1"),
                             ("GET", "/files/1/raw"), ("POST", "/files"),
                             ("DELETE", "/files/1")]:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    for method, path in [("POST", "/files"), ("PATCH", "/files/1"), ("DELETE", "/files/1")]:
        r = client.request(method, path, headers=VIEWER, json={})
        rows.append([method, path, r.status_code, r.json(), r.headers.get("x-required-role"),
                     r.headers.get("www-authenticate")])
    return rows


def probe_viewers_cannot_write(client):
    before = client.get("/files", headers=VIEWER).json()
    valid = {"name": "viewer.txt", "media_type": "text/plain", "content": "v"}
    rows = [_row(client.post("/files", headers=VIEWER, json=valid)),
            _row(client.post("/files", headers=VIEWER, json={"name": ""})),
            _row(client.patch("/files/1", headers=VIEWER, json={"description": "mine"})),
            _row(client.patch("/files/1", headers=VIEWER, json={"content": None})),
            _row(client.delete("/files/1", headers=VIEWER)),
            _row(client.delete("/files/9999", headers=VIEWER)),
            _row(client.post("/files", json={"name": ""})),
            [client.get("/files", headers=VIEWER).json() == before]]
    return rows


def probe_partial_updates(client):
    made = _new(client, "partial.txt", "abc", description="first").json()
    path = f"/files/{made['id']}"
    rows = []
    for body in [{}, {"content": "abcdef"}, {"description": None}, {"description": "second"},
                 {"content": None}, {"description": None, "content": "z"}, {"version": 99},
                 {"name": "renamed.txt"}]:
        r = client.patch(path, headers=EDITOR, json=body)
        rows.append([body, _row(r) if r.status_code == 200 else _brief(r)])
    rows.append(_row(client.get(path, headers=VIEWER)))
    rows.append([client.get(path + "/raw", headers=VIEWER).text])
    return rows


def probe_raw_content(client):
    rows = []
    made = _new(client, "raw.json", '{"k": [1, 2]}', "application/json").json()
    for file_id in [1, 2, 3, made["id"]]:
        r = client.get(f"/files/{file_id}/raw", headers=VIEWER)
        rows.append([file_id, r.status_code, r.headers.get("content-type"), r.text])
    return rows


def probe_media_type_filter(client):
    rows = []
    for query in ["?media-type=${type1}", "?media-type=${type2}&sort=-size",
                  "?media-type=image/png", "?media-type=", "?media_type=${type2}",
                  "?media-type=${type1_upper}"]:
        rows.append([query, _names(client.get("/files" + query, headers=VIEWER))])
    return rows


def probe_sort_orders(client):
    for name in ["tie-b.txt", "tie-a.txt", "tie-c.txt"]:
        _new(client, name, "${tie_content}")
    rows = []
    for query in ["", "?sort=name", "?sort=size", "?sort=-size", "?sort=SIZE", "?sort=-name"]:
        rows.append([query, _names(client.get("/files" + query, headers=VIEWER))])
    return rows


def probe_sizes_in_utf8_bytes(client):
    rows = [[f["name"], f["size"]] for f in client.get("/files", headers=VIEWER).json()]
    made = _new(client, "bytes.txt", ${wide_content__repr})
    rows.append([made.json()["size"]])
    patched = client.patch(f"/files/{made.json()['id']}", headers=EDITOR,
                           json={"content": ${wide_patch__repr}})
    rows.append([patched.json()["size"]])
    return rows


def probe_names_unique_ignoring_case(client):
    rows = []
    for name in ["${name1_upper}", "${name2}", "Unique.TXT", "unique.txt", "",
                 "n" * ${name_max}, "m" * (${name_max} + 1)]:
        r = _new(client, name)
        rows.append([name, r.status_code, r.json()["name"] if r.status_code == 201
                     else _brief(r)[1]])
    gone = _new(client, "Ephemeral.txt").json()["id"]
    client.delete(f"/files/{gone}", headers=EDITOR)
    rows.append([_new(client, "EPHEMERAL.txt").status_code])
    return rows


def probe_ids_never_reused(client):
    first = _new(client, "id-one.txt").json()["id"]
    second = _new(client, "id-two.txt").json()["id"]
    client.delete(f"/files/{first}", headers=EDITOR)
    third = _new(client, "id-three.txt").json()["id"]
    client.delete(f"/files/{third}", headers=EDITOR)
    fourth = _new(client, "id-four.txt").json()["id"]
    return [[second - first, third - first, fourth - first],
            _names(client.get("/files", headers=VIEWER)),
            [client.get(f"/files/{second}", headers=VIEWER).json()["name"]]]


def probe_unknown_files(client):
    rows = []
    for method, path in [("GET", "/files/9999"), ("GET", "/files/9999/raw"),
                         ("PATCH", "/files/9999"), ("DELETE", "/files/9999"),
                         ("GET", "/files/abc"), ("DELETE", "/files/abc")]:
        rows.append([method, path, _brief(client.request(method, path, headers=EDITOR,
                                                          json={}))])
    made = _new(client, "twice.txt").json()["id"]
    rows.append(_row(client.delete(f"/files/{made}", headers=EDITOR)))
    rows.append(_row(client.delete(f"/files/{made}", headers=EDITOR)))
    rows.append(_row(client.get(f"/files/{made}/raw", headers=EDITOR)))
    return rows


def probe_media_types_allowed(client):
    rows = []
    for number, media_type in enumerate(["text/plain", "text/csv", "application/json",
                                         "image/png", "text/html", "TEXT/PLAIN", "", None]):
        r = _new(client, f"type-{number}.txt", media_type=media_type)
        rows.append([media_type, r.status_code, r.json()["media_type"] if r.status_code == 201
                     else _brief(r)[1]])
    return rows


def _late(r):
    """A 422 as where its errors lie (FastAPI names a body that is not JSON in more than one
    way); anything else as [status, body], with the failure's headers."""
    if r.status_code == 422:
        shown = sorted({str(e["loc"][0]) for e in r.json()["detail"]})
    else:
        shown = r.json()
    return [r.status_code, shown, r.headers.get("www-authenticate"),
            r.headers.get("x-required-role")]
''' + late_body.probe_source(
    [("POST", "/files"), ("PATCH", "/files/2")],
    [("no token", "{}"), ("unknown token", '{"Authorization": "Bearer nope"}'),
     ("viewer", "VIEWER"), ("editor", "EDITOR")], row="_late")

_SETS = {
    "seeds": [
        {"name1": "notes.txt", "name1_upper": "NOTES.TXT", "type1": "text/plain",
         "type1_upper": "TEXT/PLAIN", "content1": "café au lait\n", "desc1": "shopping",
         "name2": "prices.csv", "type2": "text/csv", "content2": "sku,price\nA,12",
         "desc2": None, "name3": "config.json", "type3": "application/json",
         "content3": '{"debug": true}', "desc3": "flags",
         "new_name": "todo.txt", "new_content": "fix the café sign", "tie_content": "12345678",
         "wide_content": "naïve façade ✓", "wide_patch": "日本語"},
        {"name1": "readme.txt", "name1_upper": "README.txt", "type1": "text/plain",
         "type1_upper": "Text/Plain", "content1": "Grüße aus Köln", "desc1": None,
         "name2": "scores.csv", "type2": "text/csv", "content2": "name,score\nzoë,9\nli,7\n",
         "desc2": "league", "name3": "menu.json", "type3": "application/json",
         "content3": '{"soup": "miso", "price": 4}', "desc3": "lunch",
         "new_name": "plan.txt", "new_content": "déjà vu at noon", "tie_content": "abcdefghijklmnop",
         "wide_content": "€ 5 — naïve", "wide_patch": "ñandú"},
    ],
    "auth": [
        {"editor": "erin", "viewer": "vic", "tok_editor": "ed-7f3a", "tok_viewer": "vw-19c2",
         "realm": "catalogue"},
        {"editor": "mo", "viewer": "nell", "tok_editor": "tok-mo-5", "tok_viewer": "tok-nell-8",
         "realm": "files"},
    ],
    "limits": [{"name_max": 20, "recent_default": 3}, {"name_max": 32, "recent_default": 5},
               {"name_max": 14, "recent_default": 2}],
}

FAMILY = Family(
    id="repair/file_catalog",
    title="Repair a file catalogue that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a catalogue of small text files: `solution.py` and the package `catalogue/`
it imports (`auth.py`, `store.py`, `models.py`, `routes.py`). It should behave as described
below but does not, in several ways. Find and fix every deviation (edit or rewrite any file);
`solution.py` must keep defining `app` and `result`. State lives in memory and carries from one
request to the next.

**Users.** Every route needs `Authorization: Bearer <token>` (the scheme exactly `Bearer`):
`${tok_editor}` is the editor `${editor}`, `${tok_viewer}` the viewer `${viewer}`. Anything
else is 401 with the header `WWW-Authenticate: Bearer realm="${realm}"`. Creating, changing and
deleting files is for editors only: a viewer gets 403 with the header `X-Required-Role: editor`
and nothing changes. The token is checked first, then the role, then the request itself, also
when the body is not JSON at all (a 422 like any other invalid body, for an editor only).

**Errors** have the body `{"error": <message>}`: 401 `invalid token`, 403 `editors only`, 404
`no such file`, 409 `name taken`. Request validation errors keep FastAPI's standard 422 body.

**A file** is shown as `{"id", "name", "media_type", "size", "description", "version"}`:
`size` is the length of its content in UTF-8 bytes, `description` a string or null, `version`
1 at creation and one more after every accepted change. Ids are 1, 2, 3, ... and never reused,
not even after a delete. At start there are three files, created in this order:

| id | name | media_type | description |
|---|---|---|---|
| 1 | ${name1} | ${type1} | ${desc1__json} |
| 2 | ${name2} | ${type2} | ${desc2__json} |
| 3 | ${name3} | ${type3} | ${desc3__json} |

with the contents ${content1__json}, ${content2__json} and ${content3__json} (JSON strings).

**Routes.**
- `GET /files?media-type=&sort=`: 200, the files as a list. With `media-type` (that exact
  query parameter name), only the files of exactly that media type. `sort` is `name` (the
  default: by name, ignoring case), `size` (smallest first) or `-size` (largest first); equal
  sizes in id order either way; any other value is a 422.
- `POST /files` with `{"name", "media_type", "content", "description"?}`: `name` of 1 to
  ${name_max} characters and not already used by a file, ignoring case (409); `media_type` one
  of `text/plain`, `text/csv`, `application/json`; 201 with the new file.
- `GET /files/recent?n=`: 200, the `n` (1 to 10, default ${recent_default}) most recently
  created or changed files, most recent first.
- `GET /files/{id}`: 200 with the file, 404 if none.
- `GET /files/{id}/raw`: 200, the content itself as the body (not JSON-encoded), with
  `Content-Type` the file's media type, followed by `; charset=utf-8` for the `text/` types.
- `PATCH /files/{id}` with any of `{"description", "content"}` (other keys are ignored): only
  the fields sent change; a null `description` clears it; `content` must be a string (null is a
  422 whose one error is a `value_error` at `["body", "content"]`); an empty object changes
  nothing but still counts as a change. 200 with the file.
- `DELETE /files/{id}`: 204 with an empty body.

`result` has four rows, in this order (all as the editor):
1. `[status, body]` of `GET /files`
2. `[status, body]` of `POST /files` with
   `{"name": "${new_name}", "media_type": "text/plain", "content": ${new_content__json}}`
3. `[text]`, the body of `GET /files/4/raw`
4. `[status, body]` of `PATCH /files/1` with `{"description": "checked"}`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["seeds"][0], **_SETS["auth"][0], **_SETS["limits"][0]},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement("`GET /files/recent` lists the n (1 to 10, default ${recent_default}) most "
                    "recently created or changed files, most recent first.",
                    probes=("recent_files",), traps=(_SHADOWED,)),
        Requirement('401s carry `WWW-Authenticate: Bearer realm="${realm}"` (scheme exactly '
                    "`Bearer`), 403s `X-Required-Role: editor`.",
                    probes=("failures_carry_their_headers",),
                    traps=(_HEADERS_DROPPED, _in("auth", "scheme compared ignoring case",
                                                 'if scheme != "Bearer"',
                                                 'if scheme.lower() != "bearer"'))),
        Requirement("A viewer can neither create, change nor delete a file (403 before any "
                    "validation), and nothing changes.",
                    probes=("viewers_cannot_write",), traps=(_RETURNED,)),
        Requirement("A body that is not JSON is a 422 only after the token and the role are "
                    "checked.",
                    probes=("credentials_before_json",),
                    traps=(_in("routes", "body decoded before the token",
                               "router = APIRouter(route_class=CallerFirstRoute, ",
                               "router = APIRouter("),)),
        Requirement("PATCH changes only the fields sent; a null description clears it; a null "
                    "content is a 422; every accepted PATCH bumps the version.",
                    probes=("partial_updates",), traps=(_EXCLUDE_NONE,)),
        Requirement("`GET /files/{id}/raw` answers the content itself with the file's media "
                    "type (and `; charset=utf-8` for text types).",
                    probes=("raw_content",), traps=(_RAW_AS_JSON,)),
        Requirement("`GET /files?media-type=...` keeps only the files of exactly that media "
                    "type; other query parameters are ignored.",
                    probes=("media_type_filter",), traps=(_NO_ALIAS,)),
        Requirement("`sort` orders by name ignoring case (default), by size or by -size, equal "
                    "sizes in id order either way; other values are 422.",
                    probes=("sort_orders",), traps=(_TIES_REVERSED,)),
        Requirement("`size` is the content's length in UTF-8 bytes.",
                    probes=("sizes_in_utf8_bytes",), traps=(_CHAR_SIZE,)),
        Requirement("Names (1 to ${name_max} characters) are unique ignoring case (409 "
                    "`name taken`); a deleted file's name is free again.",
                    probes=("names_unique_ignoring_case",), traps=(_NAME_CASE,)),
        Requirement("Ids are never reused, even after deletes.",
                    probes=("ids_never_reused",), traps=(_IDS_REUSED,)),
        Requirement("Unknown files are 404 `no such file` on every route; deleting twice is "
                    "a 404 the second time.",
                    probes=("unknown_files",),
                    traps=(_in("routes", "delete without the lookup", '''\
    store.find(file_id)
    del store.FILES[file_id]''', "    store.FILES.pop(file_id, None)"),)),
        Requirement("A new file's media type is exactly one of `text/plain`, `text/csv` and "
                    "`application/json` (else 422).",
                    probes=("media_types_allowed",),
                    traps=(_in("models", "any media type accepted",
                               "    media_type: MediaType\n    content: str\n",
                               "    media_type: str\n    content: str\n"),)),
    ),
)
