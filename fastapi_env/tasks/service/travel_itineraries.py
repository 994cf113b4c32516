"""Service tier: a travel agency's itineraries specified like a product document (10 routes,
bearer tokens with agents, customers and an auditor, itineraries with dates, travellers, tags and
a booking link, priced segments inside the trip, confirmation and cancellation, limit/offset
paging with a total-count header and a repeatable tag filter, and a flat `{"error": code}`
format).

Pitfalls a natural implementation meets on the pinned packages (each one a requirement): a
`Decimal` with `decimal_places=2` accepts `"12.500"` and JSON numbers; a `Decimal` in a returned
dict is sent as a JSON float; `date` accepts `0` (1970-01-01) and midnight date-times; lax `int`
accepts `"3"`, `3.0` and `true`; `list[str] | None = None` without `Query()` is read from the
body, so the tag filter is silently ignored; `HttpUrl` rewrites the link it echoes; plus the
shared ones of `_core_dotted_fields` (HEAD, trailing slashes, router headers, bodies without a
Content-Type). The parameters change the names, the most travellers, the page sizes, the segment
kinds and which itineraries may be deleted."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.service._core_dotted_fields import (
    PROBES_HEAD,
    PROMPT_RULES,
    REFERENCE_HEAD,
    common_requirements,
    credentials_before_json_requirement,
    validation_format_requirement,
)
from fastapi_env.tasks.traps import ids_recomputed

REFERENCE = REFERENCE_HEAD + '''
TOKENS = {"${tok_a}": {"name": "${name_a}", "role": "agent"},
          "${tok_u}": {"name": "${name_u}", "role": "auditor"},
          "${tok_c}": {"name": "${name_c}", "role": "customer"},
          "${tok_d}": {"name": "${name_d}", "role": "customer"}}
CUSTOMERS = ("${name_c}", "${name_d}")
MAX_TRAVELLERS = ${max_travellers}
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
DELETABLE = ${deletable__repr}
CENT = Decimal("0.01")
TRIPS: dict[int, dict] = {}
NEXT_ID = [1]

Kind = Literal[${kind_literals}]
Tag = Annotated[str, Field(pattern=r"^[a-z0-9-]{1,20}$$")]


def date_text(value):
    """Dates are `YYYY-MM-DD` texts only: `date` alone would take 0 or a midnight date-time."""
    if not isinstance(value, str) or len(value) != 10:
        raise ValueError("a YYYY-MM-DD text")
    return value


Day = Annotated[date, BeforeValidator(date_text)]


def clean_tags(value):
    if not isinstance(value, list):
        return value
    if len(value) > 5:  # the limit counts the list as sent, before repeats are dropped
        raise ValueError("at most 5 tags")
    tags = [t.strip().lower() if isinstance(t, str) else t for t in value]
    return list(dict.fromkeys(tags))


class TripFields(BaseModel):
    model_config = ConfigDict(extra="forbid")
    title: Annotated[str, Field(min_length=1, max_length=60)] = None
    start_date: Day = None
    end_date: Day = None
    travellers: StrictInt = Field(default=None, ge=1, le=MAX_TRAVELLERS)
    tags: list[Tag] = None
    booking_url: Annotated[str, Field(pattern=r"^https?://[^\\s]{1,200}$$")] = None

    @field_validator("title", mode="before")
    @classmethod
    def trim_title(cls, value):
        return trimmed(value)

    @field_validator("tags", mode="before")
    @classmethod
    def normalise_tags(cls, value):
        return clean_tags(value)


class TripIn(TripFields):
    customer: str
    title: Annotated[str, Field(min_length=1, max_length=60)]
    start_date: Day
    end_date: Day
    travellers: StrictInt = Field(ge=1, le=MAX_TRAVELLERS)
    tags: list[Tag] = []
    booking_url: Annotated[str, Field(pattern=r"^https?://[^\\s]{1,200}$$")] | None = None


class SegmentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: Kind
    day: Day
    price: str = Field(pattern=r"^[0-9]{1,6}(\\.[0-9]{1,2})?$$")
    description: Annotated[str, Field(max_length=80)] = ""


def money(amount: Decimal) -> str:
    return str(amount.quantize(CENT))


def view(trip: dict) -> dict:
    segments = sorted(trip["segments"].values(), key=lambda s: (s["day"], s["id"]))
    total = sum((s["price"] for s in segments), Decimal("0"))
    return {**{k: v for k, v in trip.items() if k not in ("segments", "next_segment")},
            "start_date": trip["start_date"].isoformat(), "end_date": trip["end_date"].isoformat(),
            "segments": [{**s, "day": s["day"].isoformat(), "price": money(s["price"])}
                         for s in segments],
            "total": money(total)}


def visible(who: dict, trip: dict) -> bool:
    return who["role"] != "customer" or trip["customer"] == who["name"]


def trip_for(who: dict, trip_id: int) -> dict:
    """Another customer's itinerary answers exactly like a missing one."""
    trip = TRIPS.get(trip_id)
    if trip is None or not visible(who, trip):
        raise Refused(404, "unknown_itinerary")
    return trip


def ordered(start: date, end: date) -> None:
    if end < start:
        raise Refused(400, "dates_out_of_order")


def editable(trip: dict) -> None:
    if trip["status"] != "draft":
        raise Refused(409, "itinerary_locked")


@app.post("/itineraries", status_code=201)
def create_trip(body: TripIn, who: Annotated[dict, allowed("agent")], response: Response):
    if body.customer not in CUSTOMERS:
        raise Refused(400, "unknown_customer")
    ordered(body.start_date, body.end_date)
    trip = {"id": NEXT_ID[0], **body.model_dump(), "status": "draft", "segments": {},
            "next_segment": 1}
    NEXT_ID[0] += 1
    TRIPS[trip["id"]] = trip
    response.headers["Location"] = f"/itineraries/{trip['id']}"
    return view(trip)


