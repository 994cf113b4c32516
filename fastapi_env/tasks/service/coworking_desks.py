"""Service tier: a coworking space's desk bookings specified like a product document (11 routes,
bearer tokens with staff, team admins and members, desks in zones, bookings by day number with
per-plan zone access and monthly quotas, team admins booking for their members, cancellation
with a notice rule, usage and occupancy reports, and a flat `{"error": code}` error format)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW_OR_CONTENT_TYPE
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

ZONES = ("open", "quiet", "window")
Zone = Literal["open", "quiet", "window"]
Plan = Literal["basic", "flex", "pro"]
QUOTAS = {"basic": ${basic_quota}, "flex": ${flex_quota}, "pro": None}
PLAN_ZONES = {"basic": {"open"}, "flex": {"open", "${flex_zone}"}, "pro": set(ZONES)}
MONTH_DAYS = ${month_days}
NOTICE_DAYS = ${notice}
STAFF = "${staff}"
TOKENS = {"${tok_staff}": "${staff}", "${tok_a}": "${ua}", "${tok_b}": "${ub}",
          "${tok_c}": "${uc}", "${tok_d}": "${ud}"}
MEMBERS = {"${ua}": {"plan": "pro", "team": "${team1}"},
           "${ub}": {"plan": "basic", "team": "${team1}"},
           "${uc}": {"plan": "flex", "team": None},
           "${ud}": {"plan": "basic", "team": "${team2}"}}
TEAM_ADMINS = {"${team1}": "${ua}", "${team2}": "${ud}"}
DESKS: dict[str, dict] = {}
BOOKINGS: dict[int, dict] = {}
NEXT_BOOKING = [1]

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Refused(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def error(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": code, **extra}, status_code=status, headers=headers)


@app.exception_handler(Refused)
async def on_refused(request: Request, exc: Refused):
    return error(exc.status, exc.code, exc.headers)


ROUTER_CODES = {404: "not_found", 405: "method_not_allowed"}


@app.exception_handler(StarletteHTTPException)
async def on_router_error(request: Request, exc: StarletteHTTPException):
    return error(exc.status_code, ROUTER_CODES.get(exc.status_code, "error"), exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {".".join(str(part) for part in e["loc"]) for e in exc.errors()}
    return error(422, "invalid_request", fields=sorted(fields))


def caller(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or token not in TOKENS:
        raise Refused(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return TOKENS[token]


Caller = Annotated[str, Depends(caller)]


def staff_only(name: Caller) -> str:
    if name != STAFF:
        raise Refused(403, "forbidden")
    return name


Staff = Annotated[str, Depends(staff_only)]


def manages(name: str, member: str) -> bool:
    """Whether `name` may act for `member`: the member, their team's admin, or staff."""
    return name == STAFF or name == member or TEAM_ADMINS.get(MEMBERS[member]["team"]) == name


def normal_code(value):
    return value.strip().upper() if isinstance(value, str) else value


class DeskIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[A-Z]{1,3}-[0-9]{1,3}$$")
    zone: Zone

    @field_validator("code", mode="before")
    @classmethod
    def normalise_code(cls, value):
        return normal_code(value)


class BookingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    desk: str
    day: int = Field(ge=1)
    member: str | None = None


class CancelIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    today: int = Field(ge=1)


class PlanIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    plan: Plan


def desk_of(code: str) -> dict:
    code = normal_code(code)
    if code not in DESKS:
        raise Refused(404, "unknown_desk")
    return DESKS[code]


def known_member(member: str) -> str:
    if member not in MEMBERS:
        raise Refused(404, "unknown_member")
    return member


def active(booking: dict) -> bool:
    return booking["status"] == "active"


def month_of(day: int) -> int:
    return (day - 1) // MONTH_DAYS + 1


def used_in_month(member: str, month: int) -> int:
    return sum(1 for b in BOOKINGS.values()
               if active(b) and b["member"] == member and month_of(b["day"]) == month)


@app.post("/desks", status_code=201)
def create_desk(body: DeskIn, name: Staff, response: Response):
    if body.code in DESKS:
        raise Refused(409, "desk_exists")
    DESKS[body.code] = {"code": body.code, "zone": body.zone}
    response.headers["Location"] = f"/desks/{body.code}"
    return DESKS[body.code]


@app.get("/desks")
def list_desks(name: Caller, zone: Zone | None = None):
    return [desk for code, desk in sorted(DESKS.items()) if zone is None or desk["zone"] == zone]


@app.delete("/desks/{code}", status_code=204)
def delete_desk(code: str, name: Staff):
    desk = desk_of(code)
    if any(active(b) and b["desk"] == desk["code"] for b in BOOKINGS.values()):
        raise Refused(409, "desk_in_use")
    del DESKS[desk["code"]]
    return Response(status_code=204)


@app.post("/bookings", status_code=201)
def create_booking(body: BookingIn, name: Caller, response: Response):
    desk = desk_of(body.desk)
    if body.member is None and name == STAFF:
        raise Refused(400, "member_required")
    member = known_member(body.member if body.member is not None else name)
    if not manages(name, member):
        raise Refused(403, "not_allowed")
    plan = MEMBERS[member]["plan"]
    if desk["zone"] not in PLAN_ZONES[plan]:
        raise Refused(403, "zone_not_in_plan")
    that_day = [b for b in BOOKINGS.values() if active(b) and b["day"] == body.day]
    if any(b["desk"] == desk["code"] for b in that_day):
        raise Refused(409, "desk_taken")
    if any(b["member"] == member for b in that_day):
        raise Refused(409, "member_busy")
    quota = QUOTAS[plan]
    if quota is not None and used_in_month(member, month_of(body.day)) >= quota:
        raise Refused(409, "quota_exceeded")
    booking = {"id": NEXT_BOOKING[0], "desk": desk["code"], "zone": desk["zone"],
               "day": body.day, "member": member, "booked_by": name, "status": "active"}
    NEXT_BOOKING[0] += 1
    BOOKINGS[booking["id"]] = booking
    response.headers["Location"] = f"/bookings/{booking['id']}"
    return booking


@app.get("/bookings")
def list_bookings(
    name: Caller,
    member: str | None = None,
    from_day: Annotated[int | None, Query(alias="from", ge=1)] = None,
    to_day: Annotated[int | None, Query(alias="to", ge=1)] = None,
    status: Literal["active", "cancelled", "all"] = "active",
):
    found = [b for b in BOOKINGS.values() if manages(name, b["member"])
             and (member is None or b["member"] == member)
             and (from_day is None or b["day"] >= from_day)
             and (to_day is None or b["day"] <= to_day)
             and (status == "all" or b["status"] == status)]
    return sorted(found, key=lambda b: (b["day"], b["desk"], b["id"]))


