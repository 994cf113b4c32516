from fastapi_env.tasks import Edit, Family, Requirement

_APP = '''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError, ResponseValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel

DOCS = {
    ${id1}: {"title": "${t1}", "version": ${v1}, "locked": False},
    ${id2}: {"title": "${t2}", "version": ${v2}, "locked": True},
    ${id3}: {"title": "${t3}", "locked": False},
}


class Doc(BaseModel):
    id: int
    title: str
    version: int


app = FastAPI()


@app.exception_handler(RequestValidationError)
async def invalid_request(request: Request, exc: RequestValidationError):
    fields = ["${sep}".join(str(part) for part in e["loc"]) for e in exc.errors()]
    return JSONResponse(status_code=400, content={"error": "invalid request", "fields": fields})


def find(doc_id: int) -> dict:
    if doc_id not in DOCS:
        raise HTTPException(status_code=404)
    return DOCS[doc_id]


@app.get("/docs/{doc_id}")
def read_doc(doc_id: int, known_version: Annotated[int | None, Query()] = None) -> Doc:
    doc = find(doc_id)
    if known_version is not None and known_version == doc.get("version"):
        raise HTTPException(status_code=304)
    return {"id": doc_id, **doc}


@app.delete("/docs/{doc_id}", status_code=204)
def delete_doc(doc_id: int):
    if find(doc_id)["locked"]:
        raise HTTPException(status_code=${lock_status})
    del DOCS[doc_id]
'''

_RESULT = '''

def row(response):
    kind = response.headers.get("content-type")
    if not response.content:
        body = None
    elif kind == "application/json":
        body = response.json()
    else:
        body = response.text
    return [response.status_code, kind, body]


client = TestClient(app, raise_server_exceptions=False)
result = [
    row(client.get("/docs/${id1}")),
    row(client.get("/docs/${id1}?known_version=${v1}")),
    row(client.get("/docs/${id3}")),
    row(client.delete("/docs/${id2}")),
    row(client.get("/docs/${unknown}")),
    row(client.get("/docs/first")),
]
'''

PROMPT = '''\
Build a small document API whose error responses are exactly FastAPI's and Starlette's own
defaults, except request-validation errors. Documents live in memory; use this data as it is
(the third record is damaged: it has no version):

    DOCS = {
        ${id1}: {"title": "${t1}", "version": ${v1}, "locked": False},
        ${id2}: {"title": "${t2}", "version": ${v2}, "locked": True},
        ${id3}: {"title": "${t3}", "locked": False},
    }

A document is rendered as `{"id": <int>, "title": <str>, "version": <int>}`, validated on the
way out by a response model with these three fields.

Routes (`doc_id` an integer path parameter):
- `GET /docs/{doc_id}` with an optional integer query parameter `known_version`: if it equals
  the document's version, the answer is 304 with an empty body and no content-type; otherwise
  200 with the document. A damaged document fails the response model, which is FastAPI's
  plain-text 500 `Internal Server Error` (content-type `text/plain; charset=utf-8`).
- `DELETE /docs/{doc_id}`: a locked document answers ${lock_status} whose body is FastAPI's
  default for an HTTPException raised without a detail, `{"detail": "${lock_phrase}"}` (the
  status's standard reason phrase), and is kept; otherwise the document is removed and the
  answer is 204 with an empty body.
- An unknown `doc_id` on either route is 404 `{"detail": "Not Found"}`, the same default.

Request-validation errors (any invalid path or query parameter) answer 400 with
`{"error": "invalid request", "fields": [...]}`, one string per validation error in FastAPI's
order: the error's loc parts joined with `${sep}` (e.g. `path${sep}doc_id`). This handler
covers only invalid requests; a response that fails its model stays the 500 above.

Then fill `result` with one row per request, in this order, sent with
`TestClient(app, raise_server_exceptions=False)`. Each row is `[status code (integer), the
content-type header (string, or null when absent), body]` where body is null for an empty body,
the parsed JSON when the content-type is `application/json`, and the text otherwise:
1. `GET /docs/${id1}`
2. `GET /docs/${id1}?known_version=${v1}`
3. `GET /docs/${id3}`
4. `DELETE /docs/${id2}`
5. `GET /docs/${unknown}`
6. `GET /docs/first`
'''

