"""Repair tier: a shop checkout, a package of six modules in /workspace with nine planted bugs
(`from __future__ import annotations` added to a module whose body model is defined inside the
router factory, so the body silently becomes a required query parameter; an order route whose
response model is the internal record and so leaks the margin; a discount computed through a
float percentage and truncated; a Location header set on the injected Response while the route
returns its own JSONResponse; a stock check that refuses the last unit; an optional discount
code without a default; a code normaliser that no longer strips spaces; a repeatable query
filter declared without Query(), so it is read from the body and ignored; a cart route that looks
carts up without the closed check). Each bug is one requirement's trap; the setup is the
reference with all of them."""

from fastapi_env.tasks import Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROWS_422_TYPE_LOC
from fastapi_env.tasks.repair._plumbing import editor

INIT = '''\
"""A small shop: a catalogue, carts, discount codes and orders."""
'''

ERRORS = '''\
class ShopError(Exception):
    """A failure the API reports as {"error": code} with its status."""

    status = 400
    code = "shop_error"


class CartNotFound(ShopError):
    status, code = 404, "cart_not_found"


class OrderNotFound(ShopError):
    status, code = 404, "order_not_found"


class UnknownProduct(ShopError):
    status, code = 404, "unknown_product"


class CartClosed(ShopError):
    status, code = 409, "cart_closed"


class CartEmpty(ShopError):
    status, code = 409, "cart_empty"


class OutOfStock(ShopError):
    status, code = ${stock_status}, "out_of_stock"


class UnknownCode(ShopError):
    status, code = ${code_status}, "unknown_code"
'''

CATALOG = '''\
from .errors import CartClosed, CartNotFound, UnknownProduct

# In catalogue order. "cost" is what the shop pays its supplier: internal, never shown.
PRODUCTS = {
    "${sku1}": {"sku": "${sku1}", "name": "${name1}", "price": ${price1}, "stock": ${stock1},
              "cost": ${cost1}},
    "${sku2}": {"sku": "${sku2}", "name": "${name2}", "price": ${price2}, "stock": ${stock2},
              "cost": ${cost2}},
    "${sku3}": {"sku": "${sku3}", "name": "${name3}", "price": ${price3}, "stock": ${stock3},
              "cost": ${cost3}},
}
CODES = {"${code1}": ${pct1}, "${code2}": ${pct2}}  # discount code -> percent off
CARTS: dict[int, dict] = {}
ORDERS: dict[int, dict] = {}


def find_product(sku: str) -> dict:
    if sku not in PRODUCTS:
        raise UnknownProduct()
    return PRODUCTS[sku]


def find_cart(cart_id: int) -> dict:
    if cart_id not in CARTS:
        raise CartNotFound()
    return CARTS[cart_id]


def open_cart(cart_id: int) -> dict:
    cart = find_cart(cart_id)
    if cart["closed"]:
        raise CartClosed()
    return cart
'''

PRICING = '''\
from .catalog import PRODUCTS


def line_view(sku: str, quantity: int) -> dict:
    return {"sku": sku, "quantity": quantity, "line_total": PRODUCTS[sku]["price"] * quantity}


def cart_view(cart: dict) -> dict:
    lines = [line_view(sku, quantity) for sku, quantity in cart["lines"].items()]
    return {"id": cart["id"], "lines": lines, "subtotal": sum(x["line_total"] for x in lines),
            "closed": cart["closed"]}


def discount(subtotal: int, percent: int) -> int:
    """The discount in whole cents, rounded down."""
    return subtotal * percent // 100


def price_order(order_id: int, cart: dict, percent: int) -> dict:
    view = cart_view(cart)
    off = discount(view["subtotal"], percent)
    cost = sum(PRODUCTS[sku]["cost"] * quantity for sku, quantity in cart["lines"].items())
    return {"id": order_id, "cart": cart["id"], "lines": view["lines"],
            "subtotal": view["subtotal"], "discount": off, "total": view["subtotal"] - off,
            "margin": view["subtotal"] - off - cost}
'''