def visible_booking(booking_id: int, name: Caller) -> dict:
    """Bookings the caller may not see answer exactly like missing ones."""
    booking = BOOKINGS.get(booking_id)
    if booking is None or not manages(name, booking["member"]):
        raise Refused(404, "unknown_booking")
    return booking


Visible = Annotated[dict, Depends(visible_booking)]


@app.get("/bookings/{booking_id}")
def read_booking(booking: Visible):
    return booking


@app.post("/bookings/{booking_id}/cancel")
def cancel_booking(body: CancelIn, booking: Visible, name: Caller):
    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")
    if name != STAFF and booking["day"] - body.today < NOTICE_DAYS:
        raise Refused(409, "notice_too_short")
    booking["status"] = "cancelled"
    return booking


@app.get("/members/{member}/usage")
def member_usage(member: str, name: Caller, month: Annotated[int, Query(ge=1)]):
    known_member(member)
    if not manages(name, member):
        raise Refused(403, "forbidden")
    plan = MEMBERS[member]["plan"]
    quota, used = QUOTAS[plan], used_in_month(member, month)
    remaining = None if quota is None else max(quota - used, 0)
    return {"member": member, "plan": plan, "month": month, "used": used, "quota": quota,
            "remaining": remaining}


@app.put("/members/{member}/plan")
def change_plan(member: str, body: PlanIn, name: Staff):
    known_member(member)
    MEMBERS[member]["plan"] = body.plan
    return {"member": member, "plan": body.plan}


@app.get("/reports/occupancy")
def occupancy(name: Staff, day: Annotated[int, Query(ge=1)]):
    booked = {b["desk"] for b in BOOKINGS.values() if active(b) and b["day"] == day}
    zones = []
    for zone in ZONES:
        codes = [code for code, desk in DESKS.items() if desk["zone"] == zone]
        zones.append({"zone": zone, "desks": len(codes),
                      "booked": sum(code in booked for code in codes)})
    return {"day": day, "zones": zones}


@app.get("/reports/teams/{team}")
def team_report(team: str, name: Caller, month: Annotated[int, Query(ge=1)]):
    if team not in TEAM_ADMINS:
        raise Refused(404, "unknown_team")
    if name != STAFF and name != TEAM_ADMINS[team]:
        raise Refused(403, "forbidden")
    rows = [{"member": member, "days": used_in_month(member, month)}
            for member in sorted(m for m, info in MEMBERS.items() if info["team"] == team)]
    return {"team": team, "month": month, "members": rows,
            "total": sum(r["days"] for r in rows)}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
staff_h, b_h = {"Authorization": "Bearer ${tok_staff}"}, {"Authorization": "Bearer ${tok_b}"}
result = [
    row(client.post("/desks", json={"code": "${desk}", "zone": "open"}, headers=staff_h)),
    row(client.post("/bookings", json={"desk": "${desk}", "day": ${day}}, headers=b_h)),
    row(client.get("/members/${ub}/usage", params={"month": 1}, headers=b_h)),
    row(client.get("/desks")),
]
'''

PROBES = ROW_OR_CONTENT_TYPE + '''

ST = {"Authorization": "Bearer ${tok_staff}"}
A = {"Authorization": "Bearer ${tok_a}"}
B = {"Authorization": "Bearer ${tok_b}"}
C = {"Authorization": "Bearer ${tok_c}"}
D = {"Authorization": "Bearer ${tok_d}"}
MONTH = ${month_days}
NOTICE = ${notice}
QB, QF = ${basic_quota}, ${flex_quota}


def _day(month, k):
    """Day k of a month: every probe books in its own months, so quotas never meet."""
    return (month - 1) * MONTH + k


def _desk(client, code, zone="open"):
    client.post("/desks", json={"code": code, "zone": zone}, headers=ST)
    return code


def _book(client, headers, desk, day, member=None):
    body = {"desk": desk, "day": day} | ({"member": member} if member else {})
    return client.post("/bookings", json=body, headers=headers)


def _booked(client, headers, desk, day, member=None):
    return _book(client, headers, desk, day, member).json()["id"]


def _cancel(client, headers, booking_id, today=1):
    return client.post(f"/bookings/{booking_id}/cancel", json={"today": today}, headers=headers)


def _short(r):
    """[status, error code] of a refusal, [status, member, day, status] of a booking."""
    body = r.json()
    if "error" in body:
        return [r.status_code, body["error"]]
    return [r.status_code, body.get("member"), body.get("day"), body.get("status")]


def probe_bearer_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer"},
                    {"Authorization": "Bearer nope"}, {"Authorization": "${tok_b}"},
                    {"Authorization": "Token ${tok_b}"}, {"Authorization": "Bearer ${ub}"},
                    {"X-Token": "${tok_b}"}]:
        for method, path in [("GET", "/desks"), ("POST", "/desks"), ("GET", "/bookings"),
                             ("GET", "/bookings/1"), ("POST", "/bookings/1/cancel"),
                             ("GET", "/members/${ub}/usage"), ("PUT", "/members/${ub}/plan"),
                             ("GET", "/reports/occupancy"), ("GET", "/reports/teams/${team1}"),
                             ("DELETE", "/desks/X-1"), ("POST", "/bookings")]:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, _row(r), r.headers.get("www-authenticate")])
    for scheme in ["bearer", "BEARER", "Bearer"]:
        r = client.get("/desks", headers={"Authorization": f"{scheme} ${tok_c}"})
        rows.append([scheme, r.status_code])
    return rows


def probe_auth_before_validation(client):
    return [_row(client.post("/desks", json={}, headers={"Authorization": "Bearer x"})),
            _row(client.post("/bookings", json={"day": 0})),
            _row(client.get("/reports/occupancy")),
            _row(client.post("/bookings/abc/cancel", json=[])),
            _row(client.get("/members/${ub}/usage", params={"month": "x"}))]


''' + late_body.probe_source(
    [("POST", "/desks"), ("POST", "/bookings"), ("POST", "/bookings/99999/cancel"),
     ("PUT", "/members/${ub}/plan")],
    [("no token", "{}"), ("member", "B"), ("staff", "ST")]) + '''


def probe_router_errors(client):
    return [_row(client.get("/nowhere", headers=B)), _row(client.get("/nowhere")),
            _row(client.delete("/bookings", headers=B)), _row(client.patch("/desks")),
            _row(client.get("/bookings/1/cancel", headers=B))]


def probe_validation_format(client):
    return [_row(client.post("/desks", json={"code": "bad code", "zone": "roof", "floor": 1},
                             headers=ST)),
            _row(client.post("/bookings", json=[], headers=B)),
            _row(client.post("/bookings", headers=B)),
            _row(client.get("/bookings", params={"to": "x", "from": 0}, headers=B)),
            _row(client.get("/reports/occupancy", headers=ST)),
            _row(client.post("/bookings", json={"day": "soon", "member": 3}, headers=B))]