@readable("/itineraries")
def list_trips(
    who: Caller,
    response: Response,
    tag: Annotated[list[str] | None, Query()] = None,
    status: Literal["draft", "confirmed", "cancelled"] | None = None,
    limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT,
    offset: Annotated[int, Query(ge=0)] = 0,
):
    wanted = {t.strip().lower() for t in tag or []}
    found = [t for t in TRIPS.values() if visible(who, t)
             and (not wanted or wanted & set(t["tags"]))
             and (status is None or t["status"] == status)]
    found.sort(key=lambda t: (t["start_date"], t["id"]))
    response.headers["X-Total-Count"] = str(len(found))
    return [view(t) for t in found[offset:offset + limit]]


@readable("/itineraries/{trip_id}")
def read_trip(trip_id: int, who: Caller):
    return view(trip_for(who, trip_id))


@app.patch("/itineraries/{trip_id}")
def edit_trip(trip_id: int, body: TripFields, who: Annotated[dict, allowed("agent")]):
    trip = trip_for(who, trip_id)
    editable(trip)
    changes = body.model_dump(exclude_unset=True)
    ordered(changes.get("start_date", trip["start_date"]), changes.get("end_date", trip["end_date"]))
    trip.update(changes)
    return view(trip)


@app.delete("/itineraries/{trip_id}", status_code=204)
def delete_trip(trip_id: int, who: Annotated[dict, allowed("agent")]):
    trip = trip_for(who, trip_id)
    if trip["status"] not in DELETABLE:
        raise Refused(409, "itinerary_locked")
    del TRIPS[trip_id]
    return Response(status_code=204)


@app.post("/itineraries/{trip_id}/segments", status_code=201)
def add_segment(trip_id: int, body: SegmentIn, who: Annotated[dict, allowed("agent")],
                response: Response):
    trip = trip_for(who, trip_id)
    editable(trip)
    if not trip["start_date"] <= body.day <= trip["end_date"]:
        raise Refused(409, "day_outside_trip")
    segment = {"id": trip["next_segment"], **body.model_dump(), "price": Decimal(body.price)}
    trip["next_segment"] += 1
    trip["segments"][segment["id"]] = segment
    response.headers["Location"] = f"/itineraries/{trip_id}/segments/{segment['id']}"
    return view(trip)


@app.delete("/itineraries/{trip_id}/segments/{segment_id}", status_code=204)
def remove_segment(trip_id: int, segment_id: int, who: Annotated[dict, allowed("agent")]):
    trip = trip_for(who, trip_id)
    if segment_id not in trip["segments"]:
        raise Refused(404, "unknown_segment")
    editable(trip)
    del trip["segments"][segment_id]
    return Response(status_code=204)


@app.post("/itineraries/{trip_id}/confirm")
def confirm_trip(trip_id: int, who: Annotated[dict, allowed("customer")]):
    trip = trip_for(who, trip_id)
    if trip["status"] != "draft":
        raise Refused(409, "invalid_status")
    if not trip["segments"]:
        raise Refused(409, "no_segments")
    trip["status"] = "confirmed"
    return view(trip)


@app.post("/itineraries/{trip_id}/cancel")
def cancel_trip(trip_id: int, who: Annotated[dict, allowed("agent", "customer")]):
    trip = trip_for(who, trip_id)
    if trip["status"] == "cancelled":
        raise Refused(409, "invalid_status")
    trip["status"] = "cancelled"
    return view(trip)


@readable("/customers/{customer}/summary")
def customer_summary(customer: str, who: Caller):
    if customer not in CUSTOMERS:
        raise Refused(404, "unknown_customer")
    if who["role"] == "customer" and who["name"] != customer:
        raise Refused(403, "forbidden")
    trips = [t for t in TRIPS.values() if t["customer"] == customer]
    confirmed = [view(t)["total"] for t in trips if t["status"] == "confirmed"]
    return {"customer": customer,
            "itineraries": sum(t["status"] != "cancelled" for t in trips),
            "confirmed_total": money(sum((Decimal(v) for v in confirmed), Decimal("0")))}


client = TestClient(app)
a_h, c_h = {"Authorization": "Bearer ${tok_a}"}, {"Authorization": "Bearer ${tok_c}"}
result = [
    row(client.post("/itineraries", json={"customer": "${name_c}", "title": "${title}",
                                          "start_date": "${start}", "end_date": "${end}",
                                          "travellers": 2, "tags": ["City", "food"]}, headers=a_h)),
    row(client.post("/itineraries/1/segments", json={"kind": "${kind1}", "day": "${start}",
                                                     "price": "${price1}"}, headers=a_h)),
    row(client.post("/itineraries/1/confirm", headers=c_h)),
    row(client.get("/customers/${name_c}/summary", headers=c_h)),
]
'''

PROBES = PROBES_HEAD + '''

A = {"Authorization": "Bearer ${tok_a}"}
U = {"Authorization": "Bearer ${tok_u}"}
C = {"Authorization": "Bearer ${tok_c}"}
D = {"Authorization": "Bearer ${tok_d}"}
''' + late_body.probe_source(
    [("POST", "/itineraries"), ("PATCH", "/itineraries/1"),
     ("POST", "/itineraries/1/segments")],
    [("no token", "{}"), ("customer", "C"), ("agent", "A")]) + '''

MAX_T = ${max_travellers}
LIMIT_MAX, LIMIT_DEFAULT = ${limit_max}, ${limit_default}
KINDS = ${kinds__repr}


