from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an items API whose responses are documented in `/openapi.json` through Pydantic models.

Models (module level, Pydantic):

- `Supplier`: `name: str`, `country: str`
- `ItemIn` (request body): `name: str`, `price: float`, `supplier: Supplier`
- `ItemOut` (what clients get back): `id: int`, `name: str`, `price: float`, `supplier: Supplier`
- `NotFound`: `detail: str`
- `Conflict`: `detail: str`, `existing_id: int`

Stored records also carry an internal `cost` field that must never be sent to clients:

    ITEMS = {${sid}: {"id": ${sid}, "name": "${sname}", "price": ${sprice},
                 "supplier": {"name": "${ssup}", "country": "${scountry}"}, "cost": ${scost}}}

Routes (the handlers return the stored dicts; FastAPI's response model does the filtering):

- `GET /items` returns all items in id order, documented as a list of `ItemOut` (its `200`
  response schema is an array whose `items` is a `$$ref` to `ItemOut`). It takes no parameters,
  so its only documented response is `200`.
- `GET /items/{item_id}` (`item_id` integer) returns one item as `ItemOut`; an unknown id raises
  `HTTPException(${missing}, "item not found")`. The ${missing} is documented with the model `NotFound` and
  the description `"${missing_desc}"`.
- `POST /items` creates an item from an `ItemIn` body: new id = the highest existing id + 1,
  stored with `cost` 0.0. It answers **${created}** with the `ItemOut`, and the `${created}` response is what
  OpenAPI documents as the success response (schema `$$ref` to `ItemOut`). If an item with the same
  `name` already exists it answers ${conflict} with the JSON body `{"detail": "duplicate name",
  "existing_id": <id of that item>}`; this ${conflict} is documented with the model `Conflict` and the
  description `"${conflict_desc}"`.

The document's `components.schemas` contains exactly the schemas these declarations produce (the
five models plus FastAPI's own validation-error schemas).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `POST /items` with JSON `{"name": "${nname}", "price": ${nprice}, "supplier": {"name": "${nsup}", "country": "${ncountry}"}}`:
   `[status code (integer), JSON body (object)]`
2. `POST /items` with JSON `{"name": "${sname}", "price": 9.0, "supplier": {"name": "${ssup}", "country": "${scountry}"}}`:
   `[status code (integer), JSON body (object)]`
3. `GET /items/${unknown}`: `[status code (integer), JSON body (object)]`

From one `GET /openapi.json` document (`paths` and `components` below are its top-level keys):

4. `[sorted list of the keys of paths["/items"]["post"]["responses"]]`
5. `[paths["/items"]["post"]["responses"]["${created}"]["content"]["application/json"]["schema"] (object)]`
6. `[paths["/items"]["post"]["responses"]["${conflict}"] (the whole response object)]`
7. `[sorted list of the keys of paths["/items"]["get"]["responses"],
   paths["/items"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["items"] (object)]`
8. `[sorted list of the keys of components["schemas"]]`
'''

_ITEM_OUT = '''\
class ItemOut(BaseModel):
    id: int
    name: str
    price: float
    supplier: Supplier
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


''' + _ITEM_OUT + '''

class NotFound(BaseModel):
    detail: str


class Conflict(BaseModel):
    detail: str
    existing_id: int


ITEMS = {${sid}: {"id": ${sid}, "name": "${sname}", "price": ${sprice},
             "supplier": {"name": "${ssup}", "country": "${scountry}"}, "cost": ${scost}}}

app = FastAPI()

'''

_LIST = '''\
@app.get("/items", response_model=list[ItemOut])
def list_items():
    return [ITEMS[k] for k in sorted(ITEMS)]
'''

_GET_ONE = '''\
@app.get("/items/{item_id}", response_model=ItemOut,
         responses={${missing}: {"model": NotFound, "description": "${missing_desc}"}})
def get_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=${missing}, detail="item not found")
    return ITEMS[item_id]
'''

_CREATE_HEAD = '''\
@app.post("/items", response_model=ItemOut, status_code=${created},
          responses={${conflict}: {"model": Conflict, "description": "${conflict_desc}"}})
def create_item(item: ItemIn):
'''

_DUPLICATE = '''\
    for stored in ITEMS.values():
        if stored["name"] == item.name:
'''

_CREATE = _CREATE_HEAD + _DUPLICATE + '''\
            return JSONResponse(status_code=${conflict}, content={"detail": "duplicate name", "existing_id": stored["id"]})
    new_id = max(ITEMS) + 1
    ITEMS[new_id] = {"id": new_id, **item.model_dump(), "cost": 0.0}
    return ITEMS[new_id]
