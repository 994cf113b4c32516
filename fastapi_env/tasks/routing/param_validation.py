from fastapi_env.tasks import Task

_HEAD = '''\
from enum import Enum
from typing import Annotated, Literal

from fastapi import FastAPI, HTTPException, Path, Query
from fastapi.testclient import TestClient


class Section(str, Enum):
    books = "books"
    music = "music"
    films = "films"


app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    "/catalog/books/42?currency=EUR",
    "/catalog/music/7?currency=USD&limit=50&tag=jazz",
    "/catalog/games/42?currency=EUR",
    "/catalog/films/0?currency=EUR",
    "/catalog/films/5",
    "/catalog/books/10000?currency=usd&limit=0",
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e.get("ctx")] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.get(url)) for url in REQUESTS]
'''

_RIGHT = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=9999)],
    currency: Annotated[str, Query(min_length=3, max_length=3, pattern="^[A-Z]+$")],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    tag: str | None = None,
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_MANUAL_RANGE = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: int,
    currency: Annotated[str, Query(min_length=3, max_length=3, pattern="^[A-Z]+$")],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    tag: str | None = None,
):
    if not 1 <= item_id <= 9999:
        raise HTTPException(status_code=400, detail="item_id out of range")
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_LITERAL = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Literal["books", "music", "films"],
    item_id: Annotated[int, Path(ge=1, le=9999)],
    currency: Annotated[str, Query(min_length=3, max_length=3, pattern="^[A-Z]+$")],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    tag: str | None = None,
):
    return {"section": section, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_GT_ZERO = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=9999)],
    currency: Annotated[str, Query(min_length=3, max_length=3, pattern="^[A-Z]+$")],
    limit: Annotated[int, Query(gt=0, le=50)] = 10,
    tag: str | None = None,
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_TAG_NO_DEFAULT = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=9999)],
    currency: Annotated[str, Query(min_length=3, max_length=3, pattern="^[A-Z]+$")],
    tag: str | None,
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_PATTERN_ONLY = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=9999)],
    currency: Annotated[str, Query(pattern="^[A-Z]{3}$")],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    tag: str | None = None,
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

TASK = Task(
    id="routing/param_validation",
    title="Path/Query constraints, an Enum path parameter and the exact 422 details",
    category="routing",
    difficulty="hard",
    prompt='''\
Build a catalogue lookup with one route, `GET /catalog/{section}/{item_id}`. All validation is
FastAPI's own (declared on the parameters), so every invalid request is a standard 422 response.
Declare the handler's parameters in exactly this order:

1. `section`: path parameter typed with a `str` Enum named `Section` whose members are, in this
   order, `books = "books"`, `music = "music"`, `films = "films"`.
2. `item_id`: integer path parameter declared with `Path(ge=1, le=9999)`.
3. `currency`: required string query parameter declared with
   `Query(min_length=3, max_length=3, pattern="^[A-Z]+$")`.
4. `limit`: optional integer query parameter declared with `Query(ge=1, le=50)`, default `10`.
5. `tag`: optional string query parameter, default `None` (when it is sent, use the value exactly
   as received).

A valid request answers 200 with
`{"section": <the section's value>, "item_id": <int>, "currency": <str>, "limit": <int>, "tag": <str or null>}`.

Then fill `result` with one row per request, in this order:
1. `GET /catalog/books/42?currency=EUR`
2. `GET /catalog/music/7?currency=USD&limit=50&tag=jazz`
3. `GET /catalog/games/42?currency=EUR`
4. `GET /catalog/films/0?currency=EUR`
5. `GET /catalog/films/5`
6. `GET /catalog/books/10000?currency=usd&limit=0`

Row format: for a 200 response, `[200, the JSON body (object)]`. For a 422 response,
`[422, errors]` where `errors` is a list with one entry per element of the body's `detail` list,
in the order FastAPI reports them, each entry `[type (string), loc (list), ctx]` where `ctx` is
the element's `ctx` object, or `null` when the element has no `ctx` key.
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e.get("ctx")] for e in body["detail"]]]
    return [response.status_code, body]


def probe_currency_rules(client):
    urls = [
        "/catalog/films/5?currency=US",
        "/catalog/films/5?currency=EURO",
        "/catalog/films/5?currency=eur",
        "/catalog/films/5?currency=E1R",
        "/catalog/films/5?currency=GBP",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_limits_and_ids(client):
    urls = [
        "/catalog/music/9999?currency=GBP&limit=51",
        "/catalog/music/9999?currency=GBP&limit=1",
        "/catalog/music/1?currency=GBP&limit=0",
        "/catalog/books/abc?currency=EUR",
        "/catalog/books/-1?currency=EUR",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_sections_and_tags(client):
    urls = [
        "/catalog/Books/1?currency=EUR",
        "/catalog/films/1?currency=EUR&tag=",
        "/catalog/films/1?currency=EUR&tag=Noir%20Classics",
        "/catalog/games/x?limit=z",
    ]
    return [_row(client.get(u)) for u in urls]
''',
    traps={
        "range check by hand with a 400": _HEAD + _MANUAL_RANGE + _TAIL,
        "Literal instead of the Section enum": _HEAD + _LITERAL + _TAIL,
        "limit declared with gt=0 instead of ge=1": _HEAD + _GT_ZERO + _TAIL,
        "optional tag without a default (still required)": _HEAD + _TAG_NO_DEFAULT + _TAIL,
        "currency checked by a pattern only": _HEAD + _PATTERN_ONLY + _TAIL,
    },
    expected_rows=[
        [200, {"section": "books", "item_id": 42, "currency": "EUR", "limit": 10, "tag": None}],
        [200, {"section": "music", "item_id": 7, "currency": "USD", "limit": 50, "tag": "jazz"}],
        [422, [["enum", ["path", "section"], {"expected": "'books', 'music' or 'films'"}]]],
        [422, [["greater_than_equal", ["path", "item_id"], {"ge": 1}]]],
        [422, [["missing", ["query", "currency"], None]]],
        [422, [
            ["less_than_equal", ["path", "item_id"], {"le": 9999}],
            ["string_pattern_mismatch", ["query", "currency"], {"pattern": "^[A-Z]+$"}],
            ["greater_than_equal", ["query", "limit"], {"ge": 1}],
        ]],
    ],
)