def _body(**extra):
    body = {"customer": "${name_c}", "title": "probe", "start_date": "2027-03-10",
            "end_date": "2027-03-14", "travellers": 2}
    return body | extra


def _new(client, **extra):
    return client.post("/itineraries", json=_body(**extra), headers=A).json()["id"]


def _segment(client, trip, day="2027-03-11", price="10.00", kind=None, headers=A):
    body = {"kind": kind or KINDS[0], "day": day, "price": price}
    return client.post(f"/itineraries/{trip}/segments", json=body, headers=headers)


def _short(r):
    """[status, error code, fields] of a refusal, [status, status, total] of an itinerary."""
    return _code(r, "status", "total")


def probe_validation_format(client):
    return [_row(client.post("/itineraries", json={"travellers": "two", "note": 1}, headers=A)),
            _row(client.post("/itineraries", json=[], headers=A)),
            _row(client.post("/itineraries", headers=A)),
            _row(client.get("/itineraries", params={"limit": "x", "status": "lost"}, headers=A)),
            _row(client.post("/itineraries/1/segments", json={"kind": "boat", "price": 5},
                             headers=A))]


def probe_roles(client):
    trip = _new(client)
    rows = []
    for headers in (C, U):
        rows += [_short(client.post("/itineraries", json={}, headers=headers)),
                 _short(client.patch(f"/itineraries/{trip}", json={"x": 1}, headers=headers)),
                 _short(client.delete("/itineraries/abc", headers=headers)),
                 _short(client.post(f"/itineraries/{trip}/segments", json={}, headers=headers)),
                 _short(client.delete(f"/itineraries/{trip}/segments/x", headers=headers))]
    rows += [_short(client.post(f"/itineraries/{trip}/confirm", headers=A)),
             _short(client.post(f"/itineraries/{trip}/confirm", headers=U)),
             _short(client.post(f"/itineraries/{trip}/cancel", headers=U)),
             _short(client.post("/itineraries/abc/cancel", headers=U))]
    return rows


def probe_create(client):
    r = client.post("/itineraries", json=_body(title="  Lisbon week ", tags=[" Food", "city"]),
                    headers=A)
    got = r.json()
    rows = [[r.status_code, r.headers.get("location") == f"/itineraries/{got.get('id')}",
             {k: v for k, v in got.items() if k != "id"}]]
    later = _new(client)
    rows.append([later - got["id"]])
    rows.append(_short(client.post("/itineraries", json=_body(customer="${name_a}"), headers=A)))
    rows.append(_short(client.post("/itineraries", json=_body(customer="nobody"), headers=A)))
    for title in ["   ", "x" * 61, " " + "x" * 60 + " "]:
        r = client.post("/itineraries", json=_body(title=title), headers=A)
        rows.append([len(title), r.status_code, r.json().get("fields")])
    return rows


def probe_dates(client):
    rows = []
    for start, end in [("2027-01-05", "2027-01-05"), ("2027-01-05", "2027-01-04"),
                       (0, "2027-01-04"), ("2027-01-05T00:00:00", "2027-01-06"),
                       ("2027-1-5", "2027-01-06"), ("2027-02-30", "2027-03-01"),
                       ("20270105", "2027-01-06"), ("2027-01-05", 1798675200)]:
        r = client.post("/itineraries", json=_body(start_date=start, end_date=end), headers=A)
        got = r.json()
        rows.append([start, end, r.status_code,
                     got.get("error", [got.get("start_date"), got.get("end_date")]),
                     got.get("fields")])
    return rows


def probe_travellers(client):
    rows = []
    for value in [1, MAX_T, MAX_T + 1, 0, "3", 3.0, True, None]:
        r = client.post("/itineraries", json=_body(travellers=value), headers=A)
        rows.append([value, r.status_code, r.json().get("travellers", r.json().get("fields"))])
    return rows


def probe_tags(client):
    rows = []
    for tags in [["Beach", " beach ", "SKI", "ski-2"], [], ["a"] * 9, ["a", "b", "c", "d", "e", "f"],
                 ["two words"], [""], ["x" * 21], [7]]:
        r = client.post("/itineraries", json=_body(tags=tags), headers=A)
        rows.append([tags, r.status_code, r.json().get("tags", r.json().get("fields"))])
    return rows


def probe_booking_url(client):
    rows = []
    for url in ["https://Example.com", "http://agency.example/b?id=7&x=1#top",
                "HTTPS://example.com/x", "ftp://example.com", "https://", "https://a b",
                "example.com", None]:
        r = client.post("/itineraries", json=_body(booking_url=url), headers=A)
        rows.append([url, r.status_code, r.json().get("booking_url", r.json().get("fields"))])
    return rows


def probe_read_scope(client):
    trip = _new(client, customer="${name_d}")
    rows = [[name, _short(client.get(f"/itineraries/{trip}", headers=h))]
            for name, h in [("a", A), ("u", U), ("c", C), ("d", D)]]
    rows += [_short(client.get("/itineraries/999999", headers=A)),
             _short(client.get("/itineraries/abc", headers=A)),
             _short(client.post(f"/itineraries/{trip}/cancel", headers=C))]
    return rows


def _mine(client, headers, **params):
    r = client.get("/itineraries", params=params, headers=headers)
    if r.status_code != 200:
        return _short(r)
    return [[t["title"] for t in r.json() if t["title"].startswith("L-")],
            r.headers.get("x-total-count")]


