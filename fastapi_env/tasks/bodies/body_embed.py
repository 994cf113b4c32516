from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import Body, FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Item(BaseModel):
    name: str
    price: float


app = FastAPI()

'''

_GREET = '''\
@app.post("/greet")
def greet(name: Annotated[str, Body(embed=True)]):
    return {"hello": name}
'''

_ITEMS = '''\
@app.post("/items")
def create_wrapped(item: Annotated[Item, Body(embed=True)]):
    return item
'''

_RAW = '''\
@app.post("/items/raw")
def create_raw(item: Item):
    return item
'''

_RENAME = '''\
@app.post("/rename")
def rename(new_name: Annotated[str, Body()]):
    return {"renamed_to": new_name}
'''

_TAIL = '''

PEN = {"name": "pen", "price": 1.5}
REQUESTS = [
    ("/greet", {"name": "Ada"}),
    ("/greet", "Ada"),
    ("/items", {"item": PEN}),
    ("/items", PEN),
    ("/items/raw", PEN),
    ("/items/raw", {"item": PEN}),
    ("/rename", "Quill"),
    ("/rename", {"new_name": "Quill"}),
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.post(url, json=body)) for url, body in REQUESTS]
'''


def _app(greet=_GREET, items=_ITEMS, raw=_RAW, rename=_RENAME):
    return _HEAD + "\n\n".join([greet, items, raw, rename]) + _TAIL


TASK = Task(
    id="bodies/body_embed",
    title="Which JSON shape a body parameter expects: embedded or bare",
    category="bodies",
    difficulty="medium",
    prompt='''\
Build four `POST` routes that each take exactly one JSON body parameter, using the Pydantic model
`Item` (`name: str`, `price: float`) where a model is needed. The exact JSON shape each route
accepts matters; anything else gets FastAPI's standard 422 validation response.

- `POST /greet`: the body is an object with one key, `{"name": <string>}`. Returns
  `{"hello": <name>}`.
- `POST /items`: the body wraps the item under the key `item`:
  `{"item": {"name": <str>, "price": <number>}}`. Returns the item (`{"name": ..., "price": ...}`).
- `POST /items/raw`: the body is the item object itself, `{"name": <str>, "price": <number>}`.
  Returns the item.
- `POST /rename`: the whole body is a bare JSON string (e.g. `"Quill"`), read into a handler
  parameter named `new_name`. Returns `{"renamed_to": <the string>}`.

Then fill `result` with one row per request, in this order, each sent as
`client.post(url, json=body)`, where `PEN` is `{"name": "pen", "price": 1.5}`:
1. `/greet` with body `{"name": "Ada"}`
2. `/greet` with body `"Ada"`
3. `/items` with body `{"item": PEN}`
4. `/items` with body `PEN`
5. `/items/raw` with body `PEN`
6. `/items/raw` with body `{"item": PEN}`
7. `/rename` with body `"Quill"`
8. `/rename` with body `{"new_name": "Quill"}`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list)]`; for any other response,
`[status code (integer), the JSON body]`.
''',
    reference=_app(),
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_greet(client):
    rows = []
    for body in [{"name": "Lin", "extra": 1}, {"nom": "Lin"}, {"name": 5}]:
        rows.append(_row(client.post("/greet", json=body)))
    rows.append(_row(client.post("/greet?name=Lin")))
    return rows


def probe_items(client):
    rows = []
    for url, body in [
        ("/items", {"item": {"name": "cup", "price": 3}}),
        ("/items", {"item": {"name": "cup"}}),
        ("/items/raw", {"name": "cup", "price": "2.5"}),
        ("/items/raw", [{"name": "cup", "price": 2}]),
    ]:
        rows.append(_row(client.post(url, json=body)))
    return rows


def probe_rename(client):
    rows = []
    for body in ["", "x y", 7]:
        rows.append(_row(client.post("/rename", json=body)))
    return rows
''',
    traps={
        "greet declared with Body() but not embedded": _app(
            greet=_GREET.replace("Body(embed=True)", "Body()")
        ),
        "greet's name declared without Body() (a query parameter)": _app(
            greet=_GREET.replace("name: Annotated[str, Body(embed=True)]", "name: str")
        ),
        "items model not embedded": _app(
            items=_ITEMS.replace("item: Annotated[Item, Body(embed=True)]", "item: Item")
        ),
        "raw items embedded": _app(
            raw=_RAW.replace("item: Item", "item: Annotated[Item, Body(embed=True)]")
        ),
        "rename embedded under its parameter name": _app(
            rename=_RENAME.replace("Body()", "Body(embed=True)")
        ),
    },
    expected_rows=[
        [200, {"hello": "Ada"}],
        [422, [["missing", ["body", "name"]]]],
        [200, {"name": "pen", "price": 1.5}],
        [422, [["missing", ["body", "item"]]]],
        [200, {"name": "pen", "price": 1.5}],
        [422, [["missing", ["body", "name"]], ["missing", ["body", "price"]]]],
        [200, {"renamed_to": "Quill"}],
        [422, [["string_type", ["body"]]]],
    ],
)
