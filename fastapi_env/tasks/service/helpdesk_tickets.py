"""Service tier: a helpdesk ticket tracker specified like a product document (11 routes, JSON
login and logout, three roles, tickets with a status machine and assignment rules, comments whose
visibility depends on the role and that move a ticket's status, list filters with a repeatable
parameter, sorting with a stated tie-break, page pagination with `X-Total-Count` and `Link`).

The parameters change what a correct app answers: the users and role names, the seed tickets,
the login failure status, page sizes, the default sort and the tie-break, whether giving the
current status is accepted, and whether agents may assign other agents."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

CUSTOMER, AGENT, ADMIN = ${customer_role__repr}, ${agent_role__repr}, ${admin_role__repr}
USERS = {
    ${c1__repr}: {"password": ${c1_pw__repr}, "role": CUSTOMER},
    ${c2__repr}: {"password": ${c2_pw__repr}, "role": CUSTOMER},
    ${g1__repr}: {"password": ${g1_pw__repr}, "role": AGENT},
    ${g2__repr}: {"password": ${g2_pw__repr}, "role": AGENT},
    ${ad__repr}: {"password": ${ad_pw__repr}, "role": ADMIN},
}
TICKETS: dict[int, dict] = {}
for _subject, _customer, _priority, _status, _assignee in ${seed__repr}:
    TICKETS[len(TICKETS) + 1] = {"id": len(TICKETS) + 1, "subject": _subject,
                                 "body": _subject + ".", "priority": _priority,
                                 "status": _status, "customer": _customer,
                                 "assignee": _assignee}
COMMENTS: dict[int, dict] = {}
SESSIONS: dict[str, str] = {}
NEXT = {"ticket": len(TICKETS) + 1, "comment": 1, "session": 1}
STATUSES = ("new", "open", "pending", "resolved", "closed")
TRANSITIONS = {"new": {"open", "closed"}, "open": {"pending", "resolved", "closed"},
               "pending": {"open", "resolved", "closed"}, "resolved": {"open", "closed"},
               "closed": set()}
RANK = {"urgent": 0, "high": 1, "normal": 2, "low": 3}
TIE = ${tie_sign}
SAME_STATUS_OK = ${same_status_ok}
AGENTS_ASSIGN_OTHERS = ${agents_assign_others}
Priority = Literal["low", "normal", "high", "urgent"]
Status = Literal["new", "open", "pending", "resolved", "closed"]

app = FastAPI()
bearer = HTTPBearer(auto_error=False)


class Refusal(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


@app.exception_handler(Refusal)
async def on_refusal(request: Request, exc: Refusal):
    return JSONResponse({"detail": exc.code}, status_code=exc.status, headers=exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    code = "not_found" if exc.status_code == 404 else "method_not_allowed"
    return JSONResponse({"detail": code}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    places = sorted({tuple(str(part) for part in e["loc"][:2]) for e in exc.errors()})
    return JSONResponse({"detail": "invalid_request", "invalid": [list(p) for p in places]},
                        status_code=422)


class Login(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str
    password: str


class TicketIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: str = Field(min_length=3, max_length=80)
    body: str = Field(min_length=1, max_length=2000)
    priority: Priority = "normal"


class TicketPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # Defaults are not validated: omitted stays None, an explicit null is invalid.
    priority: Priority = None
    status: Status = None
    assignee: str | None = None


class CommentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    body: str = Field(min_length=1, max_length=500)
    internal: bool = False


def current_user(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]):
    if creds is None or creds.credentials not in SESSIONS:
        raise Refusal(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    name = SESSIONS[creds.credentials]
    return {"username": name, "role": USERS[name]["role"], "token": creds.credentials}


def roles(*allowed: str):
    def check(user: Annotated[dict, Depends(current_user)]) -> dict:
        if user["role"] not in allowed:
            raise Refusal(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(current_user)]
Customer = Annotated[dict, Depends(roles(CUSTOMER))]
Staff = Annotated[dict, Depends(roles(AGENT, ADMIN))]
Admin = Annotated[dict, Depends(roles(ADMIN))]


def visible(user: dict, ticket: dict) -> bool:
    return user["role"] != CUSTOMER or ticket["customer"] == user["username"]


def ticket_for(ticket_id: int, user: dict) -> dict:
    ticket = TICKETS.get(ticket_id)
    if ticket is None or not visible(user, ticket):
        raise Refusal(404, "not_found")
    return ticket


def comments_for(user: dict, ticket: dict) -> list[dict]:
    return [c for c in sorted(COMMENTS.values(), key=lambda c: c["id"])
            if c["ticket_id"] == ticket["id"] and (user["role"] != CUSTOMER or not c["internal"])]


def shown(user: dict, ticket: dict) -> dict:
    return {k: ticket[k] for k in ("id", "subject", "priority", "status", "customer",
                                   "assignee")} | {"comments": len(comments_for(user, ticket))}


def sort_key(sort: str):
    if sort == "id":
        return lambda t: t["id"]
    if sort == "-id":
        return lambda t: -t["id"]
    if sort == "priority":
        return lambda t: (RANK[t["priority"]], TIE * t["id"])
    return lambda t: (-RANK[t["priority"]], TIE * t["id"])


def link_header(page: int, per_page: int, total: int) -> str:
    last = max(1, -(-total // per_page))
    rels = [("first", 1)] + ([("prev", page - 1)] if page > 1 else [])
    rels += ([("next", page + 1)] if page < last else []) + [("last", last)]
    return ", ".join(f'</tickets?page={n}&per_page={per_page}>; rel="{rel}"' for rel, n in rels)


def check_assignee(user: dict, assignee: str | None) -> None:
    if assignee is None:
        return
    if USERS.get(assignee, {}).get("role") != AGENT:
        raise Refusal(400, "invalid_assignee")
    if user["role"] == AGENT and assignee != user["username"] and not AGENTS_ASSIGN_OTHERS:
        raise Refusal(403, "assign_self_only")


def check_transition(current: str, target: str) -> None:
    if target == current and SAME_STATUS_OK:
        return
    if target not in TRANSITIONS[current]:
        raise Refusal(409, "invalid_transition")


@app.post("/login")
def login(body: Login):
    user = USERS.get(body.username)
    if user is None or user["password"] != body.password:
        raise Refusal(${login_fail_status}, "bad_credentials")
    token = f"s{NEXT['session']}.{body.username}"
    NEXT["session"] += 1
    SESSIONS[token] = body.username
    return {"token": token}


@app.post("/logout", status_code=204)
def logout(user: AnyUser):
    del SESSIONS[user["token"]]
    return Response(status_code=204)


@app.get("/me")
def me(user: AnyUser):
    return {"username": user["username"], "role": user["role"]}


@app.post("/tickets", status_code=201)
def create_ticket(user: Customer, body: TicketIn, response: Response):
    if body.priority == "urgent":
        raise Refusal(403, "urgent_reserved")
    ticket = {"id": NEXT["ticket"], **body.model_dump(), "status": "new",
              "customer": user["username"], "assignee": None}
    NEXT["ticket"] += 1
    TICKETS[ticket["id"]] = ticket
    response.headers["Location"] = f"/tickets/{ticket['id']}"
    return shown(user, ticket)


@app.get("/tickets")
def list_tickets(
    user: AnyUser,
    response: Response,
    status: Annotated[list[Status] | None, Query()] = None,
    priority: Priority | None = None,
    assignee: str | None = None,
    q: str | None = None,
    sort: Literal["id", "-id", "priority", "-priority"] = ${default_sort__repr},
    page: Annotated[int, Query(ge=1)] = 1,
    per_page: Annotated[int, Query(ge=1, le=${per_page_max})] = ${per_page_default},
):
    tickets = [t for t in TICKETS.values() if visible(user, t)]
    if status:
        tickets = [t for t in tickets if t["status"] in status]
    if priority is not None:
        tickets = [t for t in tickets if t["priority"] == priority]
    if assignee is not None:
        tickets = [t for t in tickets if t["assignee"] == (assignee or None)]
    if q is not None:
        tickets = [t for t in tickets if q.lower() in t["subject"].lower()]
    tickets.sort(key=sort_key(sort))
    response.headers["X-Total-Count"] = str(len(tickets))
    response.headers["Link"] = link_header(page, per_page, len(tickets))
    start = (page - 1) * per_page
    return [shown(user, t) for t in tickets[start:start + per_page]]


@app.get("/tickets/{ticket_id}")
def read_ticket(ticket_id: int, user: AnyUser):
    return shown(user, ticket_for(ticket_id, user))


@app.patch("/tickets/{ticket_id}")
def update_ticket(ticket_id: int, user: Staff, body: TicketPatch):
    ticket = ticket_for(ticket_id, user)
    if ticket["status"] == "closed":
        raise Refusal(409, "ticket_closed")
    changes = body.model_dump(exclude_unset=True)
    if "assignee" in changes:
        check_assignee(user, changes["assignee"])
    if "status" in changes:
        check_transition(ticket["status"], changes["status"])
    after = ticket | changes
    if after["status"] == "resolved" and after["assignee"] is None:
        raise Refusal(409, "needs_assignee")
    ticket.update(changes)
    return shown(user, ticket)


@app.delete("/tickets/{ticket_id}", status_code=204)
def delete_ticket(ticket_id: int, user: Admin):
    ticket_for(ticket_id, user)
    del TICKETS[ticket_id]
    for comment_id in [c["id"] for c in COMMENTS.values() if c["ticket_id"] == ticket_id]:
        del COMMENTS[comment_id]
    return Response(status_code=204)


@app.post("/tickets/{ticket_id}/comments", status_code=201)
def add_comment(ticket_id: int, user: AnyUser, body: CommentIn):
    ticket = ticket_for(ticket_id, user)
    if body.internal and user["role"] == CUSTOMER:
        raise Refusal(403, "internal_not_allowed")
    if ticket["status"] == "closed":
        raise Refusal(409, "ticket_closed")
    comment = {"id": NEXT["comment"], "ticket_id": ticket_id, "author": user["username"],
               **body.model_dump()}
    NEXT["comment"] += 1
    COMMENTS[comment["id"]] = comment
    if user["role"] == CUSTOMER and ticket["status"] == "pending":
        ticket["status"] = "open"
    elif user["role"] != CUSTOMER and not body.internal and ticket["status"] == "new":
        ticket["status"] = "open"
    return comment


@app.get("/tickets/{ticket_id}/comments")
def list_comments(ticket_id: int, user: AnyUser):
    return comments_for(user, ticket_for(ticket_id, user))


@app.get("/stats")
def stats(user: Admin):
    by_status = {s: sum(1 for t in TICKETS.values() if t["status"] == s) for s in STATUSES}
    unassigned = sum(1 for t in TICKETS.values()
                     if t["assignee"] is None and t["status"] not in ("resolved", "closed"))
    return {"by_status": by_status, "unassigned": unassigned}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
token = client.post("/login", json={"username": ${c1__repr}, "password": ${c1_pw__repr}})
customer = {"Authorization": f"Bearer {token.json()['token']}"}
created = client.post("/tickets", json={"subject": ${first_subject__repr}, "body": "Help!",
                                        "priority": "high"}, headers=customer)
listing = client.get("/tickets", params={"sort": "priority"}, headers=customer)
result = [
    row(created),
    [listing.status_code, [t["id"] for t in listing.json()], listing.headers["x-total-count"]],
    row(client.get(created.headers["location"] + "/comments", headers=customer)),
    row(client.get("/me", headers=customer)),
    row(client.get("/tickets")),
]
'''

PROBES = ROW + '''

def _login(client, name, password):
    r = client.post("/login", json={"username": name, "password": password})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def _c1(client):
    return _login(client, ${c1__repr}, ${c1_pw__repr})


def _c2(client):
    return _login(client, ${c2__repr}, ${c2_pw__repr})


def _g1(client):
    return _login(client, ${g1__repr}, ${g1_pw__repr})


def _g2(client):
    return _login(client, ${g2__repr}, ${g2_pw__repr})


def _ad(client):
    return _login(client, ${ad__repr}, ${ad_pw__repr})


def _ticket(client, headers, subject, priority="normal"):
    r = client.post("/tickets", json={"subject": subject, "body": "text", "priority": priority},
                    headers=headers)
    return r.json()["id"]


def _patch(client, ticket_id, body, headers):
    return client.patch(f"/tickets/{ticket_id}", json=body, headers=headers)


def _brief(r):
    body = r.json()
    if r.status_code >= 400:
        return [r.status_code, body]
    return [r.status_code, body["priority"], body["status"], body["assignee"]]


def probe_login_and_me(client):
    rows = []
    for name, password in [(${c1__repr}, ${c1_pw__repr}), (${c2__repr}, ${c2_pw__repr}),
                           (${g1__repr}, ${g1_pw__repr}), (${g2__repr}, ${g2_pw__repr}),
                           (${ad__repr}, ${ad_pw__repr})]:
        r = client.post("/login", json={"username": name, "password": password})
        rows.append([r.status_code, sorted(r.json()), type(r.json()["token"]).__name__])
        me = client.get("/me", headers={"Authorization": f"Bearer {r.json()['token']}"})
        rows.append(_row(me))
    first, second = _c1(client), _c1(client)
    rows.append([first != second, _row(client.get("/me", headers=first))])
    return rows


def probe_bad_login(client):
    rows = []
    for body in [{"username": ${c1__repr}, "password": "wrong"},
                 {"username": "nobody", "password": ${c1_pw__repr}},
                 {"username": ${c1__repr}, "password": ${c2_pw__repr}},
                 {"username": ${c1__repr}.upper(), "password": ${c1_pw__repr}},
                 {"username": ${c1__repr}, "password": ""}]:
        rows.append(_row(client.post("/login", json=body)))
    for body in [{"username": ${c1__repr}}, {}, []]:
        rows.append(_row(client.post("/login", json=body)))
    return rows


def probe_logout(client):
    first, second = _g1(client), _g1(client)
    return [_row(client.post("/logout", headers=first)), _row(client.get("/me", headers=first)),
            _row(client.get("/me", headers=second)), _row(client.post("/logout", headers=first)),
            _row(client.post("/logout"))]


def probe_tokens_required(client):
    rows = []
    for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Bearer ${c1}"},
                    {"Authorization": "Basic eDp5"}, {"Authorization": "Bearer "}]:
        for method, path in [("GET", "/me"), ("POST", "/logout"), ("GET", "/tickets"),
                             ("POST", "/tickets"), ("GET", "/tickets/1"),
                             ("PATCH", "/tickets/1"), ("DELETE", "/tickets/1"),
                             ("POST", "/tickets/1/comments"), ("GET", "/tickets/1/comments"),
                             ("GET", "/stats")]:
            r = client.request(method, path, headers=headers, json={"subject": 1})
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_roles(client):
    c1, g1, ad = _c1(client), _g1(client), _ad(client)
    ticket = _ticket(client, c1, "Role check")
    return [
        _row(client.post("/tickets", json={"subject": "Agent", "body": "x"}, headers=g1)),
        _row(client.post("/tickets", json={"subject": 5}, headers=ad)),
        _row(_patch(client, ticket, {"status": "open"}, c1)),
        _row(_patch(client, ticket, {"status": "nonsense"}, c1)),
        _row(client.delete(f"/tickets/{ticket}", headers=c1)),
        _row(client.delete(f"/tickets/{ticket}", headers=g1)),
        _row(client.get("/stats", headers=c1)),
        _row(client.get("/stats", headers=g1)),
        _brief(client.get(f"/tickets/{ticket}", headers=g1)),
    ]


def probe_create_ticket(client):
    c2 = _c2(client)
    r = client.post("/tickets", json={"subject": "Mail bounces", "body": "Since Monday."},
                    headers=c2)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.get(r.headers["location"], headers=c2)))
    r = client.post("/tickets", json={"subject": "Low one", "body": "b", "priority": "low"},
                    headers=c2)
    rows.append([r.status_code, r.json()["id"] - rows[0][1]["id"], r.json()["priority"]])
    rows.append(_row(client.post("/tickets", json={"subject": "Now!", "body": "b",
                                                   "priority": "urgent"}, headers=c2)))
    return rows


def probe_ticket_validation(client):
    c1 = _c1(client)
    rows = []
    for body in [{"subject": "ab", "body": "b"}, {"subject": "abc", "body": "b"},
                 {"subject": "s" * 80, "body": "b"}, {"subject": "s" * 81, "body": "b"},
                 {"subject": "Empty", "body": ""}, {"subject": "Long", "body": "b" * 2000},
                 {"subject": "Long", "body": "b" * 2001},
                 {"subject": "Caps", "body": "b", "priority": "High"},
                 {"subject": "Null", "body": "b", "priority": None},
                 {"subject": "Extra", "body": "b", "status": "open"},
                 {"subject": "Extra", "body": "b", "customer": ${c2__repr}},
                 {"body": "b"}, {}, [], {"subject": "x", "body": "", "priority": "urgent"}]:
        r = client.post("/tickets", json=body, headers=c1)
        rows.append([r.status_code, r.json() if r.status_code >= 400
                     else [len(r.json()["subject"]), r.json()["priority"]]])
    return rows


def probe_customer_visibility(client):
    c1, c2, g2 = _c1(client), _c2(client), _g2(client)
    theirs = _ticket(client, c2, "Private matter")
    mine = client.get("/tickets", params={"per_page": ${per_page_max}}, headers=c1)
    return [_row(client.get(f"/tickets/{theirs}", headers=c1)),
            _row(client.get(f"/tickets/{theirs}/comments", headers=c1)),
            _row(client.post(f"/tickets/{theirs}/comments", json={"body": "hi"}, headers=c1)),
            _brief(client.get(f"/tickets/{theirs}", headers=g2)),
            [sorted({t["customer"] for t in mine.json()}),
             theirs in [t["id"] for t in mine.json()]],
            _row(client.get("/tickets/99999", headers=g2)),
            _row(client.get("/tickets/x", headers=g2))]


def probe_list_filters(client):
    c1, c2, g1, ad = _c1(client), _c2(client), _g1(client), _ad(client)
    ids = [_ticket(client, c, f"Kappa {n}", p) for n, (c, p) in enumerate(
        [(c1, "low"), (c2, "high"), (c1, "normal"), (c2, "high"), (c1, "low")])]
    _patch(client, ids[0], {"assignee": ${g1__repr}}, ad)
    _patch(client, ids[1], {"assignee": ${g2__repr}, "status": "open"}, ad)
    _patch(client, ids[2], {"status": "open"}, ad)
    _patch(client, ids[3], {"status": "closed"}, ad)
    rows = []
    for params in [{"q": "kappa"}, {"q": "KAPPA", "status": "open"},
                   {"q": "kappa", "status": ["open", "closed"]},
                   {"q": "kappa", "status": ["new", "open"], "priority": "low"},
                   {"q": "kappa", "assignee": ${g1__repr}}, {"q": "kappa", "assignee": ""},
                   {"q": "kappa", "assignee": ${g2__repr}, "status": "new"},
                   {"q": "kappa 3"}, {"q": "kappa", "priority": "urgent"}]:
        r = client.get("/tickets", params=params | {"sort": "id"}, headers=g1)
        rows.append([params, [t["subject"] for t in r.json()], r.headers.get("x-total-count")])
    r = client.get("/tickets", params={"q": "kappa", "sort": "id"}, headers=c1)
    rows.append([[t["subject"] for t in r.json()], r.headers.get("x-total-count")])
    return rows


def probe_sorting(client):
    c2, ad = _c2(client), _ad(client)
    ids = [_ticket(client, c2, f"Lambda {n}", p) for n, p in enumerate(
        ["normal", "high", "low", "high", "normal", "low"])]
    _patch(client, ids[4], {"priority": "urgent"}, ad)
    rows = []
    for params in [{}, {"sort": "id"}, {"sort": "-id"}, {"sort": "priority"},
                   {"sort": "-priority"}, {"sort": "priority", "priority": "high"}]:
        r = client.get("/tickets", params=params | {"q": "lambda", "per_page": 10}, headers=ad)
        rows.append([params, [t["subject"] for t in r.json()]])
    rows.append(_row(client.get("/tickets", params={"sort": "subject"}, headers=ad)))
    return rows


def probe_pagination_headers(client):
    c1, g2 = _c1(client), _g2(client)
    for n in range(7):
        _ticket(client, c1, f"Omega {n}")
    rows = []
    for params in [{"per_page": 3}, {"per_page": 3, "page": 2}, {"per_page": 3, "page": 3},
                   {"per_page": 3, "page": 5}, {"per_page": 7}, {"per_page": 2, "page": 1},
                   {}, {"q": "nothing matches"}]:
        r = client.get("/tickets", params={"q": "omega", "sort": "id"} | params,
                       headers=g2)
        rows.append([params, [t["subject"] for t in r.json()], r.headers.get("x-total-count"),
                     r.headers.get("link")])
    return rows


def probe_query_validation(client):
    g1 = _g1(client)
    rows = []
    for params in [{"page": 0}, {"per_page": 0}, {"per_page": ${per_page_max} + 1},
                   {"per_page": ${per_page_max}}, {"status": "done"},
                   {"status": ["open", "done"]}, {"priority": "URGENT"}, {"sort": "priority "},
                   {"page": "x", "per_page": 0}]:
        r = client.get("/tickets", params=params, headers=g1)
        rows.append([params, r.status_code, r.json() if r.status_code >= 400 else "ok"])
    return rows


def probe_status_transitions(client):
    c1, g1 = _c1(client), _g1(client)
    ticket = _ticket(client, c1, "Walk the states")
    _patch(client, ticket, {"assignee": ${g1__repr}}, g1)
    rows = []
    for status in ["pending", "resolved", "open", "pending", "new", "resolved", "pending",
                   "open", "closed", "open"]:
        rows.append([status, _brief(_patch(client, ticket, {"status": status}, g1))])
    fresh = _ticket(client, c1, "Closed at once")
    rows.append(_brief(_patch(client, fresh, {"status": "closed"}, g1)))
    return rows


def probe_same_status(client):
    c1, g1 = _c1(client), _g1(client)
    ticket = _ticket(client, c1, "Same again")
    return [_brief(_patch(client, ticket, {"status": "new"}, g1)),
            _brief(_patch(client, ticket, {"status": "open"}, g1)),
            _brief(_patch(client, ticket, {"status": "open", "priority": "high"}, g1)),
            _brief(client.get(f"/tickets/{ticket}", headers=g1))]


def probe_closed_is_final(client):
    c2, g2, ad = _c2(client), _g2(client), _ad(client)
    ticket = _ticket(client, c2, "Done with")
    _patch(client, ticket, {"status": "closed"}, g2)
    return [_row(_patch(client, ticket, {}, g2)),
            _row(_patch(client, ticket, {"priority": "low"}, ad)),
            _row(_patch(client, ticket, {"assignee": "nobody"}, ad)),
            _row(client.post(f"/tickets/{ticket}/comments", json={"body": "again?"}, headers=c2)),
            _row(client.post(f"/tickets/{ticket}/comments", json={"body": "x", "internal": True},
                             headers=c2)),
            _row(client.post(f"/tickets/{ticket}/comments", json={"body": "note"}, headers=g2)),
            _brief(client.get(f"/tickets/{ticket}", headers=c2))]


def probe_assignment_rules(client):
    c1, g1, ad = _c1(client), _g1(client), _ad(client)
    ticket = _ticket(client, c1, "Who takes it")
    return [_brief(_patch(client, ticket, {"assignee": ${c1__repr}}, ad)),
            _brief(_patch(client, ticket, {"assignee": ${ad__repr}}, ad)),
            _brief(_patch(client, ticket, {"assignee": "ghost"}, ad)),
            _brief(_patch(client, ticket, {"assignee": ${g1__repr}.upper()}, ad)),
            _brief(_patch(client, ticket, {"assignee": ${g2__repr}}, g1)),
            _brief(_patch(client, ticket, {"assignee": ${c1__repr}}, g1)),
            _brief(_patch(client, ticket, {"assignee": ${g1__repr}}, g1)),
            _brief(_patch(client, ticket, {"assignee": None}, g1)),
            _brief(_patch(client, ticket, {"assignee": ${g2__repr}}, ad))]


def probe_resolving_needs_an_assignee(client):
    c2, g2, ad = _c2(client), _g2(client), _ad(client)
    ticket = _ticket(client, c2, "Resolve me")
    _patch(client, ticket, {"status": "open"}, g2)
    return [_brief(_patch(client, ticket, {"status": "resolved"}, g2)),
            _brief(_patch(client, ticket, {"status": "resolved", "assignee": ${g2__repr}}, g2)),
            _brief(_patch(client, ticket, {"assignee": None}, ad)),
            _brief(_patch(client, ticket, {"assignee": None, "status": "open"}, ad)),
            _brief(_patch(client, ticket, {"status": "new", "assignee": None}, ad)),
            _brief(client.get(f"/tickets/{ticket}", headers=c2))]


def probe_failed_patch_changes_nothing(client):
    c1, g1, ad = _c1(client), _g1(client), _ad(client)
    ticket = _ticket(client, c1, "Atomic", "low")
    return [_brief(_patch(client, ticket, {"priority": "urgent", "status": "pending"}, ad)),
            _brief(_patch(client, ticket, {"priority": "high", "assignee": "ghost"}, ad)),
            _brief(_patch(client, ticket, {"status": "pending", "assignee": "ghost"}, ad)),
            _brief(_patch(client, ticket, {"assignee": ${g1__repr}, "status": "resolved"}, ad)),
            _brief(client.get(f"/tickets/{ticket}", headers=g1)),
            _brief(_patch(client, ticket, {"assignee": ${g1__repr}, "status": "open",
                                           "priority": "urgent"}, ad)),
            _brief(client.get(f"/tickets/{ticket}", headers=c1))]


def probe_patch_validation(client):
    c1, g1 = _c1(client), _g1(client)
    ticket = _ticket(client, c1, "Patch bodies")
    rows = []
    for body in [{"priority": None}, {"status": None}, {"status": "done"}, {"priority": "Low"},
                 {"assignee": 7}, {"subject": "renamed"}, [], {"status": "x", "priority": "y"}]:
        rows.append([body, _row(_patch(client, ticket, body, g1))])
    rows.append(_row(_patch(client, 99999, {"status": "done"}, g1)))
    rows.append(_row(_patch(client, 99999, {"status": "open"}, g1)))
    rows.append(_brief(_patch(client, ticket, {}, g1)))
    return rows


def probe_comment_visibility(client):
    c2, g1, g2 = _c2(client), _g1(client), _g2(client)
    ticket = _ticket(client, c2, "Notes")
    client.post(f"/tickets/{ticket}/comments", json={"body": "internal note", "internal": True},
                headers=g1)
    r = client.post(f"/tickets/{ticket}/comments", json={"body": "Hello"}, headers=g2)
    rows = [[r.status_code, sorted(r.json()), r.json()["author"], r.json()["internal"]]]
    client.post(f"/tickets/{ticket}/comments", json={"body": "Thanks"}, headers=c2)
    for headers in (c2, g1):
        comments = client.get(f"/tickets/{ticket}/comments", headers=headers).json()
        rows.append([[c["author"], c["body"], c["internal"]] for c in comments])
        rows.append([client.get(f"/tickets/{ticket}", headers=headers).json()["comments"]])
    listed = client.get("/tickets", params={"q": "notes", "sort": "id"}, headers=c2).json()
    rows.append([t["comments"] for t in listed])
    return rows


def probe_comment_rules(client):
    c1, c2, g1 = _c1(client), _c2(client), _g1(client)
    ticket = _ticket(client, c1, "Comment rules")
    rows = [_row(client.post(f"/tickets/{ticket}/comments",
                             json={"body": "secret", "internal": True}, headers=c1)),
            _row(client.post(f"/tickets/{ticket}/comments", json={"body": "x"}, headers=c2))]
    for body in [{"body": ""}, {"body": "b" * 501}, {"body": "ok", "internal": "perhaps"},
                 {"body": "ok", "author": ${g1__repr}}, {}, []]:
        rows.append([body if isinstance(body, list) else sorted(body),
                     _row(client.post(f"/tickets/{ticket}/comments", json=body, headers=c1))])
    r = client.post(f"/tickets/{ticket}/comments", json={"body": "b" * 500}, headers=c1)
    rows.append([r.status_code, r.json()["internal"], len(r.json()["body"])])
    rows.append(_row(client.post("/tickets/99999/comments", json={"body": "x"}, headers=g1)))
    return rows


def probe_comments_move_the_status(client):
    c1, g1 = _c1(client), _g1(client)
    first = _ticket(client, c1, "Moves 1")
    rows = []
    client.post(f"/tickets/{first}/comments", json={"body": "me again"}, headers=c1)
    rows.append(_brief(client.get(f"/tickets/{first}", headers=g1)))
    client.post(f"/tickets/{first}/comments", json={"body": "hm", "internal": True}, headers=g1)
    rows.append(_brief(client.get(f"/tickets/{first}", headers=g1)))
    client.post(f"/tickets/{first}/comments", json={"body": "On it"}, headers=g1)
    rows.append(_brief(client.get(f"/tickets/{first}", headers=g1)))
    _patch(client, first, {"status": "pending"}, g1)
    client.post(f"/tickets/{first}/comments", json={"body": "any news?", "internal": True},
                headers=g1)
    rows.append(_brief(client.get(f"/tickets/{first}", headers=g1)))
    client.post(f"/tickets/{first}/comments", json={"body": "here is the log"}, headers=c1)
    rows.append(_brief(client.get(f"/tickets/{first}", headers=g1)))
    return rows


def probe_delete_ticket(client):
    c2, ad = _c2(client), _ad(client)
    ticket = _ticket(client, c2, "Spam")
    client.post(f"/tickets/{ticket}/comments", json={"body": "buy now"}, headers=c2)
    return [_row(client.delete(f"/tickets/{ticket}", headers=ad)),
            _row(client.get(f"/tickets/{ticket}", headers=ad)),
            _row(client.get(f"/tickets/{ticket}/comments", headers=ad)),
            _row(client.delete(f"/tickets/{ticket}", headers=ad)),
            _row(client.delete("/tickets/abc", headers=ad))]


def probe_stats(client):
    c1, g1, ad = _c1(client), _g1(client), _ad(client)
    before = client.get("/stats", headers=ad).json()
    resolved, opened, closed, pending = [_ticket(client, c1, f"Counted {n}") for n in range(4)]
    for ticket in (resolved, opened, pending):
        _patch(client, ticket, {"status": "open"}, g1)
    _patch(client, resolved, {"assignee": ${g1__repr}, "status": "resolved"}, g1)
    _patch(client, closed, {"status": "closed"}, g1)
    _patch(client, pending, {"status": "pending"}, g1)
    after = client.get("/stats", headers=ad).json()
    return [sorted(after), sorted(after["by_status"]),
            [{s: after["by_status"][s] - before["by_status"][s] for s in after["by_status"]}],
            [after["unassigned"] - before["unassigned"]]]


def probe_unknown_paths_and_methods(client):
    g1 = _g1(client)
    rows = []
    for method, path in [("GET", "/nothing"), ("GET", "/login"), ("DELETE", "/me"),
                         ("PUT", "/stats"), ("GET", "/logout")]:
        r = client.request(method, path, headers=g1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows
'''

PROMPT = '''\
Build the HTTP API of a small helpdesk, as specified below. All state is in memory, starting
from the data given here.

## Users, login, roles
| username | password | role |
|---|---|---|
| `${c1}` | `${c1_pw}` | ${customer_role} |
| `${c2}` | `${c2_pw}` | ${customer_role} |
| `${g1}` | `${g1_pw}` | ${agent_role} |
| `${g2}` | `${g2_pw}` | ${agent_role} |
| `${ad}` | `${ad_pw}` | ${admin_role} |

- `POST /login` with the JSON body `{"username", "password"}` (both strings; usernames are
  case-sensitive): 200 `{"token": <string>}`, a new token for each login (every token stays
  valid until it is logged out); a wrong username or password is ${login_fail_status}
  `bad_credentials`.
- `POST /logout`: ends the session of the token it is sent with (only that one): 204, empty
  body; that token is then unknown.
- `GET /me`: 200 `{"username", "role"}`.

Every route but `/login` needs `Authorization: Bearer <token>` with a live token; otherwise
401 `unauthenticated` with the header `WWW-Authenticate: Bearer`. Routes marked with roles answer
403 `forbidden` to the other roles. Authentication, then the role, are checked before anything
else about the request (its body included).

## Errors
Every error body is `{"detail": <code>}`. Invalid input (body, query or path) is 422
`{"detail": "invalid_request", "invalid": [...]}`: the sorted list, without repeats, of
`[<where>, <name>]` pairs (`where` is `"body"`, `"query"` or `"path"`, `name` the field or
parameter), or just `["body"]` when the body is not a JSON object. Bodies with fields not listed
for them are invalid. A path that matches no route is 404 `not_found`; a known path with
another method is 405 `method_not_allowed` with the `Allow` header. A ticket that does not exist
is 404 `not_found`.

## Tickets
A ticket is shown as `{"id", "subject", "priority", "status", "customer", "assignee",
"comments"}`; `priority` is `low`, `normal`, `high` or `urgent`; `status` is `new`, `open`,
`pending`, `resolved` or `closed`; `assignee` is the username of a `${agent_role}` user, or null;
`comments` is the number of the ticket's comments the caller may see. Ids are 1, 2, ... in
creation order and never reused. The helpdesk starts with these tickets:

${seed_table}

A ${customer_role} sees only their own tickets: any other ticket is 404 `not_found` to them
(on every route). `${agent_role}` and `${admin_role}` users see all tickets.

- `POST /tickets` *${customer_role}*: `{"subject" (3-80 characters), "body" (1-2000
  characters), "priority" (default `normal`)}`: 201 with the ticket (status `new`, no assignee,
  the caller as customer) and `Location: /tickets/<id>`. Priority `urgent` is reserved for the
  other roles (through `PATCH`): asking for it is 403 `urgent_reserved` (once the body is
  valid).
- `GET /tickets`: 200, a list of the tickets the caller sees, filtered by the optional query
  parameters `status` (repeatable: `status=open&status=pending` keeps either), `priority`,
  `assignee` (a username; present but empty, `assignee=`, keeps the unassigned tickets) and `q`
  (contained in the subject, ignoring case); sorted by `sort`: `id`, `-id` (newest first),
  `priority` (urgent, high, normal, low) or `-priority` (low first), the default being
  `${default_sort}`; tickets of the same priority are ordered by id ${tie_word}, in both
  priority sorts. Then paged: `page` (>= 1, default 1) of `per_page` (1-${per_page_max},
  default ${per_page_default}); past the end the list is empty. Headers: `X-Total-Count`, the
  number of matching tickets, and `Link`: comma-and-space-separated entries
  `</tickets?page=<n>&per_page=<per_page>>; rel="<rel>"` (only these two parameters, whatever
  the request had), in this order: `first` (page 1), `prev` (page - 1, only when page > 1),
  `next` (page + 1, only when page < last), `last`, where `last` is the number of pages (at
  least 1).
- `GET /tickets/{ticket_id}`: 200 with the ticket.
- `PATCH /tickets/{ticket_id}` *${agent_role}, ${admin_role}*: any of `priority`, `status`,
  `assignee` (null unassigns; null is invalid for the other two). The body is validated before
  the ticket is looked up. Then, in this order, the first failing rule answers and the ticket is
  left unchanged:
  1. a `closed` ticket cannot change at all: 409 `ticket_closed` (even for `{}`);
  2. an assignee must be the username of a `${agent_role}` user: else 400 `invalid_assignee`;
     ${assign_rule}
  3. the status may move only along: `new` -> `open`, `closed`; `open` -> `pending`,
     `resolved`, `closed`; `pending` -> `open`, `resolved`, `closed`; `resolved` -> `open`,
     `closed`; anything else is 409 `invalid_transition`;
     ${same_status_rule}
  4. a ticket that would end up `resolved` without an assignee is 409 `needs_assignee` (the
     assignee given in the same request counts).

  Otherwise the given fields change: 200 with the ticket.
- `DELETE /tickets/{ticket_id}` *${admin_role}*: deletes it and its comments: 204, empty body.
- `GET /stats` *${admin_role}*: 200 `{"by_status": {<each of the five statuses>: <number of
  tickets>}, "unassigned": <tickets without assignee that are not resolved or closed>}`.

## Comments
A comment is `{"id", "ticket_id", "author", "body", "internal"}`; ids 1, 2, ... across tickets.
- `POST /tickets/{ticket_id}/comments` `{"body" (1-500 characters), "internal" (a boolean,
  default false)}`: 201 with the comment. The body is validated first; after the 404, a
  ${customer_role} asking for an internal comment gets 403 `internal_not_allowed`, then a closed
  ticket is 409 `ticket_closed`. A comment by the ticket's ${customer_role} on a `pending`
  ticket moves it to `open`; a comment that is not internal by a `${agent_role}` or
  `${admin_role}` user on a `new` ticket moves it to `open`.
- `GET /tickets/{ticket_id}/comments`: 200, the comments by id; ${customer_role} users never see
  internal comments.

## result
Log in as `${c1}` and send as them, unless said otherwise:
1. `POST /tickets` with `{"subject": "${first_subject}", "body": "Help!", "priority": "high"}`:
   `[status code, JSON body]`
2. `GET /tickets?sort=priority`: `[status code, [the ids in order], X-Total-Count header]`
3. `GET <the Location of row 1>/comments`: `[status code, JSON body]`
4. `GET /me`: `[status code, JSON body]`
5. `GET /tickets` without a token: `[status code, JSON body]`
'''

SEEDS = {
    "printer": [["Printer jams", "c1", "high", "open", "g1"],
                ["VPN drops", "c2", "normal", "new", None],
                ["Password reset", "c1", "low", "resolved", "g2"],
                ["Laptop screen", "c2", "high", "pending", "g1"],
                ["Printer toner", "c1", "high", "new", None]],
    "billing": [["Invoice wrong", "c2", "normal", "open", "g2"],
                ["Refund request", "c1", "high", "new", None],
                ["Card declined", "c1", "urgent", "open", "g1"],
                ["Plan upgrade", "c2", "low", "closed", "g2"],
                ["Tax receipt", "c1", "normal", "pending", None],
                ["Refund again", "c1", "high", "open", None]],
}


def derive(p):
    names = {k: p[k] for k in ("c1", "c2", "g1", "g2")}
    seed = [[subject, names[customer], priority, status, names.get(assignee)]
            for subject, customer, priority, status, assignee in SEEDS[p["seed_name"]]]
    table = ("| id | subject | customer | priority | status | assignee |\n"
             "|---|---|---|---|---|---|\n" + "\n".join(
                 f"| {i} | {s} | `{c}` | {pr} | {st} | {f'`{a}`' if a else '(none)'} |"
                 for i, (s, c, pr, st, a) in enumerate(seed, 1)))
    return {
        "seed": seed, "seed_table": table,
        "tie_sign": 1 if p["tie_word"] == "ascending" else -1,
        "same_status_rule": "giving the current status again is accepted (it changes nothing)."
        if p["same_status_ok"] else "giving the current status again is also 409 "
        "`invalid_transition`.",
        "assign_rule": f"a `{p['agent_role']}` user may assign any `{p['agent_role']}` user;"
        if p["agents_assign_others"] else
        f"a `{p['agent_role']}` user may only assign themselves (or set null): another "
        "username is 403 `assign_self_only`;",
    }


FAMILY = Family(
    id="service/helpdesk_tickets",
    title="A helpdesk ticket tracker with roles, a status machine and comments",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"c1": "carla", "c1_pw": "c-pass-1", "c2": "dev", "c2_pw": "d-pass-2",
              "g1": "ana", "g1_pw": "a-pass-3", "g2": "bo", "g2_pw": "b-pass-4",
              "ad": "root", "ad_pw": "r-pass-5", "customer_role": "customer",
              "agent_role": "agent", "admin_role": "admin", "seed_name": "printer",
              "first_subject": "Cannot log in", "login_fail_status": 401,
              "per_page_default": 5, "per_page_max": 20, "default_sort": "id",
              "tie_word": "ascending", "same_status_ok": True, "agents_assign_others": False},
    space={
        "users": [{"c1": "carla", "c1_pw": "c-pass-1", "c2": "dev", "c2_pw": "d-pass-2",
                   "g1": "ana", "g1_pw": "a-pass-3", "g2": "bo", "g2_pw": "b-pass-4",
                   "ad": "root", "ad_pw": "r-pass-5"},
                  {"c1": "mia", "c1_pw": "pw-mia", "c2": "noah", "c2_pw": "pw-noah",
                   "g1": "zoe", "g1_pw": "pw-zoe", "g2": "yan", "g2_pw": "pw-yan",
                   "ad": "boss", "ad_pw": "pw-boss"}],
        "roles": [{"customer_role": "customer", "agent_role": "agent", "admin_role": "admin"},
                  {"customer_role": "requester", "agent_role": "staff",
                   "admin_role": "supervisor"}],
        "seed": [{"seed_name": "printer", "first_subject": "Cannot log in"},
                 {"seed_name": "billing", "first_subject": "Double charge"}],
        "login_fail_status": [401, 400],
        "paging": [{"per_page_default": 5, "per_page_max": 20},
                   {"per_page_default": 3, "per_page_max": 10}],
        "default_sort": ["id", "-id"],
        "tie_word": ["ascending", "descending"],
        "same_status_ok": [True, False],
        "agents_assign_others": [False, True],
    },
    derive=derive,
    instances=14,
    requirements=(
        Requirement("Login with the JSON credentials gives a fresh token per login; `GET /me` "
                    "names the user and the role.",
                    probes="login_and_me",
                    traps=(Edit("one token per user", "token = f\"s{NEXT['session']}."
                                "{body.username}\"", "token = f\"s.{body.username}\""),
                           Edit("me without role",
                                'return {"username": user["username"], "role": user["role"]}',
                                'return {"username": user["username"]}'))),
        Requirement("Wrong credentials are ${login_fail_status} `bad_credentials`; usernames are "
                    "case-sensitive; missing fields are invalid.",
                    probes="bad_login",
                    traps=(Edit("login failure status swapped",
                                "raise Refusal(${login_fail_status}, \"bad_credentials\")",
                                lambda p: "raise Refusal("
                                f"{400 if p['login_fail_status'] == 401 else 401}, "
                                "\"bad_credentials\")"),
                           Edit("usernames ignore case", "user = USERS.get(body.username)",
                                "user = next((u for n, u in USERS.items() "
                                "if n.lower() == body.username.lower()), None)"))),
        Requirement("Logout ends only the token it is sent with: 204, then that token is 401.",
                    probes="logout",
                    traps=(Edit("logout ends every session of the user",
                                '    del SESSIONS[user["token"]]\n',
                                '    for t in [t for t, n in SESSIONS.items() '
                                'if n == user["username"]]:\n        del SESSIONS[t]\n'),
                           Edit("logout keeps the token", '    del SESSIONS[user["token"]]\n',
                                "    pass\n"))),
        Requirement("Every route but `/login` needs a live bearer token: else 401 "
                    "`unauthenticated` with `WWW-Authenticate: Bearer`, before validation.",
                    probes="tokens_required",
                    traps=(Edit("no challenge",
                                'raise Refusal(401, "unauthenticated", {"WWW-Authenticate": '
                                '"Bearer"})', 'raise Refusal(401, "unauthenticated")'),
                           Edit("body validated before authentication",
                                "def add_comment(ticket_id: int, user: AnyUser, body: "
                                "CommentIn):\n",
                                "def add_comment(ticket_id: int, body: CommentIn, "
                                "creds: Annotated[HTTPAuthorizationCredentials | None, "
                                "Depends(bearer)]):\n    user = current_user(creds)\n"))),
        Requirement("Role-restricted routes answer 403 `forbidden` to other roles before the "
                    "body is validated.",
                    probes="roles",
                    traps=(Edit("agents may delete", "def delete_ticket(ticket_id: int, "
                                "user: Admin):", "def delete_ticket(ticket_id: int, "
                                "user: Staff):"),
                           Edit("patch body validated before the role",
                                "def update_ticket(ticket_id: int, user: Staff, body: "
                                "TicketPatch):\n",
                                "def update_ticket(ticket_id: int, body: TicketPatch, "
                                "user: AnyUser):\n    roles(AGENT, ADMIN)(user)\n"))),
        Requirement("`POST /tickets` answers 201 with a `new`, unassigned ticket of the caller "
                    "and its `Location`; `urgent` is 403 `urgent_reserved`.",
                    probes="create_ticket",
                    traps=(Edit("no Location", "    response.headers[\"Location\"] = "
                                "f\"/tickets/{ticket['id']}\"\n", ""),
                           Edit("customers may file urgent tickets",
                                '    if body.priority == "urgent":\n'
                                '        raise Refusal(403, "urgent_reserved")\n', ""))),
        Requirement("Ticket bodies: subject 3-80, body 1-2000, a known priority, no other "
                    "fields; failures list `[where, name]` pairs.",
                    probes="ticket_validation",
                    traps=(Edit("subject bound off by one", "Field(min_length=3, max_length=80)",
                                "Field(min_length=3, max_length=79)"),
                           extras_ignored("ticket extras ignored", "TicketIn"))),
        Requirement("A ${customer_role} sees only their own tickets: others are 404 on every "
                    "route and missing from lists.",
                    probes="customer_visibility",
                    traps=(Edit("customers read any ticket",
                                "    if ticket is None or not visible(user, ticket):\n",
                                "    if ticket is None:\n"),
                           Edit("customers list every ticket",
                                "    tickets = [t for t in TICKETS.values() if visible(user, t)]",
                                "    tickets = list(TICKETS.values())"))),
        Requirement("List filters: repeatable `status`, `priority`, `assignee` (empty means "
                    "unassigned), `q` ignoring case; `X-Total-Count` counts the matches.",
                    probes="list_filters",
                    traps=(Edit("status not repeatable",
                                "status: Annotated[list[Status] | None, Query()] = None,",
                                "status: Status | None = None,"),
                           Edit("empty assignee matches nothing",
                                't["assignee"] == (assignee or None)]',
                                't["assignee"] == assignee]'),
                           Edit("q case-sensitive", 'q.lower() in t["subject"].lower()',
                                'q in t["subject"]'))),
        Requirement("Sorting: `id`, `-id`, `priority`, `-priority`, default `${default_sort}`, "
                    "equal priorities by id ${tie_word} in both directions.",
                    probes="sorting",
                    traps=(Edit("priority ties the other way",
                                'return lambda t: (RANK[t["priority"]], TIE * t["id"])',
                                'return lambda t: (RANK[t["priority"]], -TIE * t["id"])'),
                           Edit("-priority reverses the ties too",
                                'return lambda t: (-RANK[t["priority"]], TIE * t["id"])',
                                'return lambda t: (-RANK[t["priority"]], -TIE * t["id"])'),
                           Edit("priority sorted by name",
                                'return lambda t: (RANK[t["priority"]], TIE * t["id"])',
                                'return lambda t: (t["priority"], TIE * t["id"])'),
                           Edit("the other default sort",
                                "= ${default_sort__repr},",
                                lambda p: "= " + repr("-id" if p["default_sort"] == "id"
                                                      else "id") + ","))),
        Requirement("Pages (`page`, `per_page` 1-${per_page_max}, default ${per_page_default}) "
                    "with `X-Total-Count` and the `Link` header exactly as described.",
                    probes="pagination_headers",
                    traps=(Edit("no prev link", '([("prev", page - 1)] if page > 1 else [])',
                                "[]"),
                           Edit("last page zero when empty", "last = max(1, -(-total // "
                                "per_page))", "last = -(-total // per_page)"),
                           Edit("total of the page",
                                'response.headers["X-Total-Count"] = str(len(tickets))',
                                'response.headers["X-Total-Count"] = str(min(per_page, '
                                'max(0, len(tickets) - (page - 1) * per_page)))'))),
        Requirement("Invalid query parameters are 422 `invalid_request` with their "
                    '`["query", name]` pairs.',
                    probes="query_validation",
                    traps=(Edit("per_page unbounded", "Query(ge=1, le=${per_page_max})",
                                "Query(ge=1)"),
                           # a repeated key's error sits at ["query", name, index]: the pair
                           # keeps only where and name
                           Edit("invalid places as full locations",
                                "tuple(str(part) for part in e[\"loc\"][:2])",
                                "tuple(str(part) for part in e[\"loc\"])"))),
        Requirement("Status moves only along the allowed transitions; others are 409 "
                    "`invalid_transition`.",
                    probes="status_transitions",
                    traps=(Edit("resolved is final",
                                '"resolved": {"open", "closed"}', '"resolved": {"closed"}'),
                           Edit("new may skip to pending",
                                'TRANSITIONS = {"new": {"open", "closed"}',
                                'TRANSITIONS = {"new": {"open", "pending", "closed"}'))),
        Requirement("Giving the current status: ${same_status_rule}",
                    probes="same_status",
                    traps=Edit("same status the other way", "SAME_STATUS_OK = ${same_status_ok}",
                               lambda p: f"SAME_STATUS_OK = {not p['same_status_ok']}")),
        Requirement("A closed ticket never changes (409 `ticket_closed`, even `{}`) and takes "
                    "no comments.",
                    probes="closed_is_final",
                    traps=(Edit("empty patch of a closed ticket accepted",
                                '    if ticket["status"] == "closed":\n        raise Refusal(409, '
                                '"ticket_closed")\n'
                                '    changes = body.model_dump(exclude_unset=True)\n',
                                '    changes = body.model_dump(exclude_unset=True)\n'
                                '    if changes and ticket["status"] == "closed":\n'
                                '        raise Refusal(409, "ticket_closed")\n'),
                           Edit("closed tickets take comments",
                                '    if ticket["status"] == "closed":\n        raise Refusal(409, '
                                '"ticket_closed")\n    comment =',
                                "    comment ="))),
        Requirement("Assignees are ${agent_role} usernames (else 400 `invalid_assignee`); "
                    "${assign_rule}",
                    probes="assignment_rules",
                    traps=(Edit("admins assignable",
                                'if USERS.get(assignee, {}).get("role") != AGENT:',
                                'if USERS.get(assignee, {}).get("role") not in (AGENT, ADMIN):'),
                           Edit("assignment rule of the other kind",
                                "AGENTS_ASSIGN_OTHERS = ${agents_assign_others}",
                                lambda p: "AGENTS_ASSIGN_OTHERS = "
                                f"{not p['agents_assign_others']}"))),
        Requirement("A ticket cannot end up `resolved` without an assignee (409 "
                    "`needs_assignee`); an assignee in the same request counts.",
                    probes="resolving_needs_an_assignee",
                    traps=(Edit("assignee of the request ignored",
                                'if after["status"] == "resolved" and after["assignee"] is None:',
                                'if after["status"] == "resolved" and ticket["assignee"] is None:'),
                           Edit("only the status change checked",
                                'if after["status"] == "resolved" and after["assignee"] is None:',
                                'if changes.get("status") == "resolved" and after["assignee"] '
                                'is None:'))),
        Requirement("The rules are checked in the stated order and a refused `PATCH` changes "
                    "nothing.",
                    probes="failed_patch_changes_nothing",
                    traps=(Edit("partial update before the transition check",
                                '    if "status" in changes:\n        check_transition(',
                                '    ticket.update({k: v for k, v in changes.items() '
                                'if k != "status"})\n    if "status" in changes:\n'
                                '        check_transition('),
                           Edit("transition checked before the assignee",
                                '''    if "assignee" in changes:
        check_assignee(user, changes["assignee"])
    if "status" in changes:
        check_transition(ticket["status"], changes["status"])
''', '''    if "status" in changes:
        check_transition(ticket["status"], changes["status"])
    if "assignee" in changes:
        check_assignee(user, changes["assignee"])
'''))),
        Requirement("`PATCH` bodies: null is invalid for `priority` and `status`, values must be "
                    "known, no other fields; the body is validated before the 404.",
                    probes="patch_validation",
                    traps=(Edit("null status accepted",
                                "    status: Status = None\n",
                                "    status: Status | None = None\n"),
                           extras_ignored("patch extras ignored", "TicketPatch"))),
        Requirement("${customer_role} users never see internal comments, in lists or in a "
                    "ticket's `comments` count.",
                    probes="comment_visibility",
                    traps=(Edit("internal comments shown to customers",
                                'and (user["role"] != CUSTOMER or not c["internal"])]', "]"),
                           Edit("count of all comments",
                                '| {"comments": len(comments_for(user, ticket))}',
                                '| {"comments": sum(1 for c in COMMENTS.values() '
                                'if c["ticket_id"] == ticket["id"])}'))),
        Requirement("Comments: body 1-500, boolean `internal`, no other fields; 404 for tickets "
                    "the caller cannot see, then 403 `internal_not_allowed` for a "
                    "${customer_role}.",
                    probes="comment_rules",
                    traps=(Edit("customers post internal comments",
                                '    if body.internal and user["role"] == CUSTOMER:\n'
                                '        raise Refusal(403, "internal_not_allowed")\n', ""),
                           Edit("comment body unbounded",
                                "body: str = Field(min_length=1, max_length=500)",
                                "body: str = Field(min_length=1)"))),
        Requirement("Comments move the status: the ${customer_role}'s on `pending` to `open`; "
                    "staff's public one on `new` to `open`; internal ones never.",
                    probes="comments_move_the_status",
                    traps=(Edit("customer comments do not reopen",
                                '    if user["role"] == CUSTOMER and ticket["status"] == '
                                '"pending":\n        ticket["status"] = "open"\n    elif',
                                "    if False:\n        pass\n    elif"),
                           Edit("internal comments open new tickets",
                                'elif user["role"] != CUSTOMER and not body.internal and '
                                'ticket["status"] == "new":',
                                'elif user["role"] != CUSTOMER and ticket["status"] == "new":'))),
        Requirement("`DELETE /tickets/{ticket_id}` (${admin_role}) removes the ticket and its "
                    "comments: 204, then 404.",
                    probes="delete_ticket",
                    traps=Edit("ticket kept", "    del TICKETS[ticket_id]\n", "")),
        Requirement("`GET /stats` counts tickets per status (all five) and the unassigned ones "
                    "not resolved or closed.",
                    probes="stats",
                    traps=(Edit("unassigned counts closed ones",
                                't["assignee"] is None and t["status"] not in ("resolved", '
                                '"closed"))',
                                't["assignee"] is None and t["status"] != "resolved")'),
                           Edit("unassigned counts only new and open ones",
                                't["assignee"] is None and t["status"] not in ("resolved", '
                                '"closed"))',
                                't["assignee"] is None and t["status"] in ("new", "open"))'))),
        Requirement("Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` "
                    "with `Allow`.",
                    probes="unknown_paths_and_methods",
                    traps=router_errors_in_fastapi_format()),
    ),
)
