from fastapi_env.tasks import Task

_HEAD = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel


class OrderIn(BaseModel):
    item: str
    qty: int


ORDERS = {}
app = FastAPI()

'''

_TAIL = '''

client = TestClient(app)
result = []
for method, path, body in [
    ("GET", "/health", None),
    ("POST", "/health", None),
    ("POST", "/orders", {"item": "pen", "qty": 2}),
    ("GET", "/orders", None),
    ("PUT", "/orders/1", None),
    ("GET", "/orders/1", None),
    ("GET", "/status", None),
]:
    r = client.request(method, path, json=body)
    result.append([r.status_code, r.headers.get("allow"), r.json()])
'''

_ROUTES = '''\
@app.get("/health")
def health():
    return {"status": "ok"}


@app.post("/orders", status_code=201)
def create_order(order: OrderIn):
    order_id = len(ORDERS) + 1
    ORDERS[order_id] = {"id": order_id, **order.model_dump()}
    return ORDERS[order_id]


@app.get("/orders/{order_id}")
def read_order(order_id: int):
    if order_id not in ORDERS:
        raise HTTPException(status_code=404, detail="order not found")
    return ORDERS[order_id]
'''

_API_ROUTE_NO_METHODS = _ROUTES.replace(
    '@app.post("/orders", status_code=201)', '@app.api_route("/orders", status_code=201)'
)

_HANDLER_DROPS_HEADERS = _ROUTES + '''

from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException


@app.exception_handler(StarletteHTTPException)
async def json_errors(request, exc):
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
'''

_FALLBACK = _ROUTES + '''

@app.api_route("/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
def not_found(rest: str):
    raise HTTPException(status_code=404, detail="Not Found")
'''

_HEAD_TOO = _ROUTES.replace(
    '@app.get("/health")', '@app.api_route("/health", methods=["GET", "HEAD"])'
)

TASK = Task(
    id="routing/method_not_allowed",
    title="A known path with the wrong method is a 405 with an Allow header",
    category="routing",
    difficulty="easy",
    prompt='''\
Build a small orders service. Each path serves exactly one HTTP method:

- `GET /health` returns `{"status": "ok"}`.
- `POST /orders` takes a JSON body `{"item": <string>, "qty": <integer>}` (a Pydantic model
  `OrderIn`), stores the order in a module-level dict and answers **201** with
  `{"id": <int>, "item": <str>, "qty": <int>}`. Ids are 1, 2, 3, ... in creation order.
- `GET /orders/{order_id}` (`order_id` an integer) returns the stored order, or 404 with
  `{"detail": "order not found"}`.

Any other method on one of these paths (HEAD and OPTIONS included) is answered by FastAPI's
default 405 response: body `{"detail": "Method Not Allowed"}` and an `allow` header naming the
path's one method. A path that matches none of these routes (e.g. `/status`) answers FastAPI's
default 404, `{"detail": "Not Found"}`.

Then fill `result` with one row per request, in this order (send every request with
`client.request(method, path, json=body)`, `body` being `None` unless given), each row
`[status code (integer), the value of the response's allow header (string, or null when the
header is absent), the JSON body]`:
1. `GET /health`
2. `POST /health`
3. `POST /orders` with body `{"item": "pen", "qty": 2}`
4. `GET /orders`
5. `PUT /orders/1`
6. `GET /orders/1`
7. `GET /status`
''',
    reference=_HEAD + _ROUTES + _TAIL,
    probes='''\
def probe_wrong_methods(client):
    rows = []
    for method, path in [("DELETE", "/health"), ("PATCH", "/orders"), ("DELETE", "/orders/1"),
                         ("POST", "/orders/2")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, r.headers.get("allow"), r.json()])
    return rows


def probe_head_and_options(client):
    rows = []
    for method, path in [("HEAD", "/health"), ("OPTIONS", "/orders"), ("HEAD", "/orders/1")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, r.headers.get("allow")])
    return rows


def probe_unknown_paths_and_new_orders(client):
    rows = []
    for method, path, body in [
        ("DELETE", "/nowhere", None),
        ("POST", "/orders", {"item": "ink", "qty": 5}),
        ("GET", "/orders/2", None),
        ("GET", "/orders/7", None),
        ("PUT", "/orders/items", None),
    ]:
        r = client.request(method, path, json=body)
        rows.append([method, path, r.status_code, r.headers.get("allow"), r.json()])
    return rows
''',
    traps={
        "api_route without methods= for POST /orders": _HEAD + _API_ROUTE_NO_METHODS + _TAIL,
        "error handler that drops the allow header": _HEAD + _HANDLER_DROPS_HEADERS + _TAIL,
        "hand-written 404 fallback route swallowing 405s": _HEAD + _FALLBACK + _TAIL,
        "HEAD served on /health": _HEAD + _HEAD_TOO + _TAIL,
    },
    expected_rows=[
        [200, None, {"status": "ok"}],
        [405, "GET", {"detail": "Method Not Allowed"}],
        [201, None, {"id": 1, "item": "pen", "qty": 2}],
        [405, "POST", {"detail": "Method Not Allowed"}],
        [405, "GET", {"detail": "Method Not Allowed"}],
        [200, None, {"id": 1, "item": "pen", "qty": 2}],
        [404, None, {"detail": "Not Found"}],
    ],
)
