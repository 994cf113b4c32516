from fastapi_env.tasks import Task

PROMPT = '''\
Build a search endpoint whose parameters are validated by FastAPI and documented in
`/openapi.json`.

`GET /search` takes:

- `q`: a **required** query parameter, a string of 3 to 40 characters (inclusive). Its documented
  schema has `minLength` 3 and `maxLength` 40.
- `limit`: an optional integer query parameter, default 10, allowed range 1 to 50 inclusive. Its
  documented schema has `minimum` 1, `maximum` 50 and `default` 10.
- `tag`: an optional query parameter that may be repeated (`?tag=red&tag=blue`); the handler gets
  the list of all values in order, or `None` when there is none.
- `X-Request-Source`: an optional request header (documented as a header parameter named
  `x-request-source`); `None` when absent.

It returns `{"q": q, "limit": limit, "tags": <the tag list or null>, "source": <the header value
or null>}`. Invalid input gets FastAPI's standard 422 validation error, and these four are the only
parameters documented for the operation.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `GET /search?q=lamp&tag=red&tag=blue&limit=5` with header `X-Request-Source: web`:
   `[status code (integer), JSON body (object)]`
2. `GET /search?q=la`: `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`
3. `GET /search?q=lamp&limit=0`: `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`
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
    q: Annotated[str, Query(min_length=3, max_length=40)],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    tag: Annotated[list[str] | None, Query()] = None,
    x_request_source: Annotated[str | None, Header()] = None,
):
    return {"q": q, "limit": limit, "tags": tag, "source": x_request_source}
'''

TAIL = '''

client = TestClient(app)
result = []
r = client.get("/search?q=lamp&tag=red&tag=blue&limit=5", headers={"X-Request-Source": "web"})
result.append([r.status_code, r.json()])
for url in ["/search?q=la", "/search?q=lamp&limit=0"]:
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
    r = client.get("/search?q=desk")
    return [[r.status_code, r.json()]]


def probe_bounds(client):
    rows = []
    for url in ["/search?q=" + "x" * 41, "/search?q=" + "x" * 40, "/search?q=abc&limit=51",
                "/search?q=abc&limit=50", "/search?q=abc&limit=1"]:
        r = client.get(url)
        body = r.json()
        rows.append([r.status_code, body["detail"][0]["type"] if r.status_code == 422 else body])
    return rows


def probe_single_tag_and_header(client):
    r = client.get("/search?q=chair&tag=oak", headers={"X-Request-Source": "app"})
    return [[r.status_code, r.json()]]


def probe_documented_required(client):
    op = client.get("/openapi.json").json()["paths"]["/search"]["get"]
    return [[sorted([p["name"], p["required"]] for p in op["parameters"]), "requestBody" in op]]
'''

# Required "with Ellipsis" inside Annotated: in FastAPI 0.165 the `...` becomes the default,
# so q is documented as optional and a missing q reaches the handler as Ellipsis (500).
TRAP_ELLIPSIS_DEFAULT = REFERENCE.replace(
    "q: Annotated[str, Query(min_length=3, max_length=40)],",
    "q: Annotated[str, Query(min_length=3, max_length=40)] = ...,",
)

TRAP_EXCLUSIVE_BOUNDS = REFERENCE.replace("Query(ge=1, le=50)", "Query(gt=0, lt=51)")

TRAP_LIST_WITHOUT_QUERY = REFERENCE.replace(
    "tag: Annotated[list[str] | None, Query()] = None,", "tag: list[str] | None = None,"
)

TRAP_HEADER_FROM_REQUEST = HEAD + '''\
@app.get("/search")
def search(
    request: Request,
    q: Annotated[str, Query(min_length=3, max_length=40)],
    limit: Annotated[int, Query(ge=1, le=50)] = 10,
    tag: Annotated[list[str] | None, Query()] = None,
):
    return {"q": q, "limit": limit, "tags": tag, "source": request.headers.get("x-request-source")}
''' + TAIL

TASK = Task(
    id="openapi/query_param_schema",
    title="Query and header parameters: constraints, required and location in /openapi.json",
    category="openapi",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "q declared as Annotated[str, Query(...)] = ... (becomes an optional default)":
            TRAP_ELLIPSIS_DEFAULT,
        "limit bounds as gt/lt (exclusiveMinimum/exclusiveMaximum)": TRAP_EXCLUSIVE_BOUNDS,
        "list parameter without Query() (read as a body)": TRAP_LIST_WITHOUT_QUERY,
        "header read from the Request (undocumented)": TRAP_HEADER_FROM_REQUEST,
    },
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
