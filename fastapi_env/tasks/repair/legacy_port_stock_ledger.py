"""Repair tier: port a working service to FastAPI where the spec is the service's code.

`/workspace/legacy_server.py` is a stock ledger written on the standard library
(`http.server.BaseHTTPRequestHandler`, `json`, `urllib.parse`), 8 routes; the prompt asks for
a FastAPI port in solution.py that answers every request as the legacy code does (status, JSON
body, four named headers, HEAD) and lists every route in /openapi.json, and does not import the
legacy module; it names none of the behaviours. What the legacy code does and a FastAPI port
naturally does differently is where the probes look: `parse_qs` (blank values dropped, the
first of repeated keys), `int()` on query values (" 2", "+2", Arabic-Indic digits, "1_0"),
trailing slashes stripped before routing, its own 404 (with the raw path) and 405 (with an
`Allow` of every method of the path), HEAD from do_HEAD, a JSON body parsed from the bytes
whatever the Content-Type, its own messages for invalid JSON and non-objects, `isinstance(x,
int)` (booleans pass, 2.0 does not), the order of its checks, `Cache-Control` on every
response; and the business rules (`.title()`, `casefold()`, sorts with reversed tie-breaks,
`round()` half-even). The reference reproduces them with a raw-path 404/405 handler, a
slash-stripping ASGI middleware, `parse_qs` on the raw query string and hand-parsed bodies.
Not a family of planted bugs: the setup holds only legacy_server.py, so the untouched setup
has no solution.py. Each requirement's traps are the natural port that misses one quirk."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.family import render

LEGACY = r'''"""Stock ledger: the shop's items, their stock movements and a stock report, as JSON over HTTP.

Standard library only. State lives in memory and starts empty.

    python legacy_server.py [port]      # serves on 127.0.0.1 (default port 8000)
