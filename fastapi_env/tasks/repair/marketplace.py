"""Repair tier: a marketplace service (sellers, listings, carts, orders, reviews), a package of
twelve modules in /workspace with sixteen planted bugs spread over them. Each bug is one
requirement's trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Requirement
from fastapi_env.tasks.probe_rows import ROWS_422_LOC_AND_HEAD
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor, repair_family

INIT = '''\
"""Marketplace: sellers list items, buyers fill carts, place orders and review what they bought."""
'''

ROUTERS_INIT = '''\
"""The marketplace's routers, one per area; `main` mounts them under their prefixes."""
'''

CONFIG = '''\
"""Who may call the marketplace, and its limits."""

USERS = {  # bearer token -> account
    "${tok_admin}": {"name": "${admin}", "role": "admin"},
    "${tok_seller}": {"name": "${seller}", "role": "seller"},
    "${tok_seller2}": {"name": "${seller2}", "role": "seller"},
    "${tok_buyer}": {"name": "${buyer}", "role": "buyer"},
    "${tok_buyer2}": {"name": "${buyer2}", "role": "buyer"},
}
BUYERS = [user["name"] for user in USERS.values() if user["role"] == "buyer"]

CATEGORIES = ${categories__repr}
DEFAULT_LIMIT = ${default_limit}
MAX_LIMIT = ${max_limit}
MAX_QUANTITY = ${max_qty}
MAX_RATING = ${max_rating}
MAX_PRICE_CENTS = 1_000_000
MAX_STOCK = 10_000
'''

STORE = '''\
"""In-memory state; ids are handed out by counters and never reused."""

from . import config

LISTINGS: dict[int, dict] = {}
ORDERS: dict[int, dict] = {}
REVIEWS: dict[int, dict] = {}
CARTS: dict[str, dict[int, int]] = {name: {} for name in config.BUYERS}  # listing id -> quantity

_last_ids = {"listing": 0, "order": 0, "review": 0}


def next_id(kind: str) -> int:
    _last_ids[kind] += 1
    return _last_ids[kind]


def add_listing(listing: dict) -> dict:
    listing["id"] = next_id("listing")
    LISTINGS[listing["id"]] = listing
    return listing


def remove_listing(listing_id: int) -> None:
    del LISTINGS[listing_id]
    for cart in CARTS.values():
        cart.pop(listing_id, None)
'''

ERRORS = '''\
"""One error format for the whole service: `{"error": <message>}`, headers kept."""

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException


async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


def install(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)
'''

SECURITY = '''\
"""Bearer tokens: reading the Authorization header and finding its account."""

from fastapi import HTTPException

from . import config


def unauthorized(message: str) -> HTTPException:
    return HTTPException(401, message, headers={"WWW-Authenticate": "Bearer"})


def bearer_token(authorization: str | None) -> str:
    scheme, _, token = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise unauthorized("not authenticated")
    return token.strip()


def account_for(token: str) -> dict:
    account = config.USERS.get(token)
    if account is None:
        raise unauthorized("invalid token")
    return account
'''

DEPS = '''\
"""Dependencies shared by the routers: the caller, their role, and paging."""

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Query

from . import config, security


def current_user(authorization: Annotated[str | None, Header()] = None) -> dict:
    return security.account_for(security.bearer_token(authorization))


def require(*roles: str, message: str):
    def check(user: Annotated[dict, Depends(current_user)]) -> dict:
        if user["role"] not in roles:
            raise HTTPException(403, message)
        return user

    return check


CurrentUser = Annotated[dict, Depends(current_user)]
Seller = Annotated[dict, Depends(require("seller", message="sellers only"))]
SellerOrAdmin = Annotated[dict, Depends(require("seller", "admin", message="sellers only"))]
Buyer = Annotated[dict, Depends(require("buyer", message="buyers only"))]
BuyerOrAdmin = Annotated[dict, Depends(require("buyer", "admin", message="buyers only"))]


def paging(limit: Annotated[int, Query(ge=1, le=config.MAX_LIMIT)] = config.DEFAULT_LIMIT,
           offset: Annotated[int, Query(ge=0)] = 0) -> tuple[int, int]:
    return limit, offset


Paging = Annotated[tuple[int, int], Depends(paging)]
'''

SCHEMAS = '''\
"""Request and response bodies."""

from typing import Annotated

from pydantic import AfterValidator, BaseModel, Field, StrictInt, StringConstraints

from . import config


def known_category(name: str) -> str:
    if name not in config.CATEGORIES:
        raise ValueError("unknown category")
    return name


Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=3, max_length=60)]
Category = Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True),
                     AfterValidator(known_category)]
Price = Annotated[StrictInt, Field(ge=1, le=config.MAX_PRICE_CENTS)]
Stock = Annotated[StrictInt, Field(ge=0, le=config.MAX_STOCK)]


class ListingIn(BaseModel):
    title: Title
    price_cents: Price
    stock: Stock
    category: Category


class ListingPatch(BaseModel):
    # None defaults are not validated, so a field sent as null is still refused
    title: Title = None
    price_cents: Price = None
    stock: Stock = None


class Listing(BaseModel):
    id: int
    seller: str
    title: str
    price_cents: int
    stock: int
    category: str


class SellerProfile(BaseModel):
    name: str
    listings: int


class CartLineIn(BaseModel):
    quantity: StrictInt = Field(ge=1, le=config.MAX_QUANTITY)


class CartLine(BaseModel):
    listing_id: int
    quantity: int
    price_cents: int


class Cart(BaseModel):
    items: list[CartLine]
    total_cents: int


class OrderIn(BaseModel):
    note: str | None = Field(None, max_length=100)


class Order(BaseModel):
    id: int
    buyer: str
    items: list[CartLine]
    total_cents: int
    status: str
    note: str | None


class ReviewIn(BaseModel):
    rating: StrictInt = Field(ge=1, le=config.MAX_RATING)
    text: str = Field("", max_length=200)


class Review(BaseModel):
    id: int
    listing_id: int
    buyer: str
    rating: int
    text: str
'''

SELLERS = '''\
from fastapi import APIRouter, HTTPException

from .. import config, store
from ..schemas import SellerProfile

router = APIRouter(tags=["sellers"])


@router.get("/{name}")
def read_seller(name: str) -> SellerProfile:
    wanted = name.lower()
    for account in config.USERS.values():
        if account["role"] == "seller" and account["name"].lower() == wanted:
            owned = [item for item in store.LISTINGS.values() if item["seller"] == account["name"]]
            return {"name": account["name"], "listings": len(owned)}
    raise HTTPException(404, "seller not found")
'''

LISTINGS = '''\
from typing import Literal

from fastapi import APIRouter, HTTPException, Response

from .. import store
from ..deps import Paging, Seller, SellerOrAdmin
from ..schemas import Listing, ListingIn, ListingPatch

router = APIRouter(tags=["listings"])

Sort = Literal["newest", "price_asc", "price_desc"]


def find_listing(listing_id: int) -> dict:
    listing = store.LISTINGS.get(listing_id)
    if listing is None:
        raise HTTPException(404, "listing not found")
    return listing


