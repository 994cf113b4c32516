from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException
from fastapi.testclient import TestClient

DOCUMENTS = {${d1}: "${t1}", ${d2}: "${t2}"}
EXPORTS: dict[int, int] = {}
app = FastAPI()
'''

_CHECK = '''

def check_token(authorization: str | None):
    if authorization != "Bearer ${token}":
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
    if EXPORTS.get(doc_id, 0) >= ${limit}:
        raise HTTPException(
            status_code=429, detail="export limit reached", headers={"Retry-After": "${retry}"}
        )
    EXPORTS[doc_id] = EXPORTS.get(doc_id, 0) + 1
    return {"id": doc_id, "title": title, "export": EXPORTS[doc_id]}
'''

_RESULT = '''

client = TestClient(app)
GOOD = {"Authorization": "Bearer ${token}"}
result = []
for method, path, headers in [
    ("GET", "/documents/${d1}", GOOD),
    ("GET", "/documents/${d1}", {}),
    ("GET", "/documents/${d1}", {"Authorization": "Bearer wrong"}),
    ("GET", "/documents/${unknown}", GOOD),
    ("POST", "/documents/${d2}/export", GOOD),
    ("POST", "/documents/${d2}/export", GOOD),
    ("POST", "/documents/${d2}/export", GOOD),
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

_WORDS = {1: ('once', 'The first export', '1'), 2: ('twice', 'The first and second export', '1 or 2'), 3: ('three times', 'The first three exports', '1 to 3')}

FAMILY = Family(
    id="errors/http_exception_headers",
    title="Error responses that carry WWW-Authenticate and Retry-After headers",
    category="errors",
    difficulty="easy",
    prompt='''\
Build a small document service. Documents live in memory: `{${d1}: "${t1}", ${d2}: "${t2}"}`
(id -> title). Every route requires the request header `Authorization: Bearer ${token}`.

Authentication: if the `Authorization` header is missing, or has any other value, the answer is
401 with the JSON body `{"detail": "invalid or missing token"}` and the response header
`WWW-Authenticate: Bearer`. This check comes first, before the document lookup.

Routes (`doc_id` is an integer path parameter):
- `GET /documents/{doc_id}`: 200 with `{"id": <doc_id>, "title": <title>}`.
- `POST /documents/{doc_id}/export` (no body): each document may be exported at most ${times}.
  ${which} of a document answer 200 with
  `{"id": <doc_id>, "title": <title>, "export": <${numbers}, the number of this export>}`. Any later
  export of that document answers 429 with `{"detail": "export limit reached"}` and the response
  header `Retry-After: ${retry}`, and is not counted.
- Both routes answer 404 for an unknown document id with the JSON body
  `{"detail": {"code": "doc_missing", "doc_id": <doc_id>}}` (after authentication).

Then fill `result` with one row per request, in this order. Each row is
`[status code (integer), the value of the "www-authenticate" response header (string, or null
when absent), the value of the "retry-after" response header (string, or null when absent),
the JSON body]`:
1. `GET /documents/${d1}` with `Authorization: Bearer ${token}`
2. `GET /documents/${d1}` with no `Authorization` header
3. `GET /documents/${d1}` with `Authorization: Bearer wrong`
4. `GET /documents/${unknown}` with `Authorization: Bearer ${token}`
5. `POST /documents/${d2}/export` with `Authorization: Bearer ${token}`
6. the same request again
7. the same request a third time
''',
    reference=_REFERENCE,
    probes='''\
GOOD = {"Authorization": "Bearer ${token}"}


def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.headers.get("retry-after"), r.json()]


def probe_export_limit_is_per_document(client):
    rows = []
    for _ in range(${limit} + 2):
        rows.append(_row(client.post("/documents/${d1}/export", headers=GOOD)))
    rows.append(_row(client.post("/documents/${d2}/export", headers=GOOD)))
    return rows


def probe_auth_comes_first(client):
    return [
        _row(client.post("/documents/${d1}/export")),
        _row(client.get("/documents/${unknown}", headers={"Authorization": "${token}"})),
        _row(client.post("/documents/${unknown}/export", headers=GOOD)),
    ]

def probe_forged_tokens_and_non_integer_ids(client):
    rows = [
        _row(client.get("/documents/${d1}", headers={"Authorization": "bearer ${token}"})),
        _row(client.get("/documents/${d1}", headers={"Authorization": "Bearer ${token} "})),
        _row(client.get("/documents/${d1}", headers={"Authorization": ""})),
    ]
    r = client.get("/documents/zero", headers=GOOD)
    rows.append([r.status_code, r.json()["detail"][0]["type"]])
    return rows
''',
    original={"token": "reader-token", "d1": 1, "d2": 2, "t1": "quarterly report", "t2": "roadmap",
              "unknown": 9, "limit": 2, "retry": 3600},
    space={
        # the token never reaches a row: it rides with the Retry-After value
        "token": [{"token": "reader-token", "retry": 3600}, {"token": "docs-key", "retry": 60},
                  {"token": "r34d", "retry": 120}],
        "d1": [{"d1": 1, "d2": 2, "unknown": 9}, {"d1": 14, "d2": 3, "unknown": 0}],
        "t1": [{"t1": "quarterly report", "t2": "roadmap"}, {"t1": "minutes", "t2": "budget"}],
        "limit": [1, 2, 3],
    },
    derive=lambda p: dict(zip(("times", "which", "numbers"), _WORDS[p["limit"]], strict=True)),
    instances=40,
    requirements=(
        Requirement(
            "A missing or different `Authorization` (scheme case, trailing space, empty) is 401 "
            "with `WWW-Authenticate: Bearer`, checked before the lookup on both routes.",
            probes=("auth_comes_first", "forged_tokens_and_non_integer_ids"),
            traps=(Edit("401 raised without the WWW-Authenticate header",
                        '            headers={"WWW-Authenticate": "Bearer"},\n', ""),
                   Edit("Authorization declared as a required header",
                        "authorization: Annotated[str | None, Header()] = None",
                        "authorization: Annotated[str, Header()]", count=2),
                   Edit("token compared ignoring case and spaces",
                        'if authorization != "Bearer ${token}":',
                        'if (authorization or "").strip().lower() != "bearer ${token}":')),
        ),
        Requirement(
            "Each document may be exported at most ${limit} time(s), counted per document; later "
            "exports are 429 with `Retry-After: ${retry}`.",
            probes=("export_limit_is_per_document",),
            traps=(Edit("returns the 429 HTTPException instead of raising it",
                        "        raise HTTPException(\n            status_code=429,",
                        "        return HTTPException(\n            status_code=429,"),
                   Edit("limit off by one", ">= ${limit}:", "> ${limit}:")),
        ),
        Requirement(
            'An unknown id is 404 `{"detail": {"code": "doc_missing", "doc_id": <id>}}` on both '
            "routes, after authentication.",
            probes=("auth_comes_first",),
            traps=(Edit("export of an unknown id not checked", "    title = find_document(doc_id)\n",
                        "    title = DOCUMENTS.get(doc_id)\n"),),
        ),
    ),
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
