from fastapi_env.tasks import Task

_SUMMARY = '''\
PNG = b"\\x89PNG\\r\\n\\x1a\\n"


def summarize(response):
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/albums", data={"title": "Trip"}, files=[
        ("photos", ("a.png", PNG + b"aaaa", "image/png")),
        ("photos", ("b.png", PNG + b"bb", "application/octet-stream")),
    ])),
    summarize(client.post("/albums", data={"title": "Solo"}, files=[
        ("photos", ("one.png", PNG, "image/png")),
        ("cover", ("c.png", PNG + b"c", "image/png")),
    ])),
    summarize(client.post("/albums", data={"title": "Fake"}, files=[
        ("photos", ("ok.png", PNG, "image/png")),
        ("photos", ("fake.png", b"hello world", "image/png")),
    ])),
    summarize(client.post("/albums", files=[("photos", ("a.png", PNG, "image/png"))])),
    summarize(client.post("/albums", data={"title": "Empty"})),
]
'''

TASK = Task(
    id="forms_files/album_upload",
    title="Upload several files together with a form field",
    category="forms_files",
    difficulty="hard",
    prompt='''\
Build an app with one route, `POST /albums`, that receives a multipart form creating a photo
album. Parts, in this order:

- `title`: a form field (text), required, 1 to 40 characters. As in an HTML form, a field
  submitted with an empty value counts as not submitted (so it is `missing`).
- `photos`: one or more uploaded files, all sent under the same part name `photos`; required.
- `cover`: one optional uploaded file under the part name `cover`.

Rules:
- A file is a PNG when its content starts with the 8-byte PNG signature
  `b"\\x89PNG\\r\\n\\x1a\\n"`. The content type that the client declares for a part is reported
  back as given, but never used to decide whether a file is a PNG.
- Check the photos in upload order, then the cover: the first file that is not a PNG answers
  415 with the JSON body `{"detail": "<its filename> is not a PNG"}`.
- Missing or invalid parts are FastAPI's standard 422 validation error: entries of type
  `missing` (or `string_too_long` for a title over 40 characters) at loc `["body", "title"]` /
  `["body", "photos"]`, listed in the part order above.
- Otherwise answer 201 with the JSON body
  `{"title": ..., "photos": [{"filename": ..., "content_type": ..., "size": <bytes, int>}, ...],
  "cover": <the cover's filename, or null>, "total_bytes": <sum of the photos' sizes>}`,
  `photos` in upload order.

Then fill `result` with one row per request, in this order, with

    PNG = b"\\x89PNG\\r\\n\\x1a\\n"

Send the form fields with `data=` and the files with `files=` (a list of
`(part name, (filename, content bytes, content type))` tuples), e.g.
`client.post("/albums", data={"title": "Trip"}, files=[("photos", ("a.png", PNG + b"aaaa", "image/png")), ...])`.
Each row is `[status code (integer), summary]`, where summary is the JSON body (object) when
the status is not 422, and for a 422 the list of `[entry["type"], entry["loc"]]` pairs (a
string and a list), one per entry of the body's `detail` list, in the order given there.

1. `data={"title": "Trip"}`, files: `photos` = (`a.png`, `PNG + b"aaaa"`, `image/png`) and
   `photos` = (`b.png`, `PNG + b"bb"`, `application/octet-stream`)
2. `data={"title": "Solo"}`, files: `photos` = (`one.png`, `PNG`, `image/png`) and
   `cover` = (`c.png`, `PNG + b"c"`, `image/png`)
3. `data={"title": "Fake"}`, files: `photos` = (`ok.png`, `PNG`, `image/png`) and
   `photos` = (`fake.png`, `b"hello world"`, `image/png`)
4. no `data`, files: `photos` = (`a.png`, `PNG`, `image/png`)
5. `data={"title": "Empty"}` and no files
''',
    reference='''\
from typing import Annotated

from fastapi import FastAPI, File, Form, HTTPException, UploadFile
from fastapi.testclient import TestClient

SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"

app = FastAPI()


async def is_png(upload: UploadFile) -> bool:
    head = await upload.read(len(SIGNATURE))
    await upload.seek(0)
    return head == SIGNATURE


@app.post("/albums", status_code=201)
async def create_album(
    title: Annotated[str, Form(min_length=1, max_length=40)],
    photos: Annotated[list[UploadFile], File()],
    cover: Annotated[UploadFile | None, File()] = None,
):
    for upload in [*photos, *([cover] if cover is not None else [])]:
        if not await is_png(upload):
            raise HTTPException(status_code=415, detail=f"{upload.filename} is not a PNG")
    return {
        "title": title,
        "photos": [
            {"filename": p.filename, "content_type": p.content_type, "size": p.size}
            for p in photos
        ],
        "cover": cover.filename if cover is not None else None,
        "total_bytes": sum(p.size for p in photos),
    }


''' + _SUMMARY,
    probes='''\
PNG = b"\\x89PNG\\r\\n\\x1a\\n"


def _summary(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def probe_declared_types_are_reported_not_trusted(client):
    r = client.post("/albums", data={"title": "Mixed"}, files=[
        ("photos", ("x.txt", PNG + b"x" * 10, "text/plain")),
        ("photos", ("y.png", PNG + b"y", "image/png")),
        ("photos", ("z.bin", PNG, "application/octet-stream")),
    ])
    return [_summary(r)]


def probe_cover_is_checked_after_photos(client):
    rows = [_summary(client.post("/albums", data={"title": "Cover"}, files=[
        ("photos", ("p.png", PNG, "image/png")),
        ("cover", ("cover.jpg", b"\\xff\\xd8\\xff\\xe0JFIF", "image/png")),
    ]))]
    rows.append(_summary(client.post("/albums", data={"title": "Both"}, files=[
        ("photos", ("p1.png", PNG, "image/png")),
        ("photos", ("notes.png", b"GIF89a", "image/png")),
        ("cover", ("cover.jpg", b"\\xff\\xd8", "image/jpeg")),
    ])))
    return rows


def probe_title_rules_and_part_names(client):
    one = [("photos", ("a.png", PNG, "image/png"))]
    rows = [_summary(client.post("/albums", data={"title": ""}, files=one))]
    rows.append(_summary(client.post("/albums", data={"title": "t" * 41}, files=one)))
    rows.append(_summary(client.post("/albums", data={"title": "t" * 40}, files=one)))
    rows.append(_summary(client.post("/albums", data={"title": "Typo"},
                                     files=[("photo", ("a.png", PNG, "image/png"))])))
    rows.append(_summary(client.post("/albums", data={"other": "x"})))
    return rows
''',
    traps={
        "a single UploadFile for photos (keeps only the last part)": '''\
from typing import Annotated

from fastapi import FastAPI, File, Form, HTTPException, UploadFile
from fastapi.testclient import TestClient

SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"
app = FastAPI()


@app.post("/albums", status_code=201)
async def create_album(
    title: Annotated[str, Form(min_length=1, max_length=40)],
    photos: Annotated[UploadFile, File()],
    cover: Annotated[UploadFile | None, File()] = None,
):
    uploads = [photos] + ([cover] if cover is not None else [])
    for upload in uploads:
        head = await upload.read(8)
        await upload.seek(0)
        if head != SIGNATURE:
            raise HTTPException(status_code=415, detail=f"{upload.filename} is not a PNG")
    return {
        "title": title,
        "photos": [{"filename": photos.filename, "content_type": photos.content_type, "size": photos.size}],
        "cover": cover.filename if cover is not None else None,
        "total_bytes": photos.size,
    }


''' + _SUMMARY,
        "trusts the declared content type": '''\
from typing import Annotated

from fastapi import FastAPI, File, Form, HTTPException, UploadFile
from fastapi.testclient import TestClient

app = FastAPI()


@app.post("/albums", status_code=201)
async def create_album(
    title: Annotated[str, Form(min_length=1, max_length=40)],
    photos: Annotated[list[UploadFile], File()],
    cover: Annotated[UploadFile | None, File()] = None,
):
    for upload in [*photos, *([cover] if cover is not None else [])]:
        if upload.content_type != "image/png":
            raise HTTPException(status_code=415, detail=f"{upload.filename} is not a PNG")
    return {
        "title": title,
        "photos": [
            {"filename": p.filename, "content_type": p.content_type, "size": p.size}
            for p in photos
        ],
        "cover": cover.filename if cover is not None else None,
        "total_bytes": sum(p.size for p in photos),
    }


''' + _SUMMARY,
        "metadata as a JSON body model next to the files": '''\
from typing import Annotated

from fastapi import FastAPI, File, HTTPException, UploadFile
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"


class AlbumMeta(BaseModel):
    title: str = Field(min_length=1, max_length=40)


app = FastAPI()


@app.post("/albums", status_code=201)
async def create_album(
    meta: AlbumMeta,
    photos: Annotated[list[UploadFile], File()],
    cover: Annotated[UploadFile | None, File()] = None,
):
    for upload in [*photos, *([cover] if cover is not None else [])]:
        head = await upload.read(8)
        await upload.seek(0)
        if head != SIGNATURE:
            raise HTTPException(status_code=415, detail=f"{upload.filename} is not a PNG")
    return {
        "title": meta.title,
        "photos": [
            {"filename": p.filename, "content_type": p.content_type, "size": p.size}
            for p in photos
        ],
        "cover": cover.filename if cover is not None else None,
        "total_bytes": sum(p.size for p in photos),
    }


''' + _SUMMARY,
    },
    expected_rows=[
        [201, {"title": "Trip", "photos": [
            {"filename": "a.png", "content_type": "image/png", "size": 12},
            {"filename": "b.png", "content_type": "application/octet-stream", "size": 10},
        ], "cover": None, "total_bytes": 22}],
        [201, {"title": "Solo", "photos": [
            {"filename": "one.png", "content_type": "image/png", "size": 8},
        ], "cover": "c.png", "total_bytes": 8}],
        [415, {"detail": "fake.png is not a PNG"}],
        [422, [["missing", ["body", "title"]]]],
        [422, [["missing", ["body", "photos"]]]],
    ],
)
