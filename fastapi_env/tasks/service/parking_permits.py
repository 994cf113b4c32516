"""Service tier: a city parking-permit office specified like a product document (12 routes,
HTTP Basic credentials with case-insensitive user names and two roles, vehicles whose plates are
normalised, zones with a capacity counted over day ranges, permits that officers approve or
reject on a day number given in the request, cancellation, filtered offset pagination with a
`next_offset`, and nested `{"error": {...}}` bodies naming invalid inputs by dotted location).

The parameters change what a correct app answers: the users and realm, the zones (codes,
capacities, daily rates), the plate length bounds, the longest permit, the page sizes, the
status of a validation failure, what another resident's permit looks like (403 or 404), which of
two approval failures wins, and whether an approved permit may still be cancelled."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROW
from fastapi_env.tasks.traps import (
    extras_ignored,
    ids_reused,
    other_validation_status,
    router_error_traps,
)

REFERENCE = '''\
import base64
import binascii
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

REALM = ${realm__repr}
# user name (lower case) -> canonical name, password, role
USERS = {name.lower(): {"name": name, "password": password, "role": role}
         for name, password, role in ${users__repr}}
ZONES = {code: {"code": code, "name": name, "capacity": capacity, "daily_rate": rate}
         for code, name, capacity, rate in ${zones__repr}}
VEHICLES: dict[int, dict] = {}
PERMITS: dict[int, dict] = {}
NEXT = {"vehicle": 1, "permit": 1}
INVALID_STATUS = ${invalid_status}
HOLDING = ("pending", "approved")  # these hold a vehicle's place and block its removal
CANCELLABLE = ${cancellable__repr}

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Refusal(Exception):
    def __init__(self, status: int, code: str, headers: dict | None = None):
        self.status, self.code, self.headers = status, code, headers


def error_body(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "status": status, **extra}},
                        status_code=status, headers=headers)


@app.exception_handler(Refusal)
async def on_refusal(request: Request, exc: Refusal):
    return error_body(exc.status, exc.code, exc.headers)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    code = "no_route" if exc.status_code == 404 else "method_not_allowed"
    return error_body(exc.status_code, code, exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {".".join(str(part) for part in e["loc"]) for e in exc.errors()}
    return error_body(INVALID_STATUS, "invalid_input", fields=sorted(fields))


def normal_plate(value: str) -> str:
    plate = value.replace(" ", "").replace("-", "").upper()
    if not (${plate_min} <= len(plate) <= ${plate_max} and plate.isascii() and plate.isalnum()):
        raise ValueError("a plate is ${plate_min}-${plate_max} letters and digits")
    return plate


def trimmed(limit: int):
    def check(value: str) -> str:
        value = value.strip()
        if not 1 <= len(value) <= limit:
            raise ValueError(f"1-{limit} characters")
        return value
    return AfterValidator(check)


def zone_code(value: str) -> str:
    return value.strip().upper()


Plate = Annotated[str, AfterValidator(normal_plate)]


class VehicleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    plate: Plate
    make: Annotated[str, trimmed(20)]


class PermitIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    vehicle_id: int
    zone: Annotated[str, AfterValidator(zone_code)]
    start_day: int = Field(ge=0)
    days: int = Field(ge=1, le=${max_days})


class Decision(BaseModel):
    model_config = ConfigDict(extra="forbid")
    day: int = Field(ge=0)


class Rejection(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reason: Annotated[str, trimmed(200)]


def caller(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, encoded = (authorization or "").partition(" ")
    try:
        decoded = base64.b64decode(encoded.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        decoded = ""
    name, colon, password = decoded.partition(":")
    user = USERS.get(name.lower())
    if scheme.lower() != "basic" or not colon or user is None or user["password"] != password:
        raise Refusal(401, "bad_credentials", {"WWW-Authenticate": f'Basic realm="{REALM}"'})
    return user


def role(required: str):
    def check(user: Annotated[dict, Depends(caller)]) -> dict:
        if user["role"] != required:
            raise Refusal(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(caller)]
Resident = Annotated[dict, Depends(role("resident"))]
Officer = Annotated[dict, Depends(role("officer"))]


def find_zone(code: str) -> dict:
    if code not in ZONES:
        raise Refusal(404, "zone_not_found")
    return ZONES[code]


def own_vehicle(vehicle_id: int, user: dict) -> dict:
    vehicle = VEHICLES.get(vehicle_id)
    if vehicle is None or vehicle["owner"] != user["name"]:
        raise Refusal(404, "vehicle_not_found")
    return vehicle


def visible_permit(permit_id: int, user: dict) -> dict:
    permit = PERMITS.get(permit_id)
    if permit is None:
        raise Refusal(404, "permit_not_found")
    if user["role"] != "officer" and permit["holder"] != user["name"]:
        raise Refusal(${foreign_status}, ${foreign_code__repr})
    return permit


def overlaps(a: dict, b: dict) -> bool:
    return a["start_day"] <= b["last_day"] and b["start_day"] <= a["last_day"]


def active_on(permit: dict, day: int) -> bool:
    return permit["status"] == "approved" and permit["start_day"] <= day <= permit["last_day"]


def permit_out(permit: dict) -> dict:
    return {key: permit[key] for key in ("id", "vehicle_id", "plate", "holder", "zone",
                                         "start_day", "last_day", "fee", "status",
                                         "decided_by", "decided_on", "reason")}


@app.get("/me")
def me(user: AnyUser):
    return {"name": user["name"], "role": user["role"]}


@app.get("/zones")
def list_zones(user: AnyUser):
    return [ZONES[code] for code in sorted(ZONES)]


@app.get("/zones/{code}/occupancy")
def occupancy(code: str, user: AnyUser, day: Annotated[int, Query(ge=0)]):
    zone = find_zone(zone_code(code))
    taken = sum(1 for p in PERMITS.values() if p["zone"] == zone["code"] and active_on(p, day))
    return {"zone": zone["code"], "day": day, "capacity": zone["capacity"], "occupied": taken,
            "free": zone["capacity"] - taken}


@app.post("/vehicles", status_code=201)
def register_vehicle(user: Resident, body: VehicleIn, response: Response):
    if any(v["plate"] == body.plate for v in VEHICLES.values()):
        raise Refusal(409, "plate_taken")
    vehicle = {"id": NEXT["vehicle"], "plate": body.plate, "make": body.make,
               "owner": user["name"]}
    NEXT["vehicle"] += 1
    VEHICLES[vehicle["id"]] = vehicle
    response.headers["Location"] = f"/vehicles/{vehicle['id']}"
    return vehicle


@app.get("/vehicles")
def list_vehicles(user: AnyUser):
    shown = [v for v in VEHICLES.values()
             if user["role"] == "officer" or v["owner"] == user["name"]]
    return sorted(shown, key=lambda v: v["plate"])


@app.delete("/vehicles/{vehicle_id}", status_code=204)
def remove_vehicle(vehicle_id: int, user: Resident):
    vehicle = own_vehicle(vehicle_id, user)
    if any(p["vehicle_id"] == vehicle["id"] and p["status"] in HOLDING
           for p in PERMITS.values()):
        raise Refusal(409, "vehicle_has_permits")
    del VEHICLES[vehicle["id"]]
    return Response(status_code=204)


@app.post("/permits", status_code=201)
def apply(user: Resident, body: PermitIn, response: Response):
    vehicle = own_vehicle(body.vehicle_id, user)
    zone = find_zone(body.zone)
    permit = {"id": NEXT["permit"], "vehicle_id": vehicle["id"], "plate": vehicle["plate"],
              "holder": user["name"], "zone": zone["code"], "start_day": body.start_day,
              "last_day": body.start_day + body.days - 1, "fee": body.days * zone["daily_rate"],
              "status": "pending", "decided_by": None, "decided_on": None, "reason": None}
    if any(p["vehicle_id"] == vehicle["id"] and p["zone"] == zone["code"]
           and p["status"] in HOLDING and overlaps(p, permit) for p in PERMITS.values()):
        raise Refusal(409, "overlapping_permit")
    NEXT["permit"] += 1
    PERMITS[permit["id"]] = permit
    response.headers["Location"] = f"/permits/{permit['id']}"
    return permit_out(permit)


@app.get("/permits")
def list_permits(
    user: AnyUser,
    status: Literal["pending", "approved", "rejected", "cancelled"] | None = None,
    zone: str | None = None,
    plate: str | None = None,
    active_day: Annotated[int | None, Query(ge=0)] = None,
    offset: Annotated[int, Query(ge=0)] = 0,
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
):
    permits = [p for p in sorted(PERMITS.values(), key=lambda p: p["id"])
               if user["role"] == "officer" or p["holder"] == user["name"]]
    if status is not None:
        permits = [p for p in permits if p["status"] == status]
    if zone is not None:
        permits = [p for p in permits if p["zone"] == zone_code(zone)]
    if plate is not None:
        wanted = plate.replace(" ", "").replace("-", "").upper()
        permits = [p for p in permits if p["plate"] == wanted]
    if active_day is not None:
        permits = [p for p in permits if active_on(p, active_day)]
    more = offset + limit < len(permits)
    return {"items": [permit_out(p) for p in permits[offset:offset + limit]],
            "next_offset": offset + limit if more else None}


@app.get("/permits/{permit_id}")
def read_permit(permit_id: int, user: AnyUser):
    return permit_out(visible_permit(permit_id, user))


def pending(permit_id: int, user: dict) -> dict:
    permit = visible_permit(permit_id, user)
    if permit["status"] != "pending":
        raise Refusal(409, "not_pending")
    return permit


def not_expired(permit: dict, day: int) -> None:
    if day > permit["last_day"]:
        raise Refusal(409, "permit_expired")


def zone_has_room(permit: dict, day: int) -> None:
    rivals = sum(1 for p in PERMITS.values() if p["zone"] == permit["zone"]
                 and p["status"] == "approved" and overlaps(p, permit))
    if rivals >= ZONES[permit["zone"]]["capacity"]:
        raise Refusal(409, "zone_full")


@app.post("/permits/{permit_id}/approve")
def approve(permit_id: int, user: Officer, body: Decision):
    permit = pending(permit_id, user)
    for check in ${approval_checks}:
        check(permit, body.day)
    permit.update(status="approved", decided_by=user["name"], decided_on=body.day)
    return permit_out(permit)


@app.post("/permits/{permit_id}/reject")
def reject(permit_id: int, user: Officer, body: Rejection):
    permit = pending(permit_id, user)
    permit.update(status="rejected", decided_by=user["name"], reason=body.reason)
    return permit_out(permit)


@app.post("/permits/{permit_id}/cancel")
def cancel(permit_id: int, user: Resident):
    permit = visible_permit(permit_id, user)
    if permit["status"] not in CANCELLABLE:
        raise Refusal(409, "not_cancellable")
    permit["status"] = "cancelled"
    return permit_out(permit)


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


def basic(name: str, password: str) -> dict:
    token = base64.b64encode(f"{name}:{password}".encode()).decode()
    return {"Authorization": f"Basic {token}"}


client = TestClient(app)
resident, officer = basic(${r1__repr}, ${r1_pw__repr}), basic(${o1__repr}, ${o1_pw__repr})
car = client.post("/vehicles", json={"plate": ${first_plate__repr}, "make": " Volvo "},
                  headers=resident)
permit = client.post("/permits", json={"vehicle_id": car.json()["id"], "zone": " ${first_zone} ",
                                       "start_day": 10, "days": 7}, headers=resident)
result = [
    row(car),
    row(permit),
    row(client.post(f"{permit.headers['location']}/approve", json={"day": 12}, headers=officer)),
    row(client.get("/zones/${first_zone}/occupancy", params={"day": 16},
                   headers=resident)),
    row(client.get("/zones")),
]
'''

PROBES = '''\
import base64


def _basic(name, password):
    return {"Authorization": "Basic " + base64.b64encode(f"{name}:{password}".encode()).decode()}


R1, R2, R3 = _basic(${r1__repr}, ${r1_pw__repr}), _basic(${r2__repr}, ${r2_pw__repr}), _basic(${r3__repr}, ${r3_pw__repr})
O1, O2 = _basic(${o1__repr}, ${o1_pw__repr}), _basic(${o2__repr}, ${o2_pw__repr})
ROOMY, TIGHT = ${roomy_zone__repr}, ${tight_zone__repr}


''' + ROW + '''

def _car(client, plate, headers=R1, make="Fiat"):
    return client.post("/vehicles", json={"plate": plate, "make": make}, headers=headers).json()["id"]


def _apply(client, vehicle, start, days, zone=ROOMY, headers=R1):
    body = {"vehicle_id": vehicle, "zone": zone, "start_day": start, "days": days}
    return client.post("/permits", json=body, headers=headers)


def _permit(client, vehicle, start, days, zone=ROOMY, headers=R1):
    return _apply(client, vehicle, start, days, zone, headers).json()["id"]


def _approve(client, permit, day, headers=O1):
    return client.post(f"/permits/{permit}/approve", json={"day": day}, headers=headers)


def _brief(r):
    body = r.json()
    if r.status_code >= 400:
        return [r.status_code, body]
    return [r.status_code, body["status"], body["decided_by"], body["decided_on"]]


def probe_credentials_required(client):
    name, password = ${r1__repr}, ${r1_pw__repr}
    rows = []
    for headers in [{}, {"Authorization": "Bearer " + password}, {"Authorization": "Basic !!"},
                    {"Authorization": "Basic "},
                    {"Authorization": "Basic " + base64.b64encode(name.encode()).decode()},
                    _basic(name, password + "x"), _basic("nobody", password),
                    _basic(name, ""), {"Authorization": password}]:
        for method, path in [("GET", "/me"), ("GET", "/zones"), ("GET", "/zones/x/occupancy"),
                             ("POST", "/vehicles"), ("GET", "/vehicles"),
                             ("DELETE", "/vehicles/1"), ("POST", "/permits"),
                             ("GET", "/permits"), ("GET", "/permits/1"),
                             ("POST", "/permits/1/approve"), ("POST", "/permits/1/reject"),
                             ("POST", "/permits/1/cancel")]:
            r = client.request(method, path, headers=headers, json={"plate": 5})
            rows.append([method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    return rows


def probe_user_names_ignore_case(client):
    rows = []
    for name, password in [(${r1__repr}.upper(), ${r1_pw__repr}), (${o2__repr}.lower(), ${o2_pw__repr}),
                           (${r2__repr}, ${r2_pw__repr}.upper()), (${r2__repr}, ${r2_pw__repr} + " "),
                           (" " + ${r3__repr}, ${r3_pw__repr})]:
        rows.append([name, _row(client.get("/me", headers=_basic(name, password)))])
    lower = {"Authorization": _basic(${r3__repr}, ${r3_pw__repr})["Authorization"].replace("Basic", "basic")}
    rows.append(_row(client.get("/me", headers=lower)))
    return rows


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (R1, R2, R3, O1, O2)]
''' + late_body.probe_source(
    [("POST", "/vehicles"), ("POST", "/permits"), ("POST", "/permits/1/approve"),
     ("POST", "/permits/1/reject")],
    [("no credentials", "{}"), ("resident", "R1"), ("officer", "O1")]) + '''


def probe_roles(client):
    return [
        _row(client.post("/vehicles", json={"plate": "OK123", "make": "Kia"}, headers=O1)),
        _row(client.post("/vehicles", json={"plate": 5}, headers=O2)),
        _row(client.post("/permits", json={}, headers=O1)),
        _row(client.post("/permits/1/approve", json={"day": -1}, headers=R1)),
        _row(client.post("/permits/abc/approve", json={"day": 1}, headers=R2)),
        _row(client.post("/permits/1/reject", json={"reason": ""}, headers=R1)),
        _row(client.post("/permits/1/cancel", headers=O1)),
        _row(client.delete("/vehicles/1", headers=O2)),
    ]


def probe_unknown_routes(client):
    rows = []
    for method, path in [("GET", "/nope"), ("GET", "/zones/x"), ("PUT", "/zones"),
                         ("DELETE", "/permits/1"), ("GET", "/permits/1/approve"),
                         ("PATCH", "/vehicles/1")]:
        r = client.request(method, path, headers=R1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_validation_format(client):
    return [
        _row(client.post("/vehicles", json={}, headers=R1)),
        _row(client.post("/vehicles", json=[], headers=R1)),
        _row(client.post("/permits", json={"vehicle_id": "x", "days": 0}, headers=R1)),
        _row(client.get("/permits", params={"limit": 0, "offset": -1}, headers=R1)),
        _row(client.get("/permits/abc", headers=R1)),
        _row(client.get("/zones/" + ROOMY + "/occupancy", headers=R1)),
        _row(client.post("/permits/1/approve", json={"day": "soon", "note": 1}, headers=O1)),
    ]


def probe_zones(client):
    return [_row(client.get("/zones", headers=R2)), _row(client.get("/zones", headers=O2))]


def probe_occupancy(client):
    cars = [_car(client, f"OCC{n}", headers=R2) for n in range(4)]
    first = _permit(client, cars[0], 105, 5, headers=R2)  # 105-109
    second = _permit(client, cars[1], 108, 5, headers=R2)  # 108-112
    _permit(client, cars[2], 100, 20, headers=R2)  # stays pending
    _approve(client, first, 100)
    _approve(client, second, 100)
    rows = []
    for code, day in [(ROOMY, 104), (ROOMY, 105), (ROOMY.lower(), 108), (ROOMY, 109),
                      (ROOMY, 110), (ROOMY, 112), (ROOMY, 113)]:
        rows.append([code, day, _row(client.get(f"/zones/{code}/occupancy", params={"day": day},
                                                headers=R1))])
    rows.append(_row(client.get("/zones/ZZ9/occupancy", params={"day": 1}, headers=R1)))
    rows.append(_row(client.get("/zones/ZZ9/occupancy", params={"day": -1}, headers=R1)))
    rows.append(_row(client.get(f"/zones/{ROOMY}/occupancy", params={"day": "x"}, headers=R1)))
    return rows


def probe_register_vehicle(client):
    r = client.post("/vehicles", json={"plate": " rg-42 xy ", "make": "  Mini  "}, headers=R2)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append([v for v in client.get("/vehicles", headers=R2).json() if v["id"] == r.json()["id"]])
    return rows


def probe_plate_validation(client):
    shortest, longest = "P" * ${plate_min}, "Q" * ${plate_max}
    rows = []
    for n, body in enumerate([
            {"plate": shortest[:-1], "make": "Kia"}, {"plate": shortest, "make": "Kia"},
            {"plate": longest, "make": "Kia"}, {"plate": longest + "Q", "make": "Kia"},
            {"plate": " " + "-".join("R" * ${plate_max}).lower() + " ", "make": "Kia"},
            {"plate": "AB_12", "make": "Kia"}, {"plate": "ÄB12", "make": "Kia"},
            {"plate": 12345, "make": "Kia"}, {"plate": "MKA1", "make": ""},
            {"plate": "MKA2", "make": "   "}, {"plate": "MKA3", "make": " " + "m" * 20 + " "},
            {"plate": "MKA4", "make": "m" * 21}, {"plate": "MKA5", "make": "Kia", "owner": "x"},
            {"plate": "MKA6"}]):
        r = client.post("/vehicles", json=body, headers=R3)
        rows.append([n, r.status_code, r.json() if r.status_code >= 400
                     else [r.json()["plate"], r.json()["make"]]])
    return rows


def probe_duplicate_plates(client):
    first = client.post("/vehicles", json={"plate": "DU 77", "make": "Audi"}, headers=R1)
    rows = [_row(client.post("/vehicles", json={"plate": "du-77", "make": "Seat"}, headers=R2)),
            _row(client.post("/vehicles", json={"plate": "DU77", "make": "Audi"}, headers=R1))]
    client.delete(f"/vehicles/{first.json()['id']}", headers=R1)
    r = client.post("/vehicles", json={"plate": "d u 7 7", "make": "Seat"}, headers=R2)
    rows.append([r.status_code, r.json()["plate"], r.json()["owner"]])
    return rows


def probe_list_vehicles(client):
    ids = [_car(client, plate, headers=R3) for plate in ("LV30", "LV10", "LV20")]
    mine = client.get("/vehicles", headers=R3).json()
    everyone = client.get("/vehicles", headers=O2).json()
    return [[v["plate"] for v in mine if v["plate"].startswith("LV")],
            [[v["owner"] for v in mine] == [${r3__repr}] * len(mine)],
            ["others", [v for v in client.get("/vehicles", headers=R1).json() if v["id"] in ids]],
            [v["plate"] for v in everyone if v["id"] in ids],
            [[v["plate"] for v in everyone] == sorted(v["plate"] for v in everyone),
             len({v["owner"] for v in everyone}) > 1]]


def probe_remove_vehicle(client):
    held = _car(client, "RMV1", headers=R2)
    refused = _car(client, "RMV2", headers=R2)
    waiting = _permit(client, held, 400, 3, headers=R2)
    denied = _permit(client, refused, 400, 3, headers=R2)
    client.post(f"/permits/{denied}/reject", json={"reason": "no"}, headers=O1)
    rows = [_row(client.delete(f"/vehicles/{held}", headers=R1)),
            _row(client.delete(f"/vehicles/{held}", headers=R2)),
            _row(client.delete(f"/vehicles/{refused}", headers=R2)),
            _row(client.delete(f"/vehicles/{refused}", headers=R2)),
            _row(client.delete("/vehicles/99999", headers=R2))]
    client.post(f"/permits/{waiting}/cancel", headers=R2)
    rows.append(_row(client.delete(f"/vehicles/{held}", headers=R2)))
    rows.append(["left", [v["id"] == held for v in client.get("/vehicles", headers=R2).json()
                          if v["id"] in (held, refused)]])
    return rows


def probe_ids_never_reused(client):
    first = _car(client, "IDV1", headers=R1)
    last = _car(client, "IDV2", headers=R1)
    client.delete(f"/vehicles/{last}", headers=R1)
    again = _car(client, "IDV3", headers=R1)
    return [[last - first, again - last]]


def probe_apply(client):
    car = _car(client, "AP V1", headers=R3)
    r = _apply(client, car, 500, 4, zone=" " + ROOMY.lower() + " ", headers=R3)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.get(r.headers["location"], headers=R3)))
    one_day = _apply(client, car, 520, 1, zone=TIGHT, headers=R3)
    rows.append(_row(one_day))
    return rows


def probe_permit_validation(client):
    car = _car(client, "PVV1", headers=R1)
    rows = []
    start = 600
    for body in [{"days": 0}, {"days": 1}, {"days": ${max_days}}, {"days": ${max_days} + 1},
                 {"days": -3}, {"start_day": -1}, {"start_day": 0}, {"start_day": "7"},
                 {"days": "2"}, {"days": 2.0}, {"days": 2.5}, {"days": None},
                 {"vehicle_id": str(car)}, {"holder": ${r2__repr}}, {"zone": None}]:
        full = {"vehicle_id": car, "zone": ROOMY, "start_day": start, "days": 1} | body
        start += 100
        r = client.post("/permits", json=full, headers=R1)
        rows.append([body, r.status_code, r.json() if r.status_code >= 400
                     else [r.json()["start_day"], r.json()["last_day"]]])
    rows.append(_row(client.post("/permits", json={"vehicle_id": car}, headers=R1)))
    return rows


def probe_apply_lookups(client):
    mine = _car(client, "LKV1", headers=R1)
    theirs = _car(client, "LKV2", headers=R2)
    return [_row(_apply(client, theirs, 800, 2, headers=R1)),
            _row(_apply(client, 99999, 800, 2, zone="ZZ9", headers=R1)),
            _row(_apply(client, theirs, 800, 2, zone="ZZ9", headers=R1)),
            _row(_apply(client, mine, 800, 2, zone="ZZ9", headers=R1)),
            _row(_apply(client, mine, 800, 2, zone="  ", headers=R1)),
            _row(_apply(client, 99999, 800, 0, zone="ZZ9", headers=R1))]


def probe_overlapping_permits(client):
    car = _car(client, "OVV1", headers=R2)
    first = _permit(client, car, 900, 10, headers=R2)  # 900-909
    rows = [_brief(_apply(client, car, 909, 3, headers=R2)),
            _brief(_apply(client, car, 895, 5, headers=R2)),
            _brief(_apply(client, car, 895, 6, headers=R2)),
            _brief(_apply(client, car, 902, 2, headers=R2)),
            _brief(_apply(client, car, 905, 3, zone=TIGHT, headers=R2))]
    later = _apply(client, car, 910, 2, headers=R2)
    rows.append([later.status_code, later.json()["start_day"], later.json()["last_day"]])
    client.post(f"/permits/{first}/reject", json={"reason": "full"}, headers=O2)
    rows.append(_brief(_apply(client, car, 903, 2, headers=R2)))
    return rows


def probe_filters(client):
    car, other = _car(client, "FL-V1", headers=R3), _car(client, "FL-V2", headers=R3)
    ids = [_permit(client, car, 1000, 5, headers=R3),
           _permit(client, car, 1000, 5, zone=TIGHT, headers=R3),
           _permit(client, other, 1003, 5, headers=R3),
           _permit(client, car, 1010, 5, headers=R3)]
    _approve(client, ids[0], 1000)
    _approve(client, ids[2], 1000)
    client.post(f"/permits/{ids[3]}/reject", json={"reason": "x"}, headers=O1)
    rows = []
    for params in [{"plate": "fl v1"}, {"plate": "FLV1", "status": "approved"},
                   {"plate": "f-l-v2"}, {"plate": "FLV1", "zone": TIGHT.lower()},
                   {"plate": "FLV1", "zone": " " + TIGHT + " "},
                   {"plate": "FLV1", "status": "rejected"}, {"plate": "FLV1", "active_day": 1004},
                   {"plate": "FLV1", "active_day": 1005}, {"plate": "FLV2", "active_day": 1007},
                   {"plate": "FLV1", "status": "pending", "zone": ROOMY}]:
        body = client.get("/permits", params=params, headers=R3).json()
        rows.append([params, [ids.index(p["id"]) for p in body["items"]], body["next_offset"]])
    for params in [{"status": "Approved"}, {"status": "expired"}, {"active_day": -1}]:
        rows.append([params, _row(client.get("/permits", params=params, headers=R3))])
    return rows


def probe_residents_list_their_own(client):
    car = _car(client, "OWN1", headers=R2)
    _permit(client, car, 1100, 2, headers=R2)
    rows = [["resident", client.get("/permits", params={"plate": "OWN1"}, headers=h).json()["items"]]
            for h in (R1, R3)]
    seen = client.get("/permits", params={"plate": "OWN1"}, headers=O2).json()["items"]
    rows.append([[p["holder"], p["plate"]] for p in seen])
    listed = client.get("/permits", params={"limit": ${limit_max}}, headers=R2).json()["items"]
    rows.append([{p["holder"] for p in listed} == {${r2__repr}}])
    return rows


def probe_pagination(client):
    car = _car(client, "PGV1", headers=R1)
    ids = [_permit(client, car, 1200 + 10 * n, 2, headers=R1) for n in range(7)]
    rows = []
    for params in [{}, {"limit": 2}, {"limit": 2, "offset": 2}, {"limit": 2, "offset": 6},
                   {"limit": 3, "offset": 4}, {"limit": 4, "offset": 3}, {"offset": 7},
                   {"offset": 50}, {"limit": ${limit_max}}, {"limit": 1, "offset": 5}]:
        body = client.get("/permits", params=params | {"plate": "PGV1"}, headers=R1).json()
        rows.append([params, [ids.index(p["id"]) for p in body["items"]], body["next_offset"]])
    for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1}, {"limit": "all"}]:
        rows.append([params, _row(client.get("/permits", params=params, headers=R1))])
    return rows


def probe_permit_visibility(client):
    car = _car(client, "VIS1", headers=R1)
    permit = _permit(client, car, 1300, 2, headers=R1)
    return [_brief(client.get(f"/permits/{permit}", headers=h)) for h in (R1, O1, O2, R2, R3)] + [
        _row(client.get("/permits/99999", headers=O1)),
        _row(client.get("/permits/99999", headers=R2)),
        _row(client.post(f"/permits/{permit}/cancel", headers=R2)),
        _brief(client.get(f"/permits/{permit}", headers=R1))]


def probe_approve(client):
    car = _car(client, "APR1", headers=R2)
    permit = _permit(client, car, 1400, 5, headers=R2)
    refused = _permit(client, car, 1420, 5, headers=R2)
    client.post(f"/permits/{refused}/reject", json={"reason": "no"}, headers=O1)
    r = _approve(client, permit, 1390, headers=O2)
    return [_row(r), _brief(_approve(client, permit, 1391)), _brief(_approve(client, refused, 1391)),
            _row(_approve(client, 99999, 1)), _row(_approve(client, 99999, -1)),
            _row(client.post(f"/permits/{permit}/approve", json={}, headers=O1)),
            _brief(client.get(f"/permits/{permit}", headers=R2))]


def probe_expiry(client):
    car = _car(client, "EXP1", headers=R3)
    ids = [_permit(client, car, 1500 + 10 * n, 4, headers=R3) for n in range(4)]  # last +3
    return [_brief(_approve(client, ids[0], 1503)), _brief(_approve(client, ids[1], 1514)),
            _brief(_approve(client, ids[2], 1520)), _brief(_approve(client, ids[3], 0)),
            _brief(_approve(client, ids[1], 1513))]


def probe_zone_full(client):
    cars = [_car(client, f"ZFV{n}", headers=R1) for n in range(${tight_capacity} + 3)]
    wide = [_permit(client, c, 1600, 10, zone=TIGHT, headers=R1) for c in cars]  # 1600-1609
    rows = [[_brief(_approve(client, p, 1600)) for p in wide[:${tight_capacity} - 1]]]
    rows.append(_brief(_approve(client, wide[-1], 1600)))
    rows.append(_brief(_approve(client, wide[-2], 1600)))
    rows.append(_brief(_approve(client, wide[-3], 1600)))
    before = _permit(client, cars[0], 1590, 10, zone=TIGHT, headers=R1)  # ends the day before
    after = _permit(client, cars[0], 1610, 3, zone=TIGHT, headers=R1)
    edge = _permit(client, _car(client, "ZFXX", headers=R1), 1609, 1, zone=TIGHT, headers=R1)
    rows += [_brief(_approve(client, p, 1580)) for p in (before, after, edge)]
    return rows


def probe_approval_precedence(client):
    cars = [_car(client, f"PRV{n}", headers=R2) for n in range(${tight_capacity} + 1)]
    held = [_permit(client, c, 1700, 3, zone=TIGHT, headers=R2) for c in cars]
    for permit in held[:-1]:
        _approve(client, permit, 1700)
    return [_brief(_approve(client, held[-1], 1705)), _brief(_approve(client, held[-1], 1702))]


def probe_reject(client):
    car = _car(client, "RJV1", headers=R3)
    ids = [_permit(client, car, 1800 + 10 * n, 2, headers=R3) for n in range(3)]
    rows = []
    for body in [{"reason": ""}, {"reason": "   "}, {"reason": "x" * 201}, {},
                 {"reason": None}, {"reason": "ok", "day": 3}]:
        r = client.post(f"/permits/{ids[0]}/reject", json=body, headers=O2)
        rows.append([body if len(str(body)) < 50 else "long", _row(r)])
    rows.append(_row(client.post(f"/permits/{ids[0]}/reject",
                                 json={"reason": "  no street  "}, headers=O2)))
    rows.append(_row(client.post(f"/permits/{ids[1]}/reject",
                                 json={"reason": " " + "y" * 200 + " "}, headers=O2)))
    rows.append(_brief(client.post(f"/permits/{ids[0]}/reject", json={"reason": "again"},
                                   headers=O1)))
    _approve(client, ids[2], 1800)
    rows.append(_brief(client.post(f"/permits/{ids[2]}/reject", json={"reason": "late"},
                                   headers=O1)))
    rows.append(_row(client.post("/permits/99999/reject", json={"reason": "x"}, headers=O1)))
    return rows


def probe_cancel(client):
    cars = [_car(client, f"CNV{n}", headers=R1) for n in range(${tight_capacity} + 1)]
    waiting = _permit(client, cars[0], 1950, 3, headers=R1)
    rejected = _permit(client, cars[0], 1960, 3, headers=R1)
    client.post(f"/permits/{rejected}/reject", json={"reason": "no"}, headers=O1)
    held = [_permit(client, c, 1900, 3, zone=TIGHT, headers=R1) for c in cars]
    for permit in held[:-1]:
        _approve(client, permit, 1900)
    rows = [_brief(client.post(f"/permits/{waiting}/cancel", headers=R1)),
            _brief(client.post(f"/permits/{waiting}/cancel", headers=R1)),
            _brief(client.post(f"/permits/{rejected}/cancel", headers=R1)),
            _brief(client.post(f"/permits/{held[0]}/cancel", headers=R1)),
            _row(client.get(f"/zones/{TIGHT}/occupancy", params={"day": 1901}, headers=R1)),
            _brief(_approve(client, held[-1], 1900)),
            _row(client.post("/permits/99999/cancel", headers=R1))]
    return rows
'''

PROMPT = '''\
Build the HTTP API of a city parking-permit office, as specified below. All state is in memory;
the service starts with the users and zones given here and no vehicles or permits. There is no
clock: days are whole numbers (day 0, 1, 2, ...) that requests carry.

## Users and credentials
Every route needs HTTP Basic credentials (`Authorization: Basic <base64 of name:password>`):

| user | password | role |
|---|---|---|
${user_table}

User names are matched ignoring case (otherwise exactly: no trimming); passwords exactly; the
scheme word `Basic` in any case. Missing, malformed, unknown or wrong credentials (another
scheme, bad base64, no `:`, a wrong password) are 401 `bad_credentials` with the header
`WWW-Authenticate: Basic realm="${realm}"`. Routes marked *resident* or *officer* answer 403
`forbidden` to the other role. Responses name users by the spelling in this table.
`GET /me` answers 200 `{"name", "role"}`.

The order of checks on every route: credentials, role, input validation, then whether the
things the request names exist, then the route's own rules. A body that is not JSON is invalid
input like any other: it is checked after the credentials and the role.

## Errors
Every error body is `{"error": {"code": <code>, "status": <the status code>}}`. Invalid input
is ${invalid_status} `invalid_input`, whose `error` object has one more key, `"fields"`: the
sorted, distinct locations of the problems, each written as its parts joined by dots
(`"body.plate"`, `"query.limit"`, `"path.permit_id"`; `"body"` when the body is not JSON or not
a JSON object).
A body with a field not listed for it is invalid. Whole-number fields and parameters follow
FastAPI's standard parsing: `"7"` and `7.0` are accepted as 7, `7.5`, `"seven"` and `null` are
invalid. A path that matches no route is 404 `no_route`; a known path with another method is
405 `method_not_allowed` with the `Allow` header.

## Zones
A zone is `{"code", "name", "capacity", "daily_rate"}` (`daily_rate` in whole cents):

| code | name | capacity | daily_rate |
|---|---|---|---|
${zone_table}

Wherever a request gives a zone code (body, path or query) it is trimmed and upper-cased first;
an unknown code is 404 `zone_not_found`.
- `GET /zones`: 200, the zones sorted by code.
- `GET /zones/{code}/occupancy?day=<day>` (`day` required, >= 0): 200 `{"zone", "day",
  "capacity", "occupied", "free"}`: `occupied` counts the zone's approved permits valid on that
  day, `free` is `capacity` - `occupied`.

## Vehicles
A vehicle is `{"id", "plate", "make", "owner"}`; ids are 1, 2, ... in creation order and never
reused. A plate is stored normalised: spaces and hyphens removed, letters upper-cased; the
result must be ${plate_min}-${plate_max} ASCII letters and digits, else the plate is invalid.
`make` is stored trimmed and must then have 1-20 characters.
- `POST /vehicles` *resident* `{"plate", "make"}`: 201 with the vehicle, owned by the caller,
  and `Location: /vehicles/<id>`; 409 `plate_taken` if any vehicle (anyone's) has that
  normalised plate.
- `GET /vehicles`: 200, sorted by plate: a resident's own vehicles; for an officer, everyone's.
- `DELETE /vehicles/{vehicle_id}` *resident*: only the caller's own vehicle (another's, or a
  missing one, is 404 `vehicle_not_found`); 409 `vehicle_has_permits` while it has a pending or
  approved permit; else 204 with an empty body.

## Permits
A permit is `{"id", "vehicle_id", "plate", "holder", "zone", "start_day", "last_day", "fee",
"status", "decided_by", "decided_on", "reason"}`; ids are 1, 2, ... in creation order. It is
valid on the days `start_day` to `last_day`, both included. `status` is `pending`, `approved`,
`rejected` or `cancelled`. `decided_by` (the officer's name), `decided_on` (the approval day)
and `reason` (of a rejection) are null until set.

A resident sees only their own permits; another resident's permit answers ${foreign_status}
`${foreign_code}` on every route that names it (after the 404 `permit_not_found` for a missing
one). Officers see every permit.

- `POST /permits` *resident* `{"vehicle_id", "zone", "start_day", "days"}`: `start_day` >= 0,
  `days` 1-${max_days}. The vehicle must be the caller's (else 404 `vehicle_not_found`,
  checked before the zone). 201 with the new permit, `pending`, its `plate` the vehicle's,
  `last_day` = `start_day` + `days` - 1, `fee` = `days` * the zone's `daily_rate`, and
  `Location: /permits/<id>`. 409 `overlapping_permit` when the same vehicle already has a
  pending or approved permit in the same zone sharing at least one day with it.
- `GET /permits`: 200 `{"items", "next_offset"}`: the permits the caller sees, by id, filtered
  by the optional `status` (one of the four; anything else is invalid), `zone`, `plate`
  (normalised like a vehicle's, then matched exactly) and `active_day` (>= 0: approved and
  valid on that day); then `offset` (>= 0, default 0) matching permits are skipped and `limit`
  (1-${limit_max}, default ${limit_default}) returned. `next_offset` is the offset of the next page,
  null when no matching permit is left after this page.
- `GET /permits/{permit_id}`: 200 with the permit.
- `POST /permits/{permit_id}/approve` *officer* `{"day"}` (>= 0): 409 `not_pending` unless the
  permit is pending; 409 `permit_expired` when `day` is after its `last_day`; 409 `zone_full`
  when the zone's approved permits sharing at least one day with this one already number its
  capacity. When both `permit_expired` and `zone_full` apply, `${first_refusal}` wins. Else 200
  with the permit `approved`, `decided_by` the caller and `decided_on` the day.
- `POST /permits/{permit_id}/reject` *officer* `{"reason"}` (stored trimmed, then 1-200
  characters): 409 `not_pending` unless pending; else 200 with the permit `rejected`,
  `decided_by` the caller and the reason (`decided_on` stays null).
- `POST /permits/{permit_id}/cancel` *resident*, no body: ${cancel_rule}; else 409
  `not_cancellable`. 200 with the permit, now `cancelled`.

## result
One row per request, each `[status code, JSON body]`, as `${r1}` unless said otherwise:
1. `POST /vehicles` with `{"plate": "${first_plate}", "make": " Volvo "}`
2. `POST /permits` with `{"vehicle_id": <the id of row 1>, "zone": " ${first_zone} ",
   "start_day": 10, "days": 7}`
3. `POST <the Location of row 2>/approve` as `${o1}` with `{"day": 12}`
4. `GET /zones/${first_zone}/occupancy?day=16`
5. `GET /zones` without credentials
'''

ZONE_SEEDS = {
    "harbour": [["C", "Harbour", 3, 250], ["A", "Old Town", 2, 400], ["B", "Station", 6, 150]],
    "compass": [["W3", "West Quay", 4, 500], ["E1", "East Park", 7, 120],
                ["N2", "North Gate", 3, 300]],
}
USER_SETS = {
    "first": [["Nadia", "tulip-7", "resident"], ["Ruben", "Cedar9", "resident"],
              ["Ilse", "moss-moss", "resident"], ["OfficerKhan", "Badge-41", "officer"],
              ["Mei", "ward3n", "officer"]],
    "second": [["Tomas", "Quartz-2", "resident"], ["Lena", "fjord88", "resident"],
               ["Yusuf", "Olive-Tree", "resident"], ["Sgt-Ward", "p4trol", "officer"],
               ["Ada", "Meter-9", "officer"]],
}


def derive(p):
    users = USER_SETS[p["user_set"]]
    zones = ZONE_SEEDS[p["zone_seed"]]
    by_capacity = sorted(zones, key=lambda z: z[2])
    names = dict(zip(("r1", "r2", "r3", "o1", "o2"), users, strict=True))
    return {
        "users": users, "zones": zones,
        **{key: user[0] for key, user in names.items()},
        **{f"{key}_pw": user[1] for key, user in names.items()},
        "user_table": "\n".join(f"| `{n}` | `{pw}` | {r} |" for n, pw, r in users),
        "zone_table": "\n".join(f"| `{c}` | {n} | {cap} | {rate} |" for c, n, cap, rate in zones),
        "tight_zone": by_capacity[0][0], "tight_capacity": by_capacity[0][2],
        "roomy_zone": by_capacity[-1][0], "first_zone": zones[0][0].lower(),
        "foreign_code": "not_your_permit" if p["foreign_status"] == 403 else "permit_not_found",
        "approval_checks": "(not_expired, zone_has_room)" if p["expired_first"]
        else "(zone_has_room, not_expired)",
        "first_refusal": "permit_expired" if p["expired_first"] else "zone_full",
        "cancellable": ["pending", "approved"] if p["cancel_approved"] else ["pending"],
        "cancel_rule": "the holder may cancel a pending or an approved permit"
        if p["cancel_approved"] else "the holder may cancel a pending permit (an approved one "
        "can no longer be cancelled)",
    }


def flip(key):
    """The instance's derived values for the other value of a boolean parameter."""
    return lambda p: derive(p | {key: not p[key]})


