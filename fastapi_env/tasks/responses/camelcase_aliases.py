from fastapi_env.tasks import Task

_RESULT = '''

client = TestClient(app)
result = []
r = client.post("/products", json={"productId": 7, "displayName": "Lamp", "priceCents": 1999})
result.append([r.status_code, r.json()])
r = client.get("/products/7")
result.append([r.status_code, r.json()])
r = client.get("/admin/products/7")
result.append([r.status_code, r.json()])
r = client.post("/products", json={"product_id": 8, "display_name": "Desk", "price_cents": 5000})
result.append([r.status_code, [error["loc"] for error in r.json()["detail"]]])
r = client.get("/products/8")
result.append([r.status_code, r.json()])
'''

_ROUTES = '''

@app.post("/products", response_model=Product, status_code=201)
def create_product(product: Product):
    if product.product_id in PRODUCTS:
        raise HTTPException(status_code=409, detail="product exists")
    PRODUCTS[product.product_id] = product
    return product


@app.get("/products", response_model=list[Product])
def list_products():
    return [PRODUCTS[key] for key in sorted(PRODUCTS)]


@app.get("/products/{product_id}", response_model=Product)
def get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[product_id]


@app.get("/admin/products/{product_id}", response_model=Product, response_model_by_alias=False)
def admin_get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[product_id]
'''

_HEAD = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field


class Product(BaseModel):
    product_id: int = Field(alias="productId")
    display_name: str = Field(alias="displayName")
    price_cents: int = Field(alias="priceCents")


PRODUCTS: dict[int, Product] = {}
app = FastAPI()
'''

_REFERENCE = _HEAD + _ROUTES + _RESULT

_VALIDATION_ALIAS_ONLY = _REFERENCE.replace('Field(alias=', 'Field(validation_alias=')

_POPULATE_BY_NAME = _REFERENCE.replace(
    "class Product(BaseModel):\n",
    "class Product(BaseModel):\n    model_config = ConfigDict(populate_by_name=True)\n",
).replace(
    'r.json()["detail"]]', 'r.json().get("detail", [])]'
)

_ADMIN_DEFAULT_ALIAS = _REFERENCE.replace(
    ', response_model_by_alias=False', ''
)

_MODEL_DUMP = _HEAD + '''

@app.post("/products", status_code=201)
def create_product(product: Product):
    if product.product_id in PRODUCTS:
        raise HTTPException(status_code=409, detail="product exists")
    PRODUCTS[product.product_id] = product
    return product.model_dump()


@app.get("/products")
def list_products():
    return [PRODUCTS[key].model_dump() for key in sorted(PRODUCTS)]


@app.get("/products/{product_id}")
def get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[product_id].model_dump()


@app.get("/admin/products/{product_id}")
def admin_get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[product_id].model_dump()
''' + _RESULT

TASK = Task(
    id="responses/camelcase_aliases",
    title="camelCase on the wire, snake_case in Python, and one snake_case admin view",
    category="responses",
    difficulty="hard",
    prompt='''\
Build a product catalogue (in memory, starting empty). In Python a product is a Pydantic model
with the attributes `product_id: int`, `display_name: str` and `price_cents: int`. The public
JSON API spells these keys in camelCase, in requests and in responses alike: `productId`,
`displayName`, `priceCents`. A request body must use the camelCase keys; a body that uses the
snake_case keys instead is invalid (the camelCase keys are then missing) and gets FastAPI's
standard 422 validation error.

Routes:
- `POST /products`: the body is a product (camelCase keys). Stores it and answers 201 with the
  stored product (camelCase keys). If a product with the same `productId` already exists,
  answer 409 with `{"detail": "product exists"}` and keep the existing one.
- `GET /products`: 200 with a JSON array of all products sorted by id ascending (camelCase
  keys).
- `GET /products/{product_id}` (integer): 200 with the product (camelCase keys), or 404 with
  `{"detail": "product not found"}`.
- `GET /admin/products/{product_id}` (integer): an internal view of the same data, which uses
  the Python attribute names as keys: 200 with `{"product_id": ..., "display_name": ...,
  "price_cents": ...}`, or 404 with `{"detail": "product not found"}`.

Then fill `result` with one row per request, in this order:
1. `POST /products` with JSON `{"productId": 7, "displayName": "Lamp", "priceCents": 1999}`:
   `[status code (integer), the JSON body]`
2. `GET /products/7`: `[status code (integer), the JSON body]`
3. `GET /admin/products/7`: `[status code (integer), the JSON body]`
4. `POST /products` with JSON `{"product_id": 8, "display_name": "Desk", "price_cents": 5000}`:
   `[status code (integer), a list holding the "loc" of every entry of the body's "detail",
   in order]`
5. `GET /products/8`: `[status code (integer), the JSON body]`
''',
    reference=_REFERENCE,
    probes='''\
def probe_create_and_list(client):
    rows = []
    r = client.post("/products", json={"productId": 3, "displayName": "Mug", "priceCents": 450})
    rows.append([r.status_code, r.json()])
    r = client.post("/products", json={"productId": 7, "displayName": "Other", "priceCents": 1})
    rows.append([r.status_code, r.json()])
    r = client.get("/products")
    rows.append([r.status_code, r.json()])
    return rows


def probe_admin_view(client):
    rows = []
    r = client.get("/admin/products/3")
    rows.append([r.status_code, r.json()])
    r = client.get("/admin/products/99")
    rows.append([r.status_code, r.json()])
    return rows


def probe_mixed_keys_rejected(client):
    r = client.post("/products", json={"productId": 11, "display_name": "Pen", "priceCents": 120})
    if r.status_code != 422:
        return [[r.status_code, r.json()]]
    return [[r.status_code, [[e["type"], e["loc"]] for e in r.json()["detail"]]]]
''',
    traps={
        "validation_alias only (responses in snake_case)": _VALIDATION_ALIAS_ONLY,
        "populate_by_name accepts snake_case input": _POPULATE_BY_NAME,
        "admin view keeps the aliases": _ADMIN_DEFAULT_ALIAS,
        "returns model_dump() without a response model": _MODEL_DUMP,
    },
    expected_rows=[
        [201, {"productId": 7, "displayName": "Lamp", "priceCents": 1999}],
        [200, {"productId": 7, "displayName": "Lamp", "priceCents": 1999}],
        [200, {"product_id": 7, "display_name": "Lamp", "price_cents": 1999}],
        [422, [["body", "productId"], ["body", "displayName"], ["body", "priceCents"]]],
        [404, {"detail": "product not found"}],
    ],
)
