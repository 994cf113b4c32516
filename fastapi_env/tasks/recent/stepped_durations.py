"""Recent-features tier, specified by reference to the installed feature: Pydantic 2.14.0's
``multiple_of`` constraint on ``timedelta`` (pydantic-core 2.50: "Add support for
``multiple_of`` constraint in ``fraction`` and ``timedelta`` core schemas", #13873, released
2026-10-08), used as ``Field(multiple_of=timedelta(...))`` on body fields and list items and as
``Query(multiple_of=...)`` on a query parameter. A rehearsal-studio booking API: session lengths
on a slot grid with bounds, pauses on a finer grid, a room's daily capacity, and a free-time
query counted in blocks.

The prompt names the feature and its arguments, says where the installed source is, and states
that the 422 errors are exactly what those constraints produce (compared whole), without
restating their format. What a model from memory gets wrong: until Pydantic 2.13 a
``timedelta`` accepted ``multiple_of`` and ignored it (an off-step length is a 201), so a model
that knows this hand-writes the check, and every hand-written version differs from the feature:
a validator's ``value_error`` ("Value error, ..."); an imitation of the error whose ``ctx``
renders the step as ``str(timedelta)`` (``0:15:00``) instead of Pydantic's words (``15
minutes``, ``1 hour and 30 minutes``, ``2 minutes and 30 seconds``); an after-validator whose
error carries the raw input (``"PT20M"``) where the constraint's carries the parsed duration
(FastAPI renders it as seconds, ``1200.0``), and which runs after the bounds, where the
constraint checks the step before them (an off-step value past the bound is a ``multiple_of``
error, not ``less_than_equal``)."""

from math import lcm

from fastapi_env.tasks import Edit, Family, Requirement

REFERENCE = '''\
from datetime import timedelta
from typing import Annotated, Literal

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

SLOT = ${slot_py}
LONGEST = ${longest_py}
PAUSE_STEP = ${pause_py}
DAY = ${day_py}
ROOMS = (${r1__repr}, ${r2__repr})
Room = Literal[${r1__repr}, ${r2__repr}]
Length = Annotated[timedelta, Field(multiple_of=SLOT, gt=timedelta(0), le=LONGEST)]
Pause = Annotated[timedelta, Field(multiple_of=PAUSE_STEP, ge=timedelta(0))]
Block = Annotated[timedelta, Query(multiple_of=SLOT, gt=timedelta(0))]


class BookingIn(BaseModel):
    room: Room
    length: Length
    pauses: list[Pause] = []


class Booking(BaseModel):
    id: int
    room: str
    length: timedelta
    pauses: list[timedelta]
    billed: timedelta


class Free(BaseModel):
    room: str
    left: timedelta
    blocks: int


BOOKINGS: dict[int, Booking] = {}
NEXT_ID = [1]
app = FastAPI()


def booked(room: str) -> timedelta:
    return sum((b.length for b in BOOKINGS.values() if b.room == room), timedelta(0))


def stored(booking_id: int) -> Booking:
    if booking_id not in BOOKINGS:
        raise HTTPException(404, "no such booking")
    return BOOKINGS[booking_id]


@app.post("/bookings", status_code=201)
def book(body: BookingIn) -> Booking:
    paused = sum(body.pauses, timedelta(0))
    if paused >= body.length:
        raise HTTPException(422, "pauses fill the session")
    if booked(body.room) + body.length > DAY:
        raise HTTPException(409, "room is full")
    booking = Booking(id=NEXT_ID[0], room=body.room, length=body.length, pauses=body.pauses,
                      billed=body.length - paused)
    NEXT_ID[0] += 1
    BOOKINGS[booking.id] = booking
    return booking


@app.get("/bookings/{booking_id}")
def read(booking_id: int) -> Booking:
    return stored(booking_id)


@app.delete("/bookings/{booking_id}", status_code=204)
def cancel(booking_id: int) -> None:
    del BOOKINGS[stored(booking_id).id]


@app.get("/rooms/{room}/free")
def free(room: str, block: Block = SLOT) -> Free:
    if room not in ROOMS:
        raise HTTPException(404, "no such room")
    left = DAY - booked(room)
    return Free(room=room, left=left, blocks=left // block)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
result = [
    row(client.post("/bookings", json={"room": ${r1__json}, "length": ${l1__json},
                                       "pauses": [${p1__json}]})),
    row(client.post("/bookings", json={"room": ${r1__json}, "length": ${bad1__json}})),
    row(client.get("/rooms/${r1}/free")),
    row(client.get("/rooms/${r1}/free", params={"block": ${badb__json}})),
]
'''