FAMILY = Family(
    id="service/parking_permits",
    title="A city parking-permit office with zones, day ranges and officers, from its "
          "product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"user_set": "first", "realm": "permits", "zone_seed": "harbour",
              "first_plate": "ab-123 c", "plate_min": 2, "plate_max": 8, "max_days": 30,
              "limit_default": 5, "limit_max": 20, "invalid_status": 422,
              "foreign_status": 404, "expired_first": True, "cancel_approved": True},
    space={
        "users": [{"user_set": "first", "realm": "permits"},
                  {"user_set": "second", "realm": "city-parking"}],
        "zones": [{"zone_seed": "harbour", "first_plate": "ab-123 c"},
                  {"zone_seed": "compass", "first_plate": "k 77-zz"}],
        "plates": [{"plate_min": 2, "plate_max": 8}, {"plate_min": 4, "plate_max": 7}],
        "max_days": [30, 90],
        "paging": [{"limit_default": 5, "limit_max": 20}, {"limit_default": 3, "limit_max": 8}],
        "invalid_status": [422, 400],
        "foreign_status": [404, 403],
        "expired_first": [True, False],
        "cancel_approved": [True, False],
    },
    derive=derive,
    instances=12,
    requirements=(
        Requirement("Every route needs valid HTTP Basic credentials: else 401 `bad_credentials` "
                    "with `WWW-Authenticate: Basic realm=\"${realm}\"`, before anything else.",
                    probes="credentials_required",
                    traps=(Edit("no challenge",
                                ", {\"WWW-Authenticate\": f'Basic realm=\"{REALM}\"'})", ")"),
                           Edit("challenge without realm", "f'Basic realm=\"{REALM}\"'",
                                "'Basic'"),
                           Edit("empty password accepted",
                                'user is None or user["password"] != password:',
                                'user is None or (password and user["password"] != password):'))),
        Requirement("User names match ignoring case and nothing else, passwords exactly, the "
                    "scheme word in any case; responses use the table's spelling.",
                    probes="user_names_ignore_case",
                    traps=(Edit("user names case-sensitive", "user = USERS.get(name.lower())",
                                "user = next((u for u in USERS.values() if u['name'] == name), "
                                "None)"),
                           Edit("passwords ignore case", 'user["password"] != password:',
                                'user["password"].lower() != password.lower():'),
                           Edit("scheme case-sensitive", 'if scheme.lower() != "basic" or',
                                'if scheme != "Basic" or'),
                           Edit("user names trimmed", "user = USERS.get(name.lower())",
                                "user = USERS.get(name.strip().lower())"))),
        Requirement("`GET /me` answers the caller's name and role.",
                    probes="me",
                    traps=Edit("me shows the password too",
                               'return {"name": user["name"], "role": user["role"]}',
                               "return user")),
        Requirement("The credentials and the role are checked before the body, even a body "
                    "that is not JSON (then ${invalid_status} `invalid_input` naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Resident and officer routes answer 403 `forbidden` to the other role, "
                    "before the input is validated.",
                    probes="roles",
                    traps=(Edit("approval body validated before the role",
                                "def approve(permit_id: int, user: Officer, body: Decision):\n",
                                "def approve(permit_id: int, body: Decision, user: AnyUser):\n"
                                "    role('officer')(user)\n"),
                           Edit("officers may cancel",
                                "def cancel(permit_id: int, user: Resident):",
                                "def cancel(permit_id: int, user: AnyUser):"))),
        Requirement("Unknown paths are 404 `no_route`, other methods 405 `method_not_allowed` "
                    "with `Allow`, in the error format.",
                    probes="unknown_routes",
                    traps=router_error_traps("return error_body(exc.status_code, code, "
                                             "exc.headers)")),
        Requirement("Invalid input is ${invalid_status} `invalid_input` listing the sorted, "
                    "distinct dotted locations.",
                    probes="validation_format",
                    traps=(other_validation_status(),
                           Edit("fields named by their last part",
                                'fields = {".".join(str(part) for part in e["loc"]) for e in '
                                'exc.errors()}',
                                'fields = {str(e["loc"][-1]) for e in exc.errors()}'),
                           Edit("only the first problem listed",
                                'for e in exc.errors()}', 'for e in exc.errors()[:1]}'))),
        Requirement("`GET /zones` lists the zones sorted by code.",
                    probes="zones",
                    traps=Edit("zones in table order", "return [ZONES[code] for code in "
                               "sorted(ZONES)]", "return list(ZONES.values())")),
        Requirement("Occupancy counts the zone's approved permits valid on the day (both ends "
                    "included); the code is normalised; `day` is required and >= 0.",
                    probes="occupancy",
                    traps=(Edit("pending permits occupy", 'and active_on(p, day))',
                                'and p["status"] in HOLDING and p["start_day"] <= day <= '
                                'p["last_day"])'),
                           Edit("last day not valid",
                                'permit["start_day"] <= day <= permit["last_day"]',
                                'permit["start_day"] <= day < permit["last_day"]'),
                           Edit("zone path case-sensitive",
                                "zone = find_zone(zone_code(code))", "zone = find_zone(code)"),
                           Edit("occupancy day unbounded",
                                "day: Annotated[int, Query(ge=0)]):", "day: int):"))),
        Requirement("`POST /vehicles` stores the normalised plate and trimmed make, owned by "
                    "the caller: 201 with `Location`.",
                    probes="register_vehicle",
                    traps=(Edit("plate keeps hyphens",
                                'plate = value.replace(" ", "").replace("-", "").upper()',
                                'plate = value.replace(" ", "").upper()'),
                           Edit("no Location on vehicles",
                                "    response.headers[\"Location\"] = f\"/vehicles/"
                                "{vehicle['id']}\"\n", ""))),
        Requirement("Plates are ${plate_min}-${plate_max} ASCII letters and digits after "
                    "normalising; makes 1-20 after trimming; vehicle bodies take no other field.",
                    probes="plate_validation",
                    traps=(Edit("plate length before normalising",
                                "def normal_plate(value: str) -> str:\n",
                                "def normal_plate(value: str) -> str:\n"
                                "    if len(value) > ${plate_max}:\n"
                                "        raise ValueError('too long')\n"),
                           Edit("non-ASCII letters allowed", " and plate.isascii() and",
                                " and"),
                           Edit("make length before trimming",
                                "        value = value.strip()\n"
                                "        if not 1 <= len(value) <= limit:",
                                "        if not 1 <= len(value) <= limit or not "
                                "value.strip():\n            raise ValueError('length')\n"
                                "        value = value.strip()\n        if False:"),
                           extras_ignored("vehicle extras ignored", "VehicleIn"))),
        Requirement("A normalised plate is registered once across all residents: 409 "
                    "`plate_taken`, free again once the vehicle is removed.",
                    probes="duplicate_plates",
                    traps=(Edit("plates unique per owner",
                                'if any(v["plate"] == body.plate for v in VEHICLES.values()):',
                                'if any(v["plate"] == body.plate and v["owner"] == user["name"] '
                                'for v in VEHICLES.values()):'),
                           Edit("removed plates stay taken", '    del VEHICLES[vehicle["id"]]\n',
                                '    vehicle["owner"] = None\n'))),
        Requirement("`GET /vehicles` sorts by plate: a resident's own, all for officers.",
                    probes="list_vehicles",
                    traps=(Edit("vehicles by id", 'return sorted(shown, key=lambda v: v["plate"])',
                                "return shown"),
                           Edit("officers see only their own",
                                'if user["role"] == "officer" or v["owner"] == user["name"]]',
                                'if v["owner"] == user["name"]]'))),
        Requirement("A vehicle is removed only by its owner (else 404 `vehicle_not_found`) and "
                    "only without pending or approved permits (409 `vehicle_has_permits`): 204.",
                    probes="remove_vehicle",
                    traps=(Edit("anyone removes vehicles",
                                "    vehicle = own_vehicle(vehicle_id, user)\n    if any(",
                                "    vehicle = VEHICLES.get(vehicle_id)\n    if vehicle is None:\n"
                                "        raise Refusal(404, 'vehicle_not_found')\n    if any("),
                           Edit("rejected permits block removal",
                                'p["vehicle_id"] == vehicle["id"] and p["status"] in HOLDING',
                                'p["vehicle_id"] == vehicle["id"] and p["status"] != '
                                '"cancelled"'))),
        Requirement("Vehicle ids are never reused.",
                    probes="ids_never_reused",
                    traps=ids_reused("freed ids reused", "    vehicle = ", "VEHICLES", "vehicle")),
        Requirement("`POST /permits` answers 201 with a pending permit: normalised zone, the "
                    "vehicle's plate, `last_day` = start + days - 1, `fee` = days * rate, "
                    "`Location`.",
                    probes="apply",
                    traps=(Edit("last day exclusive",
                                '"last_day": body.start_day + body.days - 1,',
                                '"last_day": body.start_day + body.days,'),
                           Edit("no Location on permits",
                                "    response.headers[\"Location\"] = f\"/permits/"
                                "{permit['id']}\"\n", ""),
                           Edit("zone code not upper-cased", "return value.strip().upper()",
                                "return value.strip()"))),
        Requirement("Permit bodies: `start_day` >= 0, `days` 1-${max_days}, standard "
                    "whole-number parsing (`\"7\"` and `7.0` accepted), no other field.",
                    probes="permit_validation",
                    traps=(Edit("days unbounded", "days: int = Field(ge=1, le=${max_days})",
                                "days: int = Field(ge=1)"),
                           Edit("numbers strict", "days: int = Field(ge=1, le=${max_days})",
                                "days: int = Field(ge=1, le=${max_days}, strict=True)"),
                           extras_ignored("permit extras ignored", "PermitIn"))),
        Requirement("The vehicle must be the caller's (404 `vehicle_not_found`), checked "
                    "before the zone (404 `zone_not_found`), after validation.",
                    probes="apply_lookups",
                    traps=(Edit("zone looked up first",
                                "    vehicle = own_vehicle(body.vehicle_id, user)\n"
                                "    zone = find_zone(body.zone)\n",
                                "    zone = find_zone(body.zone)\n"
                                "    vehicle = own_vehicle(body.vehicle_id, user)\n"),
                           Edit("another's vehicle accepted",
                                '    if vehicle is None or vehicle["owner"] != user["name"]:',
                                "    if vehicle is None:"))),
        Requirement("A vehicle's pending or approved permits in one zone may not share a day: "
                    "409 `overlapping_permit`.",
                    probes="overlapping_permits",
                    traps=(Edit("touching ranges overlap",
                                'return a["start_day"] <= b["last_day"] and b["start_day"] <= '
                                'a["last_day"]',
                                'return a["start_day"] <= b["last_day"] + 1 and b["start_day"] '
                                '<= a["last_day"] + 1'),
                           Edit("overlap across zones",
                                'if any(p["vehicle_id"] == vehicle["id"] and p["zone"] == '
                                'zone["code"]\n',
                                'if any(p["vehicle_id"] == vehicle["id"]\n'),
                           Edit("rejected permits overlap",
                                '           and p["status"] in HOLDING and overlaps(p, permit)',
                                '           and p["status"] != "cancelled" and '
                                'overlaps(p, permit)'))),
        Requirement("`GET /permits` filters by `status`, normalised `zone` and `plate`, and "
                    "`active_day`.",
                    probes="filters",
                    traps=(Edit("plate filter not normalised",
                                'wanted = plate.replace(" ", "").replace("-", "").upper()',
                                "wanted = plate"),
                           Edit("zone filter case-sensitive",
                                'permits = [p for p in permits if p["zone"] == zone_code(zone)]',
                                'permits = [p for p in permits if p["zone"] == zone.strip()]'),
                           Edit("active_day counts pending",
                                "permits = [p for p in permits if active_on(p, active_day)]",
                                'permits = [p for p in permits if p["status"] in HOLDING and '
                                'p["start_day"] <= active_day <= p["last_day"]]'))),
        Requirement("A resident's list holds only their own permits; an officer's everyone's.",
                    probes="residents_list_their_own",
                    traps=Edit("residents list everyone's",
                               'if user["role"] == "officer" or p["holder"] == user["name"]]',
                               "]")),
        Requirement("Pages: `offset` >= 0, `limit` 1-${limit_max} (default ${limit_default}); "
                    "`next_offset` is null once nothing is left.",
                    probes="pagination",
                    traps=(Edit("next_offset always set",
                                '"next_offset": offset + limit if more else None}',
                                '"next_offset": offset + limit}'),
                           Edit("next_offset off by one at the end",
                                "more = offset + limit < len(permits)",
                                "more = offset + limit <= len(permits)"),
                           Edit("limit unbounded", "Query(ge=1, le=${limit_max})",
                                "Query(ge=1)"))),
        Requirement("Another resident's permit answers ${foreign_status} `${foreign_code}`; a "
                    "missing one 404 `permit_not_found`; officers see all.",
                    probes="permit_visibility",
                    traps=(Edit("foreign permits answer the other status",
                                "raise Refusal(${foreign_status}, ${foreign_code__repr})",
                                lambda p: 'raise Refusal(404, "permit_not_found")'
                                if p["foreign_status"] == 403
                                else 'raise Refusal(403, "not_your_permit")'),
                           Edit("residents read any permit",
                                '    if user["role"] != "officer" and permit["holder"] != '
                                'user["name"]:\n',
                                "    if False:\n"))),
        Requirement("Approving a pending permit sets `approved`, `decided_by` and "
                    "`decided_on`; anything else is 409 `not_pending`.",
                    probes="approve",
                    traps=(Edit("re-approval allowed",
                                "def approve(permit_id: int, user: Officer, body: Decision):\n"
                                "    permit = pending(permit_id, user)\n",
                                "def approve(permit_id: int, user: Officer, body: Decision):\n"
                                "    permit = visible_permit(permit_id, user)\n"),
                           Edit("decision day not recorded",
                                'decided_by=user["name"], decided_on=body.day)',
                                'decided_by=user["name"])'))),
        Requirement("Approval on a day after `last_day` is 409 `permit_expired`; on the last "
                    "day it is fine.",
                    probes="expiry",
                    traps=Edit("expired on the last day", 'if day > permit["last_day"]:',
                               'if day >= permit["last_day"]:')),
        Requirement("Approval is 409 `zone_full` when the approved permits sharing a day with "
                    "it already number the zone's capacity.",
                    probes="zone_full",
                    traps=(Edit("capacity one too large",
                                'if rivals >= ZONES[permit["zone"]]["capacity"]:',
                                'if rivals > ZONES[permit["zone"]]["capacity"]:'),
                           Edit("pending permits fill zones",
                                'and p["status"] == "approved" and overlaps(p, permit))',
                                'and p["status"] in HOLDING and p is not permit and '
                                'overlaps(p, permit))'))),
        Requirement("When a permit is both expired and in a full zone, `${first_refusal}` wins.",
                    probes="approval_precedence",
                    traps=Edit("approval checks in the other order",
                               "for check in ${approval_checks}:",
                               lambda p: "for check in " + flip("expired_first")(p)
                               ["approval_checks"] + ":")),
        Requirement("Rejection needs a reason (trimmed, 1-200), only for pending permits, and "
                    "records the officer and the reason.",
                    probes="reject",
                    traps=(Edit("reason unbounded", "reason: Annotated[str, trimmed(200)]",
                                "reason: Annotated[str, trimmed(10**6)]"),
                           Edit("rejection not recorded",
                                'permit.update(status="rejected", decided_by=user["name"], '
                                'reason=body.reason)',
                                'permit.update(status="rejected", reason=body.reason)'))),
        Requirement("Cancelling: ${cancel_rule}; else 409 `not_cancellable`; a cancelled "
                    "permit frees its place.",
                    probes="cancel",
                    traps=(Edit("cancel rule of the other mode",
                                "CANCELLABLE = ${cancellable__repr}",
                                lambda p: "CANCELLABLE = "
                                + repr(flip("cancel_approved")(p)["cancellable"])),
                           Edit("cancelling twice allowed",
                                "CANCELLABLE = ${cancellable__repr}",
                                lambda p: "CANCELLABLE = "
                                + repr(derive(p)["cancellable"] + ["cancelled"])))),
    ),
)