def probe_staff_only_routes(client):
    rows = []
    for headers in (B, A, C):
        rows += [_row(client.post("/desks", json={}, headers=headers)),
                 _row(client.post("/desks", json={"code": "SO-1", "zone": "open"},
                                  headers=headers)),
                 _row(client.delete("/desks/nope", headers=headers)),
                 _row(client.put("/members/${ub}/plan", json={}, headers=headers)),
                 _row(client.get("/reports/occupancy", headers=headers))]
    return rows


def probe_occupancy_report(client):
    rows = [_row(client.get("/reports/occupancy", params={"day": 1}, headers=A))]
    day = _day(3, 4)
    before = client.get("/reports/occupancy", params={"day": day}, headers=ST).json()
    rows.append([before["day"], [[z["zone"], z["desks"], z["booked"]] for z in before["zones"]
                                 if z["zone"] != "open"]])
    _desk(client, "OC-1")
    _desk(client, "OC-2", "quiet")
    _desk(client, "OC-3", "quiet")
    _book(client, A, "OC-2", day)
    gone = _booked(client, B, "OC-1", day)
    _book(client, C, "OC-1", day + 1)
    _book(client, A, "OC-3", day + 1)
    _cancel(client, ST, gone)
    after = client.get("/reports/occupancy", params={"day": day}, headers=ST).json()
    rows.append([[z["zone"], z["desks"] - b["desks"], z["booked"] - b["booked"]]
                 for z, b in zip(after["zones"], before["zones"])])
    rows.append(_row(client.get("/reports/occupancy", params={"day": 0}, headers=ST)))
    return rows


def probe_create_desks(client):
    r = client.post("/desks", json={"code": "  cd-7 ", "zone": "quiet"}, headers=ST)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    for code in ["CD-7", "cd-7", " Cd-7"]:
        rows.append(_row(client.post("/desks", json={"code": code, "zone": "open"}, headers=ST)))
    rows.append([d for d in client.get("/desks", headers=B).json() if d["code"] == "CD-7"])
    return rows


def probe_desk_validation(client):
    rows = []
    for body in [{"code": "VAL-123", "zone": "open"}, {"code": "VALX-1", "zone": "open"},
                 {"code": "VAL-1234", "zone": "open"}, {"code": "V-", "zone": "open"},
                 {"code": "-1", "zone": "open"}, {"code": "V1-1", "zone": "open"},
                 {"code": "V-1", "zone": "Open"}, {"code": "V-2", "zone": "roof"},
                 {"code": "V-3", "zone": "open", "floor": 2}, {}, {"code": 5, "zone": "open"},
                 {"code": "V-4", "zone": "window"}]:
        r = client.post("/desks", json=body, headers=ST)
        rows.append([body, r.status_code, r.json().get("fields", r.json().get("code"))])
    return rows


def probe_list_desks(client):
    for code, zone in [("LD-20", "open"), ("LD-3", "quiet"), ("LA-9", "open"),
                       ("LZ-1", "window")]:
        _desk(client, code, zone)
    rows = []
    for params in [{}, {"zone": "open"}, {"zone": "window"}, {"zone": "quiet"}]:
        r = client.get("/desks", params=params, headers=C)
        rows.append([params, r.status_code, [d for d in r.json() if d["code"][:2] in ("LD", "LA", "LZ")]])
    rows.append(_row(client.get("/desks", params={"zone": "roof"}, headers=C)))
    rows.append(_row(client.get("/desks", params={"zone": "OPEN"}, headers=C)))
    return rows


def probe_delete_desks(client):
    _desk(client, "DD-1")
    booking = _booked(client, C, "DD-1", _day(4, 5))
    rows = [_row(client.delete("/desks/DD-1", headers=ST))]
    _cancel(client, ST, booking)
    rows += [_row(client.delete("/desks/DD-1", headers=ST)),
             _row(client.delete("/desks/DD-1", headers=ST)),
             _short(client.get(f"/bookings/{booking}", headers=C))]
    _desk(client, "DD-2")
    rows += [_row(client.delete("/desks/dd-2", headers=ST)),
             ["DD", [d["code"] for d in client.get("/desks", headers=ST).json()
                     if d["code"][:2] == "DD"]]]
    return rows


def probe_create_bookings(client):
    _desk(client, "CB-1")
    day = _day(5, 2)
    r = _book(client, B, " cb-1", day)
    first = r.json()["id"]
    rows = [[r.status_code, {k: v for k, v in r.json().items() if k != "id"},
             r.headers.get("location") == f"/bookings/{first}"]]
    rows.append(_row(client.get(f"/bookings/{first}", headers=B)))
    rows[-1][1].pop("id", None)
    second = _book(client, B, "CB-1", day + 1).json()["id"]
    rows.append([second - first])
    rows.append(_short(_book(client, B, "CB-404", day + 2)))
    return rows


def probe_team_admin_books(client):
    _desk(client, "TA-1")
    day = _day(6, 1)
    r = _book(client, A, "TA-1", day, "${ub}")
    rows = [[r.status_code, r.json()["member"], r.json()["booked_by"]]]
    for headers, member in [(B, "${ua}"), (D, "${ub}"), (C, "${ub}"), (A, "${uc}"),
                            (A, "${ud}"), (A, "ghost"), (D, "${ua}"), (B, "${ub}")]:
        rows.append([member, _short(_book(client, headers, "TA-1", day + 3, member))])
    return rows


def probe_staff_books(client):
    _desk(client, "SB-1")
    day = _day(7, 1)
    rows = [_short(_book(client, ST, "SB-1", day)),
            _row(client.post("/bookings", json={"desk": "SB-1", "day": day, "member": None},
                             headers=ST)),
            _short(_book(client, ST, "SB-1", day, "${staff}")),
            _short(_book(client, ST, "SB-9", day))]
    r = _book(client, ST, "SB-1", day, "${ud}")
    rows.append([r.status_code, r.json()["member"], r.json()["booked_by"]])
    return rows


def probe_zones_by_plan(client):
    for code, zone in [("ZO-1", "open"), ("ZQ-1", "quiet"), ("ZW-1", "window")]:
        _desk(client, code, zone)
    rows = []
    for k, (headers, member) in enumerate([(B, None), (C, None), (A, None), (A, "${ub}"),
                                           (D, None)]):
        for n, code in enumerate(["ZW-1", "ZQ-1", "ZO-1"]):
            rows.append([member, code, _short(_book(client, headers, code,
                                                    _day(8, 1 + 3 * k + n), member))])
    return rows


def probe_desk_and_member_conflicts(client):
    _desk(client, "CF-1")
    _desk(client, "CF-2")
    day = _day(9, 6)
    first = _booked(client, B, "CF-1", day)
    rows = [_short(_book(client, C, "CF-1", day)), _short(_book(client, B, "CF-2", day)),
            _short(_book(client, B, "CF-1", day)), _short(_book(client, C, "CF-2", day))]
    _cancel(client, ST, first)
    rows += [_short(_book(client, C, "CF-1", day)), _short(_book(client, A, "CF-1", day)),
             _short(_book(client, B, "CF-2", day))]
    return rows


