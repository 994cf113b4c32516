from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `GET /articles`, that filters this in-memory table:

    ${articles_prompt}

Query parameters (all optional):
- `tag`: may be repeated (`?tag=${t1}&tag=${t2}`); keep only the articles that carry every
  given tag (exact, case-sensitive match). Without `tag`, no tag filtering.
- `author`: a single author name (exact match). If the `author` key appears more than once
  in the query string (even with the same value), answer ${dup_status} with the JSON body
  `{"detail": "${dup_detail}"}`.
- `limit`: integer between 1 and ${lmax} inclusive, default ${ldef}: the maximum number of ids returned
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

1. `GET /articles?tag=${t1}`
2. `GET /articles?tag=${t2}&tag=${t1}`
3. `GET /articles?author=${a1}&author=${a2}`
4. `GET /articles?author=${a1}&limit=2`
5. `GET /articles?limit=0`
'''

_FILTER = '''\
@app.get("/articles")
def list_articles(
    tag: Annotated[list[str] | None, Query()] = None,
    author: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
):
    if author is not None and len(author) > 1:
        raise HTTPException(status_code=${dup_status}, detail="${dup_detail}")
    matches = [
        a["id"]
        for a in ARTICLES
        if all(t in a["tags"] for t in (tag or []))
        and (author is None or a["author"] == author[0])
    ]
    return {"ids": matches[:limit], "count": len(matches)}
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

${articles_code}
app = FastAPI()


''' + _FILTER + '''

