from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from starlette.exceptions import HTTPException as StarletteHTTPException

VAULTS = {"${full}": ${items_code}, "${empty}": []}
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
    if authorization != "Bearer ${token}":
        raise HTTPException(
            status_code=401,
            detail="not authenticated",
            headers={"WWW-Authenticate": 'Bearer realm="${realm}"'},
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
            status_code=409, detail="vault not empty", headers={"${ch}": str(len(items))}
        )
    del VAULTS[name]
    return {"purged": name}
'''

_RESULT = '''

client = TestClient(app)
TOKEN = {"Authorization": "Bearer ${token}"}
result = []
for method, path, headers in [
    ("GET", "/vaults/${full}", TOKEN),
    ("GET", "/vaults/${full}", {}),
    ("GET", "/vaults/${unknown}", TOKEN),
    ("GET", "/nowhere", {}),
    ("DELETE", "/vaults/${full}", TOKEN),
    ("POST", "/vaults/${full}/purge", TOKEN),
]:
    r = client.request(method, path, headers=headers)
    result.append([
        r.status_code,
        r.headers.get("www-authenticate"),
        r.headers.get("allow"),
        r.headers.get("${ch_lower}"),
        r.json(),
    ])
'''

_REFERENCE = _HEAD + _HANDLER + _ROUTES + _RESULT

_STATUS_KEYED_HANDLER = '''

async def http_error_handler(request: Request, exc: StarletteHTTPException):
    return JSONResponse(
        status_code=exc.status_code,
        content={"error": {"status": exc.status_code, "message": exc.detail}},
        headers=exc.headers,
    )


for code in (401, 404, 409):
    app.add_exception_handler(code, http_error_handler)
'''

_VALIDATION_ENVELOPE = '''

from fastapi.exceptions import RequestValidationError


@app.exception_handler(RequestValidationError)
async def validation_handler(request: Request, exc: RequestValidationError):
    return JSONResponse(status_code=422, content={"error": {"status": 422, "message": "invalid"}})
'''

FAMILY = Family(
    id="errors/http_exception_handler_override",
    title="One JSON error envelope for every HTTP error, headers preserved",
    category="errors",
    difficulty="hard",
    prompt='''\
Build a small vault service whose HTTP errors all use one envelope. Vaults live in memory:
`{"${full}": ${items_code}, "${empty}": []}` (name -> items).

Error format: every HTTP error response, whether your code raises it or FastAPI/Starlette
produces it (a path that matches no route is 404 "Not Found"; a known path with a method it
does not support is 405 "Method Not Allowed"), keeps its status code and has the JSON body
`{"error": {"status": <status code>, "message": <the error's detail text>}}`. Any response
headers that come with the error must still be sent (for instance the `WWW-Authenticate` header
of a 401, the `Allow` header of a 405, the `${ch}` header below). Request-validation
errors (422) keep FastAPI's default format.

Authentication: every route requires `Authorization: Bearer ${token}`. A missing or different
header is an HTTP error 401 with detail `not authenticated` and the header
`WWW-Authenticate: Bearer realm="${realm}"`; it is checked before anything else the route does.

Routes (`name` a string, `index` an integer):
- `GET /vaults/{name}`: 200 `{"name": <name>, "items": [...]}`.
- `GET /vaults/{name}/items/{index}`: 200 `{"name": <name>, "index": <index>, "item": <item>}`;
  an index outside the list is a 404 with detail `no such item`.
- `POST /vaults/{name}/purge`: deletes an empty vault and answers 200 `{"purged": <name>}`; a
  vault that still has items is a 409 with detail `vault not empty` and the header
  `${ch}: <number of items>`, and is kept.
- An unknown vault name is a 404 with detail `no such vault` on all three routes.

Then fill `result` with one row per request, in this order. Each row is
`[status code (integer), then the values of the response headers "www-authenticate", "allow"
and "${ch_lower}" (each a string, or null when absent), the JSON body]`:
1. `GET /vaults/${full}` with `Authorization: Bearer ${token}`
2. `GET /vaults/${full}` without an `Authorization` header
3. `GET /vaults/${unknown}` with `Authorization: Bearer ${token}`
4. `GET /nowhere` without an `Authorization` header
5. `DELETE /vaults/${full}` with `Authorization: Bearer ${token}`
6. `POST /vaults/${full}/purge` with `Authorization: Bearer ${token}`
''',
    reference=_REFERENCE,
    probes='''\
TOKEN = {"Authorization": "Bearer ${token}"}


def _row(r):
    try:
        body = r.json()
    except ValueError:
        body = r.text
    return [
        r.status_code,
        r.headers.get("www-authenticate"),
        r.headers.get("allow"),
        r.headers.get("${ch_lower}"),
        body,
    ]


def probe_items(client):
    return [
        _row(client.get("/vaults/${full}/items/${last}", headers=TOKEN)),
        _row(client.get("/vaults/${full}/items/${count}", headers=TOKEN)),
        _row(client.get("/vaults/${full}/items/${count}", headers={"Authorization": "Bearer nope"})),
    ]


def probe_method_not_allowed(client):
    return [
        _row(client.put("/vaults/${empty}/items/0", headers=TOKEN)),
        _row(client.get("/vaults/${empty}/purge", headers=TOKEN)),
    ]


def probe_purge_empty_vault(client):
    return [
        _row(client.post("/vaults/${empty}/purge", headers=TOKEN)),
        _row(client.post("/vaults/${empty}/purge", headers=TOKEN)),
        _row(client.post("/vaults/${empty}/purge")),
    ]