MODELS = '''\
from typing import Annotated

from pydantic import BaseModel, StringConstraints

# Codes are matched case-insensitively, ignoring surrounding spaces.
Code = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True)]


class Product(BaseModel):
    sku: str
    name: str
    price: int
    stock: int


class Line(BaseModel):
    sku: str
    quantity: int
    line_total: int


class CartOut(BaseModel):
    id: int
    lines: list[Line]
    subtotal: int
    closed: bool


class CheckoutIn(BaseModel):
    code: Code | None = None


class OrderOut(BaseModel):
    id: int
    cart: int
    lines: list[Line]
    subtotal: int
    discount: int
    total: int


class OrderRecord(OrderOut):
    """An order as the shop keeps it, with what it earned (for the accounts, not customers)."""

    margin: int
'''

CARTS = '''\
"""Catalogue and cart routes."""

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel, Field

from . import catalog, pricing
from .errors import OutOfStock
from .models import CartOut, Product

MAX_QUANTITY = ${max_qty}


def build_router() -> APIRouter:
    router = APIRouter()

    class QuantityIn(BaseModel):  # the body of PUT .../lines/{sku}, used nowhere else
        quantity: int = Field(ge=0, le=MAX_QUANTITY)

    @router.get("/products", response_model=list[Product])
    def list_products(sku: Annotated[list[str] | None, Query()] = None):
        return [p for p in catalog.PRODUCTS.values() if sku is None or p["sku"] in sku]

    @router.post("/carts", status_code=201, response_model=CartOut)
    def create_cart():
        cart = {"id": len(catalog.CARTS) + 1, "lines": {}, "closed": False}
        catalog.CARTS[cart["id"]] = cart
        return pricing.cart_view(cart)

    @router.get("/carts/{cart_id}", response_model=CartOut)
    def read_cart(cart: Annotated[dict, Depends(catalog.find_cart)]):
        return pricing.cart_view(cart)

    @router.put("/carts/{cart_id}/lines/{sku}", response_model=CartOut)
    def set_line(sku: str, body: QuantityIn, cart: Annotated[dict, Depends(catalog.open_cart)]):
        product = catalog.find_product(sku)
        if body.quantity > product["stock"]:
            raise OutOfStock()
        if body.quantity == 0:
            cart["lines"].pop(sku, None)
        else:
            cart["lines"][sku] = body.quantity
        return pricing.cart_view(cart)

    return router
'''

ORDERS = '''\
"""Checkout and order routes."""

from typing import Annotated

from fastapi import APIRouter, Depends, Response
from fastapi.responses import JSONResponse

from . import catalog, pricing
from .errors import CartEmpty, OrderNotFound, OutOfStock, UnknownCode
from .models import CheckoutIn, OrderOut

router = APIRouter()


@router.post("/carts/{cart_id}/checkout", status_code=201, response_model=OrderOut)
def checkout(body: CheckoutIn, response: Response,
             cart: Annotated[dict, Depends(catalog.open_cart)]):
    if not cart["lines"]:
        raise CartEmpty()
    percent = 0
    if body.code is not None:
        if body.code not in catalog.CODES:
            raise UnknownCode()
        percent = catalog.CODES[body.code]
    for sku, quantity in cart["lines"].items():
        if quantity > catalog.PRODUCTS[sku]["stock"]:
            raise OutOfStock()
    order = pricing.price_order(len(catalog.ORDERS) + 1, cart, percent)
    for sku, quantity in cart["lines"].items():
        catalog.PRODUCTS[sku]["stock"] -= quantity
    cart["closed"] = True
    catalog.ORDERS[order["id"]] = order
    response.headers["Location"] = f"/orders/{order['id']}"
    return order


@router.get("/orders/{order_id}", response_model=OrderOut)
def read_order(order_id: int):
    if order_id not in catalog.ORDERS:
        raise OrderNotFound()
    return catalog.ORDERS[order_id]
'''

SOLUTION = '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from shop import carts, orders
from shop.errors import ShopError

app = FastAPI()
app.include_router(carts.build_router())
app.include_router(orders.router)