PROBES = '''\
S, LONGEST, P, DAY = ${slot_s}, ${longest_s}, ${pause_s}, ${day_s}
R1, R2 = ${r1__json}, ${r2__json}
CONSTRAINTS = ("multiple_of", "greater_than", "greater_than_equal", "less_than_equal")


def _hms(seconds):
    return f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}:{seconds % 60:02d}"


def _detail(r):
    """Constraint errors whole, other validation errors as [type, loc]."""
    detail = r.json()["detail"]
    if isinstance(detail, str):
        return detail
    return [e if e["type"] in CONSTRAINTS else [e["type"], e["loc"]] for e in detail]


def _public(body):
    return {k: v for k, v in body.items() if k != "id"}


def _try(client, body):
    """Book, answer [status, what it shows], and cancel what was booked."""
    r = client.post("/bookings", json=body)
    if r.status_code == 201:
        client.delete(f"/bookings/{r.json()['id']}")
        return [201, _public(r.json())]
    return [r.status_code, _detail(r)]


def probe_length_on_step(client):
    rows = []
    for length in [f"PT{S}S", S, 2 * S + 0.0, _hms(3 * S), f"PT{S}.000001S", S + 60, S - 1,
                   2 * S + 0.5, _hms(S + 30), f"PT{2 * S + 1}S", f"P0DT{S // 60 + 1}M"]:
        rows.append([length] + _try(client, {"room": R2, "length": length}))
    return rows


def probe_length_bounds(client):
    rows = []
    for length in [0, "PT0S", -S, -(S + 60), f"-PT{S}S", LONGEST, _hms(LONGEST), LONGEST + S,
                   LONGEST + 60, "P1D", 86400 + 60, LONGEST - S]:
        rows.append([length] + _try(client, {"room": R2, "length": length}))
    return rows


def probe_pause_items(client):
    rows = []
    for pauses in [None, [], [0], ["PT0S", P, 2 * P], [P + 1], [P, P - 1, 3 * P + 0.5, "PT1S"],
                   [-P, f"PT{P}S", _hms(P + 10), -1], ["soon", P + 2], [f"PT{P}.5S", 4 * P]]:
        body = {"room": R2, "length": LONGEST}
        if pauses is not None:
            body["pauses"] = pauses
        rows.append([pauses] + _try(client, body))
    return rows


def probe_pauses_fill_session(client):
    m = ${both_s}
    rows = []
    for pauses in [[m], [m - P, P], [m - P], [m + P], [P] * (m // P), [P] * (m // P - 1), [0]]:
        rows.append([len(pauses)] + _try(client, {"room": R2, "length": m, "pauses": pauses}))
    return rows


def probe_room_capacity(client):
    rows, mine = [], []
    lengths = [LONGEST] * (DAY // LONGEST) + ([DAY % LONGEST] if DAY % LONGEST else [])
    for length in lengths:
        r = client.post("/bookings", json={"room": R2, "length": length})
        rows.append([length, r.status_code])
        if r.status_code == 201:
            mine.append(r.json()["id"])
    for body in [{"room": R2, "length": S}, {"room": R2, "length": ${both_s}, "pauses": [${both_s}]},
                 {"room": R2, "length": S, "pauses": [P]}]:
        r = client.post("/bookings", json=body)
        rows.append([body, r.status_code, r.json()])
    rows.append(_try(client, {"room": R1, "length": S}))
    r = client.get(f"/rooms/{R2}/free")
    rows.append([r.status_code, r.json()])
    if mine:
        rows.append([client.delete(f"/bookings/{mine.pop(0)}").status_code])
    r = client.get(f"/rooms/{R2}/free")
    rows.append([r.status_code, r.json()])
    for length in [LONGEST, S]:
        r = client.post("/bookings", json={"room": R2, "length": length})
        rows.append([length, r.status_code, r.json() if r.status_code != 201 else "booked"])
        if r.status_code == 201:
            mine.append(r.json()["id"])
    for booking_id in mine:
        client.delete(f"/bookings/{booking_id}")
    r = client.get(f"/rooms/{R2}/free")
    rows.append([r.status_code, r.json()])
    return rows


def probe_free_blocks(client):
    rows = []
    for block in [None, f"PT{2 * S}S", _hms(S), f"PT{S + 60}S", f"PT{S}.5S", "PT0S",
                  f"-PT{S}S", f"PT{3 * S - 1}S", "later"]:
        params = {} if block is None else {"block": block}
        r = client.get(f"/rooms/{R1}/free", params=params)
        rows.append([block, r.status_code, r.json() if r.status_code == 200 else _detail(r)])
    for room, params in [(R2, {}), ("green", {}), ("green", {"block": f"PT{S + 60}S"}),
                         (R2, {"block": f"PT{S}S"})]:
        r = client.get(f"/rooms/{room}/free", params=params)
        rows.append([room, params, r.status_code,
                     r.json() if r.status_code == 200 else _detail(r)])
    return rows


def probe_reads_and_cancel(client):
    a = client.post("/bookings", json={"room": R1, "length": S, "pauses": [P]}).json()
    b = client.post("/bookings", json={"room": R1, "length": 2 * S}).json()
    read = client.get(f"/bookings/{a['id']}")
    rows = [[read.status_code, read.json() == a, _public(read.json())], [b["id"] - a["id"]]]
    rows.append([client.delete(f"/bookings/{a['id']}").status_code])
    for r in [client.get(f"/bookings/{a['id']}"), client.delete(f"/bookings/{a['id']}"),
              client.get("/bookings/999999"), client.delete("/bookings/999999")]:
        rows.append([r.status_code, r.json()])
    c = client.post("/bookings", json={"room": R1, "length": S}).json()
    rows.append([c["id"] - b["id"], _public(client.get(f"/bookings/{b['id']}").json())])
    for booking in [b, c]:
        client.delete(f"/bookings/{booking['id']}")
    return rows


def probe_other_validation(client):
    rows = []
    for body in [{"room": "green", "length": S}, {"room": R1}, {"length": S},
                 {"room": R1, "length": "soon"}, {"room": R1, "length": None},
                 {"room": R1.upper(), "length": S}, {"room": R1, "length": S, "pauses": "PT1M"}]:
        rows.append([body] + _try(client, body))
    return rows
'''