"""
import json
import re
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlsplit

DEFAULT_PER_PAGE = ${def_per_page}
MAX_PER_PAGE = ${max_per_page}
MAX_QTY = ${max_qty}
MAX_PRICE = 100_000  # cents
ITEM_MAX_AGE = ${cache_age}  # seconds a client may keep an item it read
COUNT_HEADER = "${count_header}"
SKU = re.compile(r"[A-Z]{2,4}-[0-9]{1,4}")
SORT_KEYS = ("sku", "name", "stock", "value")
KINDS = ("in", "out")

ITEMS = {}  # sku -> {"sku", "name", "unit_price", "stock"}
MOVEMENTS = {}  # sku -> the item's movements, oldest first

# (method, path pattern, handler): the groups of the pattern are the handler's arguments.
ROUTES = [
    ("GET", r"/items", "list_items"),
    ("POST", r"/items", "create_item"),
    ("GET", r"/items/([^/]+)", "read_item"),
    ("PUT", r"/items/([^/]+)", "replace_item"),
    ("DELETE", r"/items/([^/]+)", "delete_item"),
    ("GET", r"/items/([^/]+)/movements", "list_movements"),
    ("POST", r"/items/([^/]+)/movements", "add_movement"),
    ("GET", r"/report", "report"),
]


class ApiError(Exception):
    """An error answer: its status and the body {"error": <message>, ...extra}."""

    def __init__(self, status, message, headers=None, **extra):
        super().__init__(message)
        self.status = status
        self.body = {"error": message, **extra}
        self.headers = headers or {}


def value(item):
    return item["stock"] * item["unit_price"]


def shown(item):
    return {**item, "value": value(item)}


def check_fields(body, required, optional=()):
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise ApiError(400, "unknown field", field=unknown[0])
    for name in required:
        if name not in body:
            raise ApiError(400, "missing field", field=name)


def clean_name(name):
    if not isinstance(name, str):
        raise ApiError(400, "invalid field", field="name")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 40:
        raise ApiError(400, "invalid field", field="name")
    return name.title()


def clean_price(price):
    if not isinstance(price, int) or not 1 <= price <= MAX_PRICE:
        raise ApiError(400, "invalid field", field="unit_price")
    return price


def sort_value(item, key):
    if key == "name":
        return item["name"].casefold()
    if key == "value":
        return value(item)
    return item[key]


class LedgerHandler(BaseHTTPRequestHandler):
    server_version = "StockLedger/1.4"

    def do_GET(self):
        self.dispatch("GET")

    def do_HEAD(self):
        self.dispatch("GET", head=True)

    def do_POST(self):
        self.dispatch("POST")

    def do_PUT(self):
        self.dispatch("PUT")

    def do_PATCH(self):
        self.dispatch("PATCH")

    def do_DELETE(self):
        self.dispatch("DELETE")

    # ------------------------------------------------------------------ plumbing
    def dispatch(self, method, head=False):
        url = urlsplit(self.path)
        path = url.path.rstrip("/") or "/"
        self.query = parse_qs(url.query)
        try:
            allowed = []
            for route_method, pattern, handler in ROUTES:
                match = re.fullmatch(pattern, path)
                if match is None:
                    continue
                if route_method == method:
                    status, body, headers = getattr(self, handler)(*match.groups())
                    break
                allowed.append(route_method)
                if route_method == "GET":
                    allowed.append("HEAD")
            else:
                if allowed:
                    raise ApiError(405, "method not allowed", {"Allow": ", ".join(allowed)},
                                   method=self.command)
                raise ApiError(404, "not found", path=path)
        except ApiError as error:
            status, body, headers = error.status, error.body, error.headers
        self.respond(status, body, headers, head)

    def respond(self, status, body, headers, head=False):
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        if body is not None:
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
        headers.setdefault("Cache-Control", "no-store")
        for name, text in headers.items():
            self.send_header(name, text)
        self.end_headers()
        if not head:
            self.wfile.write(data)

    def arg(self, name):
        values = self.query.get(name)
        return values[0] if values else None

    def int_arg(self, name, default):
        text = self.arg(name)
        if text is None:
            return default
        try:
            return int(text)
        except ValueError:
            raise ApiError(400, "invalid parameter", parameter=name) from None

    def json_body(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        try:
            body = json.loads(raw)
        except ValueError:
            raise ApiError(400, "invalid JSON") from None
        if not isinstance(body, dict):
            raise ApiError(400, "JSON body must be an object")
        return body

    def find(self, raw_sku):
        sku = unquote(raw_sku).upper()
        if sku not in ITEMS:
            raise ApiError(404, "unknown item", sku=sku)
        return ITEMS[sku]

    # ------------------------------------------------------------------ routes
    def list_items(self):
        q = self.arg("q")
        sort = self.arg("sort") or "sku"
        key = sort.removeprefix("-")
        if key not in SORT_KEYS:
            raise ApiError(400, "invalid sort", allowed=list(SORT_KEYS))
        page = self.int_arg("page", 1)
        per_page = min(self.int_arg("per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE)
        if page < 1:
            raise ApiError(400, "invalid parameter", parameter="page")
        if per_page < 1:
            raise ApiError(400, "invalid parameter", parameter="per_page")
        items = list(ITEMS.values())
        if q is not None:
            needle = q.casefold()
            items = [item for item in items if needle in item["name"].casefold()]
        items.sort(key=lambda item: (sort_value(item, key), item["sku"]),
                   reverse=sort.startswith("-"))
        start = (page - 1) * per_page
        page_items = [shown(item) for item in items[start:start + per_page]]
        body = {"items": page_items, "page": page, "per_page": per_page}
        return 200, body, {COUNT_HEADER: str(len(items))}

    def create_item(self):
        body = self.json_body()
        check_fields(body, ("sku", "name", "unit_price"))
        sku = body["sku"]
        if not isinstance(sku, str) or not SKU.fullmatch(sku.strip().upper()):
            raise ApiError(400, "invalid field", field="sku")
        sku = sku.strip().upper()
        name = clean_name(body["name"])
        price = clean_price(body["unit_price"])
        if sku in ITEMS:
            raise ApiError(409, "sku exists", sku=sku)
        ITEMS[sku] = {"sku": sku, "name": name, "unit_price": price, "stock": 0}
        MOVEMENTS[sku] = []
        return 201, shown(ITEMS[sku]), {"Location": f"/items/{sku}"}

    def read_item(self, raw_sku):
        item = self.find(raw_sku)
        return 200, shown(item), {"Cache-Control": f"max-age={ITEM_MAX_AGE}"}

    def replace_item(self, raw_sku):
        item = self.find(raw_sku)
        body = self.json_body()
        check_fields(body, ("name", "unit_price"))
        name = clean_name(body["name"])
        item["unit_price"] = clean_price(body["unit_price"])
        item["name"] = name
        return 200, shown(item), {}

    def delete_item(self, raw_sku):
        item = self.find(raw_sku)
        if item["stock"]:
            raise ApiError(409, "item has stock", stock=item["stock"])
        del ITEMS[item["sku"]], MOVEMENTS[item["sku"]]
        return 204, None, {}

    def list_movements(self, raw_sku):
        item = self.find(raw_sku)
        kind = self.arg("kind")
        if kind is not None and kind not in KINDS:
            raise ApiError(400, "invalid parameter", parameter="kind")
        since = self.int_arg("since", 0)
        movements = [movement for movement in MOVEMENTS[item["sku"]]
                     if movement["seq"] > since and kind in (None, movement["kind"])]
        body = {"sku": item["sku"], "movements": movements}
        return 200, body, {COUNT_HEADER: str(len(movements))}

    def add_movement(self, raw_sku):
        item = self.find(raw_sku)
        body = self.json_body()
        check_fields(body, ("kind", "qty"), ("note",))
        kind, qty, note = body["kind"], body["qty"], body.get("note")
        if kind not in KINDS:
            raise ApiError(400, "invalid field", field="kind")
        if not isinstance(qty, int) or not 1 <= qty <= MAX_QTY:
            raise ApiError(400, "invalid field", field="qty")
        if note is not None and (not isinstance(note, str) or len(note) > 60):
            raise ApiError(400, "invalid field", field="note")
        if kind == "out" and qty > item["stock"]:
            raise ApiError(409, "insufficient stock", stock=item["stock"])
        item["stock"] += qty if kind == "in" else -qty
        movements = MOVEMENTS[item["sku"]]
        movement = {"seq": len(movements) + 1, "kind": kind, "qty": qty, "note": note,
                    "stock_after": item["stock"]}
        movements.append(movement)
        return 201, movement, {}

    def report(self):
        items = list(ITEMS.values())
        prices = [item["unit_price"] for item in items]
        ranked = sorted(items, key=lambda item: (-value(item), item["sku"]))
        body = {
            "items": len(items),
            "units": sum(item["stock"] for item in items),
            "value": sum(value(item) for item in items),
            "average_unit_price": round(sum(prices) / len(prices)) if prices else None,
            "top": [item["sku"] for item in ranked[:3] if value(item) > 0],
        }
        return 200, body, {}


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 8000
    server = ThreadingHTTPServer(("127.0.0.1", port), LedgerHandler)
    print(f"stock ledger on http://127.0.0.1:{port}")
    server.serve_forever()


if __name__ == "__main__":
    main()
'''

# The reference's `result`: the same four requests, shared with the positive control.
RESULT_ROWS = r'''

def body(r) -> object:
    try:
        return r.json()
    except ValueError:
        return r.text


client = TestClient(app, raise_server_exceptions=False)
created = client.post("/items", json={"sku": "${sku1}", "name": "${name1}",
                                      "unit_price": ${price1}})
moved = client.post("/items/${sku1}/movements", json={"kind": "in", "qty": ${qty1}})
listed = client.get("/items?sort=-value")
summary = client.get("/report")
result = [
    [created.status_code, body(created), created.headers.get("location")],
    [moved.status_code, body(moved)],
    [listed.status_code, body(listed), listed.headers.get(COUNT_HEADER)],
    [summary.status_code, body(summary)],
]
'''

SOLUTION = r'''"""The stock ledger of legacy_server.py, ported to FastAPI: the same routes, answering every
request as the legacy server does (its status, its JSON body, its headers)."""
import json
import re
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException as StarletteHTTPException

DEFAULT_PER_PAGE = ${def_per_page}
MAX_PER_PAGE = ${max_per_page}
MAX_QTY = ${max_qty}
MAX_PRICE = 100_000  # cents
ITEM_MAX_AGE = ${cache_age}
COUNT_HEADER = "${count_header}"
SKU = re.compile(r"[A-Z]{2,4}-[0-9]{1,4}")
SORT_KEYS = ("sku", "name", "stock", "value")
KINDS = ("in", "out")

ITEMS: dict[str, dict] = {}
MOVEMENTS: dict[str, list[dict]] = {}

# The legacy route table, in its order: the 404 and 405 answers are computed from it.
ROUTES = [
    ("GET", r"/items"),
    ("POST", r"/items"),
    ("GET", r"/items/[^/]+"),
    ("PUT", r"/items/[^/]+"),
    ("DELETE", r"/items/[^/]+"),
    ("GET", r"/items/[^/]+/movements"),
    ("POST", r"/items/[^/]+/movements"),
    ("GET", r"/report"),
]


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None, **extra):
        super().__init__(message)
        self.status = status
        self.body = {"error": message, **extra}
        self.headers = headers or {}


def answer(status: int, body, headers: dict | None = None) -> Response:
    headers = {"Cache-Control": "no-store", **(headers or {})}
    if body is None:
        return Response(status_code=status, headers=headers)
    # json.dumps as the legacy code writes it: JSONResponse would refuse a lone surrogate.
    return Response(json.dumps(body), status_code=status, headers=headers,
                    media_type="application/json")


class SlashInsensitive:
    """The legacy server strips trailing slashes before routing: `/items/` is `/items`."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            scope = dict(scope, path=scope["path"].rstrip("/") or "/")
        await self.app(scope, receive, send)


app = FastAPI(title="Stock ledger")
app.add_middleware(SlashInsensitive)


@app.exception_handler(ApiError)
async def api_error(request: Request, exc: ApiError) -> Response:
    return answer(exc.status, exc.body, exc.headers)


@app.exception_handler(StarletteHTTPException)
async def routing_error(request: Request, exc: StarletteHTTPException) -> Response:
    raw = request.scope.get("raw_path") or request.scope["path"].encode()
    path = raw.decode("latin-1").rstrip("/") or "/"
    allowed = []
    for method, pattern in ROUTES:
        if re.fullmatch(pattern, path):
            allowed += ["GET", "HEAD"] if method == "GET" else [method]
    if exc.status_code == 405 and allowed:
        return answer(405, {"error": "method not allowed", "method": request.method},
                      {"Allow": ", ".join(allowed)})
    return answer(404, {"error": "not found", "path": path})