@app.exception_handler(ShopError)
async def shop_error(request: Request, exc: ShopError):
    return JSONResponse({"error": exc.code}, status_code=exc.status)


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
client.post("/carts")
result = [
    row(client.put("/carts/1/lines/${sku1}", json={"quantity": 2})),
    row(client.post("/carts/1/checkout", json={"code": "${code1}"})),
    row(client.get("/orders/1")),
    row(client.get("/products?sku=${sku1}")),
]
'''

_in = editor("shop")

_BODY_AS_QUERY = _in("carts", "postponed annotations hide the local body model",
                     '"""Catalogue and cart routes."""\n',
                     '"""Catalogue and cart routes."""\n\nfrom __future__ import annotations\n')
_RECORD_SHOWN = _in("orders", "order route shows the internal record",
                    '@router.get("/orders/{order_id}", response_model=OrderOut)',
                    '@router.get("/orders/{order_id}", response_model=OrderRecord)')
_FLOAT_DISCOUNT = _in("pricing", "discount through a float percentage",
                      "return subtotal * percent // 100", "return int(subtotal * (percent / 100))")
_LOCATION_LOST = _in("orders", "checkout returns its own response, Location lost",
                     "    response.headers[\"Location\"] = f\"/orders/{order['id']}\"\n"
                     "    return order\n",
                     "    response.headers[\"Location\"] = f\"/orders/{order['id']}\"\n"
                     "    return JSONResponse(OrderOut(**order).model_dump(), status_code=201)\n")
_LAST_UNIT_REFUSED = _in("carts", "the last unit in stock refused",
                         'if body.quantity > product["stock"]:',
                         'if body.quantity >= product["stock"]:')
_CODE_REQUIRED = _in("models", "discount code without a default",
                     "code: Code | None = None", "code: Code | None")
_CODE_NOT_STRIPPED = _in("models", "code normaliser keeps spaces",
                         "StringConstraints(strip_whitespace=True, to_upper=True)",
                         "StringConstraints(to_upper=True)")
_FILTER_FROM_BODY = _in("carts", "sku filter declared without Query()",
                        "sku: Annotated[list[str] | None, Query()] = None",
                        "sku: list[str] | None = None")
_CLOSED_CART_EDITED = _in("carts", "lines of a closed cart still editable",
                          "cart: Annotated[dict, Depends(catalog.open_cart)]",
                          "cart: Annotated[dict, Depends(catalog.find_cart)]")

FILES = {"shop/__init__.py": INIT, "shop/errors.py": ERRORS, "shop/catalog.py": CATALOG,
         "shop/pricing.py": PRICING, "shop/models.py": MODELS, "shop/carts.py": CARTS,
         "shop/orders.py": ORDERS}
PLANTED = (_BODY_AS_QUERY, _RECORD_SHOWN, _FLOAT_DISCOUNT, _LOCATION_LOST, _LAST_UNIT_REFUSED,
           _CODE_REQUIRED, _CODE_NOT_STRIPPED, _FILTER_FROM_BODY, _CLOSED_CART_EDITED)
# The planted record model needs its import in the setup (the reference does not use it).
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, (*PLANTED, _in(
    "orders", "import the record model", "from .models import CheckoutIn, OrderOut",
    "from .models import CheckoutIn, OrderOut, OrderRecord")))

PROBES = ROWS_422_TYPE_LOC + '''\
MAX = ${max_qty}


def _cart(client, *lines):
    """A new cart holding `lines` ((sku, quantity) pairs); its id."""
    cart = client.post("/carts").json()["id"]
    for sku, quantity in lines:
        client.put(f"/carts/{cart}/lines/{sku}", json={"quantity": quantity})
    return cart


def _stock(client, sku):
    return {p["sku"]: p["stock"] for p in client.get("/products").json()}[sku]


def _lines(r):
    return [[x["sku"], x["quantity"], x["line_total"]] for x in r.json()["lines"]]


