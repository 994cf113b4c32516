from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `POST /albums`, that receives a multipart form creating a photo
album. Parts, in this order:

- `title`: a form field (text), required, 1 to ${title_max} characters. As in an HTML form, a field
  submitted with an empty value counts as not submitted (so it is `missing`).
- `${photos}`: one or more uploaded files, all sent under the same part name `${photos}`; required.
- `${cover}`: one optional uploaded file under the part name `${cover}`.

Rules:
- A file is a PNG when its content starts with the 8-byte PNG signature
  `b"\\x89PNG\\r\\n\\x1a\\n"`. The content type that the client declares for a part is reported
  back as given, but never used to decide whether a file is a PNG.
- Check the photos in upload order, then the cover: the first file that is not a PNG answers
  ${bad_status} with the JSON body `{"detail": "<its filename> is not a PNG"}`.
- Missing or invalid parts are FastAPI's standard 422 validation error: entries of type
  `missing` (or `string_too_long` for a title over ${title_max} characters) at loc `["body", "title"]` /
  `["body", "${photos}"]`, listed in the part order above.
- Otherwise answer ${created} with the JSON body
  `{"title": ..., "${photos}": [{"filename": ..., "content_type": ..., "size": <bytes, int>}, ...],
  "${cover}": <the cover's filename, or null>, "total_bytes": <sum of the photos' sizes>}`,
  `${photos}` in upload order.

Then fill `result` with one row per request, in this order, with

    PNG = b"\\x89PNG\\r\\n\\x1a\\n"

Send the form fields with `data=` and the files with `files=` (a list of
`(part name, (filename, content bytes, content type))` tuples), e.g.
`client.post("/albums", data={"title": "${t1}"}, files=[("${photos}", ("${a_name}", PNG + b"${a_extra}", "image/png")), ...])`.
Each row is `[status code (integer), summary]`, where summary is the JSON body (object) when
the status is not 422, and for a 422 the list of `[entry["type"], entry["loc"]]` pairs (a
string and a list), one per entry of the body's `detail` list, in the order given there.

1. `data={"title": "${t1}"}`, files: `${photos}` = (`${a_name}`, `PNG + b"${a_extra}"`, `image/png`) and
   `${photos}` = (`${b_name}`, `PNG + b"${b_extra}"`, `${b_type}`)
2. `data={"title": "${t2}"}`, files: `${photos}` = (`${one_name}`, `PNG`, `image/png`) and
   `${cover}` = (`${c_name}`, `PNG + b"${c_extra}"`, `image/png`)
3. `data={"title": "${t3}"}`, files: `${photos}` = (`${ok_name}`, `PNG`, `image/png`) and
   `${photos}` = (`${fake_name}`, `b"${fake_bytes}"`, `image/png`)
4. no `data`, files: `${photos}` = (`${a_name}`, `PNG`, `image/png`)
5. `data={"title": "${t5}"}` and no files
'''

_CHECK = '''\
async def is_png(upload: UploadFile) -> bool:
    head = await upload.read(len(SIGNATURE))
    await upload.seek(0)
    return head == SIGNATURE
'''

_SIGNATURE = '''\
    title: Annotated[str, Form(min_length=1, max_length=${title_max})],
    ${photos}: Annotated[list[UploadFile], File()],
    ${cover}: Annotated[UploadFile | None, File()] = None,
):
'''

_ORDER = "for upload in [*${photos}, *([${cover}] if ${cover} is not None else [])]:"

REFERENCE = '''\
from typing import Annotated

from fastapi import FastAPI, File, Form, HTTPException, UploadFile
from fastapi.testclient import TestClient

SIGNATURE = b"\\x89PNG\\r\\n\\x1a\\n"

app = FastAPI()


''' + _CHECK + '''

