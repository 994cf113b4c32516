from fastapi_env.tasks import Task

PROMPT = '''\
Build a small inventory API whose item routes live on an `APIRouter`.

Data (module level):

    ITEMS = {1: {"id": 1, "name": "bolt"}, 2: {"id": 2, "name": "nut"}}
    TENANTS = {"acme", "globex"}

Routes:

- `GET /health`, declared on the app itself: returns `{"status": "ok"}`. It never looks at any
  tenant header.
- An `APIRouter` declared with prefix `/items`, tags `["items"]` and a router-level dependency
  `require_tenant`. The router is included into the app with `prefix="/v1"` and `tags=["v1"]`,
  so its routes are served under `/v1/items` and nowhere else (`/items`, `/items/1`, ... answer
  404 `{"detail": "Not Found"}`). Its routes:
  - `GET /v1/items`: returns the list of all items (list of objects, in id order).
  - `GET /v1/items/{item_id}` (`item_id` an integer path parameter), with the extra
    decorator tag `"read"`: returns the stored item object, or 404 `{"detail": "item not found"}`
    for an unknown id.
- `require_tenant` reads the `X-Tenant` request header. If the header is missing, or its value is
  not in `TENANTS`, it answers 403 with the JSON body `{"detail": "unknown tenant"}`. It applies
  to every route of the router and to no route outside it, and it runs before the route's own
  parameters are validated: e.g. `GET /v1/items/abc` without a valid tenant is a 403, while with
  a valid tenant it is the usual 422 validation error.
- In the OpenAPI document (`GET /openapi.json`) the operation `GET /v1/items/{item_id}` must have
  the tags `["v1", "items", "read"]` and `GET /v1/items` the tags `["v1", "items"]` (exactly,
  in this order).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order:

1. `GET /health`: `[status code (integer), JSON body (object)]`
2. `GET /v1/items` with header `X-Tenant: acme`: `[status code (integer), JSON body (list)]`
3. `GET /v1/items/2` with no `X-Tenant` header: `[status code (integer), JSON body (object)]`
4. `GET /items/1` with header `X-Tenant: acme`: `[status code (integer), JSON body (object)]`
5. `GET /v1/items/2` with header `X-Tenant: globex`: `[status code (integer), JSON body (object)]`
6. `GET /openapi.json`: `[the sorted list of the keys of "paths" (list of strings),
   the value of paths["/v1/items/{item_id}"]["get"]["tags"] (list of strings)]`
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException
from fastapi.testclient import TestClient

ITEMS = {1: {"id": 1, "name": "bolt"}, 2: {"id": 2, "name": "nut"}}
TENANTS = {"acme", "globex"}


def require_tenant(x_tenant: Annotated[str | None, Header()] = None):
    if x_tenant is None or x_tenant not in TENANTS:
        raise HTTPException(status_code=403, detail="unknown tenant")


router = APIRouter(prefix="/items", tags=["items"], dependencies=[Depends(require_tenant)])


@router.get("")
def list_items():
    return [ITEMS[k] for k in sorted(ITEMS)]


@router.get("/{item_id}", tags=["read"])
def get_item(item_id: int):
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return ITEMS[item_id]


app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok"}


app.include_router(router, prefix="/v1", tags=["v1"])

client = TestClient(app)
result = []
r = client.get("/health")
result.append([r.status_code, r.json()])
r = client.get("/v1/items", headers={"X-Tenant": "acme"})
result.append([r.status_code, r.json()])
r = client.get("/v1/items/2")
result.append([r.status_code, r.json()])
r = client.get("/items/1", headers={"X-Tenant": "acme"})
result.append([r.status_code, r.json()])
r = client.get("/v1/items/2", headers={"X-Tenant": "globex"})
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
result.append([sorted(spec["paths"]), spec["paths"]["/v1/items/{item_id}"]["get"]["tags"]])
'''