def probe_monthly_quota(client):
    _desk(client, "MQ-1")
    rows = []
    for k in range(1, QB + 1):
        rows.append(_short(_book(client, B, "MQ-1", _day(10, k))))
    rows += [_short(_book(client, B, "MQ-1", _day(10, MONTH))),
             _short(_book(client, B, "MQ-1", _day(11, 1))),
             _short(_book(client, B, "MQ-1", _day(9, MONTH)))]
    for k in range(1, QF + 2):
        rows.append(_short(_book(client, C, "MQ-1", _day(12, k))))
    for k in range(1, QF + 3):
        rows.append(_short(_book(client, A, "MQ-1", _day(13, k))))
    return rows


def probe_booking_check_order(client):
    _desk(client, "PR-1", "quiet")
    _desk(client, "PR-2", "window")
    _desk(client, "PR-3")
    day = _day(14, 3)
    _book(client, A, "PR-2", day)
    rows = [_short(_book(client, B, "PR-404", day, "ghost")),
            _short(_book(client, ST, "PR-404", day)),
            _short(_book(client, B, "PR-1", day, "ghost")),
            _short(_book(client, C, "PR-1", day, "${ub}")),
            _short(_book(client, B, "PR-2", day)),
            _row(client.post("/bookings", json={"desk": "PR-404", "day": 0}, headers=B))]
    for k in range(1, QB + 1):
        _book(client, B, "PR-3", _day(14, 10 + k))
    rows += [_short(_book(client, B, "PR-3", _day(14, 11))),
             _short(_book(client, B, "PR-3", _day(14, 20)))]
    _book(client, C, "PR-3", _day(14, 21))
    rows.append(_short(_book(client, B, "PR-3", _day(14, 21))))
    return rows


def probe_read_booking(client):
    _desk(client, "RB-1")
    booking = _booked(client, B, "RB-1", _day(15, 1))
    rows = [[name, _short(client.get(f"/bookings/{booking}", headers=h))]
            for name, h in [("b", B), ("a", A), ("staff", ST), ("c", C), ("d", D)]]
    rows += [_row(client.get("/bookings/999999", headers=B)),
             _row(client.get("/bookings/abc", headers=B))]
    return rows


def probe_list_scope_and_order(client):
    for code in ["LS-1", "LS-2", "LS-3"]:
        _desk(client, code)
    d1, d2 = _day(16, 2), _day(16, 1)
    for headers, code, day in [(B, "LS-2", d1), (A, "LS-1", d1), (C, "LS-1", d2), (D, "LS-3", d1),
                               (B, "LS-3", d2), (A, "LS-2", d2)]:
        _book(client, headers, code, day)
    window = {"from": _day(16, 1), "to": _day(16, MONTH)}
    rows = []
    for headers, extra in [(B, {}), (A, {}), (C, {}), (D, {}), (ST, {}), (A, {"member": "${ub}"}),
                           (A, {"member": "${uc}"}), (ST, {"member": "${uc}"}),
                           (ST, {"from": d1})]:
        r = client.get("/bookings", params=window | extra, headers=headers)
        rows.append([extra, [[b["day"], b["desk"], b["member"]] for b in r.json()]])
    return rows


def probe_list_status_and_range(client):
    _desk(client, "LT-1")
    days = [_day(17, k) for k in (4, 5, 6)]
    ids = [_booked(client, A, "LT-1", day) for day in days]
    _cancel(client, A, ids[1])
    rows = []
    for extra in [{}, {"status": "cancelled"}, {"status": "all"}, {"from": days[1], "to": days[2]},
                  {"from": days[2], "to": days[2], "status": "all"}, {"to": days[0]},
                  {"from": days[2], "to": days[0]}]:
        params = {"from": days[0], "to": days[2]} | extra
        r = client.get("/bookings", params=params, headers=A)
        rows.append([extra, [[b["day"], b["status"]] for b in r.json()]])
    rows.append(_row(client.get("/bookings", params={"status": "void"}, headers=A)))
    rows.append(_row(client.get("/bookings", params={"to": 0}, headers=A)))
    return rows


def probe_cancel_notice(client):
    _desk(client, "CN-1")
    rows = []
    # (who cancels, whose booking, days between today and the booking)
    for k, (headers, member, gap) in enumerate([
            (A, "${ua}", NOTICE), (A, "${ua}", NOTICE + 1), (A, "${ua}", NOTICE - 1),
            (A, "${ua}", 0), (A, "${ua}", -1), (A, "${ub}", NOTICE - 1), (A, "${ub}", NOTICE),
            (B, "${ub}", NOTICE - 1), (ST, "${ua}", 0), (ST, "${ua}", -2)]):
        day = _day(18, 5 + k)
        booking = _booked(client, A, "CN-1", day, member)
        rows.append([gap, _short(_cancel(client, headers, booking, day - gap))])
    return rows


def probe_cancel_effects(client):
    _desk(client, "CE-1")
    day = _day(19, 9)
    first = _booked(client, B, "CE-1", day)
    rows = [_short(_cancel(client, B, first)), _short(_cancel(client, B, first)),
            _short(_cancel(client, B, first, day))]
    second = _booked(client, C, "CE-1", day)
    rows.append([second > first, _short(client.get(f"/bookings/{first}", headers=B))])
    for k in range(1, QB + 1):
        rows.append(_short(_book(client, B, "CE-1", _day(19, 20 + k))))
    return rows


def probe_cancel_access(client):
    _desk(client, "CA-1")
    day = _day(20, 20)
    booking = _booked(client, B, "CA-1", day)
    rows = [_short(_cancel(client, C, booking)), _short(_cancel(client, D, booking)),
            _short(_cancel(client, B, 999999)),
            _row(client.post("/bookings/999999/cancel", json={}, headers=B)),
            _row(client.post(f"/bookings/{booking}/cancel", json={"today": 0}, headers=C)),
            _row(client.post(f"/bookings/{booking}/cancel", json={}, headers=B)),
            _row(client.post(f"/bookings/{booking}/cancel", json={"today": 0}, headers=B)),
            _row(client.post(f"/bookings/{booking}/cancel", json={"today": 1, "why": "x"},
                             headers=B)),
            _short(_cancel(client, A, booking))]
    return rows


