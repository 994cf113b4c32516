from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a search endpoint, `GET /search`, with four query parameters. Parameter validation is
FastAPI's own (standard 422 responses) and happens before the handler's own checks.

- `${tag}`: may be repeated (`?${tag}=red&${tag}=blue`). Every occurrence is one value, kept exactly as
  sent (${sep_one} inside a value is not a separator), in the order sent. When no `${tag}` is sent
  the value is `null`.
- `${idp}`: may be repeated; every occurrence must be an integer (standard 422 otherwise). When no
  `${idp}` is sent the value is an empty list.
- `${sort}`: at most one occurrence. If the key appears more than once (even with equal values)
  the endpoint answers ${dup_status} with `{"detail": "${sort} given more than once"}`. When absent the value
  is `"${sort_default}"`.
- `${fields}`: a single string holding a ${sep_adj}-separated list; split it on ${sep_word} and drop empty
  pieces. When absent the value is an empty list. If the key is repeated, the last occurrence
  is the one used.

A successful request answers 200 with
`{"tags": <list of strings or null>, "ids": <list of integers>, "sort": <string>, "fields": <list of strings>}`.

Then fill `result` with one row per request, in this order:
1. `GET /search?${tag}=red&${tag}=blue&${idp}=3&${idp}=1&${sort}=price&${fields}=name${sep}price`
2. `GET /search`
3. `GET /search?${tag}=a${sep}b&${fields}=a${sep}${sep}b`
4. `GET /search?${sort}=price&${sort}=date`
5. `GET /search?${idp}=1&${idp}=x&${idp}=3`

Row format: for a 422 response, `[422, errors]` where `errors` has one entry per element of the
body's `detail` list, in order, each `[type (string), loc (list), input]`; for any other
response, `[status code (integer), the JSON body]`.
'''

_RIGHT = '''\
@app.get("/search")
def search(
    ${tag}: Annotated[list[str] | None, Query()] = None,
    ${idp}: Annotated[list[int], Query()] = [],
    ${sort}: Annotated[list[str], Query()] = [],
    ${fields}: str = "",
):
    if len(${sort}) > 1:
        raise HTTPException(status_code=${dup_status}, detail="${sort} given more than once")
    return {
        "tags": ${tag},
        "ids": ${idp},
        "sort": ${sort}[0] if ${sort} else "${sort_default}",
        "fields": [f for f in ${fields}.split(${sep__repr}) if f],
    }
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query
from fastapi.testclient import TestClient

app = FastAPI()

''' + _RIGHT + '''

REQUESTS = [
    "/search?${tag}=red&${tag}=blue&${idp}=3&${idp}=1&${sort}=price&${fields}=name${sep}price",
    "/search",
    "/search?${tag}=a${sep}b&${fields}=a${sep}${sep}b",
    "/search?${sort}=price&${sort}=date",
    "/search?${idp}=1&${idp}=x&${idp}=3",
]