def probe_line_quantity_body(client):
    cart = client.post("/carts").json()["id"]
    rows = []
    for sku, body in [("${sku3}", {"quantity": 1}), ("${sku1}", {"quantity": 2}),
                      ("${sku3}", {"quantity": MAX}), ("${sku3}", {"quantity": MAX + 1}),
                      ("${sku3}", {"quantity": -1}), ("${sku1}", {}), ("${sku1}", {"qty": 1}),
                      ("${sku3}", {"quantity": 0}), ("${sku3}", {"quantity": 1})]:
        r = client.put(f"/carts/{cart}/lines/{sku}", json=body)
        rows.append([sku, body, [200, _lines(r), r.json()["subtotal"]]
                     if r.status_code == 200 else _brief(r)])
    r = client.put(f"/carts/{cart}/lines/${sku1}?quantity=1")
    rows.append([_brief(r)[0], _lines(client.get(f"/carts/{cart}"))])
    return rows


def probe_shown_fields_only(client):
    cart = _cart(client, ("${sku1}", 1), ("${sku3}", 3))
    made = client.post(f"/carts/{cart}/checkout", json={})
    shown = client.get(f"/orders/{made.json()['id']}").json()
    return [sorted(made.json()), sorted(shown), [shown == made.json()],
            [sorted(p) for p in client.get("/products").json()]]


def probe_discount_in_exact_cents(client):
    rows = []
    for code in ["${code1}", "${code2}"]:
        for quantity in range(1, min(MAX, 8) + 1):
            cart = _cart(client, ("${sku3}", quantity))
            body = client.post(f"/carts/{cart}/checkout", json={"code": code}).json()
            rows.append([code, quantity, body.get("subtotal"), body.get("discount"),
                         body.get("total")])
    return rows


def probe_checkout_location(client):
    rows = []
    for _ in range(2):
        cart = _cart(client, ("${sku1}", 1))
        r = client.post(f"/carts/{cart}/checkout", json={"code": None})
        location = r.headers.get("location")
        rows.append([r.status_code, location == f"/orders/{r.json()['id']}",
                     client.get(location).status_code if location else None])
    return rows


def probe_stock_limit(client):
    stock = _stock(client, "${sku2}")
    cart = client.post("/carts").json()["id"]
    rows = []
    for quantity in [stock + 1, stock, stock - 1, stock + 1]:
        r = client.put(f"/carts/{cart}/lines/${sku2}", json={"quantity": quantity})
        rows.append([quantity - stock, _lines(r) if r.status_code == 200 else _row(r)])
    return rows


def probe_code_is_optional(client):
    rows = []
    for body in [{}, {"code": None}]:
        cart = _cart(client, ("${sku1}", 2))
        r = client.post(f"/carts/{cart}/checkout", json=body)
        rows.append([body, r.status_code, r.json().get("discount"), r.json().get("total")
                     if r.status_code == 201 else _brief(r)])
    return rows


def probe_codes_normalised(client):
    rows = []
    for code in ["${code1}", "${code1_lower}", "  ${code2} ", "\\t${code2_mixed}\\n",
                 "${code1_spaced}", "", "   ", "${code1}X"]:
        cart = _cart(client, ("${sku3}", 1), ("${sku1}", 1))
        r = client.post(f"/carts/{cart}/checkout", json={"code": code})
        rows.append([code, r.status_code, r.json().get("discount") if r.status_code == 201
                     else r.json()])
        rows.append([client.get(f"/carts/{cart}").json()["closed"]])
    return rows


def probe_products_filter(client):
    rows = []
    for query in ["", "?sku=${sku3}&sku=${sku1}", "?sku=${sku2}", "?sku=NOPE",
                  "?sku=${sku2}&sku=NOPE&sku=${sku2}", "?sku=", "?sku=${sku1_lower}"]:
        r = client.get("/products" + query)
        rows.append([query, r.status_code, [p["sku"] for p in r.json()]])
    return rows


