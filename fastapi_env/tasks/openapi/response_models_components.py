from fastapi_env.tasks import Task

PROMPT = '''\
Build an items API whose responses are documented in `/openapi.json` through Pydantic models.

Models (module level, Pydantic):

- `Supplier`: `name: str`, `country: str`
- `ItemIn` (request body): `name: str`, `price: float`, `supplier: Supplier`
- `ItemOut` (what clients get back): `id: int`, `name: str`, `price: float`, `supplier: Supplier`
- `NotFound`: `detail: str`
- `Conflict`: `detail: str`, `existing_id: int`

Stored records also carry an internal `cost` field that must never be sent to clients:

    ITEMS = {1: {"id": 1, "name": "lamp", "price": 12.5,
                 "supplier": {"name": "Lumen", "country": "SE"}, "cost": 4.0}}

Routes (the handlers return the stored dicts; FastAPI's response model does the filtering):

- `GET /items` returns all items in id order, documented as a list of `ItemOut` (its `200`
  response schema is an array whose `items` is a `$ref` to `ItemOut`). It takes no parameters,
  so its only documented response is `200`.
- `GET /items/{item_id}` (`item_id` integer) returns one item as `ItemOut`; an unknown id raises
  `HTTPException(404, "item not found")`. The 404 is documented with the model `NotFound` and
  the description `"Item not found"`.
- `POST /items` creates an item from an `ItemIn` body: new id = the highest existing id + 1,
  stored with `cost` 0.0. It answers **201** with the `ItemOut`, and the `201` response is what
  OpenAPI documents as the success response (schema `$ref` to `ItemOut`). If an item with the same
  `name` already exists it answers 409 with the JSON body `{"detail": "duplicate name",
  "existing_id": <id of that item>}`; this 409 is documented with the model `Conflict` and the
  description `"Item name already used"`.

The document's `components.schemas` contains exactly the schemas these declarations produce (the
five models plus FastAPI's own validation-error schemas).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `POST /items` with JSON `{"name": "desk", "price": 80.0, "supplier": {"name": "Oak", "country": "DK"}}`:
   `[status code (integer), JSON body (object)]`
2. `POST /items` with JSON `{"name": "lamp", "price": 9.0, "supplier": {"name": "Lumen", "country": "SE"}}`:
   `[status code (integer), JSON body (object)]`
3. `GET /items/9`: `[status code (integer), JSON body (object)]`

From one `GET /openapi.json` document (`paths` and `components` below are its top-level keys):

4. `[sorted list of the keys of paths["/items"]["post"]["responses"]]`
5. `[paths["/items"]["post"]["responses"]["201"]["content"]["application/json"]["schema"] (object)]`
6. `[paths["/items"]["post"]["responses"]["409"] (the whole response object)]`
7. `[sorted list of the keys of paths["/items"]["get"]["responses"],
   paths["/items"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["items"] (object)]`
8. `[sorted list of the keys of components["schemas"]]`
'''

MODELS = '''\
from fastapi import FastAPI, HTTPException, Response
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Supplier(BaseModel):
    name: str
    country: str


class ItemIn(BaseModel):
    name: str
    price: float
    supplier: Supplier


class ItemOut(BaseModel):
    id: int
    name: str
    price: float
    supplier: Supplier


class NotFound(BaseModel):
    detail: str


class Conflict(BaseModel):
    detail: str
    existing_id: int


ITEMS = {1: {"id": 1, "name": "lamp", "price": 12.5,
             "supplier": {"name": "Lumen", "country": "SE"}, "cost": 4.0}}

app = FastAPI()

'''

ROUTES = '''\
@app.get("/items", response_model=list[ItemOut])
def list_items():
    return [ITEMS[k] for k in sorted(ITEMS)]


@app.get("/items/{item_id}", response_model=ItemOut,
         responses={404: {"model": NotFound, "description": "Item not found"}})
def get_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return ITEMS[item_id]


@app.post("/items", response_model=ItemOut, status_code=201,
          responses={409: {"model": Conflict, "description": "Item name already used"}})
def create_item(item: ItemIn):
    for stored in ITEMS.values():
        if stored["name"] == item.name:
            return JSONResponse(status_code=409, content={"detail": "duplicate name", "existing_id": stored["id"]})
    new_id = max(ITEMS) + 1
    ITEMS[new_id] = {"id": new_id, **item.model_dump(), "cost": 0.0}
    return ITEMS[new_id]
'''

TAIL = '''

client = TestClient(app)
result = []
r = client.post("/items", json={"name": "desk", "price": 80.0, "supplier": {"name": "Oak", "country": "DK"}})
result.append([r.status_code, r.json()])
r = client.post("/items", json={"name": "lamp", "price": 9.0, "supplier": {"name": "Lumen", "country": "SE"}})
result.append([r.status_code, r.json()])
r = client.get("/items/9")
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
post = spec["paths"]["/items"]["post"]["responses"]
result.append([sorted(post)])
result.append([post["201"]["content"]["application/json"]["schema"]])
result.append([post["409"]])
get = spec["paths"]["/items"]["get"]["responses"]
result.append([sorted(get), get["200"]["content"]["application/json"]["schema"]["items"]])
result.append([sorted(spec["components"]["schemas"])])
'''

