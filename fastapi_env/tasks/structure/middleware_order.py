from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.family import render

PROMPT = '''\
Build an orders API whose cross-cutting rules are implemented as three HTTP middlewares
(`@app.middleware("http")` or `app.add_middleware(...)`), one per rule:

- **served-by**: every response the application sends carries the header `${sh}: ${sv}`.
  "Every" means every: successful responses, 404s for unknown paths, validation errors, and the
  responses produced by the two other rules below.
- **maintenance**: when the request has the header `${mh}: ${mv}`, the application answers
  ${ms} with the JSON body `{"detail": "down for maintenance"}` for any path (known or not), without
  running any route${maint_tail}.
- **client-version**: a request whose path starts with `${prefix}` (known route or not) and that has
  no `${vh}` header is answered ${vs} with the JSON body
  `{"detail": "client version required"}`. Requests whose path does not start with `${prefix}` are
  not affected.

Routes:

- `GET /ping` returns `{"pong": true}`.
- `GET ${prefix}orders` returns `${orders_json}`.
- `GET ${prefix}orders/{order_id}` (`order_id` an integer path parameter) returns the order with
  that id from the same list, or 404 `{"detail": "order not found"}`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order. Each row is `[status code (integer), the value of the ${sh}
response header (string, or null if the header is absent), the JSON body]`:

1. `GET /ping`
2. `GET ${prefix}orders` with header `${vh}: 3`
3. `GET ${prefix}orders` with no extra header
4. `GET ${prefix}orders` with header `${mh}: ${mv}` (and no `${vh}`)
5. `GET /nope`
'''

_VERSION = '''\
@app.middleware("http")
async def client_version(request: Request, call_next):
    if request.url.path.startswith("${prefix}") and "${vh}" not in request.headers:
        return JSONResponse({"detail": "client version required"}, status_code=${vs})
    return await call_next(request)
'''

_MAINTENANCE = '''\
@app.middleware("http")
async def maintenance(request: Request, call_next):
    if request.headers.get("${mh}") == "${mv}":
        return JSONResponse({"detail": "down for maintenance"}, status_code=${ms})
    return await call_next(request)
'''

_SERVED_BY = '''\
@app.middleware("http")
async def served_by(request: Request, call_next):
    response = await call_next(request)
    response.headers["${sh}"] = "${sv}"
    return response
'''


def _stack(*middlewares):
    """Middlewares in declaration order: Starlette makes the last one declared the outermost."""
    return "\n\n".join(middlewares)


def _inner_rules(p):
    # the rule that wins is declared after (outside) the other one
    return (_VERSION, _MAINTENANCE) if p["maintenance_wins"] else (_MAINTENANCE, _VERSION)


def _right(p):
    return _stack(*_inner_rules(p), _SERVED_BY)


BODY_HEAD = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

ORDERS = ${orders_code}

app = FastAPI()

'''

_ROUTES = '''

@app.get("/ping")
def ping():
    return {"pong": True}


@app.get("${prefix}orders")
def list_orders():
    return ORDERS


@app.get("${prefix}orders/{order_id}")
def get_order(order_id: int):
    for order in ORDERS:
        if order["id"] == order_id:
            return order
    raise HTTPException(status_code=404, detail="order not found")


client = TestClient(app)
result = []
for path, headers in [
    ("/ping", {}),
    ("${prefix}orders", {"${vh}": "3"}),
    ("${prefix}orders", {}),
    ("${prefix}orders", {"${mh}": "${mv}"}),
    ("/nope", {}),
]:
    r = client.get(path, headers=headers)
    result.append([r.status_code, r.headers.get("${sh}"), r.json()])
'''


def _reference(p):
    return render(BODY_HEAD, p) + render(_right(p), p) + render(_ROUTES, p)


PROBES = '''\
def _row(r):
    return [r.status_code, r.headers.get("${sh}"), r.json()]


def probe_unknown_api_path(client):
    return [
        _row(client.get("${prefix}nothing")),
        _row(client.get("${prefix}nothing", headers={"${vh}": "1"})),
    ]


def probe_maintenance_everywhere(client):
    return [
        _row(client.get("/nope", headers={"${mh}": "${mv}"})),
        _row(client.get("/ping", headers={"${mh}": "${mv}"})),
        _row(client.get("${prefix}orders/${id1}", headers={"${mh}": "${mv}", "${vh}": "3"})),
        _row(client.get("/ping", headers={"${mh}": "${mv_other}"})),
    ]


def probe_both_rules_at_once(client):
    return [
        _row(client.get("${prefix}orders", headers={"${mh}": "${mv}"})),
        _row(client.get("${prefix}nothing", headers={"${mh}": "${mv}"})),
        _row(client.get("${prefix}orders/x", headers={"${mh}": "${mv}"})),
    ]


def probe_order_lookup(client):
    rows = [
        _row(client.get("${prefix}orders/${id2}", headers={"${vh}": "3"})),
        _row(client.get("${prefix}orders/${unknown}", headers={"${vh}": "3"})),
        _row(client.get("${prefix}orders", headers={"${vh}": "9"})),
    ]
    r = client.get("${prefix}orders/x", headers={"${vh}": "3"})
    rows.append([r.status_code, r.headers.get("${sh}"), r.json()["detail"][0]["type"]])
    return rows


def probe_served_by_on_every_response(client):
    rows = []
    for path, headers in [("/ping", {}), ("/nope", {}), ("${prefix}orders", {}),
                          ("/ping", {"${mh}": "${mv}"})]:
        r = client.get(path, headers=headers)
        rows.append([path, r.status_code, r.headers.get("${sh}")])
    r = client.post("/ping")
    rows.append(["POST /ping", r.status_code, r.headers.get("${sh}")])
    return rows


