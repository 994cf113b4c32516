"""Service tier: a clinic appointment scheduler specified like a product document (12 routes,
bearer tokens with three roles, patient registration, doctors' slots with calendar, opening
hour and overlap rules, booking with a per-patient limit, cancellation and rescheduling under
a notice period counted in days from a fixed date, scoped and paginated listings, one error
format)."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from datetime import date, timedelta

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
import re
from datetime import date
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

TODAY = date.fromisoformat("${today}")
HORIZON_DAYS = ${horizon}
NOTICE_DAYS = ${notice}
MAX_ACTIVE = ${max_active}
OPEN_MINUTE, CLOSE_MINUTE = ${open_hour} * 60, ${close_hour} * 60
STAFF_ROLE = "${staff_role}"

USERS = {
    "${t_staff}": {"username": "${staff}", "role": STAFF_ROLE, "doctor_id": None},
    "${t_d1}": {"username": "${d1}", "role": "doctor", "doctor_id": 1},
    "${t_d2}": {"username": "${d2}", "role": "doctor", "doctor_id": 2},
    "${t_d3}": {"username": "${d3}", "role": "doctor", "doctor_id": 3},
    "${t_p1}": {"username": "${p1}", "role": "patient", "doctor_id": None},
    "${t_p2}": {"username": "${p2}", "role": "patient", "doctor_id": None},
}
DOCTORS = {
    1: {"id": 1, "name": "${d1_name}", "specialty": "Cardiology"},
    2: {"id": 2, "name": "${d2_name}", "specialty": "Dermatology"},
    3: {"id": 3, "name": "${d3_name}", "specialty": "Cardiology"},
}
PATIENTS = {"${p1}": "${p1_name}", "${p2}": "${p2_name}"}
SLOTS = {
    1: {"id": 1, "doctor_id": 1, "date": "${s1_date}", "start": "09:00", "minutes": 30},
    2: {"id": 2, "doctor_id": 1, "date": "${s2_date}", "start": "10:00", "minutes": 30},
    3: {"id": 3, "doctor_id": 2, "date": "${s3_date}", "start": "11:00", "minutes": 45},
    4: {"id": 4, "doctor_id": 2, "date": "${s4_date}", "start": "14:00", "minutes": 30},
    5: {"id": 5, "doctor_id": 3, "date": "${s5_date}", "start": "14:00", "minutes": 60},
}
APPOINTMENTS: dict[int, dict] = {}
NEXT = {"slot": 6, "appointment": 1}

app = FastAPI()
bearer = HTTPBearer(auto_error=False)


''' + late_body.ROUTE_CLASS + '''


class APIError(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


@app.exception_handler(APIError)
async def on_api_error(request: Request, exc: APIError):
    return JSONResponse({"error": exc.code}, status_code=exc.status, headers=exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_http_error(request: Request, exc: StarletteHTTPException):
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return JSONResponse({"error": code}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return JSONResponse({"error": "validation_failed", "fields": sorted(fields)},
                        status_code=422)


def minutes_of(start: str) -> int:
    hours, minutes = start.split(":")
    return int(hours) * 60 + int(minutes)


def days_until(day: str) -> int:
    return (date.fromisoformat(day) - TODAY).days


class SlotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    date: str
    start: str
    minutes: int = Field(ge=15, le=${max_minutes}, multiple_of=15)

    @field_validator("date")
    @classmethod
    def calendar_date(cls, value: str) -> str:
        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            raise ValueError("not YYYY-MM-DD")
        date.fromisoformat(value)  # raises on 2030-02-30
        return value

    @field_validator("start")
    @classmethod
    def quarter_hour(cls, value: str) -> str:
        if not re.fullmatch(r"([01][0-9]|2[0-3]):[0-5][0-9]", value) or minutes_of(value) % 15:
            raise ValueError("not HH:MM on a quarter hour")
        return value


Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                          max_length=${reason_max})]


class PatientIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(pattern=r"^[a-z][a-z0-9]{2,19}$$")
    name: str = Field(min_length=1, max_length=50)


class BookingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    slot_id: int
    reason: Reason


class RescheduleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    slot_id: int


def caller(credentials: Annotated[HTTPAuthorizationCredentials | None,
                                  Depends(bearer)]) -> dict:
    if credentials is None or credentials.credentials not in USERS:
        raise APIError(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return USERS[credentials.credentials]


def role(required: str):
    def check(user: Annotated[dict, Depends(caller)]) -> dict:
        if user["role"] != required:
            raise APIError(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(caller)]
Doctor = Annotated[dict, Depends(role("doctor"))]
Patient = Annotated[dict, Depends(role("patient"))]
Staff = Annotated[dict, Depends(role(STAFF_ROLE))]


def active_on(slot_id: int) -> dict | None:
    return next((a for a in APPOINTMENTS.values()
                 if a["slot_id"] == slot_id and a["status"] == "booked"), None)


def slot_out(slot: dict) -> dict:
    return slot | {"available": active_on(slot["id"]) is None}


def slot_of(slot_id: int) -> dict:
    if slot_id not in SLOTS:
        raise APIError(404, "slot_not_found")
    return SLOTS[slot_id]


def sees(user: dict, appointment: dict) -> bool:
    return (user["role"] == STAFF_ROLE or appointment["patient"] == user["username"]
            or appointment["doctor_id"] == user["doctor_id"])


def visible_appointment(appointment_id: int, user: dict) -> dict:
    appointment = APPOINTMENTS.get(appointment_id)
    if appointment is None or not sees(user, appointment):
        raise APIError(404, "appointment_not_found")
    return appointment


def check_taken(slot: dict) -> None:
    if active_on(slot["id"]) is not None:
        raise APIError(409, "slot_taken")


def check_limit(username: str) -> None:
    active = [a for a in APPOINTMENTS.values()
              if a["patient"] == username and a["status"] == "booked"]
    if len(active) >= MAX_ACTIVE:
        raise APIError(409, "limit_reached")


def check_notice(user: dict, appointment: dict) -> None:
    if user["role"] == "patient" and days_until(appointment["date"]) < NOTICE_DAYS:
        raise APIError(409, "too_late_to_cancel")


@app.get("/health", include_in_schema=False)
def health():
    return {"status": "ok"}


@app.get("/me")
def me(user: AnyUser):
    return user


@app.get("/doctors")
def list_doctors(user: AnyUser, specialty: str | None = None):
    doctors = sorted(DOCTORS.values(), key=lambda d: (d["name"], d["id"]))
    if specialty is not None:
        doctors = [d for d in doctors if d["specialty"].lower() == specialty.lower()]
    return doctors


@app.get("/doctors/{doctor_id}/slots")
def list_slots(doctor_id: int, user: AnyUser, date: str | None = None,
               available: bool | None = None):
    if doctor_id not in DOCTORS:
        raise APIError(404, "doctor_not_found")
    slots = [slot_out(s) for s in SLOTS.values() if s["doctor_id"] == doctor_id
             and (date is None or s["date"] == date)]
    if available is not None:
        slots = [s for s in slots if s["available"] == available]
    return sorted(slots, key=lambda s: (s["date"], s["start"], s["id"]))


@app.post("/slots", status_code=201)
def create_slot(body: SlotIn, user: Doctor, response: Response):
    if not 1 <= days_until(body.date) <= HORIZON_DAYS:
        raise APIError(${window_status}, "outside_window")
    begin = minutes_of(body.start)
    end = begin + body.minutes
    if begin < OPEN_MINUTE or end > CLOSE_MINUTE:
        raise APIError(400, "outside_hours")
    for other in SLOTS.values():
        if other["doctor_id"] == user["doctor_id"] and other["date"] == body.date:
            other_begin = minutes_of(other["start"])
            if begin < other_begin + other["minutes"] and other_begin < end:
                raise APIError(409, "slot_overlap")
    slot = {"id": NEXT["slot"], "doctor_id": user["doctor_id"], **body.model_dump()}
    NEXT["slot"] += 1
    SLOTS[slot["id"]] = slot
    response.headers["Location"] = f"/slots/{slot['id']}"
    return slot_out(slot)


@app.delete("/slots/{slot_id}", status_code=204)
def delete_slot(slot_id: int, user: Doctor):
    slot = slot_of(slot_id)
    if slot["doctor_id"] != user["doctor_id"]:
        raise APIError(403, "not_your_slot")
    if active_on(slot_id) is not None:
        raise APIError(409, "slot_booked")
    del SLOTS[slot_id]
    return Response(status_code=204)


@app.post("/patients", status_code=201)
def register_patient(body: PatientIn, user: Staff, response: Response):
    taken = set(PATIENTS) | {u["username"] for u in USERS.values()}
    if body.username in taken:
        raise APIError(409, "username_taken")
    token = f"patient-token-{body.username}-{len(USERS)}"
    USERS[token] = {"username": body.username, "role": "patient", "doctor_id": None}
    PATIENTS[body.username] = body.name
    response.headers["Location"] = f"/patients/{body.username}"
    return {"username": body.username, "name": body.name, "token": token}


@app.post("/appointments", status_code=201)
def book(body: BookingIn, user: Patient, response: Response):
    slot = slot_of(body.slot_id)
    for check in ${book_checks}:
        check()
    appointment = {"id": NEXT["appointment"], "slot_id": slot["id"],
                   "doctor_id": slot["doctor_id"], "patient": user["username"],
                   "date": slot["date"], "start": slot["start"], "reason": body.reason,
                   "status": "booked"}
    NEXT["appointment"] += 1
    APPOINTMENTS[appointment["id"]] = appointment
    response.headers["Location"] = f"/appointments/{appointment['id']}"
    return appointment


@app.get("/appointments")
def list_appointments(
    user: AnyUser,
    status: Literal["booked", "cancelled"] | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
    per_page: Annotated[int, Query(ge=1, le=${per_page_max})] = ${per_page_default},
):
    found = [a for a in APPOINTMENTS.values() if sees(user, a)
             and (status is None or a["status"] == status)]
    found.sort(key=lambda a: (a["date"], a["start"], a["id"]))
    start = (page - 1) * per_page
    return {"items": found[start:start + per_page], "total": len(found), "page": page,
            "per_page": per_page}


@app.get("/appointments/{appointment_id}")
def read_appointment(appointment_id: int, user: AnyUser):
    return visible_appointment(appointment_id, user)


@app.post("/appointments/{appointment_id}/cancel")
def cancel(appointment_id: int, user: AnyUser):
    appointment = visible_appointment(appointment_id, user)
    if appointment["status"] == "cancelled":
        raise APIError(409, "already_cancelled")
    check_notice(user, appointment)
    appointment["status"] = "cancelled"
    return appointment


@app.post("/appointments/{appointment_id}/reschedule")
def reschedule(appointment_id: int, body: RescheduleIn, user: Patient):
    appointment = visible_appointment(appointment_id, user)
    if appointment["status"] == "cancelled":
        raise APIError(409, "already_cancelled")
    slot = slot_of(body.slot_id)
    if slot["doctor_id"] != appointment["doctor_id"]:
        raise APIError(409, "different_doctor")
    check_notice(user, appointment)
    check_taken(slot)
    appointment.update(slot_id=slot["id"], date=slot["date"], start=slot["start"])
    return appointment


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
p1 = {"Authorization": "Bearer ${t_p1}"}
result = [
    row(client.get("/doctors", params={"specialty": "cardiology"}, headers=p1)),
    row(client.post("/appointments", json={"slot_id": 1, "reason": "  ${reason}  "},
                    headers=p1)),
    row(client.get("/doctors/1/slots", headers=p1)),
    row(client.post("/appointments/1/cancel", headers=p1)),
    row(client.get("/me")),
]
'''

PROBES = '''\
from datetime import date, timedelta

TODAY = date.fromisoformat("${today}")
STAFF = {"Authorization": "Bearer ${t_staff}"}
D1, D2, D3 = ({"Authorization": "Bearer ${t_d1}"}, {"Authorization": "Bearer ${t_d2}"},
              {"Authorization": "Bearer ${t_d3}"})
P1, P2 = {"Authorization": "Bearer ${t_p1}"}, {"Authorization": "Bearer ${t_p2}"}


def _day(n):
    return (TODAY + timedelta(days=n)).isoformat()


''' + ROW + '''

def _patient(client, username):
    """A fresh patient (no appointments yet): their auth header."""
    r = client.post("/patients", json={"username": username, "name": username.title()},
                    headers=STAFF)
    return {"Authorization": "Bearer " + r.json()["token"]}


def _slot(client, doctor, day, start, minutes=15):
    r = client.post("/slots", json={"date": _day(day), "start": start, "minutes": minutes},
                    headers=doctor)
    return r.json()["id"]


def _book(client, patient, slot_id, reason="visit"):
    return client.post("/appointments", json={"slot_id": slot_id, "reason": reason},
                       headers=patient)


def _gist(r):
    body = r.json()
    return [r.status_code, body.get("fields", body.get("error", "created"))]


def _shape(appointment):
    return {k: v for k, v in appointment.items() if k not in ("id", "slot_id")}


def probe_health_needs_no_token(client):
    return [_row(client.get("/health")), _row(client.get("/health", headers=P1))]


def probe_tokens_required(client):
    rows = []
    routes = [("GET", "/me"), ("GET", "/doctors"), ("GET", "/doctors/1/slots"),
              ("POST", "/slots"), ("DELETE", "/slots/1"), ("POST", "/patients"),
              ("POST", "/appointments"), ("GET", "/appointments"), ("GET", "/appointments/1"),
              ("POST", "/appointments/1/cancel"), ("POST", "/appointments/1/reschedule")]
    for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic ${t_p1}"},
                    {"Authorization": "Bearer ${p1}"}, {"Authorization": "Bearer "},
                    {"Authorization": "${t_p1}"}]:
        for method, path in routes:
            r = client.request(method, path, headers=headers)
            rows.append([method, path, r.status_code, r.json(), r.headers.get("www-authenticate")])
    return rows


def probe_bearer_scheme_any_case(client):
    return [_row(client.get("/me", headers={"Authorization": "bearer ${t_d2}"})),
            _row(client.get("/me", headers={"Authorization": "BEARER ${t_p2}"}))]


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (STAFF, D1, D3, P1, P2)]


''' + late_body.probe_source(
    [("POST", "/slots"), ("POST", "/patients"), ("POST", "/appointments"),
     ("POST", "/appointments/1/reschedule")],
    [("no token", "{}"), ("doctor", "D1"), ("staff", "STAFF"), ("patient", "P1")]) + '''

def probe_roles_before_validation(client):
    return [
        _row(client.post("/slots", json={"date": _day(2), "start": "12:00", "minutes": 15},
                         headers=P1)),
        _row(client.post("/slots", json={}, headers=STAFF)),
        _row(client.delete("/slots/999", headers=P2)),
        _row(client.post("/patients", json={"username": "x"}, headers=D1)),
        _row(client.post("/patients", json={"username": "rolecheck", "name": "R"}, headers=P1)),
        _row(client.post("/appointments", json={"slot_id": 5, "reason": "x"}, headers=D1)),
        _row(client.post("/appointments", json=[], headers=STAFF)),
        _row(client.post("/appointments/1/reschedule", json={"slot_id": 2}, headers=STAFF)),
        _row(client.post("/appointments/1/reschedule", json={}, headers=D1)),
    ]


def probe_doctors_sorted_and_filtered(client):
    rows = []
    for params in [{}, {"specialty": "CARDIOLOGY"}, {"specialty": "dermatology"},
                   {"specialty": "cardio"}, {"specialty": ""}]:
        rows.append([params, _row(client.get("/doctors", params=params, headers=P2))])
    return rows


def probe_slots_listing(client):
    late = _slot(client, D3, 9, "15:00")
    early = _slot(client, D3, 9, "10:00")
    first = _slot(client, D3, 8, "15:30")
    _book(client, _patient(client, "listingpat"), early)
    rows = []
    for params in [{}, {"date": _day(9)}, {"available": "true"}, {"available": "false"},
                   {"date": _day(9), "available": "true"}, {"date": "2000-01-01"}]:
        slots = client.get("/doctors/3/slots", params=params, headers=P2).json()
        rows.append([params, [[s["id"] in (late, early, first), s["date"], s["start"],
                               s["available"]] for s in slots]])
    rows.append(_row(client.get("/doctors/99/slots", headers=P2)))
    rows.append(_row(client.get("/doctors/1/slots", params={"available": "maybe"}, headers=P2)))
    return rows


def probe_create_slot(client):
    r = client.post("/slots", json={"date": _day(4), "start": "09:15", "minutes": 45}, headers=D1)
    body = r.json()
    rows = [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/slots/{body['id']}"]]
    r = client.post("/slots", json={"date": _day(4), "start": "10:00", "minutes": 15}, headers=D1)
    rows.append([r.status_code, r.json()["id"] == body["id"] + 1])
    rows.append([[s["start"] for s in client.get("/doctors/1/slots", params={"date": _day(4)},
                                                 headers=D2).json()]])
    return rows


def probe_slot_validation(client):
    rows = []
    good = {"date": _day(5), "start": "12:00", "minutes": 15}
    for change in [{"date": "2030-02-30"}, {"date": _day(5).replace("-", "")},
                   {"date": _day(5) + "T00:00"}, {"date": 20300101}, {"start": "12:10"},
                   {"start": "24:00"}, {"start": "9:00"}, {"start": "12:00:00"},
                   {"minutes": 0}, {"minutes": 20}, {"minutes": ${max_minutes} + 15},
                   {"minutes": 7.5}, {"room": 4}, {"date": "x", "start": "y", "minutes": 1}]:
        rows.append([change, _row(client.post("/slots", json=good | change, headers=D2))])
    for body in [{"date": _day(5), "start": "12:00"}, [], "text"]:
        rows.append([body, _row(client.post("/slots", json=body, headers=D2))])
    return rows


def probe_booking_window(client):
    rows = []
    for day in [0, -1, 1, ${horizon}, ${horizon} + 1, 400]:
        r = client.post("/slots", json={"date": _day(day), "start": "12:30", "minutes": 15},
                        headers=D2)
        rows.append([day, r.status_code, r.json().get("error", "created")])
    r = client.post("/slots", json={"date": _day(0), "start": "03:00", "minutes": 15}, headers=D2)
    rows.append(["window before hours", r.status_code, r.json()])
    return rows


def probe_opening_hours(client):
    rows = []
    close = ${close_hour} * 60
    cases = [("${open_hour_hhmm}", 15), ("${before_open}", 15),
             (f"{(close - 15) // 60:02d}:{(close - 15) % 60:02d}", 15),
             (f"{(close - 15) // 60:02d}:{(close - 15) % 60:02d}", 30),
             (f"{(close - 75) // 60:02d}:{(close - 75) % 60:02d}", 60)]
    for start, minutes in cases:
        r = client.post("/slots", json={"date": _day(6), "start": start, "minutes": minutes},
                        headers=D1)
        rows.append([start, minutes, r.status_code, r.json().get("error", "created")])
    return rows


def probe_overlaps(client):
    rows = []
    for doctor, start, minutes in [(D2, "12:00", 60), (D2, "12:45", 30), (D2, "11:30", 30),
                                   (D2, "11:30", 45), (D2, "12:15", 15), (D2, "13:00", 15),
                                   (D1, "12:00", 60), (D2, "11:45", 15)]:
        r = client.post("/slots", json={"date": _day(7), "start": start, "minutes": minutes},
                        headers=doctor)
        rows.append([start, minutes, r.status_code, r.json().get("error", "created")])
    return rows


def probe_delete_slot(client):
    free = _slot(client, D1, 10, "09:30")
    booked = _slot(client, D1, 10, "10:30")
    _book(client, _patient(client, "deletepat"), booked)
    return [_row(client.delete(f"/slots/{free}", headers=D2)),
            _row(client.delete(f"/slots/{booked}", headers=D1)),
            _row(client.delete(f"/slots/{free}", headers=D1)),
            _row(client.delete(f"/slots/{free}", headers=D1)),
            [[s["id"] == booked for s in client.get("/doctors/1/slots",
                                                      params={"date": _day(10)},
                                                      headers=D1).json()]]]


def probe_register_patients(client):
    r = client.post("/patients", json={"username": "newbie1", "name": "New Bie"}, headers=STAFF)
    body = r.json()
    token = body.get("token")
    rows = [[r.status_code, sorted(body), body["username"], body["name"],
             isinstance(token, str), r.headers.get("location")]]
    rows.append(_row(client.get("/me", headers={"Authorization": f"Bearer {token}"})))
    for taken in ["newbie1", "${p1}", "${d2}", "${staff}"]:
        rows.append([taken, _row(client.post("/patients", json={"username": taken, "name": "X"},
                                             headers=STAFF))])
    return rows


def probe_patient_validation(client):
    rows = []
    for body in [{"username": "ab", "name": "A"}, {"username": "a" * 20, "name": "A"},
                 {"username": "a" * 21, "name": "A"}, {"username": "1abc", "name": "A"},
                 {"username": "Abc", "name": "A"}, {"username": "abc_d", "name": "A"},
                 {"username": "abcd", "name": ""}, {"username": "abce", "name": "n" * 51},
                 {"username": "abcf", "name": "A", "role": "doctor"}, {"name": "A"}]:
        r = client.post("/patients", json=body, headers=STAFF)
        rows.append([body.get("username"), r.status_code,
                     r.json().get("fields", r.json().get("username"))])
    return rows


def probe_book(client):
    pat = _patient(client, "bookpat")
    slot = _slot(client, D3, 11, "09:00", 30)
    r = _book(client, pat, slot, "  sore   throat ")
    body = r.json()
    rows = [[r.status_code, _shape(body), body["slot_id"] == slot,
             r.headers.get("location") == f"/appointments/{body['id']}"]]
    shown = client.get(f"/appointments/{body['id']}", headers=pat)
    rows.append([shown.status_code, _shape(shown.json()), shown.json()["slot_id"] == slot])
    rows.append([[s["available"] for s in client.get("/doctors/3/slots",
                                                      params={"date": _day(11)},
                                                      headers=pat).json()]])
    return rows


def probe_booking_errors(client):
    pat = _patient(client, "errpat")
    slot = _slot(client, D3, 11, "10:00")
    rows = [_row(_book(client, pat, 9999))]
    for body in [{"slot_id": slot, "reason": "   "}, {"slot_id": slot, "reason": ""},
                 {"slot_id": slot, "reason": "r" * ${reason_max}},
                 {"slot_id": slot, "reason": "r" * (${reason_max} + 1)},
                 {"slot_id": slot, "reason": " " + "r" * ${reason_max} + " "},
                 {"slot_id": "abc", "reason": "x"}, {"reason": "x"},
                 {"slot_id": slot, "reason": "x", "patient": "${p2}"}]:
        rows.append(_gist(client.post("/appointments", json=body, headers=pat)))
    return rows


def probe_slot_taken(client):
    slot = _slot(client, D2, 12, "09:00")
    first, second = _patient(client, "takenone"), _patient(client, "takentwo")
    rows = [[_book(client, first, slot).status_code], _row(_book(client, second, slot)),
            _row(_book(client, first, slot))]
    return rows


def probe_active_limit(client):
    pat = _patient(client, "limitpat")
    slots = [_slot(client, D1, 12, f"{9 + i:02d}:00") for i in range(${max_active} + 2)]
    made = [_book(client, pat, s) for s in slots[:${max_active}]]
    rows = [[r.status_code for r in made], _row(_book(client, pat, slots[-2]))]
    client.post(f"/appointments/{made[0].json()['id']}/cancel", headers=STAFF)
    rows.append([_book(client, pat, slots[-2]).status_code])
    rows.append(_row(_book(client, pat, slots[-1])))
    return rows


def probe_taken_versus_limit(client):
    pat, other = _patient(client, "orderpat"), _patient(client, "otherpat")
    slots = [_slot(client, D2, 13, f"{9 + i:02d}:00") for i in range(${max_active} + 1)]
    for s in slots[:${max_active}]:
        _book(client, pat, s)
    _book(client, other, slots[-1])
    return [_row(_book(client, pat, slots[-1])), _row(_book(client, pat, slots[0]))]


def probe_appointment_visibility(client):
    pat, nosy = _patient(client, "seenpat"), _patient(client, "nosypat")
    slot = _slot(client, D2, 14, "09:00")
    path = f"/appointments/{_book(client, pat, slot).json()['id']}"
    rows = []
    for name, headers in [("patient", pat), ("other patient", nosy), ("doctor", D2),
                          ("other doctor", D1), ("staff", STAFF)]:
        r = client.get(path, headers=headers)
        rows.append([name, r.status_code, r.json().get("patient", r.json().get("error"))])
    rows.append(_row(client.get("/appointments/99999", headers=STAFF)))
    rows.append(_row(client.get("/appointments/abc", headers=STAFF)))
    return rows


def probe_list_appointments(client):
    pat = _patient(client, "listpat")
    mine = [_slot(client, D3, 14, "14:00"), _slot(client, D3, 13, "15:00"),
            _slot(client, D3, 13, "09:00")]
    first = _book(client, pat, mine[0]).json()["id"]
    _book(client, pat, mine[1])
    client.post(f"/appointments/{first}/cancel", headers=STAFF)
    _book(client, pat, mine[2])
    rows = []
    for params in [{}, {"status": "booked"}, {"status": "cancelled"}, {"per_page": 1},
                   {"per_page": 1, "page": 2}, {"page": 5}]:
        body = client.get("/appointments", params=params, headers=pat).json()
        rows.append([params, [[a["date"], a["start"], a["status"]] for a in body["items"]],
                     body["total"], body["page"], body["per_page"]])
    return rows


def probe_list_scope(client):
    pat = _patient(client, "scopepat")
    d1_slot, d2_slot = _slot(client, D1, 8, "09:15"), _slot(client, D2, 8, "09:15")
    a1 = _book(client, pat, d1_slot).json()["id"]
    a2 = _book(client, pat, d2_slot).json()["id"]
    rows = []
    # Whose appointments each caller may list: a patient's own, a doctor's slots', all.
    for name, headers, mine in [("patient", pat, lambda a: a["patient"] == "scopepat"),
                                ("doctor 1", D1, lambda a: a["doctor_id"] == 1),
                                ("doctor 2", D2, lambda a: a["doctor_id"] == 2),
                                ("doctor 3", D3, lambda a: a["doctor_id"] == 3),
                                ("other patient", P2, lambda a: a["patient"] == "${p2}"),
                                ("staff", STAFF, lambda a: True)]:
        items = client.get("/appointments", params={"per_page": ${per_page_max}},
                           headers=headers).json()["items"]
        ids = [a["id"] for a in items]
        rows.append([name, a1 in ids, a2 in ids, all(mine(a) for a in items)])
    return rows


def probe_list_validation(client):
    rows = []
    for params in [{"page": 0}, {"per_page": 0}, {"per_page": ${per_page_max} + 1},
                   {"status": "done"}, {"status": "Booked"}, {"page": "x", "per_page": 0}]:
        rows.append([params, _row(client.get("/appointments", params=params, headers=STAFF))])
    body = client.get("/appointments", params={"per_page": ${per_page_max}}, headers=STAFF).json()
    rows.append([body["per_page"], len(body["items"]) <= ${per_page_max}])
    rows.append([client.get("/appointments", headers=STAFF).json()["per_page"]])
    return rows


def probe_patient_cancel_notice(client):
    pat = _patient(client, "noticepat")
    rows = []
    for day in [${notice} - 1, ${notice}, ${notice} + 1]:
        if day < 1:
            continue
        slot = _slot(client, D1, day, "13:00")
        appointment = _book(client, pat, slot).json()["id"]
        r = client.post(f"/appointments/{appointment}/cancel", headers=pat)
        rows.append([day, r.status_code, r.json().get("status", r.json().get("error"))])
        if r.status_code != 200:
            client.post(f"/appointments/{appointment}/cancel", headers=STAFF)
    return rows


def probe_cancel_rules(client):
    pat, nosy = _patient(client, "cancelpat"), _patient(client, "cancelnosy")
    near = _book(client, pat, _slot(client, D2, 1, "15:00")).json()["id"]
    far = _book(client, pat, _slot(client, D2, ${horizon}, "15:00")).json()["id"]
    rows = [_row(client.post(f"/appointments/{far}/cancel", headers=nosy)),
            _row(client.post(f"/appointments/{far}/cancel", headers=D1))]
    r = client.post(f"/appointments/{near}/cancel", headers=D2)
    rows.append([r.status_code, r.json()["status"]])
    rows.append(_row(client.post(f"/appointments/{near}/cancel", headers=pat)))
    r = client.post(f"/appointments/{far}/cancel", headers=STAFF)
    rows.append([r.status_code, r.json()["status"]])
    rows.append(_row(client.post(f"/appointments/{far}/cancel", headers=STAFF)))
    rows.append(_row(client.post("/appointments/99999/cancel", headers=STAFF)))
    return rows


def probe_cancel_frees_the_slot(client):
    pat, next_pat = _patient(client, "freepat"), _patient(client, "nextpat")
    slot = _slot(client, D3, 12, "11:00")
    appointment = _book(client, pat, slot).json()["id"]
    client.post(f"/appointments/{appointment}/cancel", headers=STAFF)
    r = _book(client, next_pat, slot)
    return [[r.status_code, r.json().get("status")],
            [client.get(f"/appointments/{appointment}", headers=pat).json()["status"]]]


def probe_reschedule(client):
    pat = _patient(client, "movepat")
    old, new = _slot(client, D1, ${horizon}, "09:00"), _slot(client, D1, ${horizon} - 1, "09:00")
    appointment = _book(client, pat, old, "move me").json()
    r = client.post(f"/appointments/{appointment['id']}/reschedule", json={"slot_id": new},
                    headers=pat)
    body = r.json()
    rows = [[r.status_code, body["id"] == appointment["id"], body["slot_id"] == new,
             body["date"], body["start"], body["reason"], body["status"]]]
    slots = client.get("/doctors/1/slots", headers=pat).json()
    rows.append([[s["available"] for s in slots if s["id"] in (old, new)]])
    rows.append([client.get("/appointments", params={"status": "booked"},
                            headers=pat).json()["total"]])
    return rows


def probe_reschedule_failures_change_nothing(client):
    pat, other = _patient(client, "stuckpat"), _patient(client, "stuckother")
    current = _slot(client, D2, ${horizon}, "10:00")
    taken = _slot(client, D2, ${horizon}, "11:00")
    elsewhere = _slot(client, D3, ${horizon}, "10:00")
    appointment = _book(client, pat, current).json()["id"]
    _book(client, other, taken)
    path = f"/appointments/{appointment}/reschedule"
    rows = [_row(client.post(path, json={"slot_id": taken}, headers=pat)),
            _row(client.post(path, json={"slot_id": elsewhere}, headers=pat)),
            _row(client.post(path, json={"slot_id": 99999}, headers=pat)),
            _row(client.post(path, json={"slot_id": taken}, headers=other)),
            _row(client.post(path, json={"slot_id": "x"}, headers=pat))]
    shown = client.get(f"/appointments/{appointment}", headers=pat).json()
    rows.append([shown["slot_id"] == current, shown["status"]])
    near = _book(client, pat, _slot(client, D2, 1, "10:00")).json()["id"]
    spare = _slot(client, D2, ${horizon} - 1, "${last_hour}:00")
    for slot in (spare, elsewhere, taken):
        rows.append(_row(client.post(f"/appointments/{near}/reschedule", json={"slot_id": slot},
                                     headers=pat)))
    client.post(f"/appointments/{appointment}/cancel", headers=STAFF)
    rows.append(_row(client.post(path, json={"slot_id": spare}, headers=pat)))
    return rows


def probe_unknown_paths_and_methods(client):
    rows = []
    for method, path in [("GET", "/nope"), ("PUT", "/me"), ("GET", "/slots"),
                         ("DELETE", "/appointments/1"), ("GET", "/appointments/1/cancel")]:
        r = client.request(method, path, headers=STAFF)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_openapi(client):
    doc = client.get("/openapi.json").json()
    ops = sorted([path, sorted(item)] for path, item in doc["paths"].items())
    schemes = [[s.get("type"), s.get("scheme")]
               for s in doc.get("components", {}).get("securitySchemes", {}).values()]
    return [ops, schemes]
'''


def _iso(day: str, offset: int) -> str:
    return (date.fromisoformat(day) + timedelta(days=offset)).isoformat()


def derive(p):
    checks = {"taken": "check_taken(slot)", "limit": "check_limit(user['username'])"}
    order = p["book_order"].split(",")
    return {
        "s1_date": _iso(p["today"], 1), "s2_date": _iso(p["today"], 3),
        "s3_date": _iso(p["today"], 2), "s4_date": _iso(p["today"], 4),
        "s5_date": _iso(p["today"], 7),
        "book_checks": "(" + ", ".join(f"lambda: {checks[c]}" for c in order) + ")",
        "first_check": {"taken": "`slot_taken`", "limit": "`limit_reached`"}[order[0]],
        "second_check": {"taken": "`slot_taken`", "limit": "`limit_reached`"}[order[1]],
        "open_hour_hhmm": f"{p['open_hour']:02d}:00",
        "before_open": f"{p['open_hour'] - 1:02d}:45",
        "last_hour": f"{p['close_hour'] - 1:02d}",
        "t_staff": p["tp"] + p["staff"], "t_d1": p["tp"] + p["d1"], "t_d2": p["tp"] + p["d2"],
        "t_d3": p["tp"] + p["d3"], "t_p1": p["tp"] + p["p1"], "t_p2": p["tp"] + p["p2"],
    }


PROMPT = '''\
Build the HTTP API of a clinic's appointment scheduler, as specified below. Keep all state in
memory, starting from the data given here. The service's current date is fixed: **today is
${today}** (never read the clock). "Days before" a date means the number of calendar days from
today to that date (tomorrow is 1 day away).

## Access
Every request except `GET /health` authenticates with `Authorization: Bearer <token>` (the word
`Bearer` in any letter case):

| token | username | role | doctor id |
|---|---|---|---|
| `${t_staff}` | `${staff}` | ${staff_role} | |
| `${t_d1}` | `${d1}` | doctor | 1 |
| `${t_d2}` | `${d2}` | doctor | 2 |
| `${t_d3}` | `${d3}` | doctor | 3 |
| `${t_p1}` | `${p1}` | patient | |
| `${t_p2}` | `${p2}` | patient | |

Tokens of patients registered later (see below) work the same way. A missing header, another
scheme, an empty or unknown token: 401 `unauthenticated` with the header `WWW-Authenticate:
Bearer`. Routes marked *doctor*, *patient* or *${staff_role}* answer 403 `forbidden` to users of
any other role. The token is checked first, then the role, before anything else about the
request (its body included, even one that is not JSON). `GET /health` answers 200 `{"status": "ok"}` to anyone.

## Errors
Every error has the body `{"error": <code>}`. Validation failures (body, path or query
parameters) are 422 `{"error": "validation_failed", "fields": [...]}`: the sorted names,
without repeats, of the invalid fields or parameters (`"body"` when the body is missing, is not
JSON, or is not a JSON object). A path no route serves is 404 `not_found`; a served path with another
method is 405 `method_not_allowed`, keeping the `Allow` header.

## Users
- `GET /me`: 200 `{"username", "role", "doctor_id"}` (`doctor_id` null for non-doctors).
- `POST /patients` *${staff_role}* `{"username", "name"}`: registers a patient. `username`:
  3-20 characters, lowercase letters and digits, starting with a letter; `name`: 1-50
  characters; no other fields. 201 `{"username", "name", "token"}` (`token` a string the new
  patient authenticates with) and the header `Location: /patients/<username>`; 409
  `username_taken` if any user (of any role) has that username.

## Doctors and slots
Doctors, `{"id", "name", "specialty"}`:

| id | name | specialty |
|---|---|---|
| 1 | ${d1_name} | Cardiology |
| 2 | ${d2_name} | Dermatology |
| 3 | ${d3_name} | Cardiology |

A slot is `{"id", "doctor_id", "date", "start", "minutes", "available"}`; `available` is false
while the slot has a booked appointment. The schedule starts with these slots (ids continue
from 6 in creation order):

| id | doctor id | date | start | minutes |
|---|---|---|---|---|
| 1 | 1 | ${s1_date} | 09:00 | 30 |
| 2 | 1 | ${s2_date} | 10:00 | 30 |
| 3 | 2 | ${s3_date} | 11:00 | 45 |
| 4 | 2 | ${s4_date} | 14:00 | 30 |
| 5 | 3 | ${s5_date} | 14:00 | 60 |

- `GET /doctors`: 200, the doctors sorted by name; the optional `specialty` keeps those whose
  specialty equals it ignoring case.
- `GET /doctors/{doctor_id}/slots`: 200, that doctor's slots sorted by date, then start; the
  optional `date` keeps the slots of that exact date string, the optional boolean `available`
  those with that availability; 404 `doctor_not_found`.
- `POST /slots` *doctor* `{"date", "start", "minutes"}`: adds a slot to the caller's own
  schedule. `date` is a string `YYYY-MM-DD` naming a real calendar date; `start` a string
  `HH:MM` (two digits each, 00:00-23:59) on a quarter hour (:00, :15, :30, :45); `minutes` an
  integer from 15 to ${max_minutes} in steps of 15; no other fields. A body that passes those
  checks is then refused, in this order: ${window_status} `outside_window` unless the date is 1 to
  ${horizon} days (inclusive) after today; 400 `outside_hours` unless the slot starts at
  ${open_hour_hhmm} or later and ends by ${close_hour}:00; 409 `slot_overlap` if it overlaps
  another slot of the same doctor on that date (one ending exactly when the other starts does
  not overlap). 201 with the slot and `Location: /slots/<id>`.
- `DELETE /slots/{slot_id}` *doctor*: 404 `slot_not_found`; 403 `not_your_slot` if it is
  another doctor's; 409 `slot_booked` while it has a booked appointment (checked in this
  order); 204 with an empty body.

## Appointments
`{"id", "slot_id", "doctor_id", "patient", "date", "start", "reason", "status"}`: `patient` is
the username, `date` and `start` those of its slot, `status` `booked` or `cancelled`; ids 1, 2,
... in creation order. A patient sees their own appointments, a doctor those on their slots,
the ${staff_role} all of them; an appointment the caller may not see is answered exactly like
one that does not exist.
- `POST /appointments` *patient* `{"slot_id": <integer>, "reason": <string>}` (no other
  fields): `reason` has its leading and trailing whitespace removed and must then be 1-${reason_max}
  characters. Then: 404 `slot_not_found`; then 409 ${first_check}, then 409 ${second_check}, where
  `slot_taken` means the slot already has a booked appointment and `limit_reached` that the
  patient already has ${max_active} booked appointments. 201 with the appointment (status
  `booked`) and `Location: /appointments/<id>`.
- `GET /appointments`: 200 `{"items", "total", "page", "per_page"}`: the appointments the caller
  sees, filtered by the optional `status` (`booked` or `cancelled`, exactly), sorted by date,
  start, then id; `total` counts all of them, `items` is page `page` (>= 1, default 1) of
  `per_page` (1-${per_page_max}, default ${per_page_default}) (empty past the end).
- `GET /appointments/{appointment_id}`: 200 with it; 404 `appointment_not_found`.
- `POST /appointments/{appointment_id}/cancel`: by anyone who sees it. 404
  `appointment_not_found`; 409 `already_cancelled`; then a patient (not a doctor or the
  ${staff_role}) may only cancel when the appointment's date is at least ${notice} day(s) after
  today, else 409 `too_late_to_cancel`. 200 with the appointment, now `cancelled`; its slot is
  available again.
- `POST /appointments/{appointment_id}/reschedule` *patient* `{"slot_id": <integer>}` (no other
  fields): moves the caller's own appointment to another slot. In this order: 404
  `appointment_not_found`; 409 `already_cancelled`; 404 `slot_not_found`; 409
  `different_doctor` if the slot is another doctor's; 409 `too_late_to_cancel` under the same
  rule as cancelling (for the appointment's current date); 409 `slot_taken`. 200 with the same
  appointment (same id, status and reason) on the new slot; the old slot is available again.
  A refused request changes nothing.

## OpenAPI
`/openapi.json` lists every route except `/health`; its only security scheme is HTTP bearer.

## result
One row per request, `[status code, JSON body]`, sent as `${p1}` unless said otherwise:
1. `GET /doctors?specialty=cardiology`
2. `POST /appointments` with `{"slot_id": 1, "reason": "  ${reason}  "}`
3. `GET /doctors/1/slots`
4. `POST /appointments/1/cancel`
5. `GET /me` without a token
'''

PEOPLE = [
    {"staff": "rita", "staff_role": "receptionist", "tp": "tok-", "d1": "drhale",
     "d1_name": "Dr. Hale", "d2": "drbose", "d2_name": "Dr. Bose", "d3": "drada",
     "d3_name": "Dr. Ada", "p1": "pam", "p1_name": "Pam Ray", "p2": "quin",
     "p2_name": "Quin Doe", "reason": "chest pain"},
    {"staff": "omar", "staff_role": "coordinator", "tp": "key_", "d1": "drzhou",
     "d1_name": "Dr. Zhou", "d2": "drkim", "d2_name": "Dr. Kim", "d3": "drabel",
     "d3_name": "Dr. Abel", "p1": "lena", "p1_name": "Lena Vos", "p2": "milo",
     "p2_name": "Milo Tan", "reason": "follow-up"},
    {"staff": "sue", "staff_role": "front_desk", "tp": "s3cr3t-", "d1": "drmoss",
     "d1_name": "Dr. Moss", "d2": "drcole", "d2_name": "Dr. Cole", "d3": "dreng",
     "d3_name": "Dr. Eng", "p1": "tia", "p1_name": "Tia Fox", "p2": "ugo",
     "p2_name": "Ugo Ode", "reason": "rash"},
]

FAMILY = Family(
    id="service/clinic_appointments",
    title="A clinic appointment scheduler from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=PEOPLE[0] | {"today": "2030-01-28", "horizon": 30, "notice": 2, "max_active": 2,
                          "open_hour": 8, "close_hour": 18, "max_minutes": 60,
                          "book_order": "taken,limit", "window_status": 400,
                          "per_page_default": 5, "per_page_max": 20, "reason_max": 80},
    space={
        "people": PEOPLE,
        "today": ["2030-01-28", "2031-12-30", "2032-02-27"],
        "horizon": [14, 30, 45],
        "notice": [2, 3, 5],
        "max_active": [2, 3],
        "hours": [{"open_hour": 8, "close_hour": 18}, {"open_hour": 9, "close_hour": 17},
                  {"open_hour": 7, "close_hour": 16}],
        "max_minutes": [60, 90],
        "book_order": ["taken,limit", "limit,taken"],
        "window_status": [400, 409],
        "paging": [{"per_page_default": 5, "per_page_max": 20},
                   {"per_page_default": 3, "per_page_max": 10}],
        "reason_max": [80, 40],
    },
    derive=derive,
    instances=12,
    requirements=(
        Requirement("`GET /health` answers 200 without a token.",
                    probes="health_needs_no_token",
                    traps=Edit("health needs a token", "def health():",
                               "def health(user: AnyUser):")),
        Requirement("Every other route needs a known bearer token: else 401 `unauthenticated` "
                    "with `WWW-Authenticate: Bearer`, before the role or the body.",
                    probes="tokens_required",
                    traps=(Edit("challenge dropped", '''        raise APIError(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})''',
                                '''        raise APIError(401, "unauthenticated")'''),
                           Edit("usernames accepted as tokens",
                                "    return USERS[credentials.credentials]",
                                "    return USERS[credentials.credentials]\n\n\n"
                                "USERS.update({u['username']: u for u in list(USERS.values())})"
                                ))),
        Requirement("The `Bearer` scheme is accepted in any letter case.",
                    probes="bearer_scheme_any_case",
                    traps=Edit("scheme case-sensitive", '''    if credentials is None or credentials.credentials not in USERS:''',
                               '''    if credentials is None or credentials.scheme != "Bearer" \\
            or credentials.credentials not in USERS:''')),
        Requirement("`GET /me` gives username, role and doctor id (null unless a doctor).",
                    probes="me",
                    traps=Edit("me without doctor id", "def me(user: AnyUser):\n    return user",
                               "def me(user: AnyUser):\n"
                               '    return {"username": user["username"], "role": user["role"]}')),
        Requirement("The token and the role are checked before the body, even a body that is not "
                    "JSON (then 422 naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Role-restricted routes answer 403 `forbidden` to other roles, before the "
                    "body is validated.",
                    probes="roles_before_validation",
                    traps=(Edit("body before role on slots",
                                "def create_slot(body: SlotIn, user: Doctor, response: Response):\n",
                                "def create_slot(body: SlotIn, user: AnyUser, response: Response):\n"
                                "    role('doctor')(user)\n"),
                           Edit("staff may reschedule",
                                "def reschedule(appointment_id: int, body: RescheduleIn, "
                                "user: Patient):",
                                "def reschedule(appointment_id: int, body: RescheduleIn, "
                                "user: AnyUser):"))),
        Requirement("Doctors are listed by name; `specialty` matches exactly, ignoring case.",
                    probes="doctors_sorted_and_filtered",
                    traps=(Edit("doctors by id", 'key=lambda d: (d["name"], d["id"])',
                                'key=lambda d: d["id"]'),
                           Edit("specialty as a substring",
                                'd["specialty"].lower() == specialty.lower()',
                                'specialty.lower() in d["specialty"].lower()'))),
        Requirement("A doctor's slots are sorted by date and start, filtered by `date` and "
                    "`available`; an unknown doctor is 404 `doctor_not_found`.",
                    probes="slots_listing",
                    traps=(Edit("slots by id", 'key=lambda s: (s["date"], s["start"], s["id"])',
                                'key=lambda s: s["id"]'),
                           Edit("unknown doctor lists nothing", '''    if doctor_id not in DOCTORS:
        raise APIError(404, "doctor_not_found")
''', ""))),
        Requirement("`POST /slots` answers 201 with the caller's slot and its `Location`, ids "
                    "continuing from 6.",
                    probes="create_slot",
                    traps=(Edit("slot without Location",
                                '''    response.headers["Location"] = f"/slots/{slot['id']}"\n''',
                                ""),
                           Edit("slot created with 200",
                                '@app.post("/slots", status_code=201)', '@app.post("/slots")'))),
        Requirement("Slot bodies: a real `YYYY-MM-DD` date, `HH:MM` on a quarter hour, minutes "
                    "15-${max_minutes} in steps of 15, no other fields; failures name their "
                    "fields.",
                    probes="slot_validation",
                    traps=(Edit("any ISO date form", '''        if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", value):
            raise ValueError("not YYYY-MM-DD")
''', ""),
                           Edit("date pattern only", "        date.fromisoformat(value)  "
                                "# raises on 2030-02-30\n", ""),
                           Edit("any minute", " or minutes_of(value) % 15:", ":"),
                           Edit("any duration", "multiple_of=15)", ")"),
                           extras_ignored("slot extras ignored", "SlotIn"))),
        Requirement("A slot's date must be 1-${horizon} days after today (else "
                    "${window_status} `outside_window`, checked before the hours).",
                    probes="booking_window",
                    traps=(Edit("today allowed", "if not 1 <= days_until(body.date) <= "
                                "HORIZON_DAYS:", "if not 0 <= days_until(body.date) <= "
                                "HORIZON_DAYS:"),
                           Edit("horizon exclusive", "if not 1 <= days_until(body.date) <= "
                                "HORIZON_DAYS:", "if not 1 <= days_until(body.date) < "
                                "HORIZON_DAYS:"),
                           Edit("window status 422", 'raise APIError(${window_status}, '
                                '"outside_window")', 'raise APIError(422, "outside_window")'),
                           Edit("hours before window", '''    if not 1 <= days_until(body.date) <= HORIZON_DAYS:
        raise APIError(${window_status}, "outside_window")
    begin = minutes_of(body.start)
    end = begin + body.minutes
    if begin < OPEN_MINUTE or end > CLOSE_MINUTE:
        raise APIError(400, "outside_hours")''', '''    begin = minutes_of(body.start)
    end = begin + body.minutes
    if begin < OPEN_MINUTE or end > CLOSE_MINUTE:
        raise APIError(400, "outside_hours")
    if not 1 <= days_until(body.date) <= HORIZON_DAYS:
        raise APIError(${window_status}, "outside_window")'''))),
        Requirement("A slot lies within opening hours: from ${open_hour_hhmm}, ending by "
                    "${close_hour}:00 (else 400 `outside_hours`).",
                    probes="opening_hours",
                    traps=Edit("end may pass closing", "end > CLOSE_MINUTE:",
                               "begin >= CLOSE_MINUTE:")),
        Requirement("Overlapping slots of one doctor on a date are 409 `slot_overlap`; touching "
                    "ones and other doctors' are fine.",
                    probes="overlaps",
                    traps=(Edit("touching slots overlap",
                                'if begin < other_begin + other["minutes"] and other_begin < end:',
                                'if begin <= other_begin + other["minutes"] and other_begin <= end:'),
                           Edit("overlap across doctors",
                                'if other["doctor_id"] == user["doctor_id"] and other["date"] == '
                                'body.date:', 'if other["date"] == body.date:'))),
        Requirement("Deleting a slot: 404, then 403 `not_your_slot`, then 409 `slot_booked`; "
                    "else 204.",
                    probes="delete_slot",
                    traps=(Edit("booked slots deletable", '''    if active_on(slot_id) is not None:
        raise APIError(409, "slot_booked")
    del SLOTS''', "    del SLOTS"),
                           Edit("other doctors' slots deletable", '''    if slot["doctor_id"] != user["doctor_id"]:
        raise APIError(403, "not_your_slot")
''', ""))),
        Requirement("The ${staff_role} registers patients (201, token, `Location`); a username "
                    "any user has is 409 `username_taken`; the token logs the patient in.",
                    probes="register_patients",
                    traps=(Edit("only patients' names taken",
                                'taken = set(PATIENTS) | {u["username"] for u in USERS.values()}',
                                "taken = set(PATIENTS)"),
                           Edit("registration without Location",
                                '    response.headers["Location"] = f"/patients/{body.username}"\n',
                                ""))),
        Requirement("Patient bodies: username 3-20 lowercase letters and digits starting with a "
                    "letter, name 1-50, no other fields.",
                    probes="patient_validation",
                    traps=(Edit("usernames may start with a digit", 'r"^[a-z][a-z0-9]{2,19}$$"',
                                'r"^[a-z0-9]{3,20}$$"'),
                           extras_ignored("patient extras ignored", "PatientIn"))),
        Requirement("Booking answers 201 with the appointment (reason trimmed) and its "
                    "`Location`; the slot becomes unavailable.",
                    probes="book",
                    traps=(Edit("booking without Location", '''    response.headers["Location"] = f"/appointments/{appointment['id']}"\n''', ""),
                           Edit("appointment without date", '''"date": slot["date"], "start": slot["start"], "reason": body.reason,''',
                                '''"start": slot["start"], "reason": body.reason,'''))),
        Requirement("Booking: an unknown slot is 404 `slot_not_found`; the reason is trimmed, "
                    "then 1-${reason_max} characters; no other fields.",
                    probes="booking_errors",
                    traps=(Edit("reason not trimmed", "StringConstraints(strip_whitespace=True, ",
                                "StringConstraints("),
                           extras_ignored("booking extras ignored", "BookingIn"))),
        Requirement("A slot with a booked appointment is 409 `slot_taken` to anyone.",
                    probes="slot_taken",
                    traps=Edit("slots double-booked", '''    if active_on(slot["id"]) is not None:
        raise APIError(409, "slot_taken")''', "    pass")),
        Requirement("A patient holds at most ${max_active} booked appointments (409 "
                    "`limit_reached`); cancelled ones do not count.",
                    probes="active_limit",
                    traps=(Edit("limit off by one", "if len(active) >= MAX_ACTIVE:",
                                "if len(active) > MAX_ACTIVE:"),
                           Edit("cancelled count toward the limit",
                                'if a["patient"] == username and a["status"] == "booked"]',
                                'if a["patient"] == username]'))),
        Requirement("When both apply, ${first_check} is answered before ${second_check}.",
                    probes="taken_versus_limit",
                    traps=Edit("checks swapped", "    for check in ${book_checks}:",
                               "    for check in reversed(${book_checks}):")),
        Requirement("An appointment is seen by its patient, its doctor and the ${staff_role}; "
                    "others get 404 `appointment_not_found`.",
                    probes="appointment_visibility",
                    traps=(Edit("other patients see it", 'or appointment["doctor_id"] == '
                                'user["doctor_id"])', 'or appointment["doctor_id"] == '
                                'user["doctor_id"] or user["role"] == "patient")'),
                           Edit("hidden appointments forbidden", '''    if appointment is None or not sees(user, appointment):
        raise APIError(404, "appointment_not_found")''', '''    if appointment is None:
        raise APIError(404, "appointment_not_found")
    if not sees(user, appointment):
        raise APIError(403, "forbidden")'''))),
        Requirement("`GET /appointments` sorts by date, start, id, filters by `status` and "
                    "pages with `page`/`per_page` (default ${per_page_default}), `total` "
                    "counting all.",
                    probes="list_appointments",
                    traps=(Edit("appointments by id",
                                'found.sort(key=lambda a: (a["date"], a["start"], a["id"]))',
                                'found.sort(key=lambda a: a["id"])'),
                           Edit("total of the page", '"total": len(found),',
                                '"total": len(found[start:start + per_page]),'))),
        Requirement("Listings show each role only the appointments it sees.",
                    probes="list_scope",
                    traps=Edit("doctors list all", '''    found = [a for a in APPOINTMENTS.values() if sees(user, a)''',
                               '''    found = [a for a in APPOINTMENTS.values()
             if user["role"] != "patient" or sees(user, a)''')),
        Requirement("Listing parameters are validated: `page` >= 1, `per_page` "
                    "1-${per_page_max}, `status` exactly `booked` or `cancelled`.",
                    probes="list_validation",
                    traps=(Edit("per_page unbounded", "Query(ge=1, le=${per_page_max})",
                                "Query(ge=1)"),
                           Edit("field names with their location",
                                'fields = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" '
                                'for e in exc.errors()}',
                                'fields = {".".join(map(str, e["loc"])) for e in exc.errors()}'))),
        Requirement("A patient cancels only at least ${notice} day(s) ahead (else 409 "
                    "`too_late_to_cancel`).",
                    probes="patient_cancel_notice",
                    traps=Edit("notice exclusive", "days_until(appointment[\"date\"]) < NOTICE_DAYS",
                               "days_until(appointment[\"date\"]) <= NOTICE_DAYS")),
        Requirement("Doctors and the ${staff_role} cancel any time; twice is 409 "
                    "`already_cancelled` (before the notice rule); unseen is 404.",
                    probes="cancel_rules",
                    traps=(Edit("notice for everyone", 'if user["role"] == "patient" and '
                                'days_until', "if days_until"),
                           Edit("cancelling twice", '''    if appointment["status"] == "cancelled":
        raise APIError(409, "already_cancelled")
    check_notice(user, appointment)
    appointment["status"] = "cancelled"''', '''    check_notice(user, appointment)
    appointment["status"] = "cancelled"'''))),
        Requirement("A cancelled appointment frees its slot for booking.",
                    probes="cancel_frees_the_slot",
                    traps=Edit("cancelled still hold the slot",
                               'if a["slot_id"] == slot_id and a["status"] == "booked"), None)',
                               'if a["slot_id"] == slot_id), None)')),
        Requirement("Rescheduling moves the same appointment to the new slot and frees the old "
                    "one.",
                    probes="reschedule",
                    traps=Edit("reschedule keeps the old date",
                               'appointment.update(slot_id=slot["id"], date=slot["date"], '
                               'start=slot["start"])',
                               'appointment.update(slot_id=slot["id"], start=slot["start"])')),
        Requirement("Rescheduling checks, in order, the appointment, cancelled, the slot, "
                    "`different_doctor`, the notice, `slot_taken`; a refused request changes "
                    "nothing.",
                    probes="reschedule_failures_change_nothing",
                    traps=(Edit("moved before the taken check", '''    check_taken(slot)
    appointment.update(slot_id=slot["id"], date=slot["date"], start=slot["start"])''',
                                '''    appointment.update(slot_id=slot["id"], date=slot["date"], start=slot["start"])
    check_taken(slot)'''),
                           Edit("any doctor's slot", '''    if slot["doctor_id"] != appointment["doctor_id"]:
        raise APIError(409, "different_doctor")
''', ""),
                           Edit("no notice on reschedule", '''    check_notice(user, appointment)
    check_taken(slot)''', "    check_taken(slot)"))),
        Requirement("Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` "
                    "with `Allow`.",
                    probes="unknown_paths_and_methods",
                    traps=(router_errors_in_fastapi_format("router errors unhandled"),
                           Edit("Allow dropped", 'status_code=exc.status_code, headers=exc.headers)',
                                "status_code=exc.status_code)"))),
        Requirement("OpenAPI lists every route but `/health`, with one HTTP bearer scheme.",
                    probes="openapi",
                    traps=Edit("health documented", '@app.get("/health", include_in_schema=False)',
                               '@app.get("/health")')),
    ),
)
