from fastapi_env.tasks import Task

PROMPT = '''\
Build an orders API whose cross-cutting rules are implemented as three HTTP middlewares
(`@app.middleware("http")` or `app.add_middleware(...)`), one per rule:

- **served-by**: every response the application sends carries the header `X-Served-By: api-1`.
  "Every" means every: successful responses, 404s for unknown paths, validation errors, and the
  responses produced by the two other rules below.
- **maintenance**: when the request has the header `X-Maintenance: on`, the application answers
  503 with the JSON body `{"detail": "down for maintenance"}` for any path (known or not), without
  running any route and without applying the client-version rule.
- **client-version**: a request whose path starts with `/api/` (known route or not) and that has
  no `X-Client-Version` header is answered 426 with the JSON body
  `{"detail": "client version required"}`. Requests whose path does not start with `/api/` are
  not affected.

Routes:

- `GET /ping` returns `{"pong": true}`.
- `GET /api/orders` returns `[{"id": 1, "total": 30}, {"id": 2, "total": 12}]`.
- `GET /api/orders/{order_id}` (`order_id` an integer path parameter) returns the order with
  that id from the same list, or 404 `{"detail": "order not found"}`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order. Each row is `[status code (integer), the value of the X-Served-By
response header (string, or null if the header is absent), the JSON body]`:

1. `GET /ping`
2. `GET /api/orders` with header `X-Client-Version: 3`
3. `GET /api/orders` with no extra header
4. `GET /api/orders` with header `X-Maintenance: on` (and no `X-Client-Version`)
5. `GET /nope`
'''

MIDDLEWARES_RIGHT = '''\
@app.middleware("http")
async def client_version(request: Request, call_next):
    if request.url.path.startswith("/api/") and "x-client-version" not in request.headers:
        return JSONResponse({"detail": "client version required"}, status_code=426)
    return await call_next(request)


@app.middleware("http")
async def maintenance(request: Request, call_next):
    if request.headers.get("x-maintenance") == "on":
        return JSONResponse({"detail": "down for maintenance"}, status_code=503)
    return await call_next(request)


@app.middleware("http")
async def served_by(request: Request, call_next):
    response = await call_next(request)
    response.headers["X-Served-By"] = "api-1"
    return response
'''

BODY = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

ORDERS = [{"id": 1, "total": 30}, {"id": 2, "total": 12}]

app = FastAPI()

#MIDDLEWARES#

@app.get("/ping")
def ping():
    return {"pong": True}


@app.get("/api/orders")
def list_orders():
    return ORDERS


@app.get("/api/orders/{order_id}")
def get_order(order_id: int):
    for order in ORDERS:
        if order["id"] == order_id:
            return order
    raise HTTPException(status_code=404, detail="order not found")


client = TestClient(app)
result = []
for path, headers in [
    ("/ping", {}),
    ("/api/orders", {"X-Client-Version": "3"}),
    ("/api/orders", {}),
    ("/api/orders", {"X-Maintenance": "on"}),
    ("/nope", {}),
]:
    r = client.get(path, headers=headers)
    result.append([r.status_code, r.headers.get("x-served-by"), r.json()])
'''

REFERENCE = BODY.replace("#MIDDLEWARES#\n", MIDDLEWARES_RIGHT)

PROBES = '''\
def _row(r):
    return [r.status_code, r.headers.get("x-served-by"), r.json()]


def probe_unknown_api_path(client):
    return [
        _row(client.get("/api/nothing")),
        _row(client.get("/api/nothing", headers={"X-Client-Version": "1"})),
    ]


def probe_maintenance_everywhere(client):
    return [
        _row(client.get("/nope", headers={"X-Maintenance": "on"})),
        _row(client.get("/ping", headers={"X-Maintenance": "on"})),
        _row(client.get("/api/orders/1", headers={"X-Maintenance": "on", "X-Client-Version": "3"})),
        _row(client.get("/ping", headers={"X-Maintenance": "off"})),
    ]


