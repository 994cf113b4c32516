from fastapi_env.tasks import Task

_HEAD = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Request
from fastapi.testclient import TestClient

KEYS = {"k-ada": "ada", "k-bob": "bob"}
STATS = {"key_checks": 0}
HITS: list = []


def verify_key(x_api_key: Annotated[str, Header()]) -> str:
    STATS["key_checks"] += 1
    if x_api_key not in KEYS:
        raise HTTPException(status_code=403, detail="invalid key")
    return KEYS[x_api_key]
'''

_RECORD = '''

def record_hit(request: Request, owner: Annotated[str, Depends(verify_key)]) -> None:
    HITS.append([owner, request.method, request.url.path])
'''

_ROUTER = '''

router = APIRouter(prefix="/admin", dependencies=[Depends(record_hit)])


@router.get("/reports")
def reports():
    return {"reports": ["q1", "q2"]}


@router.get("/whoami")
def whoami(owner: Annotated[str, Depends(verify_key)]):
    return {"owner": owner}
'''

_APP = '''

app = FastAPI()
app.include_router(router)


@app.post("/maintenance", status_code=202, dependencies=[Depends(record_hit)])
def maintenance():
    return {"scheduled": True}


@app.get("/status")
def status():
    return {"key_checks": STATS["key_checks"], "hits": HITS}
'''

_RESULT = '''

client = TestClient(app)
result = []
for method, path, key in [
    ("GET", "/admin/reports", "k-ada"),
    ("GET", "/admin/reports", "nope"),
    ("GET", "/admin/whoami", "k-bob"),
    ("POST", "/maintenance", "k-ada"),
    ("GET", "/status", None),
]:
    headers = {"X-API-Key": key} if key else {}
    r = client.request(method, path, headers=headers)
    result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _RECORD + _ROUTER + _APP + _RESULT

_VALUE_FROM_DECORATOR = _HEAD + _RECORD + _ROUTER.replace(
    'def whoami(owner: Annotated[str, Depends(verify_key)]):', 'def whoami(owner: str | None = None):'
) + _APP + _RESULT

_NO_CACHE = _HEAD + (_RECORD + _ROUTER).replace(
    "Depends(verify_key)", "Depends(verify_key, use_cache=False)"
) + _APP + _RESULT

_GUARD_ONE_ROUTE = _HEAD + _RECORD + '''

router = APIRouter(prefix="/admin")


@router.get("/reports", dependencies=[Depends(record_hit)])
def reports():
    return {"reports": ["q1", "q2"]}


@router.get("/whoami")
def whoami(owner: Annotated[str, Depends(verify_key)]):
    return {"owner": owner}
''' + _APP + _RESULT

TASK = Task(
    id="dependencies/decorator_dependencies",
    title="Guard and audit dependencies declared on the router and the decorator",
    category="dependencies",
    difficulty="medium",
    prompt='''\
Build an admin API guarded by an API key. Module-level state, starting as:

    KEYS = {"k-ada": "ada", "k-bob": "bob"}   # API key -> owner
    STATS = {"key_checks": 0}
    HITS = []

- **Key check** (a dependency): reads the required request header `X-API-Key` (missing header:
  FastAPI's standard 422 validation error, and the check does not run). Each time the check
  runs it adds 1 to `STATS["key_checks"]`; an unknown key then fails with 403
  `{"detail": "invalid key"}`; a known key gives its owner's name. Within one request the check
  runs at most once, however many dependencies need it.
- **Hit recorder** (a dependency): needs the key check's owner and appends
  `[owner, request method, request path]` to `HITS`. It therefore records only requests whose
  key check passed.

Routes:
- An `APIRouter` with prefix `/admin` whose every route is guarded by the key check and
  recorded by the hit recorder (declare them once, on the router):
  - `GET /admin/reports`: 200 `{"reports": ["q1", "q2"]}`
  - `GET /admin/whoami`: 200 `{"owner": <the owner of the key used>}`
- `POST /maintenance` (on the app, guarded and recorded the same way through the path
  operation decorator): 202 `{"scheduled": true}`.
- `GET /status` (not guarded, not recorded): 200 `{"key_checks": <STATS["key_checks"]>,
  "hits": <HITS>}`.

Then fill `result` with one row per request, in this order, each row
`[status code (integer), the JSON body]`:
1. `GET /admin/reports` with `X-API-Key: k-ada`
2. `GET /admin/reports` with `X-API-Key: nope`
3. `GET /admin/whoami` with `X-API-Key: k-bob`
4. `POST /maintenance` with `X-API-Key: k-ada`
5. `GET /status` with no `X-API-Key` header
''',
    reference=_REFERENCE,
    probes='''\
def probe_whoami_and_status(client):
    rows = []
    r = client.get("/admin/whoami", headers={"X-API-Key": "k-ada"})
    rows.append([r.status_code, r.json()])
    r = client.get("/status")
    rows.append([r.status_code, r.json()])
    return rows


def probe_rejections_are_not_recorded(client):
    rows = []
    r = client.post("/maintenance", headers={"X-API-Key": "bad"})
    rows.append([r.status_code, r.json()])
    r = client.get("/admin/whoami")
    rows.append([r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    r = client.get("/admin/reports", headers={"X-API-Key": ""})
    rows.append([r.status_code, r.json()])
    r = client.get("/status")
    rows.append([r.status_code, r.json()])
    return rows
''',
    traps={
        "expects the decorator dependency's value as a parameter": _VALUE_FROM_DECORATOR,
        "use_cache=False on the key check": _NO_CACHE,
        "guard declared on one route instead of the router": _GUARD_ONE_ROUTE,
    },
    expected_rows=[
        [200, {"reports": ["q1", "q2"]}],
        [403, {"detail": "invalid key"}],
        [200, {"owner": "bob"}],
        [202, {"scheduled": True}],
        [200, {"key_checks": 4, "hits": [
            ["ada", "GET", "/admin/reports"],
            ["bob", "GET", "/admin/whoami"],
            ["ada", "POST", "/maintenance"],
        ]}],
    ],
)
