"""Security tier: a cart with coupon codes limited per customer and overall, a failed-code
lockout counted per account, codes matched in one normalised form, and totals capped; hidden
probes try brute-forcing codes, redeeming past the limits (also between applying and paying),
zero, negative and huge quantities, carts past the cap, mass assignment on coupons and reading
another customer's orders."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import rows_without_ids
from fastapi_env.tasks.traps import unknown_fields_ignored

REFERENCE = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
''' + late_body.IMPORT + '''from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field

TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}", "${t3}": "${u3}", "${t4}": "${admin}"}
ADMINS = {${admin__repr}}
CATALOG = {${sku1__repr}: ${price1}, ${sku2__repr}: ${price2}, ${sku3__repr}: ${price3}}
MAX_FAILURES = ${max_fail}
TOTAL_MAX = ${total_max}

coupons = {
    ${code1__repr}: {"code": ${code1__repr}, "percent": ${pct1}, "per_user_limit": 1,
                     "global_limit": 100},
    ${code2__repr}: {"code": ${code2__repr}, "percent": ${pct2}, "per_user_limit": 2,
                     "global_limit": ${glob2}},
}
redemptions: dict[str, list[str]] = {}
carts: dict[str, dict] = {}
failures: dict[str, int] = {}
orders: dict[int, dict] = {}

app = FastAPI()


''' + late_body.ROUTE_CLASS + '''

@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


class CouponIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(pattern=r"^[A-Z0-9]{4,16}$$")
    percent: int = Field(ge=1, le=100)
    per_user_limit: int = Field(ge=1)
    global_limit: int = Field(ge=1)


class QuantityIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    quantity: int = Field(ge=1, le=${max_qty})


class CodeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(min_length=1, max_length=32)


def caller(x_session: Annotated[str | None, Header()] = None) -> str:
    if x_session not in TOKENS:
        raise HTTPException(401, "unauthorized")
    return TOKENS[x_session]


User = Annotated[str, Depends(caller)]


def admin(user: User) -> str:
    if user not in ADMINS:
        raise HTTPException(403, "forbidden")
    return user


def shopper(user: User) -> str:
    if user in ADMINS:
        raise HTTPException(403, "forbidden")
    return user


Admin = Annotated[str, Depends(admin)]
Shopper = Annotated[str, Depends(shopper)]


def unlocked(user: Shopper) -> str:
    if failures.get(user, 0) >= MAX_FAILURES:
        raise HTTPException(429, "locked")
    return user


def catalog_sku(sku: str, user: Shopper) -> str:
    if sku not in CATALOG:
        raise HTTPException(404, "not_found")
    return sku


def cart_of(user: str) -> dict:
    return carts.setdefault(user, {"items": {}, "coupon": None})


def normalised(code: str) -> str:
    return code.strip().upper().replace("-", "")


def subtotal(items: dict) -> int:
    return sum(CATALOG[sku] * quantity for sku, quantity in items.items())


def check_limits(code: str, user: str) -> None:
    coupon, used = coupons[code], redemptions.get(code, [])
    if len(used) >= coupon["global_limit"] or used.count(user) >= coupon["per_user_limit"]:
        raise HTTPException(409, "coupon_exhausted")


def cart_view(user: str) -> dict:
    cart = cart_of(user)
    items = [{"sku": sku, "quantity": q, "price_cents": CATALOG[sku],
              "line_cents": CATALOG[sku] * q} for sku, q in sorted(cart["items"].items())]
    total = subtotal(cart["items"])
    percent = coupons[cart["coupon"]]["percent"] if cart["coupon"] else 0
    discount = total * percent // 100
    return {"items": items, "coupon": cart["coupon"], "subtotal_cents": total,
            "discount_cents": discount, "total_cents": total - discount}


@app.post("/coupons", status_code=201)
def create_coupon(body: CouponIn, user: Admin):
    if body.code in coupons:
        raise HTTPException(409, "conflict")
    coupons[body.code] = body.model_dump()
    return coupon_view(body.code)


def coupon_view(code: str) -> dict:
    return {**coupons[code], "redeemed": len(redemptions.get(code, []))}


@app.get("/coupons/{code}")
def read_coupon(code: str, user: Admin):
    if code not in coupons:
        raise HTTPException(404, "not_found")
    return coupon_view(code)


@app.get("/cart")
def read_cart(user: Shopper):
    return cart_view(user)


@app.delete("/cart", status_code=204)
def empty_cart(user: Shopper):
    carts.pop(user, None)
    return Response(status_code=204)


@app.put("/cart/items/{sku}")
def set_quantity(body: QuantityIn, sku: Annotated[str, Depends(catalog_sku)], user: Shopper):
    items = cart_of(user)["items"]
    if subtotal({**items, sku: body.quantity}) > TOTAL_MAX:
        raise HTTPException(409, "cart_limit")
    items[sku] = body.quantity
    return cart_view(user)


@app.delete("/cart/items/{sku}", status_code=204)
def remove_item(sku: Annotated[str, Depends(catalog_sku)], user: Shopper):
    items = cart_of(user)["items"]
    if sku not in items:
        raise HTTPException(404, "not_found")
    del items[sku]
    return Response(status_code=204)


@app.post("/cart/coupon")
def apply_coupon(body: CodeIn, user: Annotated[str, Depends(unlocked)]):
    code = normalised(body.code)
    if code not in coupons:
        failures[user] = failures.get(user, 0) + 1
        raise HTTPException(404, "not_found")
    failures[user] = 0
    check_limits(code, user)
    cart_of(user)["coupon"] = code
    return cart_view(user)


@app.post("/checkout", status_code=201)
def checkout(user: Shopper):
    cart = cart_of(user)
    if not cart["items"]:
        raise HTTPException(409, "empty_cart")
    if cart["coupon"]:
        check_limits(cart["coupon"], user)
        redemptions.setdefault(cart["coupon"], []).append(user)
    order = {"id": len(orders) + 1, "customer": user, **cart_view(user)}
    orders[order["id"]] = order
    carts.pop(user)
    return order


@app.get("/orders")
def list_orders(user: User):
    return [o for o in orders.values() if user in ADMINS or o["customer"] == user]


@app.get("/orders/{order_id}")
def read_order(order_id: int, user: User):
    order = orders.get(order_id)
    if order is None or (user not in ADMINS and order["customer"] != user):
        raise HTTPException(404, "not_found")
    return order


@app.delete("/accounts/{username}/lockout", status_code=204)
def unlock(username: str, user: Admin):
    if username not in TOKENS.values() or username in ADMINS:
        raise HTTPException(404, "not_found")
    failures.pop(username, None)
    return Response(status_code=204)


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
me = {"X-Session": "${t1}"}
result = [
    row(client.put("/cart/items/${sku1}", json={"quantity": 2}, headers=me)),
    row(client.post("/cart/coupon", json={"code": ${entered1__repr}}, headers=me)),
    row(client.post("/checkout", headers=me)),
    row(client.delete("/cart/items/${sku3}", headers=me)),
    row(client.put("/cart/items/${sku2}", json={"quantity": 1}, headers=me)),
    row(client.post("/cart/coupon", json={"code": ${code1__repr}}, headers=me)),
    row(client.get("/orders/1", headers={"X-Session": "${t2}"})),
]
'''

PROBES = rows_without_ids(("id",)) + '''\
H1, H2, H3 = {"X-Session": "${t1}"}, {"X-Session": "${t2}"}, {"X-Session": "${t3}"}
ADMIN = {"X-Session": "${t4}"}
made = []


def _coupon(client, percent, per_user=1, overall=100):
    """A new coupon of the probe's own, so that no other check has redeemed it."""
    made.append(1)
    code = "PROBE" + "ABCDEFGHIJ"[len(made) % 10] + str(len(made))
    client.post("/coupons", json={"code": code, "percent": percent, "per_user_limit": per_user,
                                  "global_limit": overall}, headers=ADMIN)
    return code