PROMPT = '''\
Build a rehearsal-studio booking API on a recent Pydantic feature: **`multiple_of` on
`timedelta`** (new in Pydantic 2.14.0 / pydantic-core 2.50: a `timedelta` declared with
`Field(multiple_of=timedelta(...))`, or FastAPI's `Query(multiple_of=...)`, must be a whole
multiple of that step; earlier releases accepted the argument on a `timedelta` and ignored it).
The installed packages' source is in the box: `/opt/venv/lib/python3.11/site-packages/pydantic/`
and `/opt/venv/lib/python3.11/site-packages/pydantic_core/` (its validators are compiled: run
them to see what they answer). State is in memory.

**Durations** are sent as Pydantic's `timedelta` reads them (in a JSON body an ISO 8601
duration such as `"PT1H30M"`, `"HH:MM:SS"`, or a number of seconds; in a query string the
string forms) and answered as Pydantic serializes a `timedelta` (ISO 8601, e.g. `"PT1H30M"`).

**A booking** `{"room", "length", "pauses"?}`:
- `room`: declared `Literal["${r1}", "${r2}"]`;
- `length`: a duration declared `Field(multiple_of=${slot_py}, gt=timedelta(0),
  le=${longest_py})`;
- `pauses`: a list of durations (default `[]`), each item declared
  `Field(multiple_of=${pause_py}, ge=timedelta(0))`.

A body that fails validation is FastAPI's standard 422. For a `length` or a pause that breaks
its constraints, the errors are exactly what those constraints produce through FastAPI's
standard handler (the checks compare every such error whole: `type`, `loc`, `msg`, `input`,
`ctx`); for any other failure (a missing field, another room, a value that is not a duration)
they compare each error's `type` and `loc`.

**Routes.**
- `POST /bookings`: after validation, a booking whose pauses add up to its length or more is
  422 `{"detail": "pauses fill the session"}`; then a booking that would take its room's booked
  total (the lengths of the room's current bookings) past `${day_py}` is 409
  `{"detail": "room is full"}` (reaching exactly `${day_py}` is fine). Otherwise 201 with
  `{"id", "room", "length", "pauses", "billed"}`, where `billed` is the length minus the pauses.
  Ids are 1, 2, 3, ... in creation order and never reused.
- `GET /bookings/{booking_id}`: 200 with the booking. `DELETE /bookings/{booking_id}`: 204 with
  no body; the booking is gone and its time is free again. An unknown id is 404
  `{"detail": "no such booking"}` on both.
- `GET /rooms/{room}/free?block=...`: `block` is a duration, default `${slot_py}`, declared
  `Query(multiple_of=${slot_py}, gt=timedelta(0))`; its failures are FastAPI's standard 422
  with exactly what those constraints produce (compared whole, as above; a `block` that is not
  a duration is compared by `type` and `loc`). 200 with `{"room", "left", "blocks"}`: `left` is
  `${day_py}` minus the room's booked total, `blocks` the number of whole `block`s that fit in
  `left`. An unknown room is 404 `{"detail": "no such room"}`; an invalid `block` is 422 first.

`result`: `[status code, JSON body]` of each of:
1. `POST /bookings` `{"room": "${r1}", "length": "${l1}", "pauses": ["${p1}"]}`
2. `POST /bookings` `{"room": "${r1}", "length": "${bad1}"}`
3. `GET /rooms/${r1}/free`
4. `GET /rooms/${r1}/free?block=${badb}`
'''

