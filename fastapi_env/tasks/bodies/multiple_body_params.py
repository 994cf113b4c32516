from fastapi_env.tasks import Task

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
    importance: Annotated[int, Body(gt=0)],
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

PEN = {"name": "pen", "price": 1.5}
ADA = {"username": "ada"}
REQUESTS = [
    ("PUT", "/items/5?q=fast", {"item": PEN, "user": ADA, "importance": 3}),
    ("PUT", "/items/5", {"item": PEN, "user": ADA, "importance": 0}),
    ("PUT", "/items/5", {"item": PEN, "user": ADA}),
    ("PUT", "/items/5", {"name": "pen", "price": 1.5, "username": "ada", "importance": 3}),
    ("PUT", "/items/5?importance=3", {"item": PEN, "user": ADA}),
    ("POST", "/notes", {"note": {"text": "hi"}, "priority": 2}),
    ("POST", "/notes", {"text": "hi", "priority": 2}),
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
    importance: int = Field(gt=0)


@app.put("/items/{item_id}")
def update_item(item_id: int, payload: Payload, q: str | None = None):
    item = Item(name=payload.name, price=payload.price)
    user = User(username=payload.username)
    return {"item_id": item_id, "item": item, "user": user,
            "importance": payload.importance, "q": q}
'''

_UPDATE_NO_CONSTRAINT = _UPDATE.replace("Body(gt=0)", "Body()")

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


TASK = Task(
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
  required, must be greater than 0 (`gt=0`), and is read only from the body (a query parameter of
  that name plays no part). Declare the handler's parameters in this order: `item_id`, `item`,
  `user`, `importance`, `q`. It returns
  `{"item_id": <int>, "item": <Item>, "user": <User>, "importance": <int>, "q": <str or null>}`.
- `POST /notes`: the JSON body is `{"note": {"text": <str>}, "priority": <integer>}`, both keys
  required (declare `note` first, then `priority`). It returns
  `{"text": <the note's text>, "priority": <int>}`.

Then fill `result` with one row per request, in this order, each sent as
`client.request(method, url, json=body)`, where `PEN` is `{"name": "pen", "price": 1.5}` and `ADA`
is `{"username": "ada"}`:
1. `PUT /items/5?q=fast` with body `{"item": PEN, "user": ADA, "importance": 3}`
2. `PUT /items/5` with body `{"item": PEN, "user": ADA, "importance": 0}`
3. `PUT /items/5` with body `{"item": PEN, "user": ADA}`
4. `PUT /items/5` with body `{"name": "pen", "price": 1.5, "username": "ada", "importance": 3}`
5. `PUT /items/5?importance=3` with body `{"item": PEN, "user": ADA}`
6. `POST /notes` with body `{"note": {"text": "hi"}, "priority": 2}`
7. `POST /notes` with body `{"text": "hi", "priority": 2}`

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
        ("/items/9", {"importance": "4", "user": {"username": "bo"}, "item": {"name": "ink", "price": 2}}),
        ("/items/9?q=", {"item": {"name": "ink"}, "user": {}, "importance": -1}),
        ("/items/x", {"item": {"name": "ink", "price": 2}, "user": {"username": "bo"}, "importance": 1}),
        ("/items/9?q=a&importance=0", {"item": {"name": "ink", "price": 2}, "user": {"username": "bo"},
                                       "importance": 1}),
    ]:
        rows.append(_row(client.put(url, json=body)))
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
    traps={
        "importance as a plain int (a query parameter)": _app(update=_UPDATE_QUERY_IMPORTANCE),
        "item and user fields flattened into one model": _app(update=_UPDATE_FLAT),
        "importance without the gt=0 constraint": _app(update=_UPDATE_NO_CONSTRAINT),
        "priority as a plain int (a query parameter)": _app(notes=_NOTES_QUERY_PRIORITY),
        "note fields and priority flattened into one model": _app(notes=_NOTES_FLAT),
    },
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