def _fill(client, headers, quantities):
    client.delete("/cart", headers=headers)
    for sku, quantity in quantities.items():
        client.put(f"/cart/items/{sku}", json={"quantity": quantity}, headers=headers)


def _apply(client, headers, code):
    return client.post("/cart/coupon", json={"code": code}, headers=headers)


def probe_session_required(client):
    rows = []
    for headers in [{}, {"X-Session": ""}, {"X-Session": "${u1}"}, {"X-Session": "${t1} "},
                    {"X-Session": "${t1}".upper()}, {"X-Session": "${t1}"[:-1]},
                    {"Authorization": "Bearer ${t1}"}]:
        for method, path in [("GET", "/cart"), ("POST", "/cart/coupon"), ("POST", "/checkout"),
                             ("GET", "/orders/1"), ("POST", "/coupons")]:
            r = client.request(method, path, headers=headers, json={"code": "x"})
            rows.append([headers, method, path, r.status_code, r.json()])
    return rows


def probe_roles(client):
    code = _coupon(client, 5)
    rows = [_row(client.post("/coupons", json={"code": "SNEAKY01", "percent": 90,
                                               "per_user_limit": 9, "global_limit": 9},
                             headers=H1)),
            _row(client.get(f"/coupons/{code}", headers=H2)),
            _row(client.delete("/accounts/${u2}/lockout", headers=H2)),
            _row(client.get("/coupons/SNEAKY01", headers=ADMIN)),
            _row(client.get("/cart", headers=ADMIN)),
            _row(client.put("/cart/items/${sku1}", json={"quantity": 1}, headers=ADMIN)),
            _row(client.post("/cart/coupon", json={"code": code}, headers=ADMIN)),
            _row(client.post("/checkout", headers=ADMIN))]
    return rows


