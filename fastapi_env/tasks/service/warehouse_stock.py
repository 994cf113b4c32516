"""Service tier: a warehouse stock service specified like a product document (13 routes, API
keys with three roles, items and locations with validation, receipts, adjustments and
transfers that never drive stock negative, an Idempotency-Key header with replay and reuse
rules, limit/offset pagination with a total-count header, one error format)."""

# Edit fragments quote the reference verbatim, so some exceed the line length.
# ruff: noqa: E501

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.traps import extras_ignored, router_errors_in_fastapi_format

REFERENCE = '''\
import re
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, field_validator
from starlette.exceptions import HTTPException as StarletteHTTPException

MANAGER = "${mgr_role}"
MAX_QTY = ${max_qty}
REMEMBER_FAILURES = ${remember_failures__repr}
KEYS = {
    "${k_view}": {"name": "${viewer}", "role": "viewer"},
    "${k_c1}": {"name": "${c1}", "role": "clerk"},
    "${k_c2}": {"name": "${c2}", "role": "clerk"},
    "${k_mgr}": {"name": "${mgr}", "role": MANAGER},
}
ITEMS = {
    "ABC-0001": {"sku": "ABC-0001", "name": "Hex bolt M6", "unit": "each"},
    "ABC-0002": {"sku": "ABC-0002", "name": "Hex nut M6", "unit": "each"},
    "CAB-0100": {"sku": "CAB-0100", "name": "Patch cable 2m", "unit": "box"},
    "WRP-0007": {"sku": "WRP-0007", "name": "Stretch wrap", "unit": "kg"},
    "BOL-0010": {"sku": "BOL-0010", "name": "Carriage bolt M8", "unit": "each"},
}
LOCATIONS = {
    "A-01": {"code": "A-01", "name": "Aisle one"},
    "A-02": {"code": "A-02", "name": "Aisle two"},
    "B-01": {"code": "B-01", "name": "Bulk store"},
}
STOCK = {
    ("ABC-0001", "A-01"): ${q_bolt_a1},
    ("ABC-0001", "B-01"): ${q_bolt_b1},
    ("ABC-0002", "A-01"): ${q_nut_a1},
    ("CAB-0100", "A-02"): ${q_cable_a2},
    ("BOL-0010", "A-02"): ${q_carriage_a2},
}
TRANSFERS: dict[int, dict] = {}
REMEMBERED: dict[tuple[str, str], dict] = {}

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

class APIError(Exception):
    def __init__(self, status: int, code: str):
        self.status, self.code = status, code


@app.exception_handler(APIError)
async def on_api_error(request: Request, exc: APIError):
    return JSONResponse({"code": exc.code}, status_code=exc.status)


@app.exception_handler(StarletteHTTPException)
async def on_http_error(request: Request, exc: StarletteHTTPException):
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "error")
    return JSONResponse({"code": code}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def on_invalid(request: Request, exc: RequestValidationError):
    fields = {str(e["loc"][-1]) if len(e["loc"]) > 1 else "body" for e in exc.errors()}
    return JSONResponse({"code": "invalid_request", "fields": sorted(fields)}, status_code=422)


class ItemIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sku: str = Field(pattern=r"^[A-Z]{3}-[0-9]{4}$$")
    name: str = Field(min_length=1, max_length=80)
    unit: Literal["each", "box", "kg"]


class LocationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[A-Z]-[0-9]{2}$$")
    name: str = Field(min_length=1, max_length=40)


class ReceiptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sku: str
    location: str
    quantity: int = Field(ge=1, le=MAX_QTY)


class TransferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sku: str
    source: str = Field(alias="from")
    target: str = Field(alias="to")
    quantity: int = Field(ge=1, le=MAX_QTY)


class AdjustmentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    sku: str
    location: str
    delta: int = Field(ge=-MAX_QTY, le=MAX_QTY)
    reason: str = Field(min_length=1, max_length=100)

    @field_validator("delta")
    @classmethod
    def not_zero(cls, value: int) -> int:
        if value == 0:
            raise ValueError("a zero adjustment changes nothing")
        return value


def caller(x_api_key: Annotated[str | None, Header()] = None) -> dict:
    if x_api_key not in KEYS:
        raise APIError(401, "unauthenticated")
    return KEYS[x_api_key]


def roles(*allowed: str):
    def check(user: Annotated[dict, Depends(caller)]) -> dict:
        if user["role"] not in allowed:
            raise APIError(403, "forbidden")
        return user
    return check


AnyUser = Annotated[dict, Depends(caller)]
Mover = Annotated[dict, Depends(roles("clerk", MANAGER))]
Manager = Annotated[dict, Depends(roles(MANAGER))]


def idempotency_key(idempotency_key: Annotated[str | None, Header()] = None) -> str:
    if idempotency_key is None:
        raise APIError(400, "idempotency_key_required")
    if not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", idempotency_key):
        raise APIError(400, "invalid_idempotency_key")
    return idempotency_key


Page = Annotated[int, Query(ge=1, le=${limit_max})]
Offset = Annotated[int, Query(ge=0)]


def paged(rows: list, limit: int, offset: int, response: Response) -> list:
    response.headers["X-Total-Count"] = str(len(rows))
    return rows[offset:offset + limit]


def item_of(sku: str) -> dict:
    if sku not in ITEMS:
        raise APIError(404, "item_not_found")
    return ITEMS[sku]


def location_of(code: str) -> dict:
    if code not in LOCATIONS:
        raise APIError(404, "location_not_found")
    return LOCATIONS[code]


def item_out(sku: str) -> dict:
    total = sum(q for (s, _), q in STOCK.items() if s == sku)
    return ITEMS[sku] | {"total_quantity": total}


def level(sku: str, code: str) -> dict:
    return {"sku": sku, "location": code, "quantity": STOCK.get((sku, code), 0)}


def take(sku: str, code: str, quantity: int) -> None:
    if STOCK.get((sku, code), 0) < quantity:
        raise APIError(${insufficient_status}, "insufficient_stock")
    STOCK[(sku, code)] = STOCK.get((sku, code), 0) - quantity


def put(sku: str, code: str, quantity: int) -> None:
    STOCK[(sku, code)] = STOCK.get((sku, code), 0) + quantity


@app.get("/me")
def me(user: AnyUser):
    return user


@app.get("/items")
def list_items(user: AnyUser, response: Response, q: str | None = None, limit: Page = ${limit_default},
               offset: Offset = 0):
    skus = sorted(s for s in ITEMS if q is None or q.lower() in ITEMS[s]["name"].lower())
    return paged([item_out(s) for s in skus], limit, offset, response)


@app.post("/items", status_code=201)
def create_item(body: ItemIn, user: Manager, response: Response):
    if body.sku in ITEMS:
        raise APIError(409, "sku_exists")
    ITEMS[body.sku] = body.model_dump()
    response.headers["Location"] = f"/items/{body.sku}"
    return item_out(body.sku)


@app.get("/items/{sku}")
def read_item(sku: str, user: AnyUser):
    return item_out(item_of(sku)["sku"])


@app.delete("/items/{sku}", status_code=204)
def delete_item(sku: str, user: Manager):
    item_of(sku)
    if item_out(sku)["total_quantity"] > 0:
        raise APIError(409, "item_in_stock")
    del ITEMS[sku]
    return Response(status_code=204)


@app.get("/locations")
def list_locations(user: AnyUser):
    return [LOCATIONS[c] for c in sorted(LOCATIONS)]


@app.post("/locations", status_code=201)
def create_location(body: LocationIn, user: Manager, response: Response):
    if body.code in LOCATIONS:
        raise APIError(409, "location_exists")
    LOCATIONS[body.code] = body.model_dump()
    response.headers["Location"] = f"/locations/{body.code}"
    return LOCATIONS[body.code]


@app.get("/locations/{code}/stock")
def location_stock(code: str, user: AnyUser, response: Response, limit: Page = ${limit_default},
                   offset: Offset = 0):
    location_of(code)
    lines = [{"sku": s, "quantity": q} for (s, c), q in sorted(STOCK.items())
             if c == code and q > 0]
    return paged(lines, limit, offset, response)


@app.post("/receipts", status_code=201)
def receive(body: ReceiptIn, user: Mover):
    item_of(body.sku)
    location_of(body.location)
    put(body.sku, body.location, body.quantity)
    return level(body.sku, body.location)


@app.post("/adjustments")
def adjust(body: AdjustmentIn, user: Manager):
    item_of(body.sku)
    location_of(body.location)
    if body.delta < 0:
        take(body.sku, body.location, -body.delta)
    else:
        put(body.sku, body.location, body.delta)
    return level(body.sku, body.location)


def perform(body: TransferIn, user: dict) -> dict:
    item_of(body.sku)
    location_of(body.source)
    location_of(body.target)
    if body.source == body.target:
        raise APIError(400, "same_location")
    take(body.sku, body.source, body.quantity)
    put(body.sku, body.target, body.quantity)
    transfer = {"id": len(TRANSFERS) + 1, "sku": body.sku, "from": body.source,
                "to": body.target, "quantity": body.quantity, "by": user["name"]}
    TRANSFERS[transfer["id"]] = transfer
    return transfer


@app.post("/transfers", status_code=201)
def create_transfer(body: TransferIn, user: Mover,
                    key: Annotated[str, Depends(idempotency_key)]):
    sent = body.model_dump(by_alias=True)
    slot = (user["name"], key)
    if slot in REMEMBERED:
        saved = REMEMBERED[slot]
        if saved["sent"] != sent:
            raise APIError(${reuse_status}, "idempotency_key_reused")
        return JSONResponse(saved["content"], status_code=saved["status"],
                            headers=saved["headers"] | {"Idempotent-Replayed": "true"})
    try:
        transfer = perform(body, user)
    except APIError as exc:
        if REMEMBER_FAILURES:
            REMEMBERED[slot] = {"sent": sent, "status": exc.status,
                                "content": {"code": exc.code}, "headers": {}}
        raise
    headers = {"Location": f"/transfers/{transfer['id']}"}
    REMEMBERED[slot] = {"sent": sent, "status": 201, "content": transfer, "headers": headers}
    return JSONResponse(transfer, status_code=201, headers=headers)


@app.get("/transfers")
def list_transfers(user: AnyUser, response: Response, sku: str | None = None,
                   limit: Page = ${limit_default}, offset: Offset = 0):
    found = [t for t in sorted(TRANSFERS.values(), key=lambda t: -t["id"])
             if sku is None or t["sku"] == sku]
    return paged(found, limit, offset, response)


@app.get("/transfers/{transfer_id}")
def read_transfer(transfer_id: int, user: AnyUser):
    if transfer_id not in TRANSFERS:
        raise APIError(404, "transfer_not_found")
    return TRANSFERS[transfer_id]


def row(r, *headers):
    return [r.status_code, r.json()] + [r.headers.get(h) for h in headers]


client = TestClient(app)
viewer, clerk = {"X-API-Key": "${k_view}"}, {"X-API-Key": "${k_c1}"}
move = {"sku": "ABC-0001", "from": "A-01", "to": "A-02", "quantity": ${tq}}
result = [
    row(client.get("/items", headers=viewer), "x-total-count"),
    row(client.post("/transfers", json=move, headers=clerk | {"Idempotency-Key": "k-1"})),
    row(client.post("/transfers", json=move, headers=clerk | {"Idempotency-Key": "k-1"}),
        "idempotent-replayed"),
    row(client.get("/locations/A-02/stock", headers=viewer), "x-total-count"),
    row(client.post("/transfers", json=move, headers=viewer | {"Idempotency-Key": "k-2"})),
]
'''

