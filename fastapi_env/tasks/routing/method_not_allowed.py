from fastapi_env.tasks import Edit, Family, Requirement

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
    ("GET", "${health}", None),
    ("POST", "${health}", None),
    ("${create}", "${coll}", {"item": "${item}", "qty": ${qty}}),
    ("GET", "${coll}", None),
    ("PUT", "${coll}/1", None),
    ("GET", "${coll}/1", None),
    ("GET", "/status", None),
]:
    r = client.request(method, path, json=body)
    result.append([r.status_code, r.headers.get("allow"), r.json()])
'''

_ROUTES = '''\
@app.get("${health}")
def health():
    return {"status": "ok"}


@app.${create_lower}("${coll}", status_code=${created})
def create_order(order: OrderIn):
    order_id = len(ORDERS) + 1
    ORDERS[order_id] = {"id": order_id, **order.model_dump()}
    return ORDERS[order_id]


@app.get("${coll}/{order_id}")
def read_order(order_id: int):
    if order_id not in ORDERS:
        raise HTTPException(status_code=404, detail="order not found")
    return ORDERS[order_id]
'''

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

FAMILY = Family(
    id="routing/method_not_allowed",
    title="A known path with the wrong method is a 405 with an Allow header",
    category="routing",
    difficulty="easy",
    prompt='''\
Build a small orders service. Each path serves exactly one HTTP method:

- `GET ${health}` returns `{"status": "ok"}`.
- `${create} ${coll}` takes a JSON body `{"item": <string>, "qty": <integer>}` (a Pydantic model
  `OrderIn`), stores the order in a module-level dict and answers **${created}** with
  `{"id": <int>, "item": <str>, "qty": <int>}`. Ids are 1, 2, 3, ... in creation order.
- `GET ${coll}/{order_id}` (`order_id` an integer) returns the stored order, or 404 with
  `{"detail": "order not found"}`.

Any other method on one of these paths (HEAD and OPTIONS included) is answered by FastAPI's
default 405 response: body `{"detail": "Method Not Allowed"}` and an `allow` header naming the
path's one method. A path that matches none of these routes (e.g. `/status`) answers FastAPI's
default 404, `{"detail": "Not Found"}`.

Then fill `result` with one row per request, in this order (send every request with
`client.request(method, path, json=body)`, `body` being `None` unless given), each row
`[status code (integer), the value of the response's allow header (string, or null when the
header is absent), the JSON body]`:
1. `GET ${health}`
2. `POST ${health}`
3. `${create} ${coll}` with body `{"item": "${item}", "qty": ${qty}}`
4. `GET ${coll}`
5. `PUT ${coll}/1`
6. `GET ${coll}/1`
7. `GET /status`
''',
    reference=_HEAD + _ROUTES + _TAIL,
    probes='''\
def probe_wrong_methods(client):
    rows = []
    for method, path in [("DELETE", "${health}"), ("${other}", "${coll}"), ("DELETE", "${coll}/1"),
                         ("POST", "${coll}/2")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, r.headers.get("allow"), r.json()])
    return rows


def probe_head_and_options(client):
    rows = []
    for method, path in [("HEAD", "${health}"), ("OPTIONS", "${coll}"), ("HEAD", "${coll}/1")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, r.headers.get("allow")])
    return rows


def probe_unknown_paths_and_new_orders(client):
    rows = []
    for method, path, body in [
        ("DELETE", "/nowhere", None),
        ("${create}", "${coll}", {"item": "ink", "qty": 5}),
        ("GET", "${coll}/2", None),
        ("GET", "${coll}/7", None),
        ("PUT", "${coll}/items", None),
    ]:
        r = client.request(method, path, json=body)
        rows.append([method, path, r.status_code, r.headers.get("allow"), r.json()])
    return rows

def probe_trailing_slash_and_created_status(client):
    rows = []
    for method, path, body in [("${create}", "${coll}", {"item": "cap", "qty": 0}), ("GET", "${coll}/3", None),
                               ("GET", "${coll}/0", None), ("GET", "${coll}/-1", None)]:
        r = client.request(method, path, json=body)
        rows.append([method, path, r.status_code, r.headers.get("allow"), r.json()])
    return rows
''',
    original={"health": "/health", "coll": "/orders", "create": "POST", "created": 201,
              "item": "pen", "qty": 2},
    space={
        "health": ["/health", "/ping", "/livez"],
        "coll": ["/orders", "/carts", "/tickets"],
        "create": ["POST", "PUT"],
        "created": [201, 202],
        "item": [{"item": "pen", "qty": 2}, {"item": "mug", "qty": 7}],
    },
    derive=lambda p: {"create_lower": p["create"].lower(),
                      "other": "PATCH" if p["create"] == "POST" else "POST"},
    instances=60,
    requirements=(
        Requirement(
            "Each path serves exactly its one method: `${create} ${coll}` (answering "
            "${created}), `GET ${health}`, `GET ${coll}/{order_id}`.",
            probes=("wrong_methods", "trailing_slash_and_created_status"),
            traps=(Edit("api_route without methods= for the create route",
                        '@app.${create_lower}("${coll}", status_code=${created})',
                        '@app.api_route("${coll}", status_code=${created})'),
                   Edit("create answers 200", ", status_code=${created})", ")")),
        ),
        Requirement(
            "Any other method, HEAD and OPTIONS included, is FastAPI's 405 with an `allow` header "
            "naming the path's one method.",
            probes=("wrong_methods", "head_and_options"),
            traps=(Edit("error handler that drops the allow header", _ROUTES, _HANDLER_DROPS_HEADERS),
                   Edit("HEAD served on the health path", '@app.get("${health}")',
                        '@app.api_route("${health}", methods=["GET", "HEAD"])')),
        ),
        Requirement(
            "An unmatched path is FastAPI's 404 `Not Found`; an unknown order id (0, negative, "
            'past the last) is 404 `{"detail": "order not found"}`; ids count 1, 2, 3, ...',
            probes=("unknown_paths_and_new_orders", "trailing_slash_and_created_status"),
            traps=(Edit("hand-written 404 fallback route swallowing 405s", _ROUTES, _FALLBACK),
                   Edit("negative ids index from the end",
                        "    if order_id not in ORDERS:\n",
                        "    if order_id < 0:\n        order_id = len(ORDERS) + 1 + order_id\n"
                        "    if order_id not in ORDERS:\n")),
        ),
    ),
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