def query(request: Request) -> dict[str, list[str]]:
    return parse_qs(request.scope["query_string"].decode("latin-1"))


def arg(request: Request, name: str) -> str | None:
    values = query(request).get(name)
    return values[0] if values else None


def int_arg(request: Request, name: str, default: int) -> int:
    text = arg(request, name)
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise ApiError(400, "invalid parameter", parameter=name) from None


async def json_body(request: Request) -> dict:
    raw = await request.body()
    try:
        body = json.loads(raw)
    except ValueError:
        raise ApiError(400, "invalid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "JSON body must be an object")
    return body


def find(sku: str) -> dict:
    sku = sku.upper()
    if sku not in ITEMS:
        raise ApiError(404, "unknown item", sku=sku)
    return ITEMS[sku]


def value(item: dict) -> int:
    return item["stock"] * item["unit_price"]


def shown(item: dict) -> dict:
    return {**item, "value": value(item)}


def check_fields(body: dict, required: tuple, optional: tuple = ()) -> None:
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise ApiError(400, "unknown field", field=unknown[0])
    for name in required:
        if name not in body:
            raise ApiError(400, "missing field", field=name)


def clean_name(name) -> str:
    if not isinstance(name, str):
        raise ApiError(400, "invalid field", field="name")
    name = " ".join(name.split())
    if not 1 <= len(name) <= 40:
        raise ApiError(400, "invalid field", field="name")
    return name.title()


def clean_price(price) -> int:
    if not isinstance(price, int) or not 1 <= price <= MAX_PRICE:
        raise ApiError(400, "invalid field", field="unit_price")
    return price


def sort_value(item: dict, key: str):
    if key == "name":
        return item["name"].casefold()
    if key == "value":
        return value(item)
    return item[key]


@app.api_route("/items", methods=["GET", "HEAD"])
def list_items(request: Request) -> Response:
    q = arg(request, "q")
    sort = arg(request, "sort") or "sku"
    key = sort.removeprefix("-")
    if key not in SORT_KEYS:
        raise ApiError(400, "invalid sort", allowed=list(SORT_KEYS))
    page = int_arg(request, "page", 1)
    per_page = min(int_arg(request, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE)
    if page < 1:
        raise ApiError(400, "invalid parameter", parameter="page")
    if per_page < 1:
        raise ApiError(400, "invalid parameter", parameter="per_page")
    items = list(ITEMS.values())
    if q is not None:
        needle = q.casefold()
        items = [item for item in items if needle in item["name"].casefold()]
    items.sort(key=lambda item: (sort_value(item, key), item["sku"]),
               reverse=sort.startswith("-"))
    start = (page - 1) * per_page
    page_items = [shown(item) for item in items[start:start + per_page]]
    return answer(200, {"items": page_items, "page": page, "per_page": per_page},
                  {COUNT_HEADER: str(len(items))})


@app.post("/items")
async def create_item(request: Request) -> Response:
    body = await json_body(request)
    check_fields(body, ("sku", "name", "unit_price"))
    sku = body["sku"]
    if not isinstance(sku, str) or not SKU.fullmatch(sku.strip().upper()):
        raise ApiError(400, "invalid field", field="sku")
    sku = sku.strip().upper()
    name = clean_name(body["name"])
    price = clean_price(body["unit_price"])
    if sku in ITEMS:
        raise ApiError(409, "sku exists", sku=sku)
    ITEMS[sku] = {"sku": sku, "name": name, "unit_price": price, "stock": 0}
    MOVEMENTS[sku] = []
    return answer(201, shown(ITEMS[sku]), {"Location": f"/items/{sku}"})


@app.api_route("/items/{sku}", methods=["GET", "HEAD"])
def read_item(sku: str) -> Response:
    item = find(sku)
    return answer(200, shown(item), {"Cache-Control": f"max-age={ITEM_MAX_AGE}"})


@app.put("/items/{sku}")
async def replace_item(sku: str, request: Request) -> Response:
    item = find(sku)
    body = await json_body(request)
    check_fields(body, ("name", "unit_price"))
    name = clean_name(body["name"])
    item["unit_price"] = clean_price(body["unit_price"])
    item["name"] = name
    return answer(200, shown(item))


@app.delete("/items/{sku}")
def delete_item(sku: str) -> Response:
    item = find(sku)
    if item["stock"]:
        raise ApiError(409, "item has stock", stock=item["stock"])
    del ITEMS[item["sku"]], MOVEMENTS[item["sku"]]
    return answer(204, None)


@app.api_route("/items/{sku}/movements", methods=["GET", "HEAD"])
def list_movements(sku: str, request: Request) -> Response:
    item = find(sku)
    kind = arg(request, "kind")
    if kind is not None and kind not in KINDS:
        raise ApiError(400, "invalid parameter", parameter="kind")
    since = int_arg(request, "since", 0)
    movements = [movement for movement in MOVEMENTS[item["sku"]]
                 if movement["seq"] > since and kind in (None, movement["kind"])]
    return answer(200, {"sku": item["sku"], "movements": movements},
                  {COUNT_HEADER: str(len(movements))})


@app.post("/items/{sku}/movements")
async def add_movement(sku: str, request: Request) -> Response:
    item = find(sku)
    body = await json_body(request)
    check_fields(body, ("kind", "qty"), ("note",))
    kind, qty, note = body["kind"], body["qty"], body.get("note")
    if kind not in KINDS:
        raise ApiError(400, "invalid field", field="kind")
    if not isinstance(qty, int) or not 1 <= qty <= MAX_QTY:
        raise ApiError(400, "invalid field", field="qty")
    if note is not None and (not isinstance(note, str) or len(note) > 60):
        raise ApiError(400, "invalid field", field="note")
    if kind == "out" and qty > item["stock"]:
        raise ApiError(409, "insufficient stock", stock=item["stock"])
    item["stock"] += qty if kind == "in" else -qty
    movements = MOVEMENTS[item["sku"]]
    movement = {"seq": len(movements) + 1, "kind": kind, "qty": qty, "note": note,
                "stock_after": item["stock"]}
    movements.append(movement)
    return answer(201, movement)


@app.api_route("/report", methods=["GET", "HEAD"])
def report() -> Response:
    items = list(ITEMS.values())
    prices = [item["unit_price"] for item in items]
    ranked = sorted(items, key=lambda item: (-value(item), item["sku"]))
    return answer(200, {
        "items": len(items),
        "units": sum(item["stock"] for item in items),
        "value": sum(value(item) for item in items),
        "average_unit_price": round(sum(prices) / len(prices)) if prices else None,
        "top": [item["sku"] for item in ranked[:3] if value(item) > 0],
    })
''' + RESULT_ROWS

PROBES = r'''import re
import sys

COUNT = "${count_header}"
DEF_PER_PAGE = ${def_per_page}
MAX_PER_PAGE = ${max_per_page}
MAX_QTY = ${max_qty}
MAX_AGE = ${cache_age}
SKU1 = "${sku1}".strip().upper()


def _body(r):
    try:
        return r.json()
    except ValueError:
        return r.text


def _row(r, *headers):
    return [r.status_code, _body(r), *[r.headers.get(h) for h in headers]]


def _item(client, sku, name, price, stock=0):
    r = client.post("/items", json={"sku": sku, "name": name, "unit_price": price})
    if stock:
        client.post(f"/items/{sku}/movements", json={"kind": "in", "qty": stock})
    return r


def _page(r):
    """A listing as its skus, page, per_page and count header; an error as its body."""
    if r.status_code != 200:
        return [r.status_code, _body(r)]
    data = r.json()
    return [200, [item["sku"] for item in data["items"]], data["page"], data["per_page"],
            r.headers.get(COUNT)]


def probe_report(client):
    rows = [_row(client.get("/report"))]
    _item(client, "RPB-7", "report b", ${price2})
    rows.append(_row(client.get("/report")))
    client.put("/items/RPB-7", json={"name": "report b", "unit_price": ${price2} + 2})
    rows.append(_row(client.get("/report")))
    _item(client, "RPD-1", "report d", 1000, 50)
    _item(client, "RPC-1", "report c", 500, 100)
    rows.append(_row(client.get("/report")))
    _item(client, "RPE-1", "report e", 2000, 50)
    rows.append(_row(client.get("/report")))
    return rows


def probe_openapi_lists_routes(client):
    r = client.get("/openapi.json")
    paths = r.json().get("paths", {}) if r.status_code == 200 else {}
    listed = {(re.sub(r"\{[^}]*\}", "{}", path), method.upper())
              for path, operations in paths.items() for method in operations}
    wanted = [("/items", "GET"), ("/items", "POST"), ("/items/{}", "GET"), ("/items/{}", "PUT"),
              ("/items/{}", "DELETE"), ("/items/{}/movements", "GET"),
              ("/items/{}/movements", "POST"), ("/report", "GET")]
    return [[r.status_code]] + [[path, method, (path, method) in listed]
                                for path, method in wanted]


def probe_legacy_not_imported(client):
    loaded = [name for name, module in list(sys.modules.items())
              if name == "legacy_server"
              or str(getattr(module, "__file__", "") or "").endswith("legacy_server.py")]
    return [[client.get("/report").status_code, loaded == []]]


def probe_unknown_paths(client):
    rows = []
    for method, path in [("GET", "/nowhere"), ("GET", "/"), ("GET", "/nowhere?page=2"),
                         ("GET", "/items/AB-1/extra"), ("POST", "/report/run"),
                         ("DELETE", "/items/AB-1/movements/1"), ("GET", "/caf%C3%A9"),
                         ("PUT", "/Items"), ("GET", "/report.json"), ("PATCH", "/items/a/b/c")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, _body(r)])
    r = client.head("/nowhere")
    rows.append(["HEAD", "/nowhere", r.status_code, r.content == b""])
    return rows


def probe_unserved_methods(client):
    rows = []
    for method, path in [("PATCH", "/items"), ("DELETE", "/items"), ("PATCH", "/items/NO-1"),
                         ("POST", "/items/NO-1"), ("PUT", "/items/NO-1/movements"),
                         ("DELETE", "/items/NO-1/movements"), ("POST", "/report"),
                         ("PUT", "/report")]:
        r = client.request(method, path)
        rows.append([method, path, r.status_code, _body(r), r.headers.get("allow")])
    return rows


def probe_trailing_slash(client):
    rows = []
    r = client.post("/items/", json={"sku": "SL-1", "name": "slash probe", "unit_price": 90},
                    follow_redirects=False)
    rows.append(_row(r, "location"))
    for method, path, data in [("GET", "/items/SL-1/", None), ("GET", "/items/sl-1//", None),
                               ("POST", "/items/SL-1/movements/", {"kind": "in", "qty": 3}),
                               ("GET", "/items/SL-1/movements/", None),
                               ("PUT", "/items/sl-1/", {"name": "slash put", "unit_price": 91}),
                               ("GET", "/items/?q=slash", None), ("GET", "/nowhere/", None),
                               ("PATCH", "/items/", None)]:
        r = client.request(method, path, json=data, follow_redirects=False)
        rows.append([method, path, r.status_code, _body(r), r.headers.get("allow")])
    for path in ["/report/", "/items/SL-1/"]:
        r = client.head(path, follow_redirects=False)
        rows.append(["HEAD", path, r.status_code])
    return rows


def probe_query_first_and_blank(client):
    _item(client, "QA-1", "quince jam", 300, 5)
    _item(client, "QB-1", "Quince Paste", 200, 9)
    _item(client, "QC-1", "quince tart", 100, 1)
    rows = []
    for query in ["q=quince&sort=name&sort=-stock", "q=quince&sort=-stock&sort=name",
                  "q=quince&per_page=1&per_page=2", "q=quince&sort=&page=&per_page=",
                  "q=&q=quince", "q=quince&q=", "q=quince&q=paste", "q=paste&q=quince",
                  "q=quince&page=2&page=1&per_page=2", "q=quince&kind=&since="]:
        rows.append([query, _page(client.get(f"/items?{query}"))])
    r = client.get("/items/QA-1/movements?kind=&kind=in&since=&since=0&since=9")
    rows.append([_row(r, COUNT)])
    return rows


def probe_integer_parsing(client):
    for n in range(1, 5):
        _item(client, f"IB-{n}", f"ibex {n}", 10 * n, n)
    rows = []
    for value in ["%202", "+2", "%2B2", "%D9%A2", "%202%20", "1_0", "2.0", "0x2", "two", "0",
                  "-1", str(MAX_PER_PAGE + 5), "%EF%BC%93"]:
        rows.append(["per_page", value, _page(client.get(f"/items?q=ibex&per_page={value}"))])
    for value in ["%D9%A2", "+2", "0", "-0", "1e1", "3"]:
        rows.append(["page", value,
                     _page(client.get(f"/items?q=ibex&per_page=2&page={value}"))])
    for query in ["page=0&per_page=x", "page=x&per_page=0", "page=0&per_page=0",
                  "sort=bad&page=x", "per_page=0&sort=bad"]:
        rows.append([query, _page(client.get(f"/items?q=ibex&{query}"))])
    for since in ["%201", "%D9%A1", "1.0", "-5"]:
        r = client.get(f"/items/IB-2/movements?since={since}")
        rows.append(["since", since, _row(r, COUNT)])
    return rows


def probe_body_any_content_type(client):
    rows = []
    text = '{"sku": "%s", "name": "typed %s", "unit_price": 120}'
    for sku, content_type in [("CT-1", "text/plain"), ("CT-2", None),
                              ("CT-3", "application/x-www-form-urlencoded"),
                              ("CT-4", "application/json; charset=utf-8"),
                              ("CT-5", "application/xml")]:
        headers = {} if content_type is None else {"Content-Type": content_type}
        r = client.post("/items", content=(text % (sku, sku)).encode(), headers=headers)
        rows.append([sku, content_type, _row(r)])
    r = client.post("/items", data={"sku": "CT-6", "name": "form", "unit_price": "120"})
    rows.append(["form", _row(r)])
    r = client.post("/items/CT-1/movements", content=b'{"kind": "in", "qty": 4}',
                    headers={"Content-Type": "text/plain"})
    rows.append(["movement", _row(r)])
    r = client.put("/items/ct-2", content=b'{"name": "retyped", "unit_price": 121}',
                   headers={"Content-Type": "text/csv"})
    rows.append(["put", _row(r)])
    return rows


def probe_malformed_bodies(client):
    good = '{"sku": "%s", "name": "odd body", "unit_price": 75}'
    rows = []
    for label, content in [("empty", b""), ("open brace", b"{"), ("list", b"[1, 2]"),
                           ("string", b'"text"'), ("null", b"null"), ("number", b"42"),
                           ("bad byte", b"\xff"), ("object", b"{}"),
                           ("bom", b"\xef\xbb\xbf" + (good % "BM-1").encode()),
                           ("utf-16", (good % "UT-1").encode("utf-16")),
                           ("nan", b'{"sku": "NN-1", "name": "n", "unit_price": NaN}'),
                           ("duplicate keys", b'{"sku": "DK-1", "sku": "DK-2", "name": "dup", '
                                              b'"unit_price": 5}'),
                           ("trailing comma", b'{"sku": "TC-1", "name": "t", "unit_price": 5,}')]:
        r = client.post("/items", content=content, headers={"Content-Type": "application/json"})
        rows.append([label, _row(r)])
    for sku, content in [("NO-7", b"[]"), ("BM-1", b"[]"), ("BM-1", b"nope"), ("NO-7", b"nope")]:
        r = client.post(f"/items/{sku}/movements", content=content)
        rows.append([sku, content.decode(), _row(r)])
    return rows


def probe_field_checks(client):
    rows = []
    for body in [{"sku": "FC-1", "name": "x", "unit_price": 5, "stock": 3, "extra": 1},
                 {"name": "x", "colour": "red"}, {"name": "x"}, {"sku": "FC-1", "unit_price": 5},
                 {"sku": "FC-1", "name": "x"}, {"sku": 12, "name": "x", "unit_price": 5},
                 {"sku": "F-1", "name": "x", "unit_price": 5},
                 {"sku": "FCDEF-1", "name": "x", "unit_price": 5},
                 {"sku": "FC-12345", "name": "x", "unit_price": 5},
                 {"sku": "FC1", "name": "x", "unit_price": 5},
                 {"sku": "FC-2", "name": "   ", "unit_price": 5},
                 {"sku": "FC-3", "name": None, "unit_price": 5},
                 {"sku": "FC-4", "name": 12, "unit_price": 5},
                 {"sku": "FC-5", "name": "  " + "b" * 20 + "   " + "c" * 19 + " ", "unit_price": 5},
                 {"sku": "FC-6", "name": "b" * 20 + " " + "c" * 20, "unit_price": 5},
                 {"sku": "FC-7", "name": "x", "unit_price": 0},
                 {"sku": "FC-8", "name": "x", "unit_price": 100000},
                 {"sku": "FC-9", "name": "x", "unit_price": 100001},
                 {"sku": "FC-10", "name": "x", "unit_price": 2.0},
                 {"sku": "FC-11", "name": "x", "unit_price": "5"},
                 {"sku": "FC-12", "name": "x", "unit_price": True},
                 {"sku": "FC-13", "name": "x", "unit_price": None},
                 {"sku": "bad", "name": "", "unit_price": 0},
                 {"sku": "FC-14", "name": "", "unit_price": 0},
                 {"sku": "FC-8", "name": "again", "unit_price": 0},
                 {"sku": "fc-8", "name": "again", "unit_price": 7}]:
        rows.append([body, _row(client.post("/items", json=body))])
    rows.append(_row(client.get("/items/FC-12")))
    return rows


def probe_create_item(client):
    r = client.post("/items", json={"sku": " cr-12 ", "name": "  o'neil's   oat  flour ",
                                    "unit_price": 420})
    rows = [_row(r, "location")]
    for sku, name in [("CR-12", "again"), ("cr-12", "again"), ("CR-13", "ÉCLAIR mix"),
                      ("CR-14", "straße-brot"), ("CR-15", "3d printer ink"),
                      ("cr-16", "tea\u00a0and\tcake")]:
        r = client.post("/items", json={"sku": sku, "name": name, "unit_price": 42})
        rows.append([sku, _row(r, "location")])
    rows.append(_row(client.get("/items/cr-12")))
    # A lone surrogate escape is valid JSON; the answer escapes it again (shown ASCII-safe),
    # and the item goes, so no later row holds it.
    r = client.post("/items", content=b'{"sku": "CR-17", "name": "\\ud800 half", "unit_price": 42}')
    rows.append(["CR-17", r.status_code, ascii(_body(r))])
    rows.append(["CR-17", client.delete("/items/CR-17").status_code])
    return rows


def probe_read_and_head(client):
    _item(client, "HD-1", "head probe", 250, 3)
    got = client.get("/items/hd-1")
    head = client.head("/items/hd-1")
    rows = [_row(got), [head.status_code, head.content == b"",
                        head.headers.get("content-length") == got.headers.get("content-length")]]
    rows.append(_row(client.get("/items/zz-9")))
    rows.append(_row(client.get("/items/%68%64-1")))
    for path in ["/items/zz-9", "/items?q=head", "/items/HD-1/movements", "/report",
                 "/items/NO-3/movements"]:
        r = client.head(path)
        rows.append([path, r.status_code, r.content == b"", r.headers.get(COUNT)])
    return rows


def probe_cache_control(client):
    _item(client, "CC-1", "cache probe", 10)
    rows = []
    for method, path, data in [("GET", "/items/CC-1", None), ("HEAD", "/items/cc-1", None),
                               ("GET", "/items?q=cache", None), ("GET", "/report", None),
                               ("POST", "/items", {"sku": "CC-2", "name": "c", "unit_price": 1}),
                               ("POST", "/items", {"sku": "CC-2"}),
                               ("GET", "/items/NO-9", None), ("PATCH", "/items", None),
                               ("GET", "/nowhere", None), ("GET", "/items/CC-1/movements", None),
                               ("PUT", "/items/CC-1", {"name": "c", "unit_price": 2}),
                               ("DELETE", "/items/CC-2", None), ("GET", "/items/CC-2", None)]:
        r = client.request(method, path, json=data)
        rows.append([method, path, r.status_code, r.headers.get("cache-control")])
    return rows


def probe_list_sort_and_pages(client):
    for sku, name, price, stock in [("LX-3", "lynx b", 100, 4), ("LX-1", "Lynx a", 200, 2),
                                    ("LX-2", "LYNX A", 50, 4), ("LX-4", "lynx c", 400, 0),
                                    ("LX-10", "lynx straße", 10, 0)]:
        _item(client, sku, name, price, stock)
    rows = []
    for sort in ["sku", "-sku", "name", "-name", "stock", "-stock", "value", "-value", "price",
                 "--value", "Name"]:
        rows.append([sort, _page(client.get(f"/items?q=lynx&sort={sort}&per_page={MAX_PER_PAGE}"))])
    for query in ["q=STRASSE", "q=LYNX%20A", "q=ynx%20s", "q=lynx", "q=lynx&per_page=2",
                  "q=lynx&per_page=2&page=2", "q=lynx&per_page=2&page=3",
                  "q=lynx&per_page=2&page=4", "q=lynx&sort=-value&per_page=3&page=2",
                  "q=zzzz"]:
        rows.append([query, _page(client.get(f"/items?{query}"))])
    return rows


def probe_replace_item(client):
    _item(client, "RX-1", "replace probe", 300, 2)
    rows = []
    for sku, content in [("NO-5", b"{"), ("rx-1", b"{"), ("NO-5", b'{"name": "n"}'),
                         ("rx-1", b"[]")]:
        rows.append([sku, _row(client.put(f"/items/{sku}", content=content))])
    for body in [{"name": "n", "unit_price": 5, "sku": "RX-9"}, {"name": "new name"},
                 {"unit_price": 5}, {"name": "", "unit_price": 0}, {"name": "ok", "unit_price": 0},
                 {"name": "  renamed   item ", "unit_price": 999}]:
        rows.append([body, _row(client.put("/items/rx-1", json=body))])
        rows.append(_row(client.get("/items/RX-1")))
    return rows


def probe_delete_item(client):
    _item(client, "DL-1", "delete probe", 20, 2)
    rows = [_row(client.delete("/items/DL-1"))]
    client.post("/items/DL-1/movements", json={"kind": "out", "qty": 2})
    r = client.delete("/items/dl-1")
    rows.append([r.status_code, r.content == b""])
    rows.append(_row(client.delete("/items/DL-1")))
    rows.append(_row(client.get("/items/DL-1")))
    rows.append(_row(client.get("/items/DL-1/movements")))
    rows.append(_row(_item(client, "DL-1", "delete again", 30, 5)))
    rows.append(_row(client.get("/items/DL-1/movements"), COUNT))
    return rows


def probe_movements(client):
    _item(client, "MV-1", "movement probe", 3)
    _item(client, "MV-2", "movement other", 4)
    rows = []
    for body in [{"kind": "out", "qty": 1}, {"kind": "in", "qty": 0},
                 {"kind": "in", "qty": MAX_QTY}, {"kind": "in", "qty": MAX_QTY + 1},
                 {"kind": "in", "qty": True}, {"kind": "in", "qty": 2.0},
                 {"kind": "in", "qty": "3"}, {"kind": "in", "qty": -1},
                 {"kind": "IN", "qty": 1}, {"qty": 1}, {"kind": "in"},
                 {"kind": "in", "qty": 1, "memo": "x"}, {"kind": "in", "qty": 2, "note": None},
                 {"kind": "in", "qty": 1, "note": "n" * 60},
                 {"kind": "in", "qty": 1, "note": "n" * 61}, {"kind": "in", "qty": 1, "note": 5},
                 {"kind": "bad", "qty": 0, "note": 5}, {"kind": "out", "qty": MAX_QTY + 1},
                 {"kind": "out", "qty": MAX_QTY}, {"kind": "out", "qty": 5},
                 {"kind": "out", "qty": 4}]:
        rows.append([body, _row(client.post("/items/mv-1/movements", json=body))])
    rows.append(_row(client.post("/items/MV-2/movements", json={"kind": "in", "qty": 3})))
    rows.append(_row(client.get("/items/MV-1")))
    for query in ["", "?kind=out", "?since=2", "?kind=in&since=1", "?kind=IN", "?since=x",
                  "?kind=&since="]:
        r = client.get(f"/items/MV-1/movements{query}")
        rows.append([query, _row(r, COUNT)])
    rows.append(_row(client.get("/items/NO-2/movements?kind=bad")))
    rows.append(_row(client.post("/items/NO-2/movements", json={"kind": "bad"})))
    return rows
'''

# What the probes compare, and the result rows: shared with blackbox/stock_ledger's prompt.
COMPARED = r'''- the status code;
- the JSON body, as parsed JSON (key order and whitespace do not matter; a response without a
  body must have none);
- the headers `Location`, `Allow`, `Cache-Control` and `${count_header}`: whether each is
  present, and its exact value;
- for `HEAD`: that the body is empty and that `Content-Length` is the one your `app` sends
  for the same request made with `GET`.

Other headers (`Server`, `Date`, `Content-Type`, `Content-Length` outside `HEAD`) are not
compared.
'''
RESULT_SPEC = r'''`result` has four rows, made in this order by one client, where `body` is the response's JSON
body:
1. `POST /items` with `{"sku": "${sku1}", "name": "${name1}", "unit_price": ${price1}}`:
   `[status, body, <the Location header>]`
2. `POST /items/${sku1}/movements` with `{"kind": "in", "qty": ${qty1}}`: `[status, body]`
3. `GET /items?sort=-value`: `[status, body, <the ${count_header} header>]`
4. `GET /report`: `[status, body]`
'''

PROMPT = r'''`/workspace/legacy_server.py` is a shop's stock ledger: a working HTTP service written on
Python's standard library (`http.server`, `json`, `urllib.parse`) that keeps its items, their
stock movements and a stock report in memory. Port it to FastAPI in `/workspace/solution.py`.

**The code is the specification.** `app` must answer every request as `legacy_server.py`
answers it, read from its code; nothing else here restates or changes its behaviour. For each
request the probes compare:
''' + COMPARED + r'''
The hidden probes send requests of the kinds the legacy handler receives: `GET`, `HEAD`,
`POST`, `PUT`, `PATCH` and `DELETE`, to the paths it serves and to paths it does not, with
query strings and without, with JSON bodies and with bodies that are not valid JSON or not JSON
objects, under various `Content-Type`s, and with values at and past every limit in the code.
Many of them are malformed or edge cases on purpose: for each one the app must answer what the
code of `legacy_server.py` answers. They are sent as an HTTP client sends them (paths and
queries percent-encoded, a `Content-Length` on every body); no probe sends an encoded `/`, `?`
or `#` in a path (`%2F`, `%3F`, `%23`), and none depends on what `http.server` does before
`LedgerHandler`'s methods run (request-line and header parsing), nor on connections, timing or
logging. The ledger starts empty and its state carries from one request to the next.

Besides answering alike:
- Each route of the legacy `ROUTES` table must be a FastAPI path operation of `app` for the
  same method and path (a path parameter where the legacy pattern has a group, named as you
  like): `GET /openapi.json` must list each of them. FastAPI's own `/openapi.json`, `/docs`,
  `/docs/oauth2-redirect` and `/redoc` may stay as FastAPI serves them; the probes read
  `/openapi.json` only for that list and request none of the others.
- `solution.py` must not import, exec or start `legacy_server.py` (copying code from it is
  fine): the probes check that no module named `legacy_server`, or loaded from
  `legacy_server.py`, has been imported in the process.

''' + RESULT_SPEC


def _edit(name: str, old: str, new: str, count: int = 1) -> Edit:
    return Edit(name, old, new, count=count)


# The paging limits show only in legacy_server.py, so they travel with the result's data,
# which the prompt shows: no two instances share a prompt.
_SETS = {
    "data": [
        {"sku1": "fl-101", "name1": "rye  flour", "price1": 349, "qty1": 40,
         "def_per_page": 5, "max_per_page": 20, "max_qty": 500},
        {"sku1": "oat-7", "name1": "o'brien's oats", "price1": 275, "qty1": 12,
         "def_per_page": 4, "max_per_page": 12, "max_qty": 250},
        {"sku1": "hon-42", "name1": " wild  HONEY ", "price1": 1250, "qty1": 6,
         "def_per_page": 10, "max_per_page": 25, "max_qty": 1000},
    ],
    "headers": [
        {"count_header": "X-Total-Count", "cache_age": 30},
        {"count_header": "X-Item-Count", "cache_age": 60},
        {"count_header": "X-Result-Count", "cache_age": 300},
    ],
}


def _derive(p: dict) -> dict:
    # A second price whose mean with the first is an even number and a half: round() goes
    # down there, and up once the probe raises it by 2.
    return {"price2": p["price1"] + 2 * (p["price1"] % 2) + 1}



# The legacy handler on in-memory files instead of a socket: appended to LEGACY, it makes the
# module a hidden service (`handle`, raw request bytes in, the raw answer out; see
# fastapi_env/hidden_service), the one blackbox/stock_ledger lets the model query.
SERVICE_ADAPTER = '''

import io as _io


class _OneRequest(LedgerHandler):
    def __init__(self, raw):
        self.rfile, self.wfile = _io.BytesIO(raw), _io.BytesIO()
        self.client_address, self.server = ("127.0.0.1", 0), None
        self.handle_one_request()

    def log_message(self, *args):
        pass


def handle(raw):
    return _OneRequest(raw).wfile.getvalue()
'''


def service(params: dict) -> str:
    """legacy_server.py as a hidden service."""
    return render(LEGACY, params) + SERVICE_ADAPTER


# Positive control (Family.alternatives): legacy_server.py's own code answering every request,
# behind a FastAPI app that only declares the routes. Written apart from SOLUTION, it must
# score 1.0 on SOLUTION's key: the key is then what the legacy code answers, probe for probe.
# It executes the code as a module that is never imported (the probes check that no
# `legacy_server` module was). SOURCE_SLOT is where the code comes from: the setup file here,
# a copy of the hidden service in blackbox/stock_ledger.
SOURCE_SLOT = "source = <the service>\n"
LEGACY_BEHIND_FASTAPI = r'''"""The legacy handler itself, fed each request's raw bytes, read back off its output."""
import re
import types
from pathlib import Path

from fastapi import FastAPI
from fastapi.testclient import TestClient

legacy = types.ModuleType("ledger_code")
source = <the service>
exec(compile(source, "ledger_code", "exec"), legacy.__dict__)
COUNT_HEADER = legacy.COUNT_HEADER


def legacy_answer(raw: bytes) -> tuple[int, list, bytes]:
    head, _, data = legacy.handle(raw).partition(b"\r\n\r\n")
    status_line, *lines = head.split(b"\r\n")
    headers = [tuple(part.strip() for part in line.split(b":", 1)) for line in lines]
    return int(status_line.split()[1]), [(k.lower(), v) for k, v in headers], data


class Legacy:
    """ASGI: everything but FastAPI's GET /openapi.json goes to the legacy handler."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or (scope["method"], scope["path"]) == ("GET", "/openapi.json"):
            return await self.app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body, more = body + message.get("body", b""), message.get("more_body", False)
        target = scope.get("raw_path") or scope["path"].encode()
        if scope["query_string"]:
            target += b"?" + scope["query_string"]
        lines = [scope["method"].encode() + b" " + target + b" HTTP/1.1"]
        lines += [name + b": " + value for name, value in scope["headers"]]
        status, headers, data = legacy_answer(b"\r\n".join(lines) + b"\r\n\r\n" + body)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": data})


app = FastAPI()
for method, pattern, name in legacy.ROUTES:
    path = pattern.replace("([^/]+)", "{sku}")
    app.add_api_route(path, lambda: None, methods=[method], name=f"{name} ({method})")
app.add_middleware(Legacy)
''' + RESULT_ROWS


def behind_fastapi(source_line: str):
    """The positive control, its code read by `source_line` (a statement setting `source`)."""
    return lambda params: render(LEGACY_BEHIND_FASTAPI, params).replace(SOURCE_SLOT, source_line)


FAMILY = Family(
    id="repair/legacy_port_stock_ledger",
    title="Port a standard-library stock-ledger server to FastAPI, answering exactly as its code does",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt=PROMPT,
    reference=SOLUTION,
    probes=PROBES,
    setup={"legacy_server.py": LEGACY},
    alternatives={"legacy_server.py behind FastAPI": behind_fastapi(
        'source = Path(__file__).with_name("legacy_server.py").read_text() + '
        f"{SERVICE_ADAPTER!r}\n")},
    original={**_SETS["data"][0], **_SETS["headers"][0]},
    space=_SETS,
    derive=_derive,
    instances=9,
    requirements=(
        Requirement("`GET /report` counts the items, units and value, averages the unit prices "
                    "with Python's `round()` and ranks the top three values, ties by sku.",
                    probes=("report",),
                    traps=(_edit("average rounded half up", "round(sum(prices) / len(prices))",
                                 "int(sum(prices) / len(prices) + 0.5)"),
                           _edit("top values tied in creation order",
                                 "sorted(items, key=lambda item: (-value(item), item[\"sku\"]))",
                                 "sorted(items, key=value, reverse=True)"))),
        Requirement("Every legacy route is a FastAPI path operation listed by `/openapi.json`.",
                    probes=("openapi_lists_routes",),
                    traps=(_edit("report route hidden from the schema",
                                 '@app.api_route("/report", methods=["GET", "HEAD"])',
                                 '@app.api_route("/report", methods=["GET", "HEAD"], '
                                 'include_in_schema=False)'),)),
        Requirement("`solution.py` does not import `legacy_server.py`.",
                    probes=("legacy_not_imported",),
                    traps=(_edit("sort keys imported from the legacy module",
                                 'SORT_KEYS = ("sku", "name", "stock", "value")\n',
                                 "from legacy_server import SORT_KEYS  # noqa: E402\n"),)),
        Requirement("An unknown path is the legacy 404 `{\"error\": \"not found\", \"path\"}` with the "
                    "path as the request sent it, trailing slashes stripped.",
                    probes=("unknown_paths",),
                    traps=(_edit("404 shows the decoded path", '''\
    raw = request.scope.get("raw_path") or request.scope["path"].encode()
    path = raw.decode("latin-1").rstrip("/") or "/"
''', "    path = request.url.path\n"),
                           _edit("unknown paths in FastAPI's 404 format",
                                 'return answer(404, {"error": "not found", "path": path})',
                                 'return answer(404, {"detail": "Not Found"})'))),
        Requirement("A method a known path does not serve is the legacy 405 with its body and its "
                    "`Allow` (every method of the path, in table order, `HEAD` after `GET`).",
                    probes=("unserved_methods",),
                    traps=(_edit("Allow as Starlette's matching route gives it",
                                 '{"Allow": ", ".join(allowed)}', '{"Allow": exc.headers["Allow"]}'),
                           _edit("unserved methods in FastAPI's 405 format",
                                 '{"error": "method not allowed", "method": request.method}',
                                 '{"detail": "Method Not Allowed"}'))),
        Requirement("A path with trailing slashes is served as the path without them, never "
                    "redirected.",
                    probes=("trailing_slash",),
                    traps=(_edit("trailing slashes redirected (Starlette's default)",
                                 "app.add_middleware(SlashInsensitive)\n", ""),)),
        Requirement("Query strings are read as `parse_qs` reads them: blank values dropped, the "
                    "first of repeated keys used.",
                    probes=("query_first_and_blank",),
                    traps=(_edit("the last of repeated keys used (Starlette's QueryParams)",
                                 "    values = query(request).get(name)\n"
                                 "    return values[0] if values else None\n",
                                 "    return request.query_params.get(name) or None\n"),
                           _edit("blank query values kept",
                                 'parse_qs(request.scope["query_string"].decode("latin-1"))',
                                 'parse_qs(request.scope["query_string"].decode("latin-1"), '
                                 'keep_blank_values=True)'))),
        Requirement("Integer query values are read with `int()`, in the legacy order of checks.",
                    probes=("integer_parsing",),
                    traps=(_edit("integers parsed as FastAPI's Query(int) parses them",
                                 "    try:\n        return int(text)\n",
                                 "    try:\n        from pydantic import TypeAdapter\n"
                                 "        return TypeAdapter(int).validate_python(text)\n"),
                           _edit("page range checked before per_page is parsed", '''\
    page = int_arg(request, "page", 1)
    per_page = min(int_arg(request, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE)
    if page < 1:
        raise ApiError(400, "invalid parameter", parameter="page")
''', '''\
    page = int_arg(request, "page", 1)
    if page < 1:
        raise ApiError(400, "invalid parameter", parameter="page")
    per_page = min(int_arg(request, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE)
'''))),
        Requirement("A body is parsed as JSON whatever its `Content-Type`.",
                    probes=("body_any_content_type",),
                    traps=(_edit("JSON read only under a JSON Content-Type",
                                 "    raw = await request.body()\n",
                                 "    raw = await request.body()\n"
                                 '    if "json" not in request.headers.get("content-type", ""):\n'
                                 '        raise ApiError(400, "invalid JSON")\n'),)),
        Requirement("A body that is not JSON is 400 `invalid JSON`, JSON that is not an object 400 "
                    "`JSON body must be an object`, parsed from the bytes as `json.loads` does.",
                    probes=("malformed_bodies",),
                    traps=(_edit("JSON that is not an object reported as invalid JSON",
                                 'raise ApiError(400, "JSON body must be an object")',
                                 'raise ApiError(400, "invalid JSON")'),
                           _edit("body decoded as UTF-8 before parsing",
                                 "body = json.loads(raw)", "body = json.loads(raw.decode())"))),
        Requirement("Item fields are checked as the legacy code checks them: unknown, then missing, "
                    "then each field in turn, with `isinstance(..., int)` for prices.",
                    probes=("field_checks",),
                    traps=(_edit("booleans refused as prices",
                                 "if not isinstance(price, int) or not 1 <= price <= MAX_PRICE:",
                                 "if type(price) is not int or not 1 <= price <= MAX_PRICE:"),
                           _edit("integral float prices accepted (Pydantic's lax int)",
                                 "def clean_price(price) -> int:\n",
                                 "def clean_price(price) -> int:\n"
                                 "    if isinstance(price, float) and price.is_integer():\n"
                                 "        price = int(price)\n"),
                           _edit("missing fields checked before unknown ones", '''\
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise ApiError(400, "unknown field", field=unknown[0])
    for name in required:
        if name not in body:
            raise ApiError(400, "missing field", field=name)
''', '''\
    for name in required:
        if name not in body:
            raise ApiError(400, "missing field", field=name)
    unknown = sorted(set(body) - set(required) - set(optional))
    if unknown:
        raise ApiError(400, "unknown field", field=unknown[0])
'''))),
        Requirement("Creating an item normalises its sku and name (`.title()`), is 201 with "
                    "`Location`, and 409 for a sku in use.",
                    probes=("create_item",),
                    traps=(_edit("no Location on create",
                                 'answer(201, shown(ITEMS[sku]), {"Location": f"/items/{sku}"})',
                                 "answer(201, shown(ITEMS[sku]))"),
                           _edit("names capitalised, not title-cased", "return name.title()",
                                 "return name.capitalize()"),
                           _edit("bodies rendered by JSONResponse (a lone surrogate is a 500)",
                                 "    return Response(json.dumps(body), status_code=status, "
                                 "headers=headers,\n                    media_type="
                                 '"application/json")\n',
                                 "    return JSONResponse(body, status_code=status, "
                                 "headers=headers)\n"))),
        Requirement("Item paths are read upper-cased; the `GET` routes answer `HEAD` with their "
                    "status and headers and no body.",
                    probes=("read_and_head",),
                    traps=(_edit("GET routes do not answer HEAD", 'methods=["GET", "HEAD"])',
                                 'methods=["GET"])', count=4),
                           _edit("path sku not upper-cased", "    sku = sku.upper()\n", ""))),
        Requirement("`Cache-Control` is `max-age=${cache_age}` on item reads and `no-store` on every "
                    "other response, errors and 204 included.",
                    probes=("cache_control",),
                    traps=(_edit("item reads not cacheable",
                                 ', {"Cache-Control": f"max-age={ITEM_MAX_AGE}"})', ")"),
                           _edit("errors without Cache-Control",
                                 "return answer(exc.status, exc.body, exc.headers)",
                                 "return JSONResponse(exc.body, status_code=exc.status, "
                                 "headers=exc.headers)"))),
        Requirement("`GET /items` filters by `casefold()`, sorts with the sku as tie-break "
                    "(reversed with `-`), pages with a clamped `per_page` and counts the matches "
                    "in `${count_header}`.",
                    probes=("list_sort_and_pages",),
                    traps=(_edit("ties kept in sku order when reversed", '''\
    items.sort(key=lambda item: (sort_value(item, key), item["sku"]),
               reverse=sort.startswith("-"))
''', '''\
    items.sort(key=lambda item: item["sku"])
    items.sort(key=lambda item: sort_value(item, key), reverse=sort.startswith("-"))
'''),
                           _edit("search with lower()", '''\
        needle = q.casefold()
        items = [item for item in items if needle in item["name"].casefold()]
''', '''\
        needle = q.lower()
        items = [item for item in items if needle in item["name"].lower()]
'''),
                           _edit("count header counts the page", "{COUNT_HEADER: str(len(items))}",
                                 "{COUNT_HEADER: str(len(page_items))}"))),
        Requirement("`PUT /items/{sku}` looks the item up before reading the body, checks both "
                    "fields and changes nothing when one fails.",
                    probes=("replace_item",),
                    traps=(_edit("body read before the item lookup", '''\
    item = find(sku)
    body = await json_body(request)
    check_fields(body, ("name", "unit_price"))
''', '''\
    body = await json_body(request)
    item = find(sku)
    check_fields(body, ("name", "unit_price"))
'''),
                           _edit("name changed before the price is checked", '''\
    name = clean_name(body["name"])
    item["unit_price"] = clean_price(body["unit_price"])
    item["name"] = name
''', '''\
    item["name"] = clean_name(body["name"])
    item["unit_price"] = clean_price(body["unit_price"])
'''))),
        Requirement("`DELETE /items/{sku}` is 409 while the item has stock, else 204 without a "
                    "body; the sku is free again.",
                    probes=("delete_item",),
                    traps=(_edit("items deleted with stock", '''\
    if item["stock"]:
        raise ApiError(409, "item has stock", stock=item["stock"])
''', ""),)),
        Requirement("Movements are checked as the legacy code checks them (`isinstance` for "
                    "`qty`, 1 to ${max_qty}), cannot take the stock below 0, are numbered per item, "
                    "and list with `kind`, `since` and a count.",
                    probes=("movements",),
                    traps=(_edit("stock may go negative", '''\
    if kind == "out" and qty > item["stock"]:
        raise ApiError(409, "insufficient stock", stock=item["stock"])
''', ""),
                           _edit("movements numbered across items", '"seq": len(movements) + 1',
                                 '"seq": sum(map(len, MOVEMENTS.values())) + 1'),
                           _edit("movement count ignores the filters",
                                 "{COUNT_HEADER: str(len(movements))}",
                                 '{COUNT_HEADER: str(len(MOVEMENTS[item["sku"]]))}'),
                           _edit("booleans refused as quantities",
                                 "if not isinstance(qty, int) or not 1 <= qty <= MAX_QTY:",
                                 "if type(qty) is not int or not 1 <= qty <= MAX_QTY:"))),
    ),
)