def own_listing(listing_id: int, user: dict) -> dict:
    listing = find_listing(listing_id)
    if user["role"] != "admin" and listing["seller"] != user["name"]:
        raise HTTPException(403, "not your listing")
    return listing


def matches(listing: dict, q: str | None, category: str | None) -> bool:
    if q is not None and q.lower() not in listing["title"].lower():
        return False
    return category is None or category.strip().lower() == listing["category"]


def ordered(listings: list[dict], sort: Sort) -> list[dict]:
    if sort == "price_asc":
        return sorted(listings, key=lambda item: (item["price_cents"], item["id"]))
    if sort == "price_desc":
        return sorted(listings, key=lambda item: (-item["price_cents"], item["id"]))
    return sorted(listings, key=lambda item: item["id"], reverse=True)


@router.post("", status_code=201, response_model=Listing)
def create_listing(body: ListingIn, user: Seller):
    return store.add_listing({"seller": user["name"], **body.model_dump()})


@router.get("", response_model=list[Listing])
def list_listings(response: Response, page: Paging, q: str | None = None,
                  category: str | None = None, sort: Sort = "newest"):
    limit, offset = page
    found = ordered([item for item in store.LISTINGS.values() if matches(item, q, category)], sort)
    response.headers["X-Total-Count"] = str(len(found))
    return found[offset:offset + limit]


@router.get("/{listing_id}", response_model=Listing)
def read_listing(listing_id: int):
    return find_listing(listing_id)


@router.patch("/{listing_id}", response_model=Listing)
def change_listing(listing_id: int, body: ListingPatch, user: SellerOrAdmin):
    listing = own_listing(listing_id, user)
    listing.update(body.model_dump(exclude_unset=True))
    return listing


@router.delete("/{listing_id}", status_code=204)
def delete_listing(listing_id: int, user: SellerOrAdmin) -> Response:
    own_listing(listing_id, user)
    store.remove_listing(listing_id)
    return Response(status_code=204)
'''

CARTS = '''\
from fastapi import APIRouter, HTTPException, Response

from .. import store
from ..deps import Buyer
from ..schemas import Cart, CartLineIn
from .listings import find_listing

router = APIRouter(tags=["cart"])


def cart_lines(items: dict[int, int]) -> list[dict]:
    return [{"listing_id": listing_id, "quantity": quantity,
             "price_cents": store.LISTINGS[listing_id]["price_cents"]}
            for listing_id, quantity in sorted(items.items())]


def cart_view(buyer: str) -> dict:
    lines = cart_lines(store.CARTS[buyer])
    return {"items": lines, "total_cents": sum(l["quantity"] * l["price_cents"] for l in lines)}


@router.get("", response_model=Cart)
def read_cart(user: Buyer):
    return cart_view(user["name"])


@router.put("/items/{listing_id}", response_model=Cart)
def put_item(listing_id: int, body: CartLineIn, user: Buyer):
    find_listing(listing_id)
    store.CARTS[user["name"]][listing_id] = body.quantity
    return cart_view(user["name"])


@router.delete("/items/{listing_id}", status_code=204)
def remove_item(listing_id: int, user: Buyer) -> Response:
    if store.CARTS[user["name"]].pop(listing_id, None) is None:
        raise HTTPException(404, "item not in cart")
    return Response(status_code=204)
'''

ORDERS = '''\
from fastapi import APIRouter, HTTPException, Request, Response

from .. import store
from ..deps import Buyer, BuyerOrAdmin
from ..schemas import Order, OrderIn
from .carts import cart_lines

router = APIRouter(tags=["orders"])


def visible_order(order_id: int, user: dict) -> dict:
    order = store.ORDERS.get(order_id)
    if order is None or (user["role"] != "admin" and order["buyer"] != user["name"]):
        raise HTTPException(404, "order not found")
    return order


@router.post("", status_code=201, response_model=Order)
def place_order(body: OrderIn, user: Buyer, request: Request, response: Response):
    cart = store.CARTS[user["name"]]
    if not cart:
        raise HTTPException(409, "cart is empty")
    for listing_id, quantity in cart.items():
        if store.LISTINGS[listing_id]["stock"] < quantity:
            raise HTTPException(409, "insufficient stock")
    lines = cart_lines(cart)
    for line in lines:
        store.LISTINGS[line["listing_id"]]["stock"] -= line["quantity"]
    order = {"id": store.next_id("order"), "buyer": user["name"], "items": lines,
             "total_cents": sum(l["quantity"] * l["price_cents"] for l in lines),
             "status": "placed", "note": body.note}
    store.ORDERS[order["id"]] = order
    cart.clear()
    response.headers["Location"] = request.app.url_path_for("read_order", order_id=order["id"])
    return order


@router.get("", response_model=list[Order])
def list_orders(user: BuyerOrAdmin):
    return [order for order in store.ORDERS.values()
            if user["role"] == "admin" or order["buyer"] == user["name"]]


@router.get("/{order_id}", response_model=Order)
def read_order(order_id: int, user: BuyerOrAdmin):
    return visible_order(order_id, user)


@router.post("/{order_id}/cancel", response_model=Order)
def cancel_order(order_id: int, user: Buyer):
    order = visible_order(order_id, user)
    if order["status"] == "cancelled":
        raise HTTPException(409, "order already cancelled")
    for line in order["items"]:
        if line["listing_id"] in store.LISTINGS:
            store.LISTINGS[line["listing_id"]]["stock"] += line["quantity"]
    order["status"] = "cancelled"
    return order
'''

REVIEWS = '''\
from fastapi import APIRouter, HTTPException

from .. import store
from ..deps import Buyer
from ..schemas import Review, ReviewIn
from .listings import find_listing

router = APIRouter(tags=["reviews"])


def has_bought(buyer: str, listing_id: int) -> bool:
    return any(order["buyer"] == buyer and order["status"] != "cancelled"
               and any(line["listing_id"] == listing_id for line in order["items"])
               for order in store.ORDERS.values())


@router.post("/{listing_id}/reviews", status_code=201, response_model=Review)
def add_review(listing_id: int, body: ReviewIn, user: Buyer):
    find_listing(listing_id)
    if not has_bought(user["name"], listing_id):
        raise HTTPException(403, "purchase required")
    if any(review["listing_id"] == listing_id and review["buyer"] == user["name"]
           for review in store.REVIEWS.values()):
        raise HTTPException(409, "already reviewed")
    review = {"id": store.next_id("review"), "listing_id": listing_id, "buyer": user["name"],
              **body.model_dump()}
    store.REVIEWS[review["id"]] = review
    return review


@router.get("/{listing_id}/reviews", response_model=list[Review])
def list_reviews(listing_id: int):
    find_listing(listing_id)
    return [review for review in store.REVIEWS.values() if review["listing_id"] == listing_id]
'''

MAIN = '''\
from fastapi import Depends, FastAPI

from . import errors
from .deps import current_user
from .routers import carts, listings, orders, reviews, sellers


