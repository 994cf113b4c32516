from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from enum import Enum
from typing import Annotated, Literal

from fastapi import FastAPI, HTTPException, Path, Query
from fastapi.testclient import TestClient


class Section(str, Enum):
    ${s1} = "${s1}"
    ${s2} = "${s2}"
    ${s3} = "${s3}"


app = FastAPI()

'''

_TAIL = '''

REQUESTS = [
    "/catalog/${s1}/42?currency=${eur}",
    "/catalog/${s2}/7?currency=${usd}&limit=${lmax}&tag=jazz",
    "/catalog/games/42?currency=${eur}",
    "/catalog/${s3}/0?currency=${eur}",
    "/catalog/${s3}/5",
    "/catalog/${s1}/${id_over}?currency=${usd_lower}&limit=0",
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
    item_id: Annotated[int, Path(ge=1, le=${id_max})],
    currency: Annotated[str, Query(min_length=${clen}, max_length=${clen}, pattern="^[A-Z]+$$")],
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
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
    currency: Annotated[str, Query(min_length=${clen}, max_length=${clen}, pattern="^[A-Z]+$$")],
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
    tag: str | None = None,
):
    if not 1 <= item_id <= ${id_max}:
        raise HTTPException(status_code=400, detail="item_id out of range")
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_LITERAL = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Literal["${s1}", "${s2}", "${s3}"],
    item_id: Annotated[int, Path(ge=1, le=${id_max})],
    currency: Annotated[str, Query(min_length=${clen}, max_length=${clen}, pattern="^[A-Z]+$$")],
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
    tag: str | None = None,
):
    return {"section": section, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_GT_ZERO = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=${id_max})],
    currency: Annotated[str, Query(min_length=${clen}, max_length=${clen}, pattern="^[A-Z]+$$")],
    limit: Annotated[int, Query(gt=0, le=${lmax})] = ${ldef},
    tag: str | None = None,
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_TAG_NO_DEFAULT = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=${id_max})],
    currency: Annotated[str, Query(min_length=${clen}, max_length=${clen}, pattern="^[A-Z]+$$")],
    tag: str | None,
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

_PATTERN_ONLY = '''\
@app.get("/catalog/{section}/{item_id}")
def read_entry(
    section: Section,
    item_id: Annotated[int, Path(ge=1, le=${id_max})],
    currency: Annotated[str, Query(pattern="^[A-Z]{${clen}}$$")],
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
    tag: str | None = None,
):
    return {"section": section.value, "item_id": item_id, "currency": currency,
            "limit": limit, "tag": tag}
'''

