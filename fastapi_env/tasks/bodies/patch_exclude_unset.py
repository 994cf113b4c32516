from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

ITEMS = {
    "${a}": {"name": "${A}", "description": "A ${a}", "price": ${price_a}, "tax": 20.0, "tags": ["a"]},
    "${b}": {"name": "${B}", "description": None, "price": ${price_b}, "tax": ${tax}, "tags": []},
}


class ItemPatch(BaseModel):
    name: str | None = None
    description: str | None = None
    price: float | None = None
    tax: float = ${tax}
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
    ("PATCH", "/items/${a}", {"price": ${sent_price}}),
    ("PATCH", "/items/${a}", {"description": None, "tags": ["x", "y"]}),
    ("PATCH", "/items/${a}", {"tax": ${tax}}),
    ("GET", "/items/${a}", None),
    ("PATCH", "/items/${b}", {}),
    ("PATCH", "/items/${b}", {"price": None, "name": "${B}2"}),
    ("PATCH", "/items/${missing}", {"price": 1}),
    ("PATCH", "/items/${a}", {"tax": None}),
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.request(m, url, json=body)) for m, url, body in REQUESTS]
'''


_RIGHT = _PATCH.replace("DUMP_ARGS", "exclude_unset=True")


_SKIP_NONE_LOOP = '''
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
'''

_UNVALIDATED = '''
@app.patch("/items/{item_id}")
def patch_item(item_id: str, patch: dict):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    ITEMS[item_id] = {**ITEMS[item_id], **{k: v for k, v in patch.items() if k in ItemPatch.model_fields}}
    return ITEMS[item_id]
'''


FAMILY = Family(
    id="bodies/patch_exclude_unset",
    title="PATCH applies only the fields the client sent, explicit nulls included",
    category="bodies",
    difficulty="hard",
    prompt='''\
Build a partial-update API over this module-level in-memory store:

    ITEMS = {
        "${a}": {"name": "${A}", "description": "A ${a}", "price": ${price_a}, "tax": 20.0, "tags": ["a"]},
        "${b}": {"name": "${B}", "description": None, "price": ${price_b}, "tax": ${tax}, "tags": []},
    }

The request body of the update is validated with exactly this Pydantic model (keep the
defaults as written):

    class ItemPatch(BaseModel):
        name: str | None = None
        description: str | None = None
        price: float | None = None
        tax: float = ${tax}
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
1. `PATCH /items/${a}` with body `{"price": ${sent_price}}`
2. `PATCH /items/${a}` with body `{"description": null, "tags": ["x", "y"]}`
3. `PATCH /items/${a}` with body `{"tax": ${tax}}`
4. `GET /items/${a}`
5. `PATCH /items/${b}` with body `{}`
6. `PATCH /items/${b}` with body `{"price": null, "name": "${B}2"}`
7. `PATCH /items/${missing}` with body `{"price": 1}`
8. `PATCH /items/${a}` with body `{"tax": null}`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list)]`; for any other response,
`[status code (integer), the JSON body]`.
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_clearing_fields(client):
    rows = [_row(client.patch("/items/${a}", json={"name": None, "tags": []}))]
    rows.append(_row(client.get("/items/${a}")))
    rows.append(_row(client.patch("/items/${a}", json={"name": "Foo again", "colour": "red"})))
    return rows


def probe_defaults_are_not_applied(client):
    rows = [_row(client.patch("/items/${b}", json={"description": "now set", "tax": ${other_tax}}))]
    rows.append(_row(client.patch("/items/${b}", json={"tags": ["z"]})))
    rows.append(_row(client.patch("/items/${b}", json={"tax": ${tax}, "description": None})))
    return rows


def probe_unknown_ids(client):
    return [_row(client.get("/items/${missing}")), _row(client.patch("/items/${missing}", json={})),
            _row(client.get("/items/${missing}"))]


def probe_invalid_patches_change_nothing(client):
    rows = [_row(client.patch("/items/${a}", json={"price": "abc", "name": "Bad"}))]
    rows.append(_row(client.patch("/items/${a}", json={"tags": "solo"})))
    rows.append(_row(client.patch("/items/${a}")))
    rows.append(_row(client.get("/items/${a}")))
    return rows
''',
    original={"a": "foo", "A": "Foo", "b": "bar", "B": "Bar", "missing": "baz", "price_a": 50.5,
              "price_b": 62.0, "tax": 10.5, "sent_price": 3},
    space={
        "a": [{"a": "foo", "A": "Foo", "b": "bar", "B": "Bar", "missing": "baz"},
              {"a": "pen", "A": "Pen", "b": "ink", "B": "Ink", "missing": "cap"},
              {"a": "lamp", "A": "Lamp", "b": "desk", "B": "Desk", "missing": "sofa"}],
        "price_a": [{"price_a": 50.5, "price_b": 62.0}, {"price_a": 9.0, "price_b": 1.25}],
        "tax": [10.5, 5.0, 0.0, 7.25],
        "sent_price": [3, 40],
    },
    derive=lambda p: {"other_tax": 1.0 if p["tax"] != 1.0 else 2.0},
    instances=48,
    requirements=(
        Requirement(
            "A PATCH changes exactly the fields present in the body; an absent field keeps its "
            "stored value even where `ItemPatch` has a default, and the change persists for later "
            "requests.",
            probes=("defaults_are_not_applied", "clearing_fields"),
            traps=(Edit("model_dump() without exclude_unset", "patch.model_dump(exclude_unset=True)",
                        "patch.model_dump()"),),
        ),
        Requirement(
            "A field sent as an explicit `null` becomes `null`.",
            probes=("clearing_fields",),
            traps=(
                Edit("model_dump(exclude_none=True)", "patch.model_dump(exclude_unset=True)",
                     "patch.model_dump(exclude_none=True)"),
                Edit("loop copying every non-None field", _RIGHT, _SKIP_NONE_LOOP),
            ),
        ),
        Requirement(
            "A field sent with the value of its default (`tax` ${tax}) is applied.",
            probes=("defaults_are_not_applied",),
            traps=(Edit("model_dump(exclude_defaults=True)", "patch.model_dump(exclude_unset=True)",
                        "patch.model_dump(exclude_defaults=True)"),),
        ),
        Requirement(
            "An unknown id answers 404 `{\"detail\": \"item not found\"}` on GET and on PATCH "
            "(even with an empty body), and creates nothing.",
            probes=("unknown_ids",),
            traps=(
                Edit("GET of an unknown id answers null",
                     'def read_item(item_id: str):\n    if item_id not in ITEMS:\n'
                     '        raise HTTPException(status_code=404, detail="item not found")\n',
                     'def read_item(item_id: str):\n'),
                Edit("PATCH of an unknown id creates it",
                     '    if item_id not in ITEMS:\n        raise HTTPException(status_code=404, detail="item not found")\n'
                     '    ITEMS[item_id] = {**ITEMS[item_id],',
                     '    ITEMS[item_id] = {**ITEMS.get(item_id, {}),'),
            ),
        ),
        Requirement(
            "The body is validated as `ItemPatch` (a wrong type or a missing body is a 422) and an "
            "invalid PATCH changes nothing; unknown keys are ignored.",
            probes=("invalid_patches_change_nothing", "clearing_fields"),
            traps=(Edit("body taken as an unvalidated dict", _RIGHT, _UNVALIDATED),),
        ),
    ),
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