LENGTH = ("Length = Annotated[timedelta, Field(multiple_of=SLOT, gt=timedelta(0), "
          "le=LONGEST)]")
PAUSE = "Pause = Annotated[timedelta, Field(multiple_of=PAUSE_STEP, ge=timedelta(0))]"
BLOCK = "Block = Annotated[timedelta, Query(multiple_of=SLOT, gt=timedelta(0))]"
CHECKS = """\
    if paused >= body.length:
        raise HTTPException(422, "pauses fill the session")
    if booked(body.room) + body.length > DAY:
        raise HTTPException(409, "room is full")
"""


def _hand_step(raise_line, target="Length = Annotated[timedelta, Field(gt=timedelta(0), "
               "le=LONGEST)"):
    """The step checked by an after-validator instead of the constraint (bounds kept)."""
    return ("from pydantic import AfterValidator  # noqa: E402\n"
            "from pydantic_core import PydanticCustomError  # noqa: E402,F401\n\n\n"
            "def _on_step(value: timedelta) -> timedelta:\n"
            "    if value % SLOT:\n"
            f"        {raise_line}\n"
            "    return value\n\n\n"
            f"{target}, AfterValidator(_on_step)]")


VALUE_ERROR = 'raise ValueError(f"length must be a multiple of {SLOT}")'
IMITATED = ('raise PydanticCustomError("multiple_of", "Input should be a multiple of '
            '{multiple_of}", {"multiple_of": %s})')


