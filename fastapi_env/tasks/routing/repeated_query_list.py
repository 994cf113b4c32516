from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    "/search?tag=red&tag=blue&id=3&id=1&sort=price&fields=name,price",
    "/search",
    "/search?tag=a,b&fields=a,,b",
    "/search?sort=price&sort=date",
    "/search?id=1&id=x&id=3",
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["input"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.get(url)) for url in REQUESTS]
'''

_RIGHT = '''\
@app.get("/search")
def search(
    tag: Annotated[list[str] | None, Query()] = None,
    id: Annotated[list[int], Query()] = [],
    sort: Annotated[list[str], Query()] = [],
    fields: str = "",
):
    if len(sort) > 1:
        raise HTTPException(status_code=400, detail="sort given more than once")
    return {
        "tags": tag,
        "ids": id,
        "sort": sort[0] if sort else "relevance",
        "fields": [f for f in fields.split(",") if f],
    }
'''

_TAG_NO_QUERY = '''\
@app.get("/search")
def search(
    tag: list[str] | None = None,
    id: Annotated[list[int], Query()] = [],
    sort: Annotated[list[str], Query()] = [],
    fields: str = "",
):
    if len(sort) > 1:
        raise HTTPException(status_code=400, detail="sort given more than once")
    return {
        "tags": tag,
        "ids": id,
        "sort": sort[0] if sort else "relevance",
        "fields": [f for f in fields.split(",") if f],
    }
'''

_SCALAR_SORT = '''\
@app.get("/search")
def search(
    tag: Annotated[list[str] | None, Query()] = None,
    id: Annotated[list[int], Query()] = [],
    sort: str = "relevance",
    fields: str = "",
):
    return {
        "tags": tag,
        "ids": id,
        "sort": sort,
        "fields": [f for f in fields.split(",") if f],
    }
'''

_LIST_FIELDS = '''\
@app.get("/search")
def search(
    tag: Annotated[list[str] | None, Query()] = None,
    id: Annotated[list[int], Query()] = [],
    sort: Annotated[list[str], Query()] = [],
    fields: Annotated[list[str], Query()] = [],
):
    if len(sort) > 1:
        raise HTTPException(status_code=400, detail="sort given more than once")
    return {
        "tags": tag,
        "ids": id,
        "sort": sort[0] if sort else "relevance",
        "fields": [f for f in fields if f],
    }
'''

_IDS_AS_STRINGS = '''\
@app.get("/search")
def search(
    tag: Annotated[list[str] | None, Query()] = None,
    id: Annotated[list[str], Query()] = [],
    sort: Annotated[list[str], Query()] = [],
    fields: str = "",
):
    if len(sort) > 1:
        raise HTTPException(status_code=400, detail="sort given more than once")
    return {
        "tags": tag,
        "ids": [int(i) for i in id if i.lstrip("-").isdigit()],
        "sort": sort[0] if sort else "relevance",
        "fields": [f for f in fields.split(",") if f],
    }
'''

_SPLIT_TAGS = '''\
@app.get("/search")
def search(
    tag: Annotated[list[str] | None, Query()] = None,
    id: Annotated[list[int], Query()] = [],
    sort: Annotated[list[str], Query()] = [],
    fields: str = "",
):
    if len(sort) > 1:
        raise HTTPException(status_code=400, detail="sort given more than once")
    tags = None if tag is None else [p for t in tag for p in t.split(",")]
    return {
        "tags": tags,
        "ids": id,
        "sort": sort[0] if sort else "relevance",
        "fields": [f for f in fields.split(",") if f],
    }
'''

TASK = Task(
    id="routing/repeated_query_list",
    title="Repeated query keys: lists need Query(), scalars keep the last value",
    category="routing",
    difficulty="hard",
    prompt='''\
Build a search endpoint, `GET /search`, with four query parameters. Parameter validation is
FastAPI's own (standard 422 responses) and happens before the handler's own checks.

- `tag`: may be repeated (`?tag=red&tag=blue`). Every occurrence is one value, kept exactly as
  sent (a comma inside a value is not a separator), in the order sent. When no `tag` is sent
  the value is `null`.
- `id`: may be repeated; every occurrence must be an integer (standard 422 otherwise). When no
  `id` is sent the value is an empty list.
- `sort`: at most one occurrence. If the key appears more than once (even with equal values)
  the endpoint answers 400 with `{"detail": "sort given more than once"}`. When absent the value
  is `"relevance"`.
- `fields`: a single string holding a comma-separated list; split it on commas and drop empty
  pieces. When absent the value is an empty list. If the key is repeated, the last occurrence
  is the one used.

A successful request answers 200 with
`{"tags": <list of strings or null>, "ids": <list of integers>, "sort": <string>, "fields": <list of strings>}`.

Then fill `result` with one row per request, in this order:
1. `GET /search?tag=red&tag=blue&id=3&id=1&sort=price&fields=name,price`
2. `GET /search`
3. `GET /search?tag=a,b&fields=a,,b`
4. `GET /search?sort=price&sort=date`
5. `GET /search?id=1&id=x&id=3`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list), input]`; for any other
response, `[status code (integer), the JSON body]`.
''',
    reference=_HEAD + _RIGHT + _TAIL,
    probes='''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["input"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_tags(client):
    urls = [
        "/search?tag=solo",
        "/search?tag=x&tag=&tag=x",
        "/search?tag=one,two&tag=three",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_ids(client):
    urls = [
        "/search?id=10&id=-2&id=10",
        "/search?id=abc",
        "/search?id=7&id=1.5",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_sort_and_fields(client):
    urls = [
        "/search?sort=date",
        "/search?sort=date&sort=date",
        "/search?fields=a&fields=b,c",
        "/search?fields=,,",
        "/search?id=x&sort=a&sort=b",
    ]
    return [_row(client.get(u)) for u in urls]
''',
    traps={
        "optional list without Query() (read from the body)": _HEAD + _TAG_NO_QUERY + _TAIL,
        "scalar sort (the last value wins silently)": _HEAD + _SCALAR_SORT + _TAIL,
        "list[str] fields expecting FastAPI to split on commas": _HEAD + _LIST_FIELDS + _TAIL,
        "ids taken as strings and filtered by hand": _HEAD + _IDS_AS_STRINGS + _TAIL,
        "tags split on commas": _HEAD + _SPLIT_TAGS + _TAIL,
    },
    expected_rows=[
        [200, {"tags": ["red", "blue"], "ids": [3, 1], "sort": "price", "fields": ["name", "price"]}],
        [200, {"tags": None, "ids": [], "sort": "relevance", "fields": []}],
        [200, {"tags": ["a,b"], "ids": [], "sort": "relevance", "fields": ["a", "b"]}],
        [400, {"detail": "sort given more than once"}],
        [422, [["int_parsing", ["query", "id", 1], "x"]]],
    ],
)
