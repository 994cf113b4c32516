from fastapi_env.tasks import Edit, Family, Requirement

_RESULT = '''

client = TestClient(app)
result = []
r = client.post("/products", json={"${c1}": ${id1}, "${c2}": "${n1}", "${c3}": ${p1}})
result.append([r.status_code, r.json()])
r = client.get("/products/${id1}")
result.append([r.status_code, r.json()])
r = client.get("/admin/products/${id1}")
result.append([r.status_code, r.json()])
r = client.post("/products", json={"${a1}": ${id2}, "${a2}": "Desk", "${a3}": 5000})
result.append([r.status_code, [error["loc"] for error in r.json()["detail"]]])
r = client.get("/products/${id2}")
result.append([r.status_code, r.json()])
'''

_ROUTES = '''

@app.post("/products", response_model=Product, status_code=201)
def create_product(product: Product):
    if product.${a1} in PRODUCTS:
        raise HTTPException(status_code=${conflict}, detail="product exists")
    PRODUCTS[product.${a1}] = product
    return product


@app.get("/products", response_model=list[Product])
def list_products():
    return [PRODUCTS[key] for key in sorted(PRODUCTS)]


@app.get("/products/{${a1}}", response_model=Product)
def get_product(${a1}: int):
    if ${a1} not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[${a1}]


@app.get("/admin/products/{${a1}}", response_model=Product, response_model_by_alias=False)
def admin_get_product(${a1}: int):
    if ${a1} not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[${a1}]
'''

_HEAD = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field


class Product(BaseModel):
    ${a1}: int = Field(alias="${c1}")
    ${a2}: str = Field(alias="${c2}")
    ${a3}: int = Field(alias="${c3}")


PRODUCTS: dict[int, Product] = {}
app = FastAPI()
'''

_REFERENCE = _HEAD + _ROUTES + _RESULT

_MODEL_DUMP_ROUTES = '''

@app.post("/products", status_code=201)
def create_product(product: Product):
    if product.${a1} in PRODUCTS:
        raise HTTPException(status_code=${conflict}, detail="product exists")
    PRODUCTS[product.${a1}] = product
    return product.model_dump()


@app.get("/products")
def list_products():
    return [PRODUCTS[key].model_dump() for key in sorted(PRODUCTS)]


@app.get("/products/{${a1}}")
def get_product(${a1}: int):
    if ${a1} not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[${a1}].model_dump()


@app.get("/admin/products/{${a1}}")
def admin_get_product(${a1}: int):
    if ${a1} not in PRODUCTS:
        raise HTTPException(status_code=404, detail="product not found")
    return PRODUCTS[${a1}].model_dump()
'''

FAMILY = Family(
    id="responses/camelcase_aliases",
    title="camelCase on the wire, snake_case in Python, and one snake_case admin view",
    category="responses",
    difficulty="hard",
    prompt='''\
Build a product catalogue (in memory, starting empty). In Python a product is a Pydantic model
with the attributes `${a1}: int`, `${a2}: str` and `${a3}: int`. The public
JSON API spells these keys in camelCase, in requests and in responses alike: `${c1}`,
`${c2}`, `${c3}`. A request body must use the camelCase keys; a body that uses the
snake_case keys instead is invalid (the camelCase keys are then missing) and gets FastAPI's
standard 422 validation error.

Routes:
- `POST /products`: the body is a product (camelCase keys). Stores it and answers 201 with the
  stored product (camelCase keys). If a product with the same `${c1}` already exists,
  answer ${conflict} with `{"detail": "product exists"}` and keep the existing one.
- `GET /products`: 200 with a JSON array of all products sorted by id ascending (camelCase
  keys).
- `GET /products/{${a1}}` (integer): 200 with the product (camelCase keys), or 404 with
  `{"detail": "product not found"}`.
- `GET /admin/products/{${a1}}` (integer): an internal view of the same data, which uses
  the Python attribute names as keys: 200 with `{"${a1}": ..., "${a2}": ...,
  "${a3}": ...}`, or 404 with `{"detail": "product not found"}`.

Then fill `result` with one row per request, in this order:
1. `POST /products` with JSON `{"${c1}": ${id1}, "${c2}": "${n1}", "${c3}": ${p1}}`:
   `[status code (integer), the JSON body]`