def _derive(p):
    return {"both_s": lcm(p["slot_s"], p["pause_s"])}


def _valid(p):
    return (lcm(p["slot_s"], p["pause_s"]) <= p["longest_s"] and p["pause_s"] < p["slot_s"]
            and (p["day_s"] % p["longest_s"]) % p["slot_s"] == 0)


SLOT_KEYS = ("slot_py", "slot_s", "slot_text", "longest_py", "longest_s", "day_py", "day_s",
             "l1", "bad1", "badb")
# The slot grid, the longest session and a room's day, with the result rows' inputs.
SLOTS = [dict(zip(SLOT_KEYS, values, strict=True)) for values in [
    ("timedelta(minutes=15)", 900, "15 minutes", "timedelta(hours=4)", 14400,
     "timedelta(hours=8)", 28800, "PT1H30M", "PT50M", "PT25M"),
    ("timedelta(minutes=20)", 1200, "20 minutes", "timedelta(hours=3)", 10800,
     "timedelta(hours=6)", 21600, "PT1H", "PT1H10M", "PT30M"),
    ("timedelta(hours=1, minutes=30)", 5400, "1 hour and 30 minutes", "timedelta(hours=6)", 21600,
     "timedelta(hours=12)", 43200, "PT3H", "PT2H", "PT1H"),
    ("timedelta(minutes=45)", 2700, "45 minutes", "timedelta(hours=4, minutes=30)", 16200,
     "timedelta(hours=9)", 32400, "PT2H15M", "PT1H", "PT50M"),
    ("timedelta(minutes=10)", 600, "10 minutes", "timedelta(hours=2)", 7200,
     "timedelta(hours=5)", 18000, "PT40M", "PT25M", "PT15M"),
]]
PAUSES = [
    {"pause_py": "timedelta(minutes=5)", "pause_s": 300, "p1": "PT10M"},
    {"pause_py": "timedelta(seconds=90)", "pause_s": 90, "p1": "PT3M"},
    {"pause_py": "timedelta(minutes=2, seconds=30)", "pause_s": 150, "p1": "PT5M"},
]
ROOMS = [{"r1": "blue", "r2": "red"}, {"r1": "studio-a", "r2": "studio-b"}]