@app.post("/albums", status_code=${created})
async def create_album(
''' + _SIGNATURE + '''\
    ''' + _ORDER + '''
        if not await is_png(upload):
            raise HTTPException(status_code=${bad_status}, detail=f"{upload.filename} is not a PNG")
    return {
        "title": title,
        "${photos}": [
            {"filename": p.filename, "content_type": p.content_type, "size": p.size}
            for p in ${photos}
        ],
        "${cover}": ${cover}.filename if ${cover} is not None else None,
        "total_bytes": sum(p.size for p in ${photos}),
    }


PNG = b"\\x89PNG\\r\\n\\x1a\\n"


def summarize(response):
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/albums", data={"title": "${t1}"}, files=[
        ("${photos}", ("${a_name}", PNG + b"${a_extra}", "image/png")),
        ("${photos}", ("${b_name}", PNG + b"${b_extra}", "${b_type}")),
    ])),
    summarize(client.post("/albums", data={"title": "${t2}"}, files=[
        ("${photos}", ("${one_name}", PNG, "image/png")),
        ("${cover}", ("${c_name}", PNG + b"${c_extra}", "image/png")),
    ])),
    summarize(client.post("/albums", data={"title": "${t3}"}, files=[
        ("${photos}", ("${ok_name}", PNG, "image/png")),
        ("${photos}", ("${fake_name}", b"${fake_bytes}", "image/png")),
    ])),
    summarize(client.post("/albums", files=[("${photos}", ("${a_name}", PNG, "image/png"))])),
    summarize(client.post("/albums", data={"title": "${t5}"})),
]
'''

PROBES = '''\
PNG = b"\\x89PNG\\r\\n\\x1a\\n"