2. `GET /products/${id1}`: `[status code (integer), the JSON body]`
3. `GET /admin/products/${id1}`: `[status code (integer), the JSON body]`
4. `POST /products` with JSON `{"${a1}": ${id2}, "${a2}": "Desk", "${a3}": 5000}`:
   `[status code (integer), a list holding the "loc" of every entry of the body's "detail",
   in order]`
5. `GET /products/${id2}`: `[status code (integer), the JSON body]`
''',
    reference=_REFERENCE,
    probes='''\
def probe_create_and_list(client):
    rows = []
    r = client.post("/products", json={"${c1}": 3, "${c2}": "Mug", "${c3}": 450})
    rows.append([r.status_code, r.json()])
    r = client.post("/products", json={"${c1}": ${id1}, "${c2}": "Other", "${c3}": 1})
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
    r = client.post("/products", json={"${c1}": 11, "${a2}": "Pen", "${c3}": 120})
    if r.status_code != 422:
        return [[r.status_code, r.json()]]
    return [[r.status_code, [[e["type"], e["loc"]] for e in r.json()["detail"]]]]

def probe_unknown_and_empty_names(client):
    rows = []
    r = client.get("/products/0")
    rows.append([r.status_code, r.json()])
    r = client.post("/products", json={"${c1}": 21, "${c2}": "", "${c3}": 0})
    rows.append([r.status_code, r.json()])
    r = client.post("/products", json={})
    rows.append([r.status_code, [e["loc"] for e in r.json()["detail"]]])
    return rows
''',
    original={"a1": "product_id", "a2": "display_name", "a3": "price_cents", "id1": 7, "n1": "Lamp",
              "p1": 1999, "id2": 8, "conflict": 409},
    space={
        "a1": [{"a1": "product_id", "a2": "display_name", "a3": "price_cents"},
               {"a1": "sku_code", "a2": "label_text", "a3": "unit_price"},
               {"a1": "item_number", "a2": "short_title", "a3": "stock_level"}],
        "id1": [{"id1": 7, "id2": 8}, {"id1": 15, "id2": 2}],
        "n1": [{"n1": "Lamp", "p1": 1999}, {"n1": "Sofa", "p1": 45000}],
        "conflict": [409, 400],
    },
    derive=lambda p: {f"c{i}": (lambda w: w[0] + "".join(x.capitalize() for x in w[1:]))(p[f"a{i}"].split("_"))
                      for i in (1, 2, 3)},
    instances=24,
    requirements=(
        Requirement(
            "Requests and public responses use the camelCase keys (`${c1}`, `${c2}`, `${c3}`); "
            "snake_case or mixed keys in a body are FastAPI's 422 (the camelCase keys missing).",
            probes=("create_and_list", "mixed_keys_rejected", "unknown_and_empty_names"),
            traps=(Edit("validation_alias only (responses in snake_case)", "Field(alias=", "Field(validation_alias=", count=3),
                   Edit("populate_by_name accepts snake_case input", "class Product(BaseModel):\n",
                        "class Product(BaseModel):\n    model_config = ConfigDict(populate_by_name=True)\n"),
                   Edit("returns model_dump() without a response model", _ROUTES, _MODEL_DUMP_ROUTES)),
        ),
        Requirement(
            "The admin view uses the Python attribute names (`${a1}`, `${a2}`, `${a3}`), with the "
            "same 404.",
            probes=("admin_view",),
            traps=(Edit("admin view keeps the aliases", ", response_model_by_alias=False", ""),),
        ),
        Requirement(
            'A duplicate `${c1}` is ${conflict} `{"detail": "product exists"}` and keeps the first; '
            "the list is sorted by id; an unknown id is 404.",
            probes=("create_and_list", "unknown_and_empty_names"),
            traps=(Edit("duplicate replaces the stored product",
                        '    if product.${a1} in PRODUCTS:\n        raise HTTPException(status_code=${conflict}, detail="product exists")\n',
                        ""),
                   Edit("list in insertion order", "[PRODUCTS[key] for key in sorted(PRODUCTS)]",
                        "list(PRODUCTS.values())")),
        ),
    ),
    expected_rows=[
        [201, {"productId": 7, "displayName": "Lamp", "priceCents": 1999}],
        [200, {"productId": 7, "displayName": "Lamp", "priceCents": 1999}],
        [200, {"product_id": 7, "display_name": "Lamp", "price_cents": 1999}],
        [422, [["body", "productId"], ["body", "displayName"], ["body", "priceCents"]]],
        [404, {"detail": "product not found"}],
    ],
)
