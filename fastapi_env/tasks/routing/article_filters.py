from fastapi_env.tasks import Task

_ARTICLES = '''\
ARTICLES = [
    {"id": 1, "author": "ada", "tags": ["python", "web"]},
    {"id": 2, "author": "bob", "tags": ["python"]},
    {"id": 3, "author": "ada", "tags": ["rust"]},
    {"id": 4, "author": "cy", "tags": ["python", "web", "async"]},
    {"id": 5, "author": "ada", "tags": ["python", "async"]},
]
'''

_RESULT = '''\
def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    row(client.get("/articles?tag=python")),
    row(client.get("/articles?tag=web&tag=python")),
    row(client.get("/articles?author=ada&author=bob")),
    row(client.get("/articles?author=ada&limit=2")),
    row(client.get("/articles?limit=0")),
]
'''

TASK = Task(
    id="routing/article_filters",
    title="Repeated query keys: a tag list and an author that must appear once",
    category="routing",
    difficulty="hard",
    prompt='''\
Build an app with one route, `GET /articles`, that filters this in-memory table:

    ARTICLES = [
        {"id": 1, "author": "ada", "tags": ["python", "web"]},
        {"id": 2, "author": "bob", "tags": ["python"]},
        {"id": 3, "author": "ada", "tags": ["rust"]},
        {"id": 4, "author": "cy", "tags": ["python", "web", "async"]},
        {"id": 5, "author": "ada", "tags": ["python", "async"]},
    ]

Query parameters (all optional):
- `tag`: may be repeated (`?tag=python&tag=web`); keep only the articles that carry every
  given tag (exact, case-sensitive match). Without `tag`, no tag filtering.
- `author`: a single author name (exact match). If the `author` key appears more than once
  in the query string (even with the same value), answer 400 with the JSON body
  `{"detail": "author given more than once"}`.
- `limit`: integer between 1 and 10 inclusive, default 10: the maximum number of ids returned
  (the first ones, in table order). A value outside the range, or not an integer, is FastAPI's
  standard 422 validation error (entry types such as `greater_than_equal`, `less_than_equal`,
  `int_parsing`, loc `["query", "limit"]`). Validation of the query parameters happens before
  the duplicate-author check, so a request with both problems gets the 422.

A successful request answers 200 with the JSON body `{"ids": [<matching ids in table order,
at most limit of them>], "count": <number of matching articles before applying limit>}`.

Then fill `result` with one row per request, in this order, each sent with
`client.get(<path with query string>)` exactly as written. For a 422 the row is
`[422, detail[0]["type"] (string), detail[0]["loc"] (list)]`; otherwise
`[status code (integer), the JSON body (object)]`.

1. `GET /articles?tag=python`
2. `GET /articles?tag=web&tag=python`
3. `GET /articles?author=ada&author=bob`
4. `GET /articles?author=ada&limit=2`
5. `GET /articles?limit=0`
''',
    reference='''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

''' + _ARTICLES + '''
app = FastAPI()


@app.get("/articles")
def list_articles(
    tag: Annotated[list[str] | None, Query()] = None,
    author: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=10)] = 10,
):
    if author is not None and len(author) > 1:
        raise HTTPException(status_code=400, detail="author given more than once")
    matches = [
        a["id"]
        for a in ARTICLES
        if all(t in a["tags"] for t in (tag or []))
        and (author is None or a["author"] == author[0])
    ]
    return {"ids": matches[:limit], "count": len(matches)}


''' + _RESULT,
    probes='''\
def _row(r):
    body = r.json()
    if r.status_code == 422:
        return [422, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [r.status_code, body]


def probe_tags_combined_with_author(client):
    return [
        _row(client.get("/articles?tag=async&author=ada")),
        _row(client.get("/articles?tag=async&tag=web&tag=python")),
        _row(client.get("/articles?tag=Python")),
        _row(client.get("/articles?tag=go")),
    ]


def probe_no_filters(client):
    return [_row(client.get("/articles")), _row(client.get("/articles?limit=3"))]


def probe_author_repeated(client):
    return [
        _row(client.get("/articles?author=bob&author=bob")),
        _row(client.get("/articles?author=bob&tag=python")),
        _row(client.get("/articles?author=ada&author=ada&limit=11")),
        _row(client.get("/articles?limit=ten")),
    ]
''',
    traps={
        "optional list without Query() (read from the body, tags ignored)": '''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

''' + _ARTICLES + '''
app = FastAPI()


@app.get("/articles")
def list_articles(
    tag: list[str] | None = None,
    author: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=10)] = 10,
):
    if author is not None and len(author) > 1:
        raise HTTPException(status_code=400, detail="author given more than once")
    matches = [
        a["id"]
        for a in ARTICLES
        if all(t in a["tags"] for t in (tag or []))
        and (author is None or a["author"] == author[0])
    ]
    return {"ids": matches[:limit], "count": len(matches)}


''' + _RESULT,
        "scalar author (the last value silently wins)": '''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

''' + _ARTICLES + '''
app = FastAPI()


@app.get("/articles")
def list_articles(
    tag: Annotated[list[str] | None, Query()] = None,
    author: str | None = None,
    limit: Annotated[int, Query(ge=1, le=10)] = 10,
):
    matches = [
        a["id"]
        for a in ARTICLES
        if all(t in a["tags"] for t in (tag or []))
        and (author is None or a["author"] == author)
    ]
    return {"ids": matches[:limit], "count": len(matches)}


''' + _RESULT,
        "scalar tag (only the last tag is used)": '''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

''' + _ARTICLES + '''
app = FastAPI()


@app.get("/articles")
def list_articles(
    tag: str | None = None,
    author: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=10)] = 10,
):
    if author is not None and len(author) > 1:
        raise HTTPException(status_code=400, detail="author given more than once")
    matches = [
        a["id"]
        for a in ARTICLES
        if (tag is None or tag in a["tags"])
        and (author is None or a["author"] == author[0])
    ]
    return {"ids": matches[:limit], "count": len(matches)}


''' + _RESULT,
        "duplicate check before validation": '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

''' + _ARTICLES + '''
app = FastAPI()


@app.get("/articles")
def list_articles(request: Request):
    params = request.query_params
    authors = params.getlist("author")
    if len(authors) > 1:
        return JSONResponse({"detail": "author given more than once"}, status_code=400)
    raw = params.get("limit", "10")
    try:
        limit = int(raw)
    except ValueError:
        return JSONResponse({"detail": [{"type": "int_parsing", "loc": ["query", "limit"],
                                         "msg": "bad", "input": raw}]}, status_code=422)
    if limit < 1:
        return JSONResponse({"detail": [{"type": "greater_than_equal", "loc": ["query", "limit"],
                                         "msg": "bad", "input": raw}]}, status_code=422)
    if limit > 10:
        return JSONResponse({"detail": [{"type": "less_than_equal", "loc": ["query", "limit"],
                                         "msg": "bad", "input": raw}]}, status_code=422)
    tags = params.getlist("tag")
    matches = [
        a["id"]
        for a in ARTICLES
        if all(t in a["tags"] for t in tags)
        and (not authors or a["author"] == authors[0])
    ]
    return {"ids": matches[:limit], "count": len(matches)}


''' + _RESULT,
    },
    expected_rows=[
        [200, {"ids": [1, 2, 4, 5], "count": 4}],
        [200, {"ids": [1, 4], "count": 2}],
        [400, {"detail": "author given more than once"}],
        [200, {"ids": [1, 3], "count": 3}],
        [422, "greater_than_equal", ["query", "limit"]],
    ],
)
