from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import Body, FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Item(BaseModel):
    name: str
    price: float


class User(BaseModel):
    username: str


class Note(BaseModel):
    text: str


app = FastAPI()

'''

_UPDATE = '''\
@app.put("/items/{item_id}")
def update_item(
    item_id: int,
    item: Item,
    user: User,
    importance: Annotated[int, Body(gt=${gt})],
    q: str | None = None,
):
    return {"item_id": item_id, "item": item, "user": user, "importance": importance, "q": q}
'''

_NOTES = '''\
@app.post("/notes")
def create_note(note: Note, priority: Annotated[int, Body()]):
    return {"text": note.text, "priority": priority}
'''

_TAIL = '''

PEN = {"name": "${pen}", "price": ${price}}
ADA = {"username": "${user}"}
REQUESTS = [
    ("PUT", "/items/${item_id}?q=${q}", {"item": PEN, "user": ADA, "importance": ${ok}}),
    ("PUT", "/items/${item_id}", {"item": PEN, "user": ADA, "importance": ${gt}}),
    ("PUT", "/items/${item_id}", {"item": PEN, "user": ADA}),
    ("PUT", "/items/${item_id}", {"name": "${pen}", "price": ${price}, "username": "${user}", "importance": ${ok}}),
    ("PUT", "/items/${item_id}?importance=${ok}", {"item": PEN, "user": ADA}),
    ("POST", "/notes", {"note": {"text": "${text}"}, "priority": ${priority}}),
    ("POST", "/notes", {"text": "${text}", "priority": ${priority}}),
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.request(m, url, json=body)) for m, url, body in REQUESTS]
'''

_UPDATE_QUERY_IMPORTANCE = '''\
@app.put("/items/{item_id}")
def update_item(
    item_id: int,
    item: Item,
    user: User,
    importance: int,
    q: str | None = None,
):
    return {"item_id": item_id, "item": item, "user": user, "importance": importance, "q": q}
'''

_UPDATE_FLAT = '''\
from pydantic import Field


class Payload(Item, User):
    importance: int = Field(gt=${gt})


@app.put("/items/{item_id}")
def update_item(item_id: int, payload: Payload, q: str | None = None):
    item = Item(name=payload.name, price=payload.price)
    user = User(username=payload.username)
    return {"item_id": item_id, "item": item, "user": user,
            "importance": payload.importance, "q": q}
'''

_UPDATE_NO_CONSTRAINT = _UPDATE.replace("Body(gt=${gt})", "Body()")

_NOTES_QUERY_PRIORITY = '''\
@app.post("/notes")
def create_note(note: Note, priority: int):
    return {"text": note.text, "priority": priority}
'''

_NOTES_FLAT = '''\
class NoteIn(BaseModel):
    text: str
    priority: int


@app.post("/notes")
def create_note(note: NoteIn):
    return {"text": note.text, "priority": note.priority}
'''


def _app(update=_UPDATE, notes=_NOTES):
    return _HEAD + update + "\n\n" + notes + _TAIL


FAMILY = Family(
    id="bodies/multiple_body_params",
    title="Several body parameters plus a singular Body() value share one JSON object",
    category="bodies",
    difficulty="medium",
    prompt='''\
Build two routes whose JSON bodies combine several values. Models: `Item` (`name: str`,
`price: float`), `User` (`username: str`), `Note` (`text: str`). All validation is FastAPI's own
(standard 422 responses).

- `PUT /items/{item_id}` (`item_id` an integer path parameter, `q` an optional string query
  parameter, default `None`). The JSON body is
  `{"item": {<Item fields>}, "user": {<User fields>}, "importance": <integer>}`; `importance` is
  required, must be greater than ${gt} (`gt=${gt}`), and is read only from the body (a query parameter of
  that name plays no part). Declare the handler's parameters in this order: `item_id`, `item`,
  `user`, `importance`, `q`. It returns
  `{"item_id": <int>, "item": <Item>, "user": <User>, "importance": <int>, "q": <str or null>}`.
- `POST /notes`: the JSON body is `{"note": {"text": <str>}, "priority": <integer>}`, both keys
  required (declare `note` first, then `priority`). It returns
  `{"text": <the note's text>, "priority": <int>}`.

