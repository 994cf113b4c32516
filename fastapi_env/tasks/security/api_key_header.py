from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a data API authenticated by an API key sent in the `${header}` request header, declared
with FastAPI's `APIKeyHeader` security scheme (so that it is documented in OpenAPI).

Keys (module level): `KEYS = {"${k1}": "${t1}", "${k2}": "${t2}"}` (key -> tenant).

Routes:

- `GET /data` requires a key. It returns `{"tenant": <tenant>, "rows": ${rows}}`.
  - No `${header}` header: 401, JSON body `{"detail": "Not authenticated"}`, response header
    `WWW-Authenticate: APIKey`. (A key passed any other way, e.g. in the query string, does not
    count.)
  - A key that is not in `KEYS`: 403, JSON body `{"detail": "Invalid API key"}` (no
    `WWW-Authenticate` header).
- `GET /catalog` works with or without a key. Without one it returns `{"tenant": null}`; with a
  known key `{"tenant": <tenant>}`; an unknown key is the same 403 as above.

In `/openapi.json`, `components["securitySchemes"]` is exactly
`{"APIKeyHeader": {"type": "apiKey", "in": "header", "name": "${header}"}}`, and both operations
list `[{"APIKeyHeader": []}]` as their `security`; neither has `${header}` among its documented
`parameters`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order. Rows 1-5 are `[status code (integer), the value of the WWW-Authenticate
response header (string, or null if absent), JSON body (object)]`:

1. `GET /data` with no key
2. `GET /data` with header `${header}: ${k1}`
3. `GET /data` with header `${header}: k-fake`
4. `GET /catalog` with no key
5. `GET /catalog` with header `${header}: ${k2}`
6. From `GET /openapi.json`: `[components["securitySchemes"] (object),
   paths["/data"]["get"]["security"] (list), paths["/catalog"]["get"]["security"] (list)]`
'''

HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException, Security
from fastapi.security import APIKeyHeader
from fastapi.testclient import TestClient

KEYS = {"${k1}": "${t1}", "${k2}": "${t2}"}

app = FastAPI()

'''

AUTH = '''\
required_key = APIKeyHeader(name="${header}")
optional_key = APIKeyHeader(name="${header}", auto_error=False)


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
    return {"tenant": t, "rows": ${rows}}


@app.get("/catalog")
def catalog(t: Annotated[str | None, Security(maybe_tenant)]):
    return {"tenant": t}
'''

TAIL = '''

client = TestClient(app)
result = []
for path, headers in [
    ("/data", {}),
    ("/data", {"${header}": "${k1}"}),
    ("/data", {"${header}": "k-fake"}),
    ("/catalog", {}),
    ("/catalog", {"${header}": "${k2}"}),
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
    return [_row(client.get("/data?${header}=${k1}")), _row(client.get("/data?${hparam}=${k1}"))]


def probe_other_tenant_and_bad_optional_key(client):
    return [
        _row(client.get("/data", headers={"${header_lower}": "${k2}"})),
        _row(client.get("/catalog", headers={"${header}": "nope"})),
        _row(client.get("/catalog")),
    ]


def probe_forged_keys(client):
    return [
        _row(client.get("/data", headers={"${header}": "${k1_upper}"})),
        _row(client.get("/data", headers={"${header}": "${t1}"})),
        _row(client.get("/catalog", headers={"${header}": "${k2}x"})),
    ]


def probe_no_documented_header_parameter(client):
    spec = client.get("/openapi.json").json()
    rows = []
    for path in ["/data", "/catalog"]:
        op = spec["paths"][path]["get"]
        rows.append([path, [p["name"] for p in op.get("parameters", [])]])
    return rows
'''

_HEADER_AUTH_403 = '''\
def tenant(${hparam}: Annotated[str | None, Header()] = None) -> str:
    if ${hparam} is None:
        raise HTTPException(status_code=403, detail="Not authenticated")
    if ${hparam} not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[${hparam}]


def maybe_tenant(${hparam}: Annotated[str | None, Header()] = None) -> str | None:
    if ${hparam} is None:
        return None
    if ${hparam} not in KEYS:
        raise HTTPException(status_code=403, detail="Invalid API key")
    return KEYS[${hparam}]
'''

_HEADER_AUTH_401 = _HEADER_AUTH_403.replace(
    '''        raise HTTPException(status_code=403, detail="Not authenticated")''',
    '''        raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "APIKey"})''',
)

_ONE_SCHEME = '''\
api_key = APIKeyHeader(name="${header}")


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
'''

FAMILY = Family(
    id="security/api_key_header",
    title="APIKeyHeader: 401 APIKey challenge, 403 for bad keys, optional key, OpenAPI scheme",
    category="security",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"header": "X-API-Key", "k1": "k-live-1", "k2": "k-live-2", "t1": "acme",
              "t2": "globex", "rows": 3},
    space={
        "header": ["X-API-Key", "X-Key", "X-Tenant-Token"],
        # keys never reach a row: they ride with the tenants
        "t1": [{"t1": "acme", "t2": "globex", "k1": "k-live-1", "k2": "k-live-2"},
               {"t1": "initech", "t2": "umbrella", "k1": "abc123", "k2": "def456"},
               {"t1": "hooli", "t2": "pied", "k1": "key-one", "k2": "key-two"}],
        "rows": [3, 5],
    },
    derive=lambda p: {"hparam": p["header"].lower().replace("-", "_"),
                      "header_lower": p["header"].lower(), "k1_upper": p["k1"].upper()},
    instances=40,
    requirements=(
        Requirement(
            "A missing key on `/data` is 401 `Not authenticated` with `WWW-Authenticate: "
            "APIKey`; a key sent any other way (the query string) does not count.",
            probes=("key_in_query_does_not_count",),
            traps=(Edit("plain Header parameter, 403 for a missing key", AUTH, _HEADER_AUTH_403),),
        ),
        Requirement(
            "The key is declared with `APIKeyHeader` and documented: the exact security scheme, "
            "`security` on both operations, no documented header parameter.",
            probes=("no_documented_header_parameter",),
            traps=(Edit("plain Header parameter with a hand-made 401 (undocumented scheme)", AUTH,
                        _HEADER_AUTH_401),),
        ),
        Requirement(
            "`/catalog` works without a key (tenant null) and with a known one; an unknown key "
            "there is the same 403.",
            probes=("other_tenant_and_bad_optional_key", "forged_keys"),
            traps=(Edit("optional key via `= None` instead of auto_error=False", AUTH, _ONE_SCHEME),),
        ),
        Requirement(
            "Only an exact key of `KEYS` passes (header names are case-insensitive, keys are "
            'not): anything else is 403 `{"detail": "Invalid API key"}` without a challenge.',
            probes=("forged_keys", "other_tenant_and_bad_optional_key"),
            traps=(Edit("unknown key answered 401 instead of 403",
                        'raise HTTPException(status_code=403, detail="Invalid API key")',
                        'raise HTTPException(status_code=401, detail="Invalid API key", headers={"WWW-Authenticate": "APIKey"})',
                        count=2),
                   Edit("keys compared case-insensitively",
                        "def tenant(key: Annotated[str, Security(required_key)]) -> str:\n",
                        "def tenant(key: Annotated[str, Security(required_key)]) -> str:\n    key = key.lower()\n")),
        ),
    ),
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