def create_app() -> FastAPI:
    app = FastAPI(title="Marketplace")
    errors.install(app)

    @app.api_route("/health", methods=["GET", "HEAD"])
    def health() -> dict:
        return {"status": "ok"}

    app.include_router(listings.router, prefix="/listings")
    app.include_router(reviews.router, prefix="/listings")
    app.include_router(sellers.router, prefix="/sellers", dependencies=[Depends(current_user)])
    app.include_router(carts.router, prefix="/cart")
    app.include_router(orders.router, prefix="/orders")
    return app
'''

SOLUTION = '''\
from fastapi.testclient import TestClient

from market.main import create_app

app = create_app()''' + RESULT_CLIENT + '''\
seller = {"Authorization": "Bearer ${tok_seller}"}
created = client.post("/listings", headers=seller,
                      json={"title": "${title1}", "price_cents": ${price1}, "stock": 4,
                            "category": "${cat0}"})
listed = client.get("/listings")
profile = client.get("/sellers/${seller}", headers=seller)
result = [
    [created.status_code, body(created)],
    [listed.status_code, body(listed)],
    [profile.status_code, body(profile)],
]
'''

_in = editor("market")


def _r(module, name, old, new):
    return _in(f"routers/{module}", name, old, new)


B_HANDLER = _in("errors", "error handler registered for FastAPI's HTTPException",
                "from fastapi import FastAPI, Request\nfrom fastapi.responses import JSONResponse\n"
                "from starlette.exceptions import HTTPException\n",
                "from fastapi import FastAPI, HTTPException, Request\n"
                "from fastapi.responses import JSONResponse\n")
B_SELLER_AUTH = _in("main", "sellers router mounted without the caller dependency",
                    'prefix="/sellers", dependencies=[Depends(current_user)])',
                    'prefix="/sellers")')
B_SELLER_AUTH_IMPORTS = _in("main", "imports the sellers dependency needed",
                            "from fastapi import Depends, FastAPI\n\nfrom . import errors\n"
                            "from .deps import current_user\n",
                            "from fastapi import FastAPI\n\nfrom . import errors\n")
B_SLASH = _r("listings", "listing list declared with a trailing slash",
             '@router.get("", response_model=list[Listing])',
             '@router.get("/", response_model=list[Listing])')
B_HEAD = _in("main", "health answers GET only", '@app.api_route("/health", methods=["GET", "HEAD"])',
             '@app.get("/health")')
B_LAX_QTY = _in("schemas", "cart quantity a lax int",
                "quantity: StrictInt = Field(ge=1, le=config.MAX_QUANTITY)",
                "quantity: int = Field(ge=1, le=config.MAX_QUANTITY)")
B_LIMIT = _in("deps", "limit bound exclusive", "Query(ge=1, le=config.MAX_LIMIT)",
              "Query(ge=1, lt=config.MAX_LIMIT)")
B_FILTER_LATE = _r("listings", "filters applied after paging", """\
    found = ordered([item for item in store.LISTINGS.values() if matches(item, q, category)], sort)
    response.headers["X-Total-Count"] = str(len(found))
    return found[offset:offset + limit]""", """\
    found = ordered(list(store.LISTINGS.values()), sort)
    response.headers["X-Total-Count"] = str(len(found))
    return [item for item in found[offset:offset + limit] if matches(item, q, category)]""")
B_TIES = _r("listings", "price_desc ties by id descending",
            'key=lambda item: (-item["price_cents"], item["id"]))',
            'key=lambda item: (item["price_cents"], item["id"]), reverse=True)')
B_REUSED_ID = _in("store", "listing id from the count of listings",
                  'listing["id"] = next_id("listing")', 'listing["id"] = len(LISTINGS) + 1')
B_CASE = _r("listings", "title search folds one side only",
            'not in listing["title"].lower():', 'not in listing["title"]:')
B_SHARED_CART = _in("store", "carts share one dict",
                    "{name: {} for name in config.BUYERS}", "dict.fromkeys(config.BUYERS, {})")
B_LOCATION = _r("orders", "Location is an absolute URL",
                'request.app.url_path_for("read_order", order_id=order["id"])',
                'str(request.url_for("read_order", order_id=order["id"]))')
B_STOCK = _r("orders", "the last units refused", '["stock"] < quantity:', '["stock"] <= quantity:')
B_NOTE = _r("orders", "order read drops a null note",
            '@router.get("/{order_id}", response_model=Order)',
            '@router.get("/{order_id}", response_model=Order, response_model_exclude_none=True)')
B_CANCELLED = _r("reviews", "a cancelled order counts as a purchase",
                 'order["buyer"] == buyer and order["status"] != "cancelled"\n               and ',
                 'order["buyer"] == buyer and ')
B_SCHEME = _in("security", "auth scheme case-sensitive", 'scheme.lower() != "bearer"',
               'scheme != "Bearer"')

FILES = {"market/__init__.py": INIT, "market/config.py": CONFIG, "market/store.py": STORE,
         "market/errors.py": ERRORS, "market/security.py": SECURITY, "market/deps.py": DEPS,
         "market/schemas.py": SCHEMAS, "market/main.py": MAIN,
         "market/routers/__init__.py": ROUTERS_INIT, "market/routers/sellers.py": SELLERS,
         "market/routers/listings.py": LISTINGS, "market/routers/carts.py": CARTS,
         "market/routers/orders.py": ORDERS, "market/routers/reviews.py": REVIEWS}
PLANTED = (B_HANDLER, B_SELLER_AUTH, B_SELLER_AUTH_IMPORTS, B_SLASH, B_HEAD, B_LAX_QTY, B_LIMIT,
           B_FILTER_LATE, B_TIES, B_REUSED_ID, B_CASE, B_SHARED_CART, B_LOCATION, B_STOCK,
           B_NOTE, B_CANCELLED, B_SCHEME)

PROBES = ROWS_422_LOC_AND_HEAD + '''\
ADMIN = {"Authorization": "Bearer ${tok_admin}"}
SELLER = {"Authorization": "Bearer ${tok_seller}"}
SELLER2 = {"Authorization": "Bearer ${tok_seller2}"}
BUYER = {"Authorization": "Bearer ${tok_buyer}"}
BUYER2 = {"Authorization": "Bearer ${tok_buyer2}"}
MAX_LIMIT = ${max_limit}
MAX_QTY = ${max_qty}


def _listing(client, title, price=500, stock=10, category="${cat0}", headers=SELLER):
    return client.post("/listings", headers=headers, json={
        "title": title, "price_cents": price, "stock": stock, "category": category}).json()


def _ids(client, query, made):
    r = client.get("/listings?" + query)
    index = {item["id"]: n for n, item in enumerate(made)}
    return [r.status_code, [index.get(item["id"]) for item in r.json()]
            if r.status_code == 200 else _body(r), r.headers.get("x-total-count")]


def _order(client, listing_id, quantity=1, headers=BUYER, note=None):
    client.put(f"/cart/items/{listing_id}", headers=headers, json={"quantity": quantity})
    return client.post("/orders", headers=headers, json={} if note is None else {"note": note})


