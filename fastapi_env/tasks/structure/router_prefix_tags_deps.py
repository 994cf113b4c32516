from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a small inventory API whose item routes live on an `APIRouter`.

Data (module level):

    ITEMS = ${items_literal}
    TENANTS = {"${t1}", "${t2}"}

Routes:

- `GET /health`, declared on the app itself: returns `{"status": "ok"}`. It never looks at any
  tenant header.
- An `APIRouter` declared with prefix `${rp}`, tags `["${rtag}"]` and a router-level dependency
  `require_tenant`. The router is included into the app with `prefix="${ip}"` and `tags=["${itag}"]`,
  so its routes are served under `${full}` and nowhere else (`${rp}`, `${rp}/1`, ... answer
  404 `{"detail": "Not Found"}`). Its routes:
  - `GET ${full}`: returns the list of all items (list of objects, in id order).
  - `GET ${full}/{item_id}` (`item_id` an integer path parameter), with the extra
    decorator tag `"${dtag}"`: returns the stored item object, or 404 `{"detail": "item not found"}`
    for an unknown id.
- `require_tenant` reads the `${th}` request header. If the header is missing, or its value is
  not in `TENANTS`, it answers ${ds} with the JSON body `{"detail": "unknown tenant"}`. It applies
  to every route of the router and to no route outside it, and it runs before the route's own
  parameters are validated: e.g. `GET ${full}/abc` without a valid tenant is a ${ds}, while with
  a valid tenant it is the usual 422 validation error.
- In the OpenAPI document (`GET /openapi.json`) the operation `GET ${full}/{item_id}` must have
  the tags `["${itag}", "${rtag}", "${dtag}"]` and `GET ${full}` the tags `["${itag}", "${rtag}"]` (exactly,
  in this order).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order:

1. `GET /health`: `[status code (integer), JSON body (object)]`
2. `GET ${full}` with header `${th}: ${t1}`: `[status code (integer), JSON body (list)]`
3. `GET ${full}/${id2}` with no `${th}` header: `[status code (integer), JSON body (object)]`
4. `GET ${rp}/${id1}` with header `${th}: ${t1}`: `[status code (integer), JSON body (object)]`
5. `GET ${full}/${id2}` with header `${th}: ${t2}`: `[status code (integer), JSON body (object)]`
6. `GET /openapi.json`: `[the sorted list of the keys of "paths" (list of strings),
   the value of paths["${full}/{item_id}"]["get"]["tags"] (list of strings)]`
'''

_DEPENDENCY = '''\
def require_tenant(${tp}: Annotated[str | None, Header()] = None):
    if ${tp} is None or ${tp} not in TENANTS:
        raise HTTPException(status_code=${ds}, detail="unknown tenant")
'''

_ROUTER = 'router = APIRouter(prefix="${rp}", tags=["${rtag}"], dependencies=[Depends(require_tenant)])'
_INCLUDE = 'app.include_router(router, prefix="${ip}", tags=["${itag}"])'

_ITEM_ROUTES = '''\
@router.get("")
def list_items():
    return [ITEMS[k] for k in sorted(ITEMS)]


@router.get("/{item_id}", tags=["${dtag}"])
def get_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return ITEMS[item_id]
'''

_MIDDLE = _ROUTER + '''


''' + _ITEM_ROUTES + '''

app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok"}


''' + _INCLUDE

REFERENCE = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException
from fastapi.testclient import TestClient

ITEMS = ${items_literal}
TENANTS = {"${t1}", "${t2}"}


''' + _DEPENDENCY + '''

''' + _MIDDLE + '''

client = TestClient(app)
result = []
r = client.get("/health")
result.append([r.status_code, r.json()])
r = client.get("${full}", headers={"${th}": "${t1}"})
result.append([r.status_code, r.json()])
r = client.get("${full}/${id2}")
result.append([r.status_code, r.json()])
r = client.get("${rp}/${id1}", headers={"${th}": "${t1}"})
result.append([r.status_code, r.json()])
r = client.get("${full}/${id2}", headers={"${th}": "${t2}"})
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
result.append([sorted(spec["paths"]), spec["paths"].get("${full}/{item_id}", {}).get("get", {}).get("tags")])
'''