PROBES = '''\
VIEW, C1, C2, MGR = ({"X-API-Key": "${k_view}"}, {"X-API-Key": "${k_c1}"},
                     {"X-API-Key": "${k_c2}"}, {"X-API-Key": "${k_mgr}"})
''' + late_body.probe_source(
    [("POST", "/items"), ("POST", "/locations"), ("POST", "/receipts"), ("POST", "/adjustments"),
     ("POST", "/transfers")],
    [("no key", "{}"), ("viewer", "VIEW"), ("clerk", "C1"), ("manager", "MGR")]) + '''


def _row(r, *headers):
    if not r.content:
        return [r.status_code] + [r.headers.get(h) for h in headers]
    try:
        return [r.status_code, r.json()] + [r.headers.get(h) for h in headers]
    except ValueError:
        return [r.status_code, r.text]


def _no_id(r, *headers):
    """A row without the transfer id, which counts every transfer made before."""
    row = _row(r, *headers)
    if len(row) > 1 and isinstance(row[1], dict):
        row[1] = {k: v for k, v in row[1].items() if k != "id"}
    return row


def _item(client, sku, name="Probe part", stock=()):
    """A fresh item, then receipts of (location, quantity) pairs."""
    client.post("/items", json={"sku": sku, "name": name, "unit": "each"}, headers=MGR)
    for code, quantity in stock:
        client.post("/receipts", json={"sku": sku, "location": code, "quantity": quantity},
                    headers=MGR)
    return sku


def _qty(client, sku, code):
    lines = client.get(f"/locations/{code}/stock", params={"limit": ${limit_max}},
                       headers=VIEW).json()
    return next((l["quantity"] for l in lines if l["sku"] == sku), 0)


def _move(sku, source, target, quantity):
    return {"sku": sku, "from": source, "to": target, "quantity": quantity}


def _transfer(client, body, key, headers=C1):
    return client.post("/transfers", json=body, headers=headers | {"Idempotency-Key": key})


def probe_keys_required(client):
    rows = []
    routes = [("GET", "/me"), ("GET", "/items"), ("POST", "/items"), ("GET", "/items/ABC-0001"),
              ("DELETE", "/items/ABC-0001"), ("GET", "/locations"), ("POST", "/locations"),
              ("GET", "/locations/A-01/stock"), ("POST", "/receipts"), ("POST", "/adjustments"),
              ("POST", "/transfers"), ("GET", "/transfers"), ("GET", "/transfers/1")]
    for headers in [{}, {"X-API-Key": "nope"}, {"X-API-Key": "${k_c1}".upper()},
                    {"X-API-Key": "${c1}"}, {"X-API-Key": ""},
                    {"Authorization": "Bearer ${k_c1}"}]:
        for method, path in routes:
            rows.append([method, path, _row(client.request(method, path, headers=headers))])
    return rows


def probe_me(client):
    return [_row(client.get("/me", headers=h)) for h in (VIEW, C1, C2, MGR)]


def probe_roles_before_validation(client):
    good_item = {"sku": "ROL-0001", "name": "Role", "unit": "each"}
    return [_row(client.post("/items", json=good_item, headers=C1)),
            _row(client.post("/items", json={}, headers=VIEW)),
            _row(client.delete("/items/WRP-0007", headers=C2)),
            _row(client.post("/locations", json={"code": "Z-99", "name": "Z"}, headers=C1)),
            _row(client.post("/receipts", json={"sku": "ABC-0001", "location": "A-01",
                                                "quantity": 1}, headers=VIEW)),
            _row(client.post("/adjustments", json={}, headers=C1)),
            _row(client.post("/transfers", json=_move("ABC-0001", "A-01", "B-01", 1),
                             headers=VIEW | {"Idempotency-Key": "role-1"})),
            _row(client.post("/transfers", json={}, headers=VIEW)),
            [client.get("/items/ROL-0001", headers=VIEW).status_code]]


def probe_items_sorted_filtered_paged(client):
    for sku, name in [("WGT-0300", "Widget large"), ("WGT-0100", "widget small"),
                      ("WGT-0200", "Gadget-widget")]:
        _item(client, sku, name)
    rows = []
    for params in [{"q": "WIDGET"}, {"q": "widget", "limit": 2}, {"q": "widget", "offset": 2},
                   {"q": "widget", "offset": 5}, {"q": "zzz"}, {"q": "bolt"}]:
        r = client.get("/items", params=params, headers=VIEW)
        rows.append([params, [[i["sku"], i["name"]] for i in r.json()],
                     r.headers.get("x-total-count")])
    r = client.get("/items", params={"limit": 1}, headers=VIEW)
    rows.append([len(r.json()), sorted(r.json()[0])])
    return rows


def probe_default_page_size(client):
    for i in range(${limit_default} + 1):
        _item(client, f"DEF-{i:04d}", f"Default page {i}")
    r = client.get("/items", params={"q": "default page"}, headers=VIEW)
    return [[[i["sku"] for i in r.json()], r.headers.get("x-total-count")]]


def probe_paging_validation(client):
    rows = []
    for path in ["/items", "/transfers", "/locations/A-01/stock"]:
        for params in [{"limit": 0}, {"limit": ${limit_max} + 1}, {"offset": -1},
                       {"limit": "ten"}, {"limit": 0, "offset": -1}]:
            rows.append([path, params, _row(client.get(path, params=params, headers=VIEW))])
        rows.append([path, client.get(path, params={"limit": ${limit_max}},
                                      headers=VIEW).status_code])
    return rows


def probe_create_item(client):
    r = client.post("/items", json={"sku": "NEW-0001", "name": "Brand new", "unit": "box"},
                    headers=MGR)
    rows = [_row(r, "location")]
    rows.append(_row(client.post("/items", json={"sku": "NEW-0001", "name": "Again",
                                                 "unit": "kg"}, headers=MGR)))
    rows.append(_row(client.post("/items", json={"sku": "ABC-0001", "name": "Seeded",
                                                 "unit": "kg"}, headers=MGR)))
    rows.append(_row(client.get("/items/NEW-0001", headers=VIEW)))
    return rows


def probe_item_validation(client):
    rows = []
    good = {"sku": "VAL-0001", "name": "Valid", "unit": "each"}
    for change in [{"sku": "val-0001"}, {"sku": "VAL-001"}, {"sku": "VAL-00011"},
                   {"sku": "VA1-0001"}, {"sku": " VAL-0002"}, {"name": ""}, {"name": "n" * 81},
                   {"unit": "EACH"}, {"unit": "litre"}, {"colour": "red"},
                   {"sku": "bad", "unit": "bad"}]:
        rows.append([change, _row(client.post("/items", json=good | change, headers=MGR))])
    rows.append(_row(client.post("/items", json={"sku": "VAL-0003", "name": "n" * 80,
                                                 "unit": "kg"}, headers=MGR)))
    rows.append(_row(client.post("/items", json=["VAL-0004"], headers=MGR)))
    return rows


def probe_read_item(client):
    return [_row(client.get("/items/ABC-0002", headers=VIEW)),
            _row(client.get("/items/WRP-0007", headers=VIEW)),
            _row(client.get("/items/abc-0002", headers=VIEW)),
            _row(client.get("/items/NOPE-1", headers=VIEW))]


def probe_delete_item(client):
    stocked = _item(client, "DEL-0001", stock=[("B-01", 2)])
    empty = _item(client, "DEL-0002")
    return [_row(client.delete(f"/items/{stocked}", headers=MGR)),
            _row(client.delete(f"/items/{empty}", headers=MGR)),
            _row(client.get(f"/items/{empty}", headers=MGR)),
            _row(client.delete(f"/items/{empty}", headers=MGR)),
            [client.get(f"/items/{stocked}", headers=MGR).json()["total_quantity"]]]


def probe_locations(client):
    rows = [_row(client.post("/locations", json={"code": "C-07", "name": "Cold room"},
                             headers=MGR), "location")]
    rows.append(_row(client.post("/locations", json={"code": "A-05", "name": "Aisle five"},
                                 headers=MGR)))
    rows.append(_row(client.post("/locations", json={"code": "A-01", "name": "Dup"},
                                 headers=MGR)))
    for body in [{"code": "c-07", "name": "x"}, {"code": "C7", "name": "x"},
                 {"code": "CC-07", "name": "x"}, {"code": "D-01", "name": ""},
                 {"code": "D-02", "name": "n" * 41}, {"code": "D-03", "name": "x", "zone": 1}]:
        rows.append([body, _row(client.post("/locations", json=body, headers=MGR))])
    rows.append(_row(client.get("/locations", headers=VIEW)))
    return rows


def probe_location_stock(client):
    client.post("/locations", json={"code": "E-05", "name": "Empty shelf"}, headers=MGR)
    _item(client, "LOC-0003", stock=[("E-05", 3)])
    _item(client, "LOC-0001", stock=[("E-05", 1)])
    _item(client, "LOC-0002", stock=[("E-05", 2)])
    drained = _item(client, "LOC-0004", stock=[("E-05", 4)])
    client.post("/adjustments", json={"sku": drained, "location": "E-05", "delta": -4,
                                      "reason": "count"}, headers=MGR)
    rows = []
    for params in [{}, {"limit": 2}, {"offset": 1, "limit": 1}, {"offset": 3}]:
        r = client.get("/locations/E-05/stock", params=params, headers=VIEW)
        rows.append([params, r.json(), r.headers.get("x-total-count")])
    rows.append(_row(client.get("/locations/Z-00/stock", headers=VIEW)))
    return rows


def probe_receipts(client):
    sku = _item(client, "REC-0001")
    rows = [_row(client.post("/receipts", json={"sku": sku, "location": "A-02", "quantity": 7},
                             headers=C2)),
            _row(client.post("/receipts", json={"sku": sku, "location": "A-02",
                                                "quantity": ${max_qty}}, headers=C2))]
    for body in [{"sku": "NOP-0000", "location": "Z-00", "quantity": 1},
                 {"sku": sku, "location": "Z-00", "quantity": 1},
                 {"sku": sku, "location": "A-02", "quantity": 0},
                 {"sku": sku, "location": "A-02", "quantity": ${max_qty} + 1},
                 {"sku": sku, "location": "A-02", "quantity": 2.5},
                 {"sku": sku, "location": "A-02"}]:
        rows.append([body, _row(client.post("/receipts", json=body, headers=C2))])
    rows.append([client.get(f"/items/{sku}", headers=VIEW).json()["total_quantity"]])
    return rows


def probe_transfer(client):
    sku = _item(client, "TRF-0001", stock=[("A-01", 10)])
    r = _transfer(client, _move(sku, "A-01", "B-01", 4), "transfer-one")
    body = r.json()
    return [[r.status_code, {k: v for k, v in body.items() if k != "id"},
             r.headers.get("location") == f"/transfers/{body['id']}",
             r.headers.get("idempotent-replayed")],
            [_qty(client, sku, "A-01"), _qty(client, sku, "B-01")],
            _no_id(client.get(f"/transfers/{body['id']}", headers=VIEW))]


def probe_transfer_validation(client):
    sku = _item(client, "TRV-0001", stock=[("A-01", 5)])
    rows = []
    for index, body in enumerate([_move(sku, "A-01", "B-01", 0),
                                  _move(sku, "A-01", "B-01", ${max_qty} + 1),
                                  {"sku": sku, "to": "B-01", "quantity": 1},
                                  {"sku": sku, "from": 7, "to": "B-01", "quantity": 1},
                                  {"sku": sku, "source": "A-01", "target": "B-01", "quantity": 1},
                                  _move(sku, "A-01", "B-01", 1) | {"note": "x"}, []]):
        rows.append(_row(_transfer(client, body, f"valid-{index}")))
    rows.append([_qty(client, sku, "A-01")])
    rows.append(_no_id(_transfer(client, _move(sku, "A-01", "B-01", 1), "valid-0")))
    return rows


def probe_transfer_rules_in_order(client):
    sku = _item(client, "ORD-0001", stock=[("A-01", 3)])
    cases = [_move("NOP-0000", "Z-00", "Z-01", 99), _move(sku, "Z-00", "Z-01", 99),
             _move(sku, "A-01", "Z-01", 99), _move(sku, "A-01", "A-01", 99),
             _move(sku, "B-01", "B-01", 1), _move(sku, "A-01", "B-01", 4),
             _move(sku, "B-01", "A-01", 1)]
    return [_row(_transfer(client, body, f"order-{i}")) for i, body in enumerate(cases)]


def probe_stock_never_negative(client):
    sku = _item(client, "NEG-0001", stock=[("A-01", 6)])
    rows = [_row(_transfer(client, _move(sku, "A-01", "A-02", 7), "neg-1")),
            [_qty(client, sku, "A-01"), _qty(client, sku, "A-02")]]
    r = _transfer(client, _move(sku, "A-01", "A-02", 6), "neg-2")
    rows.append([r.status_code, r.json()["quantity"]])
    rows.append([_qty(client, sku, "A-01"), _qty(client, sku, "A-02")])
    rows.append([client.get(f"/items/{sku}", headers=VIEW).json()["total_quantity"]])
    return rows


def probe_idempotency_key_checked(client):
    sku = _item(client, "KEY-0001", stock=[("A-01", 5)])
    body = _move(sku, "A-01", "B-01", 1)
    rows = [_row(client.post("/transfers", json=body, headers=C1))]
    for key in ["", "has space", "k" * 64, "k" * 65, "semi;colon", "ok_key-1"]:
        rows.append([key, _no_id(_transfer(client, body, key), "idempotent-replayed")])
    rows.append(_row(client.post("/transfers", json={}, headers=C1)))
    rows.append(_row(client.post("/transfers", json={}, headers=C1 | {"Idempotency-Key": "a b"})))
    rows.append([_qty(client, sku, "A-01")])
    return rows


def probe_replay(client):
    sku = _item(client, "RPL-0001", stock=[("A-01", 9)])
    body = _move(sku, "A-01", "A-02", 2)
    first = _transfer(client, body, "replay-me")
    again = _transfer(client, body, "replay-me")
    third = _transfer(client, dict(reversed(list(body.items()))), "replay-me")
    return [[first.status_code, again.status_code, third.status_code],
            [first.json() == again.json() == third.json(),
             first.headers.get("idempotent-replayed"), again.headers.get("idempotent-replayed"),
             again.headers.get("location") == first.headers.get("location")],
            [_qty(client, sku, "A-01"), _qty(client, sku, "A-02")],
            [len(client.get("/transfers", params={"sku": sku}, headers=VIEW).json())]]


def probe_key_reused_with_another_body(client):
    sku = _item(client, "RUS-0001", stock=[("A-01", 9)])
    _transfer(client, _move(sku, "A-01", "A-02", 2), "reuse-me")
    rows = [_row(_transfer(client, _move(sku, "A-01", "A-02", 3), "reuse-me")),
            _row(_transfer(client, _move(sku, "A-01", "B-01", 2), "reuse-me")),
            _row(_transfer(client, _move(sku, "A-01", "A-02", 2) | {"quantity": 0},
                           "reuse-me"))]
    rows.append([_qty(client, sku, "A-01"), _qty(client, sku, "A-02"), _qty(client, sku, "B-01")])
    return rows


def probe_keys_are_per_caller(client):
    sku = _item(client, "PER-0001", stock=[("A-01", 9)])
    body = _move(sku, "A-01", "B-01", 1)
    first = _transfer(client, body, "shared-key", C1)
    second = _transfer(client, body, "shared-key", C2)
    third = _transfer(client, body, "shared-key", MGR)
    return [[r.status_code, r.json()["by"], r.headers.get("idempotent-replayed")]
            for r in (first, second, third)] + [
        [first.json()["id"] != second.json()["id"], _qty(client, sku, "A-01")]]


def probe_refused_transfers_and_their_keys(client):
    sku = _item(client, "FAL-0001", stock=[("A-01", 2)])
    body = _move(sku, "A-01", "B-01", 5)
    rows = [_row(_transfer(client, body, "retry-me"), "idempotent-replayed")]
    client.post("/receipts", json={"sku": sku, "location": "A-01", "quantity": 10}, headers=C1)
    r = _transfer(client, body, "retry-me")
    rows.append([r.status_code, r.json().get("code", r.json().get("quantity")),
                 r.headers.get("idempotent-replayed")])
    rows.append([_qty(client, sku, "A-01"), _qty(client, sku, "B-01")])
    rows.append(_row(_transfer(client, _move(sku, "A-01", "B-01", 1), "retry-me")))
    return rows


def probe_list_transfers(client):
    sku = _item(client, "LST-0001", stock=[("A-01", 20)])
    ids = [_transfer(client, _move(sku, "A-01", "B-01", n), f"list-{n}").json()["id"]
           for n in (1, 2, 3)]
    rows = []
    for params in [{"sku": sku}, {"sku": sku, "limit": 1}, {"sku": sku, "offset": 2},
                   {"sku": "NOP-0000"}]:
        r = client.get("/transfers", params=params, headers=VIEW)
        rows.append([params, [[t["id"] in ids, t["quantity"]] for t in r.json()],
                     r.headers.get("x-total-count")])
    everything = client.get("/transfers", params={"limit": 1}, headers=VIEW)
    rows.append([everything.json()[0]["id"] == ids[-1],
                 int(everything.headers["x-total-count"]) >= 3])
    return rows


def probe_read_transfer(client):
    return [_row(client.get("/transfers/999999", headers=VIEW)),
            _row(client.get("/transfers/abc", headers=VIEW))]


def probe_adjustments(client):
    sku = _item(client, "ADJ-0001", stock=[("B-01", 5)])
    rows = []
    for body in [{"delta": 3}, {"delta": -8}, {"delta": -9}, {"delta": 0}, {"delta": ${max_qty}},
                 {"delta": -(${max_qty} + 1)}, {"delta": 2, "reason": ""},
                 {"delta": 1, "location": "Z-00"}, {"delta": 1, "sku": "NOP-0000"},
                 {"delta": 1, "extra": True}]:
        sent = {"sku": sku, "location": "B-01", "reason": "cycle count"} | body
        rows.append([body, _row(client.post("/adjustments", json=sent, headers=MGR))])
    rows.append([_qty(client, sku, "B-01")])
    return rows


def probe_unknown_paths_and_methods(client):
    rows = []
    for method, path in [("GET", "/nope"), ("GET", "/receipts"), ("PUT", "/locations/A-01/stock"),
                         ("PATCH", "/transfers/1"), ("GET", "/adjustments")]:
        r = client.request(method, path, headers=VIEW)
        rows.append([method, path, r.status_code, r.json(), r.headers.get("allow")])
    return rows
'''

