from fastapi_env.tasks import Task

_RESULT = '''\
def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    row(client.get("/search?q=fastapi")),
    row(client.get("/search?q=fastapi&page=3&lang=en&exact=yes")),
    row(client.get("/search?q=f&page=0")),
    row(client.get("/search?q=fastapi&lang=eng&exact=")),
    row(client.get("/search?q=fastapi&min_score=0")),
]
'''

TASK = Task(
    id="routing/search_query_validation",
    title="Validated search query parameters and their 422 error types",
    category="routing",
    difficulty="medium",
    prompt='''\
Build an app with one route, `GET /search`, whose query parameters are validated by FastAPI
(declare them with `Annotated[..., Query(...)]` constraints). Parameters, in this order:

- `q`: string, required, 2 to 30 characters
- `page`: integer, optional, default 1, between 1 and 50 inclusive
- `lang`: string or null, optional (default null); when given it must match the regular
  expression `^[a-z]{2}$` (exactly two lower-case letters)
- `exact`: boolean, optional, default `false`. Accepted spellings, case-insensitive:
  `true`/`1`/`yes`/`on`/`t`/`y` are true and `false`/`0`/`no`/`off`/`f`/`n` are false;
  anything else, including an empty value (`?exact=`), is an error
- `min_score`: number (float), optional, default 0.5, strictly greater than 0 and at most 1

Any violation is FastAPI's standard 422 validation error listing one entry per invalid
parameter, in the parameter order above, each at loc `["query", "<name>"]` with type:
`missing` (q absent), `string_too_short` / `string_too_long` (q), `int_parsing`,
`greater_than_equal`, `less_than_equal` (page), `string_pattern_mismatch` (lang),
`bool_parsing` (exact), `float_parsing`, `greater_than`, `less_than_equal` (min_score).

A valid request answers 200 with the JSON body
`{"q": ..., "page": <int>, "lang": <string or null>, "exact": <bool>, "min_score": <float>}`.

Then fill `result` with one row per request, in this order, each sent with
`client.get(<path with query string>)` exactly as written. For a 422 the row is
`[422, [[entry["type"], entry["loc"]] for each entry of detail, in order]]` (a list of
[string, list] pairs); otherwise `[status code (integer), the JSON body (object)]`.

1. `GET /search?q=fastapi`
2. `GET /search?q=fastapi&page=3&lang=en&exact=yes`
3. `GET /search?q=f&page=0`
4. `GET /search?q=fastapi&lang=eng&exact=`
5. `GET /search?q=fastapi&min_score=0`
''',
    reference='''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=2, max_length=30)],
    page: Annotated[int, Query(ge=1, le=50)] = 1,
    lang: Annotated[str | None, Query(pattern="^[a-z]{2}$")] = None,
    exact: Annotated[bool, Query()] = False,
    min_score: Annotated[float, Query(gt=0, le=1)] = 0.5,
):
    return {"q": q, "page": page, "lang": lang, "exact": exact, "min_score": min_score}


''' + _RESULT,
    probes='''\
def _row(r):
    body = r.json()
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def probe_boolean_spellings(client):
    rows = []
    for value in ["On", "1", "t", "Y", "off", "N", "0", "maybe", "2"]:
        rows.append([value, _row(client.get(f"/search?q=abc&exact={value}"))])
    rows.append(["bare", _row(client.get("/search?q=abc&exact"))])
    return rows


def probe_boundaries(client):
    return [
        _row(client.get("/search?q=ab&page=50&min_score=1")),
        _row(client.get("/search?q=" + "x" * 30 + "&page=51&min_score=1.01")),
        _row(client.get("/search?q=" + "x" * 31 + "&min_score=0.001")),
        _row(client.get("/search?page=two&min_score=cheap")),
    ]


def probe_lang_pattern(client):
    return [
        _row(client.get("/search?q=abc&lang=fr")),
        _row(client.get("/search?q=abc&lang=EN")),
        _row(client.get("/search?q=abc&lang=e1")),
        _row(client.get("/search?q=abc&lang=xfr")),
    ]
''',
    traps={
        "boolean compared with 'true' by hand": '''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=2, max_length=30)],
    page: Annotated[int, Query(ge=1, le=50)] = 1,
    lang: Annotated[str | None, Query(pattern="^[a-z]{2}$")] = None,
    exact: str = "false",
    min_score: Annotated[float, Query(gt=0, le=1)] = 0.5,
):
    return {"q": q, "page": page, "lang": lang, "exact": exact.lower() == "true",
            "min_score": min_score}


''' + _RESULT,
        "unanchored pattern": '''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=2, max_length=30)],
    page: Annotated[int, Query(ge=1, le=50)] = 1,
    lang: Annotated[str | None, Query(pattern="[a-z]{2}")] = None,
    exact: Annotated[bool, Query()] = False,
    min_score: Annotated[float, Query(gt=0, le=1)] = 0.5,
):
    return {"q": q, "page": page, "lang": lang, "exact": exact, "min_score": min_score}


''' + _RESULT,
        "ge=0 where the spec says strictly greater": '''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=2, max_length=30)],
    page: Annotated[int, Query(ge=1, le=50)] = 1,
    lang: Annotated[str | None, Query(pattern="^[a-z]{2}$")] = None,
    exact: Annotated[bool, Query()] = False,
    min_score: Annotated[float, Query(ge=0, le=1)] = 0.5,
):
    return {"q": q, "page": page, "lang": lang, "exact": exact, "min_score": min_score}


''' + _RESULT,
        "gt=0 / lt=51 for page (different error types)": '''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=2, max_length=30)],
    page: Annotated[int, Query(gt=0, lt=51)] = 1,
    lang: Annotated[str | None, Query(pattern="^[a-z]{2}$")] = None,
    exact: Annotated[bool, Query()] = False,
    min_score: Annotated[float, Query(gt=0, le=1)] = 0.5,
):
    return {"q": q, "page": page, "lang": lang, "exact": exact, "min_score": min_score}


''' + _RESULT,
        "optional exact with an empty value treated as false": '''\
from typing import Annotated

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient

app = FastAPI()


@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=2, max_length=30)],
    page: Annotated[int, Query(ge=1, le=50)] = 1,
    lang: Annotated[str | None, Query(pattern="^[a-z]{2}$")] = None,
    exact: Annotated[str | None, Query()] = None,
    min_score: Annotated[float, Query(gt=0, le=1)] = 0.5,
):
    flag = (exact or "false").lower() in {"true", "1", "yes", "on", "t", "y"}
    return {"q": q, "page": page, "lang": lang, "exact": flag, "min_score": min_score}


''' + _RESULT,
    },
    expected_rows=[
        [200, {"q": "fastapi", "page": 1, "lang": None, "exact": False, "min_score": 0.5}],
        [200, {"q": "fastapi", "page": 3, "lang": "en", "exact": True, "min_score": 0.5}],
        [422, [["string_too_short", ["query", "q"]], ["greater_than_equal", ["query", "page"]]]],
        [422, [["string_pattern_mismatch", ["query", "lang"]], ["bool_parsing", ["query", "exact"]]]],
        [422, [["greater_than", ["query", "min_score"]]]],
    ],
)
