from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a shop API made of two FastAPI applications: the main app and an admin app mounted
into it.

**Startup.** When the application starts (in a lifespan, not at import), it loads its runtime
configuration: the region `"${region}"` and the admin user list `${admins_json}`. Handlers of both
applications read these values from the request state: `request.state.region` and
`request.state.admins`.

**Main app** (`FastAPI(title="Shop")`, the module's `app`):

- `PRODUCTS = ${products_literal}` (module level).
- `GET /status` returns `{"service": "shop", "region": <region>}`.
- `GET /products/{product_id}` (`product_id` an integer) returns the stored product, or 404
  with FastAPI's default error body `{"detail": "no such product"}`.

**Admin app**: a separate `FastAPI(title="${admin_title}", version="${admin_version}")` application mounted at
`${mount}` with `app.mount`. It has its own OpenAPI document at `${mount}/openapi.json` and its own
Swagger UI at `${mount}/docs` (which loads `${mount}/openapi.json`); none of its routes appear in the
main app's `/openapi.json`. Its routes (paths as seen by clients):

- `GET ${mount}/users` returns the admin user list (list of strings).
- `GET ${mount}/users/{name}` returns `{"name": <name>, "region": <region>}` when `name` is an
  admin, otherwise raises `HTTPException(${missing}, "no such admin")`.

Errors raised with `HTTPException` inside the admin app are rendered as `{"${err_key}": <detail>}`
(same status code); the main app keeps FastAPI's default `{"detail": <detail>}` shape.

Then, using `fastapi.testclient.TestClient` **as a context manager** (`with TestClient(app) as
client:`, so that startup runs), make these requests and fill `result` with one row per request,
in this order:

1. `GET /status`: `[status code (integer), JSON body (object)]`
2. `GET ${mount}/users`: `[status code (integer), JSON body (list)]`
3. `GET ${mount}/users/zed`: `[status code (integer), JSON body (object)]`
4. `GET /products/9`: `[status code (integer), JSON body (object)]`
5. `GET ${mount}/openapi.json`: `[status code (integer), info["title"] (string), info["version"]
   (string), the "servers" value (list), the sorted list of the keys of "paths" (list of strings)]`
6. `GET /openapi.json`: `[status code (integer), info["title"] (string), the sorted list of the
   keys of "paths" (list of strings)]`
'''

_STARTUP = '''\
@asynccontextmanager
async def lifespan(app):
    yield {"region": "${region}", "admins": ${admins_json}}


admin = FastAPI(title="${admin_title}", version="${admin_version}")
'''

_MEMBER = "    if name not in request.state.admins:\n"

REFERENCE = '''\
from contextlib import asynccontextmanager

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

PRODUCTS = ${products_literal}


''' + _STARTUP + '''app = FastAPI(title="Shop", lifespan=lifespan)


@app.get("/status")
def status(request: Request):
    return {"service": "shop", "region": request.state.region}


@app.get("/products/{product_id}")
def get_product(product_id: int):
    if product_id not in PRODUCTS:
        raise HTTPException(status_code=404, detail="no such product")
    return PRODUCTS[product_id]


@admin.exception_handler(HTTPException)
async def admin_http_error(request: Request, exc: HTTPException):
    return JSONResponse({"${err_key}": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@admin.get("/users")
def admin_users(request: Request):
    return request.state.admins


@admin.get("/users/{name}")
def admin_user(name: str, request: Request):
''' + _MEMBER + '''\
        raise HTTPException(status_code=${missing}, detail="no such admin")
    return {"name": name, "region": request.state.region}


app.mount("${mount}", admin)

result = []
with TestClient(app) as client:
    for path in ["/status", "${mount}/users", "${mount}/users/zed", "/products/9"]:
        r = client.get(path)
        result.append([r.status_code, r.json()])
    r = client.get("${mount}/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec.get("info", {}).get("title"), spec.get("info", {}).get("version"),
                   spec.get("servers"), sorted(spec.get("paths", {}))])
    r = client.get("/openapi.json")
    spec = r.json()
    result.append([r.status_code, spec["info"]["title"], sorted(spec["paths"])])
'''

PROBES = '''\
def probe_admin_users(client):
    rows = []
    for name in ${admins_json} + ["${admin_cap}", "zed", "${admin_space}"]:
        r = client.get("${mount}/users/" + name)
        rows.append([name, r.status_code, r.json()])
    r = client.get("${mount}/users")
    rows.append(["list", r.status_code, r.json()])
    return rows


def probe_main_product(client):
    rows = []
    for path in ["/products/${pid}", "/products/${pid_other}", "/products/0", "/status"]:
        r = client.get(path)
        rows.append([path, r.status_code, r.json()])
    r = client.get("/products/x")
    rows.append(["/products/x", r.status_code, r.json()["detail"][0]["type"]])
    return rows


def probe_admin_docs(client):
    r = client.get("${mount}/docs")
    return [[r.status_code, "${mount}/openapi.json" in r.text]]


def probe_admin_not_at_root(client):
    return [[client.get("/users").status_code, client.get("/users").json()],
            [client.get("/docs").status_code, "${mount}/openapi.json" in client.get("/docs").text]]


def probe_schemas_are_separate(client):
    main = client.get("/openapi.json").json()
    sub = client.get("${mount}/openapi.json").json()
    return [[
        sorted(main["paths"]),
        "servers" in main,
        sub["info"], sub.get("servers"), sorted(sub["paths"]),
        sorted(sub["paths"]["/users/{name}"]),
    ]]
'''

_ADMINS = [["ada", "bob"], ["cy", "dee", "eve"], ["root"]]


def _derive(p):
    products = ", ".join(f'{i}: {{"id": {i}, "name": "{n}"}}' for i, n in p["products"])
    return {
        "admins_json": "[" + ", ".join(f'"{a}"' for a in p["admins"]) + "]",
        "admin_cap": p["admins"][0].capitalize(), "admin_space": p["admins"][0] + " ",
        "products_literal": "{" + products + "}",
        "pid": p["products"][0][0], "pid_other": p["products"][0][0] + 1,
        "other_missing": 403 if p["missing"] != 403 else 404,
    }


FAMILY = Family(
    id="structure/mounted_admin_app",
    title="Mounted admin sub-application with its own docs, errors and shared startup state",
    category="structure",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"region": "eu-1", "admins": _ADMINS[0], "products": [[1, "lamp"]], "mount": "/admin",
              "admin_title": "Shop Admin", "admin_version": "2.0.0", "err_key": "error", "missing": 404},
    space={
        "region": ["eu-1", "us-2", "ap-3"],
        "admins": _ADMINS,
        "products": [[[1, "lamp"]], [[4, "desk"]]],
        "mount": ["/admin", "/staff"],
        "admin_app": [{"admin_title": "Shop Admin", "admin_version": "2.0.0"},
                      {"admin_title": "Back Office", "admin_version": "0.3.1"}],
        "err_key": ["error", "message"],
        "missing": [404, 403],
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            "The admin app is mounted at `${mount}`: its routes answer there and not at the root, "
            'with its own OpenAPI document (its info, `servers` `[{"url": "${mount}"}]`, its '
            "paths only) and Swagger UI; the main document lists none of them.",
            probes=("schemas_are_separate", "admin_docs", "admin_not_at_root"),
            traps=(Edit("admin routes included as a router instead of mounted", 'app.mount("${mount}", admin)',
                        'app.include_router(admin.router, prefix="${mount}")'),),
        ),
        Requirement(
            "The lifespan's region and admin list reach the handlers of both applications through "
            "`request.state`.",
            probes=("admin_users", "main_product"),
            traps=(Edit("admin start-up in the mounted app's own lifespan (never runs)", _STARTUP,
                        "@asynccontextmanager\nasync def lifespan(app):\n"
                        '    yield {"region": "${region}"}\n\n\n'
                        "@asynccontextmanager\nasync def admin_lifespan(app):\n"
                        '    yield {"region": "${region}", "admins": ${admins_json}}\n\n\n'
                        'admin = FastAPI(title="${admin_title}", version="${admin_version}", lifespan=admin_lifespan)\n'),),
        ),
        Requirement(
            "Admin errors are `{\"${err_key}\": <detail>}`; a name not exactly in the admin list "
            "(case and spaces count) is ${missing} `no such admin`.",
            probes=("admin_users",),
            traps=(
                Edit("admin error handler installed on the main app", "@admin.exception_handler(HTTPException)",
                     "@app.exception_handler(HTTPException)"),
                Edit("admin names matched case-insensitively", _MEMBER,
                     "    if name.strip().lower() not in request.state.admins:\n"),
                Edit("unknown admin answers another status", 'status_code=${missing}, detail="no such admin"',
                     'status_code=${other_missing}, detail="no such admin"'),
            ),
        ),
        Requirement(
            'The main app keeps FastAPI\'s `{"detail": ...}` errors: an unknown product is 404 '
            '`{"detail": "no such product"}`, a non-integer id the usual 422.',
            probes=("main_product",),
            traps=(Edit("admin error shape applied to the main app too", "@admin.exception_handler(HTTPException)",
                        "@app.exception_handler(HTTPException)\n@admin.exception_handler(HTTPException)"),),
        ),
    ),
    expected_rows=[
        [200, {"service": "shop", "region": "eu-1"}],
        [200, ["ada", "bob"]],
        [404, {"error": "no such admin"}],
        [404, {"detail": "no such product"}],
        [200, "Shop Admin", "2.0.0", [{"url": "/admin"}], ["/users", "/users/{name}"]],
        [200, "Shop", ["/products/{product_id}", "/status"]],
    ],
)