PROBES = '''\
def _row(response):
    kind = response.headers.get("content-type")
    if not response.content:
        body = None
    elif kind == "application/json":
        body = response.json()
    else:
        body = response.text
    return [response.status_code, kind, body]


def probe_versions(client):
    return [
        _row(client.get("/docs/${id2}?known_version=${v2}")),
        _row(client.get("/docs/${id2}?known_version=${v2_other}")),
        _row(client.get("/docs/${id1}?known_version=0")),
        _row(client.get("/docs/${id3}?known_version=0")),
    ]


def probe_locked_and_deleted(client):
    return [
        _row(client.delete("/docs/${id2}")),
        _row(client.get("/docs/${id2}")),
        _row(client.delete("/docs/${id1}")),
        _row(client.get("/docs/${id1}")),
        _row(client.delete("/docs/${id1}")),
    ]


def probe_validation_format(client):
    return [
        _row(client.get("/docs/${id1}?known_version=new")),
        _row(client.get("/docs/x?known_version=y")),
        _row(client.delete("/docs/1.5")),
    ]


def probe_damaged_record_is_a_server_error(client):
    return [_row(client.get("/docs/${id3}?known_version=${v1}"))]
'''

_PHRASES = {423: "Locked", 409: "Conflict", 403: "Forbidden", 410: "Gone"}

_LOCK = "        raise HTTPException(status_code=${lock_status})\n"
_NOT_MODIFIED = "        raise HTTPException(status_code=304)\n"

FAMILY = Family(
    id="errors/default_error_responses",
    title="Default error bodies: reason-phrase details, an empty 304, a plain-text 500",
    category="errors",
    difficulty="hard",
    prompt=PROMPT,
    reference=_APP + _RESULT,
    probes=PROBES,
    original={"id1": 1, "id2": 2, "id3": 3, "t1": "guide", "t2": "policy", "t3": "draft",
              "v1": 4, "v2": 2, "lock_status": 423, "sep": "."},
    space={
        "ids": [{"id1": 1, "id2": 2, "id3": 3}, {"id1": 11, "id2": 4, "id3": 8},
                {"id1": 6, "id2": 30, "id3": 12}],
        "titles": [{"t1": "guide", "t2": "policy", "t3": "draft"},
                   {"t1": "memo", "t2": "contract", "t3": "notes"}],
        "versions": [{"v1": 4, "v2": 2}, {"v1": 1, "v2": 9}, {"v1": 3, "v2": 3}],
        "lock_status": [423, 409, 403, 410],
        "sep": [".", "/"],
    },
    derive=lambda p: {"lock_phrase": _PHRASES[p["lock_status"]], "v2_other": p["v2"] + 1,
                      "unknown": max(p["id1"], p["id2"], p["id3"]) + 1},
    instances=40,
    requirements=(
        Requirement(
            "A `known_version` equal to the document's is 304 with no body and no content-type; "
            "any other value is the 200 document.",
            probes=("versions",),
            traps=(Edit("304 sent as a JSON response", _NOT_MODIFIED,
                        '        return JSONResponse({"detail": "Not Modified"}, status_code=304)\n'),
                   Edit("known_version compared as at least", "known_version == doc.get(",
                        "known_version >= doc.get(")),
        ),
        Requirement(
            'Deleting a locked document is ${lock_status} `{"detail": "${lock_phrase}"}` and '
            "keeps it; otherwise 204 with an empty body and the document is gone.",
            probes=("locked_and_deleted",),
            traps=(Edit("lock error with a hand-written detail", _LOCK,
                        '        raise HTTPException(status_code=${lock_status}, detail="locked")\n'),
                   Edit("delete answers 200 null",
                        '@app.delete("/docs/{doc_id}", status_code=204)',
                        '@app.delete("/docs/{doc_id}")')),
        ),
        Requirement(
            'An unknown id is 404 `{"detail": "Not Found"}` on both routes.',
            probes=("locked_and_deleted",),
            traps=(Edit("unknown id with a custom detail",
                        "        raise HTTPException(status_code=404)\n",
                        "        raise HTTPException(status_code=404, detail=\"document not found\")\n"),),
        ),
        Requirement(
            "Invalid path or query parameters are 400 with `fields` built from each error's loc "
            "joined with `${sep}`, in FastAPI's order.",
            probes=("validation_format",),
            traps=(Edit("fields without the loc's source", 'for part in e["loc"])',
                        'for part in e["loc"][1:])'),
                   Edit("validation errors keep the 422 status",
                        "JSONResponse(status_code=400, content=",
                        "JSONResponse(status_code=422, content=")),
        ),
        Requirement(
            "A stored record that fails the response model is the plain-text 500, not the 400 of "
            "the validation handler and not a 200.",
            probes=("damaged_record_is_a_server_error",),
            traps=(Edit("response validation errors sent to the 400 handler",
                        "@app.exception_handler(RequestValidationError)\n",
                        "@app.exception_handler(RequestValidationError)\n"
                        "@app.exception_handler(ResponseValidationError)\n"),
                   Edit("no response model", "= None) -> Doc:", "= None):")),
        ),
    ),
)
