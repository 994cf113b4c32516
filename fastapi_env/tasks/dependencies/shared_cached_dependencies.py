from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, Query
from fastapi.testclient import TestClient

ARTICLES = ${articles_code}
COMMENTS = ${comments_code}
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
    ${hparam}: Annotated[str, Header()] = "${anon}",
) -> dict:
    return {"name": ${hparam}, "trace": trace}


def audit_entry(trace: Annotated[int, Depends(trace_id)]) -> dict:
    return {"trace": trace}


def pagination(
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
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
    ("GET", "/whoami", {"${header}": "${user}"}),
    ("GET", "/whoami", {}),
    ("POST", "/tickets/pair", {}),
    ("POST", "/tickets/pair", {}),
    ("GET", "/articles?offset=1&limit=${lmax}", {}),
]:
    r = client.request(method, path, headers=headers)
    result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _TRACE + _DEPS + _ROUTES + _RESULT

_LRU_TRACE = '''

from functools import lru_cache


@lru_cache
def trace_id() -> int:
    COUNTERS["trace"] += 1
    return COUNTERS["trace"]
'''

FAMILY = Family(
    id="dependencies/shared_cached_dependencies",
    title="Shared dependencies: one trace id per request, fresh tickets per draw",
    category="dependencies",
    difficulty="medium",
    prompt='''\
Build an app whose routes share a few dependencies (module-level state, starting as shown):

    ARTICLES = ${articles_code}
    COMMENTS = ${comments_code}
    COUNTERS = {"trace": 0, "ticket": 0}

- **Trace id**: every request to any of the routes below gets one trace id: the trace counter
  is incremented once for that request and the new value is the request's trace id. Every part
  of the request that reports a trace id (the user, the audit entry, the route itself) reports
  that same value. Implement it as a dependency used by the other dependencies and the routes.
- **Current user**: a dependency giving `{"name": <value of the ${header} request header, or
  "${anon}" if absent>, "trace": <trace id>}`.
- **Audit entry**: a dependency giving `{"trace": <trace id>}`.
- **Pagination**: a dependency shared by the two list routes, reading the integer query
  parameters `offset` (default 0, must be >= 0) and `limit` (default ${ldef}, between 1 and ${lmax}
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
1. `GET /whoami` with header `${header}: ${user}`
2. `GET /whoami` with no `${header}` header
3. `POST /tickets/pair`
4. `POST /tickets/pair`
5. `GET /articles?offset=1&limit=${lmax}`
''',
    reference=_REFERENCE,
    probes='''\
def probe_more_traces_and_tickets(client):
    rows = []
    for method, path, headers in [
        ("GET", "/comments", {}),
        ("POST", "/tickets/pair", {"${header}": "bob"}),
        ("GET", "/whoami", {"${header}": "bob"}),
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


def probe_present_but_empty_user(client):
    r = client.get("/whoami", headers={"${header}": ""})
    return [[r.status_code, r.json()["user"]]]


def probe_pagination_bounds(client):
    rows = []
    for path in ["/articles?offset=0&limit=${lmax}", "/comments?offset=${past_end}", "/articles?limit=1"]:
        r = client.get(path)
        rows.append([r.status_code, r.json()])
    return rows


def probe_pagination_invalid_on_both_routes(client):
    rows = []
    for path in ["/articles?limit=${above}", "/comments?offset=-1", "/comments?limit=0"]:
        r = client.get(path)
        rows.append([r.status_code, [[e["type"], e["loc"]] for e in r.json()["detail"]]])
    return rows
''',
    original={"articles": ["intro", "setup", "routing", "deps", "testing"],
              "comments": ["nice", "+1", "thanks"], "header": "X-User", "anon": "anonymous",
              "user": "ada", "ldef": 2, "lmax": 3},
    space={
        "articles": [{"articles": ["intro", "setup", "routing", "deps", "testing"],
                      "comments": ["nice", "+1", "thanks"]},
                     {"articles": ["a1", "a2", "a3", "a4", "a5", "a6", "a7"], "comments": ["c1", "c2"]}],
        "header": [{"header": "X-User", "anon": "anonymous", "user": "ada"},
                   {"header": "X-Caller", "anon": "guest", "user": "lin"},
                   {"header": "X-Client-Name", "anon": "nobody", "user": "max"}],
        "ldef": [{"ldef": 2, "lmax": 3}, {"ldef": 1, "lmax": 3}, {"ldef": 2, "lmax": 5},
                 {"ldef": 3, "lmax": 4}],
    },
    derive=lambda p: {
        "articles_code": repr(p["articles"]).replace("'", '"'),
        "comments_code": repr(p["comments"]).replace("'", '"'),
        "hparam": p["header"].lower().replace("-", "_"),
        "above": p["lmax"] + 1,
        "past_end": len(p["comments"]) + 1,
        "other_default": p["ldef"] + 1 if p["ldef"] < p["lmax"] else 1,
    },
    instances=24,
    requirements=(
        Requirement(
            "One trace id per request: the counter moves once, and the user, the audit entry and "
            "the route report the same value.",
            probes=("more_traces_and_tickets",),
            traps=(Edit("use_cache=False on the trace id", "Depends(trace_id)",
                        "Depends(trace_id, use_cache=False)", count=6),
                   Edit("trace id memoised with lru_cache", _TRACE, _LRU_TRACE)),
        ),
        Requirement(
            "Each ticket draw is a new ticket, even twice within one request.",
            probes=("more_traces_and_tickets",),
            traps=(Edit("ticket dependency cached within the request",
                        "Depends(next_ticket, use_cache=False)", "Depends(next_ticket)", count=2),),
        ),
        Requirement(
            "The user's name is the `${header}` header's value, the empty value included; "
            '"${anon}" only when the header is absent.',
            probes=("present_but_empty_user", "more_traces_and_tickets"),
            traps=(Edit("an empty header treated as absent", 'return {"name": ${hparam}, "trace": trace}',
                        'return {"name": ${hparam} or "${anon}", "trace": trace}'),),
        ),
        Requirement(
            "Pagination on both list routes: `offset` defaults to 0 and must be >= 0, `limit` "
            "defaults to ${ldef} and must be between 1 and ${lmax} inclusive (422 otherwise); "
            "items are the slice from offset (empty past the end).",
            probes=("pagination_defaults", "pagination_bounds", "pagination_invalid_on_both_routes"),
            traps=(
                Edit("limit's upper bound exclusive", "le=${lmax})", "lt=${lmax})"),
                Edit("limit 0 accepted", "Query(ge=1, le=", "Query(ge=0, le="),
                Edit("negative offset accepted", "Annotated[int, Query(ge=0)] = 0", "int = 0"),
                Edit("wrong limit default", "] = ${ldef},", "] = ${other_default},"),
            ),
        ),
    ),
    expected_rows=[
        [200, {"user": {"name": "ada", "trace": 1}, "audit": {"trace": 1}, "trace": 1}],
        [200, {"user": {"name": "anonymous", "trace": 2}, "audit": {"trace": 2}, "trace": 2}],
        [200, {"first": 1, "second": 2, "trace": 3}],
        [200, {"first": 3, "second": 4, "trace": 4}],
        [200, {"offset": 1, "limit": 3, "items": ["setup", "routing", "deps"], "trace": 5}],
    ],
)