def _summary(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def _one(content, name="p.png", content_type="image/png"):
    return [("${photos}", (name, content, content_type))]


def probe_declared_types_are_reported_not_trusted(client):
    r = client.post("/albums", data={"title": "Mixed"}, files=[
        ("${photos}", ("x.txt", PNG + b"x" * 10, "text/plain")),
        ("${photos}", ("y.png", PNG + b"y", "image/png")),
        ("${photos}", ("z.bin", PNG, "application/octet-stream")),
    ])
    rows = [_summary(r)]
    # upload order, not name order; a JPEG content type on a real PNG is still a PNG
    rows.append(_summary(client.post("/albums", data={"title": "Order"}, files=[
        ("${photos}", ("zz.png", PNG + b"12345", "image/jpeg")),
        ("${photos}", ("aa.png", PNG, "image/png")),
        ("${photos}", ("mm.png", PNG + b"1", "image/png")),
    ])))
    return rows


def probe_cover_is_checked_after_photos(client):
    rows = [_summary(client.post("/albums", data={"title": "Cover"}, files=[
        ("${photos}", ("p.png", PNG, "image/png")),
        ("${cover}", ("cover.jpg", b"\\xff\\xd8\\xff\\xe0JFIF", "image/png")),
    ]))]
    rows.append(_summary(client.post("/albums", data={"title": "Both"}, files=[
        ("${photos}", ("p1.png", PNG, "image/png")),
        ("${photos}", ("notes.png", b"GIF89a", "image/png")),
        ("${cover}", ("cover.jpg", b"\\xff\\xd8", "image/jpeg")),
    ])))
    rows.append(_summary(client.post("/albums", data={"title": "Two bad"}, files=[
        ("${photos}", ("first.gif", b"GIF89a", "image/png")),
        ("${photos}", ("second.gif", b"GIF87a", "image/png")),
    ])))
    return rows


def probe_cover_is_not_counted(client):
    return [_summary(client.post("/albums", data={"title": "Sized"}, files=[
        ("${photos}", ("p.png", PNG + b"abc", "image/png")),
        ("${cover}", ("big.png", PNG + b"c" * 100, "image/webp")),
        ("${photos}", ("q.png", PNG + b"d", "image/png")),
    ]))]


def probe_signature_is_exact(client):
    rows = []
    for content in [b"", PNG[:7], PNG[:4] + b"xxxx", PNG[:7] + b"\\x0b", b" " + PNG, PNG]:
        rows.append(_summary(client.post("/albums", data={"title": "Sig"}, files=_one(content))))
    return rows


def probe_title_rules_and_part_names(client):
    one = _one(PNG, "a.png")
    rows = [_summary(client.post("/albums", data={"title": ""}, files=one))]
    rows.append(_summary(client.post("/albums", data={"title": "t" * ${title_over}}, files=one)))
    rows.append(_summary(client.post("/albums", data={"title": "t" * ${title_max}}, files=one)))
    rows.append(_summary(client.post("/albums", data={"title": "t"}, files=one)))
    rows.append(_summary(client.post("/albums", data={"title": "Typo"},
                                     files=[("${wrong_part}", ("a.png", PNG, "image/png"))])))
    rows.append(_summary(client.post("/albums", data={"other": "x"})))
    return rows


def probe_validation_before_png_check(client):
    bad = _one(b"not a png", "bad.png")
    return [
        _summary(client.post("/albums", files=bad)),
        _summary(client.post("/albums", data={"title": "t" * ${title_over}}, files=bad)),
        _summary(client.post("/albums", data={"title": ""}, files=[("${cover}", ("c.png", PNG, "image/png"))])),
    ]


def probe_success_status(client):
    return [[client.post("/albums", data={"title": "S"}, files=_one(PNG)).status_code,
             client.post("/albums", data={"title": "T"}, files=_one(PNG) + [("${cover}", ("c.png", PNG, "image/png"))]).status_code]]
'''

_DATA = [
    {"t1": "Trip", "a_name": "a.png", "a_extra": "aaaa", "b_name": "b.png", "b_extra": "bb",
     "b_type": "application/octet-stream", "t2": "Solo", "one_name": "one.png", "c_name": "c.png",
     "c_extra": "c", "t3": "Fake", "ok_name": "ok.png", "fake_name": "fake.png",
     "fake_bytes": "hello world", "t5": "Empty"},
    {"t1": "Beach", "a_name": "sea.png", "a_extra": "wavewave", "b_name": "sand.png", "b_extra": "s",
     "b_type": "text/plain", "t2": "Alone", "one_name": "me.png", "c_name": "front.png",
     "c_extra": "front", "t3": "Forged", "ok_name": "real.png", "fake_name": "gif.png",
     "fake_bytes": "GIF89a", "t5": "Nothing"},
    {"t1": "Hike", "a_name": "peak.png", "a_extra": "", "b_name": "trail.png", "b_extra": "trail!",
     "b_type": "image/jpeg", "t2": "Single", "one_name": "x.png", "c_name": "top.png",
     "c_extra": "", "t3": "Broken", "ok_name": "fine.png", "fake_name": "zip.png",
     "fake_bytes": "PK", "t5": "Hollow"},
]

FAMILY = Family(
    id="forms_files/album_upload",
    title="Upload several files together with a form field",
    category="forms_files",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"title_max": 40, "bad_status": 415, "created": 201, "photos": "photos",
              "cover": "cover", **_DATA[0]},
    space={
        "title_max": [40, 24, 64],
        "bad_status": [415, 400],
        "created": [201, 200],
        "parts": [{"photos": "photos", "cover": "cover"}, {"photos": "images", "cover": "thumbnail"},
                  {"photos": "pictures", "cover": "banner"}],
        "data": _DATA,
    },
    derive=lambda p: {
        "title_over": p["title_max"] + 1,
        "title_under": p["title_max"] - 1,
        "wrong_part": p["photos"][:-1],  # the singular: a typo of the part name
        "other_status": 400 if p["bad_status"] != 400 else 415,
        "other_created": 200 if p["created"] != 200 else 201,
    },
    instances=36,
    requirements=(
        Requirement(
            "`${photos}` takes one or more files under one part name, reported in upload order "
            "with their declared content types and sizes; `total_bytes` sums the photos only "
            "(never the cover).",
            probes=("declared_types_are_reported_not_trusted", "cover_is_not_counted"),
            traps=(
                Edit("a single UploadFile for the photos (keeps only the last part)", _SIGNATURE,
                     _SIGNATURE.replace("list[UploadFile]", "UploadFile") + "    ${photos} = [${photos}]\n"),
                Edit("total_bytes counts the cover too", '"total_bytes": sum(p.size for p in ${photos}),',
                     '"total_bytes": sum(p.size for p in ${photos}) + (${cover}.size if ${cover} else 0),'),
                Edit("photos listed in filename order",
                     "            for p in ${photos}\n",
                     "            for p in sorted(${photos}, key=lambda u: u.filename)\n"),
            ),
        ),
        Requirement(
            "A file is a PNG exactly when its content starts with the 8-byte signature (an empty "
            "file, a truncated or altered signature, a leading byte are not); the declared content "
            "type and the filename never decide.",
            probes=("declared_types_are_reported_not_trusted", "signature_is_exact"),
            traps=(
                Edit("trusts the declared content type", _CHECK,
                     "async def is_png(upload: UploadFile) -> bool:\n"
                     '    return upload.content_type == "image/png"\n'),
                Edit("checks only the first four bytes", "return head == SIGNATURE",
                     'return head.startswith(b"\\x89PNG")'),
                Edit("looks for the signature anywhere in the first bytes", "return head == SIGNATURE",
                     "return SIGNATURE[1:4] in head"),
                Edit("judges by the filename", _CHECK,
                     "async def is_png(upload: UploadFile) -> bool:\n"
                     '    return upload.filename.endswith(".png")\n'),
            ),
        ),
        Requirement(
            "Photos are checked in upload order, then the cover; the first non-PNG answers "
            '${bad_status} `{"detail": "<its filename> is not a PNG"}`.',
            probes=("cover_is_checked_after_photos", "signature_is_exact"),
            traps=(
                Edit("cover checked before the photos", _ORDER,
                     "for upload in [*([${cover}] if ${cover} is not None else []), *${photos}]:"),
                Edit("the cover is never checked", _ORDER, "for upload in ${photos}:"),
                Edit("a non-PNG answers another status", "status_code=${bad_status}",
                     "status_code=${other_status}"),
                Edit("reports the last bad file, not the first",
                     "    " + _ORDER + "\n        if not await is_png(upload):\n"
                     '            raise HTTPException(status_code=${bad_status}, detail=f"{upload.filename} is not a PNG")\n',
                     "    bad = None\n    " + _ORDER + "\n        if not await is_png(upload):\n"
                     "            bad = upload\n    if bad is not None:\n"
                     '        raise HTTPException(status_code=${bad_status}, detail=f"{bad.filename} is not a PNG")\n'),
            ),
        ),
        Requirement(
            "`title` is a form field of 1 to ${title_max} characters (${title_max} is accepted, "
            "${title_over} is `string_too_long`); an empty value is `missing`.",
            probes=("title_rules_and_part_names", "validation_before_png_check"),
            traps=(
                Edit("title length bound off by one", "max_length=${title_max})", "max_length=${title_under})"),
                Edit("empty title defaults to an empty string",
                     "title: Annotated[str, Form(min_length=1, max_length=${title_max})],",
                     "title: Annotated[str, Form(max_length=${title_max})] = \"\",\n    *,"),
            ),
        ),
        Requirement(
            "Missing parts are FastAPI's 422 with one entry per part, `title` before "
            "`${photos}`, at `[\"body\", <part>]`; validation comes before any PNG check.",
            probes=("title_rules_and_part_names", "validation_before_png_check"),
            traps=(
                Edit("photos declared before the title", _SIGNATURE,
                     _SIGNATURE.replace("    title: Annotated[str, Form(min_length=1, max_length=${title_max})],\n", "")
                     .replace("    ${cover}:", "    title: Annotated[str, Form(min_length=1, max_length=${title_max})],\n    ${cover}:")),
                Edit("photos optional, an empty album accepted",
                     "${photos}: Annotated[list[UploadFile], File()],",
                     "${photos}: Annotated[list[UploadFile], File()] = [],\n    *,"),
            ),
        ),
        Requirement(
            "A valid album answers ${created}.",
            probes=("success_status",),
            traps=(Edit("wrong success status", "status_code=${created})", "status_code=${other_created})"),),
        ),
    ),
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