def probe_list_order_and_scope(client):
    # Before every other probe's dates, so the first page holds them all.
    for title, start, customer in [("L-3", "1990-05-02", "${name_c}"), ("L-1", "1990-05-01", "${name_d}"),
                                   ("L-2", "1990-05-02", "${name_c}"), ("L-0", "1990-04-30", "${name_c}")]:
        _new(client, title=title, start_date=start, end_date="1990-06-01", customer=customer)
    return [[name, _mine(client, h, limit=LIMIT_MAX, offset=0)[0]]
            for name, h in [("c", C), ("d", D), ("a", A), ("u", U)]]


def probe_tag_filter(client):
    for title, tags in [("T-1", ["ski"]), ("T-2", ["beach", "food"]), ("T-3", ["food"]),
                        ("T-4", [])]:
        _new(client, title=title, tags=tags, customer="${name_d}")
    rows = []
    for tags in [["ski"], ["food"], ["ski", "beach"], ["SKI"], ["none"], []]:
        r = client.get("/itineraries", params={"tag": tags, "limit": LIMIT_MAX}, headers=D)
        rows.append([tags, [t["title"] for t in r.json() if t["title"].startswith("T-")]])
    return rows


def probe_status_filter(client):
    ids = [_new(client, title=f"S-{k}", customer="${name_d}") for k in range(3)]
    _segment(client, ids[1])
    client.post(f"/itineraries/{ids[1]}/confirm", headers=D)
    client.post(f"/itineraries/{ids[2]}/cancel", headers=A)
    rows = []
    for status in ["draft", "confirmed", "cancelled"]:
        r = client.get("/itineraries", params={"status": status, "limit": LIMIT_MAX}, headers=D)
        rows.append([status, [t["title"] for t in r.json() if t["title"].startswith("S-")]])
    rows.append(_short(client.get("/itineraries", params={"status": "Draft"}, headers=D)))
    return rows


def probe_pagination(client):
    count = LIMIT_DEFAULT + 2
    for k in range(count):
        _new(client, title=f"P-{k}", start_date=f"2031-01-{k + 1:02d}", end_date="2031-02-01",
             customer="${name_d}", tags=["paging"])
    rows = []
    for params in [{}, {"limit": 2}, {"limit": 2, "offset": 3}, {"offset": count},
                   {"offset": count - 1, "limit": LIMIT_MAX}]:
        r = client.get("/itineraries", params={"tag": "paging"} | params, headers=D)
        rows.append([params, r.status_code, [t["title"] for t in r.json()],
                     r.headers.get("x-total-count")])
    for params in [{"limit": 0}, {"limit": LIMIT_MAX + 1}, {"limit": LIMIT_MAX}, {"offset": -1}]:
        r = client.get("/itineraries", params={"tag": "paging"} | params, headers=D)
        rows.append([params, _short(r) if r.status_code != 200 else [len(r.json())]])
    return rows


def probe_patch(client):
    trip = _new(client, tags=["old"], booking_url="https://a.example/x")
    rows = []
    for body in [{"title": " New "}, {}, {"end_date": "2027-03-20"}, {"start_date": "2027-03-21"},
                 {"start_date": "2027-03-01", "end_date": "2027-03-02"}, {"travellers": None},
                 {"tags": None}, {"customer": "${name_d}"}]:
        r = client.patch(f"/itineraries/{trip}", json=body, headers=A)
        got = r.json()
        rows.append([body, r.status_code, got.get("error") or
                     [got.get(k) for k in ("title", "start_date", "end_date", "tags", "booking_url")],
                     got.get("fields")])
    return rows


def probe_locked(client):
    trip = _new(client)
    _segment(client, trip)
    client.post(f"/itineraries/{trip}/confirm", headers=C)
    rows = [_short(client.patch(f"/itineraries/{trip}", json={"title": "x"}, headers=A)),
            _short(_segment(client, trip)),
            _short(client.delete(f"/itineraries/{trip}/segments/1", headers=A)),
            _short(client.delete(f"/itineraries/{trip}/segments/9", headers=A)),
            _short(client.patch("/itineraries/999999", json={"title": "x"}, headers=A))]
    return rows


def _here(r, trip):
    """The Location of a new segment with the itinerary's own path shortened to `~`."""
    location = r.headers.get("location")
    return location.replace(f"/itineraries/{trip}/", "~/") if location else location


def probe_segments(client):
    trip = _new(client)
    rows = []
    for day, kind in [("2027-03-12", KINDS[-1]), ("2027-03-10", KINDS[0]), ("2027-03-12", KINDS[1]),
                      ("2027-03-14", KINDS[0]), ("2027-03-09", KINDS[0]), ("2027-03-15", KINDS[0])]:
        r = _segment(client, trip, day=day, kind=kind)
        rows.append([day, r.status_code, _here(r, trip), r.json().get("error")])
    got = client.get(f"/itineraries/{trip}", headers=A).json()
    rows.append([[s["id"], s["day"], s["kind"]] for s in got["segments"]])
    rows.append(_row(client.delete(f"/itineraries/{trip}/segments/4", headers=A)))
    rows.append(_short(client.delete(f"/itineraries/{trip}/segments/4", headers=A)))
    r = _segment(client, trip, day="2027-03-13")
    rows.append([_here(r, trip), [s["id"] for s in r.json()["segments"]]])
    rows.append(_short(_segment(client, 999999)))
    rows.append(_short(_segment(client, trip, kind=KINDS[0].upper())))
    for size in (80, 81):
        body = {"kind": KINDS[0], "day": "2027-03-11", "price": "1", "description": "d" * size}
        r = client.post(f"/itineraries/{trip}/segments", json=body, headers=A)
        rows.append([size, _short(r)])
    return rows