def probe_version_rule_prefix_only(client):
    return [_row(client.get("${prefix_cut}ary")), _row(client.get("${prefix_cut}"))]
'''

_ORDERS = [
    [{"id": 1, "total": 30}, {"id": 2, "total": 12}],
    [{"id": 5, "total": 99}, {"id": 8, "total": 4}, {"id": 9, "total": 60}],
]


def _derive(p):
    orders = ", ".join(f'{{"id": {o["id"]}, "total": {o["total"]}}}' for o in p["orders"])
    return {
        "orders_code": f"[{orders}]", "orders_json": f"[{orders}]",
        "id1": p["orders"][0]["id"], "id2": p["orders"][-1]["id"],
        "unknown": max(o["id"] for o in p["orders"]) + 5,
        "prefix_cut": p["prefix"].rstrip("/"),
        "mv_other": "off" if p["mv"] == "on" else "0",
        "maint_tail": (" and without applying the client-version rule" if p["maintenance_wins"] else
                       "; the client-version rule is applied before it, so a request that breaks\n"
                       "  that rule gets its ${vs} even during maintenance".replace("${vs}", str(p["vs"]))),
    }


def _edit(name, build):
    """A trap whose middleware stack is ``build(p)`` instead of the right one."""
    return Edit(name, lambda p: _render(_right(p), p), lambda p: _render(build(p), p))


def _render(text, p):
    return render(text, p)


FAMILY = Family(
    id="structure/middleware_order",
    title="Three HTTP middlewares whose order decides precedence and headers",
    category="structure",
    difficulty="hard",
    prompt=PROMPT,
    reference=_reference,
    probes=PROBES,
    original={"sh": "X-Served-By", "sv": "api-1", "mh": "X-Maintenance", "mv": "on", "ms": 503,
              "vh": "X-Client-Version", "vs": 426, "prefix": "/api/", "maintenance_wins": True,
              "orders": _ORDERS[0]},
    space={
        "served": [{"sh": "X-Served-By", "sv": "api-1"}, {"sh": "X-Backend", "sv": "edge-7"},
                   {"sh": "X-Node", "sv": "node-b"}],
        "maintenance": [{"mh": "X-Maintenance", "mv": "on", "ms": 503},
                        {"mh": "X-Read-Only", "mv": "1", "ms": 423}],
        "version": [{"vh": "X-Client-Version", "vs": 426, "prefix": "/api/"},
                    {"vh": "X-App-Version", "vs": 400, "prefix": "/v2/"}],
        "maintenance_wins": [True, False],
        "orders": _ORDERS,
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            "`${sh}: ${sv}` is on every response: routes, 404s, 405s, validation errors and the "
            "responses of the two other rules.",
            probes=("served_by_on_every_response", "maintenance_everywhere", "unknown_api_path"),
            traps=(
                _edit("middlewares added outermost-first (Starlette makes the last added outermost)",
                      lambda p: _stack(_SERVED_BY, *reversed(_inner_rules(p)))),
                _edit("served-by inside the outermost rule",
                      lambda p: _stack(_inner_rules(p)[0], _SERVED_BY, _inner_rules(p)[1])),
                Edit("served-by only on successful responses", '    response.headers["${sh}"] = "${sv}"\n',
                     '    if response.status_code < 400:\n        response.headers["${sh}"] = "${sv}"\n'),
            ),
        ),
        Requirement(
            "`${mh}: ${mv}` answers ${ms} on any path, known or not, without running a route.",
            probes=("maintenance_everywhere",),
            traps=(Edit("maintenance answers another status", "status_code=${ms})",
                        "status_code=${vs})"),),
        ),
        Requirement(
            lambda p: ("With both rules broken at once, the "
                       + ("maintenance" if p["maintenance_wins"] else "client-version")
                       + " answer wins."),
            probes=("both_rules_at_once",),
            traps=(_edit("the two rules in the other precedence",
                         lambda p: _stack(*reversed(_inner_rules(p)), _SERVED_BY)),),
        ),
        Requirement(
            "A path starting with `${prefix}` (a known route or not) without `${vh}` answers "
            "${vs}; other paths (`${prefix_cut}`, `${prefix_cut}ary`) are not affected.",
            probes=("unknown_api_path", "version_rule_prefix_only"),
            traps=(
                Edit("client-version rule as a route dependency", _VERSION,
                     "def client_version(request: Request):\n"
                     '    if request.url.path.startswith("${prefix}") and "${vh}" not in request.headers:\n'
                     '        raise HTTPException(status_code=${vs}, detail="client version required")\n\n\n'
                     'app.router.dependencies.append(__import__("fastapi").Depends(client_version))\n'),
                Edit("prefix checked without its trailing slash", 'startswith("${prefix}")',
                     'startswith("${prefix_cut}")'),
            ),
        ),
        Requirement(
            "The routes answer as stated: the order list, one order by integer id, 404 "
            '`{"detail": "order not found"}` for an unknown id.',
            probes=("order_lookup",),
            traps=(Edit("unknown order answers an empty object", '    raise HTTPException(status_code=404, detail="order not found")\n',
                        "    return {}\n"),),
        ),
    ),
    expected_rows=[
        [200, "api-1", {"pong": True}],
        [200, "api-1", [{"id": 1, "total": 30}, {"id": 2, "total": 12}]],
        [426, "api-1", {"detail": "client version required"}],
        [503, "api-1", {"detail": "down for maintenance"}],
        [404, "api-1", {"detail": "Not Found"}],
    ],
)
