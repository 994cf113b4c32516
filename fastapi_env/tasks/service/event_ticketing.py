"""Service tier: an event-ticketing service specified like a product document (11 routes, bearer
tokens with two roles, events with capacity and a bounded waitlist, reservations that are
confirmed or queued, cancellation with in-order promotion, ownership rules, strict validation
with a configurable status, pagination and filters, OpenAPI's bearer scheme).

The parameters change what a correct app answers: the role names, the user names, the seed
events, the bounds, the status of a validation failure and of a queued reservation, what another
organiser's event looks like (403 or 404), which of two failures wins, and whether the waitlist
is strictly first-come-first-served or lets smaller requests through."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

ORGANISER, ATTENDEE = ${org_role__repr}, ${att_role__repr}
USERS = {
    ${t_o1__repr}: {"name": ${o1__repr}, "role": ORGANISER},
    ${t_o2__repr}: {"name": ${o2__repr}, "role": ORGANISER},
    ${t_a1__repr}: {"name": ${a1__repr}, "role": ATTENDEE},
    ${t_a2__repr}: {"name": ${a2__repr}, "role": ATTENDEE},
    ${t_a3__repr}: {"name": ${a3__repr}, "role": ATTENDEE},
    ${t_a4__repr}: {"name": ${a4__repr}, "role": ATTENDEE},
}
EVENTS: dict[int, dict] = {}
for _name, _organiser, _capacity, _waitlist in ${seed__repr}:
    EVENTS[len(EVENTS) + 1] = {"id": len(EVENTS) + 1, "name": _name, "organiser": _organiser,
                               "capacity": _capacity, "waitlist": _waitlist}
RESERVATIONS: dict[int, dict] = {}
NEXT = {"event": len(EVENTS) + 1, "reservation": 1}
INVALID_STATUS = ${invalid_status}
STRICT_QUEUE = ${strict_queue}

app = FastAPI()
bearer = HTTPBearer(auto_error=False)


''' + late_body.ROUTE_CLASS + '''


class Fail(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def failure(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": code, **extra}, status_code=status, headers=headers)


@app.exception_handler(Fail)
async def on_fail(request: Request, exc: Fail):
    return failure(exc.status, exc.code, exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    code = "not_found" if exc.status_code == 404 else "method_not_allowed"
    return failure(exc.status_code, code, exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    names = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return failure(INVALID_STATUS, "invalid", fields=sorted(names))


def trimmed_name(value: str) -> str:
    value = value.strip()
    if not 1 <= len(value) <= 60:
        raise ValueError("name must be 1-60 characters")
    return value


Name = Annotated[str, AfterValidator(trimmed_name)]


class EventIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    capacity: int = Field(ge=1, le=${max_capacity}, strict=True)
    waitlist: int = Field(0, ge=0, le=${max_waitlist}, strict=True)


class EventPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    # Defaults are not validated: an omitted field stays None, an explicit null is invalid.
    name: Name = None
    capacity: int = Field(None, ge=1, le=${max_capacity}, strict=True)


class ReservationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seats: int = Field(1, ge=1, le=${max_seats}, strict=True)


def current_user(creds: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]):
    if creds is None or creds.credentials not in USERS:
        raise Fail(401, "unauthenticated", {"WWW-Authenticate": "Bearer"})
    return USERS[creds.credentials]


def role(required: str):
    def check(user: Annotated[dict, Depends(current_user)]) -> dict:
        if user["role"] != required:
            raise Fail(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(current_user)]
Organiser = Annotated[dict, Depends(role(ORGANISER))]
Attendee = Annotated[dict, Depends(role(ATTENDEE))]


def find_event(event_id: int) -> dict:
    if event_id not in EVENTS:
        raise Fail(404, "not_found")
    return EVENTS[event_id]


def owned_event(event_id: int, user: Organiser) -> dict:
    event = find_event(event_id)
    if event["organiser"] != user["name"]:
        raise Fail(${foreign_status}, ${foreign_code__repr})
    return event


OwnedEvent = Annotated[dict, Depends(owned_event)]


def booked(event: dict) -> int:
    return sum(r["seats"] for r in RESERVATIONS.values()
               if r["event_id"] == event["id"] and r["status"] == "confirmed")


def queue(event: dict) -> list[dict]:
    return sorted((r for r in RESERVATIONS.values()
                   if r["event_id"] == event["id"] and r["status"] == "waitlisted"),
                  key=lambda r: r["id"])


def event_out(event: dict) -> dict:
    return {**event, "booked": booked(event), "waiting": len(queue(event))}


def reservation_out(reservation: dict) -> dict:
    event = EVENTS.get(reservation["event_id"])
    waiting = [r["id"] for r in queue(event)] if event else []
    position = waiting.index(reservation["id"]) + 1 if reservation["id"] in waiting else None
    return {**reservation, "position": position}


def confirmable(event: dict, seats: int) -> bool:
    if STRICT_QUEUE and queue(event):
        return False
    return seats <= event["capacity"] - booked(event)


def promote(event: dict) -> None:
    free = event["capacity"] - booked(event)
    for reservation in queue(event):
        if reservation["seats"] <= free:
            reservation["status"] = "confirmed"
            free -= reservation["seats"]
        elif STRICT_QUEUE:
            break


def active_reservation(event: dict, user: dict):
    return next((r for r in RESERVATIONS.values() if r["event_id"] == event["id"]
                 and r["attendee"] == user["name"] and r["status"] != "cancelled"), None)


def no_duplicate(event: dict, user: dict, seats: int) -> None:
    if active_reservation(event, user) is not None:
        raise Fail(409, "already_reserved")


def has_room(event: dict, user: dict, seats: int) -> None:
    if not confirmable(event, seats) and len(queue(event)) >= event["waitlist"]:
        raise Fail(409, "sold_out")


def visible_reservation(reservation_id: int, user: dict) -> dict:
    reservation = RESERVATIONS.get(reservation_id)
    if reservation is None:
        raise Fail(404, "not_found")
    event = EVENTS.get(reservation["event_id"], {})
    if user["name"] not in (reservation["attendee"], event.get("organiser")):
        raise Fail(404, "not_found")
    return reservation


@app.get("/me")
def me(user: AnyUser):
    return user


@app.post("/events", status_code=201)
def create_event(user: Organiser, body: EventIn, response: Response):
    event = {"id": NEXT["event"], "name": body.name, "organiser": user["name"],
             "capacity": body.capacity, "waitlist": body.waitlist}
    NEXT["event"] += 1
    EVENTS[event["id"]] = event
    response.headers["Location"] = f"/events/{event['id']}"
    return event_out(event)


@app.get("/events")
def list_events(
    user: AnyUser,
    q: str | None = None,
    organiser: str | None = None,
    has_seats: bool | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
    per_page: Annotated[int, Query(ge=1, le=${per_page_max})] = ${per_page_default},
):
    events = [event_out(e) for e in sorted(EVENTS.values(), key=lambda e: e["id"])]
    if q is not None:
        events = [e for e in events if q.lower() in e["name"].lower()]
    if organiser is not None:
        events = [e for e in events if e["organiser"] == organiser]
    if has_seats is not None:
        events = [e for e in events if (e["booked"] < e["capacity"]) == has_seats]
    start = (page - 1) * per_page
    return {"items": events[start:start + per_page], "page": page, "total": len(events)}


@app.get("/events/{event_id}")
def read_event(event_id: int, user: AnyUser):
    return event_out(find_event(event_id))


@app.patch("/events/{event_id}")
def update_event(event: OwnedEvent, body: EventPatch):
    changes = body.model_dump(exclude_unset=True)
    if "capacity" in changes and changes["capacity"] < booked(event):
        raise Fail(409, "below_booked")
    event.update(changes)
    promote(event)
    return event_out(event)


@app.delete("/events/{event_id}", status_code=204)
def delete_event(event: OwnedEvent):
    if any(r["event_id"] == event["id"] and r["status"] != "cancelled"
           for r in RESERVATIONS.values()):
        raise Fail(409, "has_reservations")
    del EVENTS[event["id"]]
    return Response(status_code=204)


@app.post("/events/{event_id}/reservations", status_code=201)
def reserve(${reserve_head}
    for check in ${check_order}:
        check(event, user, body.seats)
    reservation = {"id": NEXT["reservation"], "event_id": event["id"],
                   "attendee": user["name"], "seats": body.seats,
                   "status": "confirmed" if confirmable(event, body.seats) else "waitlisted"}
    NEXT["reservation"] += 1
    RESERVATIONS[reservation["id"]] = reservation
    response.headers["Location"] = f"/reservations/{reservation['id']}"
    if reservation["status"] == "waitlisted":
        response.status_code = ${waitlisted_status}
    return reservation_out(reservation)


@app.get("/events/{event_id}/reservations")
def event_reservations(
    event: OwnedEvent, status: Literal["confirmed", "waitlisted", "cancelled"] | None = None
):
    return [reservation_out(r) for r in sorted(RESERVATIONS.values(), key=lambda r: r["id"])
            if r["event_id"] == event["id"] and (status is None or r["status"] == status)]


@app.get("/me/reservations")
def my_reservations(user: Attendee, event_id: int | None = None):
    return [reservation_out(r) for r in sorted(RESERVATIONS.values(), key=lambda r: r["id"])
            if r["attendee"] == user["name"] and (event_id is None or r["event_id"] == event_id)]


@app.get("/reservations/{reservation_id}")
def read_reservation(reservation_id: int, user: AnyUser):
    return reservation_out(visible_reservation(reservation_id, user))


@app.post("/reservations/{reservation_id}/cancel")
def cancel(reservation_id: int, user: AnyUser):
    reservation = visible_reservation(reservation_id, user)
    if reservation["status"] == "cancelled":
        raise Fail(409, "already_cancelled")
    reservation["status"] = "cancelled"
    promote(EVENTS[reservation["event_id"]])
    return reservation_out(reservation)


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
organiser, attendee = ({"Authorization": "Bearer ${t_o1}"},
                       {"Authorization": "Bearer ${t_a1}"})
created = client.post("/events", json={"name": " ${first_event} ", "capacity": 2},
                      headers=organiser)
event_path = created.headers["location"]
result = [
    row(created),
    row(client.post(f"{event_path}/reservations", json={"seats": 2}, headers=attendee)),
    row(client.get(event_path, headers=attendee)),
    row(client.get("/me", headers=attendee)),
    row(client.get("/events")),
]
'''


def reserve_head(missing_first: bool) -> str:
    """The reservation route's signature and event lookup: an unknown event is 404 before the
    body is validated (a dependency), or after it (in the handler)."""
    if missing_first:
        return ('user: Attendee, event: Annotated[dict, Depends(find_event)], '
                'body: ReservationIn,\n            response: Response):')
    return ('event_id: int, user: Attendee, body: ReservationIn, response: Response):\n'
            '    event = find_event(event_id)')


PROBES = '''\
O1, O2 = {"Authorization": "Bearer ${t_o1}"}, {"Authorization": "Bearer ${t_o2}"}
A1, A2 = {"Authorization": "Bearer ${t_a1}"}, {"Authorization": "Bearer ${t_a2}"}
A3, A4 = {"Authorization": "Bearer ${t_a3}"}, {"Authorization": "Bearer ${t_a4}"}


''' + ROW + late_body.probe_source(
    [("POST", "/events"), ("PATCH", "/events/1"), ("PATCH", "/events/999"),
     ("POST", "/events/1/reservations"), ("POST", "/events/999/reservations")],
    [("no token", "{}"), ("unknown token", '{"Authorization": "Bearer nope"}'),
     ("attendee", "A1"), ("organiser 1", "O1"), ("organiser 2", "O2")]) + '''

def _event(client, name, capacity, waitlist=0, headers=O1):
    body = {"name": name, "capacity": capacity, "waitlist": waitlist}
    return client.post("/events", json=body, headers=headers).json()["id"]


def _reserve(client, event_id, headers, seats=1):
    return client.post(f"/events/{event_id}/reservations", json={"seats": seats},
                       headers=headers)


def _brief(r):
    body = r.json()
    if r.status_code >= 400:
        return [r.status_code, body]
    return [r.status_code, body["seats"], body["status"], body["position"]]


def _statuses(client, event_id, headers=O1):
    return [[r["attendee"], r["status"], r["position"]]
            for r in client.get(f"/events/{event_id}/reservations", headers=headers).json()]


def probe_tokens_required(client):
    rows = []
    for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "Token ${t_a1}"},
                    {"Authorization": "${t_a1}"}, {"Authorization": "Bearer "},
                    {"Authorization": "Bearer ${a1}"}]:
        for method, path in [("GET", "/me"), ("GET", "/events"), ("POST", "/events"),
                             ("GET", "/events/1"), ("PATCH", "/events/1"),
                             ("DELETE", "/events/1"), ("POST", "/events/1/reservations"),
                             ("GET", "/events/1/reservations"), ("GET", "/me/reservations"),
                             ("GET", "/reservations/1"), ("POST", "/reservations/1/cancel")]:
            r = client.request(method, path, headers=headers, json={"capacity": "x"})
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (O1, O2, A1, A2, A3, A4)]


def probe_roles(client):
    return [
        _row(client.post("/events", json={"name": "Nope", "capacity": 5}, headers=A2)),
        _row(client.post("/events", json={"capacity": "many"}, headers=A2)),
        _row(client.post("/events/1/reservations", json={"seats": 1}, headers=O1)),
        _row(client.post("/events/1/reservations", json={"seats": "x"}, headers=O2)),
        _row(client.patch("/events/1", json={"name": "Taken over"}, headers=A2)),
        _row(client.delete("/events/2", headers=A3)),
        _row(client.get("/events/1/reservations", headers=A1)),
        _row(client.get("/me/reservations", headers=O1)),
        _row(client.get("/events/1", headers=A4)),
    ]


def probe_create_event(client):
    r = client.post("/events", json={"name": "  Spring Gala  ", "capacity": 40, "waitlist": 3},
                    headers=O2)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    r = client.post("/events", json={"name": "Defaults", "capacity": 1}, headers=O1)
    rows.append([r.status_code, r.json(), r.headers.get("location")])
    rows.append(_row(client.get(r.headers["location"], headers=A1)))
    return rows


def probe_event_validation(client):
    rows = []
    for body in [{"name": "", "capacity": 5}, {"name": "   ", "capacity": 5},
                 {"name": "x" * 61, "capacity": 5}, {"name": "x" * 60, "capacity": 5},
                 {"name": "  " + "y" * 60 + " ", "capacity": 5},
                 {"name": "Cap", "capacity": 0}, {"name": "Cap", "capacity": ${max_capacity}},
                 {"name": "Cap", "capacity": ${max_capacity} + 1},
                 {"name": "Cap", "capacity": "5"}, {"name": "Cap", "capacity": True},
                 {"name": "Cap", "capacity": 2.5}, {"name": "Wl", "capacity": 5, "waitlist": -1},
                 {"name": "Wl", "capacity": 5, "waitlist": ${max_waitlist}},
                 {"name": "Wl", "capacity": 5, "waitlist": ${max_waitlist} + 1},
                 {"name": "Wl", "capacity": 5, "waitlist": "2"},
                 {"name": "Ex", "capacity": 5, "organiser": "${o2}"},
                 {"name": 7, "capacity": 5}, {"capacity": 5}, {}, [],
                 {"name": None, "capacity": 0, "price": 1}]:
        r = client.post("/events", json=body, headers=O1)
        rows.append([r.status_code, r.json() if r.status_code >= 400
                     else [r.json()["name"], r.json()["capacity"], r.json()["waitlist"]]])
    return rows


def probe_list_events(client):
    ids = [_event(client, f"Zeta {n}", capacity, waitlist=2, headers=O2 if n % 2 else O1)
           for n, capacity in enumerate([1, 2, 3, 4, 5])]
    _reserve(client, ids[0], A1)
    _reserve(client, ids[1], A1, seats=2)
    _reserve(client, ids[2], A1, seats=2)
    _reserve(client, ids[2], A2, seats=2)  # waits: one seat is still free
    rows = []
    for params in [{"q": "zETA"}, {"q": "zeta", "has_seats": "false"},
                   {"q": "zeta", "has_seats": "true"}, {"q": "Zeta", "organiser": "${o2}"},
                   {"q": "zeta", "organiser": "${o2}".upper()},
                   {"q": "zeta", "per_page": 2}, {"q": "zeta", "per_page": 2, "page": 3},
                   {"q": "zeta", "per_page": 2, "page": 4}, {"q": "zeta 3"}, {"q": "nothing"}]:
        body = client.get("/events", params=params, headers=A2).json()
        rows.append([params, [e["name"] for e in body["items"]], body["page"], body["total"]])
    body = client.get("/events", headers=A2).json()
    rows.append([[e["id"] for e in body["items"]], body["page"], body["total"] >= 7])
    first = client.get("/events", params={"per_page": 1}, headers=A2).json()
    rows.append(first["items"])
    full = client.get("/events", params={"per_page": ${per_page_max}}, headers=A2).json()
    rows.append([len(full["items"]) == min(${per_page_max}, full["total"])])
    for params in [{"page": 0}, {"per_page": 0}, {"per_page": ${per_page_max} + 1},
                   {"has_seats": "maybe"}, {"page": "two", "per_page": 0}]:
        rows.append([params, _row(client.get("/events", params=params, headers=A2))])
    return rows


def probe_read_event(client):
    return [_row(client.get("/events/1", headers=A3)), _row(client.get("/events/2", headers=O2)),
            _row(client.get("/events/9999", headers=A3)),
            _row(client.get("/events/abc", headers=A3))]


def probe_update_event(client):
    event = _event(client, "Patchable", 3, waitlist=1)
    _reserve(client, event, A1, seats=2)
    return [
        _row(client.patch(f"/events/{event}", json={"name": " Renamed "}, headers=O1)),
        _row(client.patch(f"/events/{event}", json={}, headers=O1)),
        _row(client.patch(f"/events/{event}", json={"capacity": 1}, headers=O1)),
        _row(client.get(f"/events/{event}", headers=O1)),
        _row(client.patch(f"/events/{event}", json={"capacity": 2}, headers=O1)),
        _row(client.patch(f"/events/{event}", json={"capacity": None}, headers=O1)),
        _row(client.patch(f"/events/{event}", json={"name": "  "}, headers=O1)),
        _row(client.patch(f"/events/{event}", json={"waitlist": 5}, headers=O1)),
        _row(client.patch(f"/events/{event}", json={"capacity": "9"}, headers=O1)),
        _row(client.patch("/events/9999", json={"name": "Ghost"}, headers=O1)),
        _row(client.get(f"/events/{event}", headers=O1)),
    ]


def probe_other_organisers_events(client):
    event = _event(client, "Guarded", 5)
    return [
        _row(client.patch(f"/events/{event}", json={"name": "Mine now"}, headers=O2)),
        _row(client.patch(f"/events/{event}", json={"capacity": -1}, headers=O2)),
        _row(client.delete(f"/events/{event}", headers=O2)),
        _row(client.get(f"/events/{event}/reservations", headers=O2)),
        _row(client.get(f"/events/{event}/reservations", params={"status": "x"}, headers=O2)),
        _row(client.get(f"/events/{event}", headers=O2)),
        _row(client.get("/events/9999/reservations", headers=O2)),
    ]


def probe_capacity_raise_promotes(client):
    event = _event(client, "Growing", 1, waitlist=3)
    _reserve(client, event, A1)
    queued = [_reserve(client, event, h).json()["id"] for h in (A2, A3)]
    rows = [_statuses(client, event)]
    rows.append(_row(client.patch(f"/events/{event}", json={"capacity": 2}, headers=O1)))
    rows.append(_statuses(client, event))
    rows.append([_row(client.get(f"/reservations/{r}", headers=O1)) for r in queued])
    return rows


def probe_delete_event(client):
    empty = _event(client, "Empty", 2)
    queued = _event(client, "Only a queue", 1, waitlist=1)
    held = _event(client, "Held", 2)
    waiting = _reserve(client, queued, A1, seats=2).json()["id"]
    confirmed = _reserve(client, held, A2).json()["id"]
    rows = [_row(client.delete(f"/events/{empty}", headers=O1)),
            _row(client.get(f"/events/{empty}", headers=O1)),
            _row(client.delete(f"/events/{empty}", headers=O1)),
            _row(client.delete(f"/events/{queued}", headers=O1)),
            _row(client.delete(f"/events/{held}", headers=O1))]
    client.post(f"/reservations/{waiting}/cancel", headers=A1)
    client.post(f"/reservations/{confirmed}/cancel", headers=A2)
    rows.append(_row(client.delete(f"/events/{queued}", headers=O1)))
    rows.append(_row(client.delete(f"/events/{held}", headers=O1)))
    rows.append(_row(client.get(f"/events/{queued}", headers=A1)))
    return rows


def probe_reserve(client):
    event = _event(client, "Concert", 4, waitlist=2)
    r = _reserve(client, event, A2, seats=3)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.get(r.headers["location"], headers=A2)))
    r = client.post(f"/events/{event}/reservations", json={}, headers=A3)
    rows.append([r.status_code, r.json()["seats"], r.json()["status"]])
    rows.append(_row(client.get(f"/events/{event}", headers=A2)))
    return rows


def probe_seats_validation(client):
    rows = []
    for body in [{"seats": 0}, {"seats": 1}, {"seats": ${max_seats}}, {"seats": ${max_seats} + 1},
                 {"seats": -2}, {"seats": "2"}, {"seats": None}, {"seats": 1.5},
                 {"seats": 1, "attendee": "${a2}"}, [], {"seats": 0, "note": "x"}]:
        event = _event(client, "Seats", 100)
        r = client.post(f"/events/{event}/reservations", json=body, headers=A1)
        rows.append([r.status_code, r.json() if r.status_code >= 400 else r.json()["seats"]])
    return rows


def probe_waitlist(client):
    event = _event(client, "Popular", 2, waitlist=2)
    rows = [_brief(_reserve(client, event, A1, seats=2))]
    r = _reserve(client, event, A2)
    rows.append([r.status_code, r.json(), r.headers.get("location")])
    rows.append(_brief(_reserve(client, event, A3, seats=2)))
    rows.append(_row(client.get(f"/events/{event}", headers=A4)))
    rows.append(_statuses(client, event))
    return rows


def probe_sold_out(client):
    event = _event(client, "Tiny", 1, waitlist=1)
    no_queue = _event(client, "No queue", 2)
    rows = [_brief(_reserve(client, event, A1)), _brief(_reserve(client, event, A2)),
            _brief(_reserve(client, event, A3)), _row(client.get(f"/events/{event}", headers=A3)),
            [len(client.get("/me/reservations", params={"event_id": event}, headers=A3).json())],
            _brief(_reserve(client, no_queue, A1, seats=2)),
            _brief(_reserve(client, no_queue, A2)),
            _row(client.get(f"/events/{no_queue}", headers=A2))]
    return rows


def probe_no_double_booking(client):
    roomy = _event(client, "Roomy", 10)
    full = _event(client, "Full", 1, waitlist=5)
    first = _reserve(client, roomy, A1).json()["id"]
    _reserve(client, full, A1)
    _reserve(client, full, A2)
    rows = [_brief(_reserve(client, roomy, A1, seats=2)),
            _brief(_reserve(client, full, A2)),
            _brief(_reserve(client, full, A1))]
    client.post(f"/reservations/{first}/cancel", headers=A1)
    rows.append(_brief(_reserve(client, roomy, A1, seats=2)))
    rows.append(_row(client.get(f"/events/{roomy}", headers=A1)))
    return rows


def probe_duplicate_on_a_full_event(client):
    event = _event(client, "Exclusive", 1)
    queued = _event(client, "Queue full", 1, waitlist=1)
    _reserve(client, event, A1)
    _reserve(client, queued, A1)
    _reserve(client, queued, A2)
    return [_brief(_reserve(client, event, A1)), _brief(_reserve(client, queued, A2)),
            _brief(_reserve(client, queued, A3))]


def probe_unknown_event_reservation(client):
    return [_row(client.post("/events/9999/reservations", json={"seats": 0}, headers=A1)),
            _row(client.post("/events/9999/reservations", json={"seats": 1}, headers=A1)),
            _row(client.post("/events/9999/reservations", json=[], headers=A1)),
            _row(client.post("/events/abc/reservations", json={"seats": 1}, headers=A1)),
            _row(client.post("/events/9999/reservations", json={"seats": 0}, headers=O1))]


def probe_cancel(client):
    event = _event(client, "Cancellable", 5)
    mine = _reserve(client, event, A1, seats=2).json()["id"]
    theirs = _reserve(client, event, A2).json()["id"]
    rows = [_row(client.post(f"/reservations/{mine}/cancel", headers=A2)),
            _row(client.post(f"/reservations/{mine}/cancel", headers=O2)),
            _row(client.post(f"/reservations/{mine}/cancel", headers=A1)),
            _row(client.post(f"/reservations/{mine}/cancel", headers=A1)),
            _row(client.post(f"/reservations/{theirs}/cancel", headers=O1)),
            _row(client.post("/reservations/9999/cancel", headers=O1)),
            _row(client.post("/reservations/abc/cancel", headers=O1)),
            _row(client.get(f"/events/{event}", headers=A1))]
    return rows


def probe_promotion_order(client):
    event = _event(client, "Queue order", 3, waitlist=5)
    _reserve(client, event, A1, seats=2)
    leaving = _reserve(client, event, A4).json()["id"]
    rows = [_brief(_reserve(client, event, A2, seats=2)), _brief(_reserve(client, event, A3))]
    rows.append(_brief(client.post(f"/reservations/{leaving}/cancel", headers=A4)))
    rows.append(_statuses(client, event))
    rows.append(_row(client.get(f"/events/{event}", headers=O1)))
    # The head of the queue leaves: the one behind it may now fit.
    other = _event(client, "Head leaves", 2, waitlist=5)
    _reserve(client, other, A1)
    head = _reserve(client, other, A2, seats=2).json()["id"]
    rows.append(_brief(_reserve(client, other, A3)))
    rows.append(_brief(client.post(f"/reservations/{head}/cancel", headers=A2)))
    rows.append(_statuses(client, other))
    return rows


def probe_new_reservation_behind_a_queue(client):
    event = _event(client, "Behind", 2, waitlist=5)
    rows = [_brief(_reserve(client, event, A1)), _brief(_reserve(client, event, A2, seats=2)),
            _brief(_reserve(client, event, A3))]
    rows.append(_statuses(client, event))
    return rows


def probe_positions_after_leaving_the_queue(client):
    event = _event(client, "Shuffle", 1, waitlist=3)
    _reserve(client, event, A1)
    waiting = [_reserve(client, event, h).json()["id"] for h in (A2, A3, A4)]
    rows = [_brief(client.post(f"/reservations/{waiting[0]}/cancel", headers=A2))]
    rows.append([_brief(client.get(f"/reservations/{r}", headers=O1)) for r in waiting])
    rows.append(_brief(_reserve(client, event, A2)))
    rows.append(_statuses(client, event))
    return rows


def probe_event_reservations(client):
    event = _event(client, "Listed", 1, waitlist=2)
    _reserve(client, event, A3)
    second = _reserve(client, event, A1).json()["id"]
    _reserve(client, event, A2)
    client.post(f"/reservations/{second}/cancel", headers=A1)
    rows = []
    for params in [{}, {"status": "confirmed"}, {"status": "waitlisted"},
                   {"status": "cancelled"}]:
        r = client.get(f"/events/{event}/reservations", params=params, headers=O1)
        rows.append([params, r.status_code, [[x["attendee"], x["status"]] for x in r.json()]])
    rows.append(_row(client.get(f"/events/{event}/reservations",
                                params={"status": "Confirmed"}, headers=O1)))
    rows.append(_row(client.get("/events/9999/reservations", headers=O1)))
    return rows


def probe_my_reservations(client):
    first = _event(client, "Mine 1", 1, waitlist=1)
    second = _event(client, "Mine 2", 4)
    _reserve(client, first, A4)
    _reserve(client, first, A3)
    cancelled = _reserve(client, second, A3, seats=2).json()["id"]
    client.post(f"/reservations/{cancelled}/cancel", headers=A3)
    rows = []
    for headers in (A3, A4):
        for event in (first, second):
            mine = client.get("/me/reservations", params={"event_id": event}, headers=headers)
            rows.append([mine.status_code, [[r["seats"], r["status"], r["position"]]
                                            for r in mine.json()]])
    everything = client.get("/me/reservations", headers=A3).json()
    rows.append([[r["id"] for r in everything] == sorted(r["id"] for r in everything),
                 {r["attendee"] for r in everything} == {"${a3}"}])
    rows.append(_row(client.get("/me/reservations", params={"event_id": "x"}, headers=A3)))
    return rows


def probe_reservation_visibility(client):
    event = _event(client, "Private", 3)
    reservation = _reserve(client, event, A1).json()["id"]
    return [_brief(client.get(f"/reservations/{reservation}", headers=h))
            for h in (A1, O1, A2, O2)] + [_row(client.get("/reservations/9999", headers=O1))]


def probe_unknown_paths_and_methods(client):
    rows = []
    for method, path in [("GET", "/nope"), ("DELETE", "/me"), ("PUT", "/me/reservations"),
                         ("GET", "/reservations/1/cancel")]:
        r = client.request(method, path, headers=A1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_openapi_bearer_scheme(client):
    doc = client.get("/openapi.json").json()
    schemes = [[s.get("type"), s.get("scheme")]
               for s in doc.get("components", {}).get("securitySchemes", {}).values()]
    secured = sorted([path, method] for path, item in doc["paths"].items()
                     for method, op in item.items() if not op.get("security"))
    return [["schemes", schemes], ["operations without security", secured]]
'''


PROMPT = '''\
Build the HTTP API of a small event-ticketing service, as specified below. All state is in
memory, starting from the data given here.

## Users
Requests authenticate with `Authorization: Bearer <token>`:

| token | user | role |
|---|---|---|
| `${t_o1}` | `${o1}` | ${org_role} |
| `${t_o2}` | `${o2}` | ${org_role} |
| `${t_a1}` | `${a1}` | ${att_role} |
| `${t_a2}` | `${a2}` | ${att_role} |
| `${t_a3}` | `${a3}` | ${att_role} |
| `${t_a4}` | `${a4}` | ${att_role} |

Every route needs one of these tokens; otherwise (no header, another scheme, an unknown
token) the answer is 401 `unauthenticated` with the header `WWW-Authenticate: Bearer`.
Routes marked *${org_role}* or *${att_role}* answer 403 `forbidden` to a user of the other role.
Authentication and then the role are checked before anything else about the request, a
body that is not JSON included: such a body is an invalid body like any other, answered where
the route checks its body. `GET /me` answers 200 `{"name", "role"}` for the caller.

## Errors
Every error body is `{"error": <code>}`. Invalid input (body, path or query) is
${invalid_status} `invalid`, with one more key `"fields"`: the sorted names, without repeats, of
the invalid fields or parameters (`"body"` when the body is not JSON or not a JSON object). Numbers in
bodies must be JSON integers: `"5"`, `true` or `2.5` are invalid. A body with a field not listed
for it is invalid. A path that matches no route is 404 `not_found`; a known path with another
method is 405 `method_not_allowed`, with the `Allow` header. A missing event or reservation is
404 `not_found`.

## Events
An event is shown as `{"id", "name", "organiser", "capacity", "waitlist", "booked",
"waiting"}`: `booked` is the number of seats of its confirmed reservations, `waiting` the number
of its waitlisted reservations. The service starts with these events (ids 1, 2, ...; new events
take the next ids, and the id of a deleted event is never used again):

${seed_table}

- `POST /events` *${org_role}* `{"name", "capacity", "waitlist"}`: `name` is required and is
  stored without surrounding spaces, which must leave 1-60 characters; `capacity` (required)
  1-${max_capacity}; `waitlist` (the most reservations that may wait, default 0)
  0-${max_waitlist}. 201 with the event, organised by the caller, and
  `Location: /events/<id>`.
- `GET /events`: 200 `{"items", "page", "total"}`: the events by id, filtered by the optional
  `q` (contained in the name, ignoring case), `organiser` (exact user name) and `has_seats` (a
  boolean: `booked` below `capacity` or not); `total` counts every match, `items` is page `page`
  (>= 1, default 1) of `per_page` (1-${per_page_max}, default ${per_page_default}) events, empty
  past the end.
- `GET /events/{event_id}`: 200 with the event.
- `PATCH /events/{event_id}` *${org_role}*, `name` and/or `capacity` (same rules; null is
  invalid, `{}` changes nothing): 200 with the event. A capacity below `booked` is 409
  `below_booked` and changes nothing.
- `DELETE /events/{event_id}` *${org_role}*: 409 `has_reservations` while it has a confirmed or
  waitlisted reservation; else 204 with an empty body.
- `GET /events/{event_id}/reservations` *${org_role}*: 200, the event's reservations by id, all
  or those with the optional `status` (`confirmed`, `waitlisted` or `cancelled`; any other
  value is invalid).

On these last three routes only the event's own organiser may act: for another ${org_role} the
event answers ${foreign_status} `${foreign_code}`. The order is: authentication, role, the event
exists (404), it is the caller's (${foreign_status}), then the body and query.

## Reservations
A reservation is shown as `{"id", "event_id", "attendee", "seats", "status", "position"}`; ids
are 1, 2, ... in creation order; `status` is `confirmed`, `waitlisted` or `cancelled`;
`position` is the 1-based place in the event's waitlist (waitlisted reservations in id order),
null for the others.

- `POST /events/{event_id}/reservations` *${att_role}* `{"seats"}` (1-${max_seats}, default 1):
  the reservation is confirmed when its seats fit in the free seats (`capacity` - `booked`)
  ${fit_rule};
  otherwise it is waitlisted, if fewer than `waitlist` reservations are waiting.
  A confirmed reservation answers 201, a waitlisted one ${waitlisted_status}; both with the
  reservation and `Location: /reservations/<id>`. Failures: 404 for an unknown event
  (${missing_rule}); 409 `already_reserved` if the caller already has a confirmed or
  waitlisted reservation for the event; 409 `sold_out` if it can be neither confirmed nor
  waitlisted. When both 409s apply, `${first_conflict}` wins. A failed request changes nothing.
- `GET /me/reservations` *${att_role}*: 200, the caller's reservations (any status) by id; the
  optional integer `event_id` keeps those of one event.
- `GET /reservations/{reservation_id}`: 200 with it, for the attendee who made it and the
  organiser of its event; for anyone else it is 404 `not_found`.
- `POST /reservations/{reservation_id}/cancel` (same visibility): 200 with the reservation, now
  `cancelled`; 409 `already_cancelled` if it was.

After a cancellation or a capacity change the waitlist is promoted:
${promotion_rule}

## OpenAPI
`/openapi.json` declares one security scheme, HTTP bearer, and every operation uses it.

## result
One row per request, each `[status code, JSON body]`:
1. `POST /events` as `${o1}` with `{"name": " ${first_event} ", "capacity": 2}`
2. `POST <the Location of row 1>/reservations` as `${a1}` with `{"seats": 2}`
3. `GET <the Location of row 1>` as `${a1}`
4. `GET /me` as `${a1}`
5. `GET /events` without a token
'''

SEEDS = {
    "jazz": [["Jazz Night", "o1", 2, 1], ["Chess Open", "o2", 50, 0]],
    "poetry": [["Poetry Slam", "o2", 3, 2], ["Robot Fair", "o1", 120, 10],
               ["Film Club", "o2", 8, 0]],
}


def derive(p):
    users = {k: p[k] for k in ("o1", "o2", "a1", "a2", "a3", "a4")}
    seed = [[name, users[who], capacity, waitlist] for name, who, capacity, waitlist
            in SEEDS[p["seed_name"]]]
    table = "| id | name | organiser | capacity | waitlist |\n|---|---|---|---|---|\n" + "\n".join(
        f"| {i} | {name} | `{who}` | {capacity} | {waitlist} |"
        for i, (name, who, capacity, waitlist) in enumerate(seed, 1))
    strict = p["strict_queue"]
    return {
        **{f"t_{k}": f"{p['token_prefix']}{v}" for k, v in users.items()},
        "seed": seed, "seed_table": table,
        "fit_rule": "and no reservation is waiting for the event" if strict
        else "(even when others are waiting)",
        "promotion_rule": (
            "waitlisted reservations are taken in id order and each is confirmed while its "
            "seats fit in the free seats; the first one that does not fit stops the promotion "
            "(nobody behind it moves ahead)." if strict else
            "waitlisted reservations are taken in id order and each one whose seats fit in the "
            "seats still free is confirmed; one that does not fit keeps waiting and the next "
            "ones are still considered."),
        "missing_rule": "before the body is validated" if p["missing_first"]
        else "after the body is validated: an invalid body is reported first",
        "first_conflict": "already_reserved" if p["dup_first"] else "sold_out",
        "check_order": "(no_duplicate, has_room)" if p["dup_first"] else "(has_room, no_duplicate)",
        "reserve_head": reserve_head(p["missing_first"]),
        "foreign_code": "not_owner" if p["foreign_status"] == 403 else "not_found",
    }


def flip(key):
    """A trap value: the instance's template fragment for the other value of a boolean."""
    return lambda p: derive(p | {key: not p[key]})


