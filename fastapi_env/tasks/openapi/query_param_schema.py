from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a search endpoint whose parameters are validated by FastAPI and documented in
`/openapi.json`.

`GET /search` takes:

- `q`: a **required** query parameter, a string of ${qmin} to ${qmax} characters (inclusive). Its documented
  schema has `minLength` ${qmin} and `maxLength` ${qmax}.
- `limit`: an optional integer query parameter, default ${ldef}, allowed range 1 to ${lmax} inclusive. Its
  documented schema has `minimum` 1, `maximum` ${lmax} and `default` ${ldef}.
- `tag`: an optional query parameter that may be repeated (`?tag=red&tag=blue`); the handler gets
  the list of all values in order, or `None` when there is none.
- `${hh}`: an optional request header (documented as a header parameter named
  `${hh_lower}`); `None` when absent.

It returns `{"q": q, "limit": limit, "tags": <the tag list or null>, "source": <the header value
or null>}`. Invalid input gets FastAPI's standard 422 validation error, and these four are the only
parameters documented for the operation.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `GET /search?q=${word}&tag=red&tag=blue&limit=5` with header `X-Request-Source: web`:
   `[status code (integer), JSON body (object)]`
2. `GET /search?q=${q_short}`: `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`
3. `GET /search?q=${word}&limit=0`: `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`
4. From `GET /openapi.json`, the list `params = paths["/search"]["get"]["parameters"]`: one row per
   parameter, sorted by its `name`: `[p["name"] (string), p["in"] (string), p["required"] (boolean)]`
5. For the parameter named `q`: `[schema.get("minLength"), schema.get("maxLength")]` (integers, or
   null if absent), where `schema` is that parameter's `"schema"` object
6. For the parameter named `limit`: `[schema.get("minimum"), schema.get("maximum"), schema.get("default")]`
'''

HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Query, Request
from fastapi.testclient import TestClient

app = FastAPI()

'''

ENDPOINT = '''\
@app.get("/search")
def search(
    q: Annotated[str, Query(min_length=${qmin}, max_length=${qmax})],
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
    tag: Annotated[list[str] | None, Query()] = None,
    ${hp}: Annotated[str | None, Header()] = None,
):
    return {"q": q, "limit": limit, "tags": tag, "source": ${hp}}
'''

TAIL = '''

client = TestClient(app)
result = []
r = client.get("/search?q=${word}&tag=red&tag=blue&limit=5", headers={"${hh}": "web"})
result.append([r.status_code, r.json()])
for url in ["/search?q=${q_short}", "/search?q=${word}&limit=0"]:
    r = client.get(url)
    detail = r.json()["detail"]
    result.append([r.status_code, detail[0]["type"], detail[0]["loc"]])
params = client.get("/openapi.json").json()["paths"]["/search"]["get"]["parameters"]
by_name = {p["name"]: p for p in params}
for p in sorted(params, key=lambda p: p["name"]):
    result.append([p["name"], p["in"], p["required"]])
schema = by_name["q"]["schema"]
result.append([schema.get("minLength"), schema.get("maxLength")])
schema = by_name["limit"]["schema"]
result.append([schema.get("minimum"), schema.get("maximum"), schema.get("default")])
'''

REFERENCE = HEAD + ENDPOINT + TAIL

PROBES = '''\
def probe_missing_q(client):
    r = client.get("/search")
    if r.status_code != 422:
        return [[r.status_code]]
    d = r.json()["detail"][0]
    return [[r.status_code, d["type"], d["loc"]]]


def probe_defaults(client):
    r = client.get("/search?q=${q_ok}")
    return [[r.status_code, r.json()]]


def probe_bounds(client):
    rows = []
    for url in ["/search?q=" + "x" * ${qmax_over}, "/search?q=" + "x" * ${qmax}, "/search?q=${q_ok}&limit=${lmax_over}",
                "/search?q=${q_ok}&limit=${lmax}", "/search?q=${q_ok}&limit=1"]:
        r = client.get(url)
        body = r.json()
        rows.append([r.status_code, body["detail"][0]["type"] if r.status_code == 422 else body])
    return rows


def probe_single_tag_and_header(client):
    r = client.get("/search?q=chair&tag=oak", headers={"${hh}": "app"})
    return [[r.status_code, r.json()]]


def probe_present_but_empty(client):
    rows = []
    for url in ["/search?q=", "/search?q=${q_ok}&tag=", "/search?q=${q_ok}&limit="]:
        r = client.get(url, headers={"${hh}": ""})
        body = r.json()
        rows.append([r.status_code, body["detail"][0]["type"] if r.status_code == 422 else body])
    return rows


def probe_documented_required(client):
    op = client.get("/openapi.json").json()["paths"]["/search"]["get"]
    return [[sorted([p["name"], p["required"]] for p in op["parameters"]), "requestBody" in op]]
'''