PROBES = '''\
def probe_tenant_before_validation(client):
    rows = []
    r = client.get("${full}/abc")
    rows.append([r.status_code, r.json()])
    r = client.get("${full}/abc", headers={"${th}": "nobody"})
    rows.append([r.status_code, r.json()])
    r = client.get("${full}/abc", headers={"${th}": "${t1}"})
    body = r.json()
    rows.append([r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]])
    return rows


def probe_unknown_and_malformed_tenants(client):
    rows = []
    for value in ["initech", "${t1_upper}", "", " ${t1}", "${t1},${t2}"]:
        r = client.get("${full}", headers={"${th}": value})
        rows.append([value, r.status_code, r.json()])
    r = client.get("${full}")
    rows.append(["missing", r.status_code, r.json()])
    return rows


def probe_items_for_a_tenant(client):
    rows = []
    r = client.get("${full}/${unknown}", headers={"${th}": "${t2}"})
    rows.append([r.status_code, r.json()])
    r = client.get("${full}/${id1}", headers={"${th}": "${t1}"})
    rows.append([r.status_code, r.json()])
    r = client.get("${full}/0", headers={"${th}": "${t1}"})
    rows.append([r.status_code, r.json()])
    r = client.get("${full}", headers={"${th}": "${t2}"})
    rows.append([r.status_code, r.json()])
    return rows


def probe_health_ignores_tenant(client):
    r = client.get("/health", headers={"${th}": "initech"})
    s = client.get("/health")
    return [[r.status_code, r.json(), s.status_code, s.json()]]


def probe_no_other_prefixes(client):
    rows = []
    for path in ["${rp}", "${rp}/${id2}", "${ip}${full}", "${ip}", "${ip}/health"]:
        r = client.get(path, headers={"${th}": "${t1}"}, follow_redirects=False)
        rows.append([path, r.status_code])
    return rows


def probe_operation_tags(client):
    spec = client.get("/openapi.json").json()
    return [[spec["paths"]["${full}"]["get"]["tags"], spec["paths"]["${full}/{item_id}"]["get"]["tags"],
             spec["paths"]["/health"]["get"].get("tags")]]
'''

_DATA = [
    {"items": [[1, "bolt"], [2, "nut"]], "t1": "acme", "t2": "globex"},
    {"items": [[3, "gear"], [7, "cog"], [9, "axle"]], "t1": "initrode", "t2": "umbrella"},
    {"items": [[2, "washer"], [5, "rivet"]], "t1": "stark", "t2": "wayne"},
    {"items": [[10, "hinge"], [11, "latch"], [12, "hook"]], "t1": "hooli", "t2": "pied"},
]

_LAYOUT = [
    {"rp": "/items", "ip": "/v1", "rtag": "items", "itag": "v1", "dtag": "read"},
    {"rp": "/products", "ip": "/v2", "rtag": "products", "itag": "v2", "dtag": "detail"},
    {"rp": "/parts", "ip": "/api", "rtag": "parts", "itag": "public", "dtag": "lookup"},
    {"rp": "/stock", "ip": "/internal", "rtag": "stock", "itag": "internal", "dtag": "single"},
]


def _derive(p):
    items = ", ".join(f'{i}: {{"id": {i}, "name": "{n}"}}' for i, n in p["items"])
    return {
        "items_literal": "{" + items + "}",
        "full": p["ip"] + p["rp"],
        "tp": p["th"].lower().replace("-", "_"),
        "id1": p["items"][0][0], "id2": p["items"][1][0],
        "unknown": max(i for i, _ in p["items"]) + 6,
        "t1_upper": p["t1"].upper(),
        "other_ds": 401 if p["ds"] != 401 else 403,
    }


