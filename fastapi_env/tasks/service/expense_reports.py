"""Service tier: expense reports with an approval workflow, specified like a product document
(14 routes, login and logout with session tokens, employee / manager / finance roles, reports
and their items with amount bounds, a state machine draft -> submitted -> approved / rejected
-> paid with a manager's approval limit, visibility by role and state, a history of
transitions, filtered and paginated listings, one error format)."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException as StarletteHTTPException

FINANCE = "${fin_role}"
ITEM_MAX, REPORT_MAX, APPROVAL_LIMIT = ${item_max}, ${report_max}, ${approval_limit}
USERS = {
    "${e1}": {"password": "${e1_pw}", "role": "employee", "manager": "${m1}"},
    "${e2}": {"password": "${e2_pw}", "role": "employee", "manager": "${m1}"},
    "${e3}": {"password": "${e3_pw}", "role": "employee", "manager": "${m2}"},
    "${m1}": {"password": "${m1_pw}", "role": "manager", "manager": None},
    "${m2}": {"password": "${m2_pw}", "role": "manager", "manager": None},
    "${f1}": {"password": "${f1_pw}", "role": FINANCE, "manager": None},
}
SESSIONS: dict[str, str] = {}
REPORTS: dict[int, dict] = {}
NEXT = {"report": 1, "item": 1, "session": 1}
State = Literal["draft", "submitted", "approved", "rejected", "paid"]

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''


class APIError(Exception):
    def __init__(self, status: int, code: str, **extra):
        self.status, self.code, self.extra = status, code, extra


def errors(status: int, entries: list[dict], headers=None) -> JSONResponse:
    return JSONResponse({"errors": entries}, status_code=status, headers=headers)


@app.exception_handler(APIError)
async def on_api_error(request: Request, exc: APIError):
    return errors(exc.status, [{"code": exc.code, **exc.extra}])


@app.exception_handler(StarletteHTTPException)
async def on_http_error(request: Request, exc: StarletteHTTPException):
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return errors(exc.status_code, [{"code": code}], exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return errors(422, [{"code": "invalid", "field": f} for f in sorted(fields)])


class LoginIn(BaseModel):
    username: str
    password: str


class ReportIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: str = Field(min_length=3, max_length=60)


class ItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    description: str = Field(min_length=1, max_length=100)
    amount_cents: int = Field(ge=1, le=ITEM_MAX)
    category: Literal["travel", "meals", "lodging", "other"]


class RejectIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                             max_length=200)]


def caller(x_auth_token: Annotated[str | None, Header()] = None) -> dict:
    if x_auth_token is None or x_auth_token not in SESSIONS:
        raise APIError(401, "unauthenticated")
    name = SESSIONS[x_auth_token]
    return {"username": name, "role": USERS[name]["role"], "token": x_auth_token}


def roles(*allowed: str):
    def check(user: Annotated[dict, Depends(caller)]) -> dict:
        if user["role"] not in allowed:
            raise APIError(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(caller)]
Employee = Annotated[dict, Depends(roles("employee"))]
Reviewer = Annotated[dict, Depends(roles("manager", FINANCE))]
Finance = Annotated[dict, Depends(roles(FINANCE))]


def sees(user: dict, report: dict) -> bool:
    if user["role"] == "employee":
        return report["owner"] == user["username"]
    if report["state"] == "draft":
        return False
    if user["role"] == "manager":
        return USERS[report["owner"]]["manager"] == user["username"]
    return True


def visible(report_id: int, user: dict) -> dict:
    report = REPORTS.get(report_id)
    if report is None or not sees(user, report):
        raise APIError(404, "report_not_found")
    return report


def expect_state(report: dict, state: str) -> None:
    if report["state"] != state:
        raise APIError(${transition_status}, "invalid_transition", state=report["state"])


def within_approval_limit(user: dict, report: dict) -> None:
    if user["role"] == "manager" and report["total_cents"] > APPROVAL_LIMIT:
        raise APIError(403, "over_approval_limit")


def editable(report: dict) -> None:
    if report["state"] != "draft":
        raise APIError(409, "report_locked")


def move(report: dict, state: str, user: dict, reason: str | None = None) -> dict:
    report["history"].append({"from": report["state"], "to": state, "by": user["username"],
                              "reason": reason})
    report["state"] = state
    return shown(report)


def summary(report: dict) -> dict:
    return {k: report[k] for k in ("id", "owner", "title", "state", "total_cents")}


def shown(report: dict) -> dict:
    return summary(report) | {"items": [dict(i) for i in report["items"]]}


@app.post("/auth/login")
def login(body: LoginIn):
    user = USERS.get(body.username)
    if user is None or user["password"] != body.password:
        raise APIError(401, "invalid_credentials")
    token = f"sess-{NEXT['session']}-{body.username}"
    NEXT["session"] += 1
    SESSIONS[token] = body.username
    return {"token": token, "role": user["role"]}


@app.post("/auth/logout", status_code=204)
def logout(user: AnyUser):
    del SESSIONS[user["token"]]
    return Response(status_code=204)


@app.get("/me")
def me(user: AnyUser):
    return {"username": user["username"], "role": user["role"],
            "manager": USERS[user["username"]]["manager"]}


@app.post("/reports", status_code=201)
def create_report(body: ReportIn, user: Employee, response: Response):
    report = {"id": NEXT["report"], "owner": user["username"], "title": body.title,
              "state": "draft", "total_cents": 0, "items": [],
              "history": [{"from": None, "to": "draft", "by": user["username"],
                           "reason": None}]}
    NEXT["report"] += 1
    REPORTS[report["id"]] = report
    response.headers["Location"] = f"/reports/{report['id']}"
    return shown(report)


@app.get("/reports")
def list_reports(
    user: AnyUser,
    state: State | None = None,
    owner: str | None = None,
    min_total: Annotated[int | None, Query(ge=0)] = None,
    page: Annotated[int, Query(ge=1)] = 1,
    page_size: Annotated[int, Query(ge=1, le=${ps_max})] = ${ps_default},
):
    found = [r for r in REPORTS.values() if sees(user, r)
             and (state is None or r["state"] == state)
             and (owner is None or r["owner"] == owner)
             and (min_total is None or r["total_cents"] >= min_total)]
    found.sort(key=lambda r: r["id"], reverse=True)
    start = (page - 1) * page_size
    return {"items": [summary(r) for r in found[start:start + page_size]], "page": page,
            "page_size": page_size, "total": len(found)}


@app.get("/reports/{report_id}")
def read_report(report_id: int, user: AnyUser):
    return shown(visible(report_id, user))


@app.delete("/reports/{report_id}", status_code=204)
def delete_report(report_id: int, user: Employee):
    report = visible(report_id, user)
    if report["state"] not in ("draft", "rejected"):
        raise APIError(409, "report_locked")
    del REPORTS[report_id]
    return Response(status_code=204)


@app.post("/reports/{report_id}/items", status_code=201)
def add_item(report_id: int, body: ItemIn, user: Employee, response: Response):
    report = visible(report_id, user)
    editable(report)
    if report["total_cents"] + body.amount_cents > REPORT_MAX:
        raise APIError(409, "report_limit_exceeded")
    item = {"id": NEXT["item"], **body.model_dump()}
    NEXT["item"] += 1
    report["items"].append(item)
    report["total_cents"] += item["amount_cents"]
    response.headers["Location"] = f"/reports/{report_id}/items/{item['id']}"
    return shown(report)


@app.delete("/reports/{report_id}/items/{item_id}", status_code=204)
def delete_item(report_id: int, item_id: int, user: Employee):
    report = visible(report_id, user)
    editable(report)
    item = next((i for i in report["items"] if i["id"] == item_id), None)
    if item is None:
        raise APIError(404, "item_not_found")
    report["items"].remove(item)
    report["total_cents"] -= item["amount_cents"]
    return Response(status_code=204)


@app.post("/reports/{report_id}/submit")
def submit(report_id: int, user: Employee):
    report = visible(report_id, user)
    expect_state(report, "draft")
    if not report["items"]:
        raise APIError(409, "empty_report")
    return move(report, "submitted", user)


@app.post("/reports/{report_id}/approve")
def approve(report_id: int, user: Reviewer):
    report = visible(report_id, user)
    ${approve_checks}
    return move(report, "approved", user)


@app.post("/reports/{report_id}/reject")
def reject(report_id: int, body: RejectIn, user: Reviewer):
    report = visible(report_id, user)
    expect_state(report, "submitted")
    return move(report, "rejected", user, body.reason)


@app.post("/reports/{report_id}/pay")
def pay(report_id: int, user: Finance):
    report = visible(report_id, user)
    expect_state(report, "approved")
    return move(report, "paid", user)


@app.get("/reports/{report_id}/history")
def history(report_id: int, user: AnyUser):
    return visible(report_id, user)["history"]


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
login = client.post("/auth/login", json={"username": "${e1}", "password": "${e1_pw}"})
employee = {"X-Auth-Token": login.json()["token"]}
manager = {"X-Auth-Token": client.post("/auth/login", json={
    "username": "${m1}", "password": "${m1_pw}"}).json()["token"]}
result = [
    [login.status_code, login.json()["role"]],
    row(client.post("/reports", json={"title": "${title}"}, headers=employee)),
    row(client.post("/reports/1/items", json={"description": "${desc}", "amount_cents": ${amount},
                                              "category": "travel"}, headers=employee)),
    row(client.post("/reports/1/submit", headers=employee)),
    row(client.get("/reports", headers=manager)),
    row(client.post("/reports/1/approve", headers=employee)),
]
'''

PROBES = '''\
PASSWORDS = {"${e1}": "${e1_pw}", "${e2}": "${e2_pw}", "${e3}": "${e3_pw}", "${m1}": "${m1_pw}",
             "${m2}": "${m2_pw}", "${f1}": "${f1_pw}"}


def _login(client, name):
    r = client.post("/auth/login", json={"username": name, "password": PASSWORDS[name]})
    return {"X-Auth-Token": r.json()["token"]}


''' + ROW + late_body.probe_source(
    [("POST", "/auth/login"), ("POST", "/reports"), ("POST", "/reports/1/items"),
     ("POST", "/reports/999/items"), ("POST", "/reports/1/reject"),
     ("POST", "/reports/999/reject")],
    [("no token", "{}"), ("unknown token", '{"X-Auth-Token": "nope"}'), ("employee", "e1"),
     ("manager", "m1"), ("finance", "f1")],
    prepare='    e1, m1, f1 = _login(client, "${e1}"), _login(client, "${m1}"), _login(client, "${f1}")\n') + '''

def _gist(r):
    """Status and what a report response says: its state and total, or the error codes."""
    body = r.json() if r.content else {}
    if "errors" in body:
        return [r.status_code, body["errors"]]
    return [r.status_code, body.get("state"), body.get("total_cents")]


def _report(client, owner, title="probe report", amounts=()):
    """A report of ``owner`` with one item per amount: its id."""
    report_id = client.post("/reports", json={"title": title}, headers=owner).json()["id"]
    for amount in amounts:
        client.post(f"/reports/{report_id}/items", json={"description": "item", "amount_cents":
                    amount, "category": "other"}, headers=owner)
    return report_id


def _submitted(client, owner, amounts=(1000,)):
    report_id = _report(client, owner, amounts=amounts)
    client.post(f"/reports/{report_id}/submit", headers=owner)
    return report_id


def _item(amount, **over):
    return {"description": "taxi", "amount_cents": amount, "category": "travel"} | over


def probe_login(client):
    rows = []
    for name in PASSWORDS:
        r = client.post("/auth/login", json={"username": name, "password": PASSWORDS[name]})
        body = r.json()
        rows.append([r.status_code, sorted(body), body["role"], isinstance(body["token"], str)])
        me = client.get("/me", headers={"X-Auth-Token": body["token"]}).json()
        rows.append([me["username"]])
    return rows


def probe_bad_credentials(client):
    rows = []
    for body in [{"username": "${e1}", "password": "wrong"},
                 {"username": "ghost", "password": "${e1_pw}"},
                 {"username": "${e1}", "password": "${e2_pw}"},
                 {"username": "${e1}".upper(), "password": "${e1_pw}"},
                 {"username": "${e1}", "password": "${e1_pw}".upper()}]:
        rows.append(_row(client.post("/auth/login", json=body)))
    rows.append(_row(client.post("/auth/login", json={"username": "${e1}"})))
    rows.append(_row(client.post("/auth/login", json=[])))
    return rows


def probe_tokens_required(client):
    valid = _login(client, "${e1}")["X-Auth-Token"]
    routes = [("POST", "/auth/logout"), ("GET", "/me"), ("POST", "/reports"),
              ("GET", "/reports"), ("GET", "/reports/1"), ("DELETE", "/reports/1"),
              ("POST", "/reports/1/items"), ("DELETE", "/reports/1/items/1"),
              ("POST", "/reports/1/submit"), ("POST", "/reports/1/approve"),
              ("POST", "/reports/1/reject"), ("POST", "/reports/1/pay"),
              ("GET", "/reports/1/history")]
    rows = []
    for headers in [{}, {"X-Auth-Token": "nope"}, {"X-Auth-Token": "${e1}"},
                    {"X-Auth-Token": ""}, {"Authorization": f"Bearer {valid}"},
                    {"X-Auth-Token": valid.upper()}]:
        for method, path in routes:
            rows.append([method, path, _row(client.request(method, path, headers=headers))])
    return rows


def probe_logout(client):
    first, second = _login(client, "${e2}"), _login(client, "${e2}")
    return [_row(client.post("/auth/logout", headers=first)),
            _row(client.get("/me", headers=first)),
            _row(client.post("/auth/logout", headers=first)),
            [client.get("/me", headers=second).status_code]]


def probe_me(client):
    return [_row(client.get("/me", headers=_login(client, n)))
            for n in ("${e1}", "${e3}", "${m1}", "${f1}")]


def probe_roles_before_validation(client):
    m1, f1, e1 = _login(client, "${m1}"), _login(client, "${f1}"), _login(client, "${e1}")
    report = _submitted(client, e1)
    return [_row(client.post("/reports", json={"title": "mine"}, headers=m1)),
            _row(client.post("/reports", json={}, headers=f1)),
            _row(client.post(f"/reports/{report}/items", json=_item(100), headers=m1)),
            _row(client.post(f"/reports/{report}/items", json={}, headers=f1)),
            _row(client.post(f"/reports/{report}/submit", headers=m1)),
            _row(client.delete(f"/reports/{report}", headers=f1)),
            _row(client.post(f"/reports/{report}/approve", headers=e1)),
            _row(client.post(f"/reports/{report}/reject", json={}, headers=e1)),
            _row(client.post(f"/reports/{report}/pay", headers=m1)),
            _gist(client.get(f"/reports/{report}", headers=e1))]


def probe_create_report(client):
    e2 = _login(client, "${e2}")
    r = client.post("/reports", json={"title": "Team offsite"}, headers=e2)
    body = r.json()
    rows = [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/reports/{body['id']}"]]
    again = client.post("/reports", json={"title": "Second"}, headers=e2).json()
    rows.append([again["id"] == body["id"] + 1])
    rows.append(_row(client.get(f"/reports/{body['id']}/history", headers=e2)))
    return rows


def probe_report_validation(client):
    e2 = _login(client, "${e2}")
    rows = []
    for body in [{"title": "ab"}, {"title": "abc"}, {"title": "t" * 60}, {"title": "t" * 61},
                 {}, {"title": "ok title", "state": "approved"}, {"title": 123}, [], "title"]:
        r = client.post("/reports", json=body, headers=e2)
        rows.append([r.status_code, r.json().get("errors", r.json().get("state"))])
    return rows


def probe_add_items(client):
    e2 = _login(client, "${e2}")
    report = _report(client, e2)
    first = client.post(f"/reports/{report}/items", json=_item(1250), headers=e2)
    second = client.post(f"/reports/{report}/items",
                         json=_item(300, category="meals", description="lunch"), headers=e2)
    items = second.json()["items"]
    return [[first.status_code, first.json()["total_cents"], len(first.json()["items"])],
            [second.status_code, second.json()["total_cents"],
             [[i["description"], i["amount_cents"], i["category"]] for i in items],
             items[1]["id"] == items[0]["id"] + 1,
             second.headers.get("location") == f"/reports/{report}/items/{items[1]['id']}"],
            _gist(client.get(f"/reports/{report}", headers=e2))]


def probe_item_validation(client):
    e2 = _login(client, "${e2}")
    report = _report(client, e2)
    rows = []
    for body in [_item(0), _item(1), _item(${item_max}), _item(${item_max} + 1), _item(-5),
                 _item(12.5), _item(100, category="Travel"), _item(100, category="fuel"),
                 _item(100, description=""), _item(100, description="d" * 100),
                 _item(100, description="d" * 101), _item(100, receipt="yes"),
                 {"amount_cents": 0}, [], "x"]:
        r = client.post(f"/reports/{report}/items", json=body, headers=e2)
        rows.append(_gist(r))
    return rows


def probe_report_limit(client):
    e2 = _login(client, "${e2}")
    report = _report(client, e2)
    rows = []
    remaining = ${report_max}
    while remaining > 0:
        amount = min(${item_max}, remaining)
        rows.append(_gist(client.post(f"/reports/{report}/items", json=_item(amount),
                                      headers=e2)))
        remaining -= amount
    rows.append(_gist(client.post(f"/reports/{report}/items", json=_item(1), headers=e2)))
    shown = client.get(f"/reports/{report}", headers=e2).json()
    rows.append([shown["total_cents"], len(shown["items"])])
    return rows


def probe_delete_item(client):
    e2 = _login(client, "${e2}")
    report = _report(client, e2, amounts=(500, 700))
    other = _report(client, e2, amounts=(900,))
    items = [i["id"] for i in client.get(f"/reports/{report}", headers=e2).json()["items"]]
    other_item = client.get(f"/reports/{other}", headers=e2).json()["items"][0]["id"]
    rows = [_row(client.delete(f"/reports/{report}/items/{items[0]}", headers=e2)),
            _row(client.delete(f"/reports/{report}/items/{items[0]}", headers=e2)),
            _row(client.delete(f"/reports/{report}/items/{other_item}", headers=e2))]
    shown = client.get(f"/reports/{report}", headers=e2).json()
    rows.append([shown["total_cents"], [i["id"] == items[1] for i in shown["items"]]])
    client.post(f"/reports/{report}/submit", headers=e2)
    rows.append(_row(client.delete(f"/reports/{report}/items/{items[1]}", headers=e2)))
    rows.append(_row(client.delete(f"/reports/{report}/items/999999", headers=e2)))
    return rows


def probe_submit(client):
    e2 = _login(client, "${e2}")
    empty = _report(client, e2)
    full = _report(client, e2, amounts=(800,))
    return [_row(client.post(f"/reports/{empty}/submit", headers=e2)),
            _gist(client.post(f"/reports/{full}/submit", headers=e2)),
            _row(client.post(f"/reports/{full}/submit", headers=e2)),
            _row(client.post(f"/reports/{full}/items", json=_item(5), headers=e2)),
            _gist(client.get(f"/reports/{empty}", headers=e2))]


def probe_employees_see_their_own(client):
    e1, e2 = _login(client, "${e1}"), _login(client, "${e2}")
    report = _report(client, e1, amounts=(100,))
    return [_row(client.get(f"/reports/{report}", headers=e2)),
            _row(client.post(f"/reports/{report}/items", json=_item(5), headers=e2)),
            _row(client.post(f"/reports/{report}/submit", headers=e2)),
            _row(client.delete(f"/reports/{report}", headers=e2)),
            _row(client.get(f"/reports/{report}/history", headers=e2)),
            _row(client.get("/reports/999999", headers=e1)),
            _row(client.get("/reports/abc", headers=e1)),
            _gist(client.get(f"/reports/{report}", headers=e1))]


def probe_reviewers_see_submitted_reports(client):
    e1, e3 = _login(client, "${e1}"), _login(client, "${e3}")
    m1, m2, f1 = _login(client, "${m1}"), _login(client, "${m2}"), _login(client, "${f1}")
    draft = _report(client, e1, amounts=(100,))
    sent = _submitted(client, e1)
    other_team = _submitted(client, e3)
    rows = []
    for name, headers in [("m1", m1), ("m2", m2), ("f1", f1)]:
        rows.append([name] + [client.get(f"/reports/{r}", headers=headers).status_code
                              for r in (draft, sent, other_team)])
    rows.append(_row(client.post(f"/reports/{draft}/approve", headers=m1)))
    rows.append(_row(client.post(f"/reports/{other_team}/approve", headers=m1)))
    rows.append(_row(client.post(f"/reports/{other_team}/reject", json={"reason": "no"},
                                 headers=m1)))
    return rows


def probe_approve(client):
    e1, m1 = _login(client, "${e1}"), _login(client, "${m1}")
    report = _submitted(client, e1, amounts=(1500,))
    return [_gist(client.post(f"/reports/{report}/approve", headers=m1)),
            _row(client.post(f"/reports/{report}/approve", headers=m1)),
            _gist(client.get(f"/reports/{report}", headers=e1))]


def probe_approval_limit(client):
    e2, m1, f1 = _login(client, "${e2}"), _login(client, "${m1}"), _login(client, "${f1}")
    at_limit = _submitted(client, e2, amounts=${limit_amounts})
    above = _submitted(client, e2, amounts=${limit_amounts} + [1])
    return [_gist(client.post(f"/reports/{at_limit}/approve", headers=m1)),
            _gist(client.post(f"/reports/{above}/approve", headers=m1)),
            _gist(client.get(f"/reports/{above}", headers=e2)),
            _gist(client.post(f"/reports/{above}/approve", headers=f1))]


def probe_which_approval_error_wins(client):
    e2, m1, f1 = _login(client, "${e2}"), _login(client, "${m1}"), _login(client, "${f1}")
    big = _submitted(client, e2, amounts=${limit_amounts} + [1])
    client.post(f"/reports/{big}/approve", headers=f1)
    small = _submitted(client, e2, amounts=(100,))
    client.post(f"/reports/{small}/approve", headers=m1)
    return [_row(client.post(f"/reports/{big}/approve", headers=m1)),
            _row(client.post(f"/reports/{small}/approve", headers=m1))]


def probe_reject(client):
    e1, m1 = _login(client, "${e1}"), _login(client, "${m1}")
    report = _submitted(client, e1, amounts=(2000,))
    rows = []
    for body in [{}, {"reason": ""}, {"reason": "   "}, {"reason": "r" * 201},
                 {"reason": "no", "note": "x"}]:
        rows.append(_row(client.post(f"/reports/{report}/reject", json=body, headers=m1)))
    rows.append(_gist(client.post(f"/reports/{report}/reject",
                                  json={"reason": "  missing receipts "}, headers=m1)))
    rows.append(_row(client.post(f"/reports/{report}/reject", json={"reason": "again"},
                                 headers=m1)))
    rows.append(_row(client.post(f"/reports/{report}/approve", headers=m1)))
    return rows


def probe_pay(client):
    e3, m2, f1 = _login(client, "${e3}"), _login(client, "${m2}"), _login(client, "${f1}")
    report = _submitted(client, e3, amounts=(4200,))
    rows = [_row(client.post(f"/reports/{report}/pay", headers=f1))]
    client.post(f"/reports/{report}/approve", headers=m2)
    rows.append(_gist(client.post(f"/reports/{report}/pay", headers=f1)))
    rows.append(_row(client.post(f"/reports/{report}/pay", headers=f1)))
    rows.append(_row(client.post(f"/reports/{report}/reject", json={"reason": "late"},
                                 headers=f1)))
    return rows


def probe_delete_report(client):
    e1, m1 = _login(client, "${e1}"), _login(client, "${m1}")
    draft = _report(client, e1)
    rejected = _submitted(client, e1)
    client.post(f"/reports/{rejected}/reject", json={"reason": "no"}, headers=m1)
    submitted = _submitted(client, e1)
    approved = _submitted(client, e1)
    client.post(f"/reports/{approved}/approve", headers=m1)
    return [_row(client.delete(f"/reports/{draft}", headers=e1)),
            _row(client.get(f"/reports/{draft}", headers=e1)),
            _row(client.delete(f"/reports/{draft}", headers=e1)),
            _row(client.delete(f"/reports/{rejected}", headers=e1)),
            _row(client.delete(f"/reports/{submitted}", headers=e1)),
            _row(client.delete(f"/reports/{approved}", headers=e1)),
            [client.get(f"/reports/{submitted}", headers=e1).status_code]]


def probe_history(client):
    e3, m2, f1 = _login(client, "${e3}"), _login(client, "${m2}"), _login(client, "${f1}")
    paid = _submitted(client, e3, amounts=(600,))
    client.post(f"/reports/{paid}/approve", headers=m2)
    client.post(f"/reports/{paid}/pay", headers=f1)
    rejected = _submitted(client, e3)
    client.post(f"/reports/{rejected}/reject", json={"reason": " over budget "}, headers=f1)
    return [_row(client.get(f"/reports/{paid}/history", headers=e3)),
            _row(client.get(f"/reports/{rejected}/history", headers=m2))]


def probe_refused_changes_leave_no_trace(client):
    e2, m1 = _login(client, "${e2}"), _login(client, "${m1}")
    report = _submitted(client, e2, amounts=${limit_amounts} + [1])
    client.post(f"/reports/{report}/approve", headers=m1)
    client.post(f"/reports/{report}/pay", headers=_login(client, "${f1}"))
    client.post(f"/reports/{report}/submit", headers=e2)
    client.post(f"/reports/{report}/items", json=_item(1), headers=e2)
    full = _report(client, e2, amounts=${report_max_amounts})
    client.post(f"/reports/{full}/items", json=_item(1), headers=e2)
    return [_gist(client.get(f"/reports/{report}", headers=e2)),
            [len(client.get(f"/reports/{report}/history", headers=e2).json())],
            _gist(client.get(f"/reports/{full}", headers=e2))]


def probe_list_scope_and_order(client):
    e3, m1, m2, f1 = (_login(client, n) for n in ("${e3}", "${m1}", "${m2}", "${f1}"))
    ids = [_report(client, e3, title=f"scope {i}", amounts=(100 * (i + 1),)) for i in range(3)]
    client.post(f"/reports/{ids[1]}/submit", headers=e3)
    rows = []
    for name, headers in [("e3", e3), ("m1", m1), ("m2", m2), ("f1", f1)]:
        items = client.get("/reports", params={"owner": "${e3}", "page_size": ${ps_max}},
                           headers=headers).json()["items"]
        rows.append([name, [[r["id"] in ids, r["title"], r["state"]] for r in items
                            if r["title"].startswith("scope")]])
    first = client.get("/reports", params={"owner": "${e3}"}, headers=e3).json()["items"][0]
    rows.append([sorted(first), first["id"] == ids[2]])
    return rows


def probe_list_filters_and_paging(client):
    e1 = _login(client, "${e1}")
    made = [_report(client, e1, title=f"page {i}", amounts=(amount,))
            for i, amount in enumerate([100, 5000, 2500, 7000, 40])]
    client.post(f"/reports/{made[1]}/submit", headers=e1)
    client.post(f"/reports/{made[3]}/submit", headers=e1)
    rows = []
    for params in [{"state": "submitted"}, {"min_total": 2500, "state": "draft"},
                   {"min_total": 2500}, {"owner": "${e2}"},
                   {"page_size": 2}, {"page_size": 2, "page": 2}, {"page": 999}]:
        body = client.get("/reports", params=params, headers=e1).json()
        rows.append([params, [[r["title"], r["total_cents"]] for r in body["items"]
                              if r["id"] in made], body["page"], body["page_size"]])
    return rows


def probe_list_totals(client):
    e3 = _login(client, "${e3}")
    before = client.get("/reports", headers=e3).json()["total"]
    for i in range(3):
        _report(client, e3, title=f"count {i}")
    page = client.get("/reports", params={"page_size": 1}, headers=e3).json()
    return [[page["total"] - before, len(page["items"]), page["page_size"]],
            [client.get("/reports", headers=e3).json()["page_size"]]]


def probe_list_validation(client):
    f1 = _login(client, "${f1}")
    rows = []
    for params in [{"state": "Draft"}, {"state": "closed"}, {"page": 0}, {"page_size": 0},
                   {"page_size": ${ps_max} + 1}, {"min_total": -1}, {"min_total": "lots"},
                   {"page": 0, "state": "x"}]:
        rows.append([params, _row(client.get("/reports", params=params, headers=f1))])
    rows.append([client.get("/reports", params={"page_size": ${ps_max}},
                            headers=f1).status_code])
    return rows


def probe_unknown_paths_and_methods(client):
    e1 = _login(client, "${e1}")
    rows = []
    for method, path in [("GET", "/nope"), ("GET", "/auth/login"), ("PUT", "/me"),
                         ("PATCH", "/reports/1/history"), ("GET", "/reports/1/pay")]:
        r = client.request(method, path, headers=e1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows
'''


def _amounts(total, item_max):
    """Item amounts adding up to ``total``, each within the per-item maximum."""
    full, rest = divmod(total, item_max)
    return [item_max] * full + ([rest] if rest else [])


def derive(p):
    # Items that add up to the approval limit exactly, each within the per-item maximum.
    limit_amounts = _amounts(p["approval_limit"], p["item_max"])
    state = 'expect_state(report, "submitted")'
    limit = "within_approval_limit(user, report)"
    first, second = (state, limit) if p["approve_order"] == "state" else (limit, state)
    return {
        "limit_amounts": repr(limit_amounts),
        "approve_checks": f"{first}\n    {second}",
        "approve_checks_swapped": f"{second}\n    {first}",
        "report_max_amounts": repr(_amounts(p["report_max"], p["item_max"])),
        "approve_order_text": (
            "the state check comes before the approval limit"
            if p["approve_order"] == "state"
            else "the approval limit is checked before the state"
        ),
    }


PROMPT = '''\
Build the HTTP API of an expense-report service with an approval workflow, as specified below.
Keep all state in memory; there are no reports at the start.

## Users and sessions
| username | password | role | manager |
|---|---|---|---|
| `${e1}` | `${e1_pw}` | employee | `${m1}` |
| `${e2}` | `${e2_pw}` | employee | `${m1}` |
| `${e3}` | `${e3_pw}` | employee | `${m2}` |
| `${m1}` | `${m1_pw}` | manager | |
| `${m2}` | `${m2_pw}` | manager | |
| `${f1}` | `${f1_pw}` | ${fin_role} | |

An employee's manager is the one named in the table; a manager's team is the employees naming
them.

- `POST /auth/login` `{"username", "password"}` (case-sensitive): 200 `{"token": <string>,
  "role": <role>}`, a new token per login; wrong username or password: 401
  `invalid_credentials`.
- `POST /auth/logout`: ends the session of the token it is sent with (that token stops working,
  others of the same user do not): 204, empty body.

Every route except login needs the header `X-Auth-Token` with a token of a live session;
otherwise 401 `unauthenticated`. Routes marked *employee*, *reviewer* (a manager or
${fin_role}) or *${fin_role}* answer 403 `forbidden` to other roles. The token is checked first,
then the role, then the request body, then everything else; a body that is not JSON is an
invalid body like any other, refused (422, field `"body"`) only after the token and the role.

- `GET /me`: 200 `{"username", "role", "manager"}` (`manager` null for non-employees).

## Errors
Every error has the body `{"errors": [...]}`. For a validation failure (body, path or query),
422 with one entry `{"code": "invalid", "field": <name>}` per invalid field or parameter,
sorted by name, without repeats (`"body"` when the body is missing, not JSON or not a JSON object). Any
other error has one entry `{"code": <code>}`; an `invalid_transition` entry also has
`"state"`: the report's current state. A path no route serves is 404 `not_found`; a served path
with another method 405 `method_not_allowed`, keeping the `Allow` header.

## Reports
A report is `{"id", "owner", "title", "state", "total_cents", "items"}`; `items` lists
`{"id", "description", "amount_cents", "category"}` in the order they were added and
`total_cents` is the sum of their amounts. Report ids and item ids are each 1, 2, 3, ... in
creation order (item ids across all reports). States: `draft`, `submitted`, `approved`,
`rejected`, `paid`.

Who sees a report: its owner always; a manager, the reports of their team that are not
`draft`; the ${fin_role} user, every report that is not `draft`. A report the caller does not
see is answered exactly like a missing one: 404 `report_not_found`.

- `POST /reports` *employee* `{"title"}` (3-60 characters, no other fields): 201 with the new
  report (`draft`, no items, total 0) and `Location: /reports/<id>`.
- `GET /reports`: 200 `{"items", "page", "page_size", "total"}`: the reports the caller sees,
  newest (highest id) first, each without its items (`{"id", "owner", "title", "state",
  "total_cents"}`), filtered by the optional `state` (one of the five states, exactly),
  `owner` (a username, exactly) and `min_total` (an integer >= 0: total at least that);
  `total` counts all matches, `items` is page `page` (>= 1, default 1) of `page_size`
  (1-${ps_max}, default ${ps_default}).
- `GET /reports/{report_id}`: 200 with the report.
- `DELETE /reports/{report_id}` *employee*: only a `draft` or `rejected` report, else 409
  `report_locked`: 204, empty body.
- `POST /reports/{report_id}/items` *employee* `{"description" (1-100 characters),
  "amount_cents" (integer 1-${item_max}), "category" ("travel", "meals", "lodging" or
  "other")}`, no other fields: adds an item to a `draft` report (else 409 `report_locked`); 409
  `report_limit_exceeded` if the total would exceed ${report_max}. 201 with the whole report and
  `Location: /reports/<report id>/items/<item id>`.
- `DELETE /reports/{report_id}/items/{item_id}` *employee*: 409 `report_locked` unless the
  report is a `draft`, then 404 `item_not_found` if the report has no such item; 204, empty
  body.

## Workflow
Each transition answers 200 with the whole report in its new state. A transition from a state
it does not start from is ${transition_status} `invalid_transition` (with the current state).
- `POST /reports/{report_id}/submit` *employee*: `draft` -> `submitted`; then 409
  `empty_report` if it has no items.
- `POST /reports/{report_id}/approve` *reviewer*: `submitted` -> `approved`. A manager may only
  approve a report whose total is at most ${approval_limit}: else 403 `over_approval_limit`
  (the ${fin_role} user has no limit). When both errors apply, ${approve_order_text}.
- `POST /reports/{report_id}/reject` *reviewer* `{"reason"}` (no other fields; the reason has
  its leading and trailing whitespace removed and must then be 1-200 characters):
  `submitted` -> `rejected`.
- `POST /reports/{report_id}/pay` *${fin_role}*: `approved` -> `paid`.
- `GET /reports/{report_id}/history`: 200, the report's transitions, oldest first, each
  `{"from", "to", "by", "reason"}`: the first is `{"from": null, "to": "draft", "by": <owner>,
  "reason": null}`; `by` is who made the change, `reason` the (trimmed) rejection reason on a
  rejection and null otherwise.

A refused request changes nothing.

## result
1. `POST /auth/login` as `${e1}`: the row `[status code, the role in the body]`.

Then one row per request, `[status code, JSON body]`, sent as `${e1}` unless said otherwise:

2. `POST /reports` with `{"title": "${title}"}`
3. `POST /reports/1/items` with `{"description": "${desc}", "amount_cents": ${amount},
   "category": "travel"}`
4. `POST /reports/1/submit`
5. `GET /reports` as `${m1}`
6. `POST /reports/1/approve`
'''

PEOPLE = [
    {"e1": "erin", "e1_pw": "erin-pw-1", "e2": "finn", "e2_pw": "finn-pw-2", "e3": "gwen",
     "e3_pw": "gwen-pw-3", "m1": "hugo", "m1_pw": "hugo-boss", "m2": "iris", "m2_pw": "iris-lead",
     "f1": "judy", "f1_pw": "judy-pays", "title": "Berlin trip", "desc": "train ticket"},
    {"e1": "ken", "e1_pw": "k3n!", "e2": "lou", "e2_pw": "l0u!", "e3": "max", "e3_pw": "m4x!",
     "m1": "nia", "m1_pw": "n1a-mgr", "m2": "oto", "m2_pw": "0to-mgr", "f1": "pia",
     "f1_pw": "p1a-fin", "title": "Client visit", "desc": "airport taxi"},
]

FAMILY = Family(
    id="service/expense_reports",
    title="Expense reports with an approval workflow, from the product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=PEOPLE[0] | {"fin_role": "finance", "item_max": 50000, "report_max": 120000,
                          "approval_limit": 30000, "transition_status": 409,
                          "approve_order": "state", "ps_default": 10, "ps_max": 50,
                          "amount": 8900},
    space={
        "people": PEOPLE,
        "fin_role": ["finance", "accounting", "treasury"],
        "limits": [{"item_max": 50000, "report_max": 120000, "approval_limit": 30000},
                   {"item_max": 20000, "report_max": 50000, "approval_limit": 45000},
                   {"item_max": 100000, "report_max": 250000, "approval_limit": 75000}],
        "transition_status": [409, 400],
        "approve_order": ["state", "limit"],
        "paging": [{"ps_default": 10, "ps_max": 50}, {"ps_default": 2, "ps_max": 5}],
        "amount": [8900, 15000],
    },
    derive=derive,
    instances=14,
    requirements=(
        Requirement("Login answers 200 with a token and the role; the token identifies the "
                    "user.",
                    probes="login",
                    traps=Edit("role missing from login", '    return {"token": token, '
                               '"role": user["role"]}', '    return {"token": token}')),
        Requirement("Wrong credentials are 401 `invalid_credentials` (usernames and passwords "
                    "case-sensitive); a malformed login body is 422.",
                    probes="bad_credentials",
                    traps=Edit("usernames ignore case", "    user = USERS.get(body.username)",
                               "    user = USERS.get(body.username.lower())")),
        Requirement("Every route but login needs a live `X-Auth-Token`: else 401 "
                    "`unauthenticated`, before the role or the body.",
                    probes="tokens_required",
                    traps=(Edit("usernames accepted as tokens", "SESSIONS: dict[str, str] = {}",
                                "SESSIONS: dict[str, str] = {name: name for name in USERS}"),
                           Edit("body before token", '''def create_report(body: ReportIn, user: Employee, response: Response):
''', '''def create_report(body: ReportIn, response: Response, x_auth_token: Annotated[str | None, Header()] = None):
    user = roles("employee")(caller(x_auth_token))
'''))),
        Requirement("Logout ends only the session of the token it is sent with.",
                    probes="logout",
                    traps=Edit("logout ends every session of the user",
                               '    del SESSIONS[user["token"]]',
                               '    for token in [t for t, n in SESSIONS.items() '
                               'if n == user["username"]]:\n        del SESSIONS[token]')),
        Requirement("`GET /me` gives username, role and the employee's manager.",
                    probes="me",
                    traps=Edit("me without manager", '''    return {"username": user["username"], "role": user["role"],
            "manager": USERS[user["username"]]["manager"]}''', '''    return {"username": user["username"], "role": user["role"]}''')),
        Requirement("The token and the role are checked before the body, even a body that is not "
                    "JSON (then 422 `invalid` for the field `body`, before any other check of the "
                    "route).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Role-restricted routes answer 403 `forbidden` to other roles, before the "
                    "body is validated.",
                    probes="roles_before_validation",
                    traps=(Edit("managers may add items", "def add_item(report_id: int, body: ItemIn, "
                                "user: Employee, response: Response):",
                                "def add_item(report_id: int, body: ItemIn, user: AnyUser, "
                                "response: Response):"),
                           Edit("employees may approve", "def approve(report_id: int, user: Reviewer):",
                                "def approve(report_id: int, user: AnyUser):"),
                           Edit("reviewers may pay", "def pay(report_id: int, user: Finance):",
                                "def pay(report_id: int, user: Reviewer):"))),
        Requirement("`POST /reports` answers 201 with a draft report and its `Location`; ids "
                    "grow by one; the history starts with the draft.",
                    probes="create_report",
                    traps=(Edit("report without Location",
                                '''    response.headers["Location"] = f"/reports/{report['id']}"\n''', ""),
                           Edit("history starts empty", '''              "history": [{"from": None, "to": "draft", "by": user["username"],
                           "reason": None}]}''', '''              "history": []}'''))),
        Requirement("A report title is 3-60 characters; other fields are invalid.",
                    probes="report_validation",
                    traps=(extras_ignored("report extras ignored", "ReportIn"),
                           Edit("title from 1", "title: str = Field(min_length=3, max_length=60)",
                                "title: str = Field(min_length=1, max_length=60)"))),
        Requirement("Adding an item answers 201 with the whole report (items in order, total "
                    "updated) and the item's `Location`.",
                    probes="add_items",
                    traps=(Edit("item without Location",
                                '''    response.headers["Location"] = f"/reports/{report_id}/items/{item['id']}"\n''', ""),
                           Edit("items newest first", '    report["items"].append(item)',
                                '    report["items"].insert(0, item)'))),
        Requirement("Item bodies: description 1-100, integer amount 1-${item_max}, one of four "
                    "categories exactly, no other fields.",
                    probes="item_validation",
                    traps=(Edit("item amount unbounded", "amount_cents: int = Field(ge=1, le=ITEM_MAX)",
                                "amount_cents: int = Field(ge=1)"),
                           Edit("zero amounts", "amount_cents: int = Field(ge=1, le=ITEM_MAX)",
                                "amount_cents: int = Field(ge=0, le=ITEM_MAX)"),
                           extras_ignored("item extras ignored", "ItemIn"))),
        Requirement("A report's total may reach ${report_max} but not exceed it (409 "
                    "`report_limit_exceeded`).",
                    probes="report_limit",
                    traps=Edit("limit exclusive", 'if report["total_cents"] + body.amount_cents > REPORT_MAX:',
                               'if report["total_cents"] + body.amount_cents >= REPORT_MAX:')),
        Requirement("Deleting an item: 409 `report_locked` unless draft, then 404 "
                    "`item_not_found` for an item not in that report; the total drops.",
                    probes="delete_item",
                    traps=(Edit("item lookup across reports", '''    item = next((i for i in report["items"] if i["id"] == item_id), None)''',
                                '''    item = next((i for r in REPORTS.values() for i in r["items"] if i["id"] == item_id), None)
    report = next((r for r in REPORTS.values() if item in r["items"]), report)'''),
                           Edit("item lookup before the lock", '''    editable(report)
    item = next''', '''    item = next((i for i in report["items"] if i["id"] == item_id), None)
    if item is None:
        raise APIError(404, "item_not_found")
    editable(report)
    item = next'''))),
        Requirement("Submitting: `draft` only (${transition_status} `invalid_transition` with "
                    "the state), then 409 `empty_report`; a submitted report is locked.",
                    probes="submit",
                    traps=(Edit("empty reports submitted", '''    if not report["items"]:
        raise APIError(409, "empty_report")
''', ""),
                           Edit("transition error without state",
                                'raise APIError(${transition_status}, "invalid_transition", '
                                'state=report["state"])',
                                'raise APIError(${transition_status}, "invalid_transition")'),
                           Edit("submitted reports editable", '''    report = visible(report_id, user)
    editable(report)
    if report["total_cents"]''', '''    report = visible(report_id, user)
    if report["total_cents"]'''))),
        Requirement("An employee sees only their own reports; others are 404 "
                    "`report_not_found`.",
                    probes="employees_see_their_own",
                    traps=Edit("employees see every report", '''    if user["role"] == "employee":
        return report["owner"] == user["username"]''', '''    if user["role"] == "employee":
        return True''')),
        Requirement("Managers see their team's non-draft reports, the ${fin_role} user every "
                    "non-draft report; others are 404.",
                    probes="reviewers_see_submitted_reports",
                    traps=(Edit("reviewers see drafts", '''    if report["state"] == "draft":
        return False
    if user["role"] == "manager":''', '''    if user["role"] == "manager":'''),
                           Edit("managers see every team", '''        return USERS[report["owner"]]["manager"] == user["username"]''',
                                '''        return True'''))),
        Requirement("A manager approves a submitted report of their team (200, `approved`); "
                    "approving again is `invalid_transition`.",
                    probes="approve",
                    traps=Edit("approve any state", "    ${approve_checks}\n",
                               "    within_approval_limit(user, report)\n")),
        Requirement("Managers approve totals up to ${approval_limit} only (403 "
                    "`over_approval_limit`); the ${fin_role} user has no limit.",
                    probes="approval_limit",
                    traps=(Edit("approval limit exclusive", 'report["total_cents"] > APPROVAL_LIMIT',
                                'report["total_cents"] >= APPROVAL_LIMIT'),
                           Edit("limit for finance too", 'if user["role"] == "manager" and report["total_cents"]',
                                'if report["total_cents"]'))),
        Requirement("When an over-limit manager approves a report that is not submitted, "
                    "${approve_order_text}.",
                    probes="which_approval_error_wins",
                    traps=Edit("approval checks swapped", "    ${approve_checks}\n",
                               "    ${approve_checks_swapped}\n")),
        Requirement("Rejecting needs a reason (trimmed, 1-200 characters, no other fields); "
                    "only submitted reports; the reason is kept trimmed.",
                    probes="reject",
                    traps=(Edit("reason not trimmed", "StringConstraints(strip_whitespace=True, min_length=1,",
                                "StringConstraints(min_length=1,"),
                           Edit("reject any state", '''    expect_state(report, "submitted")
    return move(report, "rejected", user, body.reason)''', '''    return move(report, "rejected", user, body.reason)'''))),
        Requirement("The ${fin_role} user pays approved reports only.",
                    probes="pay",
                    traps=Edit("pay submitted reports", 'expect_state(report, "approved")',
                               'if report["state"] not in ("approved", "submitted"):\n'
                               '        expect_state(report, "approved")')),
        Requirement("Only draft and rejected reports can be deleted (else 409 `report_locked`); "
                    "a deleted report is gone.",
                    probes="delete_report",
                    traps=(Edit("rejected reports locked", 'if report["state"] not in ("draft", "rejected"):',
                                'if report["state"] != "draft":'),
                           Edit("delete anything", '''    if report["state"] not in ("draft", "rejected"):
        raise APIError(409, "report_locked")
    del REPORTS''', "    del REPORTS"))),
        Requirement("The history lists every transition with who made it and the trimmed "
                    "rejection reason.",
                    probes="history",
                    traps=Edit("history without reasons", '''    return move(report, "rejected", user, body.reason)''',
                               '''    return move(report, "rejected", user)''')),
        Requirement("A refused request changes nothing (state, history, items, total).",
                    probes="refused_changes_leave_no_trace",
                    traps=Edit("item added before the limit check", '''    if report["total_cents"] + body.amount_cents > REPORT_MAX:
        raise APIError(409, "report_limit_exceeded")
    item = {"id": NEXT["item"], **body.model_dump()}
    NEXT["item"] += 1
    report["items"].append(item)
    report["total_cents"] += item["amount_cents"]''', '''    item = {"id": NEXT["item"], **body.model_dump()}
    NEXT["item"] += 1
    report["items"].append(item)
    report["total_cents"] += item["amount_cents"]
    if report["total_cents"] > REPORT_MAX:
        raise APIError(409, "report_limit_exceeded")''')),
        Requirement("Listings show each caller what they see, newest first, without items.",
                    probes="list_scope_and_order",
                    traps=(Edit("oldest first", 'found.sort(key=lambda r: r["id"], reverse=True)',
                                'found.sort(key=lambda r: r["id"])'),
                           Edit("listing with items", '''    return {"items": [summary(r) for r in found[start:start + page_size]], "page": page,''',
                                '''    return {"items": [shown(r) for r in found[start:start + page_size]], "page": page,'''))),
        Requirement("`state`, `owner` and `min_total` filter the listing; `page` and "
                    "`page_size` (default ${ps_default}) page it.",
                    probes="list_filters_and_paging",
                    traps=(Edit("min_total exclusive", 'r["total_cents"] >= min_total',
                                'r["total_cents"] > min_total'),
                           Edit("pages from zero", "start = (page - 1) * page_size",
                                "start = page * page_size"))),
        Requirement("`total` counts every match before paging.",
                    probes="list_totals",
                    traps=Edit("total of the page", '"page_size": page_size, "total": len(found)}',
                               '"page_size": page_size, "total": len(found[start:start + page_size])}')),
        Requirement("Listing parameters are validated (`state` exactly, `page` >= 1, `page_size` "
                    "1-${ps_max}, `min_total` >= 0), naming each invalid one.",
                    probes="list_validation",
                    traps=(Edit("page_size unbounded", "Query(ge=1, le=${ps_max})", "Query(ge=1)"),
                           Edit("negative min_total", "Annotated[int | None, Query(ge=0)]",
                                "int | None"))),
        Requirement("Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` "
                    "with `Allow`.",
                    probes="unknown_paths_and_methods",
                    traps=(router_errors_in_fastapi_format("router errors unhandled"),
                           Edit("Allow dropped", 'return errors(exc.status_code, [{"code": code}], exc.headers)',
                                'return errors(exc.status_code, [{"code": code}])'))),
    ),
)