def probe_health(client):
    h = client.head("/health")
    return [_row(client.get("/health")), [h.status_code, h.headers.get("content-type")]]


def probe_router_errors(client):
    rows = [_row(client.get("/nowhere/at/all"))]
    for r in [client.delete("/cart", headers=BUYER), client.post("/sellers/x", headers=BUYER)]:
        rows.append(_row(r) + [r.headers.get("allow")])
    return rows


def probe_scheme_any_case(client):
    rows = []
    for scheme in ["bearer", "BEARER", "Bearer"]:
        r = client.get("/cart", headers={"Authorization": scheme + " ${tok_buyer}"})
        rows.append([scheme, r.status_code])
    for value in ["", "Basic ${tok_buyer}", "Bearer", "Bearer nope"]:
        r = client.get("/cart", headers={"Authorization": value})
        rows.append([value, r.status_code, _body(r), r.headers.get("www-authenticate")])
    return rows


def probe_sellers_need_a_token(client):
    return [_row(client.get("/sellers/${seller}")),
            _row(client.get("/sellers/${seller}", headers={"Authorization": "Bearer x"})),
            _row(client.get("/sellers/${seller_upper}", headers=BUYER)),
            _row(client.get("/sellers/${buyer}", headers=BUYER))]


def probe_seller_name_exact(client):
    return [_row(client.get(path, headers=BUYER))
            for path in ["/sellers/ ${seller}", "/sellers/${seller} ", "/sellers/${seller_upper}"]]


def probe_list_path(client):
    r = client.get("/listings", follow_redirects=False)
    return [[r.status_code, r.headers.get("location")]]


def probe_limit_bounds(client):
    rows = []
    for limit in [MAX_LIMIT, MAX_LIMIT + 1, 0, 1]:
        r = client.get(f"/listings?limit={limit}")
        rows.append([limit, _brief(r)[0] if r.status_code == 200 else _brief(r)])
    rows.append(_brief(client.get("/listings?offset=-1")))
    return rows


def probe_filter_before_paging(client):
    made = [_listing(client, f"fpage item {n}", category=["${cat0}", "${cat1}"][n % 2])
            for n in range(6)]
    return [_ids(client, "q=fpage&category=${cat1}&limit=2", made),
            _ids(client, "q=fpage&category=${cat1}&limit=2&offset=2", made),
            _ids(client, "q=fpage&category=${cat1_upper}", made)]


def probe_price_sort_ties(client):
    made = [_listing(client, f"tsort {n}", price=p) for n, p in enumerate(${prices__repr})]
    return [_ids(client, f"q=tsort&sort={sort}", made)
            for sort in ["price_desc", "price_asc", "newest"]] + [
        _brief(client.get("/listings?sort=cheapest"))]


def probe_title_search_any_case(client):
    made = [_listing(client, "${mixed_title}"), _listing(client, "plain zlamp")]
    return [_ids(client, "q=${query_lower}", made), _ids(client, "q=${query_upper}", made)]


def probe_search_keeps_spaces(client):
    made = [_listing(client, "old kspace lamp"), _listing(client, "kspacelamp")]
    return [_ids(client, "q=%20kspace", made), _ids(client, "q=kspace%20", made),
            _ids(client, "q=kspace", made)]


def probe_listing_ids_not_reused(client):
    first = _listing(client, "reuse one")
    second = _listing(client, "reuse two")
    client.delete(f"/listings/{second['id']}", headers=SELLER)
    third = _listing(client, "reuse three")
    return [[third["id"] - first["id"]], _row(client.get(f"/listings/{second['id']}")),
            [client.get(f"/listings/{first['id']}").json()["title"]]]


def probe_carts_are_private(client):
    item = _listing(client, "private cart item")
    client.put(f"/cart/items/{item['id']}", headers=BUYER, json={"quantity": 2})
    other = client.get("/cart", headers=BUYER2).json()
    mine = client.get("/cart", headers=BUYER).json()
    client.delete(f"/cart/items/{item['id']}", headers=BUYER)
    return [[item["id"] in [line["listing_id"] for line in other["items"]]],
            [[line["quantity"] for line in mine["items"] if line["listing_id"] == item["id"]]]]


def probe_quantity_is_an_integer(client):
    item = _listing(client, "quantity item", stock=100)
    rows = []
    for quantity in [1, MAX_QTY, MAX_QTY + 1, 0, "2", 2.0, True]:
        r = client.put(f"/cart/items/{item['id']}", headers=BUYER, json={"quantity": quantity})
        rows.append([quantity, r.status_code])
    client.delete(f"/cart/items/{item['id']}", headers=BUYER)
    return rows


def probe_order_location(client):
    item = _listing(client, "location item")
    r = _order(client, item["id"])
    return [[r.status_code, r.headers.get("location") == f"/orders/{r.json()['id']}"]]


def probe_last_units_sell(client):
    item = _listing(client, "last units", stock=3)
    first = _order(client, item["id"], quantity=3)
    second = _order(client, item["id"], quantity=1)
    client.delete(f"/cart/items/{item['id']}", headers=BUYER)
    return [[first.status_code, first.json().get("total_cents")], _row(second),
            [client.get(f"/listings/{item['id']}").json()["stock"]]]


def probe_order_note_null(client):
    item = _listing(client, "note item")
    made = _order(client, item["id"]).json()
    r = client.get(f"/orders/{made['id']}", headers=BUYER).json()
    return [["note" in made, made.get("note")], ["note" in r, r.get("note"), r.get("status")]]


def probe_review_needs_live_purchase(client):
    item = _listing(client, "review item")
    rows = [_row(client.post(f"/listings/{item['id']}/reviews", headers=BUYER2,
                             json={"rating": 1}))]
    order = _order(client, item["id"], headers=BUYER2).json()
    client.post(f"/orders/{order['id']}/cancel", headers=BUYER2)
    rows.append(_row(client.post(f"/listings/{item['id']}/reviews", headers=BUYER2,
                                 json={"rating": 1})))
    _order(client, item["id"], headers=BUYER2)
    r = client.post(f"/listings/{item['id']}/reviews", headers=BUYER2, json={"rating": 1})
    rows.append([r.status_code, r.json().get("rating")])
    return rows

def probe_listing_owner_only(client):
    item = _listing(client, "owned item")
    return [_row(client.patch(f"/listings/{item['id']}", headers=SELLER2, json={"stock": 1})),
            _row(client.delete(f"/listings/{item['id']}", headers=SELLER2)),
            _brief(client.patch(f"/listings/{item['id']}", headers=SELLER, json={"stock": None})),
            [client.patch(f"/listings/{item['id']}", headers=ADMIN,
                          json={"price_cents": 777}).json().get("price_cents")],
            [client.get(f"/listings/{item['id']}").json()["stock"]]]