def probe_member_usage(client):
    _desk(client, "MU-1")
    month = 21
    _book(client, C, "MU-1", _day(month, 1))
    _book(client, C, "MU-1", _day(month, 2))
    cancelled = _booked(client, C, "MU-1", _day(month, 3))
    _cancel(client, C, cancelled)
    _book(client, A, "MU-1", _day(month, 4))
    _book(client, B, "MU-1", _day(month, 5))
    rows = []
    for headers, member in [(C, "${uc}"), (ST, "${uc}"), (A, "${uc}"), (A, "${ua}"),
                            (A, "${ub}"), (B, "${ua}"), (D, "${ub}"), (ST, "ghost"),
                            (B, "ghost"), (ST, "${staff}")]:
        r = client.get(f"/members/{member}/usage", params={"month": month}, headers=headers)
        rows.append([member, _row(r)])
    rows += [_row(client.get("/members/${uc}/usage", params={"month": month + 1}, headers=C)),
             _row(client.get("/members/${uc}/usage", params={"month": 0}, headers=C)),
             _row(client.get("/members/${uc}/usage", headers=C)),
             _row(client.get("/members/ghost/usage", params={"month": 0}, headers=C))]
    return rows


def probe_plan_changes(client):
    _desk(client, "PC-1")
    _desk(client, "PC-2", "window")
    month = 22
    rows = [_row(client.put("/members/${ub}/plan", json={"plan": "pro"}, headers=ST))]
    for k in range(1, QB + 2):
        rows.append(_short(_book(client, B, "PC-1", _day(month, k))))
    rows.append(_short(_book(client, B, "PC-2", _day(month, 20))))
    rows.append(_row(client.put("/members/${ub}/plan", json={"plan": "gold"}, headers=ST)))
    rows.append(_row(client.put("/members/${ub}/plan", json={"plan": "basic", "quota": 9},
                                headers=ST)))
    rows.append(_row(client.put("/members/${ub}/plan", json={"plan": "basic"}, headers=ST)))
    rows.append(_row(client.get("/members/${ub}/usage", params={"month": month}, headers=B)))
    rows.append(_short(_book(client, B, "PC-1", _day(month, 25))))
    rows.append(_short(_book(client, B, "PC-2", _day(month + 1, 1))))
    kept = client.get("/bookings", params={"from": _day(month, 1), "to": _day(month, MONTH)},
                      headers=B).json()
    rows.append([len(kept)])
    rows.append(_row(client.put("/members/ghost/plan", json={"plan": "pro"}, headers=ST)))
    rows.append(_row(client.put("/members/ghost/plan", json={"plan": "gold"}, headers=ST)))
    return rows


def probe_team_report(client):
    for code in ["TR-1", "TR-2", "TR-3"]:
        _desk(client, code)
    month = 24
    _book(client, A, "TR-1", _day(month, 1))
    _book(client, B, "TR-2", _day(month, 1))
    _book(client, B, "TR-1", _day(month, 2))
    _book(client, C, "TR-3", _day(month, 1))
    gone = _booked(client, A, "TR-1", _day(month, 3))
    _cancel(client, A, gone)
    rows = []
    for headers, team, month_asked in [(A, "${team1}", month), (ST, "${team1}", month),
                                       (A, "${team1}", month + 1), (D, "${team2}", month),
                                       (B, "${team1}", month), (D, "${team1}", month),
                                       (A, "${team2}", month), (ST, "nope", month),
                                       (B, "nope", month), (ST, "${team1}", 0)]:
        r = client.get(f"/reports/teams/{team}", params={"month": month_asked}, headers=headers)
        rows.append([team, month_asked, _row(r)])
    return rows
'''


def _derive(p):
    names = {"staff": p["staff"], "a": p["ua"], "b": p["ub"], "c": p["uc"], "d": p["ud"]}
    tokens = {f"tok_{key}": p["tp"] + name for key, name in names.items()}
    other = {"quiet": "window", "window": "quiet"}[p["flex_zone"]]
    return tokens | {"other_zone": other}


PROMPT = '''\
Build the HTTP API of a coworking space where members book desks by day. Days are plain day
numbers (1, 2, 3, ...) given in the requests; the service never reads a clock. All state is
in memory; it starts with no desks and no bookings, and with these accounts:

| token | name | role | plan | team |
|---|---|---|---|---|
| `${tok_staff}` | `${staff}` | staff | - | - |
| `${tok_a}` | `${ua}` | member, admin of team `${team1}` | pro | `${team1}` |
| `${tok_b}` | `${ub}` | member | basic | `${team1}` |
| `${tok_c}` | `${uc}` | member | flex | none |
| `${tok_d}` | `${ud}` | member, admin of team `${team2}` | basic | `${team2}` |

Staff are not members: they have no plan, no bookings and no usage. A member is *managed* by
themselves, by the admin of their team (if they have a team) and by staff.

## Requests and errors
- Every route needs `Authorization: Bearer <token>` with a token from the table; the word
  `Bearer` is matched without regard to case, the token exactly. Otherwise: 401
  `unauthenticated` with the header `WWW-Authenticate: Bearer`.
- Every error body is exactly `{"error": "<code>"}` (plain `application/json`), except
  validation failures: 422 `{"error": "invalid_request", "fields": [...]}` where `fields`
  lists, sorted and without repeats, each invalid location as its parts joined with `.`:
  `body.day`, `query.from`, `path.booking_id`, or just `body` when the body is missing, is not
  JSON, or is not an object. Unknown body fields are invalid on every route that takes a body.
- A path that matches no route is 404 `not_found`; a known path with another method is 405
  `method_not_allowed`; both whatever the credentials.
- Checks run in this order: the token; then, on *staff* routes, the role (others get 403
  `forbidden`); then validation (422); then the route's own checks in the order listed below.
  The one exception is stated under cancellation. A body that is not JSON is invalid like any
  other: it too is refused only after the token and the role.
- All day, month and `today` values are integers >= 1. Month 1 is days 1-${month_days}, month 2
  the next ${month_days} days, and so on.

## Desks
A desk is `{"code", "zone"}`. A code is trimmed and upper-cased first, then must be 1-3 letters
`A-Z`, a hyphen and 1-3 digits (`"  b-12 "` is `B-12`). The zone is exactly one of `open`,
`quiet`, `window`. Desk codes in paths and in booking bodies are trimmed and upper-cased the
same way before they are looked up.
- `POST /desks` *staff* `{"code", "zone"}`: 201 with the desk and `Location: /desks/<code>`;
  409 `desk_exists` if the code is taken.
- `GET /desks`: 200, the desks sorted by code (as text), only those of `zone` when that query
  parameter is given (it must then be a valid zone).
- `DELETE /desks/{code}` *staff*: 404 `unknown_desk`; 409 `desk_in_use` while the desk has an
  active booking (cancelled ones do not count); else 204 with an empty body.

## Plans
| plan | zones it may book | bookings per month |
|---|---|---|
| basic | open | ${basic_quota} |
| flex | open, ${flex_zone} | ${flex_quota} |
| pro | all three | unlimited |

The limit counts the member's active bookings whose day falls in that month (cancelled
bookings do not count). What applies is always the member's current plan.