FAILURES = {
    True: "A refused transfer (any 400, 404 or ${insufficient_status} answer from the rules "
          "above) is remembered the same way, so sending it again repeats that refusal, even "
          "if the stock has changed since.",
    False: "A refused transfer is not remembered: its key stays unused, and the same request "
           "sent again is processed afresh.",
}


def derive(p):
    return {"failures_text": FAILURES[p["remember_failures"]].replace(
        "${insufficient_status}", str(p["insufficient_status"]))}


PROMPT = '''\
Build the HTTP API of a warehouse stock service, as specified below. Keep all state in memory,
starting from the data given here.

## Access
Every request authenticates with the header `X-API-Key`:

| key | name | role |
|---|---|---|
| `${k_view}` | `${viewer}` | viewer |
| `${k_c1}` | `${c1}` | clerk |
| `${k_c2}` | `${c2}` | clerk |
| `${k_mgr}` | `${mgr}` | ${mgr_role} |

A missing, empty or unknown key is 401 `unauthenticated`. Reading is open to every role;
routes marked *clerk* are for clerks and the ${mgr_role}, routes marked *${mgr_role}* for the
${mgr_role} only; other roles get 403 `forbidden`. The key is checked first, then the role,
before anything else about the request (a body that is not JSON included).

- `GET /me`: 200 `{"name", "role"}`.

## Errors
Every error has the body `{"code": <code>}`, except validation failures (body, path or query):
422 `{"code": "invalid_request", "fields": [...]}`, the sorted names, without repeats, of the
invalid fields or parameters (`"body"` when the body is missing, not JSON, or not a JSON object). A path
no route serves is 404 `not_found`; a served path with another method 405
`method_not_allowed`, keeping the `Allow` header.

## Listings
Every listing takes `limit` (1-${limit_max}, default ${limit_default}) and `offset` (>= 0,
default 0), answers 200 with a JSON array of that page (empty past the end) and the header
`X-Total-Count`: the number of matching entries before paging.

## Items and locations
An item is shown as `{"sku", "name", "unit", "total_quantity"}` (its stock over all
locations). Item bodies: `sku` three capital letters, a hyphen and four digits (`ABC-0001`);
`name` 1-80 characters; `unit` `each`, `box` or `kg`; no other fields. Location bodies: `code`
a capital letter, a hyphen and two digits (`A-01`); `name` 1-40 characters; no other fields.

| sku | name | unit |
|---|---|---|
| ABC-0001 | Hex bolt M6 | each |
| ABC-0002 | Hex nut M6 | each |
| CAB-0100 | Patch cable 2m | box |
| WRP-0007 | Stretch wrap | kg |
| BOL-0010 | Carriage bolt M8 | each |

| code | name |
|---|---|
| A-01 | Aisle one |
| A-02 | Aisle two |
| B-01 | Bulk store |

Stock at the start (every other item and location holds 0):

| sku | location | quantity |
|---|---|---|
| ABC-0001 | A-01 | ${q_bolt_a1} |
| ABC-0001 | B-01 | ${q_bolt_b1} |
| ABC-0002 | A-01 | ${q_nut_a1} |
| CAB-0100 | A-02 | ${q_cable_a2} |
| BOL-0010 | A-02 | ${q_carriage_a2} |

- `GET /items` (a listing): the items sorted by sku; the optional `q` keeps those whose name
  contains it, ignoring case.
- `POST /items` *${mgr_role}*: 201 with the item and `Location: /items/<sku>`; 409
  `sku_exists` if the sku is taken.
- `GET /items/{sku}`: 200 with the item; 404 `item_not_found` (skus are matched exactly).
- `DELETE /items/{sku}` *${mgr_role}*: 404 `item_not_found`; 409 `item_in_stock` while any
  location holds some of it; 204, empty body.
- `GET /locations`: 200, all locations `{"code", "name"}` sorted by code (not paged).
- `POST /locations` *${mgr_role}*: 201 with the location and `Location: /locations/<code>`;
  409 `location_exists`.
- `GET /locations/{code}/stock` (a listing): `{"sku", "quantity"}` of every item the location
  holds more than 0 of, sorted by sku; 404 `location_not_found`.

## Stock movements
Quantities in bodies are integers from 1 to ${max_qty}. Unknown items are 404 `item_not_found`
and unknown locations 404 `location_not_found`, the item checked first. Stock never goes
negative: a movement that would take more than a location holds is ${insufficient_status}
`insufficient_stock` and changes nothing.
- `POST /receipts` *clerk* `{"sku", "location", "quantity"}` (no other fields): adds the
  quantity there; 201 `{"sku", "location", "quantity": <the quantity now held there>}`.
- `POST /adjustments` *${mgr_role}* `{"sku", "location", "delta", "reason"}` (no other fields):
  `delta` an integer from -${max_qty} to ${max_qty}, not 0; `reason` 1-100 characters. Adds the
  delta; 200 `{"sku", "location", "quantity"}`.
- `POST /transfers` *clerk* `{"sku", "from", "to", "quantity"}` (no other fields): moves the
  quantity from location `from` to location `to`. In this order: the item, `from`, `to` (404s),
  400 `same_location` if they are equal, then the stock rule. 201 with the transfer `{"id",
  "sku", "from", "to", "quantity", "by": <caller's name>}` and `Location: /transfers/<id>`;
  ids are 1, 2, 3, ... in the order transfers succeed.
- `GET /transfers` (a listing): newest first; the optional `sku` keeps that item's transfers.
- `GET /transfers/{transfer_id}`: 200 with it; 404 `transfer_not_found`.

## Idempotency
`POST /transfers` needs the header `Idempotency-Key`: 1-64 characters, each a letter, a digit,
`-` or `_`. Missing: 400 `idempotency_key_required`; malformed: 400
`invalid_idempotency_key`; both are checked after the role and before the body. A successful
transfer is remembered under its caller and key (two callers may use the same key
independently). ${failures_text} The body is validated before anything is looked up, and a
body that fails validation is never remembered. A request whose caller and key are remembered is not processed again: with the same body (the same four
values) the answer repeats the remembered one (status, body and `Location` if it had one) with
the extra header `Idempotent-Replayed: true`, which first answers never carry; with a
different body it is ${reuse_status} `idempotency_key_reused`.

## result
One row per request, `[status code, JSON body]` followed by the values of the headers named
(null when absent):
1. `GET /items` as `${viewer}`; header `X-Total-Count`
2. `POST /transfers` as `${c1}` with `Idempotency-Key: k-1` and `{"sku": "ABC-0001", "from":
   "A-01", "to": "A-02", "quantity": ${tq}}`
3. the same request again; header `Idempotent-Replayed`
4. `GET /locations/A-02/stock` as `${viewer}`; header `X-Total-Count`
5. the request of row 2 as `${viewer}`, with `Idempotency-Key: k-2`
'''

