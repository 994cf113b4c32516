from fastapi_env.tasks import Task

_HEAD = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

ITEMS = {
    "foo": {"name": "Foo", "description": "A foo", "price": 50.5, "tax": 20.0, "tags": ["a"]},
    "bar": {"name": "Bar", "description": None, "price": 62.0, "tax": 10.5, "tags": []},
}


class ItemPatch(BaseModel):
    name: str | None = None
    description: str | None = None
    price: float | None = None
    tax: float = 10.5
    tags: list[str] = []


app = FastAPI()


@app.get("/items/{item_id}")
def read_item(item_id: str):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return ITEMS[item_id]

'''

_PATCH = '''
@app.patch("/items/{item_id}")
def patch_item(item_id: str, patch: ItemPatch):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    ITEMS[item_id] = {**ITEMS[item_id], **patch.model_dump(DUMP_ARGS)}
    return ITEMS[item_id]
'''

_TAIL = '''

REQUESTS = [
    ("PATCH", "/items/foo", {"price": 3}),
    ("PATCH", "/items/foo", {"description": None, "tags": ["x", "y"]}),
    ("PATCH", "/items/foo", {"tax": 10.5}),
    ("GET", "/items/foo", None),
    ("PATCH", "/items/bar", {}),
    ("PATCH", "/items/bar", {"price": None, "name": "Bar2"}),
    ("PATCH", "/items/baz", {"price": 1}),
    ("PATCH", "/items/foo", {"tax": None}),
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.request(m, url, json=body)) for m, url, body in REQUESTS]
'''


def _app(dump_args: str) -> str:
    return _HEAD + _PATCH.replace("DUMP_ARGS", dump_args) + _TAIL


_SKIP_NONE_LOOP = _HEAD + '''
@app.patch("/items/{item_id}")
def patch_item(item_id: str, patch: ItemPatch):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    stored = dict(ITEMS[item_id])
    for field, value in patch:
        if value is not None:
            stored[field] = value
    ITEMS[item_id] = stored
    return stored
''' + _TAIL

TASK = Task(
    id="bodies/patch_exclude_unset",
    title="PATCH applies only the fields the client sent, explicit nulls included",
    category="bodies",
    difficulty="hard",
    prompt='''\
Build a partial-update API over this module-level in-memory store:

    ITEMS = {
        "foo": {"name": "Foo", "description": "A foo", "price": 50.5, "tax": 20.0, "tags": ["a"]},
        "bar": {"name": "Bar", "description": None, "price": 62.0, "tax": 10.5, "tags": []},
    }

The request body of the update is validated with exactly this Pydantic model (keep the
defaults as written):

    class ItemPatch(BaseModel):
        name: str | None = None
        description: str | None = None
        price: float | None = None
        tax: float = 10.5
        tags: list[str] = []

- `GET /items/{item_id}` returns the stored record (all five keys), or 404
  `{"detail": "item not found"}`.
- `PATCH /items/{item_id}` takes a required JSON object body validated as `ItemPatch` (standard 422
  on invalid input; keys that are not fields of `ItemPatch` are ignored). An unknown id answers 404
  `{"detail": "item not found"}`. Otherwise it changes exactly the fields whose keys are present
  in the request body, to the (validated) values sent; a field sent as an explicit `null` becomes
  `null`; a field whose key is absent keeps its stored value, whatever the model's default is.
  The stored record is updated and returned in full (all five keys).

Then fill `result` with one row per request, in this order (the store's state carries from one
request to the next), each sent as `client.request(method, url, json=body)` (`body` is `None` for
the GET):
1. `PATCH /items/foo` with body `{"price": 3}`
2. `PATCH /items/foo` with body `{"description": null, "tags": ["x", "y"]}`
3. `PATCH /items/foo` with body `{"tax": 10.5}`
4. `GET /items/foo`
5. `PATCH /items/bar` with body `{}`
6. `PATCH /items/bar` with body `{"price": null, "name": "Bar2"}`
7. `PATCH /items/baz` with body `{"price": 1}`
8. `PATCH /items/foo` with body `{"tax": null}`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list)]`; for any other response,
`[status code (integer), the JSON body]`.
''',
    reference=_app("exclude_unset=True"),
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_clearing_fields(client):
    rows = [_row(client.patch("/items/foo", json={"name": None, "tags": []}))]
    rows.append(_row(client.get("/items/foo")))
    rows.append(_row(client.patch("/items/foo", json={"name": "Foo again", "colour": "red"})))
    return rows


def probe_defaults_are_not_applied(client):
    rows = [_row(client.patch("/items/bar", json={"description": "now set", "tax": 0}))]
    rows.append(_row(client.patch("/items/bar", json={"tags": ["z"]})))
    rows.append(_row(client.patch("/items/bar", json={"tax": 10.5, "description": None})))
    return rows


def probe_invalid_patches_change_nothing(client):
    rows = [_row(client.patch("/items/foo", json={"price": "abc", "name": "Bad"}))]
    rows.append(_row(client.patch("/items/foo", json={"tags": "solo"})))
    rows.append(_row(client.patch("/items/foo")))
    rows.append(_row(client.get("/items/foo")))
    return rows
''',
    traps={
        "model_dump() without exclude_unset": _app(""),
        "model_dump(exclude_none=True)": _app("exclude_none=True"),
        "model_dump(exclude_defaults=True)": _app("exclude_defaults=True"),
        "loop copying every non-None field": _SKIP_NONE_LOOP,
    },
    expected_rows=[
        [200, {"name": "Foo", "description": "A foo", "price": 3.0, "tax": 20.0, "tags": ["a"]}],
        [200, {"name": "Foo", "description": None, "price": 3.0, "tax": 20.0, "tags": ["x", "y"]}],
        [200, {"name": "Foo", "description": None, "price": 3.0, "tax": 10.5, "tags": ["x", "y"]}],
        [200, {"name": "Foo", "description": None, "price": 3.0, "tax": 10.5, "tags": ["x", "y"]}],
        [200, {"name": "Bar", "description": None, "price": 62.0, "tax": 10.5, "tags": []}],
        [200, {"name": "Bar2", "description": None, "price": None, "tax": 10.5, "tags": []}],
        [404, {"detail": "item not found"}],
        [422, [["float_type", ["body", "tax"]]]],
    ],
)
