"""Repair tier: a multi-file room-booking API in /workspace with seven planted bugs (an
optional list query parameter read from the body, a confirmation queued on a fresh
BackgroundTasks that never runs, an alias that renames an output key, an error handler that
misses the router's own 404/405, a yield dependency that swallows the endpoint's exception, a
path parameter of the wrong type, exclude_none dropping a null the spec requires)."""

from fastapi_env.tasks import Edit, Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROW

SCHEMAS = '''\
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel


class RoomIn(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel)
    name: str = Field(min_length=1)
    price_per_night: int = Field(gt=0)
    amenities: list[str] = []


class RoomOut(BaseModel):
    id: int
    name: str
    price_per_night: int
    amenities: list[str]


class BookingIn(BaseModel):
    guest: str = Field(min_length=1)
    nights: int = Field(ge=1, le=${max_nights})
    note: str | None = None


class BookingOut(BaseModel):
    id: int
    room_id: int
    guest: str
    nights: int
    total: int
    note: str | None
'''

DB = '''\
ROOMS = {
    1: {"id": 1, "name": "${r1}", "price_per_night": ${p1}, "amenities": ["tv", "wifi"]},
    2: {"id": 2, "name": "${r2}", "price_per_night": ${p2}, "amenities": ["wifi"]},
    3: {"id": 3, "name": "${r3}", "price_per_night": ${p3}, "amenities": []},
}
BOOKINGS: dict[int, dict] = {}
OUTBOX: list[str] = []
JOURNAL: list[str] = []


class Session:
    def __init__(self):
        self.pending: list[tuple[int, dict]] = []

    def commit(self):
        for booking_id, booking in self.pending:
            BOOKINGS[booking_id] = booking
        self.pending.clear()


def get_session():
    session = Session()
    try:
        yield session
        session.commit()
    except Exception:
        JOURNAL.append("rollback")
        raise
'''

ROUTES = '''\
from typing import Annotated

from fastapi import APIRouter, BackgroundTasks, Depends, HTTPException, Query

import db
from schemas import BookingIn, BookingOut, RoomIn, RoomOut

router = APIRouter()


def send_confirmation(booking_id: int, guest: str) -> None:
    db.OUTBOX.append(f"booking {booking_id} confirmed for {guest}")


def find_room(room_id: int) -> dict:
    if room_id not in db.ROOMS:
        raise HTTPException(404, "room not found")
    return db.ROOMS[room_id]


@router.get("/rooms", response_model=list[RoomOut])
def list_rooms(amenity: Annotated[list[str] | None, Query()] = None):
    wanted = set(amenity or [])
    return [r for _, r in sorted(db.ROOMS.items()) if wanted <= set(r["amenities"])]


@router.post("/rooms", status_code=201, response_model=RoomOut)
def create_room(room: RoomIn):
    room_id = max(db.ROOMS) + 1
    db.ROOMS[room_id] = {"id": room_id, **room.model_dump()}
    return db.ROOMS[room_id]


@router.get("/rooms/{room_id}", response_model=RoomOut)
def read_room(room_id: int):
    return find_room(room_id)


@router.post("/rooms/{room_id}/bookings", status_code=201, response_model=BookingOut)
def book(
    room_id: int,
    booking: BookingIn,
    background: BackgroundTasks,
    session: Annotated[db.Session, Depends(db.get_session)],
):
    room = find_room(room_id)
    if any(b["room_id"] == room_id for b in db.BOOKINGS.values()):
        raise HTTPException(409, "room already booked")
    booking_id = len(db.BOOKINGS) + 1
    record = {"id": booking_id, "room_id": room_id, **booking.model_dump(),
              "total": booking.nights * room["price_per_night"]}
    session.pending.append((booking_id, record))
    background.add_task(send_confirmation, booking_id, booking.guest)
    return record


@router.get("/bookings/{booking_id}", response_model=BookingOut)
def read_booking(booking_id: int):
    if booking_id not in db.BOOKINGS:
        raise HTTPException(404, "booking not found")
    return db.BOOKINGS[booking_id]


@router.get("/outbox")
def outbox():
    return {"messages": db.OUTBOX, "journal": db.JOURNAL}
'''

SOLUTION = '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException

from routes import router

app = FastAPI()
app.include_router(router)


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": {"status": exc.status_code, "message": exc.detail}},
                        status_code=exc.status_code, headers=exc.headers)


