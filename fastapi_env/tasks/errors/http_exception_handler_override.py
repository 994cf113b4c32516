from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException as StarletteHTTPException

VAULTS = {"alpha": ["coin", "map"], "beta": []}
app = FastAPI()
'''

_HANDLER = '''

@app.exception_handler(StarletteHTTPException)
async def http_error_handler(request: Request, exc: StarletteHTTPException):
    return JSONResponse(
        status_code=exc.status_code,
        content={"error": {"status": exc.status_code, "message": exc.detail}},
        headers=exc.headers,
    )
'''

_ROUTES = '''

def require_token(authorization: str | None):
    if authorization != "Bearer open-sesame":
        raise HTTPException(
            status_code=401,
            detail="not authenticated",
            headers={"WWW-Authenticate": 'Bearer realm="vaults"'},
        )


def find_vault(name: str) -> list[str]:
    if name not in VAULTS:
        raise HTTPException(status_code=404, detail="no such vault")
    return VAULTS[name]


@app.get("/vaults/{name}")
def read_vault(name: str, authorization: Annotated[str | None, Header()] = None):
    require_token(authorization)
    return {"name": name, "items": find_vault(name)}


@app.get("/vaults/{name}/items/{index}")
def read_item(name: str, index: int, authorization: Annotated[str | None, Header()] = None):
    require_token(authorization)
    items = find_vault(name)
    if not 0 <= index < len(items):
        raise HTTPException(status_code=404, detail="no such item")
    return {"name": name, "index": index, "item": items[index]}


@app.post("/vaults/{name}/purge")
def purge_vault(name: str, authorization: Annotated[str | None, Header()] = None):
    require_token(authorization)
    items = find_vault(name)
    if items:
        raise HTTPException(
            status_code=409, detail="vault not empty", headers={"X-Item-Count": str(len(items))}
        )
    del VAULTS[name]
    return {"purged": name}
'''

_RESULT = '''

client = TestClient(app)
TOKEN = {"Authorization": "Bearer open-sesame"}
result = []
for method, path, headers in [
    ("GET", "/vaults/alpha", TOKEN),
    ("GET", "/vaults/alpha", {}),
    ("GET", "/vaults/gamma", TOKEN),
    ("GET", "/nowhere", {}),
    ("DELETE", "/vaults/alpha", TOKEN),
    ("POST", "/vaults/alpha/purge", TOKEN),
]:
    r = client.request(method, path, headers=headers)
    result.append([
        r.status_code,
        r.headers.get("www-authenticate"),
        r.headers.get("allow"),
        r.headers.get("x-item-count"),
        r.json(),
    ])
'''

_REFERENCE = _HEAD + _HANDLER + _ROUTES + _RESULT

_FASTAPI_CLASS = _HEAD + _HANDLER.replace(
    "@app.exception_handler(StarletteHTTPException)\nasync def http_error_handler(request: Request, exc: StarletteHTTPException):",
    "@app.exception_handler(HTTPException)\nasync def http_error_handler(request: Request, exc: HTTPException):",
) + _ROUTES + _RESULT

_DROPS_HEADERS = _HEAD + _HANDLER.replace("        headers=exc.headers,\n", "") + _ROUTES + _RESULT

_STATUS_KEYED = _HEAD + '''

async def http_error_handler(request: Request, exc: StarletteHTTPException):
    return JSONResponse(
        status_code=exc.status_code,
        content={"error": {"status": exc.status_code, "message": exc.detail}},
        headers=exc.headers,
    )


for code in (401, 404, 409):
    app.add_exception_handler(code, http_error_handler)
''' + _ROUTES + _RESULT

TASK = Task(
    id="errors/http_exception_handler_override",
    title="One JSON error envelope for every HTTP error, headers preserved",
    category="errors",
    difficulty="hard",
    prompt='''\
Build a small vault service whose HTTP errors all use one envelope. Vaults live in memory:
`{"alpha": ["coin", "map"], "beta": []}` (name -> items).

