"""Repair tier: a newsletter service with double opt-in, a package of five modules in
/workspace with eight planted bugs (email normalisation in an "after" validator so the pattern
sees the untrimmed address, a repeated `status` query filter declared as a scalar so only the
last value counts, pagination that starts one page late, a 204 route returning a JSON body,
the error handler registered for FastAPI's HTTPException so routing 404/405 keep the default
shape, a page-size bound off by one, list counts that include unconfirmed subscribers, ids
taken from the highest live id so a deleted one is reused). Each bug is one requirement's
trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROWS_422_LOC
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor

INIT = '''\
"""Newsletters: subscribers confirm by token before they count as readers of a list."""
'''

MODELS = '''\
from typing import Literal

from pydantic import BaseModel, Field, field_validator

Status = Literal["pending", "active"]
EMAIL = r"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$$"


class SubscribeIn(BaseModel):
    email: str = Field(pattern=EMAIL)
    lists: list[str] = Field(min_length=1)

    @field_validator("email", mode="before")
    @classmethod
    def normalise(cls, value):
        return value.strip().lower() if isinstance(value, str) else value


class Subscriber(BaseModel):
    id: int
    email: str
    lists: list[str]
    status: Status


class Created(Subscriber):
    confirm_token: str


class Page(BaseModel):
    items: list[Subscriber]
    total: int
    page: int
    pages: int
'''

STORE = '''\
import itertools

LISTS = ${lists__repr}
SUBS: dict[int, dict] = {}
_ids = itertools.count(1)


def add(email: str, lists: list[str]) -> dict:
    sub_id = next(_ids)
    SUBS[sub_id] = {"id": sub_id, "email": email, "lists": lists, "status": "pending",
                    "confirm_token": f"${token_prefix}-{sub_id}-{len(email)}"}
    return SUBS[sub_id]


def active_count(slug: str) -> int:
    return sum(1 for sub in SUBS.values() if slug in sub["lists"] and sub["status"] == "active")
'''

ERRORS = '''\
from fastapi import FastAPI, HTTPException
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


def fail(status: int, message: str):
    raise HTTPException(status, message)


def http_error(request, exc):
    body = {"error": {"status": exc.status_code, "message": exc.detail}}
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def install(app: FastAPI) -> None:
    app.add_exception_handler(StarletteHTTPException, http_error)
'''

ROUTES = '''\
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse

from . import store
from .errors import fail
from .models import Created, Page, Status, Subscriber, SubscribeIn

router = APIRouter()


def load(sub_id: int) -> dict:
    if sub_id not in store.SUBS:
        fail(404, "no such subscriber")
    return store.SUBS[sub_id]


@router.post("/subscribers", status_code=201, response_model=Created)
def subscribe(body: SubscribeIn):
    unknown = [slug for slug in body.lists if slug not in store.LISTS]
    if unknown:
        fail(404, f"no such list {unknown[0]}")
    if any(sub["email"] == body.email for sub in store.SUBS.values()):
        fail(409, "already subscribed")
    return store.add(body.email, sorted(set(body.lists)))


@router.post("/confirm/{token}", response_model=Subscriber)
def confirm(token: str):
    sub = next((s for s in store.SUBS.values() if s["confirm_token"] == token), None)
    if sub is None:
        fail(404, "no such token")
    if sub["status"] == "active":
        fail(409, "already confirmed")
    sub["status"] = "active"
    return sub


@router.get("/subscribers/{sub_id}", response_model=Subscriber)
def read_subscriber(sub_id: int):
    return load(sub_id)


@router.delete("/subscribers/{sub_id}", status_code=204)
def unsubscribe(sub_id: int):
    load(sub_id)
    del store.SUBS[sub_id]


@router.get("/lists")
def all_lists():
    return [{"slug": slug, "name": name, "active": store.active_count(slug)}
            for slug, name in store.LISTS.items()]


@router.get("/lists/{slug}/subscribers", response_model=Page)
def list_members(
    slug: str,
    status: Annotated[list[Status] | None, Query()] = None,
    page: Annotated[int, Query(ge=1)] = 1,
    size: Annotated[int, Query(ge=1, le=${size_max})] = ${size_default},
):
    if slug not in store.LISTS:
        fail(404, "no such list")
    chosen = [sub for _, sub in sorted(store.SUBS.items())
              if slug in sub["lists"] and (status is None or sub["status"] in status)]
    start = (page - 1) * size
    return {"items": chosen[start:start + size], "total": len(chosen), "page": page,
            "pages": -(-len(chosen) // size)}
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from news.errors import install
from news.routes import router

app = FastAPI()
install(app)
app.include_router(router)''' + RESULT_CLIENT + '''\
joined = client.post("/subscribers", json={"email": ${email1__json}, "lists": ${lists1__json}})
token = joined.json().get("confirm_token", "none") if joined.status_code == 201 else "none"
confirmed = client.post(f"/confirm/{token}")
result = [
    [joined.status_code, body(joined)],
    [confirmed.status_code, body(confirmed)],
    [body(client.get("/lists"))],
]
'''

_in = editor("news")

_AFTER_VALIDATOR = _in("models", "email normalised after the pattern check",
                       '@field_validator("email", mode="before")',
                       '@field_validator("email")')
_STATUS_SCALAR = _in("routes", "status filter declared as one value",
                     "status: Annotated[list[Status] | None, Query()] = None",
                     "status: Annotated[Status | None, Query()] = None")
_PAGE_LATE = _in("routes", "page 1 starts at the second page", "start = (page - 1) * size",
                 "start = page * size")
_BODY_ON_204 = _in("routes", "unsubscribe returns a body with its 204", '''\
    load(sub_id)
    del store.SUBS[sub_id]
''', '''\
    load(sub_id)
    del store.SUBS[sub_id]
    return JSONResponse({"deleted": sub_id}, status_code=204)
''')
_FASTAPI_HANDLER = _in("errors", "handler registered for FastAPI's HTTPException",
                       "app.add_exception_handler(StarletteHTTPException, http_error)",
                       "app.add_exception_handler(HTTPException, http_error)")
_SIZE_BOUND = _in("routes", "size bound excludes its maximum",
                  "Query(ge=1, le=${size_max})", "Query(ge=1, lt=${size_max})")
_PENDING_COUNTED = _in("store", "list counts include pending subscribers",
                       'if slug in sub["lists"] and sub["status"] == "active")',
                       'if slug in sub["lists"])')
_IDS_REUSED = _in("store", "next id from the highest live id", "    sub_id = next(_ids)\n",
                  "    sub_id = max(SUBS, default=0) + 1\n")

FILES = {"news/__init__.py": INIT, "news/models.py": MODELS, "news/store.py": STORE,
         "news/errors.py": ERRORS, "news/routes.py": ROUTES}
PLANTED = (_AFTER_VALIDATOR, _STATUS_SCALAR, _PAGE_LATE, _BODY_ON_204, _FASTAPI_HANDLER,
           _SIZE_BOUND, _PENDING_COUNTED, _IDS_REUSED)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = ROWS_422_LOC + '''\
SLUGS = ${slugs__json}


def _join(client, email, lists):
    return client.post("/subscribers", json={"email": email, "lists": lists})


def _active(client, email, lists):
    sub = _join(client, email, lists).json()
    client.post(f"/confirm/{sub['confirm_token']}")
    return sub["id"]


def _ids(r):
    body = r.json()
    return [r.status_code, [item["id"] for item in body["items"]], body["total"], body["page"],
            body["pages"]] if r.status_code == 200 else _brief(r)


def probe_pages_start_at_one(client):
    slug, size = SLUGS[2], ${size_default}
    made = [_join(client, f"page{n}@probe.io", [slug]).json()["id"] for n in range(2 * size + 1)]
    rows = []
    for query in ["", "?page=1", "?page=2", "?page=3", "?page=4", f"?page=2&size={size + 1}"]:
        r = client.get(f"/lists/{slug}/subscribers{query}")
        if r.status_code != 200:
            rows.append([query, _brief(r)])
            continue
        body = r.json()
        rows.append([query, [made.index(i["id"]) if i["id"] in made else -1 for i in body["items"]],
                     body["total"], body["page"], body["pages"]])
    return rows


def probe_email_normalised_before_check(client):
    rows = []
    for email in ["  Mixed.Case@Example.ORG ", "\\tTAB@probe.io\\n", "plain@probe.io",
                  " MIXED.case@example.org", "no-at-sign.io", "two@@probe.io", "a b@probe.io",
                  "   ", "x@nodot", " @probe.io"]:
        r = _join(client, email, ["${slug1}"])
        rows.append([email, _brief(r) if r.status_code != 201 else [201, r.json()["email"]]])
    return rows


def probe_status_filter_repeats(client):
    slug = SLUGS[1]
    pending = _join(client, "wait@filter.io", [slug]).json()["id"]
    active = _active(client, "done@filter.io", [slug])
    size = "&size=${size_below}"
    rows = []
    for query in ["status=pending&status=active", "status=active&status=pending",
                  "status=active", "status=pending", "", "status=active&status=active",
                  "status=gone", "status=pending&status=Active"]:
        r = client.get(f"/lists/{slug}/subscribers?{query}{size}")
        if r.status_code == 200:
            ids = [item["id"] for item in r.json()["items"]]
            rows.append([query, pending in ids, active in ids, r.json()["total"] >= len(ids)])
        else:
            rows.append([query, _brief(r)])
    return rows


def probe_unsubscribe_has_no_body(client):
    sub_id = _join(client, "bye@probe.io", ["${slug1}"]).json()["id"]
    r = client.delete(f"/subscribers/{sub_id}")
    again = client.delete(f"/subscribers/{sub_id}")
    return [[r.status_code, r.content.decode()], _row(again),
            _row(client.get(f"/subscribers/{sub_id}"))]


def probe_every_error_in_one_shape(client):
    rows = []
    for method, path in [("get", "/subscribers/999"), ("get", "/nowhere"),
                         ("delete", "/lists"), ("get", "/confirm/abc"), ("get", "/lists/x/y"),
                         ("post", "/confirm/nope"), ("get", "/lists/nope/subscribers")]:
        r = client.request(method, path)
        rows.append([method, path, _row(r), r.headers.get("allow")])
    return rows


def probe_page_size_bounds(client):
    slug = SLUGS[2]
    rows = []
    for size in [0, 1, ${size_max}, ${size_max} + 1, -1]:
        r = client.get(f"/lists/{slug}/subscribers?size={size}")
        rows.append([size, _brief(r) if r.status_code != 200 else [200, len(r.json()["items"]),
                                                                     r.json()["pages"]]])
    for query in ["page=0", "page=-1", "page=x", "size=", "page=1&size=${size_max}"]:
        r = client.get(f"/lists/{slug}/subscribers?{query}")
        rows.append([query, _brief(r)[0], _brief(r)[1] if r.status_code == 422 else None])
    rows.append(_brief(client.get("/lists/nope/subscribers?size=0")))
    return rows


def probe_counts_only_confirmed(client):
    before = {item["slug"]: item["active"] for item in client.get("/lists").json()}
    _join(client, "later@count.io", [SLUGS[0], SLUGS[1]])
    after_join = {item["slug"]: item["active"] for item in client.get("/lists").json()}
    _active(client, "now@count.io", [SLUGS[1]])
    after_confirm = {item["slug"]: item["active"] for item in client.get("/lists").json()}
    return [[after_join[s] - before[s] for s in SLUGS],
            [after_confirm[s] - before[s] for s in SLUGS],
            [item["name"] for item in client.get("/lists").json()]]


def probe_ids_never_reused(client):
    first = _join(client, "first@ids.io", ["${slug1}"]).json()["id"]
    second = _join(client, "second@ids.io", ["${slug1}"]).json()["id"]
    client.delete(f"/subscribers/{second}")
    third = _join(client, "third@ids.io", ["${slug1}"]).json()
    back = _join(client, "second@ids.io", ["${slug1}"]).json()
    return [[second - first, third["id"] - first, back["id"] - first],
            [third["confirm_token"] == f"${token_prefix}-{third['id']}-{len('third@ids.io')}"],
            [client.get(f"/subscribers/{first}").json().get("email")]]


def probe_double_opt_in(client):
    joined = _join(client, "Opt.In@Probe.IO", ["${slug1}", "${slug1}"]).json()
    token = joined["confirm_token"]
    rows = [[joined["status"], joined["lists"], token == f"${token_prefix}-{joined['id']}-15"],
            sorted(client.get(f"/subscribers/{joined['id']}").json())]
    first = client.post(f"/confirm/{token}")
    rows.append([first.status_code, first.json()["status"], sorted(first.json())])
    rows.append(_row(client.post(f"/confirm/{token}")))
    rows.append(_row(client.post(f"/confirm/{token.upper()}")))
    return rows


def probe_subscribe_checks_in_order(client):
    rows = []
    _join(client, "taken@order.io", [SLUGS[0]])
    for body in [{"email": "bad", "lists": ["nope"]}, {"email": "new@order.io", "lists": []},
                 {"email": "new@order.io", "lists": ["nope", SLUGS[0]]},
                 {"email": "TAKEN@order.io", "lists": ["nope"]},
                 {"email": "TAKEN@Order.io", "lists": [SLUGS[1]]},
                 {"email": "new@order.io", "lists": [SLUGS[1], SLUGS[0], SLUGS[1]]}]:
        r = client.post("/subscribers", json=body)
        rows.append(_brief(r) if r.status_code != 201 else [201, r.json()["lists"]])
    return rows
'''

_LISTS = [
    {"lists": {"weekly": "Weekly digest", "offers": "Special offers", "release": "Release notes"},
     "slugs": ["weekly", "offers", "release"], "slug1": "weekly"},
    {"lists": {"daily": "Daily briefing", "events": "Events", "jobs": "Job board"},
     "slugs": ["daily", "events", "jobs"], "slug1": "events"},
]
_SETS = {
    "lists": _LISTS,
    "sizes": [{"size_max": 5, "size_default": 2}, {"size_max": 8, "size_default": 3}],
    "token_prefix": ["cf", "optin"],
    "first": [{"email1": "  Ann.Lee@Example.ORG ", "pick1": [1, 0, 1]},
              {"email1": "BOB@Mail.Test", "pick1": [0]}],
}


def _derived(params: dict) -> dict:
    """The lists of result's subscriber, picked by position from this instance's lists."""
    return {"lists1": [params["slugs"][n] for n in params["pick1"]]}



FAMILY = Family(
    id="repair/newsletter_subscriptions",
    title="Repair a double opt-in newsletter service that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a newsletter service: `solution.py` and the package `news/` it imports
(`models.py`, `store.py`, `errors.py`, `routes.py`). It should behave as described below but
does not, in several ways. Find and fix every deviation (edit or rewrite any file);
`solution.py` must keep defining `app` and `result`. State lives in memory and carries from one
request to the next.

**Lists** are fixed: ${lists_text}. There are no subscribers at start.

**Errors.** Every error other than request validation, including the router's own 404 for an
unknown path and 405 for a method a path does not serve (which keeps its `Allow` header), is
`{"error": {"status": <status code>, "message": <message>}}`; the messages below, or the
standard reason phrase (`Not Found`, `Method Not Allowed`). Request validation errors stay
FastAPI's standard 422.

**Subscribers** are shown as `{"id", "email", "lists", "status"}`; `status` is `pending` until
confirmed, then `active`. Ids are 1, 2, 3, ... in order of subscription and never handed out
again, even after the subscriber is deleted.
- `POST /subscribers` with `{"email": string, "lists": non-empty list of list slugs}`. The
  email has its surrounding whitespace removed and is lower-cased, and only then must be an
  address: one or more characters other than `@` and whitespace, `@`, then a domain of such
  characters containing a `.` that is neither its first nor its last character (else 422).
  Checks in this order: 422; 404 `no such list <slug>` for the first unknown slug as sent;
  409 `already subscribed` when a subscriber with that (normalised) email exists. 201 with the
  subscriber (lists stored without repeats in alphabetical order, status `pending`) and
  `"confirm_token": "${token_prefix}-<id>-<number of characters of the stored email>"`; the
  token is not shown anywhere else.
- `POST /confirm/{token}`: the matching subscriber becomes `active`, 200 with it; 404 `no such
  token` (tokens are matched exactly); 409 `already confirmed` for a used token.
- `GET /subscribers/{id}`: 200 with the subscriber; 404 `no such subscriber`.
- `DELETE /subscribers/{id}`: removes the subscriber: 204 with an empty body; 404 as above.
  The email may then subscribe again, as a new subscriber.
- `GET /lists`: 200, the lists in the order above, each `{"slug", "name", "active": <number
  of active subscribers on it>}`; pending ones do not count.
- `GET /lists/{slug}/subscribers?status=&page=&size=`: 200 `{"items", "total", "page",
  "pages"}`, the list's subscribers by id; `status` may be repeated (`?status=pending&status=
  active`) and keeps those with any of the given statuses (all when absent); `total` counts
  them, `items` holds page `page` (from 1, default 1) of `size` (1 to ${size_max}, default
  ${size_default}) of them, `pages` is the number of pages (0 when there are none). 422 for a
  bad parameter comes before 404 `no such list`.

`result` has three rows:
1. `[status, body]` of `POST /subscribers` with `{"email": ${email1__json}, "lists":
   ${lists1__json}}`
2. `[status, body]` of `POST /confirm/<the token of row 1>`
3. `[body]` of `GET /lists`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_LISTS[0], **_SETS["sizes"][0], "token_prefix": "cf", **_SETS["first"][0]},
    space=_SETS,
    derive=lambda p: _derived(p) | {"size_below": p["size_max"] - 1, "lists_text": ", ".join(
        f"`{slug}` ({name})" for slug, name in p["lists"].items())},
    instances=12,
    requirements=(
        Requirement("The email is trimmed and lower-cased before it is checked and stored; a "
                    "malformed address is 422.",
                    probes=("email_normalised_before_check",),
                    traps=(_AFTER_VALIDATOR,
                           _in("models", "address pattern unanchored",
                               'EMAIL = r"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$$"',
                               'EMAIL = r"[^@\\s]+@[^@\\s]+\\.[^@\\s]+"'))),
        Requirement("A repeated `status` filter keeps subscribers with any of the given "
                    "statuses.",
                    probes=("status_filter_repeats",), traps=(_STATUS_SCALAR,)),
        Requirement("Pages count from 1: page 1 holds the first `size` subscribers.",
                    probes=("pages_start_at_one",), traps=(_PAGE_LATE,)),
        Requirement("`DELETE /subscribers/{id}` is 204 with an empty body.",
                    probes=("unsubscribe_has_no_body",), traps=(_BODY_ON_204,)),
        Requirement('Every non-validation error, the router\'s 404 and 405 included, is '
                    '`{"error": {"status", "message"}}`, a 405 with its `Allow` header.',
                    probes=("every_error_in_one_shape",),
                    traps=(_FASTAPI_HANDLER,
                           _in("errors", "handler drops the exception's headers",
                               "status_code=exc.status_code, headers=exc.headers)",
                               "status_code=exc.status_code)"))),
        Requirement("`size` is 1 to ${size_max} and `page` at least 1 (422 otherwise, before "
                    "an unknown list's 404).",
                    probes=("page_size_bounds",),
                    traps=(_SIZE_BOUND,
                           _in("routes", "page 0 accepted", "page: Annotated[int, Query(ge=1)]",
                               "page: Annotated[int, Query(ge=0)]"))),
        Requirement("`GET /lists` counts only active subscribers.",
                    probes=("counts_only_confirmed",), traps=(_PENDING_COUNTED,)),
        Requirement("Subscriber ids are never reused after a deletion.",
                    probes=("ids_never_reused",), traps=(_IDS_REUSED,)),
        Requirement("The confirm token is `${token_prefix}-<id>-<email length>`, works once "
                    "(409 `already confirmed` after) and is matched exactly.",
                    probes=("double_opt_in",),
                    traps=(_in("routes", "confirming twice allowed", '''\
    if sub["status"] == "active":
        fail(409, "already confirmed")
''', ""),)),
        Requirement("Subscribing checks 422, then unknown lists (404), then a taken email "
                    "(409).",
                    probes=("subscribe_checks_in_order",),
                    traps=(_in("routes", "taken email checked before the lists", '''\
    unknown = [slug for slug in body.lists if slug not in store.LISTS]
    if unknown:
        fail(404, f"no such list {unknown[0]}")
    if any(sub["email"] == body.email for sub in store.SUBS.values()):
        fail(409, "already subscribed")
''', '''\
    if any(sub["email"] == body.email for sub in store.SUBS.values()):
        fail(409, "already subscribed")
    unknown = [slug for slug in body.lists if slug not in store.LISTS]
    if unknown:
        fail(404, f"no such list {unknown[0]}")
'''),)),
    ),
)
