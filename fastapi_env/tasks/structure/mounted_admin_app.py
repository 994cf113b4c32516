from fastapi_env.tasks import Task

PROMPT = '''\
Build a shop API made of two FastAPI applications: the main app and an admin app mounted
into it.

**Startup.** When the application starts (in a lifespan, not at import), it loads its runtime
configuration: the region `"eu-1"` and the admin user list `["ada", "bob"]`. Handlers of both
applications read these values from the request state: `request.state.region` and
`request.state.admins`.

**Main app** (`FastAPI(title="Shop")`, the module's `app`):

- `PRODUCTS = {1: {"id": 1, "name": "lamp"}}` (module level).
- `GET /status` returns `{"service": "shop", "region": <region>}`.
- `GET /products/{product_id}` (`product_id` an integer) returns the stored product, or 404
  with FastAPI's default error body `{"detail": "no such product"}`.

**Admin app**: a separate `FastAPI(title="Shop Admin", version="2.0.0")` application mounted at
`/admin` with `app.mount`. It has its own OpenAPI document at `/admin/openapi.json` and its own
Swagger UI at `/admin/docs` (which loads `/admin/openapi.json`); none of its routes appear in the
main app's `/openapi.json`. Its routes (paths as seen by clients):

- `GET /admin/users` returns the admin user list (list of strings).
- `GET /admin/users/{name}` returns `{"name": <name>, "region": <region>}` when `name` is an
  admin, otherwise raises `HTTPException(404, "no such admin")`.

Errors raised with `HTTPException` inside the admin app are rendered as `{"error": <detail>}`
(same status code); the main app keeps FastAPI's default `{"detail": <detail>}` shape.

Then, using `fastapi.testclient.TestClient` **as a context manager** (`with TestClient(app) as
client:`, so that startup runs), make these requests and fill `result` with one row per request,
in this order:

1. `GET /status`: `[status code (integer), JSON body (object)]`
2. `GET /admin/users`: `[status code (integer), JSON body (list)]`
3. `GET /admin/users/zed`: `[status code (integer), JSON body (object)]`
4. `GET /products/9`: `[status code (integer), JSON body (object)]`
5. `GET /admin/openapi.json`: `[status code (integer), info["title"] (string), info["version"]
   (string), the "servers" value (list), the sorted list of the keys of "paths" (list of strings)]`
6. `GET /openapi.json`: `[status code (integer), info["title"] (string), the sorted list of the
   keys of "paths" (list of strings)]`
'''

REFERENCE = '''\
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

PRODUCTS = {1: {"id": 1, "name": "lamp"}}


@asynccontextmanager
async def lifespan(app):
    yield {"region": "eu-1", "admins": ["ada", "bob"]}


app = FastAPI(title="Shop", lifespan=lifespan)


@app.get("/status")
def status(request: Request):
    return {"service": "shop", "region": request.state.region}


@app.get("/products/{product_id}")
def get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="no such product")
    return PRODUCTS[product_id]


admin = FastAPI(title="Shop Admin", version="2.0.0")


@admin.exception_handler(HTTPException)
async def admin_http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@admin.get("/users")
def admin_users(request: Request):
    return request.state.admins


@admin.get("/users/{name}")
def admin_user(name: str, request: Request):
    if name not in request.state.admins:
        raise HTTPException(status_code=404, detail="no such admin")
    return {"name": name, "region": request.state.region}


app.mount("/admin", admin)

result = []
with TestClient(app) as client:
    for path in ["/status", "/admin/users", "/admin/users/zed", "/products/9"]:
        r = client.get(path)
        result.append([r.status_code, r.json()])
    r = client.get("/admin/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], spec["info"]["version"],
                   spec["servers"], sorted(spec["paths"])])
    r = client.get("/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], sorted(spec["paths"])])
'''

PROBES = '''\
def probe_admin_user_found(client):
    r = client.get("/admin/users/bob")
    return [[r.status_code, r.json()]]


def probe_main_product(client):
    rows = []
    r = client.get("/products/1")
    rows.append([r.status_code, r.json()])
    r = client.get("/products/2")
    rows.append([r.status_code, r.json()])
    return rows


def probe_admin_docs(client):
    r = client.get("/admin/docs")
    return [[r.status_code, "/admin/openapi.json" in r.text]]


def probe_admin_not_at_root(client):
    r = client.get("/users")
    return [[r.status_code, r.json()]]


def probe_schemas_are_separate(client):
    main = client.get("/openapi.json").json()
    sub = client.get("/admin/openapi.json").json()
    return [[
        any(p.startswith("/admin") for p in main["paths"]),
        "servers" in main,
        sorted(sub["paths"]["/users/{name}"]),
    ]]
'''