def probe_order_lookup(client):
    rows = [
        _row(client.get("/api/orders/2", headers={"X-Client-Version": "3"})),
        _row(client.get("/api/orders/7", headers={"X-Client-Version": "3"})),
    ]
    r = client.get("/api/orders/x", headers={"X-Client-Version": "3"})
    rows.append([r.status_code, r.headers.get("x-served-by"), r.json()["detail"][0]["type"]])
    return rows


def probe_version_rule_prefix_only(client):
    return [_row(client.get("/apiary")), _row(client.get("/api"))]
'''

# Middlewares declared in the order they should act (first = outermost): in Starlette the last
# one added is the outermost, so the version check wins over maintenance and served-by is the
# innermost (its header is missing on the responses of the two other rules).
TRAP_DECLARED_OUTER_FIRST = BODY.replace("#MIDDLEWARES#\n", '''\
@app.middleware("http")
async def served_by(request: Request, call_next):
    response = await call_next(request)
    response.headers["X-Served-By"] = "api-1"
    return response


@app.middleware("http")
async def maintenance(request: Request, call_next):
    if request.headers.get("x-maintenance") == "on":
        return JSONResponse({"detail": "down for maintenance"}, status_code=503)
    return await call_next(request)


@app.middleware("http")
async def client_version(request: Request, call_next):
    if request.url.path.startswith("/api/") and "x-client-version" not in request.headers:
        return JSONResponse({"detail": "client version required"}, status_code=426)
    return await call_next(request)
''')

# Maintenance is outermost (so it wins), but served-by sits inside it.
TRAP_SERVED_BY_IN_THE_MIDDLE = BODY.replace("#MIDDLEWARES#\n", '''\
@app.middleware("http")
async def client_version(request: Request, call_next):
    if request.url.path.startswith("/api/") and "x-client-version" not in request.headers:
        return JSONResponse({"detail": "client version required"}, status_code=426)
    return await call_next(request)


@app.middleware("http")
async def served_by(request: Request, call_next):
    response = await call_next(request)
    response.headers["X-Served-By"] = "api-1"
    return response


@app.middleware("http")
async def maintenance(request: Request, call_next):
    if request.headers.get("x-maintenance") == "on":
        return JSONResponse({"detail": "down for maintenance"}, status_code=503)
    return await call_next(request)
''')

# The version rule as a dependency of the /api routes: unknown /api/ paths give 404, not 426.
TRAP_VERSION_AS_DEPENDENCY = REFERENCE.replace('''@app.middleware("http")
async def client_version(request: Request, call_next):
    if request.url.path.startswith("/api/") and "x-client-version" not in request.headers:
        return JSONResponse({"detail": "client version required"}, status_code=426)
    return await call_next(request)


''', '''def client_version(request: Request):
    if "x-client-version" not in request.headers:
        raise HTTPException(status_code=426, detail="client version required")


''').replace('@app.get("/api/orders")', '@app.get("/api/orders", dependencies=[Depends(client_version)])').replace(
    '@app.get("/api/orders/{order_id}")',
    '@app.get("/api/orders/{order_id}", dependencies=[Depends(client_version)])',
).replace("from fastapi import FastAPI,", "from fastapi import Depends, FastAPI,")

TASK = Task(
    id="structure/middleware_order",
    title="Three HTTP middlewares whose order decides precedence and headers",
    category="structure",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "middlewares added outermost-first (Starlette makes the last added outermost)":
            TRAP_DECLARED_OUTER_FIRST,
        "served-by inside the maintenance middleware": TRAP_SERVED_BY_IN_THE_MIDDLE,
        "client-version rule as a route dependency": TRAP_VERSION_AS_DEPENDENCY,
    },
    expected_rows=[
        [200, "api-1", {"pong": True}],
        [200, "api-1", [{"id": 1, "total": 30}, {"id": 2, "total": 12}]],
        [426, "api-1", {"detail": "client version required"}],
        [503, "api-1", {"detail": "down for maintenance"}],
        [404, "api-1", {"detail": "Not Found"}],
    ],
)
