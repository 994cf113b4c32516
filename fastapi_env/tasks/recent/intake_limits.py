"""Recent-features tier: request body and form limits that FastAPI gained after most models'
training data (``max_body_size`` on the app, a router and a route, where the most specific
limit wins even when larger; ``form_limits`` with ``max_fields``, ``max_files`` and
``max_part_size``), and the strict JSON Content-Type check (0.132)."""

from fastapi_env.tasks import Edit, Family, Requirement

REFERENCE = '''\
from typing import Annotated

from fastapi import APIRouter, FastAPI, Form, UploadFile
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Note(BaseModel):
    text: str


app = FastAPI(max_body_size=${app_max})
uploads = APIRouter(
    prefix="/uploads", max_body_size=${router_max}, form_limits={"max_files": ${max_files}}
)


@app.post("/notes")
def create_note(note: Note):
    return {"length": len(note.text)}


@uploads.post("/batch")
async def batch(files: list[UploadFile]):
    sizes = [len(await f.read()) for f in files]
    return {"names": [f.filename for f in files], "bytes": sum(sizes)}


@uploads.post("/avatar", max_body_size=${avatar_max})
async def avatar(file: UploadFile):
    return {"name": file.filename, "bytes": len(await file.read())}


app.include_router(uploads)


@app.post("/contact", form_limits={"max_fields": ${max_fields}, "max_part_size": ${part_max}})
def contact(name: Annotated[str, Form()], message: Annotated[str, Form()]):
    return {"name": name, "chars": len(message)}


def row(r):
    body = r.json() if r.headers.get("content-type") == "application/json" else r.text
    return [r.status_code, r.headers.get("content-type"), body]


client = TestClient(app)
result = [
    row(client.post("/notes", json={"text": "hello"})),
    row(client.post("/notes", json={"text": "x" * ${app_max}})),
    row(client.post("/uploads/avatar", files={"file": ("me.png", b"p" * 100)})),
    row(client.post("/contact", data={"name": "${name}", "message": "hi"})),
]
'''

PROBES = '''\
def _row(r):
    ctype = r.headers.get("content-type")
    return [r.status_code, ctype, r.json() if ctype == "application/json" else r.text]


def probe_app_limit_on_json(client):
    rows = []
    for size in [10, ${app_max} // 2, ${app_max} - 100, ${app_max} + 10, ${app_max} * 3]:
        r = client.post("/notes", json={"text": "n" * size})
        rows.append([size, _row(r)])
    return rows


def probe_router_limit_overrides_app_limit(client):
    rows = []
    for sizes in [[${app_max} + 2000], [${app_max}, ${app_max}], [${router_max} // 3] * 2,
                  [${router_max} + 500]]:
        files = [("files", (f"f{i}.bin", b"b" * s)) for i, s in enumerate(sizes)]
        rows.append([sizes, _row(client.post("/uploads/batch", files=files))])
    return rows


def probe_route_limit_overrides_router_limit(client):
    rows = []
    for size in [10, ${avatar_max} // 2, ${avatar_max} + 300, ${avatar_max} * 4]:
        r = client.post("/uploads/avatar", files={"file": ("a.png", b"a" * size)})
        rows.append([size, _row(r)])
    return rows


def probe_batch_file_count(client):
    rows = []
    for count in [1, ${max_files}, ${max_files} + 1, ${max_files} + 5]:
        files = [("files", (f"{i}.txt", b"t")) for i in range(count)]
        rows.append([count, _row(client.post("/uploads/batch", files=files))])
    return rows


def probe_contact_field_count(client):
    rows = []
    for extra in [0, ${max_fields} - 2, ${max_fields} - 1, ${max_fields} + 3]:
        data = {"name": "n", "message": "m"} | {f"x{i}": "1" for i in range(extra)}
        rows.append([extra, _row(client.post("/contact", data=data))])
        files = {k: (None, v) for k, v in data.items()}
        rows.append([extra, "multipart", _row(client.post("/contact", files=files))])
    return rows


def probe_contact_field_size(client):
    rows = []
    for size in [${part_max} // 2, ${part_max} * 2]:
        rows.append([size, _row(client.post("/contact", data={"name": "n", "message": "m" * size}))])
        files = {"name": (None, "n"), "message": (None, "m" * size)}
        rows.append([size, "multipart", _row(client.post("/contact", files=files))])
    return rows


def probe_json_needs_json_content_type(client):
    rows = []
    for headers in [{}, {"content-type": "text/plain"}, {"content-type": "application/json"},
                    {"content-type": "application/vnd.api+json"}]:
        r = client.post("/notes", content=b'{"text": "abc"}', headers=headers)
        body = r.json()
        rows.append([headers, r.status_code,
                     body if r.status_code == 200 else [e["loc"] for e in body["detail"]]])
    return rows
'''