def probe_prices(client):
    trip = _new(client, end_date="2027-03-30")
    rows = []
    for price in ["12", "12.5", "12.50", "0.05", "999999.99", "12.500", "12.", ".5", "1e3",
                  "-5", " 12", "1,50", 12.5, 12, "1000000"]:
        r = _segment(client, trip, price=price)
        rows.append([price, r.status_code, r.json().get("fields")])
    return rows


def probe_money_format(client):
    trip = _new(client)
    rows = []
    for price in ["0.10", "0.2", "7", "100.05"]:
        r = _segment(client, trip, price=price)
        got = r.json()
        rows.append([[s["price"] for s in got["segments"]], got["total"]])
    return rows


def probe_confirm(client):
    rows = []
    trip = _new(client)
    rows += [_short(client.post(f"/itineraries/{trip}/confirm", headers=C))]
    _segment(client, trip, price="40.25")
    rows += [_short(client.post(f"/itineraries/{trip}/confirm", headers=D)),
             _short(client.post(f"/itineraries/{trip}/confirm", headers=C)),
             _short(client.post(f"/itineraries/{trip}/confirm", headers=C)),
             _short(client.post("/itineraries/999999/confirm", headers=C))]
    empty = _new(client)
    client.post(f"/itineraries/{empty}/cancel", headers=C)
    rows.append(_short(client.post(f"/itineraries/{empty}/confirm", headers=C)))
    return rows


def probe_cancel(client):
    trip = _new(client)
    _segment(client, trip)
    client.post(f"/itineraries/{trip}/confirm", headers=C)
    rows = [_short(client.post(f"/itineraries/{trip}/cancel", headers=C)),
            _short(client.post(f"/itineraries/{trip}/cancel", headers=A)),
            _short(client.post(f"/itineraries/{_new(client)}/cancel", headers=A))]
    return rows


def probe_delete(client):
    rows = []
    for how in ["draft", "confirmed", "cancelled"]:
        trip = _new(client)
        _segment(client, trip)
        if how == "confirmed":
            client.post(f"/itineraries/{trip}/confirm", headers=C)
        if how == "cancelled":
            client.post(f"/itineraries/{trip}/cancel", headers=A)
        r = client.delete(f"/itineraries/{trip}", headers=A)
        rows.append([how, _row(r), _short(client.get(f"/itineraries/{trip}", headers=A))])
    gone = _new(client)
    client.delete(f"/itineraries/{gone}", headers=A)
    rows.append([_new(client) - gone, _short(client.delete(f"/itineraries/{gone}", headers=A))])
    return rows


def probe_summary(client):
    before = client.get("/customers/${name_d}/summary", headers=D).json()
    ids = [_new(client, customer="${name_d}") for _ in range(3)]
    for trip, price in zip(ids, ["19.99", "0.01", "5"]):
        _segment(client, trip, price=price)
    client.post(f"/itineraries/{ids[0]}/confirm", headers=D)
    client.post(f"/itineraries/{ids[1]}/confirm", headers=D)
    client.post(f"/itineraries/{ids[1]}/cancel", headers=D)
    after = client.get("/customers/${name_d}/summary", headers=A).json()
    rows = [[after["itineraries"] - before["itineraries"],
             str(__import__("decimal").Decimal(after["confirmed_total"])
                 - __import__("decimal").Decimal(before["confirmed_total"])),
             type(after["confirmed_total"]).__name__]]
    for headers, name in [(C, "${name_d}"), (U, "${name_d}"), (C, "nobody"), (A, "nobody"),
                          (C, "${name_a}")]:
        rows.append([name, _short(client.get(f"/customers/{name}/summary", headers=headers))])
    return rows
'''

PROMPT = '''\
Build the HTTP API of a travel agency where agents plan itineraries for their customers. All
state is in memory; the service starts with no itineraries and with these accounts:

| token | name | role |
|---|---|---|
| `${tok_a}` | `${name_a}` | agent |
| `${tok_u}` | `${name_u}` | auditor |
| `${tok_c}` | `${name_c}` | customer |
| `${tok_d}` | `${name_d}` | customer |

Customers see only their own itineraries: any other itinerary is, to them, exactly like one
that does not exist. Agents and the auditor see every itinerary; the auditor changes nothing.

## Requests and errors
''' + PROMPT_RULES + '''
## Itineraries
An itinerary is `{"id", "customer", "title", "start_date", "end_date", "travellers", "tags",
"booking_url", "status", "segments", "total"}`. Ids are 1, 2, ... in creation order and never
reused, even after a deletion. `status` is `draft`, `confirmed` or `cancelled`.

- `customer`: the name of one of the customers (anything else is 400 `unknown_customer`).
- `title`: text, trimmed, then 1-60 characters.
- `start_date`, `end_date`: dates written exactly as `YYYY-MM-DD` texts (a number, a date-time
  or `2027-1-5` is invalid; so is a day that does not exist); shown the same way.
- `travellers`: a JSON integer 1-${max_travellers}; `"3"`, `3.0` and `true` are invalid.
- `tags`: a list of at most 5 tags (default `[]`). Each is trimmed and lower-cased, then must be
  1-20 characters of `a-z`, `0-9` and `-`; repeats are dropped after that, keeping the first
  (`[" Ski", "ski", "beach"]` is `["ski", "beach"]`). The limit of 5 counts the list as sent.
- `booking_url`: optional (absent or null: no link): `http://` or `https://` (in lower case) followed by
  1-200 characters without whitespace, and shown exactly as it was sent.
