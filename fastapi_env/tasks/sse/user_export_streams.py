from fastapi_env.tasks import Task

_USERS = '''\
USERS = [
    {"id": 1, "name": "ada", "email": "ada@example.com", "password_hash": "x1"},
    {"id": 2, "name": "zo\\u00eb", "email": "zoe@example.com", "password_hash": "y2"},
    {"id": 3, "name": "linus", "email": "linus@example.com", "password_hash": "z3"},
]
'''

_RESULT = '''\
def row(response):
    if response.status_code == 422:
        first = response.json()["detail"][0]
        return [422, first["type"], first["loc"]]
    return [response.status_code, response.headers.get("content-type"), response.text]


client = TestClient(app)
result = [
    row(client.get("/export/users.csv")),
    row(client.get("/export/users.jsonl")),
    row(client.get("/export/users.jsonl", params={"min_id": 3})),
    row(client.get("/export/users.csv", params={"min_id": "two"})),
]
'''

TASK = Task(
    id="sse/user_export_streams",
    title="Stream a user export as raw CSV and as JSON Lines",
    category="sse",
    difficulty="medium",
    prompt='''\
Build an app that streams an export of this in-memory user table in two formats:

    USERS = [
        {"id": 1, "name": "ada", "email": "ada@example.com", "password_hash": "x1"},
        {"id": 2, "name": "zo\\u00eb", "email": "zoe@example.com", "password_hash": "y2"},
        {"id": 3, "name": "linus", "email": "linus@example.com", "password_hash": "z3"},
    ]

(the second name is `zoë`, with a non-ASCII `ë`). Both routes take an optional integer query
parameter `min_id` (default 1) and export, in table order, only the users whose `id` is at
least `min_id`; a non-integer `min_id` is FastAPI's standard 422 validation error (type
`int_parsing`, loc `["query", "min_id"]`).
`password_hash` is never exported.

- `GET /export/users.csv` streams plain CSV text, one line at a time, with
  `content-type: text/csv; charset=utf-8`: first the header line `id,name,email`, then one line
  `<id>,<name>,<email>` per user, every line ending with `\\n` (no quoting is needed for this data).
- `GET /export/users.jsonl` streams JSON Lines (FastAPI 0.134 and later stream these natively),
  with `content-type: application/jsonl`: one line per user holding the JSON object
  `{"id": ..., "name": ..., "email": ...}` serialised compactly the way Pydantic's
  `model_dump_json()` does (no spaces: `{"id":1,"name":"ada","email":"ada@example.com"}`,
  non-ASCII characters written as-is in UTF-8, not escaped), each followed by `\\n`. With no
  users to export the body is empty.

Then fill `result` with one row per request, in this order. For a 422 the row is
`[422, detail[0]["type"] (string), detail[0]["loc"] (list)]`; otherwise
`[status code (integer), the content-type header (string, or null if absent), the whole
response body as text (string, response.text)]`.

1. `client.get("/export/users.csv")`
2. `client.get("/export/users.jsonl")`
3. `client.get("/export/users.jsonl", params={"min_id": 3})`
4. `client.get("/export/users.csv", params={"min_id": "two"})`
''',
    reference='''\
from collections.abc import AsyncIterable, Iterator

from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel

''' + _USERS + '''

class UserOut(BaseModel):
    id: int
    name: str
    email: str


app = FastAPI()


def selected(min_id: int) -> list[dict]:
    return [user for user in USERS if user["id"] >= min_id]


@app.get("/export/users.csv")
def export_csv(min_id: int = 1):
    def lines() -> Iterator[str]:
        yield "id,name,email\\n"
        for user in selected(min_id):
            yield f"{user['id']},{user['name']},{user['email']}\\n"

    return StreamingResponse(lines(), media_type="text/csv")


@app.get("/export/users.jsonl")
async def export_jsonl(min_id: int = 1) -> AsyncIterable[UserOut]:
    for user in selected(min_id):
        yield user


''' + _RESULT,
    probes='''\
def _row(r):
    if r.status_code == 422:
        first = r.json()["detail"][0]
        return [422, first["type"], first["loc"]]
    return [r.status_code, r.headers.get("content-type"), r.text]


def probe_filtered_exports(client):
    return [
        _row(client.get("/export/users.csv", params={"min_id": 2})),
        _row(client.get("/export/users.jsonl", params={"min_id": 2})),
    ]


def probe_nothing_to_export(client):
    return [
        _row(client.get("/export/users.csv", params={"min_id": 99})),
        _row(client.get("/export/users.jsonl", params={"min_id": 99})),
    ]


def probe_bad_min_id_on_jsonl(client):
    return [_row(client.get("/export/users.jsonl", params={"min_id": "1.5"}))]
''',
    traps={
        "CSV generator without a response class (JSON-encoded lines)": '''\
from collections.abc import AsyncIterable

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

''' + _USERS + '''

class UserOut(BaseModel):
    id: int
    name: str
    email: str


app = FastAPI()


@app.get("/export/users.csv")
def export_csv(min_id: int = 1):
    yield "id,name,email\\n"
    for user in USERS:
        if user["id"] >= min_id:
            yield f"{user['id']},{user['name']},{user['email']}\\n"


@app.get("/export/users.jsonl")
async def export_jsonl(min_id: int = 1) -> AsyncIterable[UserOut]:
    for user in USERS:
        if user["id"] >= min_id:
            yield user


''' + _RESULT,
        "CSV StreamingResponse without a media type": '''\
from collections.abc import AsyncIterable

from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel

''' + _USERS + '''

class UserOut(BaseModel):
    id: int
    name: str
    email: str


app = FastAPI()


@app.get("/export/users.csv", response_class=StreamingResponse)
def export_csv(min_id: int = 1):
    yield "id,name,email\\n"
    for user in USERS:
        if user["id"] >= min_id:
            yield f"{user['id']},{user['name']},{user['email']}\\n"


@app.get("/export/users.jsonl")
async def export_jsonl(min_id: int = 1) -> AsyncIterable[UserOut]:
    for user in USERS:
        if user["id"] >= min_id:
            yield user


''' + _RESULT,
        "JSONL route returns a generator expression (one JSON array)": '''\
from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient

''' + _USERS + '''
app = FastAPI()


@app.get("/export/users.csv")
def export_csv(min_id: int = 1):
    def lines():
        yield "id,name,email\\n"
        for user in USERS:
            if user["id"] >= min_id:
                yield f"{user['id']},{user['name']},{user['email']}\\n"

    return StreamingResponse(lines(), media_type="text/csv")


@app.get("/export/users.jsonl")
def export_jsonl(min_id: int = 1):
    return (
        {"id": u["id"], "name": u["name"], "email": u["email"]}
        for u in USERS
        if u["id"] >= min_id
    )


''' + _RESULT,
        "JSONL yields filtered dicts without a return type": '''\
from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient

''' + _USERS + '''
app = FastAPI()


@app.get("/export/users.csv")
def export_csv(min_id: int = 1):
    def lines():
        yield "id,name,email\\n"
        for user in USERS:
            if user["id"] >= min_id:
                yield f"{user['id']},{user['name']},{user['email']}\\n"

    return StreamingResponse(lines(), media_type="text/csv")


@app.get("/export/users.jsonl")
async def export_jsonl(min_id: int = 1):
    for u in USERS:
        if u["id"] >= min_id:
            yield {"id": u["id"], "name": u["name"], "email": u["email"]}


''' + _RESULT,
    },
    expected_rows=[
        [200, "text/csv; charset=utf-8",
         "id,name,email\n1,ada,ada@example.com\n2,zo\u00eb,zoe@example.com\n3,linus,linus@example.com\n"],
        [200, "application/jsonl",
         '{"id":1,"name":"ada","email":"ada@example.com"}\n'
         '{"id":2,"name":"zo\u00eb","email":"zoe@example.com"}\n'
         '{"id":3,"name":"linus","email":"linus@example.com"}\n'],
        [200, "application/jsonl", '{"id":3,"name":"linus","email":"linus@example.com"}\n'],
        [422, "int_parsing", ["query", "min_id"]],
    ],
)
