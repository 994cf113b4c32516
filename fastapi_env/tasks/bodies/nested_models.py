from fastapi_env.tasks import Edit, Family, Requirement

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
    qty: int = Field(gt=${gt})
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

ADA = {"name": "${name}", "email": "${email}"}
BODIES = [
    {"customer": ADA,
     "lines": [{"sku": "pen", "qty": ${q2}, "unit_price": ${p1}}, {"sku": "ink", "qty": ${q1}, "unit_price": ${p2}}],
     "ship_to": {"city": "${city}", "postcode": "${postcode}"}},
    {"customer": ADA, "lines": [{"sku": "pad", "qty": ${q4}, "unit_price": 0.5}]},
    {"customer": ADA,
     "lines": [{"sku": "pen", "qty": ${q2}, "unit_price": ${p1}}, {"sku": "ink", "qty": ${gt}, "unit_price": ${p2}}]},
    {"customer": {"name": "Bob"}, "lines": [{"sku": "pen", "qty": ${q1}, "unit_price": ${p1}}]},
    {"customer": ADA, "lines": [{"sku": "pen", "qty": ${q1}, "unit_price": ${p1}}],
     "ship_to": {"city": "${city}"}},
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.post("/orders", json=body)) for body in BODIES]
'''

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

_NO_QTY_CONSTRAINT = _MODELS.replace("    qty: int = Field(gt=${gt})\n", "    qty: int\n")

FAMILY = Family(
    id="bodies/nested_models",
    title="Nested body models validate recursively, errors carry the full path",
    category="bodies",
    difficulty="easy",
    prompt='''\
Build `POST /orders`, taking a JSON body validated by nested Pydantic models (the body *is* the
order object, not wrapped in another key):

- `Customer`: `name: str`, `email: str`.
- `Line`: `sku: str`, `qty: int` that must be greater than ${gt} (`Field(gt=${gt})`), `unit_price: float`.
- `Address`: `city: str`, `postcode: str`.
- `Order`: `customer: Customer`, `lines: list[Line]`, `ship_to: Address | None = None` (optional).

All validation is FastAPI's own (standard 422 responses). A valid order answers 200 with
`{"customer": <customer name>, "line_count": <int>, "total": <float: sum of qty * unit_price>,
"ship_city": <ship_to's city, or null without ship_to>}`.