TRAP_INCLUDE_ROUTER = '''\
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

PRODUCTS = {1: {"id": 1, "name": "lamp"}}


@asynccontextmanager
async def lifespan(app):
    yield {"region": "eu-1", "admins": ["ada", "bob"]}


app = FastAPI(title="Shop", lifespan=lifespan)


@app.get("/status")
def status(request: Request):
    return {"service": "shop", "region": request.state.region}


@app.get("/products/{product_id}")
def get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="no such product")
    return PRODUCTS[product_id]


class AdminError(Exception):
    def __init__(self, status_code, detail):
        self.status_code, self.detail = status_code, detail


@app.exception_handler(AdminError)
async def admin_error(request: Request, exc: AdminError):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


admin = APIRouter(prefix="/admin")


@admin.get("/users")
def admin_users(request: Request):
    return request.state.admins


@admin.get("/users/{name}")
def admin_user(name: str, request: Request):
    if name not in request.state.admins:
        raise AdminError(404, "no such admin")
    return {"name": name, "region": request.state.region}


@admin.get("/openapi.json", include_in_schema=False)
def admin_openapi():
    spec = app.openapi()
    paths = {p[len("/admin"):]: v for p, v in spec["paths"].items() if p.startswith("/admin")}
    return {"openapi": spec["openapi"], "info": {"title": "Shop Admin", "version": "2.0.0"},
            "paths": paths, "servers": [{"url": "/admin"}]}


app.include_router(admin)

result = []
with TestClient(app) as client:
    for path in ["/status", "/admin/users", "/admin/users/zed", "/products/9"]:
        r = client.get(path)
        result.append([r.status_code, r.json()])
    r = client.get("/admin/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], spec["info"]["version"],
                   spec["servers"], sorted(spec["paths"])])
    r = client.get("/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], sorted(spec["paths"])])
'''

TRAP_SUBAPP_LIFESPAN = '''\
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

PRODUCTS = {1: {"id": 1, "name": "lamp"}}


@asynccontextmanager
async def lifespan(app):
    yield {"region": "eu-1"}


@asynccontextmanager
async def admin_lifespan(app):
    yield {"region": "eu-1", "admins": ["ada", "bob"]}


app = FastAPI(title="Shop", lifespan=lifespan)


@app.get("/status")
def status(request: Request):
    return {"service": "shop", "region": request.state.region}


@app.get("/products/{product_id}")
def get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="no such product")
    return PRODUCTS[product_id]


admin = FastAPI(title="Shop Admin", version="2.0.0", lifespan=admin_lifespan)


@admin.exception_handler(HTTPException)
async def admin_http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code)


@admin.get("/users")
def admin_users(request: Request):
    return getattr(request.state, "admins", [])


@admin.get("/users/{name}")
def admin_user(name: str, request: Request):
    if name not in getattr(request.state, "admins", []):
        raise HTTPException(status_code=404, detail="no such admin")
    return {"name": name, "region": request.state.region}


app.mount("/admin", admin)

result = []
with TestClient(app) as client:
    for path in ["/status", "/admin/users", "/admin/users/zed", "/products/9"]:
        r = client.get(path)
        result.append([r.status_code, r.json()])
    r = client.get("/admin/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], spec["info"]["version"],
                   spec["servers"], sorted(spec["paths"])])
    r = client.get("/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], sorted(spec["paths"])])
'''

TRAP_HANDLER_ON_MAIN_APP = REFERENCE.replace(
    "@admin.exception_handler(HTTPException)", "@app.exception_handler(HTTPException)"
)


TASK = Task(
    id="structure/mounted_admin_app",
    title="Mounted admin sub-application with its own docs, errors and shared startup state",
    category="structure",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "admin routes on an APIRouter with a hand-made /admin/openapi.json": TRAP_INCLUDE_ROUTER,
        "admin start-up in the mounted app's own lifespan (never runs)": TRAP_SUBAPP_LIFESPAN,
        "admin error handler registered on the main app": TRAP_HANDLER_ON_MAIN_APP,
    },
    expected_rows=[
        [200, {"service": "shop", "region": "eu-1"}],
        [200, ["ada", "bob"]],
        [404, {"error": "no such admin"}],
        [404, {"detail": "no such product"}],
        [200, "Shop Admin", "2.0.0", [{"url": "/admin"}], ["/users", "/users/{name}"]],
        [200, "Shop", ["/products/{product_id}", "/status"]],
    ],
)