FAMILY = Family(
    id="recent/stepped_durations",
    title="Durations on a step grid with Pydantic 2.14's multiple_of on timedelta",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=SLOTS[0] | PAUSES[0] | ROOMS[0],
    space={"slot": SLOTS, "pause": PAUSES, "rooms": ROOMS},
    derive=_derive,
    valid=_valid,
    instances=12,
    requirements=(
        Requirement("`length` must be a multiple of `${slot_py}`: an off-step length is 422 "
                    "with exactly the error `Field(multiple_of=...)` produces.",
                    probes=("length_on_step",),
                    traps=(Edit("step ignored (Pydantic before 2.14)", LENGTH,
                                "Length = Annotated[timedelta, Field(gt=timedelta(0), "
                                "le=LONGEST)]"),
                           Edit("hand-written step check (value_error)", LENGTH,
                                _hand_step(VALUE_ERROR)),
                           Edit("imitated error, step rendered by str()", LENGTH,
                                _hand_step(IMITATED % "str(SLOT)")),
                           Edit("imitated error with Pydantic's words, raw input", LENGTH,
                                _hand_step(IMITATED % '"${slot_text}"')))),
        Requirement("`length` is greater than 0 and at most `${longest_py}`, with exactly the "
                    "errors `gt` and `le` produce beside `multiple_of`.",
                    probes=("length_bounds",),
                    traps=(Edit("zero length allowed", "multiple_of=SLOT, gt=timedelta(0), le",
                                "multiple_of=SLOT, ge=timedelta(0), le"),
                           Edit("longest length refused", "gt=timedelta(0), le=LONGEST)]",
                                "gt=timedelta(0), lt=LONGEST)]"),
                           Edit("no upper bound", "gt=timedelta(0), le=LONGEST)]",
                                "gt=timedelta(0))]"))),
        Requirement("Every pause is a multiple of `${pause_py}` and at least 0, each failing "
                    "item reported with its index, exactly as those constraints produce.",
                    probes=("pause_items",),
                    traps=(Edit("pause step ignored", PAUSE, "Pause = Annotated[timedelta, "
                                "Field(ge=timedelta(0))]"),
                           Edit("pauses on the slot's step", "multiple_of=PAUSE_STEP",
                                "multiple_of=SLOT"),
                           Edit("zero pause refused", "multiple_of=PAUSE_STEP, ge=",
                                "multiple_of=PAUSE_STEP, gt="),
                           Edit("pauses required", "pauses: list[Pause] = []",
                                "pauses: list[Pause]"))),
        Requirement("Pauses adding up to the length or more are 422 `pauses fill the session`; "
                    "`billed` is the length minus the pauses.",
                    probes=("pauses_fill_session",),
                    traps=(Edit("pauses may fill the session", "if paused >= body.length:",
                                "if paused > body.length:"),
                           Edit("billed is the whole length", "billed=body.length - paused)",
                                "billed=body.length)"))),
        Requirement("A room's bookings total at most `${day_py}` (409 `room is full` past it, "
                    "after the pauses check); a cancelled booking frees its time.",
                    probes=("room_capacity",),
                    traps=(Edit("exactly full refused", "+ body.length > DAY:",
                                "+ body.length >= DAY:"),
                           Edit("capacity checked before the pauses", CHECKS, """\
    if booked(body.room) + body.length > DAY:
        raise HTTPException(409, "room is full")
    if paused >= body.length:
        raise HTTPException(422, "pauses fill the session")
"""),
                           Edit("capacity shared by the rooms",
                                "for b in BOOKINGS.values() if b.room == room)",
                                "for b in BOOKINGS.values())"))),
        Requirement("`GET /rooms/{room}/free` counts whole blocks (default `${slot_py}`) in the "
                    "time left; `block` is 422 with exactly what `Query(multiple_of=..., gt=...)` "
                    "produces; an unknown room is 404 `no such room`.",
                    probes=("free_blocks",),
                    traps=(Edit("block step ignored (Pydantic before 2.14)", BLOCK,
                                "Block = Annotated[timedelta, Query(gt=timedelta(0))]"),
                           Edit("imitated block error with Pydantic's words, raw input", BLOCK,
                                _hand_step(IMITATED % '"${slot_text}"', "Block = Annotated["
                                           "timedelta, Query(gt=timedelta(0))")),
                           Edit("zero block allowed", "Query(multiple_of=SLOT, gt=",
                                "Query(multiple_of=SLOT, ge="),
                           Edit("default block is the longest", "block: Block = SLOT",
                                "block: Block = LONGEST"),
                           Edit("unknown room has a free day", """\
    if room not in ROOMS:
        raise HTTPException(404, "no such room")
""", ""))),
        Requirement("Bookings read back as stored, cancel with 204, ids are never reused, and "
                    "an unknown id is 404 `no such booking`.",
                    probes=("reads_and_cancel",),
                    traps=(Edit("ids reused", "id=NEXT_ID[0], room", "id=len(BOOKINGS) + 1, room"),
                           Edit("cancelling an unknown id is 500",
                                "del BOOKINGS[stored(booking_id).id]",
                                "del BOOKINGS[booking_id]"))),
        Requirement("Other invalid bodies (another room, a missing field, a value that is not "
                    "a duration) are FastAPI's standard 422.",
                    probes=("other_validation",),
                    traps=(Edit("any room", "    room: Room\n", "    room: str\n"),)),
    ),
)