FAMILY = Family(
    id="structure/router_prefix_tags_deps",
    title="APIRouter prefix, tags and a router-level dependency",
    category="structure",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={**_DATA[0], **_LAYOUT[0], "th": "X-Tenant", "ds": 403},
    space={
        "data": _DATA,
        "layout": _LAYOUT,
        # the header's name never reaches a row: it rides with the denial status
        "tenant": [{"th": "X-Tenant", "ds": 403}, {"th": "X-Org", "ds": 401}],
    },
    derive=_derive,
    instances=36,
    requirements=(
        Requirement(
            "The router's routes are served under `${full}` only (`${rp}...` and a doubled "
            "prefix are 404).",
            probes=("no_other_prefixes",),
            traps=(Edit("version repeated in the router prefix", 'APIRouter(prefix="${rp}"',
                        'APIRouter(prefix="${full}"'),),
        ),
        Requirement(
            "`require_tenant` guards every router route and nothing else: `/health` answers with "
            "any or no `${th}`.",
            probes=("health_ignores_tenant",),
            traps=(Edit("tenant dependency declared on the whole app", "app = FastAPI()",
                        "app = FastAPI(dependencies=[Depends(require_tenant)])"),),
        ),
        Requirement(
            "Only a `${th}` exactly in `TENANTS` passes; missing, empty, other case, padded or "
            'unknown values answer ${ds} `{"detail": "unknown tenant"}`.',
            probes=("unknown_and_malformed_tenants",),
            traps=(
                Edit("tenant compared case-insensitively and trimmed", "${tp} not in TENANTS:",
                     "${tp}.strip().lower() not in TENANTS:"),
                Edit("any non-empty tenant accepted", "if ${tp} is None or ${tp} not in TENANTS:",
                     "if not ${tp}:"),
                Edit("unknown tenant answers another status", "status_code=${ds},", "status_code=${other_ds},"),
            ),
        ),
        Requirement(
            "The tenant check runs before the route's parameters are validated (`${full}/abc` is "
            "${ds} without a valid tenant, 422 with one).",
            probes=("tenant_before_validation",),
            traps=(Edit("tenant checked inside each handler, after parameter validation", _ROUTER + "\n\n\n" + _ITEM_ROUTES,
                        'router = APIRouter(prefix="${rp}", tags=["${rtag}"])\n\n\n'
                        + _ITEM_ROUTES.replace("def list_items():\n",
                                               "def list_items(${tp}: Annotated[str | None, Header()] = None):\n"
                                               "    require_tenant(${tp})\n")
                        .replace("def get_item(item_id: int):\n",
                                 "def get_item(item_id: int, ${tp}: Annotated[str | None, Header()] = None):\n"
                                 "    require_tenant(${tp})\n")),),
        ),
        Requirement(
            'An item id is an integer; an unknown one is 404 `{"detail": "item not found"}`; the '
            "list holds all items in id order.",
            probes=("items_for_a_tenant",),
            traps=(Edit("unknown item answers null", '        raise HTTPException(status_code=404, detail="item not found")\n',
                        "        return None\n"),),
        ),
        Requirement(
            'The operations are tagged `["${itag}", "${rtag}"]` and `["${itag}", "${rtag}", "${dtag}"]`, '
            "in that order; `/health` has no tag.",
            probes=("operation_tags",),
            traps=(
                Edit("router and include tags swapped", _MIDDLE, _MIDDLE.replace(
                    'tags=["${rtag}"], dependencies', 'tags=["${itag}"], dependencies').replace(
                    'prefix="${ip}", tags=["${itag}"]', 'prefix="${ip}", tags=["${rtag}"]')),
            ),
        ),
    ),
    expected_rows=[
        [200, {"status": "ok"}],
        [200, [{"id": 1, "name": "bolt"}, {"id": 2, "name": "nut"}]],
        [403, {"detail": "unknown tenant"}],
        [404, {"detail": "Not Found"}],
        [200, {"id": 2, "name": "nut"}],
        [["/health", "/v1/items", "/v1/items/{item_id}"], ["v1", "items", "read"]],
    ],
)