Then fill `result` with one row per request, in this order, all `POST /orders` with a JSON body
(`client.post("/orders", json=body)`), where `ADA` is `{"name": "${name}", "email": "${email}"}`:
1. `{"customer": ADA, "lines": [{"sku": "pen", "qty": ${q2}, "unit_price": ${p1}}, {"sku": "ink", "qty": ${q1}, "unit_price": ${p2}}], "ship_to": {"city": "${city}", "postcode": "${postcode}"}}`
2. `{"customer": ADA, "lines": [{"sku": "pad", "qty": ${q4}, "unit_price": 0.5}]}`
3. `{"customer": ADA, "lines": [{"sku": "pen", "qty": ${q2}, "unit_price": ${p1}}, {"sku": "ink", "qty": ${gt}, "unit_price": ${p2}}]}`
4. `{"customer": {"name": "Bob"}, "lines": [{"sku": "pen", "qty": ${q1}, "unit_price": ${p1}}]}`
5. `{"customer": ADA, "lines": [{"sku": "pen", "qty": ${q1}, "unit_price": ${p1}}], "ship_to": {"city": "${city}"}}`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list)]`; for any other response,
`[status code (integer), the JSON body]`.
''',
    reference=_HEAD + _MODELS + _TAIL,
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


ADA = {"name": "${name}", "email": "${email}"}


def probe_valid_orders(client):
    bodies = [
        {"customer": {"name": "Cy", "email": "c"}, "lines": [{"sku": "z", "qty": 10, "unit_price": 0.5}],
         "ship_to": {"city": "Rome", "postcode": "00100"}},
        {"customer": ADA, "lines": [{"sku": "a", "qty": ${q2}, "unit_price": 0.25},
                                    {"sku": "b", "qty": 1, "unit_price": 4},
                                    {"sku": "c", "qty": 2, "unit_price": 0.125}],
         "ship_to": None},
        {"customer": ADA, "lines": [{"sku": "d", "qty": ${q1}, "unit_price": 2}]},  # ship_to absent
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


def probe_qty_bound_and_empty_lines(client):
    rows = []
    for lines in [[], [{"sku": "a", "qty": ${gt}, "unit_price": 1}],
                  [{"sku": "a", "qty": ${q1}, "unit_price": 3}], [{"sku": "a", "qty": ${below}, "unit_price": 1}]]:
        rows.append(_row(client.post("/orders", json={"customer": ADA, "lines": lines})))
    return rows


def probe_wrapped_body_is_rejected(client):
    r = client.post("/orders", json={"order": {"customer": ADA, "lines": []}})
    return [_row(r)]
''',
    original={"gt": 0, "name": "Ada", "email": "ada@example.com", "p1": 1.5, "p2": 2.25,
              "city": "Oslo", "postcode": "0150"},
    space={
        "gt": [0, 1, 2, 4],
        "name": [{"name": "Ada", "email": "ada@example.com"}, {"name": "Lin", "email": "lin@example.org"}],
        "p1": [{"p1": 1.5, "p2": 2.25}, {"p1": 2.0, "p2": 0.75}, {"p1": 0.5, "p2": 10.0}],
        "city": [{"city": "Oslo", "postcode": "0150"}, {"city": "Lima", "postcode": "15001"}],
    },
    derive=lambda p: {"q1": p["gt"] + 1, "q2": p["gt"] + 2, "q4": p["gt"] + 4, "below": p["gt"] - 1},
    instances=48,
    requirements=(
        Requirement(
            "Every line is validated as a `Line`: errors carry the full path "
            "(`[\"body\", \"lines\", <index>, <field>]`); a non-list `lines` is a 422.",
            probes=("deep_errors",),
            traps=(Edit("lines typed as list[dict] (nothing validated)", _MODELS, _DICT_LINES),),
        ),
        Requirement(
            "The body is the order object itself; a body wrapped under `order` is a 422.",
            probes=("wrapped_body_is_rejected",),
            traps=(Edit("order embedded under an 'order' key", _MODELS, _EMBEDDED),),
        ),
        Requirement(
            "`ship_to` is optional (absent or null gives `ship_city` null).",
            probes=("valid_orders",),
            traps=(Edit("optional ship_to without a default (required)", _MODELS, _SHIP_TO_REQUIRED),),
        ),
        Requirement(
            "`qty` must be greater than ${gt}: ${gt} is a 422 `greater_than`, ${q1} is accepted.",
            probes=("qty_bound_and_empty_lines",),
            traps=(
                Edit("qty without the gt constraint", "qty: int = Field(gt=${gt})", "qty: int"),
                Edit("qty bound inclusive (ge)", "qty: int = Field(gt=${gt})", "qty: int = Field(ge=${gt})"),
            ),
        ),
        Requirement(
            "`total` is the sum of qty * unit_price (0 for an empty `lines` list, which is valid).",
            probes=("qty_bound_and_empty_lines", "valid_orders"),
            traps=(
                Edit("total ignores qty", "sum(line.qty * line.unit_price for line in order.lines)",
                     "sum(line.unit_price for line in order.lines)"),
                Edit("empty lines rejected", "    lines: list[Line]\n",
                     "    lines: list[Line] = Field(min_length=1)\n"),
            ),
        ),
    ),
    expected_rows=[
        [200, {"customer": "Ada", "line_count": 2, "total": 5.25, "ship_city": "Oslo"}],
        [200, {"customer": "Ada", "line_count": 1, "total": 2.0, "ship_city": None}],
        [422, [["greater_than", ["body", "lines", 1, "qty"]]]],
        [422, [["missing", ["body", "customer", "email"]]]],
        [422, [["missing", ["body", "ship_to", "postcode"]]]],
    ],
)