_HEADER_FROM_REQUEST = '''\
@app.get("/search")
def search(
    request: Request,
    q: Annotated[str, Query(min_length=${qmin}, max_length=${qmax})],
    limit: Annotated[int, Query(ge=1, le=${lmax})] = ${ldef},
    tag: Annotated[list[str] | None, Query()] = None,
):
    return {"q": q, "limit": limit, "tags": tag, "source": request.headers.get("${hh_lower}")}
'''

FAMILY = Family(
    id="openapi/query_param_schema",
    title="Query and header parameters: constraints, required and location in /openapi.json",
    category="openapi",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"qmin": 3, "qmax": 40, "lmax": 50, "ldef": 10, "hh": "X-Request-Source", "word": "lamp"},
    space={
        "qmin": [{"qmin": 3, "qmax": 40}, {"qmin": 2, "qmax": 16}, {"qmin": 4, "qmax": 64}],
        "lmax": [{"lmax": 50, "ldef": 10}, {"lmax": 20, "ldef": 20}, {"lmax": 100, "ldef": 1}],
        "hh": ["X-Request-Source", "X-Client", "X-Origin-App"],
        "word": ["lamp", "chair"],
    },
    derive=lambda p: {"hh_lower": p["hh"].lower(), "hp": p["hh"].lower().replace("-", "_"),
                      "qmax_over": p["qmax"] + 1, "lmax_over": p["lmax"] + 1,
                      "q_short": "la"[: p["qmin"] - 1] if p["qmin"] <= 3 else "lam", "q_ok": "abcd"[: p["qmin"]]},
    instances=54,
    requirements=(
        Requirement(
            "`q` is required (documented `required: true`; missing is 422) with ${qmin}..${qmax} "
            "characters, both ends inclusive and documented.",
            probes=("missing_q", "bounds", "documented_required", "present_but_empty"),
            traps=(Edit("q declared as Annotated[str, Query(...)] = ... (becomes an optional default)",
                        "q: Annotated[str, Query(min_length=${qmin}, max_length=${qmax})],",
                        "q: Annotated[str, Query(min_length=${qmin}, max_length=${qmax})] = ...,"),),
        ),
        Requirement(
            "`limit` defaults to ${ldef} and lies in 1..${lmax} inclusive, documented as minimum, "
            "maximum and default; an empty value is 422.",
            probes=("bounds", "defaults", "present_but_empty"),
            traps=(Edit("limit bounds as gt/lt (exclusiveMinimum/exclusiveMaximum)",
                        "Query(ge=1, le=${lmax})", "Query(gt=0, lt=${lmax_over})"),),
        ),
        Requirement(
            "`tag` is a repeatable query parameter (all values in order, null when none).",
            probes=("single_tag_and_header", "documented_required"),
            traps=(Edit("list parameter without Query() (read as a body)",
                        "tag: Annotated[list[str] | None, Query()] = None,", "tag: list[str] | None = None,"),),
        ),
        Requirement(
            "`${hh}` is an optional header documented as header parameter `${hh_lower}` (an empty "
            "value is the empty string).",
            probes=("single_tag_and_header", "documented_required", "present_but_empty"),
            traps=(Edit("header read from the Request (undocumented)", ENDPOINT, _HEADER_FROM_REQUEST),),
        ),
    ),
    expected_rows=[
        [200, {"q": "lamp", "limit": 5, "tags": ["red", "blue"], "source": "web"}],
        [422, "string_too_short", ["query", "q"]],
        [422, "greater_than_equal", ["query", "limit"]],
        ["limit", "query", False],
        ["q", "query", True],
        ["tag", "query", False],
        ["x-request-source", "header", False],
        [3, 40],
        [1, 50, 10],
    ],
)