## Bookings
A booking is `{"id", "desk", "zone", "day", "member", "booked_by", "status"}`: `status` is
`active` or `cancelled`, `booked_by` the name of the caller who made it. Ids are 1, 2, ... in
creation order and never reused; cancelled bookings stay.
- `POST /bookings` `{"desk", "day", "member"}` (`member` optional, default null meaning the
  caller): books the desk on that day for that member. Checks, in this order:
  1. 404 `unknown_desk` if there is no such desk;
  2. 400 `member_required` if a staff caller gave no member;
  3. 404 `unknown_member` if the member is not a member;
  4. 403 `not_allowed` unless the caller manages the member;
  5. 403 `zone_not_in_plan` if the member's plan may not book the desk's zone;
  6. 409 `desk_taken` if the desk has an active booking that day;
  7. 409 `member_busy` if the member has an active booking that day;
  8. 409 `quota_exceeded` if the member already has as many active bookings in that month as
     the plan allows.

  Then 201 with the booking (status `active`) and `Location: /bookings/<id>`.
- `GET /bookings/{booking_id}`: 200 with the booking if the caller manages its member; a
  booking the caller does not manage is 404 `unknown_booking`, exactly like a missing one.
- `GET /bookings`: 200, the bookings whose member the caller manages, filtered by the optional
  `member` (exact name), `from` and `to` (days, both inclusive) and `status` (`active` (the
  default), `cancelled` or `all`), sorted by day, then desk code, then id.
- `POST /bookings/{booking_id}/cancel` `{"today"}`: the booking is looked up first, **before**
  the body is validated: a booking the caller does not manage, or a missing one, is 404
  `unknown_booking` even when the body is invalid. Then 409 `already_cancelled`; then, unless
  the caller is staff, 409 `notice_too_short` when the booking's day is less than ${notice}
  days after `today` (day - today < ${notice}; past bookings included). Then the booking
  becomes `cancelled` and the answer is 200 with it. A cancelled booking frees its desk and
  its place in the monthly limit.

## Members and reports
- `GET /members/{name}/usage?month=<m>` (`month` required): 404 `unknown_member`, then 403
  `forbidden` unless the caller manages the member; else 200 `{"member", "plan", "month",
  "used", "quota", "remaining"}`: `used` the active bookings in that month, `quota` the plan's
  limit, `remaining` the limit minus `used` but never below 0; for an unlimited plan `quota`
  and `remaining` are both null.
- `PUT /members/{name}/plan` *staff* `{"plan"}` (one of the three plans): 404
  `unknown_member`; else 200 `{"member", "plan"}`. Existing bookings stay.
- `GET /reports/occupancy?day=<d>` *staff* (`day` required): 200 `{"day", "zones": [{"zone",
  "desks", "booked"}, ...]}` with all three zones, always in the order open, quiet, window:
  how many desks the zone has and how many of them have an active booking that day.