client = TestClient(app)
result = [
    [client.get("/rooms", params={"amenity": "tv"}).json()],
    [client.post("/rooms/2/bookings", json={"guest": "${guest}", "nights": 2}).json()],
    [client.get("/bookings/1").json()],
    [client.get("/outbox").json()],
]
'''

_LIST_AS_BODY = Edit("amenity list read from the body",
                     "amenity: Annotated[list[str] | None, Query()] = None",
                     "amenity: list[str] | None = None", file="routes.py")
_FRESH_TASKS = Edit("confirmation queued on a fresh BackgroundTasks", '''    background.add_task(send_confirmation, booking_id, booking.guest)''',
                    '''    tasks = BackgroundTasks()
    tasks.add_task(send_confirmation, booking_id, booking.guest)''', file="routes.py")
_ALIAS = Edit("output model renamed to camelCase", "class RoomOut(BaseModel):\n",
              "class RoomOut(BaseModel):\n"
              "    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)\n",
              file="schemas.py")
_FASTAPI_ONLY = Edit("handler misses the router's own errors",
                     "from starlette.exceptions import HTTPException",
                     "from fastapi import HTTPException")
_SWALLOWED = Edit("session swallows the endpoint's exception", '''        JOURNAL.append("rollback")
        raise
''', '''        JOURNAL.append("rollback")
''', file="db.py")
_STR_PATH = Edit("room id typed as text", "def read_room(room_id: int):",
                 "def read_room(room_id: str):", file="routes.py")
_NO_NULLS = Edit("nulls dropped from bookings",
                 '@router.get("/bookings/{booking_id}", response_model=BookingOut)',
                 '@router.get("/bookings/{booking_id}", response_model=BookingOut,\n'
                 '            response_model_exclude_none=True)', file="routes.py")

FILES = {"schemas.py": SCHEMAS, "db.py": DB, "routes.py": ROUTES}
PLANTED = (_LIST_AS_BODY, _FRESH_TASKS, _ALIAS, _FASTAPI_ONLY, _SWALLOWED, _STR_PATH, _NO_NULLS)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = ROW + '''

def probe_amenity_filter_reads_the_query(client):
    rows = []
    for params in [{}, {"amenity": "wifi"}, {"amenity": ["wifi", "tv"]}, {"amenity": "pool"}]:
        r = client.get("/rooms", params=params)
        rows.append([params, r.status_code, [x["id"] for x in r.json()]])
    return rows


def probe_confirmation_is_sent(client):
    r = client.post("/rooms/3/bookings", json={"guest": "zoe", "nights": 1})
    return [[r.status_code, r.json()["total"]], client.get("/outbox").json()["messages"]]


def probe_rooms_use_snake_case_out_and_camel_case_in(client):
    r = client.post("/rooms", json={"name": "Loft", "pricePerNight": ${p1} + 5,
                                    "amenities": ["tv"]})
    rows = [_row(r), _row(client.get(f"/rooms/{r.json()['id']}"))]
    bad = client.post("/rooms", json={"name": "Snake", "price_per_night": 10})
    rows.append([bad.status_code, [e["loc"] for e in bad.json()["detail"]]])
    return rows


def probe_every_error_has_the_error_format(client):
    return [_row(client.get("/nowhere")), _row(client.delete("/rooms")),
            _row(client.get("/rooms/99")), _row(client.get("/bookings/99")),
            _row(client.post("/rooms/99/bookings", json={"guest": "x", "nights": 1}))]


def probe_conflict_is_409_and_rolled_back(client):
    r = client.post("/rooms/2/bookings", json={"guest": "late", "nights": 3})
    return [_row(r), client.get("/outbox").json()["journal"],
            [client.get("/bookings/3").status_code]]


def probe_room_lookup_by_id(client):
    return [_row(client.get("/rooms/1")), _row(client.get("/rooms/abc"))]


def probe_booking_shows_null_note(client):
    client.post("/rooms/1/bookings", json={"guest": "noted", "nights": 1, "note": "late"})
    return [_row(client.get("/bookings/1")), _row(client.get("/bookings/3"))]


def probe_nights_bounds(client):
    rows = []
    for nights in [0, ${max_nights} + 1, "two"]:
        r = client.post("/rooms/1/bookings", json={"guest": "b", "nights": nights})
        rows.append([nights, r.status_code])
    return rows