FAMILY = Family(
    id="routing/param_validation",
    title="Path/Query constraints, an Enum path parameter and the exact 422 details",
    category="routing",
    difficulty="hard",
    prompt='''\
Build a catalogue lookup with one route, `GET /catalog/{section}/{item_id}`. All validation is
FastAPI's own (declared on the parameters), so every invalid request is a standard 422 response.
Declare the handler's parameters in exactly this order:

1. `section`: path parameter typed with a `str` Enum named `Section` whose members are, in this
   order, `${s1} = "${s1}"`, `${s2} = "${s2}"`, `${s3} = "${s3}"`.
2. `item_id`: integer path parameter declared with `Path(ge=1, le=${id_max})`.
3. `currency`: required string query parameter declared with
   `Query(min_length=${clen}, max_length=${clen}, pattern="^[A-Z]+$$")`.
4. `limit`: optional integer query parameter declared with `Query(ge=1, le=${lmax})`, default `${ldef}`.
5. `tag`: optional string query parameter, default `None` (when it is sent, use the value exactly
   as received).

A valid request answers 200 with
`{"section": <the section's value>, "item_id": <int>, "currency": <str>, "limit": <int>, "tag": <str or null>}`.

Then fill `result` with one row per request, in this order:
1. `GET /catalog/${s1}/42?currency=${eur}`
2. `GET /catalog/${s2}/7?currency=${usd}&limit=${lmax}&tag=jazz`
3. `GET /catalog/games/42?currency=${eur}`
4. `GET /catalog/${s3}/0?currency=${eur}`
5. `GET /catalog/${s3}/5`
6. `GET /catalog/${s1}/${id_over}?currency=${usd_lower}&limit=0`

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
        "/catalog/${s3}/5?currency=${c_short}",
        "/catalog/${s3}/5?currency=${c_long}",
        "/catalog/${s3}/5?currency=${eur_lower}",
        "/catalog/${s3}/5?currency=${c_digit}",
        "/catalog/${s3}/5?currency=${gbp}",
        "/catalog/${s3}/5?currency=",
    ]
    return [_row(client.get(u)) for u in urls]


def probe_limits_and_ids(client):
    urls = [
        "/catalog/${s2}/${id_max}?currency=${gbp}&limit=${lmax_over}",
        "/catalog/${s2}/${id_max}?currency=${gbp}&limit=1",
        "/catalog/${s2}/1?currency=${gbp}&limit=0",
        "/catalog/${s1}/abc?currency=${eur}",
        "/catalog/${s1}/-1?currency=${eur}",
        "/catalog/${s1}/1?currency=${eur}&limit=",
        "/catalog/${s1}/${id_max}?currency=${eur}",  # limit's default
    ]
    return [_row(client.get(u)) for u in urls]


def probe_sections_and_tags(client):
    urls = [
        "/catalog/${s1_title}/1?currency=${eur}",
        "/catalog/${s3}/1?currency=${eur}&tag=",
        "/catalog/${s3}/1?currency=${eur}&tag=Noir%20Classics",
        "/catalog/games/x?limit=z",
    ]
    return [_row(client.get(u)) for u in urls]
''',
    original={"sections": ["books", "music", "films"], "id_max": 9999, "lmax": 50, "ldef": 10, "clen": 3},
    space={
        "sections": [["books", "music", "films"], ["news", "sport", "weather"], ["red", "green", "blue"]],
        "id_max": [9999, 500, 2048],
        "lmax": [{"lmax": 50, "ldef": 10}, {"lmax": 20, "ldef": 5}, {"lmax": 100, "ldef": 25}],
        "clen": [3, 2, 4],
    },
    derive=lambda p: {
        "s1": p["sections"][0], "s2": p["sections"][1], "s3": p["sections"][2],
        "s1_title": p["sections"][0].capitalize(),
        "id_over": p["id_max"] + 1, "lmax_over": p["lmax"] + 1,
        "eur": "EURO"[:p["clen"]] if p["clen"] != 4 else "EURO", "usd": "USDX"[:p["clen"]],
        "usd_lower": "usdx"[:p["clen"]], "eur_lower": "euro"[:p["clen"]], "gbp": "GBPQ"[:p["clen"]],
        "c_short": "USDX"[:p["clen"] - 1], "c_long": "EUROS"[:p["clen"] + 1], "c_digit": "E1RO"[:p["clen"]],
    },
    instances=60,
    requirements=(
        Requirement(
            "`item_id` must lie in 1..${id_max} (FastAPI's 422 with ctx otherwise; both bounds "
            "are inclusive); a non-integer is 422.",
            probes=("limits_and_ids",),
            traps=(Edit("range check by hand with a 400", _RIGHT, _MANUAL_RANGE),
                   Edit("item_id upper bound exclusive", "Path(ge=1, le=${id_max})", "Path(ge=1, lt=${id_max})")),
        ),
        Requirement(
            "`section` is the `Section` enum: anything else (another case included) is the "
            "`enum` 422 listing the members.",
            probes=("sections_and_tags",),
            traps=(Edit("Literal instead of the Section enum", _RIGHT, _LITERAL),),
        ),
        Requirement(
            "`limit` defaults to ${ldef} and must lie in 1..${lmax} (0 and ${lmax_over} are 422 "
            "`greater_than_equal` / `less_than_equal`).",
            probes=("limits_and_ids",),
            traps=(Edit("limit declared with gt=0 instead of ge=1", _RIGHT, _GT_ZERO),
                   Edit("wrong limit default", "le=${lmax})] = ${ldef},", "le=${lmax})] = ${lmax},")),
        ),
        Requirement(
            "`tag` is optional (default null); an empty `tag=` is kept as the empty string.",
            probes=("sections_and_tags",),
            traps=(Edit("optional tag without a default (still required)", _RIGHT, _TAG_NO_DEFAULT),
                   Edit("empty tag turned into null", '"limit": limit, "tag": tag}',
                        '"limit": limit, "tag": tag or None}')),
        ),
        Requirement(
            "`currency` is required, exactly ${clen} characters (too short/long are the length "
            "errors) and only capitals (`string_pattern_mismatch`).",
            probes=("currency_rules",),
            traps=(Edit("currency checked by a pattern only", _RIGHT, _PATTERN_ONLY),),
        ),
    ),
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
