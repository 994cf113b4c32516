from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException
from fastapi.testclient import TestClient

DOCUMENTS = {1: "quarterly report", 2: "roadmap"}
EXPORTS: dict[int, int] = {}
app = FastAPI()
'''

_CHECK = '''

def check_token(authorization: str | None):
    if authorization != "Bearer reader-token":
        raise HTTPException(
            status_code=401,
            detail="invalid or missing token",
            headers={"WWW-Authenticate": "Bearer"},
        )
'''

_ROUTES = '''

def find_document(doc_id: int) -> str:
    if doc_id not in DOCUMENTS:
        raise HTTPException(status_code=404, detail={"code": "doc_missing", "doc_id": doc_id})
    return DOCUMENTS[doc_id]


@app.get("/documents/{doc_id}")
def read_document(doc_id: int, authorization: Annotated[str | None, Header()] = None):
    check_token(authorization)
    return {"id": doc_id, "title": find_document(doc_id)}


@app.post("/documents/{doc_id}/export")
def export_document(doc_id: int, authorization: Annotated[str | None, Header()] = None):
    check_token(authorization)
    title = find_document(doc_id)
    if EXPORTS.get(doc_id, 0) >= 2:
        raise HTTPException(
            status_code=429, detail="export limit reached", headers={"Retry-After": "3600"}
        )
    EXPORTS[doc_id] = EXPORTS.get(doc_id, 0) + 1
    return {"id": doc_id, "title": title, "export": EXPORTS[doc_id]}
'''

_RESULT = '''

client = TestClient(app)
GOOD = {"Authorization": "Bearer reader-token"}
result = []
for method, path, headers in [
    ("GET", "/documents/1", GOOD),
    ("GET", "/documents/1", {}),
    ("GET", "/documents/1", {"Authorization": "Bearer wrong"}),
    ("GET", "/documents/9", GOOD),
    ("POST", "/documents/2/export", GOOD),
    ("POST", "/documents/2/export", GOOD),
    ("POST", "/documents/2/export", GOOD),
]:
    r = client.request(method, path, headers=headers)
    result.append([
        r.status_code,
        r.headers.get("www-authenticate"),
        r.headers.get("retry-after"),
        r.json(),
    ])
'''

_REFERENCE = _HEAD + _CHECK + _ROUTES + _RESULT

_NO_HEADERS = _HEAD + '''

def check_token(authorization: str | None):
    if authorization != "Bearer reader-token":
        raise HTTPException(status_code=401, detail="invalid or missing token")
''' + _ROUTES + _RESULT

_RETURNS_EXCEPTION = _REFERENCE.replace(
    '''        raise HTTPException(
            status_code=429,''', '''        return HTTPException(
            status_code=429,''')

_REQUIRED_HEADER = _REFERENCE.replace(
    "authorization: Annotated[str | None, Header()] = None", "authorization: Annotated[str, Header()]"
).replace(
    '''        r.json(),
    ])''', '''        r.json() if r.status_code != 422 else r.json()["detail"][0]["type"],
    ])''')

TASK = Task(
    id="errors/http_exception_headers",
    title="Error responses that carry WWW-Authenticate and Retry-After headers",
    category="errors",
    difficulty="easy",
    prompt='''\
Build a small document service. Documents live in memory: `{1: "quarterly report", 2: "roadmap"}`
(id -> title). Every route requires the request header `Authorization: Bearer reader-token`.

Authentication: if the `Authorization` header is missing, or has any other value, the answer is
401 with the JSON body `{"detail": "invalid or missing token"}` and the response header
`WWW-Authenticate: Bearer`. This check comes first, before the document lookup.

Routes (`doc_id` is an integer path parameter):
- `GET /documents/{doc_id}`: 200 with `{"id": <doc_id>, "title": <title>}`.
- `POST /documents/{doc_id}/export` (no body): each document may be exported at most twice.
  The first and second export of a document answer 200 with
  `{"id": <doc_id>, "title": <title>, "export": <1 or 2, the number of this export>}`. Any later
  export of that document answers 429 with `{"detail": "export limit reached"}` and the response
  header `Retry-After: 3600`, and is not counted.
- Both routes answer 404 for an unknown document id with the JSON body
  `{"detail": {"code": "doc_missing", "doc_id": <doc_id>}}` (after authentication).

Then fill `result` with one row per request, in this order. Each row is
`[status code (integer), the value of the "www-authenticate" response header (string, or null
when absent), the value of the "retry-after" response header (string, or null when absent),
the JSON body]`:
1. `GET /documents/1` with `Authorization: Bearer reader-token`
2. `GET /documents/1` with no `Authorization` header
3. `GET /documents/1` with `Authorization: Bearer wrong`
4. `GET /documents/9` with `Authorization: Bearer reader-token`
5. `POST /documents/2/export` with `Authorization: Bearer reader-token`
6. the same request again
7. the same request a third time
''',
    reference=_REFERENCE,
    probes='''\
GOOD = {"Authorization": "Bearer reader-token"}


def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.headers.get("retry-after"), r.json()]


def probe_export_limit_is_per_document(client):
    rows = []
    for _ in range(3):
        rows.append(_row(client.post("/documents/1/export", headers=GOOD)))
    rows.append(_row(client.post("/documents/2/export", headers=GOOD)))
    return rows


def probe_auth_comes_first(client):
    return [
        _row(client.post("/documents/1/export")),
        _row(client.get("/documents/77", headers={"Authorization": "reader-token"})),
        _row(client.post("/documents/77/export", headers=GOOD)),
    ]
''',
    traps={
        "401 raised without the WWW-Authenticate header": _NO_HEADERS,
        "returns the 429 HTTPException instead of raising it": _RETURNS_EXCEPTION,
        "Authorization declared as a required header": _REQUIRED_HEADER,
    },
    expected_rows=[
        [200, None, None, {"id": 1, "title": "quarterly report"}],
        [401, "Bearer", None, {"detail": "invalid or missing token"}],
        [401, "Bearer", None, {"detail": "invalid or missing token"}],
        [404, None, None, {"detail": {"code": "doc_missing", "doc_id": 9}}],
        [200, None, None, {"id": 2, "title": "roadmap", "export": 1}],
        [200, None, None, {"id": 2, "title": "roadmap", "export": 2}],
        [429, None, "3600", {"detail": "export limit reached"}],
    ],
)
