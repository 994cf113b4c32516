"""Service tier: a bike-share's stations, bikes, rentals and damage reports specified like a
product document (12 routes, API keys with rider, operator and mechanic roles, fees in integer
cents from whole minutes with free minutes and a cap, station capacity, damage thresholds and
repairs, a revenue report, and `{"status", "reason"}` errors with validation as 400)."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW_OR_CONTENT_TYPE
from fastapi_env.tasks.traps import router_errors_in_fastapi_format

REFERENCE = '''\
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

KEYS = {"${k_op}": "${op}", "${k_mech}": "${mech}", "${k_r1}": "${r1}", "${k_r2}": "${r2}"}
ROLES = {"${op}": "operator", "${mech}": "mechanic", "${r1}": "rider", "${r2}": "rider"}
UNLOCK_CENTS = ${unlock}
RATES = {"classic": ${classic_rate}, "electric": ${electric_rate}}
FREE_MINUTES = ${free_minutes}
CAP_CENTS = ${cap}
MINOR_LIMIT = ${minor_limit}
STATIONS: dict[int, dict] = {}
BIKES: dict[int, dict] = {}
RENTALS: dict[int, dict] = {}
REPORTS: dict[int, dict] = {}
NEXT = {"station": 1, "bike": 1, "rental": 1, "report": 1}

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Failure(Exception):
    def __init__(self, status: int, reason: str):
        self.status, self.reason = status, reason


def failure(status: int, reason: str, **extra) -> JSONResponse:
    return JSONResponse({"status": status, "reason": reason, **extra}, status_code=status)


@app.exception_handler(Failure)
async def on_failure(request: Request, exc: Failure):
    return failure(exc.status, exc.reason)


@app.exception_handler(StarletteHTTPException)
async def on_router_error(request: Request, exc: StarletteHTTPException):
    return failure(exc.status_code, "no_route" if exc.status_code == 404 else "wrong_method")


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    names = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return failure(400, "invalid", fields=sorted(names))


def caller(x_api_key: Annotated[str | None, Header()] = None) -> str:
    if x_api_key not in KEYS:
        raise Failure(401, "bad_key")
    return KEYS[x_api_key]


Caller = Annotated[str, Depends(caller)]


def role(*allowed: str):
    def check(name: Caller) -> str:
        if ROLES[name] not in allowed:
            raise Failure(403, "forbidden")
        return name
    return Annotated[str, Depends(check)]


Operator = role("operator")
Mechanic = role("mechanic")
Rider = role("rider")
Staff = role("operator", "mechanic")


def next_id(kind: str) -> int:
    NEXT[kind] += 1
    return NEXT[kind] - 1


class StationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=40)
    capacity: int = Field(ge=1, le=${cap_max})

    @field_validator("name", mode="before")
    @classmethod
    def trim(cls, value):
        return value.strip() if isinstance(value, str) else value


class BikeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    station_id: int
    kind: Literal["classic", "electric"]


class RentalIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    bike_id: int


class ReturnIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    station_id: int
    minutes: int = Field(ge=1, le=1440)


class DamageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    severity: Literal["minor", "major"]
    note: str = Field(min_length=1, max_length=${note_max})

    @field_validator("note", mode="before")
    @classmethod
    def trim(cls, value):
        return value.strip() if isinstance(value, str) else value


def station_of(station_id: int) -> dict:
    if station_id not in STATIONS:
        raise Failure(404, "unknown_station")
    return STATIONS[station_id]


def bike_of(bike_id: int) -> dict:
    if bike_id not in BIKES:
        raise Failure(404, "unknown_bike")
    return BIKES[bike_id]


def docked(station_id: int) -> list[dict]:
    return [b for b in BIKES.values() if b["station_id"] == station_id]


def ensure_room(station: dict) -> None:
    if len(docked(station["id"])) >= station["capacity"]:
        raise Failure(409, "station_full")


def fee_cents(kind: str, minutes: int) -> int:
    charged = max(minutes - FREE_MINUTES, 0)
    return min(UNLOCK_CENTS + charged * RATES[kind], CAP_CENTS)


def open_minor_reports(bike_id: int) -> int:
    return sum(1 for r in REPORTS.values() if r["bike_id"] == bike_id and r["status"] == "open"
               and r["severity"] == "minor")


@app.post("/stations", status_code=201)
def create_station(body: StationIn, name: Operator, response: Response):
    if any(s["name"].lower() == body.name.lower() for s in STATIONS.values()):
        raise Failure(409, "station_exists")
    station = {"id": next_id("station"), "name": body.name, "capacity": body.capacity}
    STATIONS[station["id"]] = station
    response.headers["Location"] = f"/stations/{station['id']}"
    return station


@app.get("/stations")
def list_stations(name: Caller):
    shown = []
    for station in sorted(STATIONS.values(), key=lambda s: (s["name"].lower(), s["id"])):
        bikes = docked(station["id"])
        shown.append(station | {"docked": len(bikes),
                                "available": sum(b["status"] == "available" for b in bikes)})
    return shown


@app.post("/bikes", status_code=201)
def create_bike(body: BikeIn, name: Operator, response: Response):
    station = station_of(body.station_id)
    ensure_room(station)
    bike = {"id": next_id("bike"), "kind": body.kind, "station_id": station["id"],
            "status": "available"}
    BIKES[bike["id"]] = bike
    response.headers["Location"] = f"/bikes/{bike['id']}"
    return bike


@app.get("/bikes")
def list_bikes(name: Caller, station_id: int | None = None,
               status: Literal["available", "rented", "damaged"] | None = None):
    return [b for b in sorted(BIKES.values(), key=lambda b: b["id"])
            if (station_id is None or b["station_id"] == station_id)
            and (status is None or b["status"] == status)]


@app.post("/rentals", status_code=201)
def start_rental(body: RentalIn, name: Rider, response: Response):
    if any(r["rider"] == name and r["status"] == "open" for r in RENTALS.values()):
        raise Failure(409, "rental_open")
    bike = bike_of(body.bike_id)
    if bike["status"] != "available":
        raise Failure(409, "bike_unavailable")
    rental = {"id": next_id("rental"), "bike_id": bike["id"], "rider": name,
              "from_station": bike["station_id"], "to_station": None, "minutes": None,
              "fee_cents": None, "status": "open"}
    RENTALS[rental["id"]] = rental
    bike["status"], bike["station_id"] = "rented", None
    response.headers["Location"] = f"/rentals/{rental['id']}"
    return rental


def visible_rental(rental_id: int, name: str) -> dict:
    rental = RENTALS.get(rental_id)
    if rental is None or (rental["rider"] != name and ROLES[name] != "operator"):
        raise Failure(404, "unknown_rental")
    return rental


@app.post("/rentals/{rental_id}/return")
def end_rental(rental_id: int, body: ReturnIn, name: Caller):
    rental = visible_rental(rental_id, name)
    if rental["rider"] != name:
        raise Failure(404, "unknown_rental")
    if rental["status"] != "open":
        raise Failure(409, "already_returned")
    station = station_of(body.station_id)
    ensure_room(station)
    bike = BIKES[rental["bike_id"]]
    bike["station_id"] = station["id"]
    has_major = any(r["bike_id"] == bike["id"] and r["status"] == "open"
                    and r["severity"] == "major" for r in REPORTS.values())
    bike["status"] = "damaged" if has_major else "available"
    rental.update(to_station=station["id"], minutes=body.minutes, status="closed",
                  fee_cents=fee_cents(bike["kind"], body.minutes))
    return rental


@app.get("/rentals/{rental_id}")
def read_rental(rental_id: int, name: Caller):
    return visible_rental(rental_id, name)


@app.get("/me/rentals")
def my_rentals(name: Caller, response: Response):
    mine = sorted((r for r in RENTALS.values() if r["rider"] == name), key=lambda r: -r["id"])
    response.headers["X-Total-Cents"] = str(sum(r["fee_cents"] or 0 for r in mine))
    return mine


@app.post("/bikes/{bike_id}/damage", status_code=201)
def report_damage(bike_id: int, body: DamageIn, name: Caller):
    bike = bike_of(bike_id)
    if ROLES[name] == "rider" and not any(r["rider"] == name and r["bike_id"] == bike_id
                                          for r in RENTALS.values()):
        raise Failure(403, "never_rented")
    report = {"id": next_id("report"), "bike_id": bike_id, "severity": body.severity,
              "note": body.note, "reporter": name, "status": "open"}
    REPORTS[report["id"]] = report
    if bike["status"] == "available" and (body.severity == "major"
                                          or open_minor_reports(bike_id) >= MINOR_LIMIT):
        bike["status"] = "damaged"
    return report | {"bike_status": bike["status"]}


@app.post("/bikes/{bike_id}/repair")
def repair_bike(bike_id: int, name: Mechanic):
    bike = bike_of(bike_id)
    reports = [r for r in REPORTS.values() if r["bike_id"] == bike_id and r["status"] == "open"]
    if not reports:
        raise Failure(409, "nothing_to_repair")
    for report in reports:
        report["status"] = "resolved"
    if bike["status"] == "damaged":
        bike["status"] = "available"
    return {"bike": bike, "resolved": len(reports)}


@app.get("/damage")
def list_damage(name: Staff, status: Literal["open", "resolved", "all"] = "open"):
    return [r for r in sorted(REPORTS.values(), key=lambda r: r["id"])
            if status == "all" or r["status"] == status]


@app.get("/reports/revenue")
def revenue(name: Operator):
    closed = [r for r in RENTALS.values() if r["status"] == "closed"]
    by_kind = {kind: sum(r["fee_cents"] for r in closed if BIKES[r["bike_id"]]["kind"] == kind)
               for kind in ("classic", "electric")}
    return {"closed": len(closed), "total_cents": sum(by_kind.values()), "by_kind": by_kind}


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
op_h, r1_h = {"X-Api-Key": "${k_op}"}, {"X-Api-Key": "${k_r1}"}
result = [
    row(client.post("/stations", json={"name": "${station}", "capacity": 2}, headers=op_h)),
    row(client.post("/bikes", json={"station_id": 1, "kind": "${kind}"}, headers=op_h)),
    row(client.post("/rentals", json={"bike_id": 1}, headers=r1_h)),
    row(client.post("/rentals/1/return", json={"station_id": 1, "minutes": ${minutes}},
                    headers=r1_h)),
]
'''

PROBES = ROW_OR_CONTENT_TYPE + '''

OP, ME = {"X-Api-Key": "${k_op}"}, {"X-Api-Key": "${k_mech}"}
R1, R2 = {"X-Api-Key": "${k_r1}"}, {"X-Api-Key": "${k_r2}"}
FREE, UNLOCK, CAP = ${free_minutes}, ${unlock}, ${cap}
''' + late_body.probe_source(
    [("POST", "/stations"), ("POST", "/bikes"), ("POST", "/rentals"), ("POST", "/rentals/1/return"),
     ("POST", "/bikes/1/damage")],
    [("no key", "{}"), ("mechanic", "ME"), ("operator", "OP"), ("rider", "R1")]) + '''


def _reason(r):
    body = r.json()
    return [r.status_code, body.get("reason", body.get("status"))]


def _station(client, name, capacity=10):
    return client.post("/stations", json={"name": name, "capacity": capacity},
                       headers=OP).json()["id"]


def _bike(client, station, kind="classic"):
    return client.post("/bikes", json={"station_id": station, "kind": kind},
                       headers=OP).json()["id"]


def _rent(client, rider, bike):
    return client.post("/rentals", json={"bike_id": bike}, headers=rider)


def _return(client, rider, rental, station, minutes=10):
    return client.post(f"/rentals/{rental}/return", json={"station_id": station,
                                                           "minutes": minutes}, headers=rider)


def _ride(client, rider, bike, station, minutes=10):
    rental = _rent(client, rider, bike).json()["id"]
    return _return(client, rider, rental, station, minutes)


def probe_revenue(client):
    before = client.get("/reports/revenue", headers=OP).json()
    station = _station(client, "Revenue Hub", 20)
    classic, electric = _bike(client, station), _bike(client, station, "electric")
    _ride(client, R1, classic, station, FREE + 3)
    _ride(client, R2, electric, station, FREE + 9)
    _ride(client, R2, classic, station, 1)
    still_open = _rent(client, R1, electric).json()["id"]
    after = client.get("/reports/revenue", headers=OP).json()
    _return(client, R1, still_open, station)
    rows = [[after["closed"] - before["closed"], after["total_cents"] - before["total_cents"],
             {k: after["by_kind"][k] - before["by_kind"][k] for k in ("classic", "electric")},
             sorted(after)]]
    return rows


def probe_api_keys(client):
    rows = []
    for headers in [{}, {"X-Api-Key": ""}, {"X-Api-Key": "nope"}, {"X-Api-Key": "${r1}"},
                    {"X-Api-Key": "${k_r1}".upper()}, {"Authorization": "Bearer ${k_r1}"}]:
        for method, path in [("GET", "/stations"), ("POST", "/stations"), ("GET", "/bikes"),
                             ("POST", "/bikes"), ("POST", "/rentals"),
                             ("POST", "/rentals/1/return"), ("GET", "/rentals/1"),
                             ("GET", "/me/rentals"), ("POST", "/bikes/1/damage"),
                             ("POST", "/bikes/1/repair"), ("GET", "/damage"),
                             ("GET", "/reports/revenue")]:
            r = client.request(method, path, headers=headers, json={})
            rows.append([method, path, _row(r)])
    return rows


def probe_roles(client):
    rows = []
    for headers in (R1, ME, OP):
        rows += [_reason(client.post("/stations", json={}, headers=headers)),
                 _reason(client.post("/bikes", json={}, headers=headers)),
                 _reason(client.post("/rentals", json={}, headers=headers)),
                 _reason(client.post("/bikes/999/repair", headers=headers)),
                 _reason(client.get("/damage", params={"status": "x"}, headers=headers)),
                 _reason(client.get("/reports/revenue", headers=headers))]
    return rows


def probe_error_format(client):
    return [_row(client.get("/nowhere", headers=R1)), _row(client.get("/nowhere")),
            _row(client.delete("/stations", headers=R1)),
            _row(client.get("/rentals/1/return", headers=R1)),
            _row(client.post("/stations", json={"name": "", "capacity": 0, "city": "x"},
                             headers=OP)),
            _row(client.post("/stations", json=[1], headers=OP)),
            _row(client.get("/bikes", params={"station_id": "one"}, headers=R1)),
            _row(client.get("/rentals/abc", headers=R1))]


def probe_station_validation(client):
    rows = []
    for body in [{"name": "  Vale Gate ", "capacity": 1}, {"name": "Vale Top", "capacity": ${cap_max}},
                 {"name": "Vale Low", "capacity": 0}, {"name": "Vale High", "capacity": ${cap_max} + 1},
                 {"name": "   ", "capacity": 2}, {"name": "", "capacity": 2},
                 {"name": "v" * 40, "capacity": 1}, {"name": "w" * 41, "capacity": 1},
                 {"name": "  " + "u" * 40 + "  ", "capacity": 1},
                 {"name": "Vale Side", "capacity": 2, "city": "x"}, {"capacity": 2}]:
        r = client.post("/stations", json=body, headers=OP)
        rows.append([r.status_code, r.json().get("name"), r.json().get("capacity"),
                     r.json().get("fields")])
    return rows


def probe_station_names_unique(client):
    r = client.post("/stations", json={"name": "Quay North", "capacity": 3}, headers=OP)
    first = r.json()["id"]
    rows = [[r.status_code, r.headers.get("location") == f"/stations/{first}"]]
    for name in ["Quay North", "quay north", "  QUAY NORTH ", "Quay Northern"]:
        r = client.post("/stations", json={"name": name, "capacity": 2}, headers=OP)
        rows.append([name, r.status_code, r.json().get("reason", r.json().get("name"))])
    return rows


def probe_station_list(client):
    for name in ["Zeta yard", "Alpha Dock", "beta pier"]:
        _station(client, name, 5)
    zeta = [s for s in client.get("/stations", headers=R1).json() if s["name"] == "Zeta yard"]
    zeta = zeta[0]["id"]
    _bike(client, zeta)
    _bike(client, zeta)
    damaged = _bike(client, zeta)
    client.post(f"/bikes/{damaged}/damage", json={"severity": "major", "note": "x"}, headers=OP)
    rental = _rent(client, R2, _bike(client, zeta)).json()["id"]
    rows = [[[s["name"], s["capacity"], s["docked"], s["available"]]
             for s in client.get("/stations", headers=R2).json()
             if s["name"].lower() in ("zeta yard", "alpha dock", "beta pier")]]
    _return(client, R2, rental, zeta)
    return rows


def probe_bikes(client):
    station = _station(client, "Bike Depot", 2)
    other = _station(client, "Bike Annex", 5)
    r = client.post("/bikes", json={"station_id": station, "kind": "electric"}, headers=OP)
    rows = [[r.status_code, r.json()["kind"], r.json()["status"], r.json()["station_id"] == station,
             r.headers.get("location") == f"/bikes/{r.json()['id']}"]]
    rows += [_reason(client.post("/bikes", json={"station_id": station, "kind": "classic"},
                                 headers=OP)),
             _reason(client.post("/bikes", json={"station_id": station, "kind": "classic"},
                                 headers=OP)),
             _reason(client.post("/bikes", json={"station_id": 9999, "kind": "classic"},
                                 headers=OP)),
             _row(client.post("/bikes", json={"station_id": station, "kind": "tandem"},
                              headers=OP))]
    _bike(client, other, "electric")
    for label, params in [("depot", {"station_id": station}), ("annex", {"station_id": other}),
                          ("annex available", {"station_id": other, "status": "available"}),
                          ("annex rented", {"station_id": other, "status": "rented"})]:
        rows.append([label, [[b["kind"], b["status"]]
                             for b in client.get("/bikes", params=params, headers=R1).json()]])
    rows.append(_row(client.get("/bikes", params={"status": "lost"}, headers=R1)))
    return rows


def probe_rental_start(client):
    station = _station(client, "Start Hub")
    bike = _bike(client, station)
    r = _rent(client, R1, bike)
    rental = r.json()
    rows = [[r.status_code, rental["rider"], rental["from_station"] == station,
             rental["to_station"], rental["fee_cents"], rental["status"],
             r.headers.get("location") == f"/rentals/{rental['id']}"]]
    rows.append(["docked", [b["status"] for b in client.get(
        "/bikes", params={"station_id": station}, headers=R1).json()]])
    rows.append([b["station_id"] for b in client.get("/bikes", params={"status": "rented"},
                                                     headers=R1).json() if b["id"] == bike])
    rows.append(_reason(_rent(client, R2, bike)))
    _return(client, R1, rental["id"], station)
    return rows


def probe_rental_checks_order(client):
    station = _station(client, "Order Hub")
    bike, spare = _bike(client, station), _bike(client, station)
    rental = _rent(client, R1, bike).json()["id"]
    rows = [_reason(_rent(client, R1, spare)), _reason(_rent(client, R1, 99999)),
            _reason(_rent(client, R1, bike)), _reason(_rent(client, R2, 99999)),
            _reason(_rent(client, R2, bike)), _row(client.post("/rentals", json={"bike_id": "x"},
                                                               headers=R1))]
    _return(client, R1, rental, station)
    r = _rent(client, R1, spare)
    rows.append(_reason(r))
    _return(client, R1, r.json()["id"], station)
    return rows


def probe_fees(client):
    station = _station(client, "Fee Hub", 20)
    classic, electric = _bike(client, station), _bike(client, station, "electric")
    rows = []
    for kind, bike in [("classic", classic), ("electric", electric)]:
        for minutes in [1, FREE, FREE + 1, FREE + 7, 60, 240, 1440]:
            r = _ride(client, R2, bike, station, minutes)
            fee = r.json()["fee_cents"]
            rows.append([kind, minutes, fee, type(fee).__name__])
    return rows


def probe_return_rules(client):
    station = _station(client, "Return Hub", 2)
    small = _station(client, "Return Nook", 1)
    _bike(client, small)
    bike = _bike(client, station)
    rental = _rent(client, R1, bike).json()["id"]
    rows = [_reason(_return(client, R2, rental, station)),
            _reason(_return(client, OP, rental, station)),
            _reason(_return(client, R1, 99999, station)),
            _reason(_return(client, R1, rental, 99999)),
            _reason(_return(client, R1, rental, small)),
            _row(client.post(f"/rentals/{rental}/return", json={"station_id": station},
                             headers=R1))]
    r = _return(client, R1, rental, station, 20)
    rows.append([r.status_code, r.json()["status"], r.json()["minutes"],
                 r.json()["to_station"] == station])
    rows.append(_reason(_return(client, R1, rental, station, 20)))
    rows.append(_reason(_return(client, R1, rental, 99999, 20)))
    rows.append([[b["status"], b["station_id"] == station]
                 for b in client.get("/bikes", params={"station_id": station},
                                     headers=R1).json()])
    return rows


def probe_return_minutes(client):
    station = _station(client, "Minute Hub")
    bike = _bike(client, station)
    rows = []
    for minutes in [0, -5, 1441, 1440, 1]:
        rental = _rent(client, R1, bike).json()["id"]
        r = _return(client, R1, rental, station, minutes)
        rows.append([minutes, r.status_code, r.json().get("fields", r.json().get("minutes"))])
        if r.status_code != 200:
            _return(client, R1, rental, station, 5)
    return rows


def probe_rental_visibility(client):
    station = _station(client, "Seen Hub")
    rental = _ride(client, R1, _bike(client, station), station, 30).json()["id"]
    rows = [[name, _reason(client.get(f"/rentals/{rental}", headers=h))]
            for name, h in [("r1", R1), ("op", OP), ("r2", R2), ("mech", ME)]]
    rows.append(_reason(client.get("/rentals/99999", headers=OP)))
    return rows


def probe_my_rentals(client):
    station = _station(client, "Mine Hub")
    bike = _bike(client, station, "electric")
    ids = [_ride(client, R1, bike, station, minutes).json()["id"] for minutes in (3, 45)]
    open_id = _rent(client, R1, bike).json()["id"]
    rows = []
    for headers in (R1, R2, ME):
        r = client.get("/me/rentals", headers=headers)
        mine = [x for x in r.json() if x["id"] in ids + [open_id]]
        rows.append([[x["id"] == i for x, i in zip(mine, [open_id] + ids[::-1])],
                     [x["fee_cents"] for x in mine]])
    _return(client, R1, open_id, station)
    return rows


def probe_total_cents(client):
    rows = []
    for headers in (R1, R2, ME, OP):
        r = client.get("/me/rentals", headers=headers)
        total = sum(x["fee_cents"] or 0 for x in r.json())
        rows.append([r.headers.get("x-total-cents") == str(total),
                     r.headers.get("x-total-cents") is not None])
    station = _station(client, "Total Hub")
    rental = _rent(client, R2, _bike(client, station)).json()["id"]
    r = client.get("/me/rentals", headers=R2)
    rows.append([r.headers.get("x-total-cents") == str(sum(x["fee_cents"] or 0 for x in r.json()))])
    _return(client, R2, rental, station)
    return rows


def probe_damage_reports(client):
    station = _station(client, "Damage Hub")
    bike = _bike(client, station)
    untouched = _bike(client, station)
    _ride(client, R1, bike, station)
    r = client.post(f"/bikes/{bike}/damage", json={"severity": "minor", "note": "  bell  "},
                    headers=R1)
    rows = [[r.status_code, r.json()["note"], r.json()["reporter"], r.json()["status"],
             r.json()["bike_status"]]]
    rows += [_reason(client.post(f"/bikes/{untouched}/damage",
                                 json={"severity": "minor", "note": "x"}, headers=R1)),
             _reason(client.post(f"/bikes/{bike}/damage",
                                 json={"severity": "minor", "note": "x"}, headers=R2)),
             _reason(client.post("/bikes/99999/damage",
                                 json={"severity": "minor", "note": "x"}, headers=OP)),
             _reason(client.post(f"/bikes/{untouched}/damage",
                                 json={"severity": "minor", "note": "x"}, headers=ME))]
    for body in [{"severity": "minor", "note": "   "}, {"severity": "minor", "note": "n" * ${note_max}},
                 {"severity": "minor", "note": "n" * (${note_max} + 1)},
                 {"severity": "fatal", "note": "x"}, {"note": "x"}]:
        r = client.post(f"/bikes/{untouched}/damage", json=body, headers=OP)
        rows.append([r.status_code, len(body.get("note", "")),
                     r.json().get("fields", r.json().get("severity"))])
    return rows


def probe_damage_threshold(client):
    station = _station(client, "Threshold Hub")
    minor, major = _bike(client, station), _bike(client, station)
    rows = []
    for k in range(1, ${minor_limit} + 1):
        r = client.post(f"/bikes/{minor}/damage", json={"severity": "minor", "note": f"m{k}"},
                        headers=OP)
        rows.append([k, r.json()["bike_status"]])
    r = client.post(f"/bikes/{major}/damage", json={"severity": "major", "note": "frame"},
                    headers=ME)
    rows.append(["major", r.json()["bike_status"]])
    rows += [_reason(_rent(client, R2, minor)), _reason(_rent(client, R2, major))]
    rows.append([[s["docked"], s["available"]] for s in client.get("/stations", headers=R2).json()
                 if s["id"] == station])
    return rows


def probe_damage_while_rented(client):
    station = _station(client, "Rented Hub")
    bike = _bike(client, station)
    rental = _rent(client, R1, bike).json()["id"]
    r = client.post(f"/bikes/{bike}/damage", json={"severity": "major", "note": "brakes"},
                    headers=R1)
    rows = [[r.status_code, r.json()["bike_status"]]]
    r = _return(client, R1, rental, station)
    rows.append([r.status_code, [b["status"] for b in client.get(
        "/bikes", params={"station_id": station}, headers=R1).json()]])
    return rows


def probe_repairs(client):
    station = _station(client, "Repair Hub")
    bike, fine = _bike(client, station), _bike(client, station)
    for severity in ["minor", "major"]:
        client.post(f"/bikes/{bike}/damage", json={"severity": severity, "note": "x"}, headers=OP)
    rows = [_reason(client.post(f"/bikes/{bike}/repair", headers=OP)),
            _reason(client.post("/bikes/99999/repair", headers=ME)),
            _reason(client.post(f"/bikes/{fine}/repair", headers=ME))]
    r = client.post(f"/bikes/{bike}/repair", headers=ME)
    rows.append([r.status_code, r.json()["resolved"], r.json()["bike"]["status"]])
    rows.append(_reason(client.post(f"/bikes/{bike}/repair", headers=ME)))
    client.post(f"/bikes/{fine}/damage", json={"severity": "minor", "note": "y"}, headers=OP)
    r = client.post(f"/bikes/{fine}/repair", headers=ME)
    rows.append([r.status_code, r.json()["resolved"], r.json()["bike"]["status"]])
    r = _rent(client, R2, bike)
    rows.append(_reason(r))
    _return(client, R2, r.json()["id"], station)
    return rows


def probe_damage_list(client):
    station = _station(client, "List Hub")
    bike = _bike(client, station)
    before = {s: [r["id"] for r in client.get("/damage", params={"status": s}, headers=ME).json()]
              for s in ("open", "resolved", "all")}
    made = [client.post(f"/bikes/{bike}/damage", json={"severity": "minor", "note": n},
                        headers=OP).json()["id"] for n in ("a", "b")]
    client.post(f"/bikes/{bike}/repair", headers=ME)
    third = client.post(f"/bikes/{bike}/damage", json={"severity": "minor", "note": "c"},
                        headers=OP).json()["id"]
    rows = []
    for params, headers in [({}, ME), ({"status": "resolved"}, OP), ({"status": "all"}, ME),
                            ({"status": "open"}, OP)]:
        key = params.get("status", "open")
        got = [r["id"] for r in client.get("/damage", params=params, headers=headers).json()
               if r["id"] not in before[key]]
        rows.append([params, [made.index(i) if i in made else ("third" if i == third else i)
                              for i in got]])
    rows.append(_reason(client.get("/damage", headers=R1)))
    return rows
'''


def _derive(p):
    return {f"k_{role}": p["kp"] + p[role] for role in ("op", "mech", "r1", "r2")}


PROMPT = '''\
Build the HTTP API of a small bike-share. All state is in memory and starts empty (no stations,
bikes, rentals or reports); ids of each kind are 1, 2, ... in creation order.

## Access
Every request carries the header `X-Api-Key`:

| key | name | role |
|---|---|---|
| `${k_op}` | `${op}` | operator |
| `${k_mech}` | `${mech}` | mechanic |
| `${k_r1}` | `${r1}` | rider |
| `${k_r2}` | `${r2}` | rider |

A missing or unknown key (keys are exact) is 401 `bad_key` on every route. Routes marked with
roles answer 403 `forbidden` to the other roles. The key is checked first, then the role, then
the request's validity, then the route's own checks in the order given. A body that is not JSON
is an invalid body like any other: it too is checked after the key and the role.

## Errors
Every error is `{"status": <status code>, "reason": "<reason>"}`. Invalid requests (body,
path or query) are **400** (not 422) `invalid` with one more key, `"fields"`: the sorted names,
without repeats, of the invalid fields or parameters (the last part of each location; `"body"`
when the body is missing, not JSON or not an object). Unknown body fields are invalid. A path no route
matches is 404 `no_route` and a known path with another method is 405 `wrong_method`, whatever
the key.

## Stations
`{"id", "name", "capacity"}`. The name is trimmed, then 1-40 characters; names are unique
ignoring case. Capacity is an integer 1-${cap_max}.
- `POST /stations` (operator) `{"name", "capacity"}`: 201 with the station and `Location:
  /stations/<id>`; 409 `station_exists`.
- `GET /stations` (anyone): 200, every station with two more keys, `docked` (bikes standing at
  it, whatever their status) and `available` (those of them that can be rented), sorted by
  name ignoring case.

## Bikes
`{"id", "kind", "station_id", "status"}`: kind `classic` or `electric`; status `available`,
`rented` (then `station_id` is null) or `damaged`.
- `POST /bikes` (operator) `{"station_id", "kind"}`: 404 `unknown_station`; 409
  `station_full` when as many bikes as its capacity stand there; else 201, status `available`,
  `Location: /bikes/<id>`.
- `GET /bikes` (anyone): 200, by id, filtered by the optional `station_id` and `status`.

## Rentals
`{"id", "bike_id", "rider", "from_station", "to_station", "minutes", "fee_cents", "status"}`;
status `open` or `closed`; `to_station`, `minutes` and `fee_cents` are null while open.
- `POST /rentals` (rider) `{"bike_id"}`: 409 `rental_open` if the caller has an open rental;
  then 404 `unknown_bike`; then 409 `bike_unavailable` unless the bike is `available`. Else 201
  with the rental and `Location: /rentals/<id>`; the bike becomes `rented` and leaves its
  station.
- `POST /rentals/{rental_id}/return` `{"station_id", "minutes"}` (minutes: whole minutes,
  1-1440): only the rental's rider; for anyone else, and for a missing rental, 404
  `unknown_rental`. Then 409 `already_returned`; then 404 `unknown_station`; then 409
  `station_full`. Else 200 with the closed rental; the bike stands at that station again,
  `available`, or `damaged` if it has an open `major` damage report.
- The fee, in integer cents: ${unlock} to unlock, plus every minute after the first
  ${free_minutes} at ${classic_rate} cents (classic) or ${electric_rate} cents (electric), but
  never more than ${cap} in total.
- `GET /rentals/{rental_id}`: 200 for its rider and for operators; anyone else gets 404
  `unknown_rental`, as for a missing one.
- `GET /me/rentals` (anyone): 200, the caller's rentals, newest first, with the header
  `X-Total-Cents`: the sum of their fees (open rentals count 0).

## Damage and repairs
A report is `{"id", "bike_id", "severity", "note", "reporter", "status"}`: severity `minor`
or `major`, note trimmed then 1-${note_max} characters, status `open` or `resolved`.
- `POST /bikes/{bike_id}/damage` (anyone) `{"severity", "note"}`: 404 `unknown_bike`; a rider
  who never rented that bike gets 403 `never_rented`. Else 201 with the report (status `open`,
  reporter the caller) and one more key, `bike_status`, the bike's status after the report: an
  `available` bike becomes `damaged` with a `major` report, or once it has ${minor_limit} open
  `minor` reports. A rented bike stays `rented` (and is `damaged` on return after an open
  major report).
- `POST /bikes/{bike_id}/repair` (mechanic): 404 `unknown_bike`; 409 `nothing_to_repair` when
  it has no open report; else every open report of the bike becomes `resolved`, a `damaged`
  bike `available`: 200 `{"bike": <the bike>, "resolved": <how many reports>}`.
- `GET /damage` (operator, mechanic): 200, the reports by id, with `status` `open` (default),
  `resolved` or `all`.
- `GET /reports/revenue` (operator): 200 `{"closed", "total_cents", "by_kind": {"classic",
  "electric"}}`: the number of closed rentals, the sum of their fees, and that sum per bike
  kind (both keys always present).

## result
One row per request, `[status code, JSON body]`:
1. `POST /stations` as `${op}` with `{"name": "${station}", "capacity": 2}`
2. `POST /bikes` as `${op}` with `{"station_id": 1, "kind": "${kind}"}`
3. `POST /rentals` as `${r1}` with `{"bike_id": 1}`
4. `POST /rentals/1/return` as `${r1}` with `{"station_id": 1, "minutes": ${minutes}}`
'''


FAMILY = Family(
    id="service/bike_rentals",
    title="A bike-share's stations, rentals and repairs from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"op": "olga", "mech": "max", "r1": "rita", "r2": "raul", "kp": "bk-",
              "unlock": 100, "classic_rate": 15, "electric_rate": 35, "free_minutes": 5,
              "cap": 2000, "minor_limit": 2, "cap_max": 30, "note_max": 120,
              "station": "Harbour", "kind": "classic", "minutes": 12},
    space={
        # Keys never show in a response: their prefix varies with the names, which do.
        "names": [{"op": "olga", "mech": "max", "r1": "rita", "r2": "raul", "kp": "bk-"},
                  {"op": "ines", "mech": "theo", "r1": "uma", "r2": "vic", "kp": "key."}],
        "fees": [{"unlock": 100, "classic_rate": 15, "electric_rate": 35, "free_minutes": 5,
                  "cap": 2000},
                 {"unlock": 50, "classic_rate": 10, "electric_rate": 25, "free_minutes": 10,
                  "cap": 1500}],
        "minor_limit": [2, 3],
        "bounds": [{"cap_max": 30, "note_max": 120}, {"cap_max": 50, "note_max": 80}],
        "ride": [{"station": "Harbour", "kind": "classic", "minutes": 12},
                 {"station": "Old Mill", "kind": "electric", "minutes": 40}],
    },
    derive=_derive,
    instances=10,
    requirements=(
        Requirement("Every route needs a known, exact `X-Api-Key`: else 401 `bad_key`, before "
                    "validation.",
                    probes=("api_keys",),
                    traps=(Edit("keys matched ignoring case", "    if x_api_key not in KEYS:\n",
                                "    x_api_key = {k.lower(): k for k in KEYS}.get((x_api_key or '').lower(), x_api_key)\n"
                                "    if x_api_key not in KEYS:\n"),
                           Edit("key checked after validation",
                                "def create_station(body: StationIn, name: Operator, response: Response):\n",
                                "def create_station(body: StationIn, response: Response,\n"
                                "                   x_api_key: Annotated[str | None, Header()] = None):\n"
                                "    name = caller(x_api_key)\n"
                                "    if ROLES[name] != 'operator':\n"
                                "        raise Failure(403, 'forbidden')\n"))),
        Requirement("The key and the role are checked before the body, even a body that is not "
                    "JSON (then 400 `invalid` naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Role-restricted routes answer 403 `forbidden` to other roles, before "
                    "validation.",
                    probes=("roles",),
                    traps=(Edit("mechanics count as operators", 'Operator = role("operator")',
                                'Operator = role("operator", "mechanic")'),
                           Edit("operators may rent", 'Rider = role("rider")',
                                'Rider = role("rider", "operator")'))),
        Requirement("Errors are `{status, reason}`; validation is 400 `invalid` with sorted "
                    "field names; unknown routes 404 `no_route`, methods 405 `wrong_method`.",
                    probes=("error_format",),
                    traps=(Edit("validation stays 422", 'return failure(400, "invalid", fields=sorted(names))',
                                'return failure(422, "invalid", fields=sorted(names))'),
                           router_errors_in_fastapi_format())),
        Requirement("Station names are trimmed, then 1-40 characters; capacity 1-${cap_max}; no "
                    "other fields.",
                    probes=("station_validation",),
                    traps=(Edit("capacity unbounded", "capacity: int = Field(ge=1, le=${cap_max})",
                                "capacity: int = Field(ge=1)"),
                           Edit("station names not trimmed", '''    capacity: int = Field(ge=1, le=${cap_max})

    @field_validator("name", mode="before")
    @classmethod
    def trim(cls, value):
        return value.strip() if isinstance(value, str) else value
''', '''    capacity: int = Field(ge=1, le=${cap_max})
'''))),
        Requirement("Station names are unique ignoring case (409 `station_exists`); a new "
                    "station is 201 with `Location`.",
                    probes=("station_names_unique",),
                    traps=(Edit("names unique by exact spelling",
                                'if any(s["name"].lower() == body.name.lower() for s in STATIONS.values()):',
                                'if any(s["name"] == body.name for s in STATIONS.values()):'),
                           Edit("no Location for stations",
                                '''    response.headers["Location"] = f"/stations/{station['id']}"\n''', ""))),
        Requirement("`GET /stations` sorts by name ignoring case and counts docked (any status) "
                    "and available bikes.",
                    probes=("station_list",),
                    traps=(Edit("stations sorted case-sensitively",
                                'key=lambda s: (s["name"].lower(), s["id"])',
                                'key=lambda s: (s["name"], s["id"])'),
                           Edit("damaged bikes not docked", '''def docked(station_id: int) -> list[dict]:
    return [b for b in BIKES.values() if b["station_id"] == station_id]''', '''def docked(station_id: int) -> list[dict]:
    return [b for b in BIKES.values() if b["station_id"] == station_id and b["status"] == "available"]'''))),
        Requirement("`POST /bikes` checks the station and its capacity, answers 201 with "
                    "`Location`; `GET /bikes` filters by station and status.",
                    probes=("bikes",),
                    traps=(Edit("capacity off by one",
                                'if len(docked(station["id"])) >= station["capacity"]:',
                                'if len(docked(station["id"])) > station["capacity"]:'),
                           Edit("status filter ignored",
                                'and (status is None or b["status"] == status)]', "]"))),
        Requirement("Renting is for riders: 201 with `Location`, the bike `rented` with no "
                    "station; a bike not available is 409 `bike_unavailable`.",
                    probes=("rental_start",),
                    traps=(Edit("bike keeps its station",
                                'bike["status"], bike["station_id"] = "rented", None',
                                'bike["status"] = "rented"'),
                           Edit("no Location for rentals",
                                '''    response.headers["Location"] = f"/rentals/{rental['id']}"\n''',
                                ""))),
        Requirement("`POST /rentals` checks an open rental first, then the bike, then its "
                    "availability.",
                    probes=("rental_checks_order",),
                    traps=(Edit("bike checked before the open rental", '''    if any(r["rider"] == name and r["status"] == "open" for r in RENTALS.values()):
        raise Failure(409, "rental_open")
    bike = bike_of(body.bike_id)
''', '''    bike = bike_of(body.bike_id)
    if any(r["rider"] == name and r["status"] == "open" for r in RENTALS.values()):
        raise Failure(409, "rental_open")
'''),)),
        Requirement("Fees are integer cents: ${unlock} to unlock, minutes after the first "
                    "${free_minutes} at the kind's rate, capped at ${cap}.",
                    probes=("fees",),
                    traps=(Edit("free minutes counted one short", "max(minutes - FREE_MINUTES, 0)",
                                "max(minutes - FREE_MINUTES + 1, 0)"),
                           Edit("no cap", "return min(UNLOCK_CENTS + charged * RATES[kind], CAP_CENTS)",
                                "return UNLOCK_CENTS + charged * RATES[kind]"),
                           Edit("fees in euros", "return min(UNLOCK_CENTS + charged * RATES[kind], CAP_CENTS)",
                                "return min(UNLOCK_CENTS + charged * RATES[kind], CAP_CENTS) / 1"))),
        Requirement("Returns: only the rider (404 otherwise), then 409 `already_returned`, 404 "
                    "`unknown_station`, 409 `station_full`; minutes 1-1440; the bike docks "
                    "there.",
                    probes=("return_rules",),
                    traps=(Edit("operators return rentals", '''    if rental["rider"] != name:
        raise Failure(404, "unknown_rental")
''', ""),
                           Edit("returns ignore capacity", '''    station = station_of(body.station_id)
    ensure_room(station)
    bike = BIKES''', '''    station = station_of(body.station_id)
    bike = BIKES'''),
                           Edit("station before already_returned", '''    if rental["status"] != "open":
        raise Failure(409, "already_returned")
    station = station_of(body.station_id)
''', '''    station = station_of(body.station_id)
    if rental["status"] != "open":
        raise Failure(409, "already_returned")
'''))),
        Requirement("Returned minutes are whole minutes 1-1440 (else 400 `invalid`).",
                    probes=("return_minutes",),
                    traps=(Edit("minutes unbounded", "minutes: int = Field(ge=1, le=1440)",
                                "minutes: int = Field(ge=1)"),
                           Edit("zero minutes allowed", "minutes: int = Field(ge=1, le=1440)",
                                "minutes: int = Field(ge=0, le=1440)"))),
        Requirement("A rental is visible to its rider and operators; others get 404 "
                    "`unknown_rental`.",
                    probes=("rental_visibility",),
                    traps=(Edit("staff see all rentals", 'ROLES[name] != "operator")',
                                'ROLES[name] == "rider")'),)),
        Requirement("`GET /me/rentals` lists the caller's own rentals, newest first.",
                    probes=("my_rentals",),
                    traps=(Edit("oldest first", 'key=lambda r: -r["id"]', 'key=lambda r: r["id"]'),)),
        Requirement("`GET /me/rentals` carries `X-Total-Cents`, the sum of the listed fees.",
                    probes=("total_cents",),
                    traps=(Edit("no total header",
                                '    response.headers["X-Total-Cents"] = str(sum(r["fee_cents"] or 0 for r in mine))\n',
                                ""),
                           Edit("total of every rider",
                                'str(sum(r["fee_cents"] or 0 for r in mine))',
                                'str(sum(r["fee_cents"] or 0 for r in RENTALS.values()))'))),
        Requirement("Damage reports: trimmed note 1-${note_max}, severity minor/major; riders "
                    "only for bikes they rented (403 `never_rented`); 404 `unknown_bike`.",
                    probes=("damage_reports",),
                    traps=(Edit("notes not trimmed", '''    note: str = Field(min_length=1, max_length=${note_max})

    @field_validator("note", mode="before")
    @classmethod
    def trim(cls, value):
        return value.strip() if isinstance(value, str) else value
''', '''    note: str = Field(min_length=1, max_length=${note_max})
'''),
                           Edit("any rider reports", '''    if ROLES[name] == "rider" and not any(''',
                                '''    if ROLES[name] == "nobody" and not any('''))),
        Requirement("A major report, or the ${minor_limit}th open minor one, makes an available "
                    "bike `damaged` (not rentable, not counted available).",
                    probes=("damage_threshold",),
                    traps=(Edit("minor threshold off by one", "open_minor_reports(bike_id) >= MINOR_LIMIT",
                                "open_minor_reports(bike_id) > MINOR_LIMIT"),
                           Edit("damaged bikes still rentable", '''    if bike["status"] != "available":
        raise Failure(409, "bike_unavailable")''', '''    if bike["status"] == "rented":
        raise Failure(409, "bike_unavailable")'''))),
        Requirement("A rented bike stays `rented` when reported and returns `damaged` after an "
                    "open major report.",
                    probes=("damage_while_rented",),
                    traps=(Edit("returned bikes always available",
                                '"damaged" if has_major else "available"', '"available"'),)),
        Requirement("Mechanics repair: 404, 409 `nothing_to_repair`, else all open reports "
                    "resolved and the bike available.",
                    probes=("repairs",),
                    traps=(Edit("repair resolves one report", '''    for report in reports:
        report["status"] = "resolved"''', '''    for report in reports[:1]:
        report["status"] = "resolved"'''),
                           Edit("repair of a healthy bike allowed", '''    if not reports:
        raise Failure(409, "nothing_to_repair")
''', ""))),
        Requirement("`GET /damage` is for operators and mechanics, by id, `status` open by "
                    "default, resolved or all.",
                    probes=("damage_list",),
                    traps=(Edit("all reports by default", '"all"] = "open"', '"all"] = "all"'),
                           Edit("riders list damage", 'Staff = role("operator", "mechanic")',
                                'Staff = role("operator", "mechanic", "rider")'))),
        Requirement("The revenue report counts closed rentals and sums their fees, per kind with "
                    "both kinds present.",
                    probes=("revenue",),
                    traps=(Edit("open rentals counted",
                                'closed = [r for r in RENTALS.values() if r["status"] == "closed"]',
                                'closed = [r | {"fee_cents": r["fee_cents"] or 0} for r in RENTALS.values()]'),
                           Edit("kinds without revenue left out", '''    by_kind = {kind: sum(r["fee_cents"] for r in closed if BIKES[r["bike_id"]]["kind"] == kind)
               for kind in ("classic", "electric")}''', '''    by_kind = {}
    for r in closed:
        kind = BIKES[r["bike_id"]]["kind"]
        by_kind[kind] = by_kind.get(kind, 0) + r["fee_cents"]'''))),
    ),
)