Error format: every HTTP error response, whether your code raises it or FastAPI/Starlette
produces it (a path that matches no route is 404 "Not Found"; a known path with a method it
does not support is 405 "Method Not Allowed"), keeps its status code and has the JSON body
`{"error": {"status": <status code>, "message": <the error's detail text>}}`. Any response
headers that come with the error must still be sent (for instance the `WWW-Authenticate` header
of a 401, the `Allow` header of a 405, the `X-Item-Count` header below). Request-validation
errors (422) keep FastAPI's default format.

Authentication: every route requires `Authorization: Bearer open-sesame`. A missing or different
header is an HTTP error 401 with detail `not authenticated` and the header
`WWW-Authenticate: Bearer realm="vaults"`; it is checked before anything else the route does.

Routes (`name` a string, `index` an integer):
- `GET /vaults/{name}`: 200 `{"name": <name>, "items": [...]}`.
- `GET /vaults/{name}/items/{index}`: 200 `{"name": <name>, "index": <index>, "item": <item>}`;
  an index outside the list is a 404 with detail `no such item`.
- `POST /vaults/{name}/purge`: deletes an empty vault and answers 200 `{"purged": <name>}`; a
  vault that still has items is a 409 with detail `vault not empty` and the header
  `X-Item-Count: <number of items>`, and is kept.
- An unknown vault name is a 404 with detail `no such vault` on all three routes.

Then fill `result` with one row per request, in this order. Each row is
`[status code (integer), then the values of the response headers "www-authenticate", "allow"
and "x-item-count" (each a string, or null when absent), the JSON body]`:
1. `GET /vaults/alpha` with `Authorization: Bearer open-sesame`
2. `GET /vaults/alpha` without an `Authorization` header
3. `GET /vaults/gamma` with `Authorization: Bearer open-sesame`
4. `GET /nowhere` without an `Authorization` header
5. `DELETE /vaults/alpha` with `Authorization: Bearer open-sesame`
6. `POST /vaults/alpha/purge` with `Authorization: Bearer open-sesame`
''',
    reference=_REFERENCE,
    probes='''\
TOKEN = {"Authorization": "Bearer open-sesame"}


def _row(r):
    try:
        body = r.json()
    except ValueError:
        body = r.text
    return [
        r.status_code,
        r.headers.get("www-authenticate"),
        r.headers.get("allow"),
        r.headers.get("x-item-count"),
        body,
    ]


def probe_items(client):
    return [
        _row(client.get("/vaults/alpha/items/1", headers=TOKEN)),
        _row(client.get("/vaults/alpha/items/5", headers=TOKEN)),
        _row(client.get("/vaults/alpha/items/5", headers={"Authorization": "Bearer nope"})),
    ]


def probe_method_not_allowed(client):
    return [
        _row(client.put("/vaults/beta/items/0", headers=TOKEN)),
        _row(client.get("/vaults/beta/purge", headers=TOKEN)),
    ]


def probe_purge_empty_vault(client):
    return [
        _row(client.post("/vaults/beta/purge", headers=TOKEN)),
        _row(client.post("/vaults/beta/purge", headers=TOKEN)),
        _row(client.post("/vaults/beta/purge")),
    ]


def probe_validation_keeps_default(client):
    r = client.get("/vaults/alpha/items/first", headers=TOKEN)
    body = r.json()
    return [[r.status_code, sorted(body), body["detail"][0]["type"], body["detail"][0]["loc"]]]
''',
    traps={
        "handler registered for fastapi.HTTPException": _FASTAPI_CLASS,
        "handler drops exc.headers": _DROPS_HEADERS,
        "handlers keyed by the status codes the app raises": _STATUS_KEYED,
    },
    expected_rows=[
        [200, None, None, None, {"name": "alpha", "items": ["coin", "map"]}],
        [401, 'Bearer realm="vaults"', None, None, {"error": {"status": 401, "message": "not authenticated"}}],
        [404, None, None, None, {"error": {"status": 404, "message": "no such vault"}}],
        [404, None, None, None, {"error": {"status": 404, "message": "Not Found"}}],
        [405, None, "GET", None, {"error": {"status": 405, "message": "Method Not Allowed"}}],
        [409, None, None, "2", {"error": {"status": 409, "message": "vault not empty"}}],
    ],
)