def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["input"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.get(url)) for url in REQUESTS]
'''

PROBES = '''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["input"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_tags(client):
    urls = [
        "/search?${tag}=solo",
        "/search?${tag}=x&${tag}=&${tag}=x",
        "/search?${tag}=one${sep}two&${tag}=three",
        "/search?${tag}=",
        "/search?${idp}=1",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_ids(client):
    urls = [
        "/search?${idp}=10&${idp}=-2&${idp}=10",
        "/search?${idp}=abc",
        "/search?${idp}=7&${idp}=1.5",
        "/search?${idp}=&${idp}=4&${idp}=z",
        "/search?${idp}=0",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_sort(client):
    urls = [
        "/search?${sort}=date",
        "/search?${sort}=date&${sort}=date",
        "/search?${sort}=&${sort}=",
        "/search?${sort}=",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_fields(client):
    urls = [
        "/search?${fields}=a&${fields}=b${sep}c",
        "/search?${fields}=${sep}${sep}",
        "/search?${fields}=a,b|c:d",
        "/search?${fields}=x${sep}",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_validation_before_sort_check(client):
    return [_row(client.get("/search?${idp}=x&${sort}=a&${sort}=b"))]
'''

_SEPARATORS = [
    {"sep": ",", "sep_one": "a comma", "sep_adj": "comma", "sep_word": "commas"},
    {"sep": "|", "sep_one": "a `|`", "sep_adj": "`|`", "sep_word": "`|` characters"},
    {"sep": ":", "sep_one": "a colon", "sep_adj": "colon", "sep_word": "colons"},
]


_IDS_BY_HAND = '''\
    bad = [[n, i] for n, i in enumerate(${idp}) if not i.lstrip("-").isdigit()]
    if bad:
        raise RequestValidationError(
            [{"type": "int_parsing", "loc": ["query", "${idp}", n], "input": i} for n, i in bad])
'''


def _fn(*swaps):
    """The route with fragments replaced: one trap's version of it."""
    new = _RIGHT
    for old, replacement in swaps:
        assert old in new, old
        new = new.replace(old, replacement)
    return new


FAMILY = Family(
    id="routing/repeated_query_list",
    title="Repeated query keys: lists need Query(), scalars keep the last value",
    category="routing",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"tag": "tag", "idp": "id", "sort": "sort", "fields": "fields", **_SEPARATORS[0],
              "sort_default": "relevance", "dup_status": 400},
    space={
        "names": [{"tag": "tag", "idp": "id", "sort": "sort", "fields": "fields"},
                  {"tag": "label", "idp": "num", "sort": "order", "fields": "columns"},
                  {"tag": "topic", "idp": "ref", "sort": "rank", "fields": "show"}],
        "separator": _SEPARATORS,
        "sort_default": ["relevance", "newest"],
        "dup_status": [400, 409],
    },
    derive=lambda p: {"other_dup_status": 409 if p["dup_status"] != 409 else 400},
    instances=30,
    requirements=(
        Requirement(
            "Every `${tag}` occurrence is one value, kept as sent (empty and "
            "${sep_adj}-containing ones too) in order; no `${tag}` is `null`.",
            probes=("tags",),
            traps=(
                Edit("optional list without Query() (read from the body)",
                     "${tag}: Annotated[list[str] | None, Query()] = None,", "${tag}: list[str] | None = None,"),
                Edit("tags split on the separator", _RIGHT, _fn(
                    ('"tags": ${tag},', '"tags": None if ${tag} is None else [p for t in ${tag} for p in t.split(${sep__repr})],'))),
                Edit("no tag gives an empty list", "${tag}: Annotated[list[str] | None, Query()] = None,",
                     "${tag}: Annotated[list[str], Query()] = [],"),
                Edit("empty tags dropped", '"tags": ${tag},', '"tags": None if ${tag} is None else [t for t in ${tag} if t],'),
            ),
        ),
        Requirement(
            "Every `${idp}` occurrence must be an integer: each bad one (an empty one too) is its "
            "own `int_parsing` entry at `[\"query\", \"${idp}\", <index>]`; none is an empty list.",
            probes=("ids",),
            traps=(Edit("ids taken as strings and filtered by hand", _RIGHT, _fn(
                ("${idp}: Annotated[list[int], Query()] = [],", "${idp}: Annotated[list[str], Query()] = [],"),
                ('"ids": ${idp},', '"ids": [int(i) for i in ${idp} if i.lstrip("-").isdigit()],'))),),
        ),
        Requirement(
            "`${sort}` given twice (equal or empty values too) answers ${dup_status} "
            '`{"detail": "${sort} given more than once"}`; absent it is `"${sort_default}"`, '
            "present but empty it is `\"\"`.",
            probes=("sort",),
            traps=(
                Edit("scalar sort (the last value wins silently)", _RIGHT, _fn(
                    ("${sort}: Annotated[list[str], Query()] = [],", '${sort}: str = "${sort_default}",'),
                    ("    if len(${sort}) > 1:\n"
                     '        raise HTTPException(status_code=${dup_status}, detail="${sort} given more than once")\n', ""),
                    ('"sort": ${sort}[0] if ${sort} else "${sort_default}",', '"sort": ${sort},'))),
                Edit("duplicate sort answers another status", "status_code=${dup_status}",
                     "status_code=${other_dup_status}"),
                Edit("only different sort values count as a duplicate", "if len(${sort}) > 1:",
                     "if len(set(${sort})) > 1:"),
                Edit("an empty sort falls back to the default", '"sort": ${sort}[0] if ${sort} else',
                     '"sort": ${sort}[0] if ${sort} and ${sort}[0] else'),
            ),
        ),
        Requirement(
            "`${fields}` is one string split on ${sep_word} (no other character), empty pieces "
            "dropped; repeated, the last occurrence wins.",
            probes=("fields",),
            traps=(
                Edit("list[str] fields expecting FastAPI to split", _RIGHT, _fn(
                    ('${fields}: str = "",', "${fields}: Annotated[list[str], Query()] = [],"),
                    ("[f for f in ${fields}.split(${sep__repr}) if f]", "[f for f in ${fields} if f]"))),
                Edit("empty pieces kept", "${fields}.split(${sep__repr}) if f]", "${fields}.split(${sep__repr})]"),
                Edit("split on every punctuation character", "${fields}.split(${sep__repr})",
                     '${fields}.replace(",", "|").replace(":", "|").split("|")'),
            ),
        ),
        Requirement(
            "FastAPI's validation runs before the duplicate-`${sort}` check (both at once is the 422).",
            probes=("validation_before_sort_check",),
            traps=(Edit("ids validated by hand after the sort check", _RIGHT,
                        "from fastapi.exceptions import RequestValidationError  # noqa: E402\n\n\n" + _fn(
                            ("${idp}: Annotated[list[int], Query()] = [],",
                             "${idp}: Annotated[list[str], Query()] = [],"),
                            ('"ids": ${idp},', '"ids": [int(i) for i in ${idp}],'),
                            ("    return {\n", _IDS_BY_HAND + "    return {\n"))),),
        ),
    ),
    expected_rows=[
        [200, {"tags": ["red", "blue"], "ids": [3, 1], "sort": "price", "fields": ["name", "price"]}],
        [200, {"tags": None, "ids": [], "sort": "relevance", "fields": []}],
        [200, {"tags": ["a,b"], "ids": [], "sort": "relevance", "fields": ["a", "b"]}],
        [400, {"detail": "sort given more than once"}],
        [422, [["int_parsing", ["query", "id", 1], "x"]]],
    ],
)