Then fill `result` with one row per request, in this order, each sent as
`client.request(method, url, json=body)`, where `PEN` is `{"name": "${pen}", "price": ${price}}` and `ADA`
is `{"username": "${user}"}`:
1. `PUT /items/${item_id}?q=${q}` with body `{"item": PEN, "user": ADA, "importance": ${ok}}`
2. `PUT /items/${item_id}` with body `{"item": PEN, "user": ADA, "importance": ${gt}}`
3. `PUT /items/${item_id}` with body `{"item": PEN, "user": ADA}`
4. `PUT /items/${item_id}` with body `{"name": "${pen}", "price": ${price}, "username": "${user}", "importance": ${ok}}`
5. `PUT /items/${item_id}?importance=${ok}` with body `{"item": PEN, "user": ADA}`
6. `POST /notes` with body `{"note": {"text": "${text}"}, "priority": ${priority}}`
7. `POST /notes` with body `{"text": "${text}", "priority": ${priority}}`

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


def probe_update(client):
    rows = []
    for url, body in [
        ("/items/9", {"importance": "${ok}", "user": {"username": "bo"}, "item": {"name": "ink", "price": 2}}),
        ("/items/9?q=", {"item": {"name": "ink"}, "user": {}, "importance": ${below}}),
        ("/items/x", {"item": {"name": "ink", "price": 2}, "user": {"username": "bo"}, "importance": ${ok}}),
        ("/items/9?q=a&importance=${gt}", {"item": {"name": "ink", "price": 2}, "user": {"username": "bo"},
                                       "importance": ${ok}}),
    ]:
        rows.append(_row(client.put(url, json=body)))
    return rows


def probe_importance_bound(client):
    rows = []
    base = {"item": {"name": "ink", "price": 2}, "user": {"username": "bo"}}
    for value in [${gt}, ${just_above}, ${below}]:
        rows.append(_row(client.put("/items/1", json=base | {"importance": value})))
    return rows


def probe_notes(client):
    rows = []
    for url, body in [
        ("/notes", {"priority": 0, "note": {"text": ""}}),
        ("/notes?priority=1", {"note": {"text": "q"}}),
        ("/notes", {"note": "plain", "priority": "high"}),
    ]:
        rows.append(_row(client.post(url, json=body)))
    return rows
''',
    original={"gt": 0, "pen": "pen", "price": 1.5, "user": "ada", "item_id": 5, "q": "fast",
              "text": "hi", "priority": 2},
    space={
        "gt": [0, 1, 2, 5, 10],
        "pen": [{"pen": "pen", "price": 1.5}, {"pen": "ink", "price": 0.25}],
        "user": ["ada", "lin"],
        "item_id": [{"item_id": 5, "q": "fast"}, {"item_id": 12, "q": "slow"}],
        "text": [{"text": "hi", "priority": 2}, {"text": "memo", "priority": -4}],
    },
    derive=lambda p: {"ok": p["gt"] + 3, "just_above": p["gt"] + 1, "below": p["gt"] - 1},
    instances=60,
    requirements=(
        Requirement(
            "`importance` is read only from the body (a query parameter of that name plays no "
            "part).",
            probes=("update",),
            traps=(Edit("importance as a plain int (a query parameter)", _UPDATE, _UPDATE_QUERY_IMPORTANCE),),
        ),
        Requirement(
            "The body nests the item under `item` and the user under `user` (a flat body is a "
            "422 per missing key).",
            probes=("update",),
            traps=(Edit("item and user fields flattened into one model", _UPDATE, _UPDATE_FLAT),),
        ),
        Requirement(
            "`importance` must be greater than ${gt}: ${gt} and below are a 422 "
            "`greater_than`, ${just_above} is accepted.",
            probes=("importance_bound", "update"),
            traps=(
                Edit("importance without the gt constraint", "Body(gt=${gt})", "Body()"),
                Edit("importance bound inclusive (ge)", "Body(gt=${gt})", "Body(ge=${gt})"),
            ),
        ),
        Requirement(
            "`priority` is read from the body next to the embedded `note` (a query `priority` "
            "plays no part).",
            probes=("notes",),
            traps=(
                Edit("priority as a plain int (a query parameter)", _NOTES, _NOTES_QUERY_PRIORITY),
                Edit("note fields and priority flattened into one model", _NOTES, _NOTES_FLAT),
            ),
        ),
    ),
    expected_rows=[
        [200, {"item_id": 5, "item": {"name": "pen", "price": 1.5}, "user": {"username": "ada"},
               "importance": 3, "q": "fast"}],
        [422, [["greater_than", ["body", "importance"]]]],
        [422, [["missing", ["body", "importance"]]]],
        [422, [["missing", ["body", "item"]], ["missing", ["body", "user"]]]],
        [422, [["missing", ["body", "importance"]]]],
        [200, {"text": "hi", "priority": 2}],
        [422, [["missing", ["body", "note"]]]],
    ],
)