def probe_listing_validation(client):
    rows = []
    for title, price, category in [("  abc  ", 1, "${cat1_upper}"), ("  ab  ", 5, "${cat0}"),
                                   ("t" * 60, 1000000, "${cat0}"), ("t" * 61, 5, "${cat0}"),
                                   ("fine title", 0, "${cat0}"), ("fine title", "5", "${cat0}"),
                                   ("fine title", 5, "nothing")]:
        r = client.post("/listings", headers=SELLER, json={
            "title": title, "price_cents": price, "stock": 1, "category": category})
        shown = [r.json()["title"], r.json()["category"]] if r.status_code == 201 else _brief(r)
        rows.append([title, price, shown])
    rows.append(_row(client.post("/listings", headers=BUYER, json={"title": 1})))
    return rows


def probe_listing_number_bounds(client):
    rows = []
    for price, stock in [(5, 0), (5, 10000), (5, -1), (5, 10001), (5, "3"), (1000001, 1)]:
        r = client.post("/listings", headers=SELLER, json={
            "title": "number bound", "price_cents": price, "stock": stock, "category": "${cat0}"})
        rows.append([price, stock, r.json()["stock"] if r.status_code == 201 else _brief(r)])
    return rows


def probe_patch_validation_first(client):
    item = _listing(client, "precedence item")
    gone = _listing(client, "precedence gone")
    client.delete(f"/listings/{gone['id']}", headers=SELLER)
    return [_brief(client.patch(f"/listings/{gone['id']}", headers=SELLER, json={"stock": -1})),
            _brief(client.patch(f"/listings/{item['id']}", headers=SELLER2,
                                json={"price_cents": 0})),
            _brief(client.patch(f"/listings/{item['id']}", headers=BUYER, json={"stock": -1})),
            [client.get(f"/listings/{item['id']}").json()["price_cents"]]]


def probe_cart_total(client):
    first = _listing(client, "total one", price=${price1})
    second = _listing(client, "total two", price=300)
    before = client.get("/cart", headers=BUYER2).json()["total_cents"]
    client.put(f"/cart/items/{second['id']}", headers=BUYER2, json={"quantity": 2})
    r = client.put(f"/cart/items/{first['id']}", headers=BUYER2, json={"quantity": 3})
    cart = client.get("/cart", headers=BUYER2).json()
    mine = [line["listing_id"] - first["id"] for line in cart["items"]
            if line["listing_id"] in (first["id"], second["id"])]
    for item in (first, second):
        client.delete(f"/cart/items/{item['id']}", headers=BUYER2)
    return [[r.json()["total_cents"] - before, cart["total_cents"] - before, mine]]


def probe_cart_line_removal(client):
    item = _listing(client, "removal item")
    client.put(f"/cart/items/{item['id']}", headers=BUYER2, json={"quantity": 1})
    first = client.delete(f"/cart/items/{item['id']}", headers=BUYER2)
    return [[first.status_code, first.content.decode()],
            _row(client.delete(f"/cart/items/{item['id']}", headers=BUYER2)),
            _row(client.delete(f"/cart/items/{item['id']}", headers=BUYER))]


def probe_order_list(client):
    item = _listing(client, "order list item")
    made = [_order(client, item["id"], headers=who).json()["id"] for who in (BUYER, BUYER2, BUYER)]

    def seen(headers):
        return [made.index(order["id"]) for order in client.get("/orders", headers=headers).json()
                if order["id"] in made]

    return [seen(BUYER), seen(BUYER2), seen(ADMIN)]


def probe_text_limits(client):
    item = _listing(client, "limits item")
    client.put(f"/cart/items/{item['id']}", headers=BUYER2, json={"quantity": 1})
    rows = [_brief(client.post("/orders", headers=BUYER2, json={"note": "n" * 101}))]
    r = client.post("/orders", headers=BUYER2, json={"note": "n" * 100})
    rows.append([r.status_code, len(r.json().get("note") or "")])
    reviews = f"/listings/{item['id']}/reviews"
    rows.append(_brief(client.post(reviews, headers=BUYER2, json={"rating": 1, "text": "t" * 201})))
    r = client.post(reviews, headers=BUYER2, json={"rating": 1, "text": "t" * 200})
    rows.append([r.status_code, len(r.json().get("text") or "")])
    return rows


def probe_review_unknown_listing(client):
    item = _listing(client, "vanished item")
    client.delete(f"/listings/{item['id']}", headers=SELLER)
    reviews = f"/listings/{item['id']}/reviews"
    return [_row(client.post(reviews, headers=BUYER, json={"rating": 1})),
            _row(client.get(reviews))]


def probe_orders_are_private(client):
    item = _listing(client, "private order item")
    made = _order(client, item["id"]).json()
    return [_row(client.get(f"/orders/{made['id']}", headers=BUYER2)),
            [made["id"] in [o["id"] for o in client.get("/orders", headers=BUYER2).json()]],
            [client.get(f"/orders/{made['id']}", headers=ADMIN).status_code],
            _row(client.post(f"/orders/{made['id']}/cancel", headers=BUYER2))]


def probe_cancel_restores_stock(client):
    item = _listing(client, "cancel item", stock=6)
    made = _order(client, item["id"], quantity=2).json()
    rows = [[client.get(f"/listings/{item['id']}").json()["stock"]]]
    r = client.post(f"/orders/{made['id']}/cancel", headers=BUYER)
    rows.append([r.status_code, r.json().get("status"),
                 client.get(f"/listings/{item['id']}").json()["stock"]])
    rows.append(_row(client.post(f"/orders/{made['id']}/cancel", headers=BUYER)))
    rows.append(_row(client.post("/orders", headers=BUYER, json={})))
    return rows


def probe_review_once(client):
    item = _listing(client, "once item")
    _order(client, item["id"])
    rows = []
    for rating in [0, ${max_rating} + 1, ${max_rating}, 1]:
        r = client.post(f"/listings/{item['id']}/reviews", headers=BUYER, json={"rating": rating})
        rows.append([rating, _brief(r) if r.status_code != 201 else
                     [r.json()["rating"], r.json()["text"]]])
    rows.append([len(client.get(f"/listings/{item['id']}/reviews").json())])
    return rows


def probe_reviews_listed_by_id(client):
    item = _listing(client, "two reviews")
    _order(client, item["id"], headers=BUYER2)
    _order(client, item["id"])
    first = client.post(f"/listings/{item['id']}/reviews", headers=BUYER2,
                        json={"rating": 1, "text": "meh"}).json()
    client.post(f"/listings/{item['id']}/reviews", headers=BUYER,
                json={"rating": ${max_rating}, "text": "great"})
    r = client.get(f"/listings/{item['id']}/reviews")
    return [[r.status_code], [[review["id"] - first["id"], review["listing_id"] == item["id"],
                               review["buyer"], review["rating"], review["text"]]
                              for review in r.json()]]