'''

FAMILY = Family(
    id="repair/booking_api",
    title="Repair a multi-file room-booking API that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a room-booking API: `solution.py` and the modules it imports
(`schemas.py`, `db.py`, `routes.py`). It should behave as described below but does not, in
several ways. Find and fix every deviation (edit or rewrite any file); `solution.py` must keep
defining `app` and `result`.

**State** starts with three rooms:

| id | name | price_per_night | amenities |
|---|---|---|---|
| 1 | ${r1} | ${p1} | tv, wifi |
| 2 | ${r2} | ${p2} | wifi |
| 3 | ${r3} | ${p3} | (none) |

**Errors.** Every error other than request validation (which keeps FastAPI's standard 422
body) has the body `{"error": {"status": <code>, "message": <text>}}`: 404 `room not found`,
404 `booking not found`, 409 `room already booked`, and for a path that matches no route 404
`Not Found` (405 `Method Not Allowed` for a known path with another method).

**Routes.**
- `GET /rooms?amenity=...` (repeatable): 200, the rooms having every listed amenity, by id.
- `POST /rooms` with `{"name", "pricePerNight", "amenities"?}` (request keys in camelCase;
  price > 0): 201 with the room, shown as `{"id", "name", "price_per_night", "amenities"}`
  (response keys in snake_case); the new id is one more than the largest.
- `GET /rooms/{room_id}`: 200 with the room, or 404.
- `POST /rooms/{room_id}/bookings` with `{"guest", "nights" (1 to ${max_nights}), "note"?}`:
  404 if the room does not exist; 409 if the room already has a booking (either failure stores
  nothing and appends `"rollback"` to the journal); else 201 with the booking
  `{"id", "room_id", "guest", "nights", "total" (nights x price), "note"}` (ids 1, 2, ... in
  order) and, after the response, a confirmation message
  `booking <id> confirmed for <guest>` is appended to the outbox.
- `GET /bookings/{booking_id}`: 200 with the booking (every key present, `note` null when not
  given), or 404.
- `GET /outbox`: 200 `{"messages": [...], "journal": [...]}`.

`result` has four rows, each `[the JSON body]` of:
1. `GET /rooms?amenity=tv`
2. `POST /rooms/2/bookings` with `{"guest": "${guest}", "nights": 2}`
3. `GET /bookings/1`
4. `GET /outbox`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={"r1": "Sea View", "r2": "Garden", "r3": "Attic", "p1": 120, "p2": 90, "p3": 60,
              "max_nights": 14, "guest": "mia"},
    space={
        "r1": [{"r1": "Sea View", "r2": "Garden", "r3": "Attic"},
               {"r1": "Summit", "r2": "Cabin", "r3": "Bunk"}],
        "p1": [{"p1": 120, "p2": 90, "p3": 60}, {"p1": 200, "p2": 150, "p3": 45}],
        "max_nights": [14, 7],
        "guest": ["mia", "theo"],
    },
    instances=8,
    requirements=(
        Requirement("`GET /rooms` filters by every `amenity` given in the query string.",
                    probes=("amenity_filter_reads_the_query",), traps=(_LIST_AS_BODY,)),
        Requirement("A booking's confirmation reaches the outbox after the response.",
                    probes=("confirmation_is_sent",), traps=(_FRESH_TASKS,)),
        Requirement("Room bodies use `pricePerNight`; responses show `price_per_night`.",
                    probes=("rooms_use_snake_case_out_and_camel_case_in",), traps=(_ALIAS,)),
        Requirement("Every non-validation error, the router's 404/405 included, has the error "
                    "format.",
                    probes=("every_error_has_the_error_format",), traps=(_FASTAPI_ONLY,)),
        Requirement("Booking a booked room is 409 `room already booked`; a failed booking "
                    "stores nothing and journals a rollback.",
                    probes=("conflict_is_409_and_rolled_back",), traps=(_SWALLOWED,)),
        Requirement("`GET /rooms/{room_id}` finds rooms by their integer id.",
                    probes=("room_lookup_by_id",), traps=(_STR_PATH,)),
        Requirement("`GET /bookings/{id}` shows every key, `note` null when not given.",
                    probes=("booking_shows_null_note",), traps=(_NO_NULLS,)),
        Requirement("Nights are 1 to ${max_nights} (else 422).",
                    probes=("nights_bounds",),
                    traps=(Edit("nights unbounded", "nights: int = Field(ge=1, le=${max_nights})",
                                "nights: int = Field(ge=1)", file="schemas.py"),)),
    ),
)
