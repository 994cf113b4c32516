from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Request
from fastapi.testclient import TestClient

KEYS = {"${key1}": "${owner1}", "${key2}": "${owner2}"}
STATS = {"key_checks": 0}
HITS: list = []


def verify_key(${hparam}: Annotated[str, Header()]) -> str:
    STATS["key_checks"] += 1
    if ${hparam} not in KEYS:
        raise HTTPException(status_code=${deny}, detail="invalid key")
    return KEYS[${hparam}]
'''

_RECORD = '''

def record_hit(request: Request, owner: Annotated[str, Depends(verify_key)]) -> None:
    HITS.append([owner, request.method, request.url.path])
'''

_ROUTER = '''

router = APIRouter(prefix="${prefix}", dependencies=[Depends(record_hit)])


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


@app.post("/maintenance", status_code=${accepted}, dependencies=[Depends(record_hit)])
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
    ("GET", "${prefix}/reports", "${key1}"),
    ("GET", "${prefix}/reports", "nope"),
    ("GET", "${prefix}/whoami", "${key2}"),
    ("POST", "/maintenance", "${key1}"),
    ("GET", "/status", None),
]:
    headers = {"${header}": key} if key else {}
    r = client.request(method, path, headers=headers)
    result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _RECORD + _ROUTER + _APP + _RESULT

_GUARD_ONE_ROUTE_ROUTER = '''

router = APIRouter(prefix="${prefix}")


@router.get("/reports", dependencies=[Depends(record_hit)])
def reports():
    return {"reports": ["q1", "q2"]}


@router.get("/whoami")
def whoami(owner: Annotated[str, Depends(verify_key)]):
    return {"owner": owner}
'''

