from fastapi_env.tasks import Task

PROMPT = '''\
Build a data API authenticated by an API key sent in the `X-API-Key` request header, declared
with FastAPI's `APIKeyHeader` security scheme (so that it is documented in OpenAPI).

Keys (module level): `KEYS = {"k-live-1": "acme", "k-live-2": "globex"}` (key -> tenant).

Routes:

- `GET /data` requires a key. It returns `{"tenant": <tenant>, "rows": 3}`.
  - No `X-API-Key` header: 401, JSON body `{"detail": "Not authenticated"}`, response header
    `WWW-Authenticate: APIKey`. (A key passed any other way, e.g. in the query string, does not
    count.)
  - A key that is not in `KEYS`: 403, JSON body `{"detail": "Invalid API key"}` (no
    `WWW-Authenticate` header).
- `GET /catalog` works with or without a key. Without one it returns `{"tenant": null}`; with a
  known key `{"tenant": <tenant>}`; an unknown key is the same 403 as above.

In `/openapi.json`, `components["securitySchemes"]` is exactly
`{"APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"}}`, and both operations
list `[{"APIKeyHeader": []}]` as their `security`; neither has `X-API-Key` among its documented
`parameters`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order. Rows 1-5 are `[status code (integer), the value of the WWW-Authenticate
response header (string, or null if absent), JSON body (object)]`:

1. `GET /data` with no key
2. `GET /data` with header `X-API-Key: k-live-1`
3. `GET /data` with header `X-API-Key: k-fake`
4. `GET /catalog` with no key
5. `GET /catalog` with header `X-API-Key: k-live-2`
6. From `GET /openapi.json`: `[components["securitySchemes"] (object),
   paths["/data"]["get"]["security"] (list), paths["/catalog"]["get"]["security"] (list)]`
'''

HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Security
from fastapi.security import APIKeyHeader
from fastapi.testclient import TestClient

KEYS = {"k-live-1": "acme", "k-live-2": "globex"}

app = FastAPI()

'''

AUTH = '''\
required_key = APIKeyHeader(name="X-API-Key")
optional_key = APIKeyHeader(name="X-API-Key", auto_error=False)


def tenant(key: Annotated[str, Security(required_key)]) -> str:
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[key]


def maybe_tenant(key: Annotated[str | None, Security(optional_key)]) -> str | None:
    if key is None:
        return None
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[key]
'''

ROUTES = '''

@app.get("/data")
def data(t: Annotated[str, Security(tenant)]):
    return {"tenant": t, "rows": 3}


@app.get("/catalog")
def catalog(t: Annotated[str | None, Security(maybe_tenant)]):
    return {"tenant": t}
'''

TAIL = '''

client = TestClient(app)
result = []
for path, headers in [
    ("/data", {}),
    ("/data", {"X-API-Key": "k-live-1"}),
    ("/data", {"X-API-Key": "k-fake"}),
    ("/catalog", {}),
    ("/catalog", {"X-API-Key": "k-live-2"}),
]:
    r = client.get(path, headers=headers)
    result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
spec = client.get("/openapi.json").json()
result.append([
    spec.get("components", {}).get("securitySchemes"),
    spec["paths"]["/data"]["get"].get("security"),
    spec["paths"]["/catalog"]["get"].get("security"),
])
'''

REFERENCE = HEAD + AUTH + ROUTES + TAIL

PROBES = '''\
def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.json()]


def probe_key_in_query_does_not_count(client):
    return [_row(client.get("/data?X-API-Key=k-live-1")), _row(client.get("/data?x_api_key=k-live-1"))]


def probe_other_tenant_and_bad_optional_key(client):
    return [
        _row(client.get("/data", headers={"x-api-key": "k-live-2"})),
        _row(client.get("/catalog", headers={"X-API-Key": "nope"})),
    ]


def probe_no_documented_header_parameter(client):
    spec = client.get("/openapi.json").json()
    rows = []
    for path in ["/data", "/catalog"]:
        op = spec["paths"][path]["get"]
        rows.append([path, [p["name"] for p in op.get("parameters", [])]])
    return rows
'''

# Reproduces the pre-0.122 behaviour (403 for a missing key) with a plain Header parameter.
TRAP_HEADER_PARAM_403 = HEAD + '''\
def tenant(x_api_key: Annotated[str | None, Header()] = None) -> str:
    if x_api_key is None:
        raise HTTPException(status_code=403, detail="Not authenticated")
    if x_api_key not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[x_api_key]


def maybe_tenant(x_api_key: Annotated[str | None, Header()] = None) -> str | None:
    if x_api_key is None:
        return None
    if x_api_key not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[x_api_key]
''' + ROUTES + TAIL

# Runtime right (401 + APIKey challenge), but nothing is documented as a security scheme.
TRAP_HEADER_PARAM_401 = TRAP_HEADER_PARAM_403.replace(
    '''        raise HTTPException(status_code=403, detail="Not authenticated")''',
    '''        raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "APIKey"})''',
)

# `= None` on the parameter does not make APIKeyHeader optional: /catalog answers 401 without a key.
TRAP_DEFAULT_NONE_NOT_OPTIONAL = HEAD + '''\
api_key = APIKeyHeader(name="X-API-Key")


def tenant(key: Annotated[str, Security(api_key)]) -> str:
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[key]


def maybe_tenant(key: Annotated[str | None, Security(api_key)] = None) -> str | None:
    if key is None:
        return None
    if key not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[key]
''' + ROUTES + TAIL

TRAP_BAD_KEY_401 = REFERENCE.replace(
    'raise HTTPException(status_code=403, detail="Invalid API key")',
    'raise HTTPException(status_code=401, detail="Invalid API key", headers={"WWW-Authenticate": "APIKey"})',
)

TASK = Task(
    id="security/api_key_header",
    title="APIKeyHeader: 401 APIKey challenge, 403 for bad keys, optional key, OpenAPI scheme",
    category="security",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "plain Header parameter, 403 for a missing key": TRAP_HEADER_PARAM_403,
        "plain Header parameter with a hand-made 401 (undocumented scheme)": TRAP_HEADER_PARAM_401,
        "optional key via `= None` instead of auto_error=False": TRAP_DEFAULT_NONE_NOT_OPTIONAL,
        "unknown key answered 401 instead of 403": TRAP_BAD_KEY_401,
    },
    expected_rows=[
        [401, "APIKey", {"detail": "Not authenticated"}],
        [200, None, {"tenant": "acme", "rows": 3}],
        [403, None, {"detail": "Invalid API key"}],
        [200, None, {"tenant": None}],
        [200, None, {"tenant": "globex"}],
        [{"APIKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key"}},
         [{"APIKeyHeader": []}], [{"APIKeyHeader": []}]],
    ],
)