'''

TAIL = '''

def dig(value, *keys):
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


client = TestClient(app)
result = []
r = client.post("/items", json={"name": "${nname}", "price": ${nprice}, "supplier": {"name": "${nsup}", "country": "${ncountry}"}})
result.append([r.status_code, r.json()])
r = client.post("/items", json={"name": "${sname}", "price": 9.0, "supplier": {"name": "${ssup}", "country": "${scountry}"}})
result.append([r.status_code, r.json()])
r = client.get("/items/${unknown}")
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
post = spec["paths"]["/items"]["post"]["responses"]
result.append([sorted(post)])
result.append([dig(post, "${created}", "content", "application/json", "schema")])
result.append([post.get("${conflict}")])
get = spec["paths"]["/items"]["get"]["responses"]
result.append([sorted(get), dig(get, "200", "content", "application/json", "schema", "items")])
result.append([sorted(spec["components"]["schemas"])])
'''

REFERENCE = MODELS + _LIST + "\n\n" + _GET_ONE + "\n\n" + _CREATE + TAIL

PROBES = '''\
def _spec(client):
    return client.get("/openapi.json").json()


def probe_item_filtered(client):
    rows = []
    r = client.get("/items/${sid}")
    rows.append([r.status_code, r.json()])
    r = client.get("/items")
    rows.append([r.status_code, r.json()])
    return rows


def probe_create_then_conflict(client):
    rows = []
    r = client.post("/items", json={"name": "stool", "price": 15.0, "supplier": {"name": "Oak", "country": "DK"}})
    body = r.json()
    rows.append([r.status_code, body])
    r = client.post("/items", json={"name": "stool", "price": 1.0, "supplier": {"name": "X", "country": "FR"}})
    rows.append([r.status_code, r.json()])
    r = client.get("/items/" + str(body.get("id")))
    rows.append([r.status_code, r.json()])
    return rows


def probe_duplicate_name_is_exact(client):
    rows = []
    for name in ["${sname_upper}", "${sname} ", "${sname}"]:
        r = client.post("/items", json={"name": name, "price": 2.0, "supplier": {"name": "Y", "country": "NO"}})
        rows.append([name, r.status_code, r.json()])
    return rows