FAMILY = Family(
    id="dependencies/decorator_dependencies",
    title="Guard and audit dependencies declared on the router and the decorator",
    category="dependencies",
    difficulty="medium",
    prompt='''\
Build an admin API guarded by an API key. Module-level state, starting as:

    KEYS = {"${key1}": "${owner1}", "${key2}": "${owner2}"}   # API key -> owner
    STATS = {"key_checks": 0}
    HITS = []

- **Key check** (a dependency): reads the required request header `${header}` (missing header:
  FastAPI's standard 422 validation error, and the check does not run). Each time the check
  runs it adds 1 to `STATS["key_checks"]`; an unknown key then fails with ${deny}
  `{"detail": "invalid key"}`; a known key gives its owner's name. Within one request the check
  runs at most once, however many dependencies need it.
- **Hit recorder** (a dependency): needs the key check's owner and appends
  `[owner, request method, request path]` to `HITS`. It therefore records only requests whose
  key check passed.

Routes:
- An `APIRouter` with prefix `${prefix}` whose every route is guarded by the key check and
  recorded by the hit recorder (declare them once, on the router):
  - `GET ${prefix}/reports`: 200 `{"reports": ["q1", "q2"]}`
  - `GET ${prefix}/whoami`: 200 `{"owner": <the owner of the key used>}`
- `POST /maintenance` (on the app, guarded and recorded the same way through the path
  operation decorator): ${accepted} `{"scheduled": true}`.
- `GET /status` (not guarded, not recorded): 200 `{"key_checks": <STATS["key_checks"]>,
  "hits": <HITS>}`.

Then fill `result` with one row per request, in this order, each row
`[status code (integer), the JSON body]`:
1. `GET ${prefix}/reports` with `${header}: ${key1}`
2. `GET ${prefix}/reports` with `${header}: nope`
3. `GET ${prefix}/whoami` with `${header}: ${key2}`
4. `POST /maintenance` with `${header}: ${key1}`
5. `GET /status` with no `${header}` header
''',
    reference=_REFERENCE,
    probes='''\
def probe_whoami_and_status(client):
    rows = []
    r = client.get("${prefix}/whoami", headers={"${header}": "${key1}"})
    rows.append([r.status_code, r.json()])
    r = client.post("/maintenance", headers={"${header}": "${key2}"})
    rows.append([r.status_code, r.json()])
    r = client.get("/status")
    rows.append([r.status_code, r.json()])
    return rows


def probe_rejections_are_not_recorded(client):
    rows = []
    r = client.post("/maintenance", headers={"${header}": "bad"})
    rows.append([r.status_code, r.json()])
    r = client.get("${prefix}/whoami")
    rows.append([r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]])
    r = client.get("${prefix}/reports", headers={"${header}": ""})
    rows.append([r.status_code, r.json()])
    r = client.get("/status")
    rows.append([r.status_code, r.json()])
    return rows


def probe_forged_keys(client):
    rows = []
    for key in ["${key1_upper}", "${owner1}", "${key2}x"]:
        r = client.get("${prefix}/whoami", headers={"${header}": key})
        rows.append([r.status_code, r.json()])
    r = client.get("/status")
    rows.append([r.status_code, r.json()["key_checks"], len(r.json()["hits"])])
    return rows
''',
    original={"header": "X-API-Key", "key1": "k-ada", "owner1": "ada", "key2": "k-bob",
              "owner2": "bob", "prefix": "/admin", "deny": 403, "accepted": 202},
    space={
        "header": ["X-API-Key", "X-Token", "X-Admin-Key"],
        "key1": [{"key1": "k-ada", "owner1": "ada", "key2": "k-bob", "owner2": "bob"},
                 {"key1": "t-lin", "owner1": "lin", "key2": "t-max", "owner2": "max"},
                 {"key1": "s3cr3t", "owner1": "root", "key2": "pa55", "owner2": "ops"}],
        "prefix": ["/admin", "/ops", "/staff"],
        "deny": [403, 401],
        "accepted": [202, 201],
    },
    derive=lambda p: {"hparam": p["header"].lower().replace("-", "_"),
                      "other_deny": 401 if p["deny"] == 403 else 403,
                      "key1_upper": p["key1"].upper()},
    instances=60,
    requirements=(
        Requirement(
            "A missing `${header}` header is FastAPI's 422 and the key check does not run.",
            probes=("rejections_are_not_recorded",),
            traps=(Edit("optional header (missing treated as an unknown key)",
                        "${hparam}: Annotated[str, Header()]",
                        "${hparam}: Annotated[str | None, Header()] = None"),),
        ),
        Requirement(
            "Only an exact known key passes (another case, an owner's name or a suffix do not): "
            'anything else, the empty value included, is ${deny} `{"detail": "invalid key"}` and '
            "is not recorded.",
            probes=("forged_keys", "rejections_are_not_recorded"),
            traps=(
                Edit("keys compared case-insensitively",
                     "    if ${hparam} not in KEYS:\n        raise HTTPException(status_code=${deny}, "
                     'detail="invalid key")\n    return KEYS[${hparam}]',
                     "    if ${hparam}.lower() not in KEYS:\n        raise HTTPException(status_code=${deny}, "
                     'detail="invalid key")\n    return KEYS[${hparam}.lower()]'),
                Edit("wrong rejection status", "status_code=${deny}", "status_code=${other_deny}"),
            ),
        ),
        Requirement(
            "The key check runs at most once per request (`key_checks` counts requests that "
            "reached it).",
            probes=("whoami_and_status", "forged_keys"),
            traps=(Edit("use_cache=False on the key check", "Depends(verify_key)",
                        "Depends(verify_key, use_cache=False)", count=2),),
        ),
        Requirement(
            "Every `${prefix}` route is guarded and recorded (declared on the router), and "
            "`POST /maintenance` too, answering ${accepted}.",
            probes=("whoami_and_status",),
            traps=(
                Edit("guard declared on one route instead of the router", _ROUTER,
                     _GUARD_ONE_ROUTE_ROUTER),
                Edit("maintenance answers 200", "status_code=${accepted}, ", ""),
            ),
        ),
        Requirement(
            "`GET ${prefix}/whoami` answers the owner of the key used.",
            probes=("whoami_and_status",),
            traps=(Edit("expects the decorator dependency's value as a parameter",
                        "def whoami(owner: Annotated[str, Depends(verify_key)]):",
                        "def whoami(owner: str | None = None):"),),
        ),
        Requirement(
            "`GET /status` is neither guarded nor recorded.",
            probes=("rejections_are_not_recorded",),
            traps=(Edit("status guarded too", '@app.get("/status")',
                        '@app.get("/status", dependencies=[Depends(verify_key)])'),),
        ),
    ),
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