- `segments`: the itinerary's segments sorted by day, then segment id, each `{"id", "kind",
  "day", "price", "description"}`; `total` the sum of their prices.
- Money (`price`, `total`, `confirmed_total`) is always shown as a JSON string with exactly two
  decimals (`"12.50"`, `"0.00"`), summed exactly.

### Routes
- `POST /itineraries` (agents) `{"customer", "title", "start_date", "end_date", "travellers",
  "tags", "booking_url"}` (the last two optional): 400 `unknown_customer`; 400
  `dates_out_of_order` if `end_date` is before `start_date`; else 201 with the itinerary
  (status `draft`, no segments, total `"0.00"`) and `Location: /itineraries/<id>`.
- `GET /itineraries`: 200 with a JSON list of the itineraries the caller sees, sorted by
  `start_date`, then id, and the header `X-Total-Count` with how many match the filters
  (before paging). Query parameters, all optional: `tag` (may be repeated: keeps itineraries
  having any of the given tags, compared after trimming and lower-casing), `status` (exactly `draft`,
  `confirmed` or `cancelled`; any other value is invalid),
  `limit` (integer 1-${limit_max}, default ${limit_default}), `offset` (integer >= 0, default 0).
- `GET /itineraries/{trip_id}`: 200 with the itinerary, else 404 `unknown_itinerary`.
- `PATCH /itineraries/{trip_id}` (agents) with any of `title`, `start_date`, `end_date`,
  `travellers`, `tags`, `booking_url` (validated as above; none may be null; `customer` may not
  be sent): 404 `unknown_itinerary`; 409 `itinerary_locked` unless the status is `draft`; 400
  `dates_out_of_order` if the dates it would have are out of order; else only the fields sent
  change (an empty object changes nothing) and the answer is 200 with the itinerary.
- `DELETE /itineraries/{trip_id}` (agents): 404 `unknown_itinerary`; 409 `itinerary_locked`
  unless the status is ${deletable_text}; else 204 with an empty body.
- `POST /itineraries/{trip_id}/segments` (agents) `{"kind", "day", "price", "description"}`:
  `kind` one of ${kinds_text} (exactly); `day` a date as above; `price` a JSON *string* of 1-6
  digits, optionally followed by a point and one or two digits (`"12"`, `"12.5"`, `"12.50"`;
  not `"12.500"`, `"1e3"`, `"-5"`, `" 12"` nor a JSON number); `description` optional text of
  at most 80 characters (default `""`). Then: 404 `unknown_itinerary`; 409 `itinerary_locked`
  unless `draft`; 409 `day_outside_trip` unless `start_date <= day <= end_date`; else 201 with
  the whole itinerary and `Location: /itineraries/<trip_id>/segments/<segment id>`. Segment ids
  are 1, 2, ... within each itinerary, never reused.
- `DELETE /itineraries/{trip_id}/segments/{segment_id}` (agents): 404 `unknown_itinerary`;
  404 `unknown_segment`; 409 `itinerary_locked` unless `draft`; else 204 with an empty body.
- `POST /itineraries/{trip_id}/confirm` (customers, their own itineraries): 404
  `unknown_itinerary`; 409 `invalid_status` unless `draft`; 409 `no_segments` if it has none;
  else it becomes `confirmed`: 200 with the itinerary.
- `POST /itineraries/{trip_id}/cancel` (agents and customers): 404 `unknown_itinerary`; 409
  `invalid_status` if already cancelled; else it becomes `cancelled`: 200 with the itinerary.
- `GET /customers/{name}/summary`: 404 `unknown_customer` if no customer has that name; then
  403 `forbidden` for a customer asking about someone else; else 200 `{"customer",
  "itineraries", "confirmed_total"}`: how many of their itineraries are not cancelled, and the
  sum of the totals of the confirmed ones.

## result
One row per request, `[status code, JSON body]`:
1. `POST /itineraries` as `${name_a}` with `{"customer": "${name_c}", "title": "${title}",
   "start_date": "${start}", "end_date": "${end}", "travellers": 2, "tags": ["City", "food"]}`
2. `POST /itineraries/1/segments` as `${name_a}` with `{"kind": "${kind1}", "day": "${start}",
   "price": "${price1}"}`
3. `POST /itineraries/1/confirm` as `${name_c}`
4. `GET /customers/${name_c}/summary` as `${name_c}`
'''


def _derive(p):
    names = {"a": p["name_a"], "u": p["name_u"], "c": p["name_c"], "d": p["name_d"]}
    kinds = p["kinds"]
    deletable = p["deletable"]
    return {f"tok_{k}": p["tp"] + v for k, v in names.items()} | {
        "kind_literals": ", ".join(repr(k) for k in kinds),
        "kinds_text": ", ".join(f"`{k}`" for k in kinds), "kind1": kinds[0],
        "deletable_text": " or ".join(f"`{s}`" for s in deletable),
        "field_example": "title", "id_name": "trip_id", "query_example": "limit",
        "list_path": "/itineraries", "post_only": "/itineraries/1/confirm",
        "item_path": "/itineraries/999999",
        "plain_body": {"customer": p["name_c"], "title": "plain", "start_date": "2027-01-01",
                       "end_date": "2027-01-02", "travellers": 1},
        "plain_keys": ["customer", "title", "status", "total", "tags"], "bad_query": "?limit=0",
        "auth_routes": [["GET", "/itineraries"], ["POST", "/itineraries"],
                        ["GET", "/itineraries/1"], ["PATCH", "/itineraries/1"],
                        ["DELETE", "/itineraries/1"], ["POST", "/itineraries/1/segments"],
                        ["DELETE", "/itineraries/1/segments/1"],
                        ["POST", "/itineraries/1/confirm"], ["POST", "/itineraries/1/cancel"],
                        ["GET", f"/customers/{p['name_c']}/summary"]],
    }


FAMILY = Family(
    id="service/travel_itineraries",
    title="A travel agency's itineraries from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"name_a": "agnes", "name_u": "otto", "name_c": "carla", "name_d": "dmitri",
              "tp": "trv-", "max_travellers": 6, "limit_max": 20, "limit_default": 5,
              "kinds": ["flight", "hotel", "train"], "deletable": ["draft", "cancelled"],
              "title": "Porto weekend", "start": "2027-05-01", "end": "2027-05-03",
              "price1": "89.9"},
    space={
        "names": [{"name_a": "agnes", "name_u": "otto", "name_c": "carla", "name_d": "dmitri",
                   "tp": "trv-"},
                  {"name_a": "bruno", "name_u": "ines", "name_c": "yara", "name_d": "zeno",
                   "tp": "key_"}],
        "max_travellers": [6, 9],
        "limits": [{"limit_max": 20, "limit_default": 5}, {"limit_max": 10, "limit_default": 3}],
        "kinds": [["flight", "hotel", "train"], ["ferry", "hotel", "car", "flight"]],
        "deletable": [["draft", "cancelled"], ["draft"]],
        "trip": [{"title": "Porto weekend", "start": "2027-05-01", "end": "2027-05-03",
                  "price1": "89.9"},
                 {"title": "Alps by rail", "start": "2027-12-20", "end": "2027-12-27",
                  "price1": "240"}],
    },
    derive=_derive,
    instances=12,
    requirements=common_requirements() + (
        validation_format_requirement(),
        credentials_before_json_requirement(),
        Requirement("Customers and the auditor may not create, edit, delete or add segments; "
                    "only customers confirm; the auditor may not cancel (403 `forbidden`, "
                    "before validation and lookups).",
                    probes=("roles",),
                    traps=(Edit("role checked after validation", '''def add_segment(trip_id: int, body: SegmentIn, who: Annotated[dict, allowed("agent")],
                response: Response):
''', '''def add_segment(trip_id: int, body: SegmentIn, who: Caller, response: Response):
    if who["role"] != "agent":
        raise Refused(403, "forbidden")
'''),
                           Edit("auditor cancels", 'who: Annotated[dict, allowed("agent", "customer")]',
                                'who: Annotated[dict, allowed("agent", "customer", "auditor")]'))),
        Requirement("Creating answers 201 with a `draft` itinerary (title trimmed to 1-60, total "
                    "`\"0.00\"`) and `Location`; an unknown customer is 400.",
                    probes=("create",),
                    traps=(Edit("no Location for itineraries",
                                '''    response.headers["Location"] = f"/itineraries/{trip['id']}"\n''', ""),
                           Edit("agents accepted as customers", "if body.customer not in CUSTOMERS:",
                                'if body.customer not in CUSTOMERS + ("${name_a}",):'))),
        Requirement("Dates are `YYYY-MM-DD` texts only and `end_date` may not precede "
                    "`start_date` (400 `dates_out_of_order`).",
                    probes=("dates",),
                    traps=(Edit("dates parsed leniently",
                                'Day = Annotated[date, BeforeValidator(date_text)]',
                                "Day = date"),
                           Edit("single-day trips refused", "    if end < start:\n", "    if end <= start:\n"))),
        Requirement("`travellers` is a JSON integer 1-${max_travellers}: strings, floats and "
                    "booleans are invalid.",
                    probes=("travellers",),
                    traps=(Edit("travellers coerced", "    travellers: StrictInt = Field(ge=1, le=MAX_TRAVELLERS)\n",
                                "    travellers: int = Field(ge=1, le=MAX_TRAVELLERS)\n"),)),
        Requirement("Tags are trimmed and lower-cased before the pattern, repeats dropped "
                    "keeping the first, at most 5 as sent.",
                    probes=("tags",),
                    traps=(Edit("tags kept as sent", "    tags = [t.strip().lower() if isinstance(t, str) else t for t in value]\n",
                                "    tags = value\n"),
                           Edit("repeats kept", "    return list(dict.fromkeys(tags))\n", "    return tags\n"))),
        Requirement("`booking_url` is an http(s) link shown exactly as sent.",
                    probes=("booking_url",),
                    traps=(Edit("links normalised as URLs",
                                '    booking_url: Annotated[str, Field(pattern=r"^https?://[^\\s]{1,200}$$")] | None = None\n',
                                '    booking_url: __import__("pydantic").HttpUrl | None = None\n'),)),
        Requirement("Another customer's itinerary is 404 `unknown_itinerary` to a customer, "
                    "like a missing one.",
                    probes=("read_scope",),
                    traps=(Edit("customers see every itinerary",
                                'return who["role"] != "customer" or trip["customer"] == who["name"]',
                                "return True"),)),
        Requirement("`GET /itineraries` sorts by start date, then id, within what the caller sees.",
                    probes=("list_order_and_scope",),
                    traps=(Edit("itineraries by id", 'found.sort(key=lambda t: (t["start_date"], t["id"]))',
                                'found.sort(key=lambda t: t["id"])'),)),
        Requirement("`tag` may be repeated and keeps itineraries having any of the tags "
                    "(normalised).",
                    probes=("tag_filter",),
                    traps=(Edit("tag list read from the body", "    tag: Annotated[list[str] | None, Query()] = None,\n",
                                "    tag: list[str] | None = None,\n"),
                           Edit("tags matched as sent", "wanted = {t.strip().lower() for t in tag or []}",
                                "wanted = set(tag or [])"))),
        Requirement("`status` filters exactly.",
                    probes=("status_filter",),
                    traps=(Edit("status filter ignored", 'and (status is None or t["status"] == status)]', "]"),)),
        Requirement("Paging: `limit` 1-${limit_max} (default ${limit_default}), `offset` >= 0, "
                    "`X-Total-Count` before paging.",
                    probes=("pagination",),
                    traps=(Edit("count after paging", '''    response.headers["X-Total-Count"] = str(len(found))
    return [view(t) for t in found[offset:offset + limit]]''', '''    page = found[offset:offset + limit]
    response.headers["X-Total-Count"] = str(len(page))
    return [view(t) for t in page]'''),
                           Edit("limit capped silently", "Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT",
                                "Query(ge=1)] = LIMIT_DEFAULT"))),
        Requirement("PATCH changes only the fields sent (nulls invalid), re-checks the dates "
                    "(400 `dates_out_of_order`).",
                    probes=("patch",),
                    traps=(Edit("dates not re-checked", '''    ordered(changes.get("start_date", trip["start_date"]), changes.get("end_date", trip["end_date"]))
''', ""),
                           Edit("unsent fields cleared", "changes = body.model_dump(exclude_unset=True)",
                                'changes = {k: v for k, v in body.model_dump().items() if v is not None or k == "booking_url"}'))),
        Requirement("Only `draft` itineraries take edits and segment changes (409 "
                    "`itinerary_locked`); an unknown segment is 404 first.",
                    probes=("locked",),
                    traps=(Edit("confirmed itineraries editable", '''    trip = trip_for(who, trip_id)
    editable(trip)
    changes''', '''    trip = trip_for(who, trip_id)
    changes'''),
                           Edit("lock before the unknown segment", '''    if segment_id not in trip["segments"]:
        raise Refused(404, "unknown_segment")
    editable(trip)''', '''    editable(trip)
    if segment_id not in trip["segments"]:
        raise Refused(404, "unknown_segment")'''))),
        Requirement("Segments: 201 with `Location`, a day within the trip (409 "
                    "`day_outside_trip`), descriptions up to 80 characters, sorted by day then "
                    "id, ids never reused.",
                    probes=("segments",),
                    traps=(Edit("segments in creation order",
                                'segments = sorted(trip["segments"].values(), key=lambda s: (s["day"], s["id"]))',
                                'segments = list(trip["segments"].values())'),
                           Edit("descriptions unbounded", "description: Annotated[str, Field(max_length=80)]",
                                "description: str"),
                           Edit("last day outside the trip", 'if not trip["start_date"] <= body.day <= trip["end_date"]:',
                                'if not trip["start_date"] <= body.day < trip["end_date"]:'),
                           ids_recomputed("segment ids reused",
                                      'segment = {"id": trip["next_segment"], **body.model_dump(),',
                                      'trip["next_segment"]', 'trip["segments"]'))),
        Requirement("A price is a JSON string of 1-6 digits with an optional point and one or "
                    "two digits; anything else is invalid.",
                    probes=("prices",),
                    traps=(Edit("prices as decimals", '''    price: str = Field(pattern=r"^[0-9]{1,6}(\\.[0-9]{1,2})?$$")''',
                                '''    price: Decimal = Field(ge=0, max_digits=8, decimal_places=2)'''),)),
        Requirement("Money is a JSON string with exactly two decimals, summed exactly.",
                    probes=("money_format",),
                    traps=(Edit("money as JSON numbers", "    return str(amount.quantize(CENT))\n",
                                "    return amount.quantize(CENT)\n"),
                           Edit("money as written", "    return str(amount.quantize(CENT))\n",
                                "    return str(amount)\n"))),
        Requirement("Confirming: the owning customer only; 409 `invalid_status` unless draft, "
                    "then 409 `no_segments`.",
                    probes=("confirm",),
                    traps=(Edit("segments checked first", '''    if trip["status"] != "draft":
        raise Refused(409, "invalid_status")
    if not trip["segments"]:
        raise Refused(409, "no_segments")''', '''    if not trip["segments"]:
        raise Refused(409, "no_segments")
    if trip["status"] != "draft":
        raise Refused(409, "invalid_status")'''),)),
        Requirement("Cancelling works from draft and confirmed; twice is 409 `invalid_status`.",
                    probes=("cancel",),
                    traps=(Edit("confirmed itineraries cannot be cancelled", '''    if trip["status"] == "cancelled":
        raise Refused(409, "invalid_status")
    trip["status"] = "cancelled"''', '''    if trip["status"] != "draft":
        raise Refused(409, "invalid_status")
    trip["status"] = "cancelled"'''),)),
        Requirement("Deleting: only ${deletable_text} itineraries (409 `itinerary_locked`), 204; "
                    "ids never reused.",
                    probes=("delete",),
                    traps=(Edit("any itinerary deletable", '''    if trip["status"] not in DELETABLE:
        raise Refused(409, "itinerary_locked")
''', ""),
                           ids_recomputed("itinerary ids reused",
                                      'trip = {"id": NEXT_ID[0], **body.model_dump(),',
                                      "NEXT_ID[0]", "TRIPS"))),
        Requirement("The summary: 404 `unknown_customer` before 403; counts itineraries not "
                    "cancelled and sums the confirmed totals.",
                    probes=("summary",),
                    traps=(Edit("cancelled itineraries counted", 'sum(t["status"] != "cancelled" for t in trips)',
                                "len(trips)"),
                           Edit("permission before the customer", '''    if customer not in CUSTOMERS:
        raise Refused(404, "unknown_customer")
    if who["role"] == "customer" and who["name"] != customer:
        raise Refused(403, "forbidden")''', '''    if who["role"] == "customer" and who["name"] != customer:
        raise Refused(403, "forbidden")
    if customer not in CUSTOMERS:
        raise Refused(404, "unknown_customer")'''))),
    ),
)
