"""Service tier: a gym's class bookings specified like a product document (12 routes, an
`Authorization: Token` scheme with signup, members and instructors where validation comes
before the role check, weekly recurring classes booked per week number given in the request,
capacity with a bounded waitlist answered 201 or 202, plan limits per week, cancellations with
a notice in weeks that promote the waitlist, capacity changes that promote or refuse, the
instructor's roster; errors as `{"ok": false, ...}` with dotted locations)."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import rows_without_top_ids
from fastapi_env.tasks.traps import check_order, checks_reversed, extras_ignored, without_location

REFERENCE = '''\
import secrets
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.exceptions import HTTPException as StarletteHTTPException

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
LIMITS = {"basic": ${basic_limit}, "plus": ${plus_limit}, "unlimited": None}
WAITLIST_MAX = ${waitlist_max}
CANCEL_NOTICE = ${cancel_notice}

USERS = {
    "${k_i1}": {"id": 1, "name": "${i1}", "role": "instructor", "plan": None},
    "${k_i2}": {"id": 2, "name": "${i2}", "role": "instructor", "plan": None},
    "${k_m1}": {"id": 3, "name": "${m1}", "role": "member", "plan": "basic"},
    "${k_m2}": {"id": 4, "name": "${m2}", "role": "member", "plan": "plus"},
    "${k_m3}": {"id": 5, "name": "${m3}", "role": "member", "plan": "unlimited"},
}
NAMES = {u["id"]: u["name"] for u in USERS.values()}
CLASSES = {
    1: {"id": 1, "title": "Spin", "instructor_id": 1, "day": "mon", "start": "07:00",
        "minutes": 45, "capacity": ${cap1}},
    2: {"id": 2, "title": "Yoga", "instructor_id": 2, "day": "wed", "start": "18:00",
        "minutes": 60, "capacity": ${cap2}},
    3: {"id": 3, "title": "HIIT", "instructor_id": 1, "day": "fri", "start": "12:00",
        "minutes": 30, "capacity": 2},
}
BOOKINGS: dict[int, dict] = {}
NEXT = {"user": 6, "class": 4, "booking": 1}

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Refused(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def failure(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"ok": False, "error": code, **extra}, status_code=status,
                        headers=headers)


@app.exception_handler(Refused)
async def on_refused(request: Request, exc: Refused):
    return failure(exc.status, exc.code, exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_http_error(request: Request, exc: StarletteHTTPException):
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return failure(exc.status_code, code, exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    where = {".".join(str(part) for part in e["loc"]) for e in exc.errors()}
    return failure(422, "invalid_request", where=sorted(where))


def caller(request: Request) -> dict:
    scheme, _, key = request.headers.get("authorization", "").partition(" ")
    if scheme != "Token" or key not in USERS:
        raise Refused(401, "unauthenticated", {"WWW-Authenticate": "Token"})
    return USERS[key]


def require(user: dict, role: str) -> None:
    # Called inside the handlers, after FastAPI validated the request.
    if user["role"] != role:
        raise Refused(403, "forbidden")


AnyUser = Annotated[dict, Depends(caller)]
Week = Annotated[int, Field(ge=1, le=53)]
WeekPath = Annotated[int, Path(ge=1, le=53)]


class SignupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=30)]
    plan: Literal["basic", "plus", "unlimited"]


class ClassIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]
    day: Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    start: str = Field(pattern=r"^([01][0-9]|2[0-3]):(00|15|30|45)$$")
    minutes: Literal[30, 45, 60, 90]
    capacity: int = Field(ge=1, le=${max_capacity})


class CapacityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    capacity: int = Field(ge=1, le=${max_capacity})


class BookingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    week: Week


class CancelIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    current_week: Week


def minutes_of(start: str) -> int:
    return int(start[:2]) * 60 + int(start[3:])


def class_of(class_id: int) -> dict:
    if class_id not in CLASSES:
        raise Refused(404, "class_not_found")
    return CLASSES[class_id]


def occurrence(class_id: int, week: int, status: str) -> list[dict]:
    """The live bookings of one week of a class with that status, in booking order."""
    return sorted((b for b in BOOKINGS.values() if b["class_id"] == class_id
                   and b["week"] == week and b["status"] == status), key=lambda b: b["id"])


def booking_out(booking: dict) -> dict:
    position = None
    if booking["status"] == "waitlisted":
        waiting = occurrence(booking["class_id"], booking["week"], "waitlisted")
        position = [b["id"] for b in waiting].index(booking["id"]) + 1
    return booking | {"position": position}


def promote(class_id: int, week: int) -> None:
    """Fill free places from the waitlist, first come first served."""
    free = CLASSES[class_id]["capacity"] - len(occurrence(class_id, week, "confirmed"))
    for booking in occurrence(class_id, week, "waitlisted")[:max(free, 0)]:
        booking["status"] = "confirmed"


def used(member_id: int, week: int) -> int:
    return sum(1 for b in BOOKINGS.values() if b["member_id"] == member_id
               and b["week"] == week and b["status"] != "cancelled")


@app.post("/members", status_code=201)
def signup(body: SignupIn, response: Response):
    key = secrets.token_hex(12)
    user = {"id": NEXT["user"], "name": body.name, "role": "member", "plan": body.plan}
    NEXT["user"] += 1
    USERS[key] = user
    NAMES[user["id"]] = user["name"]
    response.headers["Location"] = f"/members/{user['id']}"
    return user | {"key": key}


@app.get("/me")
def me(user: AnyUser):
    return user


@app.get("/me/usage")
def usage(user: AnyUser, week: Annotated[int, Query(ge=1, le=53)]):
    require(user, "member")
    limit = LIMITS[user["plan"]]
    count = used(user["id"], week)
    return {"week": week, "plan": user["plan"], "used": count, "limit": limit,
            "remaining": None if limit is None else max(limit - count, 0)}


@app.get("/classes")
def list_classes(user: AnyUser, day: Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"] | None = None,
                 instructor_id: int | None = None):
    found = [c for c in CLASSES.values() if (day is None or c["day"] == day)
             and (instructor_id is None or c["instructor_id"] == instructor_id)]
    return sorted(found, key=lambda c: (DAYS.index(c["day"]), c["start"], c["id"]))


@app.post("/classes", status_code=201)
def create_class(body: ClassIn, user: AnyUser, response: Response):
    require(user, "instructor")
    begin = minutes_of(body.start)
    for other in CLASSES.values():
        if other["instructor_id"] == user["id"] and other["day"] == body.day:
            other_begin = minutes_of(other["start"])
            if begin < other_begin + other["minutes"] and other_begin < begin + body.minutes:
                raise Refused(409, "instructor_clash")
    cls = {"id": NEXT["class"], "instructor_id": user["id"], **body.model_dump()}
    NEXT["class"] += 1
    CLASSES[cls["id"]] = cls
    response.headers["Location"] = f"/classes/{cls['id']}"
    return cls


@app.patch("/classes/{class_id}")
def change_capacity(class_id: int, body: CapacityIn, user: AnyUser):
    require(user, "instructor")
    cls = class_of(class_id)
    if cls["instructor_id"] != user["id"]:
        raise Refused(403, "not_your_class")
    weeks = {b["week"] for b in BOOKINGS.values() if b["class_id"] == class_id}
    if any(len(occurrence(class_id, w, "confirmed")) > body.capacity for w in weeks):
        raise Refused(409, "capacity_below_bookings")
    cls["capacity"] = body.capacity
    for week in sorted(weeks):
        promote(class_id, week)
    return cls


@app.get("/classes/{class_id}/weeks/{week}")
def week_of_class(class_id: int, week: WeekPath, user: AnyUser):
    cls = class_of(class_id)
    confirmed = len(occurrence(class_id, week, "confirmed"))
    return {"class_id": class_id, "week": week, "capacity": cls["capacity"],
            "confirmed": confirmed, "waitlisted": len(occurrence(class_id, week, "waitlisted")),
            "spots_left": cls["capacity"] - confirmed}


@app.get("/classes/{class_id}/weeks/{week}/roster")
def roster(class_id: int, week: WeekPath, user: AnyUser):
    require(user, "instructor")
    cls = class_of(class_id)
    if cls["instructor_id"] != user["id"]:
        raise Refused(403, "not_your_class")
    return {"class_id": class_id, "week": week,
            "confirmed": [NAMES[b["member_id"]] for b in occurrence(class_id, week, "confirmed")],
            "waitlist": [NAMES[b["member_id"]] for b in occurrence(class_id, week, "waitlisted")]}


def check_duplicate(user: dict, cls: dict, week: int) -> None:
    if any(b["member_id"] == user["id"] and b["class_id"] == cls["id"] and b["week"] == week
           and b["status"] != "cancelled" for b in BOOKINGS.values()):
        raise Refused(409, "already_booked")


def check_limit(user: dict, cls: dict, week: int) -> None:
    limit = LIMITS[user["plan"]]
    if limit is not None and used(user["id"], week) >= limit:
        raise Refused(409, "weekly_limit")


@app.post("/classes/{class_id}/bookings", status_code=201)
def book(class_id: int, body: BookingIn, user: AnyUser, response: Response):
    require(user, "member")
    cls = class_of(class_id)
    for check in (${book_checks}):
        check(user, cls, body.week)
    status = "confirmed"
    if len(occurrence(class_id, body.week, "confirmed")) >= cls["capacity"]:
        if len(occurrence(class_id, body.week, "waitlisted")) >= WAITLIST_MAX:
            raise Refused(409, "class_full")
        status = "waitlisted"
        response.status_code = 202
    booking = {"id": NEXT["booking"], "class_id": class_id, "member_id": user["id"],
               "week": body.week, "status": status}
    NEXT["booking"] += 1
    BOOKINGS[booking["id"]] = booking
    response.headers["Location"] = f"/bookings/{booking['id']}"
    return booking_out(booking)


def own_booking(booking_id: int, user: dict) -> dict:
    booking = BOOKINGS.get(booking_id)
    if booking is None or booking["member_id"] != user["id"]:
        raise Refused(404, "booking_not_found")
    return booking


@app.get("/bookings")
def my_bookings(user: AnyUser, week: Annotated[int | None, Query(ge=1, le=53)] = None,
                status: Literal["confirmed", "waitlisted", "cancelled"] | None = None):
    require(user, "member")
    found = [b for b in BOOKINGS.values() if b["member_id"] == user["id"]
             and (week is None or b["week"] == week) and (status is None or b["status"] == status)]
    found.sort(key=lambda b: (b["week"], DAYS.index(CLASSES[b["class_id"]]["day"]),
                              CLASSES[b["class_id"]]["start"], b["id"]))
    return [booking_out(b) for b in found]


@app.get("/bookings/{booking_id}")
def read_booking(booking_id: int, user: AnyUser):
    require(user, "member")
    return booking_out(own_booking(booking_id, user))


@app.post("/bookings/{booking_id}/cancel")
def cancel(booking_id: int, body: CancelIn, user: AnyUser):
    require(user, "member")
    booking = own_booking(booking_id, user)
    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")
    if body.current_week > booking["week"] - CANCEL_NOTICE:
        raise Refused(409, "too_late")
    was_confirmed = booking["status"] == "confirmed"
    booking["status"] = "cancelled"
    if was_confirmed:
        promote(booking["class_id"], booking["week"])
    return booking_out(booking)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
m1 = {"Authorization": "Token ${k_m1}"}
result = [
    row(client.get("/classes", params={"day": "mon"}, headers=m1)),
    row(client.post("/classes/1/bookings", json={"week": 12}, headers=m1)),
    row(client.get("/me/usage", params={"week": 12}, headers=m1)),
    row(client.post("/classes/1/bookings", json={"week": 54}, headers={"Authorization": "Token ${k_i1}"})),
]
'''

PROBES = '''\
I1, I2 = {"Authorization": "Token ${k_i1}"}, {"Authorization": "Token ${k_i2}"}
M1, M2, M3 = ({"Authorization": "Token ${k_m1}"}, {"Authorization": "Token ${k_m2}"},
              {"Authorization": "Token ${k_m3}"})
DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
FREE_SLOTS = iter(range(1000))  # evening slots no seeded class uses, one per new class


''' + rows_without_top_ids(("id", "class_id", "member_id")) + late_body.probe_source(
    [("POST", "/members"), ("POST", "/classes"), ("PATCH", "/classes/1"),
     ("POST", "/classes/1/bookings"), ("POST", "/bookings/1/cancel")],
    [("no key", "{}"), ("instructor", "I1"), ("member", "M1")]) + '''

def _gist(r):
    body = r.json()
    if isinstance(body, dict) and body.get("ok") is False:
        return [r.status_code, body.get("where", body.get("error"))]
    return [r.status_code, "ok"]


def _member(client, name, plan="unlimited"):
    r = client.post("/members", json={"name": name, "plan": plan})
    return {"Authorization": "Token " + r.json()["key"]}


def _class(client, capacity, instructor=None, minutes=30):
    slot = next(FREE_SLOTS)
    start = 19 * 60 + (slot // 7) * 30
    body = {"title": f"Class {slot}", "day": DAYS[slot % 7],
            "start": f"{start // 60:02d}:{start % 60:02d}", "minutes": minutes,
            "capacity": capacity}
    return client.post("/classes", json=body, headers=instructor or I2).json()["id"]


def _book(client, member, class_id, week):
    return client.post(f"/classes/{class_id}/bookings", json={"week": week}, headers=member)


def _cancel(client, member, booking_id, current_week=1):
    return client.post(f"/bookings/{booking_id}/cancel", json={"current_week": current_week},
                       headers=member)


def probe_token_required(client):
    rows = []
    routes = [("GET", "/me"), ("GET", "/me/usage"), ("GET", "/classes"), ("POST", "/classes"),
              ("PATCH", "/classes/1"), ("GET", "/classes/1/weeks/5"),
              ("GET", "/classes/1/weeks/5/roster"), ("POST", "/classes/1/bookings"),
              ("GET", "/bookings"), ("GET", "/bookings/1"), ("POST", "/bookings/1/cancel")]
    for headers in [{}, {"Authorization": "Token nope"}, {"Authorization": "token ${k_m1}"},
                    {"Authorization": "Bearer ${k_m1}"}, {"Authorization": "Token "},
                    {"Authorization": "${k_m1}"}, {"Authorization": "Token ${m1}"},
                    {"Authorization": "Token  ${k_m1}"}]:
        for method, path in routes:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(), r.headers.get("www-authenticate")])
    return rows


def probe_signup(client):
    r = client.post("/members", json={"name": "  Noor  ", "plan": "plus"})
    body = r.json()
    key = body.get("key")
    rows = [[r.status_code, {k: v for k, v in body.items() if k not in ("id", "key")},
             isinstance(key, str) and len(key) >= 16,
             r.headers.get("location") == f"/members/{body['id']}"]]
    me = client.get("/me", headers={"Authorization": f"Token {key}"}).json()
    rows.append([me.get("id") == body["id"], me.get("name"), me.get("plan"), "key" in me])
    for change in [{"name": " x "}, {"name": "n" * 31}, {"plan": "gold"}, {"plan": "Plus"},
                   {"role": "instructor"}]:
        rows.append([change, _row(client.post("/members", json={"name": "Val", "plan": "basic"}
                                              | change))])
    return rows


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (I1, I2, M1, M2, M3)]


def probe_validation_before_role(client):
    return [
        _row(client.post("/classes", json={"title": "x"}, headers=M1)),
        _row(client.post("/classes", json={"title": "Ok", "day": "mon", "start": "05:00",
                                           "minutes": 30, "capacity": 5}, headers=M2)),
        _row(client.post("/classes/1/bookings", json={"week": 0}, headers=I1)),
        _row(client.post("/classes/1/bookings", json={"week": 3}, headers=I2)),
        _row(client.get("/classes/1/weeks/60/roster", headers=M1)),
        _row(client.get("/classes/1/weeks/6/roster", headers=M1)),
        _row(client.patch("/classes/abc", json={}, headers=M3)),
        _row(client.get("/bookings", params={"week": "x"}, headers=I1)),
        _row(client.get("/bookings", headers=I1)),
        _row(client.post("/bookings/1/cancel", json={}, headers=I2)),
        _row(client.get("/me/usage", headers=I1)),
        _row(client.get("/me/usage", params={"week": 4}, headers=I1)),
    ]


def probe_error_locations(client):
    rows = []
    for body in [{}, [], {"title": "", "day": "Mon", "start": "7:00", "minutes": 20,
                          "capacity": 0, "extra": 1}]:
        rows.append([body, _row(client.post("/classes", json=body, headers=I1))])
    rows.append(_row(client.get("/classes/1/weeks/zero", headers=M1)))
    rows.append(_row(client.get("/classes", params={"day": "monday", "instructor_id": "x"},
                                headers=M1)))
    return rows


def probe_list_classes(client):
    rows = []
    for params in [{}, {"day": "fri"}, {"instructor_id": 1}, {"day": "wed", "instructor_id": 1},
                   {"day": "sun"}]:
        found = client.get("/classes", params=params, headers=M2).json()
        rows.append([params, [[c["title"], c["day"], c["start"]] for c in found
                              if c["id"] <= 3 or c["title"] == "Listed late"]])
    return rows


def probe_class_order(client):
    early = client.post("/classes", json={"title": "Listed late", "day": "mon", "start": "06:00",
                                          "minutes": 30, "capacity": 4}, headers=I2).json()["id"]
    sunday = client.post("/classes", json={"title": "Sunday first", "day": "sun",
                                           "start": "00:00", "minutes": 30, "capacity": 4},
                         headers=I2).json()["id"]
    titles = [c["id"] for c in client.get("/classes", headers=M1).json()
              if c["id"] in (1, 2, 3, early, sunday)]
    return [[[{1: "spin", 2: "yoga", 3: "hiit", early: "early", sunday: "sunday"}[i]
              for i in titles]]]


def probe_create_class(client):
    r = client.post("/classes", json={"title": "  Boxing ", "day": "thu", "start": "06:15",
                                      "minutes": 90, "capacity": ${max_capacity}}, headers=I1)
    body = r.json()
    rows = [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/classes/{body['id']}"]]
    second = client.post("/classes", json={"title": "Core", "day": "thu", "start": "06:15",
                                           "minutes": 30, "capacity": 1}, headers=I2)
    rows.append([second.status_code, second.json()["id"] == body["id"] + 1])
    return rows


def probe_class_validation(client):
    rows = []
    good = {"title": "Valid", "day": "sat", "start": "05:00", "minutes": 30, "capacity": 3}
    for number, change in enumerate([
            {"capacity": 0}, {"capacity": ${max_capacity} + 1}, {"minutes": 20},
            {"minutes": "30"}, {"day": "Sat"}, {"start": "05:10"}, {"start": "24:00"},
            {"start": "5:00"}, {"title": "   "}, {"instructor_id": 2}]):
        body = good | change | {"start": change.get("start", f"0{number % 5}:00")}
        rows.append([change, _gist(client.post("/classes", json=body, headers=I2))])
    return rows


def probe_instructor_clash(client):
    rows = []
    for headers, day, start, minutes in [(I1, "mon", "07:30", 30), (I1, "mon", "06:30", 30),
                                         (I1, "mon", "07:45", 15 + 15), (I1, "mon", "06:15", 60),
                                         (I2, "mon", "07:00", 45), (I1, "tue", "07:00", 45),
                                         (I1, "fri", "11:30", 45), (I1, "fri", "11:30", 30)]:
        r = client.post("/classes", json={"title": "Clash?", "day": day, "start": start,
                                          "minutes": minutes, "capacity": 2}, headers=headers)
        rows.append([day, start, minutes, _gist(r)])
    return rows


def probe_book_confirmed(client):
    member = _member(client, "Booker")
    class_id = _class(client, 3)
    r = _book(client, member, class_id, 20)
    body = r.json()
    rows = [[r.status_code, _row(r)[1], body.get("class_id") == class_id,
             r.headers.get("location") == f"/bookings/{body.get('id')}"]]
    rows.append(_row(client.get(f"/classes/{class_id}/weeks/20", headers=M1)))
    rows.append(_row(client.get(f"/classes/{class_id}/weeks/21", headers=M1)))
    rows.append(_row(_book(client, member, 999, 20)))
    return rows


def probe_waitlist(client):
    class_id = _class(client, 1)
    members = [_member(client, f"Waiter {i}") for i in range(${waitlist_max} + 2)]
    rows = []
    for member in members:
        r = _book(client, member, class_id, 30)
        rows.append([r.status_code, r.json().get("status", r.json().get("error")),
                     r.json().get("position"), "location" in r.headers])
    rows.append(_row(client.get(f"/classes/{class_id}/weeks/30", headers=M1)))
    rows.append([_book(client, members[-1], class_id, 31).status_code])
    return rows


def probe_already_booked(client):
    member = _member(client, "Twice")
    class_id = _class(client, 1)
    first = _book(client, member, class_id, 8).json()["id"]
    rows = [_row(_book(client, member, class_id, 8))]
    other = _member(client, "Waiting twice")
    _book(client, other, class_id, 8)
    rows.append(_row(_book(client, other, class_id, 8)))
    _cancel(client, member, first)
    rows.append([_book(client, member, class_id, 8).status_code])
    rows.append([_book(client, member, class_id, 9).status_code])
    return rows


def probe_weekly_limit(client):
    rows = []
    for plan, limit in [("basic", ${basic_limit}), ("plus", ${plus_limit}), ("unlimited", 6)]:
        member = _member(client, f"Limited {plan}", plan)
        classes = [_class(client, 5) for _ in range(limit + 1)]
        codes = [_book(client, member, c, 40).status_code for c in classes[:limit]]
        over = _book(client, member, classes[-1], 40)
        rows.append([plan, codes, over.status_code, over.json().get("error", "booked")])
        rows.append([plan, _book(client, member, classes[-1], 41).status_code])
    return rows


def probe_limit_counts_waitlist_not_cancelled(client):
    member = _member(client, "Counter", "basic")
    full = _class(client, 1)
    _book(client, _member(client, "Seat taker"), full, 44)
    waiting = _book(client, member, full, 44)
    rows = [[waiting.status_code, waiting.json().get("status")]]
    spare = [_class(client, 5) for _ in range(${basic_limit} + 1)]
    rows.append([_book(client, member, c, 44).status_code for c in spare])
    _cancel(client, member, waiting.json()["id"])
    rows.append([_book(client, member, spare[-1], 44).status_code])
    usage = client.get("/me/usage", params={"week": 44}, headers=member)
    rows.append(_row(usage))
    return rows


def probe_booking_precedence(client):
    member = _member(client, "Precedence", "basic")
    classes = [_class(client, 5) for _ in range(${basic_limit})]
    for c in classes:
        _book(client, member, c, 47)
    full = _class(client, 1)
    for i in range(${waitlist_max} + 1):
        _book(client, _member(client, f"Filler {i}"), full, 47)
    return [_row(_book(client, member, classes[0], 47)),
            _row(_book(client, member, full, 47)),
            _row(_book(client, member, 999, 47))]


def probe_week_view(client):
    class_id = _class(client, 2)
    for i in range(3):
        _book(client, _member(client, f"Viewer {i}"), class_id, 50)
    return [_row(client.get(f"/classes/{class_id}/weeks/50", headers=I1)),
            _row(client.get(f"/classes/{class_id}/weeks/53", headers=M2)),
            _row(client.get(f"/classes/{class_id}/weeks/54", headers=M2)),
            _row(client.get(f"/classes/{class_id}/weeks/0", headers=M2)),
            _row(client.get("/classes/999/weeks/5", headers=M2))]


def probe_read_booking(client):
    member, other = _member(client, "Reader"), _member(client, "Snoop")
    class_id = _class(client, 2)
    booking = _book(client, member, class_id, 14).json()["id"]
    return [_row(client.get(f"/bookings/{booking}", headers=member)),
            _row(client.get(f"/bookings/{booking}", headers=other)),
            _row(client.get("/bookings/99999", headers=member)),
            _row(_cancel(client, other, booking)),
            _row(client.get(f"/bookings/{booking}", headers=member))]


def probe_cancel_notice(client):
    member = _member(client, "Late canceller")
    class_id = _class(client, 3)
    rows = []
    for current in [20 - ${cancel_notice} + 1, 20 - ${cancel_notice}, 1]:
        booking = _book(client, member, class_id, 20).json()["id"]
        r = _cancel(client, member, booking, current)
        rows.append([current, r.status_code, r.json().get("status", r.json().get("error"))])
        if r.status_code != 200:
            _cancel(client, member, booking, 1)
    booking = _book(client, member, class_id, 20).json()["id"]
    _cancel(client, member, booking)
    rows.append(_row(_cancel(client, member, booking, 53)))
    rows.append(_gist(_cancel(client, member, booking, 0)))
    return rows


def probe_cancel_promotes(client):
    class_id = _class(client, 2)
    names = ["Alpha", "Bravo", "Charlie", "Delta"][:2 + min(${waitlist_max}, 2)]
    members = [_member(client, n) for n in names]
    bookings = [_book(client, m, class_id, 25).json()["id"] for m in members]
    cancelled = _cancel(client, members[0], bookings[0])
    rows = [[cancelled.status_code, cancelled.json()["status"], cancelled.json()["position"]]]
    for member, booking in zip(members[1:], bookings[1:], strict=True):
        b = client.get(f"/bookings/{booking}", headers=member).json()
        rows.append([b["status"], b["position"]])
    rows.append(_row(client.get(f"/classes/{class_id}/weeks/25", headers=M1)))
    return rows


def probe_cancel_waitlisted(client):
    class_id = _class(client, 1)
    members = [_member(client, n) for n in ["Echo", "Foxtrot", "Golf"][:1 + min(${waitlist_max}, 2)]]
    bookings = [_book(client, m, class_id, 26).json()["id"] for m in members]
    r = _cancel(client, members[1], bookings[1])
    rows = [[r.status_code, r.json()["status"]]]
    rows.append([client.get(f"/bookings/{b}", headers=m).json()["status"]
                 for m, b in zip(members, bookings, strict=True)])
    rows.append(_row(_cancel(client, members[1], bookings[1])))
    return rows


def probe_capacity_change(client):
    class_id = _class(client, 2, instructor=I1)
    members = [_member(client, f"Cap {i}") for i in range(2 + ${waitlist_max})]
    bookings = [_book(client, m, class_id, 33).json()["id"] for m in members]
    rows = [_row(client.patch(f"/classes/{class_id}", json={"capacity": 1}, headers=I1)),
            _row(client.patch(f"/classes/{class_id}", json={"capacity": 3}, headers=I2)),
            _row(client.patch("/classes/999", json={"capacity": 3}, headers=I1))]
    r = client.patch(f"/classes/{class_id}", json={"capacity": 3}, headers=I1)
    rows.append([r.status_code, r.json().get("capacity")])
    rows.append([client.get(f"/bookings/{b}", headers=m).json()["status"]
                 for m, b in zip(members, bookings, strict=True)])
    rows.append(_row(client.patch(f"/classes/{class_id}", json={"capacity": 2}, headers=I1)))
    rows.append(_gist(client.patch(f"/classes/{class_id}", json={"capacity": ${max_capacity} + 1},
                                   headers=I1)))
    return rows


def probe_roster(client):
    class_id = _class(client, 2, instructor=I1)
    for name in ["Zed", "Amy", "Kit", "Bo"][:2 + min(${waitlist_max}, 2)]:
        _book(client, _member(client, name), class_id, 36)
    return [_row(client.get(f"/classes/{class_id}/weeks/36/roster", headers=I1)),
            _row(client.get(f"/classes/{class_id}/weeks/37/roster", headers=I1)),
            _row(client.get(f"/classes/{class_id}/weeks/36/roster", headers=I2)),
            _row(client.get("/classes/999/weeks/36/roster", headers=I2))]


def probe_my_bookings(client):
    member = _member(client, "Lister")
    late = client.post("/classes", json={"title": "Sunday", "day": "sun", "start": "08:00",
                                         "minutes": 30, "capacity": 1}, headers=I1).json()["id"]
    early = client.post("/classes", json={"title": "Tuesday", "day": "tue", "start": "21:15",
                                          "minutes": 30, "capacity": 1}, headers=I1).json()["id"]
    _book(client, _member(client, "Sunday first"), late, 3)
    made = [_book(client, member, late, 3), _book(client, member, early, 3),
            _book(client, member, early, 2), _book(client, member, late, 4)]
    _cancel(client, member, made[-1].json()["id"])
    names = {late: "sun", early: "tue"}
    rows = []
    for params in [{}, {"week": 3}, {"status": "waitlisted"}, {"status": "cancelled"},
                   {"week": 5}]:
        found = client.get("/bookings", params=params, headers=member).json()
        rows.append([params, [[names[b["class_id"]], b["week"], b["status"], b["position"]]
                              for b in found]])
    rows.append(_gist(client.get("/bookings", params={"status": "done"}, headers=member)))
    return rows


def probe_usage(client):
    rows = []
    for plan in ["basic", "plus", "unlimited"]:
        member = _member(client, f"Usage {plan}", plan)
        _book(client, member, _class(client, 4), 48)
        rows.append(_row(client.get("/me/usage", params={"week": 48}, headers=member)))
        rows.append(_row(client.get("/me/usage", params={"week": 49}, headers=member)))
    rows.append(_gist(client.get("/me/usage", headers=M1)))
    return rows
'''


def derive(p):
    order = check_order(p["book_order"],
                        {"duplicate": "check_duplicate", "limit": "check_limit"},
                        {"duplicate": "already_booked", "limit": "weekly_limit"}, "book_checks")
    return order | {
        "k_i1": p["kp"] + p["i1"].lower(), "k_i2": p["kp"] + p["i2"].lower(),
        "k_m1": p["kp"] + p["m1"].lower(), "k_m2": p["kp"] + p["m2"].lower(),
        "k_m3": p["kp"] + p["m3"].lower(),
        "notice_text": ("up to and including the booking's own week" if p["cancel_notice"] == 0
                        else f"only while `current_week` is at least {p['cancel_notice']} "
                             "week(s) before the booking's week"),
    }


PROMPT = '''\
Build the HTTP API of a gym's class booking service, as specified below. Keep all state in
memory, starting from the data given here. There is no clock: weeks are numbers from 1 to 53
that requests carry.

## Access
Requests authenticate with the header `Authorization: Token <key>` (the word `Token` exactly
so, one space, then the key). A missing header, another scheme or spelling, or an unknown key:
401 `unauthenticated` with the header `WWW-Authenticate: Token`. Every route needs a key except
`POST /members`.

| key | user id | name | role | plan |
|---|---|---|---|---|
| `${k_i1}` | 1 | ${i1} | instructor | |
| `${k_i2}` | 2 | ${i2} | instructor | |
| `${k_m1}` | 3 | ${m1} | member | basic |
| `${k_m2}` | 4 | ${m2} | member | plus |
| `${k_m3}` | 5 | ${m3} | member | unlimited |

Routes marked *member* or *instructor* answer 403 `forbidden` to the other role. The key is
checked first; then the request is validated (path, query and body: 422); only then the role,
then the refusals listed for the route, in the order given. A body that is not JSON is an
invalid body like any other: on a keyed route it is checked after the key (401 without one),
then 422 whatever the role.

## Errors
Every error body is `{"ok": false, "error": <code>}`. Validation failures are 422 with
`{"ok": false, "error": "invalid_request", "where": [...]}`: the sorted, distinct locations
of the problems, each the parts of FastAPI's error location joined with dots (`"body.week"`,
`"query.day"`, `"path.class_id"`; `"body"` alone when the body is missing, not JSON or not
an object).

## Members
A user is `{"id", "name", "role", "plan"}` (`plan` null for instructors). Plans allow this
many bookings per week: basic ${basic_limit}, plus ${plus_limit}, unlimited no limit.
- `POST /members` `{"name", "plan"}` (no key needed): `name` trimmed, then 2-30 characters;
  `plan` one of `basic`, `plus`, `unlimited`; no other fields. 201 with the new member (role
  `member`, ids from 6) plus `"key"`, a new random key of at least 16 characters, and
  `Location: /members/<id>`.
- `GET /me`: 200 with the caller (no key in it).
- `GET /me/usage?week=<n>` *member* (`week` required, 1-53): 200 `{"week", "plan", "used",
  "limit", "remaining"}`: `used` counts the caller's confirmed and waitlisted bookings of that
  week, `limit` is the plan's (null for unlimited), `remaining` is `limit - used` but never
  below 0 (null for unlimited).

## Classes
A class repeats every week: `{"id", "title", "instructor_id", "day", "start", "minutes",
"capacity"}`; `day` is one of `mon`, `tue`, `wed`, `thu`, `fri`, `sat`, `sun`. New classes
get ids 4, 5, ... in order:

| id | title | instructor_id | day | start | minutes | capacity |
|---|---|---|---|---|---|---|
| 1 | Spin | 1 | mon | 07:00 | 45 | ${cap1} |
| 2 | Yoga | 2 | wed | 18:00 | 60 | ${cap2} |
| 3 | HIIT | 1 | fri | 12:00 | 30 | 2 |

- `GET /classes`: 200, the classes in week order (`mon` first, `sun` last), then by start,
  then id; optional `day` (one of the seven, exactly) and `instructor_id` (integer) filters.
- `POST /classes` *instructor* `{"title", "day", "start", "minutes", "capacity"}`: `title`
  trimmed, then 1-40 characters; `day` one of the seven exactly; `start` `HH:MM` (00:00-23:45)
  on a quarter hour; `minutes` one of 30, 45, 60, 90 (a JSON number); `capacity` an integer
  1-${max_capacity}; no other fields. 409 `instructor_clash` if it overlaps another class of
  the caller on the same day (one ending exactly when the other starts does not overlap). 201
  with the class (`instructor_id` the caller's) and `Location: /classes/<id>`.
- `PATCH /classes/{class_id}` *instructor* `{"capacity"}` (same bounds, no other fields): 404
  `class_not_found`; 403 `not_your_class` unless the caller teaches it; 409
  `capacity_below_bookings` if some week of the class has more confirmed bookings than the new
  capacity. Otherwise the capacity changes and, in every week, free places are filled from
  that week's waitlist in booking order. 200 with the class.
- `GET /classes/{class_id}/weeks/{week}` (week 1-53): 200 `{"class_id", "week", "capacity",
  "confirmed", "waitlisted", "spots_left"}` (the counts of that week's bookings;
  `spots_left` = capacity - confirmed); 404 `class_not_found`.
- `GET /classes/{class_id}/weeks/{week}/roster` *instructor*: 404 `class_not_found`; 403
  `not_your_class`. 200 `{"class_id", "week", "confirmed": [...], "waitlist": [...]}`: member
  names in booking order.

## Bookings
A booking is `{"id", "class_id", "member_id", "week", "status", "position"}`: `status`
`confirmed`, `waitlisted` or `cancelled`; `position` is the 1-based place in that week's
waitlist for a waitlisted booking (it moves up as earlier ones leave) and null otherwise. Ids
1, 2, ... in order. Members only ever see their own bookings: anyone else's is answered like
a missing one, 404 `booking_not_found`.
- `POST /classes/{class_id}/bookings` *member* `{"week"}` (integer 1-53, no other fields):
  404 `class_not_found`; then ${first_check}, then ${second_check}: `already_booked` if the
  caller has a confirmed or waitlisted booking of this class in that week, `weekly_limit` if
  their plan's limit is used up for that week (confirmed and waitlisted bookings count). With
  a free place: 201 and a `confirmed` booking; when full, a `waitlisted` one with 202 while the
  week's waitlist holds fewer than ${waitlist_max}, else 409 `class_full`. Both successes carry
  `Location: /bookings/<id>`.
- `GET /bookings` *member*: 200, the caller's bookings sorted by week, then the class's day
  (week order) and start, then id; optional `week` (1-53) and `status` (exact) filters.
- `GET /bookings/{booking_id}` *member*: 200 with it.
- `POST /bookings/{booking_id}/cancel` *member* `{"current_week"}` (integer 1-53, no other
  fields): 404 `booking_not_found`; 409 `already_cancelled`; 409 `too_late` unless
  `current_week` is at most the booking's week minus ${cancel_notice} (${notice_text}). 200
  with the booking, now `cancelled`. Cancelling a confirmed booking gives its place to the
  first booking of that week's waitlist; cancelling a waitlisted one promotes nobody.

## result
One row per request, `[status code, JSON body]`, sent as `${m1}` unless said otherwise:
1. `GET /classes?day=mon`
2. `POST /classes/1/bookings` with `{"week": 12}`
3. `GET /me/usage?week=12`
4. `POST /classes/1/bookings` with `{"week": 54}`, as `${i1}`
'''

PEOPLE = [
    {"kp": "gk_", "i1": "Ines", "i2": "Otto", "m1": "Mara", "m2": "Dev", "m3": "Lou"},
    {"kp": "key-", "i1": "Bram", "i2": "Cleo", "m1": "Ravi", "m2": "Suki", "m3": "Tom"},
    {"kp": "tok.", "i1": "Hana", "i2": "Jules", "m1": "Pia", "m2": "Quentin", "m3": "Wen"},
]

FAMILY = Family(
    id="service/gym_bookings",
    title="A gym's class bookings: weekly capacity, waitlists and plan limits",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=PEOPLE[0] | {"basic_limit": 2, "plus_limit": 4, "waitlist_max": 2,
                          "cancel_notice": 1, "book_order": "duplicate,limit",
                          "max_capacity": 20, "cap1": 12, "cap2": 8},
    space={
        "people": PEOPLE,
        "limits": [{"basic_limit": 2, "plus_limit": 4}, {"basic_limit": 1, "plus_limit": 3}],
        "waitlist_max": [2, 3],
        "cancel_notice": [0, 1, 2],
        "book_order": ["duplicate,limit", "limit,duplicate"],
        "max_capacity": [20, 30],
        "caps": [{"cap1": 12, "cap2": 8}, {"cap1": 6, "cap2": 15}],
    },
    derive=derive,
    instances=8,
    requirements=(
        Requirement("Keyed routes need `Authorization: Token <key>` exactly: else 401 "
                    "`unauthenticated` with `WWW-Authenticate: Token`.",
                    probes="token_required",
                    traps=(Edit("challenge dropped", 'raise Refused(401, "unauthenticated", {"WWW-Authenticate": "Token"})',
                                'raise Refused(401, "unauthenticated")'),
                           Edit("scheme in any case", 'if scheme != "Token" or key not in USERS:',
                                'if scheme.lower() != "token" or key not in USERS:'),
                           Edit("key trimmed", 'scheme, _, key = request.headers.get("authorization", "").partition(" ")',
                                'scheme, _, key = request.headers.get("authorization", "").partition(" ")\n    key = key.strip()'))),
        Requirement("Signing up answers 201 with the member, a key of 16+ characters that logs "
                    "in, and `Location`; bodies are validated.",
                    probes="signup",
                    traps=(without_location("signup without Location",
                                            '''response.headers["Location"] = f"/members/{user['id']}"'''),
                           extras_ignored("signup extras ignored", "SignupIn"),
                           Edit("name not trimmed", "name: Annotated[str, StringConstraints(strip_whitespace=True, min_length=2, max_length=30)]",
                                "name: Annotated[str, StringConstraints(min_length=2, max_length=30)]"))),
        Requirement("`GET /me` gives id, name, role and plan.",
                    probes="me",
                    traps=Edit("me without plan", "def me(user: AnyUser):\n    return user",
                               'def me(user: AnyUser):\n    return {k: v for k, v in user.items() if k != "plan"}')),
        Requirement("The key is checked before the body, even a body that is not JSON (then "
                    "422 at `body` whatever the role).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("A keyed request is validated (422) before the role is checked (403 "
                    "`forbidden`).",
                    probes="validation_before_role",
                    traps=(Edit("role before validation",
                                "def book(class_id: int, body: BookingIn, user: AnyUser, response: Response):\n    require(user, \"member\")",
                                "def book(class_id: int, body: BookingIn, response: Response, user: dict = Depends(lambda user=Depends(caller): require(user, 'member') or user)):"),
                           Edit("instructors see bookings", '''def my_bookings(user: AnyUser, week: Annotated[int | None, Query(ge=1, le=53)] = None,
                status: Literal["confirmed", "waitlisted", "cancelled"] | None = None):
    require(user, "member")''', '''def my_bookings(user: AnyUser, week: Annotated[int | None, Query(ge=1, le=53)] = None,
                status: Literal["confirmed", "waitlisted", "cancelled"] | None = None):'''))),
        Requirement("422 bodies list the sorted distinct dotted locations.",
                    probes="error_locations",
                    traps=(Edit("last location part only", 'where = {".".join(str(part) for part in e["loc"]) for e in exc.errors()}',
                                'where = {str(e["loc"][-1]) for e in exc.errors()}'),
                           Edit("locations unsorted", 'return failure(422, "invalid_request", where=sorted(where))',
                                'return failure(422, "invalid_request", where=[".".join(str(p) for p in e["loc"]) for e in exc.errors()])'))),
        Requirement("`GET /classes` filters by `day` and `instructor_id`.",
                    probes="list_classes",
                    traps=Edit("instructor filter ignored", 'and (instructor_id is None or c["instructor_id"] == instructor_id)]',
                               "]")),
        Requirement("Classes are listed in week-day order (mon first), then start, then id.",
                    probes="class_order",
                    traps=(Edit("days alphabetical", 'key=lambda c: (DAYS.index(c["day"]), c["start"], c["id"])',
                                'key=lambda c: (c["day"], c["start"], c["id"])'),
                           Edit("classes by id", 'key=lambda c: (DAYS.index(c["day"]), c["start"], c["id"])',
                                'key=lambda c: c["id"]'))),
        Requirement("Creating a class answers 201 with it (title trimmed, the caller as "
                    "instructor) and `Location`, ids from 4.",
                    probes="create_class",
                    traps=(without_location("class without Location",
                                            '''response.headers["Location"] = f"/classes/{cls['id']}"'''),
                           Edit("class created with 200", '@app.post("/classes", status_code=201)',
                                '@app.post("/classes")'))),
        Requirement("Class bodies: capacity 1-${max_capacity}, minutes from the list, exact "
                    "day, quarter-hour start, no other fields.",
                    probes="class_validation",
                    traps=(Edit("capacity unbounded", "    capacity: int = Field(ge=1, le=${max_capacity})\n\n\nclass CapacityIn",
                                "    capacity: int = Field(ge=1)\n\n\nclass CapacityIn"),
                           Edit("any minute", 'pattern=r"^([01][0-9]|2[0-3]):(00|15|30|45)$$"',
                                'pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$$"'),
                           Edit("any length", "minutes: Literal[30, 45, 60, 90]", "minutes: int = Field(ge=15)"))),
        Requirement("An instructor's classes may not overlap on a day (409 `instructor_clash`); "
                    "touching ones and other instructors' are fine.",
                    probes="instructor_clash",
                    traps=(Edit("touching classes clash",
                                'if begin < other_begin + other["minutes"] and other_begin < begin + body.minutes:',
                                'if begin <= other_begin + other["minutes"] and other_begin <= begin + body.minutes:'),
                           Edit("clash across instructors",
                                'if other["instructor_id"] == user["id"] and other["day"] == body.day:',
                                'if other["day"] == body.day:'))),
        Requirement("A booking with a free place is 201 `confirmed` with `Location`; week "
                    "counts are per week; an unknown class is 404.",
                    probes="book_confirmed",
                    traps=(without_location("booking without Location",
                                            '''response.headers["Location"] = f"/bookings/{booking['id']}"'''),
                           Edit("weeks share places",
                                '''    return sorted((b for b in BOOKINGS.values() if b["class_id"] == class_id
                   and b["week"] == week and b["status"] == status), key=lambda b: b["id"])''',
                                '''    return sorted((b for b in BOOKINGS.values() if b["class_id"] == class_id
                   and b["status"] == status), key=lambda b: b["id"])'''))),
        Requirement("A full week waitlists with 202 and a position, up to ${waitlist_max}; then "
                    "409 `class_full`.",
                    probes="waitlist",
                    traps=(Edit("waitlist with 201", "        response.status_code = 202\n", ""),
                           Edit("waitlist off by one", "if len(occurrence(class_id, body.week, \"waitlisted\")) >= WAITLIST_MAX:",
                                "if len(occurrence(class_id, body.week, \"waitlisted\")) > WAITLIST_MAX:"),
                           Edit("position from zero", 'position = [b["id"] for b in waiting].index(booking["id"]) + 1',
                                'position = [b["id"] for b in waiting].index(booking["id"])'))),
        Requirement("A second live booking of the same class and week is 409 `already_booked`; "
                    "after cancelling it may be booked again.",
                    probes="already_booked",
                    traps=(Edit("rebooking allowed", '''    if any(b["member_id"] == user["id"] and b["class_id"] == cls["id"] and b["week"] == week
           and b["status"] != "cancelled" for b in BOOKINGS.values()):
        raise Refused(409, "already_booked")''', "    pass"),
                           Edit("cancelled bookings block", '''and b["week"] == week
           and b["status"] != "cancelled" for b in BOOKINGS.values()):''', '''and b["week"] == week
           for b in BOOKINGS.values()):'''))),
        Requirement("Plans limit bookings per week (basic ${basic_limit}, plus ${plus_limit}, "
                    "unlimited none): 409 `weekly_limit`; other weeks are separate.",
                    probes="weekly_limit",
                    traps=(Edit("limit off by one", "if limit is not None and used(user[\"id\"], week) >= limit:",
                                "if limit is not None and used(user[\"id\"], week) > limit:"),
                           Edit("limit over all weeks", '''    return sum(1 for b in BOOKINGS.values() if b["member_id"] == member_id
               and b["week"] == week and b["status"] != "cancelled")''', '''    return sum(1 for b in BOOKINGS.values() if b["member_id"] == member_id
               and b["status"] != "cancelled")'''))),
        Requirement("Waitlisted bookings count toward the limit, cancelled ones do not.",
                    probes="limit_counts_waitlist_not_cancelled",
                    traps=(Edit("only confirmed count", '''and b["week"] == week and b["status"] != "cancelled")''',
                                '''and b["week"] == week and b["status"] == "confirmed")'''),
                           Edit("cancelled count", '''and b["week"] == week and b["status"] != "cancelled")''',
                                '''and b["week"] == week)'''))),
        Requirement("Booking refusals: 404, then ${first_check}, then ${second_check}, then "
                    "`class_full`.",
                    probes="booking_precedence",
                    traps=(checks_reversed("book checks swapped", "book_checks"),
                           Edit("full before the limit", """    for check in (${book_checks}):
        check(user, cls, body.week)
    status = "confirmed"