def probe_closed_cart_is_final(client):
    cart = _cart(client, ("${sku1}", 1))
    first = client.post(f"/carts/{cart}/checkout", json={})
    rows = [[first.status_code]]
    for sku, quantity in [("${sku1}", 2), ("${sku3}", 1), ("${sku1}", 0), ("NOPE", 1)]:
        rows.append(_row(client.put(f"/carts/{cart}/lines/{sku}", json={"quantity": quantity})))
    rows.append(_row(client.post(f"/carts/{cart}/checkout", json={})))
    shown = client.get(f"/carts/{cart}").json()
    rows.append([shown["closed"], _lines(client.get(f"/carts/{cart}")), shown["subtotal"]])
    rows.append([client.get(f"/orders/{first.json()['id']}").json()["lines"]])
    return rows


def probe_checkout_rechecks_stock(client):
    stock = _stock(client, "${sku2}")
    first = _cart(client, ("${sku2}", stock - 1))
    second = _cart(client, ("${sku2}", stock), ("${sku3}", 1))
    three = _stock(client, "${sku3}")
    rows = [[client.post(f"/carts/{first}/checkout", json={}).status_code,
             stock - _stock(client, "${sku2}")]]
    rows.append(_row(client.post(f"/carts/{second}/checkout", json={})))
    rows.append([stock - _stock(client, "${sku2}"), three - _stock(client, "${sku3}"),
                 client.get(f"/carts/{second}").json()["closed"]])
    rows.append(_row(client.put(f"/carts/{second}/lines/${sku2}", json={"quantity": 2})))
    rows.append(_lines(client.put(f"/carts/{second}/lines/${sku2}", json={"quantity": 1})))
    return rows


def probe_checkout_failure_order(client):
    empty = client.post("/carts").json()["id"]
    closed = _cart(client, ("${sku1}", 1))
    client.post(f"/carts/{closed}/checkout", json={})
    stock = _stock(client, "${sku2}")
    greedy = _cart(client, ("${sku2}", stock))
    rival = _cart(client, ("${sku2}", stock))
    client.post(f"/carts/{rival}/checkout", json={})
    return [_row(client.post("/carts/9999/checkout", json={"code": "BOGUS"})),
            _row(client.post(f"/carts/{closed}/checkout", json={"code": "BOGUS"})),
            _row(client.post(f"/carts/{empty}/checkout", json={"code": "BOGUS"})),
            _row(client.post(f"/carts/{empty}/checkout", json={"code": "${code1}"})),
            _row(client.post(f"/carts/{greedy}/checkout", json={"code": "BOGUS"})),
            _row(client.post(f"/carts/{greedy}/checkout", json={"code": "${code1}"}))]


def probe_unknown_ids(client):
    cart = client.post("/carts").json()["id"]
    return [_row(client.get("/carts/9999")), _row(client.get("/orders/9999")),
            _row(client.put("/carts/9999/lines/${sku1}", json={"quantity": 1})),
            _row(client.put(f"/carts/{cart}/lines/NOPE", json={"quantity": 1})),
            _row(client.put(f"/carts/{cart}/lines/${sku1_lower}", json={"quantity": 1})),
            _row(client.post("/carts/9999/checkout", json={})),
            _brief(client.get("/orders/first")), _brief(client.get("/carts/first"))]