def probe_unknown_ids(client):
    rows = []
    for path in ["/items/0", "/items/-1", "/items/${unknown}"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    r = client.get("/items/abc")
    rows.append(["/items/abc", r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    return rows


def probe_post_documented(client):
    responses = _spec(client)["paths"]["/items"]["post"]["responses"]
    return [[sorted(responses), responses.get("${created}"), responses.get("${conflict}")]]


def probe_get_one_documented(client):
    responses = _spec(client)["paths"]["/items/{item_id}"]["get"]["responses"]
    return [[sorted(responses), responses.get("${missing}"),
             responses["200"]["content"]["application/json"]["schema"]]]


def probe_list_documented(client):
    responses = _spec(client)["paths"]["/items"]["get"]["responses"]
    return [[sorted(responses), responses["200"]["content"]["application/json"]["schema"]]]


def probe_component_shapes(client):
    schemas = _spec(client)["components"]["schemas"]
    return [[sorted(schemas), schemas["ItemOut"]["required"], schemas["ItemOut"]["properties"]["supplier"],
             schemas["Conflict"]["required"], schemas["ItemIn"]["required"],
             schemas["ItemIn"]["properties"]["supplier"]]]


def probe_invalid_body(client):
    rows = []
    for body in [{"name": "x", "price": "cheap", "supplier": {"name": "A", "country": "B"}},
                 {"name": "x", "price": 1.0}, {"name": "x", "price": 1.0, "supplier": {"name": "A"}}, {}]:
        r = client.post("/items", json=body)
        rows.append([r.status_code, [[d["type"], d["loc"]] for d in r.json()["detail"]]])
    return rows
'''

_SEEDS = [
    {"sid": 1, "sname": "lamp", "sprice": 12.5, "ssup": "Lumen", "scountry": "SE", "scost": 4.0, "unknown": 9},
    {"sid": 5, "sname": "chair", "sprice": 40.0, "ssup": "Birch", "scountry": "FI", "scost": 22.5, "unknown": 4},
    {"sid": 12, "sname": "rug", "sprice": 99.9, "ssup": "Weave", "scountry": "NL", "scost": 30.0, "unknown": 40},
]

_NEW = [
    {"nname": "desk", "nprice": 80.0, "nsup": "Oak", "ncountry": "DK"},
    {"nname": "shelf", "nprice": 35.25, "nsup": "Pine", "ncountry": "NO"},
]

_STATUSES = [
    {"created": 201, "missing": 404, "conflict": 409},
    {"created": 202, "missing": 404, "conflict": 400},
    {"created": 201, "missing": 410, "conflict": 409},
    {"created": 202, "missing": 410, "conflict": 409},
]

FAMILY = Family(
    id="openapi/response_models_components",
    title="response_model, status_code and documented error models in paths and components",
    category="openapi",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={**_SEEDS[0], **_NEW[0], **_STATUSES[0], "missing_desc": "Item not found",
              "conflict_desc": "Item name already used"},
    space={
        "seed": _SEEDS,
        "new": _NEW,
        "statuses": _STATUSES,
        "descriptions": [{"missing_desc": "Item not found", "conflict_desc": "Item name already used"},
                         {"missing_desc": "No such item", "conflict_desc": "Name taken"}],
    },
    derive=lambda p: {"sname_upper": p["sname"].capitalize(),
                      "other_missing": 410 if p["missing"] != 410 else 404},
    instances=40,
    requirements=(
        Requirement(
            "Responses never carry `cost`: the response models filter the stored records on "
            "`GET /items`, `GET /items/{item_id}` and `POST /items`; `GET /items` is "
            "documented as an array of `ItemOut` with only a `200`, and `GET /items/{item_id}` "
            "documents its `200` as `ItemOut`.",
            probes=("item_filtered", "list_documented", "get_one_documented"),
            traps=(
                Edit("list without a response model", "@app.get(\"/items\", response_model=list[ItemOut])",
                     "@app.get(\"/items\")"),
                Edit("cost stripped by hand instead of a response model", _GET_ONE, _GET_ONE.replace(
                    "response_model=ItemOut,\n        ", "").replace(
                    "return ITEMS[item_id]", 'return {k: v for k, v in ITEMS[item_id].items() if k != "cost"}')),
            ),
        ),
        Requirement(
            "`POST /items` answers ${created} with the new `ItemOut` (id one past the highest), and "
            "OpenAPI documents `${created}` (not 200) with a `$$ref` to `ItemOut`.",
            probes=("create_then_conflict", "post_documented"),
            traps=(
                Edit("success status set at runtime through Response (documented as 200)", _CREATE_HEAD,
                     _CREATE_HEAD.replace(" status_code=${created},", "").replace(
                         "def create_item(item: ItemIn):",
                         "def create_item(item: ItemIn, response: Response):\n"
                         "    response.status_code = ${created}")),
            ),
        ),
        Requirement(
            "A name already stored (exactly: case and spaces count) answers ${conflict} "
            '`{"detail": "duplicate name", "existing_id": <its id>}` and creates nothing; the '
            '${conflict} is documented with `Conflict` and `"${conflict_desc}"`.',
            probes=("create_then_conflict", "duplicate_name_is_exact", "post_documented"),
            traps=(
                Edit("conflict response not documented", ''',
          responses={${conflict}: {"model": Conflict, "description": "${conflict_desc}"}})''', ")"),
                Edit("conflict response documented without its model",
                     '{"model": Conflict, "description": "${conflict_desc}"}',
                     '{"description": "${conflict_desc}"}'),
                Edit("names compared case-insensitively and trimmed", _DUPLICATE,
                     _DUPLICATE.replace('stored["name"] == item.name',
                                        'stored["name"].lower() == item.name.strip().lower()')),
            ),
        ),
        Requirement(
            "An unknown id (0 and negatives included) answers ${missing} "
            '`{"detail": "item not found"}`, documented with `NotFound` and `"${missing_desc}"`; '
            "a non-integer id is FastAPI's 422.",
            probes=("unknown_ids", "get_one_documented"),
            traps=(
                Edit("not-found response not documented", ''',
         responses={${missing}: {"model": NotFound, "description": "${missing_desc}"}})''', ")"),
                Edit("not-found response documented without its model",
                     '{"model": NotFound, "description": "${missing_desc}"}',
                     '{"description": "${missing_desc}"}'),
                Edit("unknown id answers another status", "raise HTTPException(status_code=${missing},",
                     "raise HTTPException(status_code=${other_missing},"),
            ),
        ),
        Requirement(
            "`components.schemas` holds exactly the five models (nested `Supplier` as a `$$ref`) "
            "and FastAPI's validation schemas; invalid bodies are FastAPI's 422.",
            probes=("component_shapes", "invalid_body"),
            traps=(
                Edit("supplier typed as a plain dict in ItemOut", _ITEM_OUT,
                     _ITEM_OUT.replace("supplier: Supplier", "supplier: dict")),
            ),
        ),
    ),
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
