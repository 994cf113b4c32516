"""Service tier: a restaurant's table reservations specified like a product document (8 routes,
bearer tokens with guest, host and manager roles, seeded tables, two-hour bookings on quarter
hours within opening hours counted in UTC, overlaps per table, contacts lower-cased before they
are checked, strict integer party sizes, a repeated table filter, a strict date and a strict
boolean in the query, offset pagination with a total header, partial edits where null clears,
soft cancellation, seating, a day report, and one `{"error": ...}` format).

Most rules are ones the obvious FastAPI app gets silently wrong on the pinned packages (see
`_core_body_after_auth`): auth before a malformed body, bodies without a JSON Content-Type, exact paths,
HEAD, a complete `Allow`, a pattern checked after lower-casing, JSON-only integers, date-times
that are not numbers, `Z` rather than `+00:00`, a repeated query parameter, `true`-only booleans
and `YYYY-MM-DD`-only dates (Pydantic's `date` takes `0` and midnight date-times). The
parameters change the people, the tables, the opening hours, the largest party, the page sizes,
the validation status, the notes bound and which of two refusals wins."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.service._core_body_after_auth import (
    ACCESS_AND_ERRORS,
    CORE,
    ROW_HELPERS,
    listed_ids_helper,
    plumbing_probes,
    plumbing_requirements,
    plumbing_traps,
    token_table,
)
from fastapi_env.tasks.traps import (
    lax_integers,
    null_fields_ignored,
    pattern_checked_before_case,
    repeated_filter_traps,
    total_of_the_page,
)

REFERENCE = CORE + '''\
from datetime import date, timedelta

from pydantic import AfterValidator

TOKENS = {"${t_g1}": "${g1}", "${t_g2}": "${g2}", "${t_h}": "${h}", "${t_m}": "${m}"}
ROLES = {"${g1}": "guest", "${g2}": "guest", "${h}": "host", "${m}": "manager"}
TABLES = {code: {"code": code, "seats": seats} for code, seats in ${tables__repr}}
TableCode = Literal[${table_literal}]
RESERVATIONS: dict[int, dict] = {}
NEXT_ID = {"reservation": 1}
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
OPEN_HOUR, CLOSE_HOUR = ${open_hour}, ${close_hour}
SITTING = timedelta(hours=2)
HOLDING = ("booked", "seated")  # these hold their table

Guest = role("guest")
Host = role("host")
Manager = role("manager")
GuestOrHost = role("guest", "host")
CONTACT = re.compile(r"[a-z0-9._-]+@[a-z0-9-]+(\\.[a-z0-9-]+)+")


def new_id() -> int:
    NEXT_ID["reservation"] += 1
    return NEXT_ID["reservation"] - 1


def trim(value):
    return value.strip() if isinstance(value, str) else value


def real_date(text: str) -> date:
    return date.fromisoformat(text)


# `YYYY-MM-DD` only: Pydantic's own date also takes numbers and midnight date-times.
DateText = Annotated[str, Query(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$$"), AfterValidator(real_date)]


class Contact(BaseModel):
    @field_validator("contact", check_fields=False)
    @classmethod
    def contact_address(cls, value):
        # Trimmed and lower-cased before the address is checked: `Ana@X.ORG` is `ana@x.org`.
        address = value.strip().lower()
        if not CONTACT.fullmatch(address):
            raise ValueError("a contact is an e-mail address")
        return address

    @field_validator("notes", mode="before", check_fields=False)
    @classmethod
    def trimmed(cls, value):
        return trim(value)


class ReservationIn(Contact):
    model_config = ConfigDict(extra="forbid")
    table: str
    party_size: StrictInt = Field(ge=1, le=${party_max})
    starts_at: AwareDatetime
    contact: str
    notes: str | None = Field(default=None, min_length=1, max_length=${notes_max})

    @field_validator("starts_at", mode="before")
    @classmethod
    def starts_text(cls, value):
        return iso_text_only(value)

    @field_validator("starts_at")
    @classmethod
    def on_a_quarter(cls, value):
        if value.minute % 15 or value.second or value.microsecond:
            raise ValueError("bookings start on a quarter hour")
        return value


class ReservationPatch(Contact):
    model_config = ConfigDict(extra="forbid")
    # An absent field is unchanged; null notes clear them, a null party size or contact is invalid.
    party_size: StrictInt = Field(default=None, ge=1, le=${party_max})
    contact: str = None
    notes: str | None = Field(default=None, min_length=1, max_length=${notes_max})

    @model_validator(mode="after")
    def changes_something(self):
        if not self.model_fields_set:
            raise ValueError("an edit changes at least one field")
        return self


BookingBody = json_body(ReservationIn)
PatchBody = json_body(ReservationPatch)


def ensure_seats(table: dict, party_size: int) -> None:
    if party_size > table["seats"]:
        raise Failure(409, "too_many_guests")


def ensure_open(start: datetime) -> None:
    start = start.astimezone(timezone.utc)
    opens = start.replace(hour=OPEN_HOUR, minute=0, second=0)
    if not (opens <= start and start + SITTING <= opens.replace(hour=CLOSE_HOUR)):
        raise Failure(409, "outside_hours")


def check_seats(table: dict, booking: ReservationIn) -> None:
    ensure_seats(table, booking.party_size)


def check_hours(table: dict, booking: ReservationIn) -> None:
    ensure_open(booking.starts_at)


def ensure_free(table: dict, starts: str, ends: str) -> None:
    for other in RESERVATIONS.values():
        if (other["table"] == table["code"] and other["status"] in HOLDING
                and starts < other["ends_at"] and other["starts_at"] < ends):
            raise Failure(409, "table_taken")


def visible(reservation_id: int, name: str) -> dict:
    found = RESERVATIONS.get(reservation_id)
    if found is None or (ROLES[name] == "guest" and found["guest"] != name):
        raise Failure(404, "unknown_reservation")
    return found


def ensure_booked(reservation: dict) -> None:
    if reservation["status"] != "booked":
        raise Failure(409, "not_booked")


@app.api_route("/tables", methods=["GET", "HEAD"])
def list_tables(name: Caller, min_seats: Annotated[int, Query(ge=1)] = 1):
    return [t for code, t in sorted(TABLES.items()) if t["seats"] >= min_seats]


@app.post("/reservations", status_code=201)
def book(name: Guest, booking: BookingBody, response: Response):
    table = TABLES.get(booking.table.strip().upper())
    if table is None:
        raise Failure(404, "unknown_table")
    for check in (${booking_checks}):
        check(table, booking)
    starts, ends = utc_text(booking.starts_at), utc_text(booking.starts_at + SITTING)
    ensure_free(table, starts, ends)
    record = {"id": new_id(), "table": table["code"], "guest": name,
              "party_size": booking.party_size, "starts_at": starts, "ends_at": ends,
              "contact": booking.contact, "notes": booking.notes, "status": "booked"}
    RESERVATIONS[record["id"]] = record
    response.headers["Location"] = f"/reservations/{record['id']}"
    return record


@app.api_route("/reservations", methods=["GET", "HEAD"])
def list_reservations(name: Caller, response: Response,
                      table: Annotated[list[TableCode] | None, Query()] = None,
                      on: DateText = None,
                      include_cancelled: Literal["true", "false"] = "false",
                      limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT,
                      offset: Annotated[int, Query(ge=0)] = 0):
    shown = [r for r in sorted(RESERVATIONS.values(), key=lambda r: (r["starts_at"], r["id"]))
             if (ROLES[name] != "guest" or r["guest"] == name)
             and (not table or r["table"] in table)
             and (on is None or r["starts_at"][:10] == on.isoformat())
             and (include_cancelled == "true" or r["status"] != "cancelled")]
    response.headers["X-Total-Count"] = str(len(shown))
    return shown[offset:offset + limit]


@app.api_route("/reservations/{reservation_id}", methods=["GET", "HEAD"])
def read_reservation(reservation_id: int, name: Caller):
    return visible(reservation_id, name)


@app.patch("/reservations/{reservation_id}")
def edit_reservation(reservation_id: int, name: Guest, change: PatchBody):
    reservation = visible(reservation_id, name)
    ensure_booked(reservation)
    if "party_size" in change.model_fields_set:
        ensure_seats(TABLES[reservation["table"]], change.party_size)
    reservation.update(change.model_dump(include=change.model_fields_set))
    return reservation


@app.delete("/reservations/{reservation_id}", status_code=204)
def cancel_reservation(reservation_id: int, name: GuestOrHost):
    reservation = visible(reservation_id, name)
    ensure_booked(reservation)
    reservation["status"] = "cancelled"


@app.post("/reservations/{reservation_id}/seat")
def seat_party(reservation_id: int, name: Host):
    reservation = visible(reservation_id, name)
    ensure_booked(reservation)
    reservation["status"] = "seated"
    return reservation


@app.api_route("/reports/day", methods=["GET", "HEAD"])
def day_report(name: Manager, on: DateText):
    that_day = [r for r in RESERVATIONS.values()
                if r["starts_at"][:10] == on.isoformat() and r["status"] in HOLDING]
    return {"on": on.isoformat(),
            "booked": sum(r["status"] == "booked" for r in that_day),
            "seated": sum(r["status"] == "seated" for r in that_day),
            "guests": sum(r["party_size"] for r in that_day),
            "by_table": {code: sum(r["table"] == code for r in that_day) for code in sorted(TABLES)}}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
g1 = {"Authorization": "Bearer ${t_g1}"}
result = [
    row(client.post("/reservations", json={"table": "${shown_table}", "party_size": 2,
                                           "starts_at": "${shown_at}",
                                           "contact": ${shown_contact__json}}, headers=g1)),
    row(client.get("/reservations/1", headers=g1)),
    row(client.get("/tables", headers=g1)),
]
'''

PROBES = '''\
import json

''' + ROW_HELPERS + '''
G1, G2 = _bearer("${t_g1}"), _bearer("${t_g2}")
H, M = _bearer("${t_h}"), _bearer("${t_m}")
HOLDER, STAFF = G1, M
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
OPEN, LAST_START = ${open_hour}, ${close_hour} - 2
BIG, BIG_SEATS, SMALL, SMALL_SEATS = ${big__json}, ${big_seats}, ${small__json}, ${small_seats}
PARTY_MAX = ${party_max}
CREATE_PATH = "/reservations"
DAYS = iter(range(1, 10000))


def _day():
    """A day no other probe books: ISO text of 2030-01-01 plus a counter."""
    import datetime
    return (datetime.date(2030, 1, 1) + datetime.timedelta(days=next(DAYS))).isoformat()


def _at(day, hour, minute=0, offset="Z"):
    return f"{day}T{hour:02d}:{minute:02d}:00{offset}"


def _create_body():
    return {"table": BIG, "party_size": 2, "starts_at": _at(_day(), OPEN),
            "contact": "probe@example.org"}


def _book(client, who=G1, day=None, hour=OPEN, table=BIG, **changes):
    body = {"table": table, "party_size": 2, "starts_at": _at(day or _day(), hour),
            "contact": "guest@example.org"} | changes
    return client.post("/reservations", json=body, headers=who)


def _some_id(client):
    return _book(client).json()["id"]


def _shown(reservation):
    return {k: v for k, v in reservation.items() if k != "id"}
''' + listed_ids_helper("/reservations") + plumbing_probes(
    exact=[("GET", "/reservations/"), ("POST", "/reservations/"), ("GET", "/tables/"),
           ("POST", "/reservations/1/seat/")],
    methods=[("PUT", "/reservations"), ("DELETE", "/reservations"), ("PUT", "/reservations/1"),
             ("POST", "/reservations/1"), ("GET", "/reservations/1/seat"), ("POST", "/tables"),
             ("PATCH", "/reports/day")],
    heads=["/tables", "/reservations", "/reservations/{id}", "/reports/day?on=2029-12-31"],
    bodies=[("POST", "/reservations"), ("PATCH", "/reservations/{id}")]) + '''

def probe_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Bearer"},
                    {"Authorization": "Bearer nope"}, _bearer("${g1}"),
                    _bearer("${t_g1}".upper()), {"Authorization": "bearer ${t_g1}"},
                    {"Authorization": "BeArEr ${t_g1}"}, {"Authorization": "Token ${t_g1}"},
                    {"Authorization": "${t_g1}"}]:
        r = client.get("/tables", headers=headers)
        rows.append([headers.get("Authorization"), r.status_code, r.headers.get("www-authenticate"),
                     r.json() if r.status_code != 200 else len(r.json())])
    for method, path in [("POST", "/reservations"), ("GET", "/reservations"),
                         ("GET", "/reservations/abc"), ("PATCH", "/reservations/1"),
                         ("DELETE", "/reservations/1"), ("POST", "/reservations/1/seat"),
                         ("GET", "/reports/day")]:
        r = client.request(method, path, json={}, headers={"Authorization": "Bearer ${g1}"})
        rows.append([method, path, _code(r), r.headers.get("www-authenticate")])
    return rows


def probe_roles(client):
    rows = []
    for who in (G1, H, M):
        rows += [_code(client.post("/reservations", json={}, headers=who)),
                 _code(client.patch("/reservations/99999", json={}, headers=who)),
                 _code(client.delete("/reservations/99999", headers=who)),
                 _code(client.post("/reservations/99999/seat", headers=who)),
                 _code(client.get("/reports/day", params={"on": "x"}, headers=who))]
    return rows


def probe_error_format(client):
    return [_row(client.get("/nowhere", headers=G1)),
            _row(client.get("/reservations/abc", headers=G1)),
            _row(client.post("/reservations", json={"party_size": 0, "colour": 1, "contact": "x"},
                             headers=G1)),
            _row(client.post("/reservations", json=[1], headers=G1)),
            _row(client.post("/reservations", headers=G1)),
            _row(client.get("/reservations", params={"limit": "ten", "table": "Z9"}, headers=M))]


def probe_booking(client):
    day = _day()
    r = _book(client, G1, day, table=" " + SMALL.lower() + " ", notes="  window please ",
              contact="  Kim@Example.ORG ")
    rows = [[r.status_code, r.headers.get("location") == f"/reservations/{r.json()['id']}",
             _shown(r.json())]]
    r = _book(client, G2, day, hour=OPEN + 1)
    rows.append([r.status_code, _shown(r.json())])
    rows += [_code(_book(client, G1, table="Z9")), _code(_book(client, G1, table=""))]
    for notes in ["n" * ${notes_max}, "n" * (${notes_max} + 1), "   ", None]:
        r = _book(client, G1, notes=notes)
        rows.append([r.status_code, len(r.json().get("notes") or "") if r.status_code == 201
                     else r.json()["fields"]])
    return rows


def probe_contact(client):
    rows = []
    for contact in ["  Ana.Lee@Example.ORG ", "ana@x.org", "ANA@X.ORG", "ana@x", "ana x@y.org",
                    "", "@x.org", 42]:
        r = _book(client, G1, contact=contact)
        rows.append([contact, [201, r.json()["contact"]] if r.status_code == 201 else _code(r)])
    return rows


def probe_party_integers(client):
    rows = []
    for size in [1, BIG_SEATS, 0, PARTY_MAX + 1, True, "2", 2.0, 2.5, None]:
        r = _book(client, G1, party_size=size)
        rows.append([size, [201, r.json()["party_size"], type(r.json()["party_size"]).__name__]
                     if r.status_code == 201 else _code(r)])
    return rows


def _unix_seconds(year, hour):
    """A number Pydantic would read as a valid start: January 1st at `hour` UTC."""
    import datetime
    return int(datetime.datetime(year, 1, 1, hour, tzinfo=datetime.timezone.utc).timestamp())


def probe_start_input(client):
    rows = []
    for label, start in [("quarter", lambda d: _at(d, OPEN, 15)),
                         ("+00:00", lambda d: _at(d, OPEN + 1, 45, "+00:00")),
                         ("ten past", lambda d: _at(d, OPEN, 10)),
                         ("seconds", lambda d: f"{d}T{OPEN:02d}:30:30Z"),
                         ("naive", lambda d: f"{d}T{OPEN:02d}:00:00"), ("date", lambda d: d),
                         ("number", lambda d: _unix_seconds(2031, OPEN)),
                         ("word", lambda d: "tonight"),
                         ("null", lambda d: None)]:
        r = _book(client, G2, starts_at=start(_day()))
        rows.append([label, r.status_code if r.status_code == 201 else _code(r)])
    return rows


def probe_start_utc(client):
    rows = []
    for offset, hours, minutes in [("+02:00", 2, 0), ("-05:00", -5, 0), ("Z", 0, 0),
                                   ("+00:00", 0, 0), ("+05:30", 5, 30)]:
        day = _day()  # each start is this day, OPEN + 1 o'clock in UTC
        r = _book(client, G1, starts_at=_at(day, OPEN + 1 + hours, minutes, offset))
        made = r.json()
        read = client.get(f"/reservations/{made.get('id')}", headers=H).json()
        rows.append([offset, r.status_code, made.get("starts_at", "")[10:],
                     made.get("ends_at", "")[10:], read.get("starts_at", "")[10:],
                     made.get("starts_at", "")[:10] == day])
    return rows


def probe_booking_checks(client):
    day, other_day = _day(), _day()
    too_many = SMALL_SEATS + 1
    late = _at(day, LAST_START, 15)
    return [
        ["crowd late", _code(_book(client, G1, table=SMALL, party_size=too_many, starts_at=late))],
        ["crowd", _code(_book(client, G1, day, OPEN, SMALL, party_size=too_many))],
        ["late", _code(_book(client, G1, table=SMALL, starts_at=late))],
        ["early", _code(_book(client, G1, table=SMALL, starts_at=_at(day, OPEN - 1, 45)))],
        ["opening", _book(client, G1, day, OPEN, BIG).status_code],
        ["last start", _book(client, G1, day, LAST_START, SMALL).status_code],
        ["open in UTC, not locally", _book(client, G2, table=BIG, starts_at=_at(
            other_day, OPEN + 1 - 5, 0, "-05:00")).status_code],
        ["open locally, not in UTC", _code(_book(client, G2, table=SMALL, starts_at=_at(
            other_day, OPEN + 1, 0, "+02:00")))],
        ["full party", _book(client, G2, _day(), OPEN, SMALL, party_size=SMALL_SEATS).status_code],
    ]


def probe_overlaps(client):
    day = _day()
    first = _book(client, G1, day, OPEN + 2, BIG).json()["id"]
    rows = [[label, _code(r) if r.status_code != 201 else 201] for label, r in [
        ("same start", _book(client, G2, day, OPEN + 2, BIG)),
        ("an hour before", _book(client, G2, day, OPEN + 1, BIG)),
        ("45 minutes after", _book(client, G2, starts_at=_at(day, OPEN + 2, 45), table=BIG)),
        ("other table", _book(client, G2, day, OPEN + 2, SMALL)),
        ("ends at its start", _book(client, G2, day, OPEN, BIG)),
        ("starts at its end", _book(client, G2, day, OPEN + 4, BIG))]]
    client.delete(f"/reservations/{first}", headers=G1)
    rows.append(["after cancelling", _book(client, G2, day, OPEN + 2, BIG).status_code])
    return rows


def probe_visibility(client):
    mine, theirs = _book(client, G1).json()["id"], _book(client, G2).json()["id"]
    rows = []
    for label, who in [("g1", G1), ("g2", G2), ("h", H), ("m", M)]:
        ids = _ids(client, who)
        rows.append([label, mine in ids, theirs in ids,
                     client.get(f"/reservations/{mine}", headers=who).status_code,
                     _code(client.get(f"/reservations/{theirs}", headers=who))])
    rows.append(_code(client.get("/reservations/99999", headers=M)))
    return rows


def probe_table_filter(client):
    day = _day()
    made = [_book(client, G2, day, OPEN, table).json()["id"] for table in (BIG, SMALL)]
    rows = [[query, [made.index(i) for i in _ids(client, G2, params | {"on": day}) if i in made]]
            for query, params in [("none", {}), ("big", {"table": BIG}),
                                  ("both", {"table": [SMALL, BIG]}),
                                  ("other", {"table": "${other_table}"})]]
    rows.append(_code(client.get("/reservations", params={"table": [BIG, "Z9"]}, headers=G2)))
    return rows


def probe_date_filter(client):
    day, later = _day(), _day()
    made = [_book(client, G2, day, OPEN).json()["id"], _book(client, G2, later, OPEN).json()["id"],
            _book(client, G2, day, OPEN + 2, SMALL).json()["id"]]
    rows = []
    for value in [day, later, day + "T00:00:00", "0", "1900000000", day.replace("-", ""),
                  later[:8] + "32", " " + day]:
        r = client.get("/reservations", params={"on": value}, headers=G2)
        rows.append([value == day or value == later, r.status_code,
                     [made.index(x["id"]) for x in r.json() if x["id"] in made]
                     if r.status_code == 200 else r.json()])
    return rows


def probe_cancelled_filter(client):
    day = _day()
    kept = _book(client, G1, day, OPEN).json()["id"]
    gone = _book(client, G1, day, OPEN + 2).json()["id"]
    client.delete(f"/reservations/{gone}", headers=G1)
    rows = []
    for value in [None, "false", "true", "yes", "1", "True", "TRUE", "on", ""]:
        params = {"on": day} | ({} if value is None else {"include_cancelled": value})
        r = client.get("/reservations", params=params, headers=G1)
        rows.append([value, r.status_code, [x["id"] == kept for x in r.json()]
                     if r.status_code == 200 else r.json()])
    return rows


def probe_pagination(client):
    day = _day()
    made = [_book(client, G2, day, hour, table).json()["id"] for hour, table in [
        (OPEN + 2, BIG), (OPEN, BIG), (OPEN + 1, "${other_table}"), (OPEN, SMALL)]]
    r = client.get("/reservations", params={"on": day}, headers=G2)
    rows = [[[made.index(x["id"]) for x in r.json()], r.headers.get("x-total-count")]]
    for _ in range(LIMIT_DEFAULT + 2):
        _book(client, G2)
    total = int(client.get("/reservations", headers=G2).headers["x-total-count"])
    for params in [{}, {"limit": 1}, {"limit": LIMIT_MAX}, {"offset": total - 1},
                   {"offset": total}, {"offset": total + 5, "limit": 2}]:
        r = client.get("/reservations", params=params, headers=G2)
        rows.append([params, r.status_code, len(r.json()),
                     r.headers.get("x-total-count") == str(total)])
    for params in [{"limit": 0}, {"limit": LIMIT_MAX + 1}, {"offset": -1}]:
        rows.append([params, _code(client.get("/reservations", params=params, headers=G2))])
    return rows


def probe_partial_edit(client):
    reservation = _book(client, G1, table=SMALL, notes="quiet").json()["id"]
    rows = []
    for change in [{"party_size": SMALL_SEATS}, {"notes": "  birthday "}, {"notes": None},
                   {"contact": " New@Mail.ORG "}, {"party_size": None}, {"contact": None},
                   {"party_size": SMALL_SEATS + 1}, {}, {"notes": "x", "table": BIG},
                   {"party_size": "3"}]:
        r = client.patch(f"/reservations/{reservation}", json=change, headers=G1)
        body = r.json()
        rows.append([change, r.status_code, body.get("fields", body.get("error", [
            body.get("party_size"), body.get("contact"), body.get("notes")]))])
    return rows


def probe_edit_rules(client):
    reservation = _book(client, G1).json()["id"]
    rows = [_code(client.patch(f"/reservations/{reservation}", json={"notes": "x"}, headers=G2)),
            _code(client.patch("/reservations/99999", json={"notes": "x"}, headers=G1))]
    client.post(f"/reservations/{reservation}/seat", headers=H)
    rows += [_code(client.patch(f"/reservations/{reservation}", json={"notes": "x"}, headers=G1)),
             _code(client.patch(f"/reservations/{reservation}", json={"party_size": 99},
                                headers=G1)),
             [client.get(f"/reservations/{reservation}", headers=G1).json()["notes"]]]
    return rows


def probe_cancel(client):
    day = _day()
    first = _book(client, G1, day).json()["id"]
    r = client.delete(f"/reservations/{first}", headers=G1)
    rows = [[r.status_code, r.content == b""],
            [client.get(f"/reservations/{first}", headers=G1).json()["status"]],
            _code(client.delete(f"/reservations/{first}", headers=G1))]
    second = _book(client, G2, day).json()["id"]
    rows += [["new id", second > first], _code(client.delete(f"/reservations/{second}", headers=G1))]
    r = client.delete(f"/reservations/{second}", headers=H)
    rows.append([r.status_code, client.get(f"/reservations/{second}", headers=M).json()["status"]])
    return rows


def probe_seating(client):
    reservation = _book(client, G1).json()["id"]
    rows = [_code(client.post("/reservations/99999/seat", headers=H))]
    r = client.post(f"/reservations/{reservation}/seat", headers=H)
    rows += [[r.status_code, r.json()["status"]],
             _code(client.post(f"/reservations/{reservation}/seat", headers=H)),
             _code(client.delete(f"/reservations/{reservation}", headers=G1))]
    cancelled = _book(client, G1).json()["id"]
    client.delete(f"/reservations/{cancelled}", headers=G1)
    rows.append(_code(client.post(f"/reservations/{cancelled}/seat", headers=H)))
    return rows


def probe_day_report(client):
    day = _day()
    booked = _book(client, G1, day, OPEN, BIG, party_size=2).json()["id"]
    seated = _book(client, G2, day, OPEN, SMALL, party_size=SMALL_SEATS).json()["id"]
    gone = _book(client, G2, day, OPEN + 2, BIG, party_size=1).json()["id"]
    client.post(f"/reservations/{seated}/seat", headers=H)
    client.delete(f"/reservations/{gone}", headers=G2)
    r = client.get("/reports/day", params={"on": day}, headers=M)
    report = r.json()
    rows = [[r.status_code, report["on"] == day, report["booked"], report["seated"],
             report["guests"], report["by_table"]], [booked > 0]]
    for params in [{}, {"on": day + "T00:00:00"}, {"on": "0"}]:
        rows.append([params, _code(client.get("/reports/day", params=params, headers=M))])
    return rows


def probe_tables(client):
    rows = []
    for params in [{}, {"min_seats": BIG_SEATS}, {"min_seats": 1}, {"min_seats": 99}]:
        r = client.get("/tables", params=params, headers=G2)
        rows.append([params, r.status_code, r.json()])
    rows.append(_code(client.get("/tables", params={"min_seats": 0}, headers=G2)))
    return rows
'''


PROMPT = '''\
Build the HTTP API of a restaurant's table reservations. All state is in memory. Tables are fixed
(the table below); there are no reservations at the start, and reservation ids are 1, 2, ... in
creation order, never reused.

''' + ACCESS_AND_ERRORS + '''
## Tables
`{"code", "seats"}`:

${tables_table}

- `GET /tables` (anyone): 200, the tables sorted by code with at least `min_seats` seats (an
  optional integer >= 1, default 1).

## Reservations
`{"id", "table", "guest", "party_size", "starts_at", "ends_at", "contact", "notes", "status"}`;
status `booked`, `seated` or `cancelled`. A reservation holds its table for two hours from its
start (`ends_at`); `booked` and `seated` ones hold it, `cancelled` ones do not.

Reservation bodies, fields:
- `table`: a string naming the table: it is trimmed and upper-cased, then looked up (no such
  table is 404 `unknown_table`, below, not an invalid request);
- `party_size`: a JSON integer, 1-${party_max} (`"2"`, `2.0` and `true` are invalid);
- `starts_at`: a string, an ISO 8601 date-time with a UTC offset or `Z` (a date-time without
  one, a bare date and numbers are invalid), on a quarter hour (minutes 00, 15, 30 or 45, zero
  seconds, else invalid); reservations show `starts_at` and `ends_at` converted to UTC, as
  `YYYY-MM-DDTHH:MM:SSZ`;
- `contact`: a string; it is trimmed and lower-cased, and the result must be an e-mail address:
  one or more of `a-z 0-9 . _ -`, `@`, then two or more parts of `a-z 0-9 -` separated by dots
  (`  Ana@Example.ORG ` is `ana@example.org`);
- `notes`: optional, a string trimmed then 1-${notes_max} characters, or null (the default).

The restaurant opens at ${open_hour}:00 and closes at ${close_hour}:00, UTC: a reservation must start
no earlier than opening and end no later than closing.

Routes:
- `POST /reservations` (guest) with a reservation body: 404 `unknown_table`; then
  ${first_check}; then ${second_check}; then 409 `table_taken` when a reservation holding the
  same table overlaps these two hours (one ending exactly at this start, or starting exactly at
  this end, does not). (409 `too_many_guests`: the party is larger than the table's seats; 409
  `outside_hours`: it starts before opening or ends after closing.) Else 201 with the
  reservation (status `booked`, `guest` the caller) and `Location: /reservations/<id>`.
- `GET /reservations` (anyone): 200, sorted by `starts_at`, then id: a guest's own reservations,
  everyone's for the host and the manager. Query parameters: `table`, repeatable
  (`?table=T1&table=T2` keeps both; each must be exactly a table code); `on`, a date written
  exactly `YYYY-MM-DD` (anything else, `2026-06-01T00:00:00` or a number included, is invalid),
  keeping the reservations starting that day in UTC; `include_cancelled`, exactly `true` or
  `false` (default `false`: cancelled reservations are left out; any other value, `1`, `yes`
  or `True` included, is invalid); `limit` 1-${limit_max} (default ${limit_default}) and
  `offset` >= 0 (default 0). The header `X-Total-Count` is the number of reservations matching
  before `limit` and `offset` apply.
- `GET /reservations/{reservation_id}` (anyone): 200 with it; 404 `unknown_reservation` when
  there is none or, for a guest, it is another guest's.
- `PATCH /reservations/{reservation_id}` (guest) with a JSON object of `party_size`, `contact`
  and/or `notes` (same rules as above): an absent field is unchanged; `"notes": null` clears the
  notes; a null `party_size` or `contact` is invalid, and so is `{}`. 404
  `unknown_reservation` (missing or another guest's); then 409 `not_booked` unless it is
  `booked`; then 409 `too_many_guests` for a party larger than its table's seats. Else 200 with
  the reservation.
- `DELETE /reservations/{reservation_id}` (guest, host): cancels it: the same 404 (a guest
  cancels only their own) and 409 `not_booked`; else 204 with no body; it stays readable with
  status `cancelled`.
- `POST /reservations/{reservation_id}/seat` (host): 404 `unknown_reservation`; then 409
  `not_booked`; else 200 with the reservation, now `seated`.
- `GET /reports/day` (manager) with the query parameter `on` (required, a `YYYY-MM-DD` date as
  above): 200 `{"on", "booked", "seated", "guests", "by_table"}` over the reservations starting
  that day in UTC that are not cancelled: how many are booked, how many seated, the sum of their
  party sizes, and the number per table code (every code present, in code order).

## result
One row per request, `[status code, JSON body]`, each as `${g1}`:
1. `POST /reservations` with `{"table": "${shown_table}", "party_size": 2, "starts_at":
   "${shown_at}", "contact": ${shown_contact__json}}`
2. `GET /reservations/1`
3. `GET /tables`
'''


def _derive(p):
    people = token_table(p, {"g1": "guest", "g2": "guest", "h": "host", "m": "manager"})
    seats = dict(p["tables"])
    tables = "\n".join(["| code | seats |", "|---|---|"]
                       + [f"| `{code}` | {n} |" for code, n in sorted(seats.items())])
    order = p["booking_order"].split(",")
    codes = {"seats": "409 `too_many_guests`", "hours": "409 `outside_hours`"}
    functions = {"seats": "check_seats", "hours": "check_hours"}
    return people | {
        "tables_table": tables,
        "table_literal": ", ".join(f'"{code}"' for code in sorted(seats)),
        "big_seats": seats[p["big"]], "small_seats": seats[p["small"]],
        "booking_checks": ", ".join(functions[k] for k in order) + ",",
        "first_check": codes[order[0]], "second_check": codes[order[1]]}


PLUMBING = plumbing_traps(
    first_get='@app.api_route("/tables", methods=["GET", "HEAD"])',
    body_param="def book(name: Guest, booking: BookingBody, response: Response):",
    plain_param="def book(name: Guest, booking: ReservationIn, response: Response):")

REQUIREMENTS = plumbing_requirements(
    PLUMBING,
    token_trap=Edit("tokens matched ignoring case",
                    "    if scheme.lower() != \"bearer\" or token not in TOKENS:\n",
                    "    token = {k.lower(): k for k in TOKENS}.get(token.lower(), token)\n"
                    "    if scheme.lower() != \"bearer\" or token not in TOKENS:\n"),
    role_traps=(Edit("role checked after the body",
                     "def edit_reservation(reservation_id: int, name: Guest, change: PatchBody):",
                     "def edit_reservation(reservation_id: int, change: PatchBody, name: Guest):"),
                Edit("the host acts as manager", 'Manager = role("manager")',
                     'Manager = role("manager", "host")')),
) + (
    Requirement("`POST /reservations` answers 201 with `Location`, the table code normalised, "
                "`ends_at` two hours on; notes trimmed and bounded; 404 `unknown_table`.",
                probes=("booking",),
                traps=(Edit("no Location for reservations",
                            "    response.headers[\"Location\"] = f\"/reservations/{record['id']}\"\n",
                            ""),
                       Edit("table codes exact", "TABLES.get(booking.table.strip().upper())",
                            "TABLES.get(booking.table)"))),
    Requirement("Contacts are trimmed and lower-cased before they must be an e-mail address.",
                probes=("contact",),
                traps=pattern_checked_before_case("contact", "to_lower",
                                                  "^[a-z0-9._-]+@[a-z0-9-]+([.][a-z0-9-]+)+$$")),
    Requirement("`party_size` is a JSON integer, 1-${party_max}: strings, floats and booleans "
                "are invalid.",
                probes=("party_integers",),
                traps=(lax_integers("    party_size: StrictInt = Field(ge=1, le=${party_max})\n"),
                       Edit("party bound off by one",
                            "    party_size: StrictInt = Field(ge=1, le=${party_max})\n",
                            "    party_size: StrictInt = Field(ge=1, le=${party_max} + 1)\n"))),
    Requirement("`starts_at` is an ISO 8601 string with an offset, on a quarter hour: naive "
                "date-times, dates and numbers are invalid.",
                probes=("start_input",),
                traps=(Edit("numbers taken as Unix seconds", "        return iso_text_only(value)\n",
                            "        return value\n"),
                       Edit("any minute accepted", "        if value.minute % 15 or value.second",
                            "        if value.second"))),
    Requirement("Reservations show `starts_at` and `ends_at` in UTC as `YYYY-MM-DDTHH:MM:SSZ`.",
                probes=("start_utc",),
                traps=(Edit("UTC shown as +00:00",
                            "    starts, ends = utc_text(booking.starts_at), utc_text(booking.starts_at + SITTING)\n",
                            "    starts = booking.starts_at.astimezone(timezone.utc).isoformat()\n"
                            "    ends = (booking.starts_at + SITTING).astimezone(timezone.utc).isoformat()\n"),
                       Edit("times shown as sent",
                            "    starts, ends = utc_text(booking.starts_at), utc_text(booking.starts_at + SITTING)\n",
                            "    starts = booking.starts_at.isoformat()\n"
                            "    ends = (booking.starts_at + SITTING).isoformat()\n"))),
    Requirement("`POST /reservations` refuses ${first_check}, then ${second_check}; opening hours "
                "are UTC, both ends included.",
                probes=("booking_checks",),
                traps=(Edit("booking checks swapped", "    for check in (${booking_checks}):",
                            "    for check in reversed((${booking_checks})):"),
                       Edit("hours in the local time", "    start = start.astimezone(timezone.utc)\n",
                            ""),
                       Edit("the last sitting refused", "start + SITTING <= opens.replace(hour=CLOSE_HOUR)",
                            "start + SITTING < opens.replace(hour=CLOSE_HOUR)"))),
    Requirement("409 `table_taken` for an overlap on the same table; touching ends and "
                "cancelled reservations do not count.",
                probes=("overlaps",),
                traps=(Edit("touching reservations overlap",
                            'starts < other["ends_at"] and other["starts_at"] < ends',
                            'starts <= other["ends_at"] and other["starts_at"] <= ends'),
                       Edit("cancelled reservations hold the table",
                            'and other["status"] in HOLDING', ""))),
    Requirement("Guests see only their own reservations (404 `unknown_reservation` otherwise); "
                "staff see all.",
                probes=("visibility",),
                traps=(Edit("guests list every reservation",
                            '             if (ROLES[name] != "guest" or r["guest"] == name)\n'
                            "             and (not table",
                            "             if (not table"),
                       Edit("guests read every reservation",
                            '    if found is None or (ROLES[name] == "guest" and found["guest"] != name):',
                            "    if found is None:"))),
    Requirement("`GET /reservations` keeps the reservations of any of the repeated `table` "
                "codes.",
                probes=("table_filter",),
                traps=repeated_filter_traps(
                    "table: Annotated[list[TableCode] | None, Query()] = None,", "table",
                    "TableCode")),
    Requirement("`on` is a `YYYY-MM-DD` date only (numbers and date-times are invalid) and keeps "
                "the reservations starting that UTC day.",
                probes=("date_filter",),
                traps=(Edit("lenient dates",
                            'DateText = Annotated[str, Query(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$$"), AfterValidator(real_date)]',
                            "DateText = Annotated[date, Query()]"),)),
    Requirement("`include_cancelled` is exactly `true` or `false`, default `false` (cancelled "
                "ones left out).",
                probes=("cancelled_filter",),
                traps=(Edit("include_cancelled as a lenient boolean",
                            'include_cancelled: Literal["true", "false"] = "false",',
                            "include_cancelled: bool = False,"),
                       Edit("cancelled listed by default",
                            'include_cancelled: Literal["true", "false"] = "false",',
                            'include_cancelled: Literal["true", "false"] = "true",'))),
    Requirement("Lists sort by `starts_at` then id; `limit` 1-${limit_max} (default "
                "${limit_default}), `offset` >= 0; `X-Total-Count` counts every match.",
                probes=("pagination",),
                traps=(Edit("sorted by id", 'key=lambda r: (r["starts_at"], r["id"])',
                            'key=lambda r: r["id"]'),
                       total_of_the_page())),
    Requirement("`PATCH` changes only the fields sent; null notes clear them; a null party size "
                "or contact and `{}` are invalid; the seats still bound the party.",
                probes=("partial_edit",),
                traps=(null_fields_ignored("reservation"),
                       Edit("edits ignore the seats",
                            '''    if "party_size" in change.model_fields_set:
        ensure_seats(TABLES[reservation["table"]], change.party_size)
''', ""))),
    Requirement("Only the reservation's guest edits it (404 otherwise), and only while `booked` "
                "(409 `not_booked`).",
                probes=("edit_rules",),
                traps=(Edit("seated reservations edited",
                            "    reservation = visible(reservation_id, name)\n"
                            "    ensure_booked(reservation)\n    if \"party_size\"",
                            "    reservation = visible(reservation_id, name)\n    if \"party_size\""),)),
    Requirement("Cancelling (guest or host) answers 204 with no body and keeps the reservation "
                "as `cancelled`; twice is 409 `not_booked`; ids are never reused.",
                probes=("cancel",),
                traps=(Edit("cancelling deletes",
                            '    reservation["status"] = "cancelled"',
                            "    del RESERVATIONS[reservation_id]"),
                       Edit("cancelling answers 200",
                            '@app.delete("/reservations/{reservation_id}", status_code=204)',
                            '@app.delete("/reservations/{reservation_id}")'),
                       Edit("hosts may not cancel", 'GuestOrHost = role("guest", "host")',
                            'GuestOrHost = role("guest")'))),
    Requirement("The host seats booked reservations only: 404, then 409 `not_booked`.",
                probes=("seating",),
                traps=(Edit("seating twice", '''    ensure_booked(reservation)
    reservation["status"] = "seated"''', '''    reservation["status"] = "seated"'''),)),
    Requirement("The day report counts that UTC day's booked and seated reservations, their "
                "guests, and every table; `on` is required.",
                probes=("day_report",),
                traps=(Edit("cancelled counted in the report",
                            'if r["starts_at"][:10] == on.isoformat() and r["status"] in HOLDING]',
                            'if r["starts_at"][:10] == on.isoformat()]'),
                       Edit("tables without reservations left out",
                            '"by_table": {code: sum(r["table"] == code for r in that_day) for code in sorted(TABLES)}}',
                            '"by_table": {code: sum(r["table"] == code for r in that_day) for code in sorted(TABLES)\n'
                            '                         if any(r["table"] == code for r in that_day)}}'))),
    Requirement("`GET /tables` lists the tables by code with at least `min_seats` (>= 1) seats.",
                probes=("tables",),
                traps=(Edit("min_seats unbounded", "min_seats: Annotated[int, Query(ge=1)] = 1",
                            "min_seats: int = 1"),
                       Edit("min_seats exclusive", 'if t["seats"] >= min_seats]',
                            'if t["seats"] > min_seats or min_seats == 1]'))),
)


TABLES_A = {"tables": [["B1", 6], ["P2", 4], ["T1", 2], ["T2", 4]], "big": "B1", "small": "T1",
            "other_table": "T2", "party_max": 8, "shown_table": " t2"}
TABLES_B = {"tables": [["A1", 8], ["A2", 2], ["C3", 4], ["W4", 6]], "big": "A1", "small": "C3",
            "other_table": "W4", "party_max": 12, "shown_table": "c3 "}

FAMILY = Family(
    id="service/restaurant_reservations",
    title="A restaurant's table reservations from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"g1": "kim", "g2": "luis", "h": "hugo", "m": "maya", "tp": "rs-",
              "invalid_status": 422, "limit_max": 30, "limit_default": 10,
              "open_hour": 17, "close_hour": 23, **TABLES_A, "booking_order": "seats,hours",
              "notes_max": 200, "shown_at": "2026-06-05T20:30:00+02:00",
              "shown_contact": " Kim@Example.ORG"},
    space={
        # Tokens never show in a response: their prefix varies with the names, which do.
        "people": [{"g1": "kim", "g2": "luis", "h": "hugo", "m": "maya", "tp": "rs-"},
                   {"g1": "noor", "g2": "otto", "h": "ines", "m": "raj", "tp": "tbl."}],
        "invalid_status": [422, 400],
        "pages": [{"limit_max": 30, "limit_default": 10}, {"limit_max": 15, "limit_default": 4}],
        "hours": [{"open_hour": 17, "close_hour": 23}, {"open_hour": 11, "close_hour": 22}],
        "layout": [TABLES_A, TABLES_B],
        "booking_order": ["seats,hours", "hours,seats"],
        "notes_max": [200, 80],
        "shown": [{"shown_at": "2026-06-05T20:30:00+02:00", "shown_contact": " Kim@Example.ORG"},
                  {"shown_at": "2026-06-06T19:45:00+01:00", "shown_contact": "GUEST@MAIL.NET "}],
    },
    derive=_derive,
    instances=12,
    requirements=REQUIREMENTS,
)