""", """    if len(occurrence(class_id, body.week, "confirmed")) >= cls["capacity"] and len(occurrence(class_id, body.week, "waitlisted")) >= WAITLIST_MAX:
        raise Refused(409, "class_full")
    for check in (${book_checks}):
        check(user, cls, body.week)
    status = "confirmed"
"""))),
        Requirement("The week view counts confirmed and waitlisted bookings and the places left; "
                    "weeks are 1-53.",
                    probes="week_view",
                    traps=(Edit("waitlisted counted as confirmed", '    confirmed = len(occurrence(class_id, week, "confirmed"))\n',
                                '    confirmed = len(occurrence(class_id, week, "confirmed")) + len(occurrence(class_id, week, "waitlisted"))\n'),
                           Edit("weeks unbounded in paths", "WeekPath = Annotated[int, Path(ge=1, le=53)]",
                                "WeekPath = Annotated[int, Path(ge=1)]"))),
        Requirement("Members read and cancel only their own bookings; others' are 404 "
                    "`booking_not_found`.",
                    probes="read_booking",
                    traps=Edit("any member's booking", '''    if booking is None or booking["member_id"] != user["id"]:''',
                               '''    if booking is None:''')),
        Requirement("Cancelling needs `current_week` at most the booking's week minus "
                    "${cancel_notice} (else 409 `too_late`); twice is 409 `already_cancelled` "
                    "first.",
                    probes="cancel_notice",
                    traps=(Edit("notice exclusive", 'if body.current_week > booking["week"] - CANCEL_NOTICE:',
                                'if body.current_week >= booking["week"] - CANCEL_NOTICE:'),
                           Edit("notice before cancelled", '''    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")
    if body.current_week > booking["week"] - CANCEL_NOTICE:
        raise Refused(409, "too_late")''', '''    if body.current_week > booking["week"] - CANCEL_NOTICE:
        raise Refused(409, "too_late")
    if booking["status"] == "cancelled":
        raise Refused(409, "already_cancelled")'''))),
        Requirement("Cancelling a confirmed booking promotes the first waitlisted one; "
                    "positions move up.",
                    probes="cancel_promotes",
                    traps=(Edit("no promotion", "    if was_confirmed:\n        promote(booking[\"class_id\"], booking[\"week\"])\n", ""),
                           Edit("last in line promoted", 'for booking in occurrence(class_id, week, "waitlisted")[:max(free, 0)]:',
                                'for booking in occurrence(class_id, week, "waitlisted")[::-1][:max(free, 0)]:'))),
        Requirement("Cancelling a waitlisted booking promotes nobody.",
                    probes="cancel_waitlisted",
                    traps=Edit("first waitlisted always promoted", """    if was_confirmed:
        promote(booking["class_id"], booking["week"])