def probe_order_lines_as_in_cart(client):
    for line in client.get("/cart", headers=BUYER).json()["items"]:
        client.delete(f"/cart/items/{line['listing_id']}", headers=BUYER)
    low = _listing(client, "lines low", price=${price1}, stock=8)
    high = _listing(client, "lines high", price=300, stock=5)
    client.put(f"/cart/items/{high['id']}", headers=BUYER, json={"quantity": 1})
    client.put(f"/cart/items/{low['id']}", headers=BUYER, json={"quantity": 2})
    client.put(f"/cart/items/{high['id']}", headers=BUYER, json={"quantity": 3})
    r = client.post("/orders", headers=BUYER, json={})
    made = r.json()

    def lines(order):
        return [[line["listing_id"] - low["id"], line["quantity"], line["price_cents"]]
                for line in order.get("items", [])]

    read = client.get(f"/orders/{made['id']}", headers=BUYER).json()
    return [[r.status_code, lines(made), made.get("total_cents")],
            [lines(read), read.get("total_cents")],
            [client.get(f"/listings/{item['id']}").json()["stock"] for item in (low, high)],
            [client.get("/cart", headers=BUYER).json()]]


def probe_category_trimmed(client):
    rows = []
    for category in [" ${cat1} ", "  ${cat1_upper}", "${cat0}  ", " ", "${cat1}x "]:
        r = client.post("/listings", headers=SELLER, json={
            "title": "ctrim item", "price_cents": 5, "stock": 1, "category": category})
        rows.append([category, r.json()["category"] if r.status_code == 201 else _brief(r)])
    for category in ["  ${cat1}", "${cat1_upper} ", "${cat1}"]:
        r = client.get("/listings", params={"q": "ctrim", "category": category})
        rows.append([category, r.status_code, len(r.json())])
    return rows

def probe_listing_gone_from_carts(client):
    item = _listing(client, "gone from carts")
    for who in (BUYER, BUYER2):
        client.put(f"/cart/items/{item['id']}", headers=who, json={"quantity": 1})
    client.delete(f"/listings/{item['id']}", headers=SELLER)
    rows = [[r.status_code, item["id"] in [line["listing_id"] for line in r.json()["items"]]]
            for r in (client.get("/cart", headers=BUYER), client.get("/cart", headers=BUYER2))]
    rows.append(_row(client.put(f"/cart/items/{item['id']}", headers=BUYER, json={"quantity": 1})))
    return rows

'''

_SETS = {
    "data": [
        {"admin": "ada", "tok_admin": "adm-ada-1", "seller": "Sol", "tok_seller": "sel-sol-2",
         "seller2": "Tim", "tok_seller2": "sel-tim-3", "buyer": "bea", "tok_buyer": "buy-bea-4",
         "buyer2": "cyd", "tok_buyer2": "buy-cyd-5", "categories": ["books", "games", "tools"],
         "title1": "Used chess set", "price1": 1250, "prices": [300, 500, 300, 500, 400],
         "mixed_title": "Vintage Brass LAMP", "query_lower": "lamp", "query_upper": "BRASS"},
        {"admin": "root", "tok_admin": "r00t.adm", "seller": "Mira", "tok_seller": "m1ra.sel",
         "seller2": "Nico", "tok_seller2": "n1co.sel", "buyer": "otto", "tok_buyer": "0tto.buy",
         "buyer2": "pia", "tok_buyer2": "p1a.buy", "categories": ["garden", "music", "toys"],
         "title1": "Bird feeder", "price1": 899, "prices": [700, 700, 200, 900, 200],
         "mixed_title": "Acoustic GUITAR Strings", "query_lower": "guitar",
         "query_upper": "STRINGS"},
        {"admin": "kai", "tok_admin": "kai-admin-x", "seller": "Lena", "tok_seller": "lena-sell-y",
         "seller2": "Omar", "tok_seller2": "omar-sell-z", "buyer": "uma", "tok_buyer": "uma-buy-q",
         "buyer2": "vic", "tok_buyer2": "vic-buy-w", "categories": ["art", "bikes", "clothes"],
         "title1": "Road bike pump", "price1": 2400, "prices": [100, 900, 900, 100, 500],
         "mixed_title": "Wool WINTER Scarf", "query_lower": "winter", "query_upper": "SCARF"},
    ],
    "rules": [
        {"default_limit": 5, "max_limit": 20, "max_qty": 5, "max_rating": 5},
        {"default_limit": 10, "max_limit": 25, "max_qty": 9, "max_rating": 10},
        {"default_limit": 8, "max_limit": 30, "max_qty": 3, "max_rating": 5},
    ],
}


def _derive(p):
    return {"seller_upper": p["seller"].upper(), "cat0": p["categories"][0],
            "cat1": p["categories"][1], "cat1_upper": p["categories"][1].upper()}


PROMPT = '''\
`/workspace` holds a marketplace service: `solution.py` and the package `market/` it imports
(`config.py`, `store.py`, `errors.py`, `security.py`, `deps.py`, `schemas.py`, `main.py` and
`routers/` with `sellers.py`, `listings.py`, `carts.py`, `orders.py`, `reviews.py`). It should
behave as described below but does not, in several places. Find and fix every deviation (edit or
rewrite any file); `solution.py` must keep defining `app` and `result`. State lives in memory
and carries from one request to the next; there is no data at start.

**Callers** send `Authorization: Bearer <token>`; the scheme is case-insensitive (`bearer`,
`BEARER`). Accounts: `${tok_admin}` is `${admin}` (admin), `${tok_seller}` is `${seller}` and
`${tok_seller2}` is `${seller2}` (sellers), `${tok_buyer}` is `${buyer}` and `${tok_buyer2}` is
`${buyer2}` (buyers). A missing or empty header, another scheme or no token is 401
`{"error": "not authenticated"}`, an unknown token 401 `{"error": "invalid token"}`, both with
`WWW-Authenticate: Bearer`. A route for sellers called by another role is 403
`{"error": "sellers only"}`, one for buyers `{"error": "buyers only"}`.

**Errors** are `{"error": <message>}` with their headers kept, FastAPI's own routing errors
included (an unknown path is 404 `{"error": "Not Found"}`, a method the path does not serve 405
`{"error": "Method Not Allowed"}` with `Allow`). Request validation errors stay FastAPI's
standard 422 `{"detail": [...]}`. Every path below answers exactly as written: no redirects.

**Routes.**
- `GET /health` and `HEAD /health`: 200 `{"status": "ok"}` (HEAD: no body), no token needed.
- `GET /sellers/{name}` (any valid token): 200 `{"name", "listings"}`, the seller's name as
  configured and how many listings they have now; the name matches in any case, but only as
  sent (spaces around it make another name). Not a seller: 404 `seller not found`.
- `POST /listings` (sellers) with `{"title", "price_cents", "stock", "category"}`: `title` is
  trimmed, then 3 to 60 characters; `price_cents` a JSON integer from 1 to 1000000, `stock` one
  from 0 to 10000; `category` is trimmed too, then one of ${categories__json} in any case,
  stored lower-case. 201 with the listing `{"id", "seller", "title", "price_cents", "stock",
  "category"}`. Listing ids start at 1 and are never reused, not even after a delete.
