from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, Query
from fastapi.testclient import TestClient

ARTICLES = ["intro", "setup", "routing", "deps", "testing"]
COMMENTS = ["nice", "+1", "thanks"]
COUNTERS = {"trace": 0, "ticket": 0}
app = FastAPI()
'''

_TRACE = '''

def trace_id() -> int:
    COUNTERS["trace"] += 1
    return COUNTERS["trace"]
'''

_DEPS = '''

def current_user(
    trace: Annotated[int, Depends(trace_id)],
    x_user: Annotated[str, Header()] = "anonymous",
) -> dict:
    return {"name": x_user, "trace": trace}


def audit_entry(trace: Annotated[int, Depends(trace_id)]) -> dict:
    return {"trace": trace}


def pagination(
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=3)] = 2,
) -> dict:
    return {"offset": offset, "limit": limit}


def next_ticket() -> int:
    COUNTERS["ticket"] += 1
    return COUNTERS["ticket"]
'''

_ROUTES = '''

@app.get("/whoami")
def whoami(
    user: Annotated[dict, Depends(current_user)],
    audit: Annotated[dict, Depends(audit_entry)],
    trace: Annotated[int, Depends(trace_id)],
):
    return {"user": user, "audit": audit, "trace": trace}


@app.get("/articles")
def list_articles(
    page: Annotated[dict, Depends(pagination)],
    trace: Annotated[int, Depends(trace_id)],
):
    start = page["offset"]
    return {**page, "items": ARTICLES[start:start + page["limit"]], "trace": trace}


@app.get("/comments")
def list_comments(
    page: Annotated[dict, Depends(pagination)],
    trace: Annotated[int, Depends(trace_id)],
):
    start = page["offset"]
    return {**page, "items": COMMENTS[start:start + page["limit"]], "trace": trace}


@app.post("/tickets/pair")
def ticket_pair(
    first: Annotated[int, Depends(next_ticket, use_cache=False)],
    second: Annotated[int, Depends(next_ticket, use_cache=False)],
    trace: Annotated[int, Depends(trace_id)],
):
    return {"first": first, "second": second, "trace": trace}
'''

_RESULT = '''

client = TestClient(app)
result = []
for method, path, headers in [
    ("GET", "/whoami", {"X-User": "ada"}),
    ("GET", "/whoami", {}),
    ("POST", "/tickets/pair", {}),
    ("POST", "/tickets/pair", {}),
    ("GET", "/articles?offset=1&limit=3", {}),
]:
    r = client.request(method, path, headers=headers)
    result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _TRACE + _DEPS + _ROUTES + _RESULT

_NO_CACHE_ANYWHERE = _HEAD + _TRACE + (_DEPS + _ROUTES).replace(
    "Depends(trace_id)", "Depends(trace_id, use_cache=False)"
) + _RESULT

_TICKETS_CACHED = _HEAD + _TRACE + _DEPS + _ROUTES.replace(
    "Depends(next_ticket, use_cache=False)", "Depends(next_ticket)"
) + _RESULT

_LRU_CACHE_TRACE = _HEAD + '''
from functools import lru_cache


@lru_cache
def trace_id() -> int:
    COUNTERS["trace"] += 1
    return COUNTERS["trace"]
''' + _DEPS + _ROUTES + _RESULT

TASK = Task(
    id="dependencies/shared_cached_dependencies",
    title="Shared dependencies: one trace id per request, fresh tickets per draw",
    category="dependencies",
    difficulty="medium",
    prompt='''\
Build an app whose routes share a few dependencies (module-level state, starting as shown):

    ARTICLES = ["intro", "setup", "routing", "deps", "testing"]
    COMMENTS = ["nice", "+1", "thanks"]
    COUNTERS = {"trace": 0, "ticket": 0}

- **Trace id**: every request to any of the routes below gets one trace id: the trace counter
  is incremented once for that request and the new value is the request's trace id. Every part
  of the request that reports a trace id (the user, the audit entry, the route itself) reports
  that same value. Implement it as a dependency used by the other dependencies and the routes.
- **Current user**: a dependency giving `{"name": <value of the X-User request header, or
  "anonymous" if absent>, "trace": <trace id>}`.
- **Audit entry**: a dependency giving `{"trace": <trace id>}`.
- **Pagination**: a dependency shared by the two list routes, reading the integer query
  parameters `offset` (default 0, must be >= 0) and `limit` (default 2, between 1 and 3
  inclusive); out-of-range values are FastAPI's standard 422 validation error.
- **Ticket**: a dependency that draws a ticket: it increments the ticket counter and gives the
  new value. Each draw is a new ticket, even within one request.

Routes:
- `GET /whoami`: 200 `{"user": <current user>, "audit": <audit entry>, "trace": <trace id>}`.
- `GET /articles` and `GET /comments`: 200 `{"offset": ..., "limit": ..., "items": <the slice
  of ARTICLES (resp. COMMENTS) starting at offset with at most limit elements>, "trace": <trace
  id>}`.
- `POST /tickets/pair`: draws two tickets, one after the other, and answers 200
  `{"first": <first ticket>, "second": <second ticket>, "trace": <trace id>}`.

Then fill `result` with one row per request, in this order, each row
`[status code (integer), the JSON body]`:
1. `GET /whoami` with header `X-User: ada`
2. `GET /whoami` with no `X-User` header
3. `POST /tickets/pair`
4. `POST /tickets/pair`
5. `GET /articles?offset=1&limit=3`
''',
    reference=_REFERENCE,
    probes='''\
def probe_more_traces_and_tickets(client):
    rows = []
    for method, path, headers in [
        ("GET", "/comments", {}),
        ("POST", "/tickets/pair", {"X-User": "bob"}),
        ("GET", "/whoami", {"X-User": "bob"}),
    ]:
        r = client.request(method, path, headers=headers)
        rows.append([r.status_code, r.json()])
    return rows


def probe_pagination_defaults(client):
    r = client.get("/comments?offset=2")
    rows = [[r.status_code, r.json()]]
    r = client.get("/articles?offset=4&limit=1")
    rows.append([r.status_code, r.json()])
    return rows


def probe_pagination_invalid_on_both_routes(client):
    rows = []
    for path in ["/articles?limit=4", "/comments?offset=-1"]:
        r = client.get(path)
        rows.append([r.status_code, [[e["type"], e["loc"]] for e in r.json()["detail"]]])
    return rows
''',
    traps={
        "use_cache=False on the trace id": _NO_CACHE_ANYWHERE,
        "ticket dependency cached within the request": _TICKETS_CACHED,
        "trace id memoised with lru_cache": _LRU_CACHE_TRACE,
    },
    expected_rows=[
        [200, {"user": {"name": "ada", "trace": 1}, "audit": {"trace": 1}, "trace": 1}],
        [200, {"user": {"name": "anonymous", "trace": 2}, "audit": {"trace": 2}, "trace": 2}],
        [200, {"first": 1, "second": 2, "trace": 3}],
        [200, {"first": 3, "second": 4, "trace": 4}],
        [200, {"offset": 1, "limit": 3, "items": ["setup", "routing", "deps"], "trace": 5}],
    ],
)