""", """    waiting = occurrence(booking["class_id"], booking["week"], "waitlisted")
    if waiting:
        waiting[0]["status"] = "confirmed"
""")),
        Requirement("Capacity changes: 404, 403 `not_your_class`, 409 `capacity_below_bookings`; "
                    "a larger capacity fills places from the waitlist.",
                    probes="capacity_change",
                    traps=(Edit("capacity below bookings allowed", '''    if any(len(occurrence(class_id, w, "confirmed")) > body.capacity for w in weeks):
        raise Refused(409, "capacity_below_bookings")
''', ""),
                           Edit("no promotion on growth", "    for week in sorted(weeks):\n        promote(class_id, week)\n", ""),
                           Edit("anyone's class", '''    cls = class_of(class_id)
    if cls["instructor_id"] != user["id"]:
        raise Refused(403, "not_your_class")
    weeks''', '''    cls = class_of(class_id)
    weeks'''))),
        Requirement("The roster lists confirmed and waitlisted names in booking order, for the "
                    "class's own instructor only.",
                    probes="roster",
                    traps=(Edit("roster sorted by name", '"confirmed": [NAMES[b["member_id"]] for b in occurrence(class_id, week, "confirmed")],',
                                '"confirmed": sorted(NAMES[b["member_id"]] for b in occurrence(class_id, week, "confirmed")),'),
                           Edit("any instructor's roster", '''    cls = class_of(class_id)
    if cls["instructor_id"] != user["id"]:
        raise Refused(403, "not_your_class")
    return {"class_id"''', '''    cls = class_of(class_id)
    return {"class_id"'''))),
        Requirement("`GET /bookings` sorts by week, day, start, id and filters by `week` and "
                    "`status`.",
                    probes="my_bookings",
                    traps=(Edit("bookings by id", '''    found.sort(key=lambda b: (b["week"], DAYS.index(CLASSES[b["class_id"]]["day"]),
                              CLASSES[b["class_id"]]["start"], b["id"]))''', '''    found.sort(key=lambda b: b["id"])'''),
                           Edit("week filter ignored", "and (week is None or b[\"week\"] == week) and", "and"))),
        Requirement("`/me/usage` reports used, limit and remaining (null when unlimited) for "
                    "the week.",
                    probes="usage",
                    traps=(Edit("unlimited as zero", '"remaining": None if limit is None else max(limit - count, 0)}',
                                '"remaining": 0 if limit is None else max(limit - count, 0)}'),
                           Edit("week optional", "def usage(user: AnyUser, week: Annotated[int, Query(ge=1, le=53)]):",
                                "def usage(user: AnyUser, week: Annotated[int, Query(ge=1, le=53)] = 1):"))),
    ),
)