def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    row(client.get("/articles?tag=${t1}")),
    row(client.get("/articles?tag=${t2}&tag=${t1}")),
    row(client.get("/articles?author=${a1}&author=${a2}")),
    row(client.get("/articles?author=${a1}&limit=2")),
    row(client.get("/articles?limit=0")),
]
'''

PROBES = '''\
def _row(r):
    body = r.json()
    if r.status_code == 422:
        return [422, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [r.status_code, body]


def probe_tags_combined_with_author(client):
    return [
        _row(client.get("/articles?tag=${t3}&author=${a1}")),
        _row(client.get("/articles?tag=${t3}&tag=${t2}&tag=${t1}")),
        _row(client.get("/articles?tag=${t1_cap}")),
        _row(client.get("/articles?tag=go")),
        _row(client.get("/articles?tag=${t1}&tag=${t1}")),
        _row(client.get("/articles?tag=")),
    ]


def probe_no_filters_and_limit(client):
    return [
        _row(client.get("/articles")),
        _row(client.get("/articles?limit=1")),
        _row(client.get("/articles?limit=${lmax}")),
        _row(client.get("/articles?limit=${lmax_over}")),
        _row(client.get("/articles?limit=-3")),
        _row(client.get("/articles?limit=ten")),
        _row(client.get("/articles?limit=")),
    ]


def probe_count_before_limit(client):
    return [_row(client.get("/articles?tag=${t1}&limit=1")), _row(client.get("/articles?author=${a1}&limit=1"))]


def probe_author_filter(client):
    return [
        _row(client.get("/articles?author=${a2}&tag=${t1}")),
        _row(client.get("/articles?author=${a3}")),
        _row(client.get("/articles?author=${a1_cap}")),
        _row(client.get("/articles?author=")),
    ]


def probe_author_repeated(client):
    return [
        _row(client.get("/articles?author=${a2}&author=${a2}")),
        _row(client.get("/articles?author=&author=")),
        _row(client.get("/articles?tag=${t1}&author=${a1}&author=${a3}&limit=1")),
    ]


def probe_validation_before_duplicate_check(client):
    return [
        _row(client.get("/articles?author=${a1}&author=${a1}&limit=${lmax_over}")),
        _row(client.get("/articles?author=${a1}&author=${a2}&limit=x")),
    ]
'''

# Each table is [(id, author, tags)]; t1..t3 and a1..a3 are the tags and authors the requests name.
_TABLES = [
    {"rows": [[1, "ada", ["python", "web"]], [2, "bob", ["python"]], [3, "ada", ["rust"]],
              [4, "cy", ["python", "web", "async"]], [5, "ada", ["python", "async"]]],
     "t1": "python", "t2": "web", "t3": "async", "a1": "ada", "a2": "bob", "a3": "cy"},
    {"rows": [[2, "lin", ["db", "sql"]], [3, "max", ["db"]], [5, "lin", ["ops"]],
              [8, "noor", ["db", "sql", "cache"]], [9, "lin", ["db", "cache"]], [11, "max", ["sql"]]],
     "t1": "db", "t2": "sql", "t3": "cache", "a1": "lin", "a2": "max", "a3": "noor"},
    {"rows": [[10, "kim", ["ml"]], [20, "eve", ["ml", "gpu"]], [30, "kim", ["ml", "data"]],
              [40, "joe", ["gpu", "edge"]], [50, "kim", ["ml", "gpu", "data"]], [60, "eve", ["data"]],
              [70, "kim", ["ml", "gpu"]]],
     "t1": "ml", "t2": "gpu", "t3": "data", "a1": "kim", "a2": "eve", "a3": "joe"},
]


def _table_text(rows, indent):
    lines = [f'{indent}    {{"id": {i}, "author": "{a}", "tags": [{", ".join(chr(34) + t + chr(34) for t in tags)}]}},'
             for i, a, tags in rows]
    return "ARTICLES = [\n" + "\n".join(lines) + f"\n{indent}]"


def _derive(p):
    return {
        "articles_prompt": _table_text(p["rows"], "    "),
        "articles_code": _table_text(p["rows"], "") + "\n",
        "t1_cap": p["t1"].capitalize(), "a1_cap": p["a1"].capitalize(),
        "lmax_over": p["lmax"] + 1, "lmax_minus": p["lmax"] - 1,
        "ldef_other": 1 if p["ldef"] != 1 else 2,
        "other_dup_status": 409 if p["dup_status"] != 409 else 400,
    }


def _body(*swaps):
    """The filter route with some fragments replaced: one trap."""
    new = _FILTER
    for old, replacement in swaps:
        assert old in new, old
        new = new.replace(old, replacement)
    return new


_BY_HAND = '''\
@app.get("/articles")
def list_articles(request: Request):
    params = request.query_params
    authors = params.getlist("author")
    if len(authors) > 1:
        return JSONResponse({"detail": "${dup_detail}"}, status_code=${dup_status})
    raw = params.get("limit", "${ldef}")
    try:
        limit = int(raw)
    except ValueError:
        return JSONResponse({"detail": [{"type": "int_parsing", "loc": ["query", "limit"]}]}, status_code=422)
    if limit < 1:
        return JSONResponse({"detail": [{"type": "greater_than_equal", "loc": ["query", "limit"]}]}, status_code=422)
    if limit > ${lmax}:
        return JSONResponse({"detail": [{"type": "less_than_equal", "loc": ["query", "limit"]}]}, status_code=422)
    tags = params.getlist("tag")
    matches = [
        a["id"]
        for a in ARTICLES
        if all(t in a["tags"] for t in tags)
        and (not authors or a["author"] == authors[0])
    ]
    return {"ids": matches[:limit], "count": len(matches)}
'''

FAMILY = Family(
    id="routing/article_filters",
    title="Repeated query keys: a tag list and an author that must appear once",
    category="routing",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={**_TABLES[0], "lmax": 10, "ldef": 10, "dup_status": 400,
              "dup_detail": "author given more than once"},
    space={
        "table": _TABLES,
        "limit": [{"lmax": 10, "ldef": 10}, {"lmax": 5, "ldef": 3}, {"lmax": 20, "ldef": 2},
                  {"lmax": 4, "ldef": 4}],
        "duplicate": [{"dup_status": 400, "dup_detail": "author given more than once"},
                      {"dup_status": 409, "dup_detail": "one author only"}],
    },
    derive=_derive,
    instances=24,
    requirements=(
        Requirement(
            "`tag` may repeat and keeps the articles carrying every given tag (exact, "
            "case-sensitive; an empty value is a tag no article has); no `tag`, no filtering.",
            probes=("tags_combined_with_author",),
            traps=(
                Edit("optional list without Query() (read from the body, tags ignored)",
                     "tag: Annotated[list[str] | None, Query()] = None,", "tag: list[str] | None = None,"),
                Edit("scalar tag (only the last tag is used)", _FILTER, _body(
                    ("tag: Annotated[list[str] | None, Query()] = None,", "tag: str | None = None,"),
                    ("if all(t in a[\"tags\"] for t in (tag or []))", "if (tag is None or tag in a[\"tags\"])"))),
                Edit("any tag instead of every tag", "if all(t in a[\"tags\"] for t in (tag or []))",
                     "if not tag or any(t in a[\"tags\"] for t in tag)"),
                Edit("tags compared case-insensitively", 'all(t in a["tags"] for t in (tag or []))',
                     'all(t.lower() in [x.lower() for x in a["tags"]] for t in (tag or []))'),
            ),
        ),
        Requirement(
            "`author` filters by the exact name; the key given twice (same value or empty values "
            'too) answers ${dup_status} `{"detail": "${dup_detail}"}`.',
            probes=("author_filter", "author_repeated"),
            traps=(
                Edit("scalar author (the last value silently wins)", _FILTER, _body(
                    ("author: Annotated[list[str] | None, Query()] = None,", "author: str | None = None,"),
                    ("    if author is not None and len(author) > 1:\n"
                     '        raise HTTPException(status_code=${dup_status}, detail="${dup_detail}")\n', ""),
                    ('a["author"] == author[0]', 'a["author"] == author'))),
                Edit("only different authors count as a duplicate", "len(author) > 1", "len(set(author)) > 1"),
                Edit("duplicate author answers another status", "status_code=${dup_status}",
                     "status_code=${other_dup_status}"),
                Edit("author matched case-insensitively", 'a["author"] == author[0]',
                     'a["author"].lower() == author[0].lower()'),
            ),
        ),
        Requirement(
            "`limit` is 1..${lmax} inclusive with default ${ldef}, and cuts the ids (first ones "
            "in table order) but not `count`.",
            probes=("no_filters_and_limit", "count_before_limit"),
            traps=(
                Edit("limit bound off by one", "Query(ge=1, le=${lmax})", "Query(ge=1, le=${lmax_minus})"),
                Edit("wrong limit default", "le=${lmax})] = ${ldef},", "le=${lmax})] = ${ldef_other},"),
                Edit("count taken after the limit", '"count": len(matches)}', '"count": len(matches[:limit])}'),
            ),
        ),
        Requirement(
            "Query validation runs before the duplicate-author check: both problems at once is "
            "the 422.",
            probes=("validation_before_duplicate_check",),
            traps=(Edit("duplicate check before validation", _FILTER,
                        "from fastapi import Request  # noqa: E402\n"
                        "from fastapi.responses import JSONResponse  # noqa: E402\n\n\n" + _BY_HAND),),
        ),
    ),
    expected_rows=[
        [200, {"ids": [1, 2, 4, 5], "count": 4}],
        [200, {"ids": [1, 4], "count": 2}],
        [400, {"detail": "author given more than once"}],
        [200, {"ids": [1, 3], "count": 3}],
        [422, "greater_than_equal", ["query", "limit"]],
    ],
)