def probe_coupon_fields(client):
    rows = []
    for body in [{"code": "FIELDS01", "percent": 10, "per_user_limit": 1, "global_limit": 5,
                  "redeemed": -5},
                 {"code": "FIELDS02", "percent": 0, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FIELDS03", "percent": 101, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FIELDS04", "percent": -20, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FIELDS05", "percent": 10, "per_user_limit": 0, "global_limit": 5},
                 {"code": "FIELDS06", "percent": 10, "per_user_limit": 1, "global_limit": -1},
                 {"code": "fields07", "percent": 10, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FLD", "percent": 10, "per_user_limit": 1, "global_limit": 5},
                 {"code": "F" * 17, "percent": 10, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FIELDS-09", "percent": 10, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FIELDS10", "percent": 100, "per_user_limit": 1, "global_limit": 5},
                 {"code": "FIELDS10", "percent": 50, "per_user_limit": 1, "global_limit": 5},
                 {"code": ${code1__repr}, "percent": 99, "per_user_limit": 9,
                  "global_limit": 999}]:
        rows.append([body, _row(client.post("/coupons", json=body, headers=ADMIN))])
    rows.append(_row(client.get("/coupons/FIELDS10", headers=ADMIN)))
    rows.append(_row(client.get("/coupons/fields10", headers=ADMIN)))
    rows.append(_row(client.get("/coupons/FIELDS01", headers=ADMIN)))
    return rows


def probe_quantity_bounds(client):
    client.delete("/cart", headers=H2)
    rows = []
    for quantity in [0, -1, -1000, 1, ${max_qty}, ${max_qty} + 1, 10 ** 30, 2.5, None]:
        r = client.put("/cart/items/${sku2}", json={"quantity": quantity}, headers=H2)
        rows.append([quantity, r.status_code, r.json().get("subtotal_cents", r.json())])
    rows.append(_row(client.put("/cart/items/${sku3}", json={}, headers=H2)))
    rows.append(_row(client.put("/cart/items/${sku3}", json={"quantity": 1, "price_cents": 1},
                                headers=H2)))
    rows.append(_row(client.put("/cart/items/nothing-here", json={"quantity": 1},
                                headers=H2)))
    rows.append(_row(client.get("/cart", headers=H2)))
    return rows


def probe_cart_total_capped(client):
    client.delete("/cart", headers=H3)
    # As many of the dearest item as fit, then a filler whose line alone stays under the cap
    # but whose sum with the rest does not.
    most = min(${max_qty}, ${total_max} // ${price3})
    filler = (${total_max} - most * ${price3}) // ${price1} + 1
    rows = [_row(client.put("/cart/items/${sku3}", json={"quantity": most}, headers=H3)),
            _row(client.put("/cart/items/${sku1}", json={"quantity": filler}, headers=H3)),
            _row(client.put("/cart/items/${sku1}", json={"quantity": filler - 1}, headers=H3)),
            _row(client.put("/cart/items/${sku3}", json={"quantity": most + 1}, headers=H3)),
            [client.get("/cart", headers=H3).json()["subtotal_cents"]]]
    rows.append(_row(client.delete("/cart/items/${sku1}", headers=H3)))
    rows.append([client.get("/cart", headers=H3).json()["subtotal_cents"]])
    rows.append(_row(client.delete("/cart/items/${sku1}", headers=H3)))
    client.delete("/cart", headers=H3)
    return rows


def probe_codes_match_normalised(client):
    code = _coupon(client, 20)
    rows = []
    for entered in [code.lower(), f"  {code}  ", code[:4] + "-" + code[4:], "-" + code + "-",
                    code.capitalize(), code + "X", code[:-1], code.replace("O", "0"),
                    code[:4] + " " + code[4:]]:
        _fill(client, H1, {"${sku2}": 1})
        r = _apply(client, H1, entered)
        rows.append([entered, r.status_code, r.json().get("coupon", r.json())])
        client.delete("/accounts/${u1}/lockout", headers=ADMIN)
    for entered in ["", "A" * 33]:
        rows.append([entered, _row(_apply(client, H1, entered))])
    client.delete("/cart", headers=H1)
    return rows


def probe_lockout_per_account(client):
    code = _coupon(client, 15)
    _fill(client, H3, {"${sku2}": 1})
    _fill(client, H2, {"${sku2}": 1})
    rows = [[n, _row(_apply(client, H3, f"GUESS{n:04d}"))] for n in range(${max_fail} + 1)]
    rows.append(_row(_apply(client, H3, code)))
    rows.append(_row(_apply(client, H3, "")))
    rows.append(_row(_apply(client, H2, code)))
    rows.append(_row(client.get("/cart", headers=H3)))
    rows.append(_row(client.delete("/accounts/${u3}/lockout", headers=ADMIN)))
    rows.append(_row(_apply(client, H3, code)))
    client.delete("/cart", headers=H2)
    client.delete("/cart", headers=H3)
    return rows


def probe_success_resets_failures(client):
    code = _coupon(client, 15)
    _fill(client, H2, {"${sku2}": 1})
    rows = []
    for _ in range(2):
        rows.append([_apply(client, H2, "WRONG000").status_code
                     for _ in range(${max_fail} - 1)])
        rows.append(_row(_apply(client, H2, code)))
    rows.append(_row(_apply(client, H2, "WRONG000")))
    rows.append(_row(_apply(client, H2, code)))
    rows.append(_row(client.delete("/accounts/${u2}/lockout", headers=ADMIN)))
    rows.append(_row(client.delete("/accounts/nobody/lockout", headers=ADMIN)))
    rows.append(_row(client.delete("/accounts/${admin}/lockout", headers=ADMIN)))
    client.delete("/cart", headers=H2)
    return rows


def probe_per_customer_limit(client):
    code = _coupon(client, 10, per_user=2)
    rows = []
    for _ in range(3):
        _fill(client, H1, {"${sku2}": 1})
        applied = _apply(client, H1, code)
        rows.append([applied.status_code, _row(client.post("/checkout", headers=H1))])
    _fill(client, H2, {"${sku2}": 1})
    rows.append(_row(_apply(client, H2, code)))
    rows.append([client.get(f"/coupons/{code}", headers=ADMIN).json()["redeemed"]])
    client.delete("/cart", headers=H2)
    return rows


def probe_global_limit_at_checkout(client):
    code = _coupon(client, 30, per_user=5, overall=2)
    for headers in (H1, H2, H3):
        _fill(client, headers, {"${sku1}": 1})
    rows = [_apply(client, h, code).status_code for h in (H1, H2, H3)]
    rows = [rows, _row(client.post("/checkout", headers=H1)),
            _row(client.post("/checkout", headers=H2)),
            _row(client.post("/checkout", headers=H3)),
            _row(client.get("/cart", headers=H3)),
            _row(_apply(client, H1, code)),
            _row(client.get(f"/coupons/{code}", headers=ADMIN))]
    client.delete("/cart", headers=H3)
    return rows


def probe_discount_and_orders(client):
    rows = []
    for percent in [${pct1}, 33, 99, 100]:
        code = _coupon(client, percent)
        _fill(client, H2, {"${sku3}": 1, "${sku2}": 2})
        rows.append(_row(_apply(client, H2, code)))
        rows.append(_row(client.post("/checkout", headers=H2)))
    rows.append(_row(client.get("/cart", headers=H2)))
    rows.append(_row(client.post("/checkout", headers=H2)))
    _fill(client, H2, {"${sku3}": 2})
    rows.append(_row(client.post("/checkout", headers=H2)))
    return rows


def probe_orders_private(client):
    _fill(client, H1, {"${sku1}": 1})
    mine = client.post("/checkout", headers=H1).json()["id"]
    rows = [_row(client.get(f"/orders/{mine}", headers=H3)),
            _row(client.get(f"/orders/{mine}", headers=ADMIN)),
            _row(client.get("/orders/987654", headers=H1)),
            _row(client.get("/orders/abc", headers=H1)),
            [mine in [o["id"] for o in client.get("/orders", headers=H3).json()],
             mine in [o["id"] for o in client.get("/orders", headers=H1).json()],
             mine in [o["id"] for o in client.get("/orders", headers=ADMIN).json()]],
            [all(o["customer"] == "${u3}" for o in client.get("/orders", headers=H3).json())]]
    return rows


def probe_checks_in_order(client):
    client.delete("/cart", headers=H3)
    for n in range(${max_fail}):
        _apply(client, H3, f"NOPE{n:04d}")
    rows = [_row(client.post("/cart/coupon", json={"code": ""})),
            _row(client.post("/coupons", json={"code": "x"}, headers=H1)),
            _row(client.put("/cart/items/nothing-here", json={"quantity": 0}, headers=ADMIN)),
            _row(client.post("/cart/coupon", json={"code": ""}, headers=H3)),
            _row(client.put("/cart/items/nothing-here", json={"quantity": 0}, headers=H1)),
            _row(client.delete("/accounts/nobody/lockout", headers=H1)),
            _row(client.put("/cart/items/${sku1}", json={"quantity": ${total_max}},
                            headers=H1)),
            _row(client.post("/checkout", headers=H3))]
    client.delete("/accounts/${u3}/lockout", headers=ADMIN)
    return rows
''' + late_body.probe_source(
    [("POST", "/coupons"), ("PUT", "/cart/items/${sku1}"), ("PUT", "/cart/items/nothing-here"),
     ("POST", "/cart/coupon")],
    [("no session", "{}"), ("customer", "H1"), ("locked customer", "H3"), ("admin", "ADMIN")],
    prepare="    for n in range(${max_fail}):\n"
            "        _apply(client, H3, f\"LATE{n:04d}\")\n")

PROMPT = '''\
Build the cart and coupon part of a shop. State is kept in memory. Four accounts exist, each
with a fixed session token sent in the header `X-Session` (exactly the token, nothing else):

| token | user | role |
|---|---|---|
| `${t1}` | `${u1}` | customer |
| `${t2}` | `${u2}` | customer |
| `${t3}` | `${u3}` | customer |
| `${t4}` | `${admin}` | admin |

The catalog (prices in cents): `${sku1}` ${price1}, `${sku2}` ${price2}, `${sku3}` ${price3}.
Two coupons exist: `${code1}` (${pct1} %, once per customer, 100 uses in all) and `${code2}`
(${pct2} %, twice per customer, ${glob2} uses in all).

**Errors** have the body `{"error": <code>}`: 401 `"unauthorized"` (no valid `X-Session`, on
every route), 403 `"forbidden"`, 404 `"not_found"`, 409 with the code given below, 429
`"locked"`, and 422 `"invalid"` for any body, path or query parameter that is not valid as
described. A body with a field not listed for its route is 422, and so is a body that is not
JSON. When several apply, the first in this order wins: 401; 403; 429; 404 for a path naming an
unknown product, order, coupon or account; 422 (a body that is not JSON included); then 404 for
an unknown coupon code in a body, and 409.

**Roles.** Only the admin creates and reads coupons and lifts lockouts; only customers have a
cart, apply coupons and check out (403 otherwise). A customer sees only their own orders (404
for another's); the admin sees every order.

**Coupons** are `{"code", "percent", "per_user_limit", "global_limit", "redeemed"}`: code 4-16
characters of `A-Z0-9`, percent 1 to 100, both limits 1 or more; `redeemed` (set by the server
alone) counts the orders paid with the coupon. A code entered by a customer is 1-32 characters
(else 422) and matches a coupon after removing surrounding whitespace and every `-` and
ignoring letter case (`${code1_hyphen}` is `${code1}`); nothing else is ignored.

**Lockout.** Each customer account counts its failed code entries (codes matching no coupon;
422s and 409s do not count); a matching code resets the account's count to 0. Once the count
reaches ${max_fail}, every `POST /cart/coupon` from that account is 429, whatever the code,
until the admin lifts the lockout (which resets the count). Other accounts are not affected.

**Carts** are `{"items", "coupon", "subtotal_cents", "discount_cents", "total_cents"}`; `items`
is a list ordered by sku, each `{"sku", "quantity", "price_cents", "line_cents"}`; `coupon` is the matched code as
stored, or `null`. The discount is `percent` % of the subtotal, rounded down to a whole cent;
the total is the subtotal minus the discount. A quantity is a whole number from 1 to ${max_qty};
a change that would make the subtotal exceed ${total_max} cents is 409 `"cart_limit"` and
leaves the cart unchanged. A coupon cannot be applied, and a cart holding one cannot be checked
out, when the customer has already paid `per_user_limit` orders with it or it has been
redeemed `global_limit` times: 409 `"coupon_exhausted"` (the cart stays as it is).

**Routes.**
- `POST /coupons` `{"code", "percent", "per_user_limit", "global_limit"}`: 201 with the coupon;
  409 `"conflict"` when the code exists.
- `GET /coupons/{code}` (the code exactly as stored): 200 with the coupon.
- `GET /cart`: 200 with the caller's cart (empty at first).
- `DELETE /cart`: 204 with an empty body; the cart is emptied and its coupon dropped.
- `PUT /cart/items/{sku}` `{"quantity"}`: sets that item's quantity; 200 with the cart.
- `DELETE /cart/items/{sku}`: 204 with an empty body; 404 when the item is not in the cart.
- `POST /cart/coupon` `{"code"}`: attaches the coupon (replacing any other); 200 with the cart.
- `POST /checkout`: 201 with the order, `{"id", "customer"}` plus the cart's fields; the cart
  becomes empty with no coupon. 409 `"empty_cart"` when the cart has no items.
- `GET /orders`: 200, the orders the caller sees, by id. `GET /orders/{order_id}`: 200 with it.
  Order ids count 1, 2, 3, ...
- `DELETE /accounts/{username}/lockout`: 204 with an empty body; 404 unless `username` is a
  customer.

`result`: one row per request, `[status code, JSON body]` (or `[status code]` when the body
is empty), as `${u1}` unless said otherwise:
1. `PUT /cart/items/${sku1}` `{"quantity": 2}`
2. `POST /cart/coupon` `{"code": ${entered1__json}}`
3. `POST /checkout`
4. `DELETE /cart/items/${sku3}`
5. `PUT /cart/items/${sku2}` `{"quantity": 1}`
6. `POST /cart/coupon` `{"code": "${code1}"}`
7. `GET /orders/1` as `${u2}`
'''


_LIMITS = ('    if len(used) >= coupon["global_limit"] or used.count(user) >= '
           'coupon["per_user_limit"]:')

FAMILY = Family(
    id="security/coupon_redemption",
    title="A cart whose coupons withstand brute force, limit races, bad quantities and "
          "oversized totals",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"u1": "ada", "u2": "ben", "u3": "cleo", "admin": "root", "tp": "cs_",
              "sku1": "lamp", "price1": 4999, "sku2": "mug", "price2": 1250, "sku3": "desk",
              "price3": 18999, "code1": "WELCOME10", "pct1": 10, "code2": "SPRING25",
              "pct2": 25, "glob2": 2, "max_fail": 3, "max_qty": 20, "total_max": 100000},
    space={
        "u1": [{"u1": "ada", "u2": "ben", "u3": "cleo", "admin": "root"},
               {"u1": "dora", "u2": "emil", "u3": "fay", "admin": "ops"}],
        "tp": ["cs_", "Sx."],
        "sku1": [{"sku1": "lamp", "price1": 4999, "sku2": "mug", "price2": 1250,
                  "sku3": "desk", "price3": 18999},
                 {"sku1": "kettle", "price1": 3333, "sku2": "spoon", "price2": 299,
                  "sku3": "oven", "price3": 45001}],
        "code1": [{"code1": "WELCOME10", "pct1": 10, "code2": "SPRING25", "pct2": 25,
                   "glob2": 2},
                  {"code1": "HELLO15", "pct1": 15, "code2": "FALL30", "pct2": 30, "glob2": 3}],
        "max_fail": [3, 5],
        "max_qty": [{"max_qty": 20, "total_max": 100000}, {"max_qty": 12, "total_max": 150000}],
    },
    derive=lambda p: {"t1": p["tp"] + p["u1"], "t2": p["tp"] + p["u2"],
                      "t3": p["tp"] + p["u3"], "t4": p["tp"] + p["admin"],
                      "code1_hyphen": p["code1"][:3].lower() + "-" + p["code1"][3:],
                      "entered1": " " + p["code1"][:3].lower() + "-" + p["code1"][3:].lower()
                      + " "},
    instances=10,
    requirements=(
        Requirement("Every route needs exactly a listed `X-Session`; else 401.",
                    probes=("session_required",),
                    traps=(Edit("session trimmed", "    if x_session not in TOKENS:\n"
                                '        raise HTTPException(401, "unauthorized")\n'
                                "    return TOKENS[x_session]",
                                "    x_session = (x_session or '').strip()\n"
                                "    if x_session not in TOKENS:\n"
                                '        raise HTTPException(401, "unauthorized")\n'
                                "    return TOKENS[x_session]"),),
                    security=True),
        Requirement("Only the admin manages coupons and lockouts, only customers shop (403).",
                    probes=("roles",),
                    traps=(Edit("customers create coupons",
                                "def create_coupon(body: CouponIn, user: Admin):",
                                "def create_coupon(body: CouponIn, user: User):"),
                           Edit("admins shop", "Shopper = Annotated[str, Depends(shopper)]",
                                "Shopper = User")),
                    security=True),
        Requirement("Coupons take codes of 4-16 `A-Z0-9`, percent 1-100, limits from 1; "
                    "`redeemed` and other fields are the server's (422); codes are unique "
                    "(409).",
                    probes=("coupon_fields",),
                    traps=(unknown_fields_ignored("CouponIn"),
                           Edit("percent above 100", "percent: int = Field(ge=1, le=100)",
                                "percent: int = Field(ge=1)"),
                           Edit("limits from 0", "per_user_limit: int = Field(ge=1)\n"
                                "    global_limit: int = Field(ge=1)",
                                "per_user_limit: int = Field(ge=0)\n"
                                "    global_limit: int = Field(ge=0)"),
                           Edit("existing coupon replaced",
                                "    if body.code in coupons:\n"
                                '        raise HTTPException(409, "conflict")\n', "")),
                    security=True),
        Requirement("Quantities are whole numbers 1 to ${max_qty}; prices are the catalog's; "
                    "unknown products 404.",
                    probes=("quantity_bounds",),
                    traps=(Edit("quantity unbounded", "quantity: int = Field(ge=1, "
                                "le=${max_qty})", "quantity: int = Field(ge=1)"),
                           Edit("negative quantities", "quantity: int = Field(ge=1, "
                                "le=${max_qty})", "quantity: int = Field(le=${max_qty})"),
                           unknown_fields_ignored("QuantityIn")),
                    security=True),
        Requirement("A change taking the subtotal past ${total_max} cents is 409 "
                    "`cart_limit` and changes nothing.",
                    probes=("cart_total_capped",),
                    traps=(Edit("cart not capped",
                                "    if subtotal({**items, sku: body.quantity}) > TOTAL_MAX:\n"
                                '        raise HTTPException(409, "cart_limit")\n', ""),
                           Edit("cap checks the line only",
                                "if subtotal({**items, sku: body.quantity}) > TOTAL_MAX:",
                                "if CATALOG[sku] * body.quantity > TOTAL_MAX:")),
                    security=True),
        Requirement("An entered code matches ignoring surrounding whitespace, every `-` and "
                    "letter case, and nothing else.",
                    probes=("codes_match_normalised",),
                    traps=(Edit("case matters", 'return code.strip().upper().replace("-", "")',
                                'return code.strip().replace("-", "")'),
                           Edit("all whitespace ignored",
                                'return code.strip().upper().replace("-", "")',
                                'return "".join(code.split()).upper().replace("-", "")'),
                           Edit("codes matched by prefix",
                                "    code = normalised(body.code)\n    if code not in coupons:",
                                "    code = normalised(body.code)\n    code = next((c for c "
                                "in coupons if c.startswith(code)), code)\n"
                                "    if code not in coupons:"))),
        Requirement("After ${max_fail} failed codes an account is locked (429 for any code) "
                    "until the admin lifts it; other accounts are unaffected.",
                    probes=("lockout_per_account",),
                    traps=(Edit("lockout shared by all accounts",
                                "    if failures.get(user, 0) >= MAX_FAILURES:",
                                "    if sum(failures.values()) >= MAX_FAILURES:"),
                           Edit("locked one failure early",
                                "    if failures.get(user, 0) >= MAX_FAILURES:",
                                "    if failures.get(user, 0) >= MAX_FAILURES - 1:"),
                           Edit("correct code passes the lockout",
                                "def apply_coupon(body: CodeIn, user: Annotated[str, "
                                "Depends(unlocked)]):\n    code = normalised(body.code)\n"
                                "    if code not in coupons:",
                                "def apply_coupon(body: CodeIn, user: Shopper):\n"
                                "    code = normalised(body.code)\n"
                                "    if code in coupons:\n        pass\n"
                                "    elif failures.get(user, 0) >= MAX_FAILURES:\n"
                                '        raise HTTPException(429, "locked")\n'
                                "    if code not in coupons:")),
                    security=True),
        Requirement("A matching code resets the count; lifting a lockout is 204 for a customer "
                    "and 404 otherwise.",
                    probes=("success_resets_failures",),
                    traps=(Edit("success keeps the count", "    failures[user] = 0\n", ""),
                           Edit("admin lockout liftable",
                                "if username not in TOKENS.values() or username in ADMINS:",
                                "if username not in TOKENS.values():"))),
        Requirement("A customer uses a coupon at most `per_user_limit` times (409 "
                    "`coupon_exhausted`), counted over paid orders.",
                    probes=("per_customer_limit",),
                    traps=(Edit("per-customer limit ignored", _LIMITS,
                                '    if len(used) >= coupon["global_limit"]:'),
                           Edit("per-customer limit off by one", _LIMITS, _LIMITS.replace(
                               'used.count(user) >= coupon["per_user_limit"]',
                               'used.count(user) > coupon["per_user_limit"]'))),
                    security=True),
        Requirement("A coupon redeemed `global_limit` times is 409 `coupon_exhausted`, also at "
                    "checkout for carts that applied it earlier (the cart kept).",
                    probes=("global_limit_at_checkout",),
                    traps=(Edit("limits not rechecked at checkout",
                                '        check_limits(cart["coupon"], user)\n', ""),
                           Edit("global limit ignored", _LIMITS,
                                '    if used.count(user) >= coupon["per_user_limit"]:')),
                    security=True),
        Requirement("The discount is `percent` % of the subtotal rounded down; checkout makes "
                    "the order and empties the cart; an empty cart is 409 `empty_cart`.",
                    probes=("discount_and_orders",),
                    traps=(Edit("discount rounded to nearest",
                                "discount = total * percent // 100",
                                "discount = round(total * percent / 100)"),
                           Edit("coupon kept after checkout", "    carts.pop(user)\n",
                                '    cart["items"] = {}\n'),
                           Edit("empty carts check out", '    if not cart["items"]:\n'
                                '        raise HTTPException(409, "empty_cart")\n', ""))),
        Requirement("A customer reads only their own orders; the admin reads all.",
                    probes=("orders_private",),
                    traps=(Edit("any order readable",
                                'if order is None or (user not in ADMINS and order["customer"] '
                                "!= user):", "if order is None:"),
                           Edit("every order listed",
                                'if user in ADMINS or o["customer"] == user]', "]")),
                    security=True),
        Requirement("With several failures: 401, 403, 429, 404 for the path, 422, then 404 "
                    "for the code and 409.",
                    probes=("checks_in_order",),
                    traps=(Edit("body before the lockout",
                                "def apply_coupon(body: CodeIn, user: Annotated[str, "
                                "Depends(unlocked)]):\n",
                                "def apply_coupon(body: CodeIn, user: Shopper):\n"
                                "    unlocked(user)\n"),
                           Edit("body before the product",
                                "def set_quantity(body: QuantityIn, sku: Annotated[str, "
                                "Depends(catalog_sku)], user: Shopper):\n",
                                "def set_quantity(body: QuantityIn, sku: str, user: Shopper):\n"
                                "    catalog_sku(sku, user)\n"))),
        Requirement("A body that is not JSON is a 422 too, after the 401, 403, 429 and the "
                    "path's 404.",
                    probes="credentials_before_json", security=True,
                    traps=late_body.body_decoded_first()),
    ),
)