FAMILY = Family(
    id="service/event_ticketing",
    title="An event-ticketing service with a waitlist, from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"o1": "olga", "o2": "omar", "a1": "ann", "a2": "ben", "a3": "cat", "a4": "dan",
              "token_prefix": "tk-", "org_role": "organiser", "att_role": "attendee",
              "seed_name": "jazz", "first_event": "Open Mic", "max_capacity": 500,
              "max_waitlist": 20, "max_seats": 4, "per_page_default": 3, "per_page_max": 10,
              "invalid_status": 422, "waitlisted_status": 202, "foreign_status": 403,
              "strict_queue": True, "missing_first": True, "dup_first": True},
    space={
        "users": [{"o1": "olga", "o2": "omar", "a1": "ann", "a2": "ben", "a3": "cat",
                   "a4": "dan", "token_prefix": "tk-"},
                  {"o1": "pia", "o2": "raj", "a1": "sue", "a2": "tom", "a3": "uma",
                   "a4": "vic", "token_prefix": "key_"}],
        "roles": [{"org_role": "organiser", "att_role": "attendee"},
                  {"org_role": "host", "att_role": "guest"}],
        "seed": [{"seed_name": "jazz", "first_event": "Open Mic"},
                 {"seed_name": "poetry", "first_event": "Book Swap"}],
        "limits": [{"max_capacity": 500, "max_waitlist": 20, "max_seats": 4},
                   {"max_capacity": 1000, "max_waitlist": 50, "max_seats": 6}],
        "paging": [{"per_page_default": 3, "per_page_max": 10},
                   {"per_page_default": 2, "per_page_max": 25}],
        "invalid_status": [422, 400],
        "waitlisted_status": [202, 201],
        "foreign_status": [403, 404],
        "strict_queue": [True, False],
        "missing_first": [True, False],
        "dup_first": [True, False],
    },
    derive=derive,
    instances=14,
    requirements=(
        Requirement("Every route needs a listed bearer token: else 401 `unauthenticated` with "
                    "`WWW-Authenticate: Bearer`, before anything else.",
                    probes="tokens_required",
                    traps=(Edit("no challenge", 'raise Fail(401, "unauthenticated", '
                                '{"WWW-Authenticate": "Bearer"})',
                                'raise Fail(401, "unauthenticated")'),
                           Edit("user name accepted as a token",
                                'if creds is None or creds.credentials not in USERS:',
                                'if creds is None or not any(creds.credentials in (t, u["name"]) '
                                'for t, u in USERS.items()):'))),
        Requirement("`GET /me` names the caller and the role (`${org_role}`, `${att_role}`).",
                    probes="me",
                    traps=Edit("me without role", "def me(user: AnyUser):\n    return user",
                               'def me(user: AnyUser):\n    return {"name": user["name"]}')),
        Requirement("The token, the role and, where the route says so, the event and its "
                    "organiser are checked before the body, even a body that is not JSON (then "
                    "${invalid_status} `invalid` naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Role-restricted routes answer 403 `forbidden` to the other role, before "
                    "the body is validated.",
                    probes="roles",
                    traps=(Edit("body validated before the role",
                                "def create_event(user: Organiser, body: EventIn, "
                                "response: Response):\n",
                                "def create_event(body: EventIn, user: AnyUser, "
                                "response: Response):\n    role(ORGANISER)(user)\n"),
                           Edit("organisers may list their reservations",
                                "def my_reservations(user: Attendee,",
                                "def my_reservations(user: AnyUser,"))),
        Requirement("`POST /events` answers 201 with the event (trimmed name, default waitlist "
                    "0, organised by the caller, ids after the seeds) and its `Location`.",
                    probes="create_event",
                    traps=(Edit("no Location on events",
                                '    response.headers["Location"] = f"/events/{event[\'id\']}"\n',
                                ""),
                           Edit("event ids from 1", 'NEXT = {"event": len(EVENTS) + 1,',
                                'NEXT = {"event": 1,'))),
        Requirement("Event bodies: trimmed name of 1-60, capacity 1-${max_capacity}, waitlist "
                    "0-${max_waitlist}, JSON integers only, no other fields; failures are "
                    "${invalid_status} `invalid` naming the fields.",
                    probes="event_validation",
                    traps=(Edit("numeric strings accepted",
                                "capacity: int = Field(ge=1, le=${max_capacity}, strict=True)",
                                "capacity: int = Field(ge=1, le=${max_capacity})"),
                           Edit("name length before trimming",
                                "    value = value.strip()\n    if not 1 <= len(value) <= 60:",
                                "    if not 1 <= len(value) <= 60:\n        raise ValueError("
                                "'length')\n    value = value.strip()\n    if not value:"),
                           Edit("waitlist unbounded",
                                "waitlist: int = Field(0, ge=0, le=${max_waitlist}, strict=True)",
                                "waitlist: int = Field(0, ge=0, strict=True)"),
                           Edit("validation status fixed at the other value",
                                "INVALID_STATUS = ${invalid_status}",
                                lambda p: "INVALID_STATUS = "
                                f"{422 if p['invalid_status'] == 400 else 400}"),
                           extras_ignored("event extras ignored", "EventIn"))),
        Requirement("`GET /events` filters by `q` (ignoring case), `organiser` and `has_seats`, "
                    "in id order, paged by `page` and `per_page` (1-${per_page_max}, default "
                    "${per_page_default}) with `total` counting every match.",
                    probes="list_events",
                    traps=(Edit("q case-sensitive", 'q.lower() in e["name"].lower()',
                                'q in e["name"]'),
                           Edit("total of the page", '"total": len(events)}',
                                '"total": len(events[start:start + per_page])}'),
                           Edit("has_seats counts waiting", '(e["booked"] < e["capacity"])',
                                '(e["booked"] + e["waiting"] < e["capacity"])'),
                           Edit("per_page unbounded", "Query(ge=1, le=${per_page_max})",
                                "Query(ge=1)"))),
        Requirement("`GET /events/{event_id}` shows the event with `booked` and `waiting`; an "
                    "unknown id is 404, a non-integer one invalid.",
                    # reserve reads an event after a 3-seat and a 1-seat reservation
                    probes=("read_event", "reserve"),
                    traps=Edit("booked counts reservations, not seats",
                               'return sum(r["seats"] for r in RESERVATIONS.values()',
                               'return sum(1 for r in RESERVATIONS.values()')),
        Requirement("`PATCH` changes the given fields (trimmed name, capacity); null or other "
                    "fields are invalid; a capacity below `booked` is 409 `below_booked` and "
                    "changes nothing.",
                    probes="update_event",
                    traps=(Edit("capacity below booked allowed",
                                '        raise Fail(409, "below_booked")\n',
                                "        pass\n"),
                           Edit("capacity equal to booked refused",
                                'changes["capacity"] < booked(event)',
                                'changes["capacity"] <= booked(event)'),
                           Edit("patch fields nullable",
                                "    name: Name = None\n    capacity: int = Field(None,",
                                "    name: Name | None = None\n    capacity: int | None = "
                                "Field(None,"))),
        Requirement("Another ${org_role}'s event answers ${foreign_status} `${foreign_code}` to "
                    "edits, deletion and its reservation list, after the 404 and before the "
                    "body and query are validated.",
                    probes="other_organisers_events",
                    traps=(Edit("ownership not checked",
                                '''    if event["organiser"] != user["name"]:
        raise Fail(${foreign_status}, ${foreign_code__repr})
''', ""),
                           Edit("ownership answers the other status",
                                "raise Fail(${foreign_status}, ${foreign_code__repr})",
                                lambda p: 'raise Fail(404, "not_found")'
                                if p["foreign_status"] == 403 else 'raise Fail(403, "not_owner")'),
                           Edit("ownership checked after the body",
                                "def update_event(event: OwnedEvent, body: EventPatch):\n",
                                "def update_event(event_id: int, body: EventPatch, "
                                "user: Organiser):\n    event = owned_event(event_id, user)\n"))),
        Requirement("Raising the capacity promotes the waitlist.",
                    probes="capacity_raise_promotes",
                    traps=Edit("no promotion on capacity change",
                               "    event.update(changes)\n    promote(event)\n",
                               "    event.update(changes)\n")),
        Requirement("An event is deleted (204, empty body, then 404) only while it has no "
                    "confirmed or waitlisted reservation: else 409 `has_reservations`.",
                    probes="delete_event",
                    traps=(Edit("waitlisted reservations do not block deletion",
                                'and r["status"] != "cancelled"\n'
                                '           for r in RESERVATIONS.values()):',
                                'and r["status"] == "confirmed"\n'
                                '           for r in RESERVATIONS.values()):'),
                           Edit("deleted event still readable",
                                '    del EVENTS[event["id"]]\n', "    pass\n"))),
        Requirement("A reservation that fits is confirmed: 201 with it and "
                    "`Location: /reservations/<id>`; `{}` reserves one seat.",
                    probes="reserve",
                    traps=(Edit("no Location on reservations",
                                '    response.headers["Location"] = f"/reservations/'
                                '{reservation[\'id\']}"\n', ""),
                           Edit("reservation without position",
                                'return {**reservation, "position": position}',
                                "return reservation"))),
        Requirement("`seats` is a JSON integer 1-${max_seats} (default 1) and the only field.",
                    probes="seats_validation",
                    traps=(Edit("seats off by one",
                                "seats: int = Field(1, ge=1, le=${max_seats}, strict=True)",
                                "seats: int = Field(1, ge=1, lt=${max_seats}, strict=True)"),
                           Edit("seats coerced",
                                "seats: int = Field(1, ge=1, le=${max_seats}, strict=True)",
                                "seats: int = Field(1, ge=1, le=${max_seats})"))),
        Requirement("A reservation that does not fit is waitlisted (${waitlisted_status}, with "
                    "its position and `Location`) while fewer than `waitlist` wait.",
                    probes="waitlist",
                    traps=(Edit("waitlisted answers the other status",
                                "response.status_code = ${waitlisted_status}",
                                lambda p: "response.status_code = "
                                f"{201 if p['waitlisted_status'] == 202 else 202}"),
                           Edit("positions from zero",
                                'waiting.index(reservation["id"]) + 1 if',
                                'waiting.index(reservation["id"]) if'))),
        Requirement("When it can be neither confirmed nor waitlisted it is 409 `sold_out`, "
                    "leaving nothing behind.",
                    probes="sold_out",
                    traps=(Edit("waitlist one too long",
                                'len(queue(event)) >= event["waitlist"]',
                                'len(queue(event)) > event["waitlist"]'),
                           Edit("sold-out request stored",
                                "    for check in ${check_order}:\n        check(event, user, "
                                "body.seats)\n",
                                "    for check in ${check_order}:\n        try:\n"
                                "            check(event, user, body.seats)\n"
                                "        except Fail as exc:\n"
                                "            if exc.code == 'sold_out':\n"
                                "                RESERVATIONS[NEXT['reservation']] = {"
                                "'id': NEXT['reservation'], 'event_id': event['id'], "
                                "'attendee': user['name'], 'seats': body.seats, "
                                "'status': 'cancelled'}\n"
                                "                NEXT['reservation'] += 1\n"
                                "            raise\n"))),
        Requirement("An attendee holds one confirmed or waitlisted reservation per event: "
                    "another is 409 `already_reserved`; after cancelling they may reserve again.",
                    probes="no_double_booking",
                    traps=(Edit("double booking allowed",
                                "    if active_reservation(event, user) is not None:\n"
                                '        raise Fail(409, "already_reserved")\n',
                                "    pass\n"),
                           Edit("cancelled reservations still count",
                                'and r["attendee"] == user["name"] and r["status"] != '
                                '"cancelled"), None)',
                                'and r["attendee"] == user["name"]), None)'))),
        Requirement("When both 409s apply, `${first_conflict}` wins.",
                    probes="duplicate_on_a_full_event",
                    traps=Edit("conflicts in the other order", "for check in ${check_order}:",
                               lambda p: "for check in " + flip("dup_first")(p)["check_order"]
                               + ":")),
        Requirement("A reservation for an unknown event is 404 ${missing_rule}; the role is "
                    "checked first.",
                    probes="unknown_event_reservation",
                    traps=Edit("event looked up at the other time",
                               "def reserve(${reserve_head}",
                               lambda p: "def reserve("
                               + flip("missing_first")(p)["reserve_head"])),
        Requirement("Cancelling: by the attendee or the event's organiser (others 404), 200 "
                    "with `cancelled` and a null position, then 409 `already_cancelled`; the "
                    "seats are freed.",
                    probes="cancel",
                    traps=(Edit("anyone cancels",
                                '    if user["name"] not in (reservation["attendee"], '
                                'event.get("organiser")):\n        raise Fail(404, "not_found")\n',
                                ""),
                           Edit("cancelling twice allowed",
                                '    if reservation["status"] == "cancelled":\n'
                                '        raise Fail(409, "already_cancelled")\n', ""))),
        Requirement("Promotion after a cancellation: ${promotion_rule}",
                    probes="promotion_order",
                    traps=(Edit("promotion rule of the other mode",
                                "        elif STRICT_QUEUE:\n            break\n",
                                lambda p: "        elif True:\n            break\n"
                                if not p["strict_queue"] else "        elif False:\n"
                                "            break\n"),
                           Edit("no promotion on cancel",
                                '    reservation["status"] = "cancelled"\n'
                                '    promote(EVENTS[reservation["event_id"]])\n',
                                '    reservation["status"] = "cancelled"\n'))),
        Requirement("A new reservation is confirmed when it fits ${fit_rule}.",
                    probes="new_reservation_behind_a_queue",
                    traps=Edit("newcomers rule of the other mode",
                               "    if STRICT_QUEUE and queue(event):\n",
                               "    if not STRICT_QUEUE and queue(event):\n")),
        Requirement("Positions are 1-based places among the waitlisted reservations, renumbered "
                    "when one leaves.",
                    probes="positions_after_leaving_the_queue",
                    traps=Edit("positions counted over all reservations",
                               'waiting = [r["id"] for r in queue(event)] if event else []',
                               'waiting = [r["id"] for r in sorted(RESERVATIONS.values(), '
                               'key=lambda r: r["id"]) if r["event_id"] == '
                               'reservation["event_id"] and r["status"] != "cancelled"]')),
        Requirement("The organiser lists an event's reservations by id, filtered by an exact "
                    "`status`.",
                    probes="event_reservations",
                    traps=Edit("status filter ignored",
                               'and (status is None or r["status"] == status)]',
                               "]")),
        Requirement("`GET /me/reservations` lists the caller's reservations of any status by "
                    "id, filtered by `event_id`.",
                    probes="my_reservations",
                    traps=(Edit("cancelled reservations hidden",
                                'if r["attendee"] == user["name"] and (event_id is None',
                                'if r["attendee"] == user["name"] and r["status"] != "cancelled" '
                                'and (event_id is None'),
                           Edit("event_id filter ignored",
                                'and (event_id is None or r["event_id"] == event_id)]',
                                "]"))),
        Requirement("A reservation is visible to its attendee and its event's organiser; to "
                    "others it is 404.",
                    probes="reservation_visibility",
                    traps=Edit("organisers see every reservation",
                               'if user["name"] not in (reservation["attendee"], '
                               'event.get("organiser")):',
                               'if user["role"] != ORGANISER and user["name"] != '
                               'reservation["attendee"]:')),
        Requirement("Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` "
                    "with `Allow`, in the error format.",
                    probes="unknown_paths_and_methods",
                    traps=(router_errors_in_fastapi_format(),
                           Edit("Allow dropped", "return failure(exc.status_code, code, "
                                "exc.headers)", "return failure(exc.status_code, code)"))),
        Requirement("OpenAPI declares one HTTP bearer scheme, used by every operation.",
                    probes="openapi_bearer_scheme",
                    traps=Edit("token read by hand",
                               "bearer = HTTPBearer(auto_error=False)",
                               "def bearer(authorization: Annotated[str | None, "
                               "__import__('fastapi').Header()] = None):\n"
                               "    scheme, _, token = (authorization or '').partition(' ')\n"
                               "    return HTTPAuthorizationCredentials(scheme=scheme, "
                               "credentials=token) if scheme == 'Bearer' and token else None")),
    ),
)