REFERENCE = MODELS + ROUTES + TAIL

PROBES = '''\
def probe_item_filtered(client):
    rows = []
    r = client.get("/items/1")
    rows.append([r.status_code, r.json()])
    r = client.get("/items")
    rows.append([r.status_code, r.json()[0]])
    return rows


def probe_create_then_conflict(client):
    rows = []
    r = client.post("/items", json={"name": "stool", "price": 15.0, "supplier": {"name": "Oak", "country": "DK"}})
    body = r.json()
    rows.append([r.status_code, sorted(body), body["name"], body["supplier"]])
    r = client.post("/items", json={"name": "stool", "price": 1.0, "supplier": {"name": "X", "country": "FR"}})
    body = r.json()
    rows.append([r.status_code, body])
    return rows


def probe_get_one_documented(client):
    spec = client.get("/openapi.json").json()
    responses = spec["paths"]["/items/{item_id}"]["get"]["responses"]
    return [[sorted(responses), responses["404"],
             responses["200"]["content"]["application/json"]["schema"]]]


def probe_component_shapes(client):
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    return [[schemas["ItemOut"]["required"], schemas["ItemOut"]["properties"]["supplier"],
             schemas["Conflict"]["required"], schemas["ItemIn"]["required"]]]


def probe_invalid_body(client):
    r = client.post("/items", json={"name": "x", "price": "cheap", "supplier": {"name": "A", "country": "B"}})
    d = r.json()["detail"][0]
    return [[r.status_code, d["type"], d["loc"]]]
'''

TRAP_RUNTIME_STATUS = MODELS + ROUTES.replace(
    '''@app.post("/items", response_model=ItemOut, status_code=201,''',
    '''@app.post("/items", response_model=ItemOut,''',
).replace(
    "def create_item(item: ItemIn):", "def create_item(item: ItemIn, response: Response):"
).replace(
    "    new_id = max(ITEMS) + 1\n", "    response.status_code = 201\n    new_id = max(ITEMS) + 1\n"
) + TAIL.replace('post["201"]', 'post["200"]')

TRAP_UNDOCUMENTED_ERRORS = MODELS + ROUTES.replace(
    ''',
         responses={404: {"model": NotFound, "description": "Item not found"}})''', ")"
).replace(''',
          responses={409: {"model": Conflict, "description": "Item name already used"}})''', ")"
) + TAIL.replace("result.append([post[\"409\"]])", "result.append([post.get(\"409\")])")

TRAP_ERRORS_WITHOUT_MODELS = MODELS + ROUTES.replace(
    '{"model": NotFound, "description": "Item not found"}', '{"description": "Item not found"}'
).replace(
    '{"model": Conflict, "description": "Item name already used"}',
    '{"description": "Item name already used"}',
) + TAIL

TRAP_MANUAL_FILTERING = MODELS + '''\
def public(record):
    return {k: v for k, v in record.items() if k != "cost"}


@app.get("/items")
def list_items():
    return [public(ITEMS[k]) for k in sorted(ITEMS)]


@app.get("/items/{item_id}", responses={404: {"model": NotFound, "description": "Item not found"}})
def get_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return public(ITEMS[item_id])


@app.post("/items", status_code=201,
          responses={409: {"model": Conflict, "description": "Item name already used"}})
def create_item(item: ItemIn):
    for stored in ITEMS.values():
        if stored["name"] == item.name:
            return JSONResponse(status_code=409, content={"detail": "duplicate name", "existing_id": stored["id"]})
    new_id = max(ITEMS) + 1
    ITEMS[new_id] = {"id": new_id, **item.model_dump(), "cost": 0.0}
    return public(ITEMS[new_id])
''' + TAIL.replace(
    'result.append([sorted(get), get["200"]["content"]["application/json"]["schema"]["items"]])',
    'result.append([sorted(get), get["200"]["content"]["application/json"]["schema"].get("items")])',
)

TASK = Task(
    id="openapi/response_models_components",
    title="response_model, status_code and documented error models in paths and components",
    category="openapi",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "201 set at runtime through Response (documented as 200)": TRAP_RUNTIME_STATUS,
        "404/409 not documented with responses=": TRAP_UNDOCUMENTED_ERRORS,
        "404/409 documented without their models": TRAP_ERRORS_WITHOUT_MODELS,
        "cost stripped by hand instead of a response model": TRAP_MANUAL_FILTERING,
    },
    expected_rows=[
        [201, {"id": 2, "name": "desk", "price": 80.0, "supplier": {"name": "Oak", "country": "DK"}}],
        [409, {"detail": "duplicate name", "existing_id": 1}],
        [404, {"detail": "item not found"}],
        [["201", "409", "422"]],
        [{"$ref": "#/components/schemas/ItemOut"}],
        [{"description": "Item name already used",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Conflict"}}}}],
        [["200"], {"$ref": "#/components/schemas/ItemOut"}],
        [["Conflict", "HTTPValidationError", "ItemIn", "ItemOut", "NotFound", "Supplier",
          "ValidationError"]],
    ],
)