FAMILY = Family(
    id="recent/intake_limits",
    title="Body-size and form limits with FastAPI's own (recent) limit settings",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt='''\
Build an intake API that enforces request limits with the limit settings the installed FastAPI
provides (they are recent: `max_body_size` and `form_limits`; read the installed package's
source under `python3 -c "import fastapi, os; print(os.path.dirname(fastapi.__file__))"` if you
do not know them). Behaviour:

**Body size.** A request body (for a multipart upload: the whole encoded body, boundaries and
part headers included) longer than the limit that applies is refused with 413, content type
`text/plain; charset=utf-8`, body `Content Too Large`, before the route runs. The limit that
applies is the most specific one, even when it is larger than an enclosing one:
- the whole app: ${app_max} bytes;
- every route under `/uploads`: ${router_max} bytes instead;
- `POST /uploads/avatar`: ${avatar_max} bytes instead.

**Forms.** Too many parts or too large a field gets 400 with a JSON `detail` message:
- `POST /uploads/...`: at most ${max_files} files per request, else
  `{"detail": "Too many files. Maximum number of files is ${max_files}."}`;
- `POST /contact`: at most ${max_fields} non-file fields, else
  `{"detail": "Too many fields. Maximum number of fields is ${max_fields}."}`, and no field larger than
  ${part_max} bytes, else `{"detail": "Field exceeded maximum size of ${part_kb}KB."}` for a
  URL-encoded form, `{"detail": "Part exceeded maximum size of ${part_kb}KB."}` for a multipart one.

**JSON.** A JSON body is read only when the request declares a JSON content type
(`application/json` or another `+json` type); otherwise it is FastAPI's standard 422 (a
validation error located at `["body"]`).

Routes:
- `POST /notes`, JSON `{"text": str}`: 200 `{"length": <characters of text>}`.
- `POST /uploads/batch`, multipart with one or more files under the field `files`: 200
  `{"names": [file names in order], "bytes": <total bytes of the files>}`.
- `POST /uploads/avatar`, multipart with one file under `file`: 200
  `{"name": <file name>, "bytes": <its size>}`.
- `POST /contact`, a form (URL-encoded or multipart) with fields `name` and `message`: 200
  `{"name": <name>, "chars": <characters of message>}`.

`result`: one row per request, `[status code, content-type header, body]` where body is the
parsed JSON when the content type is `application/json`, else the text:
1. `POST /notes` with JSON `{"text": "hello"}`
2. `POST /notes` with JSON `{"text": <"x" repeated ${app_max} times>}`
3. `POST /uploads/avatar` with the file `me.png` of 100 bytes `p`
4. `POST /contact` with the URL-encoded form `name=${name}`, `message=hi`
''',
    reference=REFERENCE,
    probes=PROBES,
    original={"app_max": 4096, "router_max": 20000, "avatar_max": 1000, "max_files": 3,
              "max_fields": 2, "part_max": 1024, "name": "ada"},
    space={
        "app_max": [{"app_max": 4096, "router_max": 20000}, {"app_max": 8192, "router_max": 30000},
                    {"app_max": 3000, "router_max": 12000}],
        "avatar_max": [1000, 1600],
        "max_files": [3, 2, 5],
        "max_fields": [2, 4],
        "part_max": [1024, 2048],
        "name": ["ada", "lin"],
    },
    derive=lambda p: {"part_kb": p["part_max"] // 1024},
    valid=lambda p: p["part_max"] * 2 < p["app_max"],
    instances=8,
    requirements=(
        Requirement(
            "Bodies over ${app_max} bytes get 413 `Content Too Large` (text/plain) at `/notes`.",
            probes=("app_limit_on_json",),
            traps=(Edit("no app-wide limit", "app = FastAPI(max_body_size=${app_max})",
                        "app = FastAPI()"),
                   Edit("router limit also the app's", "app = FastAPI(max_body_size=${app_max})",
                        "app = FastAPI(max_body_size=${router_max})")),
        ),
        Requirement(
            "Routes under `/uploads` allow ${router_max} bytes, more than the app-wide limit.",
            probes=("router_limit_overrides_app_limit",),
            traps=(Edit("router limit missing", 'prefix="/uploads", max_body_size=${router_max}, ',
                        'prefix="/uploads", '),),
        ),
        Requirement(
            "`POST /uploads/avatar` allows only ${avatar_max} bytes.",
            probes=("route_limit_overrides_router_limit",),
            traps=(Edit("route limit missing", '@uploads.post("/avatar", max_body_size=${avatar_max})',
                        '@uploads.post("/avatar")'),),
        ),
        Requirement(
            "At most ${max_files} files per upload request, else 400 with FastAPI's message.",
            probes=("batch_file_count",),
            traps=(Edit("no file limit", ', form_limits={"max_files": ${max_files}}', ""),),
        ),
        Requirement(
            "`/contact` takes at most ${max_fields} non-file fields, else 400.",
            probes=("contact_field_count",),
            traps=(Edit("no field limit", '"max_fields": ${max_fields}, ', ""),),
        ),
        Requirement(
            "`/contact` refuses a field over ${part_max} bytes with 400.",
            probes=("contact_field_size",),
            traps=(Edit("no field size limit", ', "max_part_size": ${part_max}', ""),),
        ),
        Requirement(
            "A JSON body without a JSON content type is FastAPI's 422 at `[\"body\"]`.",
            probes=("json_needs_json_content_type",),
            traps=(Edit("lenient content type", "app = FastAPI(max_body_size=${app_max})",
                        "app = FastAPI(max_body_size=${app_max}, strict_content_type=False)"),),
        ),
    ),
)