PROBES = '''\
def probe_tenant_before_validation(client):
    rows = []
    r = client.get("/v1/items/abc")
    rows.append([r.status_code, r.json()])
    r = client.get("/v1/items/abc", headers={"X-Tenant": "acme"})
    body = r.json()
    rows.append([r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]])
    return rows


def probe_unknown_tenant_and_item(client):
    rows = []
    r = client.get("/v1/items", headers={"X-Tenant": "initech"})
    rows.append([r.status_code, r.json()])
    r = client.get("/v1/items/9", headers={"X-Tenant": "globex"})
    rows.append([r.status_code, r.json()])
    r = client.get("/v1/items/1", headers={"X-Tenant": "acme"})
    rows.append([r.status_code, r.json()])
    return rows


def probe_health_ignores_tenant(client):
    r = client.get("/health", headers={"X-Tenant": "initech"})
    return [[r.status_code, r.json()]]


def probe_no_other_prefixes(client):
    rows = []
    for path in ["/items", "/items/2", "/v1/v1/items"]:
        r = client.get(path, headers={"X-Tenant": "acme"}, follow_redirects=False)
        rows.append([path, r.status_code])
    return rows


def probe_list_tags(client):
    spec = client.get("/openapi.json").json()
    return [[spec["paths"]["/v1/items"]["get"]["tags"]]]
'''

TRAP_DOUBLE_PREFIX = REFERENCE.replace(
    'router = APIRouter(prefix="/items"', 'router = APIRouter(prefix="/v1/items"'
).replace(
    '''r = client.get("/v1/items", headers''', '''r = client.get("/v1/v1/items", headers'''
).replace(
    '''r = client.get("/v1/items/2")''', '''r = client.get("/v1/v1/items/2")'''
).replace(
    '''r = client.get("/v1/items/2", headers''', '''r = client.get("/v1/v1/items/2", headers'''
).replace(
    'spec["paths"]["/v1/items/{item_id}"]', 'spec["paths"]["/v1/v1/items/{item_id}"]'
)

TRAP_APP_LEVEL_DEPENDENCY = REFERENCE.replace(
    'router = APIRouter(prefix="/items", tags=["items"], dependencies=[Depends(require_tenant)])',
    'router = APIRouter(prefix="/items", tags=["items"])',
).replace("app = FastAPI()", "app = FastAPI(dependencies=[Depends(require_tenant)])")

TRAP_CHECK_IN_HANDLER = '''\
from typing import Annotated

from fastapi import APIRouter, FastAPI, Header, HTTPException
from fastapi.testclient import TestClient

ITEMS = {1: {"id": 1, "name": "bolt"}, 2: {"id": 2, "name": "nut"}}
TENANTS = {"acme", "globex"}


def check_tenant(x_tenant):
    if x_tenant is None or x_tenant not in TENANTS:
        raise HTTPException(status_code=403, detail="unknown tenant")


router = APIRouter(prefix="/items", tags=["items"])


@router.get("")
def list_items(x_tenant: Annotated[str | None, Header()] = None):
    check_tenant(x_tenant)
    return [ITEMS[k] for k in sorted(ITEMS)]


@router.get("/{item_id}", tags=["read"])
def get_item(item_id: int, x_tenant: Annotated[str | None, Header()] = None):
    check_tenant(x_tenant)
    if item_id not in ITEMS:
        raise HTTPException(status_code=404, detail="item not found")
    return ITEMS[item_id]


app = FastAPI()


@app.get("/health")
def health():
    return {"status": "ok"}


app.include_router(router, prefix="/v1", tags=["v1"])

client = TestClient(app)
result = []
r = client.get("/health")
result.append([r.status_code, r.json()])
r = client.get("/v1/items", headers={"X-Tenant": "acme"})
result.append([r.status_code, r.json()])
r = client.get("/v1/items/2")
result.append([r.status_code, r.json()])
r = client.get("/items/1", headers={"X-Tenant": "acme"})
result.append([r.status_code, r.json()])
r = client.get("/v1/items/2", headers={"X-Tenant": "globex"})
result.append([r.status_code, r.json()])
spec = client.get("/openapi.json").json()
result.append([sorted(spec["paths"]), spec["paths"]["/v1/items/{item_id}"]["get"]["tags"]])
'''

TASK = Task(
    id="structure/router_prefix_tags_deps",
    title="APIRouter prefix, tags and a router-level dependency",
    category="structure",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "version repeated in the router prefix (/v1/v1/items)": TRAP_DOUBLE_PREFIX,
        "tenant dependency declared on the whole app": TRAP_APP_LEVEL_DEPENDENCY,
        "tenant checked inside each handler, after parameter validation": TRAP_CHECK_IN_HANDLER,
    },
    expected_rows=[
        [200, {"status": "ok"}],
        [200, [{"id": 1, "name": "bolt"}, {"id": 2, "name": "nut"}]],
        [403, {"detail": "unknown tenant"}],
        [404, {"detail": "Not Found"}],
        [200, {"id": 2, "name": "nut"}],
        [["/health", "/v1/items", "/v1/items/{item_id}"], ["v1", "items", "read"]],
    ],
)