def probe_validation_keeps_default(client):
    r = client.get("/vaults/${full}/items/first", headers=TOKEN)
    body = r.json()
    return [[r.status_code, sorted(body), body["detail"][0]["type"], body["detail"][0]["loc"]]]

def probe_index_bounds_and_unknown_vaults(client):
    return [
        _row(client.get("/vaults/${full}/items/-1", headers=TOKEN)),
        _row(client.get("/vaults/${full}/items/0", headers=TOKEN)),
        _row(client.get("/vaults/${unknown}/items/0", headers=TOKEN)),
        _row(client.post("/vaults/${unknown}/purge", headers=TOKEN)),
        _row(client.get("/vaults/${unknown}/items/0")),
    ]


def probe_exact_credentials(client):
    return [
        _row(client.get("/vaults/${full}", headers={"Authorization": "bearer ${token}"})),
        _row(client.get("/vaults/${full}", headers={"Authorization": "Bearer ${token}x"})),
        _row(client.get("/vaults/${full}", headers={"Authorization": ""})),
    ]
''',
    original={"full": "alpha", "empty": "beta", "unknown": "gamma", "items": ["coin", "map"],
              "token": "open-sesame", "realm": "vaults", "ch": "X-Item-Count"},
    space={
        "full": [{"full": "alpha", "empty": "beta", "unknown": "gamma"},
                 {"full": "north", "empty": "south", "unknown": "east"},
                 {"full": "red", "empty": "blue", "unknown": "green"}],
        # a header name never reaches a row (rows read it by name): it rides with the items
        "items": [{"items": ["coin", "map"], "ch": "X-Item-Count"}, {"items": ["gem", "key", "rope"], "ch": "X-Remaining"},
                  {"items": ["cup"], "ch": "X-Item-Count"}],
        "token": [{"token": "open-sesame", "realm": "vaults"}, {"token": "letmein", "realm": "treasury"}],
    },
    derive=lambda p: {"items_code": repr(p["items"]).replace("'", '"'), "ch_lower": p["ch"].lower(),
                      "count": len(p["items"]), "last": len(p["items"]) - 1},
    instances=36,
    requirements=(
        Requirement(
            "Every HTTP error, Starlette's own 404/405 included, uses the envelope "
            '`{"error": {"status", "message"}}` with its status.',
            probes=("method_not_allowed", "items"),
            traps=(Edit("handler registered for fastapi.HTTPException",
                        "@app.exception_handler(StarletteHTTPException)\nasync def http_error_handler(request: Request, exc: StarletteHTTPException):",
                        "@app.exception_handler(HTTPException)\nasync def http_error_handler(request: Request, exc: HTTPException):"),
                   Edit("handlers keyed by the status codes the app raises", _HANDLER, _STATUS_KEYED_HANDLER)),
        ),
        Requirement(
            "An error's headers are still sent: `WWW-Authenticate` on the 401, `Allow` on the "
            "405, `${ch}` on the 409.",
            probes=("items", "method_not_allowed", "purge_empty_vault"),
            traps=(Edit("handler drops exc.headers", "        headers=exc.headers,\n", ""),),
        ),
        Requirement(
            "Only the exact `Authorization: Bearer ${token}` passes (scheme case, a suffix, an "
            "empty value are 401), checked before anything else (an unknown vault without it is "
            "401).",
            probes=("exact_credentials", "index_bounds_and_unknown_vaults", "purge_empty_vault"),
            traps=(Edit("scheme compared case-insensitively",
                        'if authorization != "Bearer ${token}":',
                        'if (authorization or "").lower() != "bearer ${token}":'),
                   Edit("vault looked up before authentication",
                        "    require_token(authorization)\n    items = find_vault(name)\n    if not 0",
                        "    items = find_vault(name)\n    require_token(authorization)\n    if not 0")),
        ),
        Requirement(
            "An index outside the list, negative ones included, is 404 `no such item`; an unknown "
            "vault is 404 `no such vault` on all three routes.",
            probes=("index_bounds_and_unknown_vaults", "items"),
            traps=(Edit("negative indexes count from the end", "if not 0 <= index < len(items):",
                        "if not -len(items) <= index < len(items):"),
                   Edit("purge of an unknown vault succeeds",
                        "    require_token(authorization)\n    items = find_vault(name)\n    if items:",
                        "    require_token(authorization)\n    items = VAULTS.get(name, [])\n    if items:")),
        ),
        Requirement(
            "Purging an empty vault answers 200 and deletes it (a second purge is 404); a vault "
            "with items is 409 and kept.",
            probes=("purge_empty_vault",),
            traps=(Edit("purge keeps the vault", "    del VAULTS[name]\n", ""),),
        ),
        Requirement(
            "Validation errors keep FastAPI's default 422 format.",
            probes=("validation_keeps_default",),
            traps=(Edit("envelope on validation errors too", _HANDLER, _HANDLER + _VALIDATION_ENVELOPE),),
        ),
    ),
    expected_rows=[
        [200, None, None, None, {"name": "alpha", "items": ["coin", "map"]}],
        [401, 'Bearer realm="vaults"', None, None, {"error": {"status": 401, "message": "not authenticated"}}],
        [404, None, None, None, {"error": {"status": 404, "message": "no such vault"}}],
        [404, None, None, None, {"error": {"status": 404, "message": "Not Found"}}],
        [405, None, "GET", None, {"error": {"status": 405, "message": "Method Not Allowed"}}],
        [409, None, None, "2", {"error": {"status": 409, "message": "vault not empty"}}],
    ],
)