'''

_SETS = {
    "products": [
        {"sku1": "MUG", "sku1_lower": "mug", "name1": "Ceramic mug", "price1": 1250,
         "stock1": 60, "cost1": 500, "sku2": "LAMP", "name2": "Desk lamp", "price2": 4599,
         "stock2": 3, "cost2": 2100, "sku3": "PEN", "name3": "Gel pen", "price3": 100,
         "stock3": 2000, "cost3": 30},
        {"sku1": "TEE", "sku1_lower": "tee", "name1": "Cotton tee", "price1": 1999,
         "stock1": 50, "cost1": 800, "sku2": "BOOT", "name2": "Hiking boot", "price2": 8950,
         "stock2": 2, "cost2": 4000, "sku3": "PATCH", "name3": "Iron-on patch", "price3": 200,
         "stock3": 2000, "cost3": 45},
    ],
    "codes": [
        {"code1": "SPRING29", "code1_lower": "spring29", "code1_spaced": "SPRING 29",
         "pct1": 29, "code2": "SAVE35", "code2_mixed": "Save35", "pct2": 35},
        {"code1": "VIP57", "code1_lower": "vip57", "code1_spaced": "VIP 57", "pct1": 57,
         "code2": "FRIEND58", "code2_mixed": "Friend58", "pct2": 58},
        {"code1": "WELCOME41", "code1_lower": "welcome41", "code1_spaced": "WELCOME 41",
         "pct1": 41, "code2": "SUMMER29", "code2_mixed": "Summer29", "pct2": 29},
    ],
    "max_qty": [10, 8, 12],
    "statuses": [{"stock_status": 409, "code_status": 404},
                 {"stock_status": 400, "code_status": 422},
                 {"stock_status": 409, "code_status": 400}],
}

FAMILY = Family(
    id="repair/order_checkout",
    title="Repair a shop checkout that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a shop's checkout API: `solution.py` and the package `shop/` it imports
(`errors.py`, `catalog.py`, `pricing.py`, `models.py`, `carts.py`, `orders.py`). It should
behave as described below but does not, in several ways. Find and fix every deviation (edit or
rewrite any file); `solution.py` must keep defining `app` and `result`. State lives in memory
and carries from one request to the next.

**Catalogue** at start, in this order (prices are integer cents):

| sku | name | price | stock |
|---|---|---|---|
| ${sku1} | ${name1} | ${price1} | ${stock1} |
| ${sku2} | ${name2} | ${price2} | ${stock2} |
| ${sku3} | ${name3} | ${price3} | ${stock3} |

The shop also knows each product's supplier cost and each order's margin; neither is ever part
of a response. Discount codes: `${code1}` (${pct1}% off) and `${code2}` (${pct2}% off).

**Errors.** Every failure of the shop has the body `{"error": <code>}`: 404 `cart_not_found`,
404 `order_not_found`, 404 `unknown_product`, 409 `cart_closed`, 409 `cart_empty`,
${stock_status} `out_of_stock`, ${code_status} `unknown_code`. Request validation errors keep
FastAPI's standard 422 body.

**Routes.**
- `GET /products`: 200, the products as `{"sku", "name", "price", "stock"}` in catalogue order,
  with the current stock. The query parameter `sku` may be repeated; when present, only the
  products whose sku (exact, case-sensitive) is one of the values are listed, still in
  catalogue order.
- `POST /carts`: 201, a new open cart `{"id", "lines": [], "subtotal": 0, "closed": false}`,
  ids 1, 2, 3, ... A cart is shown as `{"id", "lines", "subtotal", "closed"}`, each line as
  `{"sku", "quantity", "line_total"}` (price times quantity) in the order the skus were first
  added, `subtotal` the sum of the line totals.
- `GET /carts/{id}`: 200 with the cart (open or closed), or 404.
- `PUT /carts/{id}/lines/{sku}` with the JSON body `{"quantity": n}`, n an integer from 0 to
  ${max_qty}: sets that product's quantity in the cart (0 removes the line; a line keeps its
  place when its quantity changes); 200 with the cart. Checked in this order: the cart exists
  (404), it is open (`cart_closed`), the product exists (404 `unknown_product`), n is at most
  the product's current stock (n equal to the stock is fine; else `out_of_stock`).
- `POST /carts/{id}/checkout` with a JSON object body `{"code"?: string or null}`: the code is
  optional (absent or null: no discount); it is matched ignoring case and surrounding
  whitespace. Checked in this order: the cart exists (404), it is open (`cart_closed`), it has
  a line (`cart_empty`), the code, if any, is known (`unknown_code`), every line's quantity is
  at most the product's current stock (`out_of_stock`). A failed checkout changes nothing. On
  success: 201 with the order `{"id", "cart", "lines", "subtotal", "discount", "total"}` (order
  ids 1, 2, 3, ...; `lines` as in the cart), the header `Location: /orders/<id>`, each
  product's stock reduced by its quantity, and the cart closed for good. `discount` is the
  code's percentage of the subtotal in whole cents, rounded down (exact arithmetic, integers);
  `total` is `subtotal - discount`.
- `GET /orders/{id}`: 200 with the order (the same body checkout answered), or 404.

`result` has four rows, each `[status, body]`, after one `POST /carts`, in this order:
1. `PUT /carts/1/lines/${sku1}` with `{"quantity": 2}`
2. `POST /carts/1/checkout` with `{"code": "${code1}"}`
3. `GET /orders/1`
4. `GET /products?sku=${sku1}`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["products"][0], **_SETS["codes"][0], "max_qty": 10,
              **_SETS["statuses"][0]},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement('A cart line is set with the JSON body `{"quantity": n}`, n from 0 to '
                    '${max_qty}, 0 removing it; lines keep their first-added order.',
                    probes=("line_quantity_body",), traps=(_BODY_AS_QUERY,)),
        Requirement("Orders and products show exactly their stated fields: no supplier cost, "
                    "no margin.",
                    probes=("shown_fields_only",),
                    traps=(_RECORD_SHOWN, _in("carts", "products listed with their cost",
                                              '@router.get("/products", '
                                              'response_model=list[Product])',
                                              '@router.get("/products")'))),
        Requirement("The discount is the code's percentage of the subtotal in whole cents, "
                    "rounded down, computed exactly.",
                    probes=("discount_in_exact_cents",), traps=(_FLOAT_DISCOUNT,)),
        Requirement("A successful checkout is 201 with `Location: /orders/<id>`.",
                    probes=("checkout_location",), traps=(_LOCATION_LOST,)),
        Requirement("A line may hold exactly the product's current stock, not more "
                    "(${stock_status} `out_of_stock`).",
                    probes=("stock_limit",), traps=(_LAST_UNIT_REFUSED,)),
        Requirement("The checkout code is optional: `{}` and a null code mean no discount.",
                    probes=("code_is_optional",), traps=(_CODE_REQUIRED,)),
        Requirement("Codes match ignoring case and surrounding whitespace; any other code is "
                    "${code_status} `unknown_code` and leaves the cart open.",
                    probes=("codes_normalised",), traps=(_CODE_NOT_STRIPPED,)),
        Requirement("`GET /products?sku=...` (repeatable) lists only the named products, in "
                    "catalogue order.",
                    probes=("products_filter",), traps=(_FILTER_FROM_BODY,)),
        Requirement("A checked-out cart is closed for good: its lines and a second checkout "
                    "are 409 `cart_closed`, and it still reads back.",
                    probes=("closed_cart_is_final",), traps=(_CLOSED_CART_EDITED,)),
        Requirement("Checkout failures are reported in the stated order: unknown cart, closed, "
                    "empty, unknown code, out of stock.",
                    probes=("checkout_failure_order",),
                    traps=(_in("orders", "code checked before the empty cart", '''\
    if not cart["lines"]:
        raise CartEmpty()
    percent = 0
    if body.code is not None:
        if body.code not in catalog.CODES:
            raise UnknownCode()
        percent = catalog.CODES[body.code]
''', '''\
    percent = 0
    if body.code is not None:
        if body.code not in catalog.CODES:
            raise UnknownCode()
        percent = catalog.CODES[body.code]
    if not cart["lines"]:
        raise CartEmpty()
'''),)),
        Requirement("Checkout re-checks stock, reduces it, and a failed checkout changes "
                    "nothing.",
                    probes=("checkout_rechecks_stock",),
                    traps=(_in("orders", "stock not re-checked at checkout", '''\
    for sku, quantity in cart["lines"].items():
        if quantity > catalog.PRODUCTS[sku]["stock"]:
            raise OutOfStock()
''', ""),)),
        Requirement("Unknown carts, orders and products are 404 with their error codes.",
                    probes=("unknown_ids",),
                    traps=(_in("catalog", "unknown product looked up directly", '''\
    if sku not in PRODUCTS:
        raise UnknownProduct()
    return PRODUCTS[sku]''', "    return PRODUCTS[sku]"),)),
    ),
)