- `GET /listings` (no token): 200 with a JSON list of listings. Query: `q` (the title contains
  it exactly as sent, spaces included, ignoring case on both sides), `category` (equal once trimmed, ignoring case), `sort` one
  of `newest` (default: highest id first), `price_asc`, `price_desc` (ties by id, lowest first,
  in both price orders), `limit` from 1 to ${max_limit} (default ${default_limit}), `offset`
  from 0 (default 0).
  Filters apply before sorting and paging; `X-Total-Count` is the number of listings matching
  the filters. An out-of-range `limit` or `offset`, or an unknown `sort`, is 422.
- `GET /listings/{id}`: 200 or 404 `listing not found`.
- `PATCH /listings/{id}` (sellers and admins) with any of `title`, `price_cents`, `stock` (same
  rules; null is 422): only the keys sent change; 200 with the listing. Another seller's listing
  is 403 `not your listing` (admins may change any). A body breaking these rules is 422 even
  for an unknown listing or another seller's; a buyer is 403 `sellers only` before that.
- `DELETE /listings/{id}` (same callers and rule): 204, empty body; it leaves every cart.
- `GET /cart` (buyers): 200 `{"items": [{"listing_id", "quantity", "price_cents"}],
  "total_cents"}`, items by listing id, `total_cents` the sum of quantity times `price_cents`
  over them. Each buyer has their own cart.
- `PUT /cart/items/{listing_id}` (buyers) with `{"quantity"}`, a JSON integer from 1 to
  ${max_qty} (strings, floats and booleans are 422): sets the line's quantity (a second PUT
  replaces it, it does not add to it); 200 with the cart; unknown listing 404 `listing not
  found`. `DELETE /cart/items/{listing_id}`: 204, or 404 `item not in cart`.
- `POST /orders` (buyers) with `{"note"?: <string of at most 100 or null>}`: 409 `cart is empty`
  for an empty cart, 409 `insufficient stock` if a line wants more than the listing's stock (all
  of the remaining stock may be bought). Otherwise 201 with the order `{"id", "buyer", "items",
  "total_cents", "status": "placed", "note"}` (`items` and `total_cents` as the cart shows
  them: every line, by listing id, with its quantity and price), header `Location:
  /orders/<id>` (a path, not a full URL); the stock goes down and the cart is emptied.
- `GET /orders` (buyers: their own; admins: all), by id. `GET /orders/{id}` (buyers and admins):
  200 with the order, or 404 `order not found`, also for another buyer's order. Every order
  shown has all six keys, `note` as null when none was given.
- `POST /orders/{id}/cancel` (buyers, their own): 200 with the order, `status` `cancelled`, the
  stock restored; a cancelled order is 409 `order already cancelled`.
- `POST /listings/{id}/reviews` (buyers) with `{"rating": <JSON integer 1 to ${max_rating}>,
  "text"?: <at most 200 characters, default "">}`: 404 `listing not found` for an unknown
  listing, 403 `purchase
  required` unless the buyer has an order that is not cancelled containing it, 409 `already
  reviewed` for a second review; 201 `{"id", "listing_id", "buyer", "rating", "text"}`.
  `GET /listings/{id}/reviews` (no token): 200 with them, by id (lowest first); 404 `listing
  not found` for an unknown listing.

`result` has three rows, each `[status, body]`:
1. as `${seller}`: `POST /listings` with `{"title": "${title1}", "price_cents": ${price1},
   "stock": 4, "category": "${cat0}"}`
2. `GET /listings` without a token
3. as `${seller}`: `GET /sellers/${seller}`
'''


_REVIEWS_OF_LISTING = (
    'return [review for review in store.REVIEWS.values() if review["listing_id"] == listing_id]')


def _req(text, probe, *traps):
    return Requirement(text, probes=(probe,), traps=traps)


FAMILY = repair_family(
    id="repair/marketplace",
    title="Repair a multi-module marketplace service (listings, carts, orders, reviews)",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_SETS["data"][0], **_SETS["rules"][0]},
    space=_SETS,
    derive=_derive,
    instances=9,
    requirements=(
        _req("`GET` and `HEAD /health` answer 200.", "health", B_HEAD),
        _req("Unknown paths and methods use the error format, 405 keeping `Allow`.",
             "router_errors", B_HANDLER),
        _req("The Bearer scheme is case-insensitive; auth failures are 401 with their message "
             "and `WWW-Authenticate`.", "scheme_any_case", B_SCHEME,
             _in("errors", "handler drops the headers", "status_code=exc.status_code, "
                 "headers=exc.headers)", "status_code=exc.status_code)")),
        _req("Seller profiles need a valid token; names match in any case.",
             "sellers_need_a_token", B_SELLER_AUTH),
        _req("A seller's name matches only as sent, apart from case: spaces around it are "
             "404.", "seller_name_exact",
             _r("sellers", "seller name trimmed", "    wanted = name.lower()\n",
                "    wanted = name.strip().lower()\n")),
        _req("`GET /listings` answers at that path, without a redirect.", "list_path", B_SLASH),
        _req("`limit` is 1 to ${max_limit}, `offset` at least 0.", "limit_bounds", B_LIMIT),
        _req("Filters apply before paging; `X-Total-Count` counts the matches.",
             "filter_before_paging", B_FILTER_LATE),
        _req("Price orders break ties by lowest id; `newest` is highest id first.",
             "price_sort_ties", B_TIES),
        _req("`q` matches titles ignoring case on both sides.", "title_search_any_case", B_CASE),
        _req("`q` is matched as sent: spaces around it are part of what the title must "
             "contain.", "search_keeps_spaces",
             _r("listings", "search text trimmed", "q is not None and q.lower() not in",
                "q is not None and q.strip().lower() not in")),
        _req("Listing ids are never reused after a delete.", "listing_ids_not_reused",
             B_REUSED_ID),
        _req("Each buyer has their own cart.", "carts_are_private", B_SHARED_CART),
        _req("A cart quantity is a JSON integer from 1 to ${max_qty}.", "quantity_is_an_integer",
             B_LAX_QTY, _in("schemas", "quantity bound exclusive", "le=config.MAX_QUANTITY)",
                            "lt=config.MAX_QUANTITY)")),
        _req("A placed order's `Location` is the path `/orders/<id>`.", "order_location",
             B_LOCATION),
        _req("All of the remaining stock may be bought; more is 409.", "last_units_sell",
             B_STOCK),
        _req("An order read shows `note` as null when none was given.", "order_note_null",
             B_NOTE),
        _req("Only a buyer with an order that is not cancelled may review; 403 otherwise.",
             "review_needs_live_purchase", B_CANCELLED),
        _req("Only the owning seller or an admin changes or deletes a listing (403 `not your "
             "listing`); a PATCH changes only the keys sent and null is 422.",
             "listing_owner_only",
             _r("listings", "ownership not checked", """\
    if user["role"] != "admin" and listing["seller"] != user["name"]:
        raise HTTPException(403, "not your listing")
""", ""),
             _in("schemas", "patch stock accepts null", "    stock: Stock = None",
                 "    stock: Stock | None = None")),
        _req("Listing fields are validated as stated (title trimmed 3 to 60, price 1 to 1000000 "
             "as a JSON integer, known category in any case); a buyer is 403 first.",
             "listing_validation",
             _in("schemas", "title not trimmed", "StringConstraints(strip_whitespace=True, "
                 "min_length=3", "StringConstraints(min_length=3")),
        _req("Listing `stock` is a JSON integer from 0 to 10000 and `price_cents` at most 1000000.",
             "listing_number_bounds",
             _in("schemas", "stock bound exclusive", "Field(ge=0, le=config.MAX_STOCK)",
                 "Field(ge=0, lt=config.MAX_STOCK)"),
             _in("schemas", "price bound unchecked above", "Field(ge=1, le=config.MAX_PRICE_CENTS)",
                 "Field(ge=1)")),
        _req("A PATCH body breaking the rules is 422 even for an unknown or another seller's "
             "listing; a buyer is 403 first.", "patch_validation_first",
             _r("listings", "listing looked up before the body is validated", '''\