- `GET /reports/teams/{team}?month=<m>` (`month` required): 404 `unknown_team`, then 403
  `forbidden` unless the caller is staff or that team's admin; else 200 `{"team", "month",
  "members": [{"member", "days"}, ...], "total"}`: every member of the team sorted by name
  (members without bookings too), `days` their active bookings in that month, `total` the
  sum.

## result
One row per request, `[status code, JSON body]`:
1. `POST /desks` as `${staff}` with `{"code": "${desk}", "zone": "open"}`
2. `POST /bookings` as `${ub}` with `{"desk": "${desk}", "day": ${day}}`
3. `GET /members/${ub}/usage?month=1` as `${ub}`
4. `GET /desks` without a token
'''


def _staff_in_handler():
    return Edit("staff role checked after validation",
                "def create_desk(body: DeskIn, name: Staff, response: Response):\n",
                "def create_desk(body: DeskIn, name: Caller, response: Response):\n"
                "    staff_only(name)\n")


FAMILY = Family(
    id="service/coworking_desks",
    title="A coworking space's desk bookings from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"staff": "frontdesk", "ua": "amara", "ub": "ben", "uc": "cleo", "ud": "dev",
              "team1": "north", "team2": "south", "tp": "cw-", "basic_quota": 2,
              "flex_quota": 4, "flex_zone": "quiet", "month_days": 30, "notice": 2,
              "desk": "A-01", "day": 3},
    space={
        # Tokens never show in a response: their prefix varies with the names, which do.
        "names": [{"staff": "frontdesk", "ua": "amara", "ub": "ben", "uc": "cleo", "ud": "dev",
                   "team1": "north", "team2": "south", "tp": "cw-"},
                  {"staff": "ops", "ua": "rhea", "ub": "sam", "uc": "tova", "ud": "omar",
                   "team1": "blue", "team2": "green", "tp": "key_"}],
        "quotas": [{"basic_quota": 2, "flex_quota": 4}, {"basic_quota": 3, "flex_quota": 5}],
        "flex_zone": ["quiet", "window"],
        "month_days": [30, 28],
        "notice": [2, 3],
        "desk": [{"desk": "A-01", "day": 3}, {"desk": "QX-7", "day": 12}],
    },
    derive=_derive,
    instances=10,
    requirements=(
        Requirement("Every route needs `Authorization: Bearer <token>` (scheme in any case, "
                    "token exact): else 401 `unauthenticated` with `WWW-Authenticate: Bearer`.",
                    probes=("bearer_tokens",),
                    traps=(Edit("no challenge header", '''raise Refused(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})''',
                                '''raise Refused(401, "unauthenticated")'''),
                           Edit("scheme case-sensitive", 'if scheme.lower() != "bearer"',
                                'if scheme != "Bearer"'))),
        Requirement("The token is checked before validation.",
                    probes=("auth_before_validation",),
                    traps=(Edit("token checked after validation",
                                "def create_booking(body: BookingIn, name: Caller, response: Response):\n",
                                "def create_booking(body: BookingIn, response: Response,\n"
                                "                   authorization: Annotated[str | None, Header()] = None):\n"
                                "    name = caller(authorization)\n"),)),
        Requirement("The token and the role are checked before the body, even a body that is not "
                    "JSON (then 422 `invalid_request` naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Unknown paths are 404 `not_found` and other methods 405 "
                    "`method_not_allowed` in the `{\"error\"}` format, whatever the "
                    "credentials.",
                    probes=("router_errors",),
                    traps=(router_errors_in_fastapi_format(),)),
        Requirement("Validation failures are 422 `invalid_request` with the sorted, distinct "
                    "dotted locations in `fields`.",
                    probes=("validation_format",),
                    traps=(Edit("fields in FastAPI's order",
                                "    fields = {\".\".join(str(part) for part in e[\"loc\"]) for e in exc.errors()}\n"
                                "    return error(422, \"invalid_request\", fields=sorted(fields))",
                                "    fields = [\".\".join(str(part) for part in e[\"loc\"]) for e in exc.errors()]\n"
                                "    return error(422, \"invalid_request\", fields=list(dict.fromkeys(fields)))"),
                           Edit("locations without their source",
                                '{".".join(str(part) for part in e["loc"]) for e',
                                '{".".join(str(part) for part in e["loc"][1:]) or "body" for e'))),
        Requirement("Staff routes answer 403 `forbidden` to members (team admins included), "
                    "before validation.",
                    probes=("staff_only_routes",),
                    traps=(_staff_in_handler(),
                           Edit("team admins count as staff", "    if name != STAFF:\n        raise Refused(403, \"forbidden\")",
                                "    if name != STAFF and name not in TEAM_ADMINS.values():\n        raise Refused(403, \"forbidden\")"))),
        Requirement("The occupancy report lists open, quiet and window in that order, with desk "
                    "counts and the desks actively booked that day.",
                    probes=("occupancy_report",),
                    traps=(Edit("zones without desks left out",
                                '''        zones.append({"zone": zone, "desks": len(codes),
                      "booked": sum(code in booked for code in codes)})''',
                                '''        if codes:
            zones.append({"zone": zone, "desks": len(codes),
                          "booked": sum(code in booked for code in codes)})'''),
                           Edit("cancelled bookings occupy desks",
                                'booked = {b["desk"] for b in BOOKINGS.values() if active(b) and b["day"] == day}',
                                'booked = {b["desk"] for b in BOOKINGS.values() if b["day"] == day}'))),
        Requirement("`POST /desks` trims and upper-cases the code, answers 201 with `Location`, "
                    "and 409 `desk_exists` for a taken code.",
                    probes=("create_desks",),
                    traps=(Edit("codes not normalised", '''    @field_validator("code", mode="before")
    @classmethod
    def normalise_code(cls, value):
        return normal_code(value)
''', ""),
                           Edit("duplicate desks replace", '''    if body.code in DESKS:
        raise Refused(409, "desk_exists")
''', ""),
                           Edit("no Location for desks",
                                '    response.headers["Location"] = f"/desks/{body.code}"\n',
                                ""))),
        Requirement("Desk codes are 1-3 letters, a hyphen and 1-3 digits; zones are exact; "
                    "unknown fields are invalid.",
                    probes=("desk_validation",),
                    traps=(Edit("four letters allowed", r'pattern=r"^[A-Z]{1,3}-[0-9]{1,3}$$"',
                                r'pattern=r"^[A-Z]{1,4}-[0-9]{1,3}$$"'),
                           extras_ignored("desk extras ignored", "DeskIn"))),
        Requirement("`GET /desks` sorts by code as text and filters by a valid `zone`.",
                    probes=("list_desks",),
                    traps=(Edit("desks in creation order", "for code, desk in sorted(DESKS.items())",
                                "for code, desk in DESKS.items()"),
                           Edit("zone filter ignored",
                                'if zone is None or desk["zone"] == zone]', "]"))),
        Requirement("`DELETE /desks/{code}` normalises the code, is 404 for a missing desk, 409 "
                    "`desk_in_use` only while an active booking holds it, else 204.",
                    probes=("delete_desks",),
                    traps=(Edit("cancelled bookings block deletion",
                                'if any(active(b) and b["desk"] == desk["code"] for b in BOOKINGS.values()):',
                                'if any(b["desk"] == desk["code"] for b in BOOKINGS.values()):'),
                           Edit("path codes not normalised", '''def desk_of(code: str) -> dict:
    code = normal_code(code)
''', '''def desk_of(code: str) -> dict:
'''))),
        Requirement("A booking is 201 with `Location: /bookings/<id>`, for the caller by "
                    "default, ids increasing; an unknown desk is 404 `unknown_desk`.",
                    probes=("create_bookings",),
                    traps=(Edit("no Location for bookings",
                                '''    response.headers["Location"] = f"/bookings/{booking['id']}"\n''', ""),
                           Edit("booking desk looked up as sent",
                                "    desk = desk_of(body.desk)\n",
                                "    if body.desk not in DESKS:\n"
                                "        raise Refused(404, \"unknown_desk\")\n"
                                "    desk = DESKS[body.desk]\n"))),
        Requirement("A team admin books for their own team's members (`booked_by` is the "
                    "admin); anyone else booking for another member is 403 `not_allowed`.",
                    probes=("team_admin_books",),
                    traps=(Edit("teammates book for each other",
                                'TEAM_ADMINS.get(MEMBERS[member]["team"]) == name',
                                '(MEMBERS[member]["team"] is not None and '
                                'MEMBERS[member]["team"] == MEMBERS.get(name, {}).get("team"))'),
                           Edit("booked_by is the member", '"member": member, "booked_by": name,',
                                '"member": member, "booked_by": member,'))),
        Requirement("Staff book for any member but must name one (400 `member_required`).",
                    probes=("staff_books",),
                    traps=(Edit("staff may omit the member", '''    if body.member is None and name == STAFF:
        raise Refused(400, "member_required")
''', ""),)),
        Requirement("The member's plan limits the zones: basic open; flex open and "
                    "${flex_zone}; pro all (403 `zone_not_in_plan`).",
                    probes=("zones_by_plan",),
                    traps=(Edit("flex gets the other zone", '"flex": {"open", "${flex_zone}"}',
                                '"flex": {"open", "${other_zone}"}'),
                           Edit("caller's plan decides the zone",
                                '    plan = MEMBERS[member]["plan"]\n    if desk["zone"]',
                                '    plan = MEMBERS.get(name, MEMBERS[member])["plan"]\n    if desk["zone"]'))),
        Requirement("A desk holds one active booking a day (409 `desk_taken`), a member one a "
                    "day (409 `member_busy`, checked after the desk); cancelling frees both.",
                    probes=("desk_and_member_conflicts",),
                    traps=(Edit("member checked before desk", '''    if any(b["desk"] == desk["code"] for b in that_day):
        raise Refused(409, "desk_taken")
    if any(b["member"] == member for b in that_day):
        raise Refused(409, "member_busy")''', '''    if any(b["member"] == member for b in that_day):
        raise Refused(409, "member_busy")
    if any(b["desk"] == desk["code"] for b in that_day):
        raise Refused(409, "desk_taken")'''),
                           Edit("cancelled bookings hold the desk",
                                'that_day = [b for b in BOOKINGS.values() if active(b) and b["day"] == body.day]',
                                'that_day = [b for b in BOOKINGS.values() if b["day"] == body.day]'))),
        Requirement("Monthly limits: basic ${basic_quota}, flex ${flex_quota}, pro unlimited, "
                    "over months of ${month_days} days (409 `quota_exceeded`).",
                    probes=("monthly_quota",),
                    traps=(Edit("one booking over the limit", "used_in_month(member, month_of(body.day)) >= quota",
                                "used_in_month(member, month_of(body.day)) > quota"),
                           Edit("months counted from day 0", "return (day - 1) // MONTH_DAYS + 1",
                                "return day // MONTH_DAYS + 1"))),
        Requirement("`POST /bookings` checks in the stated order when several fail at once.",
                    probes=("booking_check_order",),
                    traps=(Edit("zone before permission", '''    if not manages(name, member):
        raise Refused(403, "not_allowed")
    plan = MEMBERS[member]["plan"]
    if desk["zone"] not in PLAN_ZONES[plan]:
        raise Refused(403, "zone_not_in_plan")''', '''    plan = MEMBERS[member]["plan"]
    if desk["zone"] not in PLAN_ZONES[plan]:
        raise Refused(403, "zone_not_in_plan")
    if not manages(name, member):
        raise Refused(403, "not_allowed")'''),
                           Edit("quota before conflicts", '''    that_day = [b for b in BOOKINGS.values() if active(b) and b["day"] == body.day]
''', '''    if QUOTAS[plan] is not None and used_in_month(member, month_of(body.day)) >= QUOTAS[plan]:
        raise Refused(409, "quota_exceeded")
    that_day = [b for b in BOOKINGS.values() if active(b) and b["day"] == body.day]
'''),
                           Edit("member before desk", '''    desk = desk_of(body.desk)
    if body.member is None and name == STAFF:
        raise Refused(400, "member_required")
    member = known_member(body.member if body.member is not None else name)
''', '''    if body.member is None and name == STAFF:
        raise Refused(400, "member_required")
    member = known_member(body.member if body.member is not None else name)
    desk = desk_of(body.desk)
'''))),
        Requirement("A booking is readable by those who manage its member; to anyone else it "
                    "is 404 `unknown_booking`, like a missing one.",
                    probes=("read_booking",),
                    traps=(Edit("anyone reads bookings",
                                '    if booking is None or not manages(name, booking["member"]):\n'
                                '        raise Refused(404, "unknown_booking")\n',
                                '    if booking is None:\n        raise Refused(404, "unknown_booking")\n'),
                           Edit("others get 403", '''    if booking is None or not manages(name, booking["member"]):
        raise Refused(404, "unknown_booking")''', '''    if booking is None:
        raise Refused(404, "unknown_booking")
    if not manages(name, booking["member"]):
        raise Refused(403, "forbidden")'''))),
        Requirement("`GET /bookings` shows the bookings of the members the caller manages, "
                    "filtered by `member`, sorted by day, desk, id.",
                    probes=("list_scope_and_order",),
                    traps=(Edit("bookings by id", 'key=lambda b: (b["day"], b["desk"], b["id"])',
                                'key=lambda b: b["id"]'),
                           Edit("team admins list only their own",
                                'found = [b for b in BOOKINGS.values() if manages(name, b["member"])',
                                'found = [b for b in BOOKINGS.values() if name in (STAFF, b["member"])'))),
        Requirement("`GET /bookings` filters `status` (default `active`) and the inclusive day "
                    "range `from`-`to`.",
                    probes=("list_status_and_range",),
                    traps=(Edit("all statuses by default", '"all"] = "active",', '"all"] = "all",'),
                           Edit("`to` exclusive", 'b["day"] <= to_day)', 'b["day"] < to_day)'))),
        Requirement("Members and team admins cancel only when the day is at least ${notice} "
                    "days after `today` (else 409 `notice_too_short`); staff always may.",
                    probes=("cancel_notice",),
                    traps=(Edit("notice counted strictly", 'booking["day"] - body.today < NOTICE_DAYS',
                                'booking["day"] - body.today <= NOTICE_DAYS'),
                           Edit("staff need notice too",
                                'if name != STAFF and booking["day"] - body.today < NOTICE_DAYS:',
                                'if booking["day"] - body.today < NOTICE_DAYS:'))),
        Requirement("Cancelling twice is 409 `already_cancelled` (before the notice rule); a "
                    "cancelled booking stays readable and frees its desk and monthly place.",
                    probes=("cancel_effects",),
                    traps=(Edit("notice before already_cancelled", '''    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")
    if name != STAFF and booking["day"] - body.today < NOTICE_DAYS:
        raise Refused(409, "notice_too_short")''', '''    if name != STAFF and booking["day"] - body.today < NOTICE_DAYS:
        raise Refused(409, "notice_too_short")
    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")'''),
                           Edit("cancelled bookings use the quota", '''    return sum(1 for b in BOOKINGS.values()
               if active(b) and b["member"] == member''', '''    return sum(1 for b in BOOKINGS.values()
               if b["member"] == member'''))),
        Requirement("Cancellation looks the booking up (404 for missing or unmanaged) before "
                    "validating the body.",
                    probes=("cancel_access",),
                    traps=(Edit("body validated before the lookup",
                                '''def cancel_booking(body: CancelIn, booking: Visible, name: Caller):
''', '''def cancel_booking(booking_id: int, body: CancelIn, name: Caller):
    booking = visible_booking(booking_id, name)
'''),
                           Edit("only the member cancels", '''    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")''', '''    if name not in (STAFF, booking["member"]):
        raise Refused(404, "unknown_booking")
    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")'''))),
        Requirement("Usage: 404 `unknown_member`, then 403 `forbidden` unless managed; used, "
                    "quota and remaining, null for an unlimited plan.",
                    probes=("member_usage",),
                    traps=(Edit("unlimited shown as 0", "remaining = None if quota is None else",
                                "remaining = 0 if quota is None else"),
                           Edit("team admins cannot see usage", '''    known_member(member)
    if not manages(name, member):''', '''    known_member(member)
    if name not in (STAFF, member):'''))),
        Requirement("Staff change plans (a valid plan, 404 for unknown members); the new plan "
                    "applies at once, existing bookings stay, `remaining` never below 0.",
                    probes=("plan_changes",),
                    traps=(Edit("remaining goes negative", "max(quota - used, 0)", "quota - used"),
                           Edit("plan changes not validated", "    plan: Plan\n", "    plan: str\n"))),
        Requirement("The team report lists every team member by name with their days and the "
                    "total; 404 `unknown_team` before 403 `forbidden`.",
                    probes=("team_report",),
                    traps=(Edit("members without bookings left out",
                                "for member in sorted(m for m, info in MEMBERS.items() if info[\"team\"] == team)]",
                                "for member in sorted(m for m, info in MEMBERS.items() if info[\"team\"] == team)\n"
                                "            if used_in_month(member, month)]"),
                           Edit("permission before the team", '''    if team not in TEAM_ADMINS:
        raise Refused(404, "unknown_team")
    if name != STAFF and name != TEAM_ADMINS[team]:''', '''    if name != STAFF and name != TEAM_ADMINS.get(team):
        raise Refused(403, "forbidden")
    if team not in TEAM_ADMINS:
        raise Refused(404, "unknown_team")
    if name != STAFF and name != TEAM_ADMINS[team]:'''))),
    ),
)
