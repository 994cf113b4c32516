from fastapi_env.tasks import Edit, Family, Requirement

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
def greet(${greet_key}: Annotated[str, Body(embed=True)]):
    return {"hello": ${greet_key}}
'''

_ITEMS = '''\
@app.post("/items")
def create_wrapped(${wrap}: Annotated[Item, Body(embed=True)]):
    return ${wrap}
'''

_RAW = '''\
@app.post("/items/raw")
def create_raw(item: Item):
    return item
'''

_RENAME = '''\
@app.post("/rename")
def rename(${rename_param}: Annotated[str, Body()]):
    return {"renamed_to": ${rename_param}}
'''

_TAIL = '''

PEN = {"name": "${pen_name}", "price": ${pen_price}}
REQUESTS = [
    ("/greet", {"${greet_key}": "${greet_value}"}),
    ("/greet", "${greet_value}"),
    ("/items", {"${wrap}": PEN}),
    ("/items", PEN),
    ("/items/raw", PEN),
    ("/items/raw", {"${wrap}": PEN}),
    ("/rename", "${rename_value}"),
    ("/rename", {"${rename_param}": "${rename_value}"}),
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.post(url, json=body)) for url, body in REQUESTS]
'''

PROMPT = '''\
Build four `POST` routes that each take exactly one JSON body parameter, using the Pydantic model
`Item` (`name: str`, `price: float`) where a model is needed. The exact JSON shape each route
accepts matters; anything else gets FastAPI's standard 422 validation response.

- `POST /greet`: the body is an object with one key, `{"${greet_key}": <string>}`. Returns
  `{"hello": <${greet_key}>}`.
- `POST /items`: the body wraps the item under the key `${wrap}`:
  `{"${wrap}": {"name": <str>, "price": <number>}}`. Returns the item (`{"name": ..., "price": ...}`).
- `POST /items/raw`: the body is the item object itself, `{"name": <str>, "price": <number>}`.
  Returns the item.
- `POST /rename`: the whole body is a bare JSON string (e.g. `"${rename_value}"`), read into a handler
  parameter named `${rename_param}`. Returns `{"renamed_to": <the string>}`.

Then fill `result` with one row per request, in this order, each sent as
`client.post(url, json=body)`, where `PEN` is `{"name": "${pen_name}", "price": ${pen_price}}`:
1. `/greet` with body `{"${greet_key}": "${greet_value}"}`
2. `/greet` with body `"${greet_value}"`
3. `/items` with body `{"${wrap}": PEN}`
4. `/items` with body `PEN`
5. `/items/raw` with body `PEN`
6. `/items/raw` with body `{"${wrap}": PEN}`
7. `/rename` with body `"${rename_value}"`
8. `/rename` with body `{"${rename_param}": "${rename_value}"}`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list)]`; for any other response,
`[status code (integer), the JSON body]`.
'''

PROBES = '''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_greet(client):
    rows = []
    for body in [{"${greet_key}": "Lin", "extra": 1}, {"nom": "Lin"}, {"${greet_key}": 5}, {},
                 {"${greet_key}": ""}]:
        rows.append(_row(client.post("/greet", json=body)))
    rows.append(_row(client.post("/greet?${greet_key}=Lin")))
    return rows


def probe_items(client):
    rows = []
    for url, body in [
        ("/items", {"${wrap}": {"name": "cup", "price": 3}}),
        ("/items", {"${wrap}": {"name": "cup"}}),
        ("/items", {"${wrap}": {}}),
        ("/items/raw", {"name": "cup", "price": "2.5"}),
        ("/items/raw", [{"name": "cup", "price": 2}]),
        ("/items/raw", {}),
    ]:
        rows.append(_row(client.post(url, json=body)))
    return rows


def probe_rename(client):
    rows = []
    for body in ["", "x y", 7, {}]:
        rows.append(_row(client.post("/rename", json=body)))
    return rows
'''

FAMILY = Family(
    id="bodies/body_embed",
    title="Which JSON shape a body parameter expects: embedded or bare",
    category="bodies",
    difficulty="medium",
    prompt=PROMPT,
    reference=_HEAD + "\n\n".join([_GREET, _ITEMS, _RAW, _RENAME]) + _TAIL,
    probes=PROBES,
    original={"greet_key": "name", "greet_value": "Ada", "wrap": "item", "pen_name": "pen",
              "pen_price": 1.5, "rename_param": "new_name", "rename_value": "Quill"},
    space={
        "greet_key": ["name", "who", "person"],
        "greet": [{"greet_value": "Ada"}, {"greet_value": "Grace"}],
        "wrap": ["item", "product", "entry"],
        "pen": [{"pen_name": "pen", "pen_price": 1.5}, {"pen_name": "mug", "pen_price": 4.25},
                {"pen_name": "lamp", "pen_price": 30.0}],
        "rename": [{"rename_param": "new_name", "rename_value": "Quill"},
                   {"rename_param": "label", "rename_value": "Ink"},
                   {"rename_param": "alias", "rename_value": "Nib"}],
    },
    instances=60,
    requirements=(
        Requirement(
            '`POST /greet` reads its string from the embedded key `${greet_key}` of a JSON object '
            "(extra keys ignored, a missing key, a non-string, an empty object or a bare string "
            "is a 422), never from the query string.",
            probes=("greet",),
            traps=(
                Edit("greet declared with Body() but not embedded", "${greet_key}: Annotated[str, Body(embed=True)]",
                     "${greet_key}: Annotated[str, Body()]"),
                Edit("greet's key declared without Body() (a query parameter)",
                     "${greet_key}: Annotated[str, Body(embed=True)]", "${greet_key}: str"),
            ),
        ),
        Requirement(
            "`POST /items` takes the item wrapped under `${wrap}`; the bare item is a 422.",
            probes=("items",),
            traps=(Edit("items model not embedded", "${wrap}: Annotated[Item, Body(embed=True)]",
                        "${wrap}: Item"),),
        ),
        Requirement(
            "`POST /items/raw` takes the bare item (a wrapped one, a list or `{}` is a 422; a "
            "numeric string price is coerced).",
            probes=("items",),
            traps=(Edit("raw items embedded", "create_raw(item: Item)",
                        "create_raw(item: Annotated[Item, Body(embed=True)])"),),
        ),
        Requirement(
            "`POST /rename` takes the whole body as a bare string (an empty string is accepted; "
            "an object or a number is a 422).",
            probes=("rename",),
            traps=(Edit("rename embedded under its parameter name",
                        "${rename_param}: Annotated[str, Body()]",
                        "${rename_param}: Annotated[str, Body(embed=True)]"),),
        ),
    ),
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