@router.patch("/{listing_id}", response_model=Listing)
def change_listing(listing_id: int, body: ListingPatch, user: SellerOrAdmin):
    listing = own_listing(listing_id, user)
''', '''\
from fastapi import Depends  # noqa: E402


def owned_listing(listing_id: int, user: SellerOrAdmin) -> dict:
    return own_listing(listing_id, user)


@router.patch("/{listing_id}", response_model=Listing)
def change_listing(body: ListingPatch, listing: dict = Depends(owned_listing)):
''')),
        _req("The cart lists items by listing id; `total_cents` sums quantity times price.",
             "cart_total",
             _r("carts", "cart total ignores quantities",
                'sum(l["quantity"] * l["price_cents"] for l in lines)}',
                'sum(l["price_cents"] for l in lines)}'),
             _r("carts", "cart lines in the order they were added",
                "for listing_id, quantity in sorted(items.items())]",
                "for listing_id, quantity in items.items()]")),
        _req("Removing a cart line is 204 with an empty body; a line not in the cart is 404 "
             "`item not in cart`.", "cart_line_removal",
             _r("carts", "removing a missing line succeeds", '''\
    if store.CARTS[user["name"]].pop(listing_id, None) is None:
        raise HTTPException(404, "item not in cart")
''', '''\
    store.CARTS[user["name"]].pop(listing_id, None)
''')),
        _req("`GET /orders` lists by id: a buyer their own, an admin every order.", "order_list",
             _r("orders", "order list newest first",
                "return [order for order in store.ORDERS.values()",
                "return [order for order in reversed(store.ORDERS.values())"),
             _r("orders", "admin lists only their own orders",
                'if user["role"] == "admin" or order["buyer"] == user["name"]]',
                'if order["buyer"] == user["name"]]')),
        _req("An order `note` is at most 100 characters and a review `text` at most 200.",
             "text_limits",
             _in("schemas", "note length unlimited", "note: str | None = Field(None, max_length=100)",
                 "note: str | None = None"),
             _in("schemas", "review text limit one short", 'text: str = Field("", max_length=200)',
                 'text: str = Field("", max_length=199)')),
        _req("A deleted listing leaves every cart; putting an unknown listing in a cart is 404 "
             "`listing not found`.", "listing_gone_from_carts",
             _in("store", "deleted listing stays in carts", '''\
    for cart in CARTS.values():
        cart.pop(listing_id, None)
''', ""),
             _r("carts", "cart accepts an unknown listing",
                "def put_item(listing_id: int, body: CartLineIn, user: Buyer):\n    find_listing(listing_id)\n",
                "def put_item(listing_id: int, body: CartLineIn, user: Buyer):\n")),
        _req("Reviews of an unknown listing are 404 `listing not found`, to add or to list.",
             "review_unknown_listing",
             _r("reviews", "review of an unknown listing not looked up",
                "def add_review(listing_id: int, body: ReviewIn, user: Buyer):\n    find_listing(listing_id)\n",
                "def add_review(listing_id: int, body: ReviewIn, user: Buyer):\n"),
             _r("reviews", "reviews listed for an unknown listing",
                "def list_reviews(listing_id: int):\n    find_listing(listing_id)\n",
                "def list_reviews(listing_id: int):\n")),
        _req("Another buyer's order is 404 and not listed; admins see it.", "orders_are_private",
             _r("orders", "orders visible to every buyer",
                'if order is None or (user["role"] != "admin" and order["buyer"] != user["name"]):',
                "if order is None:")),
        _req("Cancelling restores the stock; a second cancel is 409; an empty cart is 409.",
             "cancel_restores_stock",
             _r("orders", "cancel keeps the stock", """\
    for line in order["items"]:
        if line["listing_id"] in store.LISTINGS:
            store.LISTINGS[line["listing_id"]]["stock"] += line["quantity"]
""", "")),
        _req("A rating is 1 to ${max_rating}; `text` defaults to \"\"; a second review is 409.",
             "review_once",
             _in("schemas", "review text defaults to null", 'text: str = Field("", max_length=200)',
                 'text: str | None = Field(None, max_length=200)'),
             _r("reviews", "reviews not limited to one", """\
    if any(review["listing_id"] == listing_id and review["buyer"] == user["name"]
           for review in store.REVIEWS.values()):
        raise HTTPException(409, "already reviewed")
""", "")),
        _req("A listing's reviews are listed by id, lowest first.", "reviews_listed_by_id",
             _r("reviews", "reviews newest first", _REVIEWS_OF_LISTING,
                _REVIEWS_OF_LISTING.replace("store.REVIEWS.values()",
                                            "reversed(store.REVIEWS.values())")),
             _r("reviews", "reviews best rated first", _REVIEWS_OF_LISTING,
                _REVIEWS_OF_LISTING.replace("return [", "return sorted([").replace(
                    "== listing_id]", "== listing_id],\n"
                    '                  key=lambda review: -review["rating"])'))),
        _req("An order's `items` and `total_cents` are the cart's: every line by listing id, with "
             "the quantity the last PUT set; each listing's stock goes down.",
             "order_lines_as_in_cart",
             _r("orders", "order lines in the order they were added", "    lines = cart_lines(cart)\n",
                '    lines = [{"listing_id": listing_id, "quantity": quantity,\n'
                '              "price_cents": store.LISTINGS[listing_id]["price_cents"]}\n'
                "             for listing_id, quantity in cart.items()]\n"),
             _r("carts", "a second PUT adds to the quantity",
                '    store.CARTS[user["name"]][listing_id] = body.quantity\n',
                '    cart = store.CARTS[user["name"]]\n'
                "    cart[listing_id] = cart.get(listing_id, 0) + body.quantity\n")),
        _req("A listing's `category` is trimmed, then matched in any case; the `category` filter "
             "too.", "category_trimmed",
             _in("schemas", "category not trimmed",
                 "Category = Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True),",
                 "Category = Annotated[str, StringConstraints(to_lower=True),"),
             _r("listings", "category filter not trimmed",
                'category is None or category.strip().lower() == listing["category"]',
                'category is None or category.lower() == listing["category"]')),
    ),
)
