"""Service tier: a fleet workshop specified like a product document (12 routes, a staff id and
PIN header pair with two roles, vehicles keyed by a normalised VIN, work orders moving through
open -> in_progress -> done or cancelled with every other move refused, mechanics assigned by
managers with a limit on their active orders, parts and labour costed in exact decimals shown
as strings, cursor pagination, and an `{"ok": ...}` envelope around every body).

The parameters change what a correct app answers: the staff, the labour rate, how many orders a
mechanic may have in progress, the page sizes, the status of a validation failure, and whether
an order in progress may be reassigned."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.traps import other_validation_status, router_error_traps

REFERENCE = '''\
from decimal import Decimal
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import AfterValidator, BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

STAFF = {sid: {"id": sid, "pin": pin, "name": name, "role": role}
         for sid, pin, name, role in ${staff__repr}}
VEHICLES: dict[str, dict] = {}
ORDERS: dict[int, dict] = {}
NEXT = {"order": 1}
LABOUR_RATE = Decimal(${labour_rate__repr})
MAX_ACTIVE = ${max_active}
INVALID_STATUS = ${invalid_status}
ASSIGNABLE = ${assignable__repr}
CENT = Decimal("0.01")

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class Refused(Exception):
    def __init__(self, status: int, code: str, **extra):
        self.status, self.code, self.extra = status, code, extra


def failure(status: int, code: str, headers=None, **extra) -> JSONResponse:
    return JSONResponse({"ok": False, "error": code, **extra}, status_code=status,
                        headers=headers)


def ok(data, status: int = 200, headers=None) -> JSONResponse:
    return JSONResponse({"ok": True, "data": data}, status_code=status, headers=headers)


@app.exception_handler(Refused)
async def on_refused(request: Request, exc: Refused):
    return failure(exc.status, exc.code, **exc.extra)


@app.exception_handler(StarletteHTTPException)
async def on_http(request: Request, exc: StarletteHTTPException):
    code = "not_found" if exc.status_code == 404 else "method_not_allowed"
    return failure(exc.status_code, code, exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    problems = [{"at": ".".join(str(part) for part in e["loc"][1:]), "type": e["type"]}
                for e in exc.errors()]
    return failure(INVALID_STATUS, "validation", problems=problems)


def normal_vin(value: str) -> str:
    vin = value.strip().upper()
    if len(vin) != 17 or any(c not in "ABCDEFGHJKLMNPRSTUVWXYZ0123456789" for c in vin):
        raise ValueError("a VIN is 17 letters and digits, without I, O or Q")
    return vin


def trimmed(limit: int):
    def check(value: str) -> str:
        value = value.strip()
        if not 1 <= len(value) <= limit:
            raise ValueError(f"1-{limit} characters")
        return value
    return AfterValidator(check)


def quarter_hours(value: Decimal) -> Decimal:
    if value % Decimal("0.25") != 0:
        raise ValueError("labour is counted in quarter hours")
    return value


class VehicleIn(BaseModel):
    vin: Annotated[str, AfterValidator(normal_vin)]
    model: Annotated[str, trimmed(40)]
    odometer_km: int = Field(ge=0, strict=True)


class OrderIn(BaseModel):
    title: Annotated[str, trimmed(60)]
    priority: int = Field(3, ge=1, le=5, strict=True)


class Assignment(BaseModel):
    mechanic: str


class PartIn(BaseModel):
    part: Annotated[str, trimmed(40)]
    quantity: int = Field(ge=1, le=99, strict=True)
    unit_cost: Decimal = Field(gt=0, max_digits=8, decimal_places=2)


class Completion(BaseModel):
    odometer_km: int = Field(ge=0, strict=True)
    labour_hours: Annotated[Decimal, Field(gt=0, le=24), AfterValidator(quarter_hours)]


def staff_member(x_staff: Annotated[str | None, Header()] = None,
                 x_pin: Annotated[str | None, Header()] = None) -> dict:
    member = STAFF.get((x_staff or "").upper())
    if member is None or x_pin != member["pin"]:
        raise Refused(401, "unauthorized")
    return member


def role(required: str):
    def check(member: Annotated[dict, Depends(staff_member)]) -> dict:
        if member["role"] != required:
            raise Refused(403, "forbidden")
        return member
    return check


Staff = Annotated[dict, Depends(staff_member)]
Manager = Annotated[dict, Depends(role("manager"))]
Mechanic = Annotated[dict, Depends(role("mechanic"))]


def money(value: Decimal) -> str:
    return str(value.quantize(CENT))


def order_costs(order: dict) -> dict:
    parts = sum((p["quantity"] * p["unit_cost"] for p in order["parts"]), Decimal(0))
    labour = (order["labour_hours"] or Decimal(0)) * LABOUR_RATE
    return {"parts": parts, "labour": labour, "total": parts + labour}


def order_out(order: dict) -> dict:
    costs = order_costs(order)
    hours = order["labour_hours"]
    return {"id": order["id"], "vin": order["vin"], "title": order["title"],
            "priority": order["priority"], "status": order["status"],
            "mechanic": order["mechanic"],
            "parts": [{"part": p["part"], "quantity": p["quantity"],
                       "unit_cost": money(p["unit_cost"]),
                       "line_total": money(p["quantity"] * p["unit_cost"])}
                      for p in order["parts"]],
            "labour_hours": None if hours is None else str(hours.quantize(CENT)),
            "parts_total": money(costs["parts"]), "labour_total": money(costs["labour"]),
            "total": money(costs["total"])}


def active(order: dict) -> bool:
    return order["status"] in ("open", "in_progress")


def vehicle_out(vehicle: dict) -> dict:
    return {**vehicle, "open_orders": sum(1 for o in ORDERS.values()
                                          if o["vin"] == vehicle["vin"] and active(o))}


def find_vehicle(vin: str) -> dict:
    vehicle = VEHICLES.get(vin.strip().upper())
    if vehicle is None:
        raise Refused(404, "no_such_vehicle")
    return vehicle


def find_order(order_id: int) -> dict:
    if order_id not in ORDERS:
        raise Refused(404, "no_such_order")
    return ORDERS[order_id]


def assigned_order(order_id: int, member: dict) -> dict:
    order = find_order(order_id)
    if order["mechanic"] != member["id"]:
        raise Refused(403, "not_assigned")
    return order


def require_status(order: dict, *allowed: str) -> None:
    if order["status"] not in allowed:
        raise Refused(409, "invalid_transition", current=order["status"])


@app.post("/vehicles")
def add_vehicle(member: Manager, body: VehicleIn):
    if body.vin in VEHICLES:
        raise Refused(409, "duplicate_vin")
    VEHICLES[body.vin] = {"vin": body.vin, "model": body.model, "odometer_km": body.odometer_km}
    return ok(vehicle_out(VEHICLES[body.vin]), 201, {"Location": f"/vehicles/{body.vin}"})


@app.get("/vehicles")
def list_vehicles(member: Staff):
    return ok([vehicle_out(VEHICLES[vin]) for vin in sorted(VEHICLES)])


@app.get("/vehicles/{vin}")
def read_vehicle(vin: str, member: Staff):
    return ok(vehicle_out(find_vehicle(vin)))


@app.get("/vehicles/{vin}/costs")
def vehicle_costs(vin: str, member: Manager):
    vehicle = find_vehicle(vin)
    done = [order_costs(o) for o in ORDERS.values()
            if o["vin"] == vehicle["vin"] and o["status"] == "done"]
    totals = {key: money(sum((c[key] for c in done), Decimal(0)))
              for key in ("parts", "labour", "total")}
    return ok({"vin": vehicle["vin"], "done_orders": len(done), **totals})


@app.post("/vehicles/{vin}/work-orders")
def open_order(vin: str, member: Manager, body: OrderIn):
    vehicle = find_vehicle(vin)
    order = {"id": NEXT["order"], "vin": vehicle["vin"], "title": body.title,
             "priority": body.priority, "status": "open", "mechanic": None, "parts": [],
             "labour_hours": None}
    NEXT["order"] += 1
    ORDERS[order["id"]] = order
    return ok(order_out(order), 201, {"Location": f"/work-orders/{order['id']}"})


@app.get("/work-orders")
def list_orders(
    member: Staff,
    status: Literal["open", "in_progress", "done", "cancelled"] | None = None,
    vin: str | None = None,
    mechanic: str | None = None,
    sort: Literal["id", "priority"] = "id",
    after: int | None = None,
    limit: Annotated[int, Query(ge=1, le=${limit_max})] = ${limit_default},
):
    orders = [o for o in ORDERS.values()
              if (status is None or o["status"] == status)
              and (vin is None or o["vin"] == vin.strip().upper())
              and (mechanic is None or o["mechanic"] == mechanic.strip().upper())]
    orders.sort(key=(lambda o: o["id"]) if sort == "id" else (lambda o: (o["priority"], o["id"])))
    start = 0
    if after is not None:
        ids = [o["id"] for o in orders]
        if after not in ids:
            raise Refused(400, "bad_cursor")
        start = ids.index(after) + 1
    page = orders[start:start + limit]
    more = start + limit < len(orders)
    return ok({"orders": [order_out(o) for o in page], "next": page[-1]["id"] if more else None})


@app.get("/work-orders/{order_id}")
def read_order(order_id: int, member: Staff):
    return ok(order_out(find_order(order_id)))


@app.post("/work-orders/{order_id}/assign")
def assign(order_id: int, member: Manager, body: Assignment):
    order = find_order(order_id)
    require_status(order, *ASSIGNABLE)
    mechanic = STAFF.get(body.mechanic.strip().upper())
    if mechanic is None or mechanic["role"] != "mechanic":
        raise Refused(400, "not_a_mechanic")
    if order["status"] == "in_progress" and busy(mechanic["id"]):
        raise Refused(409, "mechanic_busy")
    order["mechanic"] = mechanic["id"]
    return ok(order_out(order))


def busy(mechanic_id: str) -> bool:
    working = sum(1 for o in ORDERS.values()
                  if o["mechanic"] == mechanic_id and o["status"] == "in_progress")
    return working >= MAX_ACTIVE


@app.post("/work-orders/{order_id}/start")
def start(order_id: int, member: Mechanic):
    order = assigned_order(order_id, member)
    require_status(order, "open")
    if busy(member["id"]):
        raise Refused(409, "mechanic_busy")
    order["status"] = "in_progress"
    return ok(order_out(order))


@app.post("/work-orders/{order_id}/parts")
def add_part(order_id: int, member: Mechanic, body: PartIn):
    order = assigned_order(order_id, member)
    require_status(order, "in_progress")
    order["parts"].append({"part": body.part, "quantity": body.quantity,
                           "unit_cost": body.unit_cost})
    return ok(order_out(order), 201)


@app.post("/work-orders/{order_id}/complete")
def complete(order_id: int, member: Mechanic, body: Completion):
    order = assigned_order(order_id, member)
    require_status(order, "in_progress")
    vehicle = VEHICLES[order["vin"]]
    if body.odometer_km < vehicle["odometer_km"]:
        raise Refused(409, "odometer_backwards", odometer_km=vehicle["odometer_km"])
    vehicle["odometer_km"] = body.odometer_km
    order.update(status="done", labour_hours=body.labour_hours)
    return ok(order_out(order))


@app.post("/work-orders/{order_id}/cancel")
def cancel(order_id: int, member: Manager):
    order = find_order(order_id)
    require_status(order, "open", "in_progress")
    order["status"] = "cancelled"
    return ok(order_out(order))


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
manager = {"X-Staff": ${m1__repr}, "X-Pin": ${m1_pin__repr}}
mechanic = {"X-Staff": ${k1__repr}.lower(), "X-Pin": ${k1_pin__repr}}
vehicle = client.post("/vehicles", headers=manager,
                      json={"vin": " ${first_vin} ", "model": "Transit", "odometer_km": 1200})
order = client.post("/vehicles/${first_vin}/work-orders", headers=manager,
                    json={"title": "Brake pads", "priority": 2})
path = order.headers["location"]
client.post(f"{path}/assign", headers=manager, json={"mechanic": ${k1__repr}})
client.post(f"{path}/start", headers=mechanic)
result = [
    row(vehicle),
    row(client.post(f"{path}/parts", headers=mechanic,
                    json={"part": "pad set", "quantity": 2, "unit_cost": "24.5"})),
    row(client.post(f"{path}/complete", headers=mechanic,
                    json={"odometer_km": 1250, "labour_hours": "1.75"})),
    row(client.post(f"{path}/start", headers=mechanic)),
    row(client.get("/vehicles/${first_vin_lower}/costs", headers=manager)),
]
'''

PROBES = '''\
M1 = {"X-Staff": ${m1__repr}, "X-Pin": ${m1_pin__repr}}
K1 = {"X-Staff": ${k1__repr}, "X-Pin": ${k1_pin__repr}}
K2 = {"X-Staff": ${k2__repr}, "X-Pin": ${k2_pin__repr}}
K3 = {"X-Staff": ${k3__repr}, "X-Pin": ${k3_pin__repr}}
VIN_CHARS = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789"


def _row(r):
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]
''' + late_body.probe_source(
    [("POST", "/vehicles"), ("POST", "/vehicles/1FTBW3XM6HK000000/work-orders"),
     ("POST", "/work-orders/1/assign"), ("POST", "/work-orders/1/parts"),
     ("POST", "/work-orders/1/complete")],
    [("no staff", "{}"), ("manager", "M1"), ("mechanic", "K1")]) + '''


def _vin(n):
    """A valid VIN of its own for every probe (n < 33**2)."""
    return "1FTBW3XM6HK" + VIN_CHARS[n // 33] + VIN_CHARS[n % 33] + "0000"


def _vehicle(client, n, odometer=1000):
    body = {"vin": _vin(n), "model": "Van", "odometer_km": odometer}
    return client.post("/vehicles", json=body, headers=M1).json()["data"]["vin"]


def _order(client, vin, title="Service", priority=3):
    body = {"title": title, "priority": priority}
    return client.post(f"/vehicles/{vin}/work-orders", json=body, headers=M1).json()["data"]["id"]


def _free(client, mechanic):
    """Complete the mechanic's orders in progress (at the vehicle's own reading), so that a
    probe's own start is not refused for earlier probes' work."""
    params = {"status": "in_progress", "mechanic": mechanic["X-Staff"], "limit": 1}
    for _ in range(20):
        orders = client.get("/work-orders", params=params, headers=M1).json()["data"]["orders"]
        if not orders:
            break
        vin, order = orders[0]["vin"], orders[0]["id"]
        reading = client.get(f"/vehicles/{vin}", headers=M1).json()["data"]["odometer_km"]
        client.post(f"/work-orders/{order}/complete", headers=mechanic,
                    json={"odometer_km": reading, "labour_hours": "0.25"})


def _assigned(client, vin, mechanic=K1, title="Job", priority=3, started=False):
    if started:
        _free(client, mechanic)
    order = _order(client, vin, title, priority)
    client.post(f"/work-orders/{order}/assign", json={"mechanic": mechanic["X-Staff"]}, headers=M1)
    if started:
        client.post(f"/work-orders/{order}/start", headers=mechanic)
    return order


def _at(r):
    """A failure with its problems reduced to where they are: the error type of a rule depends
    on how the app declares it (a pattern, a validator, a constraint)."""
    body = r.json()
    if body.get("error") == "validation":
        return [r.status_code, sorted(p["at"] for p in body["problems"])]
    return [r.status_code, body]


def _brief(r):
    body = r.json()
    if not body["ok"]:
        return _at(r)
    data = body["data"]
    return [r.status_code, data["status"], data["mechanic"], data["total"]]


def probe_staff_headers(client):
    rows = []
    for headers in [{}, {"X-Staff": ${m1__repr}}, {"X-Pin": ${m1_pin__repr}},
                    {"X-Staff": ${m1__repr}, "X-Pin": ${k1_pin__repr}},
                    {"X-Staff": ${m1__repr}, "X-Pin": ""},
                    {"X-Staff": "Z-99", "X-Pin": ${m1_pin__repr}},
                    {"X-Staff": ${m1_name__repr}, "X-Pin": ${m1_pin__repr}},
                    {"Authorization": "Bearer " + ${m1_pin__repr}}]:
        for method, path in [("POST", "/vehicles"), ("GET", "/vehicles"),
                             ("GET", "/vehicles/x"), ("GET", "/vehicles/x/costs"),
                             ("POST", "/vehicles/x/work-orders"), ("GET", "/work-orders"),
                             ("GET", "/work-orders/1"), ("POST", "/work-orders/1/assign"),
                             ("POST", "/work-orders/1/start"), ("POST", "/work-orders/1/parts"),
                             ("POST", "/work-orders/1/complete"),
                             ("POST", "/work-orders/1/cancel")]:
            r = client.request(method, path, headers=headers, json={"vin": 1})
            rows.append([method, path, r.status_code, r.json()])
    return rows


def probe_staff_ids_ignore_case(client):
    return [[client.get("/work-orders", params={"limit": 1}, headers={
                "X-Staff": ${k2__repr}.lower(), "X-Pin": ${k2_pin__repr}}).status_code],
            [client.post("/vehicles", json={}, headers={
                "X-Staff": ${m1__repr}.lower(), "X-Pin": ${m1_pin__repr}}).status_code]]


def probe_roles(client):
    return [_row(client.post("/vehicles", json={"vin": 5}, headers=K1)),
            _row(client.get("/vehicles/x/costs", headers=K2)),
            _row(client.post("/vehicles/x/work-orders", json={}, headers=K1)),
            _row(client.post("/work-orders/1/assign", json={}, headers=K3)),
            _row(client.post("/work-orders/1/cancel", headers=K1)),
            _row(client.post("/work-orders/1/start", headers=M1)),
            _row(client.post("/work-orders/1/parts", json={}, headers=M1)),
            _row(client.post("/work-orders/1/complete", json={}, headers=M1))]


def probe_unknown_routes(client):
    rows = []
    for method, path in [("GET", "/nope"), ("GET", "/work-orders/1/parts"),
                         ("DELETE", "/vehicles/x"), ("PUT", "/work-orders")]:
        r = client.request(method, path, headers=M1)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows


def probe_validation_format(client):
    return [_row(client.post("/vehicles", json={"model": 3}, headers=M1)),
            _row(client.post("/vehicles", json=[], headers=M1)),
            _row(client.get("/work-orders", params={"limit": "many", "after": "x"}, headers=M1)),
            _row(client.get("/work-orders/abc", headers=M1)),
            _row(client.post("/work-orders/abc/complete", json={}, headers=K1))]


def probe_add_vehicle(client):
    vin = _vin(1).lower()
    r = client.post("/vehicles", json={"vin": "  " + vin + " ", "model": "  Sprinter ",
                                       "odometer_km": 0}, headers=M1)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.post("/vehicles", json={"vin": vin.upper(), "model": "Other",
                                                    "odometer_km": 5}, headers=M1)))
    rows.append(_row(client.get(f"/vehicles/{vin}", headers=K1)))
    rows.append(_row(client.get("/vehicles/" + _vin(999), headers=K1)))
    return rows


def probe_vehicle_validation(client):
    rows = []
    good = _vin(2)
    for body in [{"vin": good[:-1]}, {"vin": good + "1"}, {"vin": good[:-1] + "I"},
                 {"vin": good[:-1] + "O"}, {"vin": good[:-1] + "q"}, {"vin": good[:-1] + "-"},
                 {"odometer_km": -1}, {"odometer_km": "5"}, {"odometer_km": 5.0},
                 {"model": "   "}, {"model": "m" * 41}, {"model": " " + "m" * 40 + " "}]:
        full = {"vin": good, "model": "Van", "odometer_km": 10} | body
        r = client.post("/vehicles", json=full, headers=M1)
        rows.append([body, _at(r)])
        if r.status_code == 201:
            good = _vin(3 + len(rows))
    return rows


def probe_list_vehicles(client):
    vins = [_vehicle(client, n) for n in (40, 38, 39)]
    first = _order(client, vins[1])
    _order(client, vins[1])
    cancelled = _order(client, vins[2])
    client.post(f"/work-orders/{cancelled}/cancel", headers=M1)
    listed = client.get("/vehicles", headers=K3).json()["data"]
    ours = [[v["vin"], v["open_orders"]] for v in listed if v["vin"] in vins]
    return [ours, [[v["vin"] for v in listed] == sorted(v["vin"] for v in listed)],
            _row(client.get(f"/vehicles/{vins[1]}", headers=K3)), [first > 0]]


def probe_open_order(client):
    vin = _vehicle(client, 50)
    r = client.post(f"/vehicles/{vin.lower()}/work-orders", json={"title": "  Oil change "},
                    headers=M1)
    rows = [[r.status_code, r.json(), r.headers.get("location")]]
    rows.append(_row(client.get(r.headers["location"], headers=K2)))
    for body in [{"title": ""}, {"title": "t" * 61}, {"title": "x", "priority": 0},
                 {"title": "x", "priority": 6}, {"title": "x", "priority": "2"},
                 {"title": "x", "priority": 5}]:
        rows.append([body, _brief(client.post(f"/vehicles/{vin}/work-orders", json=body,
                                              headers=M1))])
    rows.append(_row(client.post("/vehicles/" + _vin(998) + "/work-orders",
                                 json={"title": "x"}, headers=M1)))
    rows.append(_at(client.post("/vehicles/" + _vin(998) + "/work-orders",
                                json={"title": ""}, headers=M1)))
    return rows


def probe_assign(client):
    vin = _vehicle(client, 60)
    order = _order(client, vin)
    rows = [_brief(client.post(f"/work-orders/{order}/assign",
                               json={"mechanic": " " + ${k2__repr}.lower() + " "}, headers=M1)),
            _brief(client.post(f"/work-orders/{order}/assign", json={"mechanic": ${k3__repr}},
                               headers=M1)),
            _brief(client.post(f"/work-orders/{order}/assign", json={"mechanic": ${m1__repr}},
                               headers=M1)),
            _brief(client.post(f"/work-orders/{order}/assign", json={"mechanic": "Z-99"},
                               headers=M1)),
            _row(client.post("/work-orders/99999/assign", json={"mechanic": "Z-99"},
                             headers=M1)),
            _at(client.post(f"/work-orders/{order}/assign", json={}, headers=M1))]
    done = _assigned(client, vin, K1, started=True)
    client.post(f"/work-orders/{done}/complete", json={"odometer_km": 1000, "labour_hours": 1},
                headers=K1)
    rows.append(_brief(client.post(f"/work-orders/{done}/assign", json={"mechanic": ${k2__repr}},
                                   headers=M1)))
    return rows


def probe_reassign_in_progress(client):
    vin = _vehicle(client, 70)
    order = _assigned(client, vin, K1, started=True)
    _free(client, K2)
    rows = [_brief(client.post(f"/work-orders/{order}/assign", json={"mechanic": ${k2__repr}},
                               headers=M1))]
    rows.append(_brief(client.post(f"/work-orders/{order}/parts",
                                   json={"part": "x", "quantity": 1, "unit_cost": 1},
                                   headers=K1)))
    return rows


def probe_start(client):
    vin = _vehicle(client, 80)
    _free(client, K2)
    order = _assigned(client, vin, K2)
    unassigned = _order(client, vin)
    return [_brief(client.post(f"/work-orders/{order}/start", headers=K1)),
            _brief(client.post(f"/work-orders/{unassigned}/start", headers=K2)),
            _brief(client.post(f"/work-orders/{order}/start", headers=K2)),
            _brief(client.post(f"/work-orders/{order}/start", headers=K2)),
            _brief(client.post(f"/work-orders/{order}/start", headers=K1)),
            _row(client.post("/work-orders/99999/start", headers=K2))]


def probe_mechanic_busy(client):
    vin = _vehicle(client, 90)
    _free(client, K3)
    orders = [_assigned(client, vin, K3) for _ in range(${max_active} + 1)]
    rows = [[_brief(client.post(f"/work-orders/{o}/start", headers=K3))[:2] for o in orders]]
    client.post(f"/work-orders/{orders[0]}/complete",
                json={"odometer_km": 1000, "labour_hours": "0.5"}, headers=K3)
    rows.append(_brief(client.post(f"/work-orders/{orders[-1]}/start", headers=K3)))
    return rows


def probe_forbidden_transitions(client):
    vin = _vehicle(client, 100)
    order = _assigned(client, vin, K1)
    part = {"part": "x", "quantity": 1, "unit_cost": "1"}
    finish = {"odometer_km": 1000, "labour_hours": 1}
    rows = [_row(client.post(f"/work-orders/{order}/parts", json=part, headers=K1)),
            _row(client.post(f"/work-orders/{order}/complete", json=finish, headers=K1))]
    _free(client, K1)  # with one order in progress allowed, earlier probes' may block the start
    client.post(f"/work-orders/{order}/start", headers=K1)
    client.post(f"/work-orders/{order}/complete", json=finish, headers=K1)
    rows += [_at(client.post(f"/work-orders/{order}/{action}", json=part, headers=h))
             for action, h in [("start", K1), ("parts", K1), ("complete", K1), ("cancel", M1)]]
    cancelled = _order(client, vin)
    client.post(f"/work-orders/{cancelled}/cancel", headers=M1)
    rows.append(_row(client.post(f"/work-orders/{cancelled}/cancel", headers=M1)))
    rows.append(_row(client.post(f"/work-orders/{cancelled}/assign", json={"mechanic": ${k1__repr}},
                                 headers=M1)))
    return rows


def probe_not_assigned(client):
    vin = _vehicle(client, 110)
    order = _assigned(client, vin, K1, started=True)
    return [_row(client.post(f"/work-orders/{order}/parts",
                             json={"part": "x", "quantity": 1, "unit_cost": "2"}, headers=K2)),
            _row(client.post(f"/work-orders/{order}/complete",
                             json={"odometer_km": 1, "labour_hours": 1}, headers=K3)),
            _at(client.post(f"/work-orders/{order}/parts", json={"quantity": 0}, headers=K2)),
            _brief(client.get(f"/work-orders/{order}", headers=K2))]


def probe_parts(client):
    vin = _vehicle(client, 120)
    order = _assigned(client, vin, K2, started=True)
    rows = []
    for body in [{"part": " filter ", "quantity": 3, "unit_cost": "4.1"},
                 {"part": "belt", "quantity": 1, "unit_cost": 19.99},
                 {"part": "bolt", "quantity": 99, "unit_cost": "0.05"}]:
        r = client.post(f"/work-orders/{order}/parts", json=body, headers=K2)
        rows.append([r.status_code, r.json()["data"]["parts"][-1], r.json()["data"]["parts_total"],
                     r.json()["data"]["total"]])
    for body in [{"quantity": 0}, {"quantity": 100}, {"quantity": "2"}, {"unit_cost": "0"},
                 {"unit_cost": "1.234"}, {"unit_cost": "abc"}, {"unit_cost": "123456.78"},
                 {"unit_cost": "1234567.8"}, {"part": ""}]:
        full = {"part": "p", "quantity": 1, "unit_cost": "1.00"} | body
        rows.append([body, _at(client.post(f"/work-orders/{order}/parts", json=full, headers=K2))
                     if body != {"unit_cost": "123456.78"} else
                     client.post(f"/work-orders/{order}/parts", json=full,
                                 headers=K2).json()["data"]["parts_total"]])
    return rows


def probe_complete(client):
    vin = _vehicle(client, 130, odometer=5000)
    order = _assigned(client, vin, K1, started=True)
    client.post(f"/work-orders/{order}/parts", json={"part": "x", "quantity": 2,
                                                     "unit_cost": "10.10"}, headers=K1)
    rows = []
    for body in [{"odometer_km": 4999, "labour_hours": 1},
                 {"odometer_km": 5000, "labour_hours": "0.3"},
                 {"odometer_km": 5000, "labour_hours": 0}, {"odometer_km": 5000, "labour_hours": 25},
                 {"odometer_km": 5000, "labour_hours": "24.25"}, {"odometer_km": "5000",
                                                                   "labour_hours": 1}]:
        rows.append([body, _at(client.post(f"/work-orders/{order}/complete", json=body,
                                           headers=K1))])
    rows.append(_row(client.post(f"/work-orders/{order}/complete",
                                 json={"odometer_km": 5100, "labour_hours": "2.25"}, headers=K1)))
    rows.append(_row(client.get(f"/vehicles/{vin}", headers=K1)))
    return rows


def probe_cancel(client):
    vin = _vehicle(client, 140)
    fresh = _order(client, vin)
    working = _assigned(client, vin, K3, started=True)
    rows = [_brief(client.post(f"/work-orders/{fresh}/cancel", headers=M1)),
            _brief(client.post(f"/work-orders/{working}/cancel", headers=M1)),
            _row(client.post("/work-orders/99999/cancel", headers=M1)),
            _row(client.get(f"/vehicles/{vin}", headers=M1))]
    return rows


def probe_costs(client):
    vin = _vehicle(client, 150)
    for cost, hours in [("12.34", "1.25"), ("0.66", "0.25")]:
        order = _assigned(client, vin, K2, started=True)
        client.post(f"/work-orders/{order}/parts", json={"part": "p", "quantity": 3,
                                                         "unit_cost": cost}, headers=K2)
        client.post(f"/work-orders/{order}/complete",
                    json={"odometer_km": 2000, "labour_hours": hours}, headers=K2)
    other = _assigned(client, vin, K2, started=True)
    client.post(f"/work-orders/{other}/parts", json={"part": "p", "quantity": 1,
                                                     "unit_cost": "500"}, headers=K2)
    return [_row(client.get(f"/vehicles/{vin.lower()}/costs", headers=M1)),
            _row(client.get(f"/vehicles/{_vehicle(client, 151)}/costs", headers=M1)),
            _row(client.get("/vehicles/" + _vin(997) + "/costs", headers=M1))]


def probe_list_orders(client):
    vin, other = _vehicle(client, 160), _vehicle(client, 161)
    made = [_assigned(client, vin, K1, title="a", priority=4),
            _assigned(client, vin, K2, title="b", priority=1, started=True),
            _order(client, vin, title="c", priority=4),
            _assigned(client, other, K1, title="d", priority=2),
            _order(client, vin, title="e", priority=1)]
    client.post(f"/work-orders/{made[2]}/cancel", headers=M1)

    def titles(params):
        body = client.get("/work-orders", params=params, headers=K3).json()["data"]
        return [[o["title"] for o in body["orders"]],
                None if body["next"] is None else made.index(body["next"])]
    rows = []
    for params in [{"vin": vin, "limit": ${limit_max}}, {"vin": vin.lower(), "sort": "priority", "limit": ${limit_max}},
                   {"mechanic": ${k1__repr}.lower(), "vin": vin, "limit": ${limit_max}},
                   {"mechanic": " " + ${k1__repr} + " ", "vin": vin, "limit": ${limit_max}},
                   {"status": "open", "vin": vin, "limit": ${limit_max}},
                   {"vin": vin, "limit": 2}, {"vin": vin, "limit": 2, "after": made[1]},
                   {"vin": vin, "limit": 2, "after": made[4]},
                   {"vin": vin, "sort": "priority", "limit": 2, "after": made[4]},
                   {"vin": vin, "limit": 3, "after": made[1]}]:
        rows.append([{k: v for k, v in params.items() if k != "after"},
                     None if "after" not in params else made.index(params["after"]),
                     titles(params)])
    for params in [{"vin": vin, "after": made[3]}, {"vin": vin, "after": 99999},
                   {"limit": ${limit_max} + 1}, {"status": "closed"}]:
        rows.append([_at(client.get("/work-orders", params=params, headers=K3))])
    default = client.get("/work-orders", headers=K3).json()["data"]["orders"]
    rows.append([len(default) == ${limit_default}])
    return rows
'''

PROMPT = '''\
Build the HTTP API of a fleet workshop, as specified below. All state is in memory and starts
empty apart from the staff listed here.

## Staff
Every request identifies a member of staff with two headers, `X-Staff` (the staff id) and
`X-Pin`:

| staff id | PIN | name | role |
|---|---|---|---|
${staff_table}

Staff ids are matched ignoring case, PINs exactly. A missing header, an unknown id or a wrong
PIN is 401 `unauthorized`. Routes marked *manager* or *mechanic* answer 403 `forbidden` to the
other role. Wherever an id appears in a body or query (`mechanic`) it is matched ignoring case
(and surrounding spaces) too, and responses write it as in the table.

The order of checks on every route: the staff headers, the role, input validation, whether the
vehicle or order named exists (404), whether the mechanic is the one assigned (403), then the
route's own rules. A body that is not JSON is invalid input like any other, refused only after
the staff headers and the role, with the one problem `{"at": "", "type":
"model_attributes_type"}`.

## Bodies
Every response body is an envelope. Success: `{"ok": true, "data": <the result>}`. Failure:
`{"ok": false, "error": <code>}`, with more keys where said. Invalid input (body, path or query)
is ${invalid_status} with error `validation` and `"problems"`: FastAPI's validation errors in
the order FastAPI reports them (the path, then the query parameters, then the body's fields,
each in the order this document lists them), each as `{"at", "type"}`: `type` is FastAPI's error type, `at` the error's
location without its first part (`"body"`, `"query"`, `"path"`), the rest joined by dots (`""`
when nothing is left). Fields not listed for a body are ignored. Counts, priorities and
kilometres must be JSON integers (`"5"` and `5.0` are invalid). A path that matches no route is 404 `not_found`, a
known path with another method 405 `method_not_allowed` with the `Allow` header.

Money is exact: amounts are decimals, shown as strings with exactly two decimals (`"49.00"`).
The labour rate is ${labour_rate} per hour.

## Vehicles
A vehicle is `{"vin", "model", "odometer_km", "open_orders"}`, `open_orders` counting its
orders that are `open` or `in_progress`. A VIN is trimmed and upper-cased, then must be 17
characters of `A-Z` and `0-9` other than `I`, `O` and `Q`. A VIN in a path is trimmed and
upper-cased the same way before it is looked up; an unknown one is 404 `no_such_vehicle`.
- `POST /vehicles` *manager* `{"vin", "model" (trimmed, 1-40 characters), "odometer_km"
  (>= 0)}`: 201 with the vehicle and `Location: /vehicles/<vin>`; 409 `duplicate_vin`.
- `GET /vehicles`: 200, every vehicle sorted by VIN.
- `GET /vehicles/{vin}`: 200 with the vehicle.
- `GET /vehicles/{vin}/costs` *manager*: 200 `{"vin", "done_orders", "parts", "labour",
  "total"}`, summed over the vehicle's `done` orders only.

## Work orders
A work order is `{"id", "vin", "title", "priority", "status", "mechanic", "parts",
"labour_hours", "parts_total", "labour_total", "total"}`; ids are 1, 2, ... in creation order.
`mechanic` is a staff id or null; `parts` lists `{"part", "quantity", "unit_cost",
"line_total"}` in the order added; `labour_hours` is null until completion, then a string
with two decimals; `parts_total` sums the line totals (quantity * unit cost), `labour_total` is
hours * rate, `total` their sum. A missing order is 404 `no_such_order`.

`status` moves only `open` -> `in_progress` -> `done`, or from `open` or `in_progress` to
`cancelled`. A request whose move is not allowed from the current status is 409 with error
`invalid_transition` and `"current": <the current status>`.

- `POST /vehicles/{vin}/work-orders` *manager* `{"title" (trimmed, 1-60), "priority" (1-5,
  default 3)}`: 201 with the order (`open`, no mechanic) and `Location: /work-orders/<id>`.
- `GET /work-orders`: 200 `{"orders", "next"}`: the orders filtered by the optional `status`,
  `vin` (normalised) and `mechanic`, sorted by `sort`: `id` (the default) or `priority` (1
  first, then by id). `after` (an order id) starts the page just after that order in this
  filtered and sorted list: an id not in it is 400 `bad_cursor`. `limit` is 1-${limit_max}
  (default ${limit_default}). `next` is the id of the page's last order when more follow, else null.
- `GET /work-orders/{order_id}`: 200 with the order.
- `POST /work-orders/{order_id}/assign` *manager* `{"mechanic"}`: ${assign_rule} (else
  `invalid_transition`); a `mechanic` that is not a mechanic's id is 400 `not_a_mechanic`.
  200 with the order, now assigned to that mechanic.
- `POST /work-orders/{order_id}/start` *mechanic*, no body: only the assigned mechanic (others
  403 `not_assigned`); `open` -> `in_progress`; 409 `mechanic_busy` when the mechanic already
  has ${max_active} orders in progress. 200 with the order.
- `POST /work-orders/{order_id}/parts` *mechanic* `{"part" (trimmed, 1-40), "quantity" (1-99),
  "unit_cost" (a decimal, as a JSON string or number, above 0, at most 2 decimals and 8
  digits)}`: assigned mechanic only, order `in_progress`: 201 with the order.
- `POST /work-orders/{order_id}/complete` *mechanic* `{"odometer_km", "labour_hours" (a decimal
  above 0, at most 24, in quarter hours: a multiple of 0.25)}`: assigned mechanic only,
  `in_progress` -> `done`; an odometer reading below the vehicle's is 409
  `odometer_backwards` with `"odometer_km": <the vehicle's reading>`; else the vehicle takes the
  new reading. 200 with the order.
- `POST /work-orders/{order_id}/cancel` *manager*, no body: to `cancelled`; 200 with the order.

## result
One row per request, each `[status code, JSON body]`, after (not in `result`) `${m1}` opened a
work order on the vehicle of row 1 (`{"title": "Brake pads", "priority": 2}`), assigned it to
`${k1}` and `${k1}` started it:
1. `POST /vehicles` as `${m1}` with `{"vin": " ${first_vin} ", "model": "Transit",
   "odometer_km": 1200}`
2. `POST /work-orders/<id>/parts` as `${k1}` with `{"part": "pad set", "quantity": 2,
   "unit_cost": "24.5"}`
3. `POST /work-orders/<id>/complete` as `${k1}` with `{"odometer_km": 1250, "labour_hours":
   "1.75"}`
4. `POST /work-orders/<id>/start` as `${k1}`
5. `GET /vehicles/${first_vin_lower}/costs` as `${m1}`
'''

STAFF_SETS = {
    "depot": [["M-01", "4821", "Rosa", "manager"], ["K-11", "1357", "Theo", "mechanic"],
              ["K-12", "2468", "Una", "mechanic"], ["K-13", "9090", "Wes", "mechanic"]],
    "garage": [["MGR7", "0042", "Noor", "manager"], ["MX-2", "7315", "Pavel", "mechanic"],
               ["MX-3", "5150", "Quinn", "mechanic"], ["MX-4", "8008", "Sade", "mechanic"]],
}


def derive(p):
    staff = STAFF_SETS[p["staff_set"]]
    keys = ("m1", "k1", "k2", "k3")
    return {
        "staff": staff,
        **{key: member[0] for key, member in zip(keys, staff, strict=True)},
        **{f"{key}_pin": member[1] for key, member in zip(keys, staff, strict=True)},
        "m1_name": staff[0][2],
        "staff_table": "\n".join(f"| `{i}` | `{pin}` | {n} | {r} |" for i, pin, n, r in staff),
        "first_vin_lower": p["first_vin"].lower(),
        "assignable": ["open", "in_progress"] if p["reassign_in_progress"] else ["open"],
        "assign_rule": "the order must be `open` or `in_progress` (assigning an order in progress "
        "hands it over: 409 `mechanic_busy` when the new mechanic already has "
        f"{p['max_active']} orders in progress)" if p["reassign_in_progress"]
        else "the order must be `open`",
        "reassign_text": "allowed, handing it to the new mechanic" if p["reassign_in_progress"]
        else "409 `invalid_transition`",
    }


FAMILY = Family(
    id="service/fleet_maintenance",
    title="A fleet workshop with work-order states, mechanics and exact costs, from its "
          "product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"staff_set": "depot", "first_vin": "1HGCM82633A004352", "labour_rate": "65.00",
              "max_active": 2, "limit_default": 3, "limit_max": 10, "invalid_status": 422,
              "reassign_in_progress": False},
    space={
        "staff": [{"staff_set": "depot", "first_vin": "1HGCM82633A004352"},
                  {"staff_set": "garage", "first_vin": "WVWZZZ1JZXW000001"}],
        "labour_rate": ["65.00", "72.50"],
        "max_active": [2, 1],
        "paging": [{"limit_default": 3, "limit_max": 10}, {"limit_default": 4, "limit_max": 6}],
        "invalid_status": [422, 400],
        "reassign_in_progress": [False, True],
    },
    derive=derive,
    instances=12,
    requirements=(
        Requirement("Every route needs a known `X-Staff` with its exact `X-Pin`: else 401 "
                    "`unauthorized`, before anything else.",
                    probes="staff_headers",
                    traps=(Edit("PIN not checked when empty",
                                '    if member is None or x_pin != member["pin"]:',
                                '    if member is None or (x_pin and x_pin != member["pin"]):'),
                           Edit("staff names accepted as ids",
                                '    member = STAFF.get((x_staff or "").upper())',
                                '    member = STAFF.get((x_staff or "").upper()) or next((m for m '
                                'in STAFF.values() if m["name"] == x_staff), None)'))),
        Requirement("Staff ids in headers are matched ignoring case.",
                    probes="staff_ids_ignore_case",
                    traps=Edit("staff ids case-sensitive",
                               '    member = STAFF.get((x_staff or "").upper())',
                               '    member = STAFF.get(x_staff or "")')),
        Requirement("The staff headers and the role are checked before the body, even a body "
                    "that is not JSON (then ${invalid_status} `validation`, its one problem at "
                    "`\"\"` of type `model_attributes_type`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Manager and mechanic routes answer 403 `forbidden` to the other role, "
                    "before validation.",
                    probes="roles",
                    traps=(Edit("part body validated before the role",
                                "def add_part(order_id: int, member: Mechanic, body: PartIn):\n",
                                "def add_part(order_id: int, body: PartIn, member: Staff):\n"
                                "    role('mechanic')(member)\n"),
                           Edit("mechanics may cancel",
                                "def cancel(order_id: int, member: Manager):",
                                "def cancel(order_id: int, member: Staff):"))),
        Requirement("Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` "
                    "with `Allow`, in the envelope.",
                    probes="unknown_routes",
                    traps=router_error_traps("return failure(exc.status_code, code, "
                                             "exc.headers)")),
        Requirement("Invalid input is ${invalid_status} `validation` with `problems` `{at, type}` "
                    "in FastAPI's order, `at` without the first location part.",
                    probes="validation_format",
                    traps=(other_validation_status(),
                           Edit("location kept whole",
                                '"at": ".".join(str(part) for part in e["loc"][1:])',
                                '"at": ".".join(str(part) for part in e["loc"])'),
                           Edit("problems sorted",
                                "                for e in exc.errors()]",
                                "                for e in sorted(exc.errors(), key=lambda e: "
                                "str(e['loc']))]"))),
        Requirement("`POST /vehicles` stores the normalised VIN and trimmed model: 201 with "
                    "`Location`; 409 `duplicate_vin`; path VINs are normalised; unknown ones 404.",
                    probes="add_vehicle",
                    traps=(Edit("no Location on vehicles",
                                'return ok(vehicle_out(VEHICLES[body.vin]), 201, {"Location": '
                                'f"/vehicles/{body.vin}"})',
                                "return ok(vehicle_out(VEHICLES[body.vin]), 201)"),
                           Edit("path VIN case-sensitive",
                                "    vehicle = VEHICLES.get(vin.strip().upper())",
                                "    vehicle = VEHICLES.get(vin)"),
                           Edit("duplicates replace",
                                '    if body.vin in VEHICLES:\n        raise Refused(409, '
                                '"duplicate_vin")\n', ""))),
        Requirement("VINs are 17 of `A-Z0-9` without I, O, Q; models 1-40 after trimming; "
                    "odometers JSON integers >= 0.",
                    probes="vehicle_validation",
                    traps=(Edit("I, O and Q allowed",
                                '"ABCDEFGHJKLMNPRSTUVWXYZ0123456789"',
                                '"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"'),
                           Edit("odometer coerced",
                                "    odometer_km: int = Field(ge=0, strict=True)\n\n\nclass "
                                "OrderIn",
                                "    odometer_km: int = Field(ge=0)\n\n\nclass OrderIn"),
                           Edit("model length before trimming",
                                "    model: Annotated[str, trimmed(40)]",
                                "    model: Annotated[str, Field(min_length=1, max_length=40), "
                                "AfterValidator(str.strip)]"))),
        Requirement("`GET /vehicles` sorts by VIN and counts open or in-progress orders.",
                    probes="list_vehicles",
                    traps=(Edit("cancelled orders counted open",
                                "if o[\"vin\"] == vehicle[\"vin\"] and active(o))}",
                                "if o[\"vin\"] == vehicle[\"vin\"])}"),
                           Edit("vehicles in creation order",
                                "return ok([vehicle_out(VEHICLES[vin]) for vin in sorted("
                                "VEHICLES)])",
                                "return ok([vehicle_out(v) for v in VEHICLES.values()])"))),
        Requirement("Opening an order: 201 `open`, no mechanic, zero totals, `Location`; title "
                    "1-60 trimmed, priority 1-5 (default 3); the vehicle must exist.",
                    probes="open_order",
                    traps=(Edit("no Location on orders",
                                'return ok(order_out(order), 201, {"Location": f"/work-orders/'
                                '{order[\'id\']}"})',
                                "return ok(order_out(order), 201)"),
                           Edit("priority unbounded",
                                "priority: int = Field(3, ge=1, le=5, strict=True)",
                                "priority: int = Field(3, ge=1, strict=True)"),
                           Edit("totals as numbers", "    return str(value.quantize(CENT))",
                                "    return float(value.quantize(CENT))"))),
        Requirement("Assigning: ${assign_rule}; a non-mechanic is 400 `not_a_mechanic`; the id "
                    "is normalised.",
                    probes="assign",
                    traps=(Edit("managers assignable",
                                '    if mechanic is None or mechanic["role"] != "mechanic":',
                                "    if mechanic is None:"),
                           Edit("assignee id not trimmed",
                                '    mechanic = STAFF.get(body.mechanic.strip().upper())',
                                '    mechanic = STAFF.get(body.mechanic.upper())'))),
        Requirement("Reassigning an order in progress: ${reassign_text}.",
                    probes="reassign_in_progress",
                    traps=Edit("reassignment rule of the other mode",
                               "ASSIGNABLE = ${assignable__repr}",
                               lambda p: "ASSIGNABLE = " + repr(
                                   derive(p | {"reassign_in_progress":
                                               not p["reassign_in_progress"]})["assignable"]))),
        Requirement("Only the assigned mechanic starts an order (403 `not_assigned`); "
                    "`open` -> `in_progress`.",
                    probes="start",
                    traps=(Edit("any mechanic starts",
                                "def start(order_id: int, member: Mechanic):\n"
                                "    order = assigned_order(order_id, member)",
                                "def start(order_id: int, member: Mechanic):\n"
                                "    order = find_order(order_id)"),
                           Edit("status checked before the assignee",
                                "    order = assigned_order(order_id, member)\n"
                                '    require_status(order, "open")\n',
                                "    order = find_order(order_id)\n"
                                '    require_status(order, "open")\n'
                                "    order = assigned_order(order_id, member)\n"))),
        Requirement("A mechanic with ${max_active} orders in progress cannot start another: 409 "
                    "`mechanic_busy`.",
                    probes="mechanic_busy",
                    traps=Edit("busy one order late", "    return working >= MAX_ACTIVE",
                               "    return working > MAX_ACTIVE")),
        Requirement("Moves not allowed from the current status are 409 `invalid_transition` "
                    "with `current`; done and cancelled are final.",
                    probes="forbidden_transitions",
                    traps=(Edit("current status not reported",
                                'raise Refused(409, "invalid_transition", current=order["status"])',
                                'raise Refused(409, "invalid_transition")'),
                           Edit("done orders cancellable",
                                '    require_status(order, "open", "in_progress")\n'
                                '    order["status"] = "cancelled"',
                                '    require_status(order, "open", "in_progress", "done")\n'
                                '    order["status"] = "cancelled"'))),
        Requirement("Parts, laboured orders and completion are for the assigned mechanic only: "
                    "403 `not_assigned`, after validation.",
                    probes="not_assigned",
                    traps=Edit("any mechanic adds parts",
                               "def add_part(order_id: int, member: Mechanic, body: PartIn):\n"
                               "    order = assigned_order(order_id, member)",
                               "def add_part(order_id: int, member: Mechanic, body: PartIn):\n"
                               "    order = find_order(order_id)")),
        Requirement("Parts: quantity 1-99 (JSON integer), unit cost a decimal above 0 with at "
                    "most 2 decimals and 8 digits; line and order totals exact, as two-decimal "
                    "strings.",
                    probes="parts",
                    traps=(Edit("cost decimals unbounded",
                                "unit_cost: Decimal = Field(gt=0, max_digits=8, decimal_places=2)",
                                "unit_cost: Decimal = Field(gt=0, max_digits=8)"),
                           Edit("line total of one unit",
                                '"line_total": money(p["quantity"] * p["unit_cost"])}',
                                '"line_total": money(p["unit_cost"])}'),
                           Edit("quantity unbounded",
                                "quantity: int = Field(ge=1, le=99, strict=True)",
                                "quantity: int = Field(ge=1, strict=True)"))),
        Requirement("Completion: labour in quarter hours above 0 up to 24; an odometer below the "
                    "vehicle's is 409 `odometer_backwards` with its reading; else the vehicle "
                    "takes it.",
                    probes="complete",
                    traps=(Edit("any labour fraction",
                                "    if value % Decimal(\"0.25\") != 0:",
                                "    if False:"),
                           Edit("odometer reading not reported",
                                'raise Refused(409, "odometer_backwards", odometer_km=vehicle['
                                '"odometer_km"])',
                                'raise Refused(409, "odometer_backwards")'),
                           Edit("odometer not updated",
                                '    vehicle["odometer_km"] = body.odometer_km\n', ""))),
        Requirement("Managers cancel open or in-progress orders.",
                    probes="cancel",
                    traps=Edit("orders in progress not cancellable",
                               '    require_status(order, "open", "in_progress")\n'
                               '    order["status"] = "cancelled"',
                               '    require_status(order, "open")\n'
                               '    order["status"] = "cancelled"')),
        Requirement("Vehicle costs sum its done orders only, exactly.",
                    probes="costs",
                    traps=(Edit("in-progress orders costed",
                                'if o["vin"] == vehicle["vin"] and o["status"] == "done"]',
                                'if o["vin"] == vehicle["vin"] and o["status"] != "cancelled"]'),
                           Edit("costs path case-sensitive",
                                "def vehicle_costs(vin: str, member: Manager):\n"
                                "    vehicle = find_vehicle(vin)",
                                "def vehicle_costs(vin: str, member: Manager):\n"
                                "    vehicle = find_vehicle(vin if vin in VEHICLES else "
                                "'-')"))),
        Requirement("`GET /work-orders` filters (normalised `vin` and `mechanic`), sorts by id "
                    "or priority, pages after a cursor (400 `bad_cursor` when it is not in the "
                    "list) with `next` null at the end; `limit` 1-${limit_max}, default "
                    "${limit_default}.",
                    probes="list_orders",
                    traps=(Edit("next set on the last page",
                                '"next": page[-1]["id"] if more else None})',
                                '"next": page[-1]["id"] if page else None})'),
                           Edit("cursor by id, not by position",
                                "        start = ids.index(after) + 1",
                                "        start = sum(1 for i in ids if i <= after)"),
                           Edit("unknown cursor ignored",
                                "        if after not in ids:\n"
                                '            raise Refused(400, "bad_cursor")\n',
                                "        if after not in ids:\n"
                                "            ids.append(after)\n"),
                           Edit("mechanic filter case-sensitive",
                                'o["mechanic"] == mechanic.strip().upper())]',
                                'o["mechanic"] == mechanic)]'))),
    ),
)
