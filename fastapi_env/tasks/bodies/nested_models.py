from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import Body, FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

'''

_MODELS = '''\
class Customer(BaseModel):
    name: str
    email: str


class Line(BaseModel):
    sku: str
    qty: int = Field(gt=0)
    unit_price: float


class Address(BaseModel):
    city: str
    postcode: str


class Order(BaseModel):
    customer: Customer
    lines: list[Line]
    ship_to: Address | None = None


app = FastAPI()


@app.post("/orders")
def create_order(order: Order):
    return {
        "customer": order.customer.name,
        "line_count": len(order.lines),
        "total": sum(line.qty * line.unit_price for line in order.lines),
        "ship_city": order.ship_to.city if order.ship_to else None,
    }
'''

_TAIL = '''

ADA = {"name": "Ada", "email": "ada@example.com"}
BODIES = [
    {"customer": ADA,
     "lines": [{"sku": "pen", "qty": 2, "unit_price": 1.5}, {"sku": "ink", "qty": 1, "unit_price": 2.25}],
     "ship_to": {"city": "Oslo", "postcode": "0150"}},
    {"customer": ADA, "lines": [{"sku": "pad", "qty": 4, "unit_price": 0.5}]},
    {"customer": ADA,
     "lines": [{"sku": "pen", "qty": 2, "unit_price": 1.5}, {"sku": "ink", "qty": 0, "unit_price": 2.25}]},
    {"customer": {"name": "Bob"}, "lines": [{"sku": "pen", "qty": 1, "unit_price": 1.5}]},
    {"customer": ADA, "lines": [{"sku": "pen", "qty": 1, "unit_price": 1.5}],
     "ship_to": {"city": "Oslo"}},
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.post("/orders", json=body)) for body in BODIES]
'''

_RIGHT = _MODELS

_DICT_LINES = _MODELS.replace("    lines: list[Line]\n", "    lines: list[dict]\n").replace(
    'sum(line.qty * line.unit_price for line in order.lines)',
    'sum(line["qty"] * line["unit_price"] for line in order.lines)',
)

_EMBEDDED = _MODELS.replace(
    "def create_order(order: Order):", "def create_order(order: Annotated[Order, Body(embed=True)]):"
)

_SHIP_TO_REQUIRED = _MODELS.replace(
    "    ship_to: Address | None = None\n", "    ship_to: Address | None\n"
)

_NO_QTY_CONSTRAINT = _MODELS.replace("    qty: int = Field(gt=0)\n", "    qty: int\n")

TASK = Task(
    id="bodies/nested_models",
    title="Nested body models validate recursively, errors carry the full path",
    category="bodies",
    difficulty="easy",
    prompt='''\
Build `POST /orders`, taking a JSON body validated by nested Pydantic models (the body *is* the
order object, not wrapped in another key):

- `Customer`: `name: str`, `email: str`.
- `Line`: `sku: str`, `qty: int` that must be greater than 0 (`Field(gt=0)`), `unit_price: float`.
- `Address`: `city: str`, `postcode: str`.
- `Order`: `customer: Customer`, `lines: list[Line]`, `ship_to: Address | None = None` (optional).

All validation is FastAPI's own (standard 422 responses). A valid order answers 200 with
`{"customer": <customer name>, "line_count": <int>, "total": <float: sum of qty * unit_price>,
"ship_city": <ship_to's city, or null without ship_to>}`.

Then fill `result` with one row per request, in this order, all `POST /orders` with a JSON body
(`client.post("/orders", json=body)`), where `ADA` is `{"name": "Ada", "email": "ada@example.com"}`:
1. `{"customer": ADA, "lines": [{"sku": "pen", "qty": 2, "unit_price": 1.5}, {"sku": "ink", "qty": 1, "unit_price": 2.25}], "ship_to": {"city": "Oslo", "postcode": "0150"}}`
2. `{"customer": ADA, "lines": [{"sku": "pad", "qty": 4, "unit_price": 0.5}]}`
3. `{"customer": ADA, "lines": [{"sku": "pen", "qty": 2, "unit_price": 1.5}, {"sku": "ink", "qty": 0, "unit_price": 2.25}]}`
4. `{"customer": {"name": "Bob"}, "lines": [{"sku": "pen", "qty": 1, "unit_price": 1.5}]}`
5. `{"customer": ADA, "lines": [{"sku": "pen", "qty": 1, "unit_price": 1.5}], "ship_to": {"city": "Oslo"}}`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list)]`; for any other response,
`[status code (integer), the JSON body]`.
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


ADA = {"name": "Ada", "email": "ada@example.com"}


def probe_valid_orders(client):
    bodies = [
        {"customer": {"name": "Cy", "email": "c"}, "lines": [{"sku": "z", "qty": 10, "unit_price": 0.5}],
         "ship_to": {"city": "Rome", "postcode": "00100"}},
        {"customer": ADA, "lines": [{"sku": "a", "qty": 3, "unit_price": 0.25},
                                    {"sku": "b", "qty": 1, "unit_price": 4},
                                    {"sku": "c", "qty": 2, "unit_price": 0.125}],
         "ship_to": None},
    ]
    return [_row(client.post("/orders", json=b)) for b in bodies]


def probe_deep_errors(client):
    bodies = [
        {"customer": ADA, "lines": [{"sku": "a", "qty": 1, "unit_price": 1},
                                    {"sku": "b", "qty": -2, "unit_price": "x"},
                                    {"qty": 1, "unit_price": 1}]},
        {"customer": ADA, "lines": ["pen"]},
        {"customer": ADA, "lines": {"sku": "a", "qty": 1, "unit_price": 1}},
        {"customer": "Ada", "lines": [{"sku": "a", "qty": 1, "unit_price": 1}],
         "ship_to": {"postcode": 1234}},
    ]
    return [_row(client.post("/orders", json=b)) for b in bodies]


def probe_wrapped_body_is_rejected(client):
    r = client.post("/orders", json={"order": {"customer": ADA, "lines": []}})
    return [_row(r)]
''',
    traps={
        "lines typed as list[dict] (nothing validated)": _HEAD + _DICT_LINES + _TAIL,
        "order embedded under an 'order' key": _HEAD + _EMBEDDED + _TAIL,
        "optional ship_to without a default (required)": _HEAD + _SHIP_TO_REQUIRED + _TAIL,
        "qty without the gt=0 constraint": _HEAD + _NO_QTY_CONSTRAINT + _TAIL,
    },
    expected_rows=[
        [200, {"customer": "Ada", "line_count": 2, "total": 5.25, "ship_city": "Oslo"}],
        [200, {"customer": "Ada", "line_count": 1, "total": 2.0, "ship_city": None}],
        [422, [["greater_than", ["body", "lines", 1, "qty"]]]],
        [422, [["missing", ["body", "customer", "email"]]]],
        [422, [["missing", ["body", "ship_to", "postcode"]]]],
    ],
)