PEOPLE = [
    {"viewer": "vera", "c1": "carl", "c2": "cleo", "mgr": "mona", "k_view": "key-view-7f3a",
     "k_c1": "key-clerk-2b9c", "k_c2": "key-clerk-5d1e", "k_mgr": "key-boss-9a0f"},
    {"viewer": "otto", "c1": "pete", "c2": "rosa", "mgr": "sam", "k_view": "v1ew-otto",
     "k_c1": "cl3rk-pete", "k_c2": "cl3rk-rosa", "k_mgr": "b0ss-sam"},
]
STOCKS = [
    {"q_bolt_a1": 40, "q_bolt_b1": 10, "q_nut_a1": 15, "q_cable_a2": 3, "q_carriage_a2": 8,
     "tq": 12},
    {"q_bolt_a1": 25, "q_bolt_b1": 0, "q_nut_a1": 60, "q_cable_a2": 12, "q_carriage_a2": 1,
     "tq": 25},
    {"q_bolt_a1": 7, "q_bolt_b1": 30, "q_nut_a1": 2, "q_cable_a2": 9, "q_carriage_a2": 14,
     "tq": 9},
]

FAMILY = Family(
    id="service/warehouse_stock",
    title="A warehouse stock service from its product document",
    category="service",
    difficulty="hard",
    tier="service",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=PEOPLE[0] | STOCKS[0] | {"mgr_role": "manager", "max_qty": 500,
                                      "limit_default": 3, "limit_max": 20,
                                      "remember_failures": False, "insufficient_status": 409,
                                      "reuse_status": 422},
    space={
        "people": PEOPLE,
        "stock": STOCKS,
        "mgr_role": ["manager", "supervisor", "lead"],
        "max_qty": [500, 1000, 250],
        "paging": [{"limit_default": 3, "limit_max": 20}, {"limit_default": 5, "limit_max": 10},
                   {"limit_default": 10, "limit_max": 50}],
        "remember_failures": [False, True],
        "insufficient_status": [409, 422],
        "reuse_status": [422, 409],
    },
    derive=derive,
    instances=16,
    requirements=(
        Requirement("Every route needs a known `X-API-Key` (exact): else 401 `unauthenticated`, "
                    "before the role or the body.",
                    probes="keys_required",
                    traps=(Edit("keys ignore case", '''    if x_api_key not in KEYS:
        raise APIError(401, "unauthenticated")
    return KEYS[x_api_key]''', '''    keys = {k.lower(): v for k, v in KEYS.items()}
    if x_api_key is None or x_api_key.lower() not in keys:
        raise APIError(401, "unauthenticated")
    return keys[x_api_key.lower()]'''),
                           Edit("body before key", '''def create_item(body: ItemIn, user: Manager, response: Response):
''', '''def create_item(body: ItemIn, response: Response, x_api_key: Annotated[str | None, Header()] = None):
    user = roles(MANAGER)(caller(x_api_key))
'''))),
        Requirement("`GET /me` gives the caller's name and role.",
                    probes="me",
                    traps=Edit("me without role", "def me(user: AnyUser):\n    return user",
                               'def me(user: AnyUser):\n    return {"name": user["name"]}')),
        Requirement("The key and the role are checked before the body, even a body that is not "
                    "JSON (then 422 naming `body`).",
                    probes="credentials_before_json", traps=late_body.body_decoded_first()),
        Requirement("Writes are restricted by role (403 `forbidden`), checked before the body "
                    "and the idempotency key.",
                    probes="roles_before_validation",
                    traps=(Edit("clerks create items", "def create_item(body: ItemIn, user: Manager,",
                                "def create_item(body: ItemIn, user: Mover,"),
                           Edit("key before role", '''def create_transfer(body: TransferIn, user: Mover,
                    key: Annotated[str, Depends(idempotency_key)]):''', '''def create_transfer(body: TransferIn, key: Annotated[str, Depends(idempotency_key)],
                    user: Mover):'''))),
        Requirement("Items are listed by sku, `q` matching names ignoring case, paged by "
                    "`limit`/`offset` with `X-Total-Count` before paging.",
                    probes="items_sorted_filtered_paged",
                    traps=(Edit("q case-sensitive", 'q.lower() in ITEMS[s]["name"].lower()',
                                'q in ITEMS[s]["name"]'),
                           Edit("total after paging", '''    response.headers["X-Total-Count"] = str(len(rows))
    return rows[offset:offset + limit]''', '''    page = rows[offset:offset + limit]
    response.headers["X-Total-Count"] = str(len(page))
    return page'''))),
        Requirement("A listing's default page is ${limit_default} entries.",
                    probes="default_page_size",
                    traps=Edit("default page of items", "def list_items(user: AnyUser, response: "
                               "Response, q: str | None = None, limit: Page = ${limit_default},",
                               "def list_items(user: AnyUser, response: Response, q: str | None "
                               "= None, limit: Page = ${limit_max},")),
        Requirement("`limit` is 1-${limit_max} and `offset` >= 0 on every listing (422 naming "
                    "them).",
                    probes="paging_validation",
                    traps=(Edit("limit unbounded", "Page = Annotated[int, Query(ge=1, le=${limit_max})]",
                                "Page = Annotated[int, Query(ge=1)]"),
                           Edit("negative offsets", "Offset = Annotated[int, Query(ge=0)]",
                                "Offset = int"))),
        Requirement("`POST /items` answers 201 with the item and `Location`; a taken sku is "
                    "409 `sku_exists`.",
                    probes="create_item",
                    traps=(Edit("item without Location",
                                '    response.headers["Location"] = f"/items/{body.sku}"\n', ""),
                           Edit("items overwritten", '''    if body.sku in ITEMS:
        raise APIError(409, "sku_exists")
''', ""))),
        Requirement("Item bodies: sku `AAA-0000`, name 1-80, unit one of three exactly, no "
                    "other fields.",
                    probes="item_validation",
                    traps=(Edit("sku not anchored", 'pattern=r"^[A-Z]{3}-[0-9]{4}$$"',
                                'pattern=r"[A-Z]{3}-[0-9]{4}"'),
                           extras_ignored("item extras ignored", "ItemIn"))),
        Requirement("`GET /items/{sku}` shows the item with its total stock; skus match "
                    "exactly, else 404 `item_not_found`.",
                    probes="read_item",
                    traps=(Edit("sku case-insensitive", "    return item_out(item_of(sku)[\"sku\"])",
                                "    return item_out(item_of(sku.upper())[\"sku\"])"),)),
        Requirement("An item in stock cannot be deleted (409 `item_in_stock`); others are "
                    "deleted (204).",
                    probes="delete_item",
                    traps=Edit("items in stock deletable", '''    if item_out(sku)["total_quantity"] > 0:
        raise APIError(409, "item_in_stock")
''', "")),
        Requirement("Locations: created with 201 and `Location`, 409 `location_exists`, code "
                    "`A-00` and name 1-40 validated, listed by code.",
                    probes="locations",
                    traps=(Edit("duplicate locations", '''    if body.code in LOCATIONS:
        raise APIError(409, "location_exists")
''', ""),
                           Edit("locations unsorted", "return [LOCATIONS[c] for c in sorted(LOCATIONS)]",
                                "return list(LOCATIONS.values())"))),
        Requirement("A location's stock lists items held above 0, by sku, paged; unknown is 404 "
                    "`location_not_found`.",
                    probes="location_stock",
                    traps=(Edit("empty lines listed", "if c == code and q > 0]", "if c == code]"),
                           Edit("unknown location empty", '''    location_of(code)
    lines''', "    lines"))),
        Requirement("Receipts add stock (201 with the new quantity); the item is checked before "
                    "the location; quantities 1-${max_qty}.",
                    probes="receipts",
                    traps=(Edit("location checked first", '''    item_of(body.sku)
    location_of(body.location)
    put(''', '''    location_of(body.location)
    item_of(body.sku)
    put('''),
                           Edit("receipt answers 200", '@app.post("/receipts", status_code=201)',
                                '@app.post("/receipts")'))),
        Requirement("A transfer moves stock and answers 201 with `{id, sku, from, to, quantity, "
                    "by}` and `Location`.",
                    probes="transfer",
                    traps=(Edit("transfer keys by field name", '''    transfer = {"id": len(TRANSFERS) + 1, "sku": body.sku, "from": body.source,
                "to": body.target,''', '''    transfer = {"id": len(TRANSFERS) + 1, "sku": body.sku, "source": body.source,
                "target": body.target,'''),
                           Edit("transfer without Location", '''    headers = {"Location": f"/transfers/{transfer['id']}"}''',
                                "    headers = {}"))),
        Requirement("Transfer bodies use the fields `from` and `to` and are validated (no other "
                    "fields, quantity 1-${max_qty}); a refused body moves nothing and leaves its "
                    "key unused.",
                    probes="transfer_validation",
                    traps=(Edit("field names accepted too", '''class TransferIn(BaseModel):
    model_config = ConfigDict(extra="forbid")''', '''class TransferIn(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)'''),
                           Edit("transfer quantity unbounded", '''    target: str = Field(alias="to")
    quantity: int = Field(ge=1, le=MAX_QTY)''', '''    target: str = Field(alias="to")
    quantity: int = Field(ge=1)'''))),
        Requirement("Transfer rules in order: item, `from`, `to`, 400 `same_location`, then "
                    "${insufficient_status} `insufficient_stock`.",
                    probes="transfer_rules_in_order",
                    traps=(Edit("same location after stock", '''    if body.source == body.target:
        raise APIError(400, "same_location")
    take(body.sku, body.source, body.quantity)''', '''    take(body.sku, body.source, body.quantity)
    if body.source == body.target:
        raise APIError(400, "same_location")'''),
                           Edit("insufficient as 400", 'raise APIError(${insufficient_status}, "insufficient_stock")',
                                'raise APIError(400, "insufficient_stock")'))),
        Requirement("Stock never goes negative: moving all of it is fine, one more is refused "
                    "and changes nothing.",
                    probes="stock_never_negative",
                    traps=Edit("last unit kept", "if STOCK.get((sku, code), 0) < quantity:",
                               "if STOCK.get((sku, code), 0) <= quantity:")),
        Requirement("`Idempotency-Key` is required (400 `idempotency_key_required`) and must be "
                    "1-64 of letters, digits, `-`, `_` (400 `invalid_idempotency_key`), "
                    "checked before the body.",
                    probes="idempotency_key_checked",
                    traps=(Edit("key length unchecked", 'r"[A-Za-z0-9_-]{1,64}"', 'r"[A-Za-z0-9_-]+"'),
                           Edit("idempotency key after the body", '''    key: Annotated[str, Depends(idempotency_key)]):
    sent''', '''    idempotency_key_header: Annotated[str | None, Header(alias="Idempotency-Key")] = None):
    key = idempotency_key(idempotency_key_header)
    sent'''))),
        Requirement("The same key and body replays the first answer with `Idempotent-Replayed: "
                    "true` and moves nothing again.",
                    probes="replay",
                    traps=(Edit("replay without header", '''                            headers=saved["headers"] | {"Idempotent-Replayed": "true"})''',
                                '''                            headers=saved["headers"])'''),
                           Edit("replay drops Location", '''                            headers=saved["headers"] | {"Idempotent-Replayed": "true"})''',
                                '''                            headers={"Idempotent-Replayed": "true"})'''))),
        Requirement("The same key with another body is ${reuse_status} `idempotency_key_reused` "
                    "and moves nothing.",
                    probes="key_reused_with_another_body",
                    traps=Edit("other bodies replayed", '''        if saved["sent"] != sent:
            raise APIError(${reuse_status}, "idempotency_key_reused")
''', "")),
        Requirement("Idempotency keys belong to their caller.",
                    probes="keys_are_per_caller",
                    traps=Edit("keys shared by callers", '    slot = (user["name"], key)',
                               '    slot = ("all", key)')),
        Requirement("${failures_text}",
                    probes="refused_transfers_and_their_keys",
                    traps=Edit("failures remembered the other way",
                               "REMEMBER_FAILURES = ${remember_failures__repr}",
                               lambda p: f"REMEMBER_FAILURES = {not p['remember_failures']!r}")),
        Requirement("Transfers are listed newest first, filtered by `sku`, paged with "
                    "`X-Total-Count`; an unknown id is 404 `transfer_not_found`.",
                    probes=("list_transfers", "read_transfer"),
                    traps=(Edit("transfers oldest first", 'key=lambda t: -t["id"]',
                                'key=lambda t: t["id"]'),
                           Edit("unknown transfer 500", '''    if transfer_id not in TRANSFERS:
        raise APIError(404, "transfer_not_found")
''', ""))),
        Requirement("Adjustments: delta non-zero within +-${max_qty}, reason 1-100; going below "
                    "0 is refused.",
                    probes="adjustments",
                    traps=(Edit("zero delta allowed", '''        if value == 0:
            raise ValueError("a zero adjustment changes nothing")
''', ""),
                           Edit("adjust below zero", '''    if body.delta < 0:
        take(body.sku, body.location, -body.delta)
    else:
        put(body.sku, body.location, body.delta)''', '''    put(body.sku, body.location, body.delta)'''))),
        Requirement("Unknown paths are 404 `not_found`, other methods 405 `method_not_allowed` "
                    "with `Allow`.",
                    probes="unknown_paths_and_methods",
                    traps=(router_errors_in_fastapi_format("router errors unhandled"),
                           Edit("Allow dropped", 'status_code=exc.status_code, headers=exc.headers)',
                                "status_code=exc.status_code)"))),
    ),
)
