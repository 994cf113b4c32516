"""Repair tier: an admin API that mints, lists and revokes API keys with scopes, a package of
five modules in /workspace with nine planted bugs (the required key scheme declared with
auto_error=False and a hand-made 403, the optional scheme of the public route left with
auto_error on so anonymous callers get 401, keys compared case-insensitively, a revoked key
still accepted, the audit router included without its scope dependency, a grant check that
passes on any overlap, scopes typed as free strings, the single-key route without its response
model so the secret leaks, a list route declared as "/" under a prefix so it redirects). Each
bug is one requirement's trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Family, Requirement, with_edits
from fastapi_env.tasks.probe_rows import ROWS_422_LOC
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor

INIT = '''\
"""API keys with scopes: minted, listed and revoked by holders of the right scopes."""
'''

MODELS = '''\
from typing import Literal

from pydantic import BaseModel, Field, field_validator

Scope = Literal["audit:read", "keys:read", "keys:write"]


class KeyIn(BaseModel):
    name: str = Field(min_length=1, max_length=${name_max})
    scopes: list[Scope] = Field(min_length=1)

    @field_validator("scopes")
    @classmethod
    def tidy(cls, scopes: list[str]) -> list[str]:
        return sorted(set(scopes))


class KeyOut(BaseModel):
    id: int
    name: str
    scopes: list[str]
    revoked: bool


class KeyCreated(KeyOut):
    key: str  # the secret: shown once, when the key is minted


class Whoami(BaseModel):
    id: int
    name: str
    scopes: list[str]
'''

STORE = '''\
import secrets

SCOPES = ["audit:read", "keys:read", "keys:write"]
KEYS: dict[int, dict] = {}
AUDIT: list[str] = []


def add(name: str, scopes: list[str], secret: str | None = None) -> dict:
    key_id = max(KEYS, default=0) + 1  # keys are never deleted, only revoked
    KEYS[key_id] = {"id": key_id, "name": name, "scopes": scopes, "revoked": False,
                    "secret": secret or f"${new_prefix}{key_id:04d}"}
    return KEYS[key_id]


def find(secret: str) -> dict | None:
    for key in KEYS.values():
        if secrets.compare_digest(key["secret"].encode(), secret.encode()):
            return key
    return None


add("${root_name}", list(SCOPES), "${root_secret}")
add("${ops_name}", ${ops_scopes__repr}, "${ops_secret}")
add("${meter_name}", ["audit:read"], "${meter_secret}")
'''

AUTH = '''\
from typing import Annotated

from fastapi import Depends, HTTPException, Security
from fastapi.security import APIKeyHeader

from . import store

CHALLENGE = {"WWW-Authenticate": "APIKey"}


def lookup(secret: str) -> dict:
    key = store.find(secret)
    if key is None:
        raise HTTPException(401, "invalid key", headers=CHALLENGE)
    if key["revoked"]:
        raise HTTPException(401, "key revoked", headers=CHALLENGE)
    return key


api_key = APIKeyHeader(name="${header}")


def caller(secret: Annotated[str, Security(api_key)]) -> dict:
    return lookup(secret)


optional_key = APIKeyHeader(name="${header}", auto_error=False)


def maybe_caller(secret: Annotated[str | None, Security(optional_key)]) -> dict | None:
    return None if secret is None else lookup(secret)


Caller = Annotated[dict, Depends(caller)]


def need(scope: str):
    """A route dependency: the caller's key must hold `scope`."""

    def check(key: Caller) -> None:
        if scope not in key["scopes"]:
            raise HTTPException(403, f"missing scope {scope}")

    return Depends(check)
'''

ROUTES = '''\
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException

from . import store
from .auth import Caller, maybe_caller, need
from .models import KeyCreated, KeyIn, KeyOut, Whoami

public = APIRouter()
keys = APIRouter(prefix="/keys")
audit = APIRouter()


@public.get("/status")
def service_status(key: Annotated[dict | None, Depends(maybe_caller)]):
    return {"status": "ok", "key": key["name"] if key else None}


@public.get("/whoami", response_model=Whoami)
def whoami(key: Caller):
    return key


def load(key_id: int) -> dict:
    if key_id not in store.KEYS:
        raise HTTPException(404, "no such key")
    return store.KEYS[key_id]


@keys.get("", response_model=list[KeyOut], dependencies=[need("keys:read")])
def list_keys():
    return [store.KEYS[key_id] for key_id in sorted(store.KEYS)]


@keys.get("/{key_id}", response_model=KeyOut, dependencies=[need("keys:read")])
def read_key(key_id: int):
    return load(key_id)


@keys.post("", status_code=201, response_model=KeyCreated, dependencies=[need("keys:write")])
def create_key(body: KeyIn, me: Caller):
    refused = sorted(set(body.scopes) - set(me["scopes"]))
    if refused:
        raise HTTPException(403, f"cannot grant {refused[0]}")
    key = store.add(body.name, body.scopes)
    store.AUDIT.append(f"create {key['id']} by {me['id']}")
    return key | {"key": key["secret"]}


@keys.delete("/{key_id}", response_model=KeyOut, dependencies=[need("keys:write")])
def revoke_key(key_id: int, me: Caller):
    key = load(key_id)
    if key["revoked"]:
        raise HTTPException(409, "already revoked")
    key["revoked"] = True
    store.AUDIT.append(f"revoke {key_id} by {me['id']}")
    return key


@audit.get("/audit")
def audit_log() -> list[str]:
    return store.AUDIT
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from keyadmin.auth import need
from keyadmin.routes import audit, keys, public

app = FastAPI()
app.include_router(public)
app.include_router(keys, prefix="/admin")
app.include_router(audit, prefix="/admin", dependencies=[need("audit:read")])''' + RESULT_CLIENT + '''\
root = {"${header}": "${root_secret}"}
who = client.get("/whoami", headers={"${header}": "${ops_secret}"})
minted = client.post("/admin/keys", headers=root,
                     json={"name": "${new_name}", "scopes": ${new_scopes__json}})
listed = client.get("/admin/keys", headers=root)
result = [
    [who.status_code, body(who)],
    [minted.status_code, body(minted)],
    [listed.status_code, body(listed)],
]
'''

_in = editor("keyadmin")

_REQUIRED_403 = _in("auth", "missing key answered 403 by hand (auto_error=False)", '''\
api_key = APIKeyHeader(name="${header}")


def caller(secret: Annotated[str, Security(api_key)]) -> dict:
    return lookup(secret)''', '''\
api_key = APIKeyHeader(name="${header}", auto_error=False)


def caller(secret: Annotated[str | None, Security(api_key)]) -> dict:
    if secret is None:
        raise HTTPException(403, "Not authenticated")
    return lookup(secret)''')
_OPTIONAL_401 = _in("auth", "public route's scheme keeps auto_error",
                    'optional_key = APIKeyHeader(name="${header}", auto_error=False)',
                    'optional_key = APIKeyHeader(name="${header}")')
_CASELESS = _in("store", "keys compared ignoring case",
                'if secrets.compare_digest(key["secret"].encode(), secret.encode()):',
                'if key["secret"].lower() == secret.lower():')
_REVOKED_OK = _in("auth", "revoked key accepted", '''\
    if key["revoked"]:
        raise HTTPException(401, "key revoked", headers=CHALLENGE)
''', "")
_AUDIT_OPEN = _in("solution", "audit router included without its dependency",
                  'app.include_router(audit, prefix="/admin", dependencies=[need("audit:read")])',
                  'app.include_router(audit, prefix="/admin")')
_ANY_OVERLAP = _in("routes", "grant check passes on any shared scope",
                   'refused = sorted(set(body.scopes) - set(me["scopes"]))',
                   'refused = [] if set(body.scopes) & set(me["scopes"]) else body.scopes')
_FREE_SCOPES = _in("models", "scopes are free strings", "scopes: list[Scope] = Field(min_length=1)",
                   "scopes: list[str] = Field(min_length=1)")
_SECRET_LEAK = _in("routes", "single-key route without response model",
                   '@keys.get("/{key_id}", response_model=KeyOut, dependencies=[need("keys:read")])',
                   '@keys.get("/{key_id}", dependencies=[need("keys:read")])')
_SLASH = _in("routes", "list declared as / under the prefix",
             '@keys.get("", response_model=list[KeyOut]',
             '@keys.get("/", response_model=list[KeyOut]')

FILES = {"keyadmin/__init__.py": INIT, "keyadmin/models.py": MODELS,
         "keyadmin/store.py": STORE, "keyadmin/auth.py": AUTH, "keyadmin/routes.py": ROUTES}
PLANTED = (_REQUIRED_403, _OPTIONAL_401, _CASELESS, _REVOKED_OK, _AUDIT_OPEN, _ANY_OVERLAP,
           _FREE_SCOPES, _SECRET_LEAK, _SLASH)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = ROWS_422_LOC + '''\
H = "${header}"
ROOT = {H: "${root_secret}"}
OPS = {H: "${ops_secret}"}
METER = {H: "${meter_secret}"}


def _auth_row(r):
    return [r.status_code, _body(r), r.headers.get("www-authenticate")]


def _mint(client, scopes, by=ROOT, name="probe"):
    return client.post("/admin/keys", headers=by, json={"name": name, "scopes": scopes})


def probe_missing_key_is_401(client):
    rows = []
    for headers in [{}, {H: ""}]:
        rows.append(_auth_row(client.get("/whoami", headers=headers)))
        rows.append(_auth_row(client.get("/admin/keys/1", headers=headers)))
        rows.append(_auth_row(client.post("/admin/keys", headers=headers, json={})))
        rows.append(_auth_row(client.delete("/admin/keys/999", headers=headers)))
    rows.append(_auth_row(client.get("/whoami", headers={H.lower(): "${meter_secret}"})))
    return rows


def probe_status_is_public(client):
    return [_row(client.get("/status")), _row(client.get("/status", headers={H: ""})),
            _row(client.get("/status", headers=METER)),
            _row(client.get("/status", headers={H: "nope"}))]


def probe_keys_compared_exactly(client):
    fresh = _mint(client, ["keys:read"]).json()["key"]
    rows = []
    for secret in ["${root_secret}".swapcase(), "${root_secret}".upper(),
                   "${root_secret}".lower(), "${root_secret}"[:-1], "${root_secret}x",
                   fresh.swapcase(), fresh.lower(), "${ops_name}"]:
        if secret in ("${root_secret}", fresh):
            continue
        rows.append(_auth_row(client.get("/whoami", headers={H: secret})))
    rows.append(_row(client.get("/whoami", headers={H: fresh})))
    return rows


def probe_revoked_key_refused(client):
    minted = _mint(client, ["keys:read"]).json()
    mine = {H: minted["key"]}
    rows = [[client.get("/whoami", headers=mine).status_code],
            _row(client.delete(f"/admin/keys/{minted['id']}", headers=ROOT))]
    for path in ["/whoami", "/status", "/admin/keys/1", f"/admin/keys/{minted['id']}"]:
        rows.append([path, _auth_row(client.get(path, headers=mine))])
    return rows


def probe_audit_needs_its_scope(client):
    rows = [_row(client.get("/admin/audit", headers={H: "nope"}))]
    minted = _mint(client, ["audit:read"]).json()
    for headers in [OPS, METER, ROOT]:
        r = client.get("/admin/audit", headers=headers)
        rows.append([r.status_code, r.json()[-1:] if r.status_code == 200 else r.json()])
    rows.append([minted["id"] > 3])
    return rows


def probe_grant_only_held_scopes(client):
    writer = _mint(client, ["keys:write", "keys:read"]).json()
    as_writer = {H: writer["key"]}
    rows = []
    for scopes in [["audit:read", "keys:read"], ["keys:read"], ["keys:write", "keys:read"],
                   ["keys:write", "audit:read", "keys:write"], ["audit:read"]]:
        r = _mint(client, scopes, by=as_writer)
        rows.append([scopes, r.status_code, r.json().get("scopes", r.json().get("detail"))])
    r = _mint(client, ["keys:write", "audit:read", "keys:read"])
    rows.append([r.status_code, r.json().get("scopes")])
    return rows


def probe_scope_list_rules(client):
    rows = []
    for body in [{"name": "a", "scopes": []}, {"name": "a", "scopes": ["admin"]},
                 {"name": "a", "scopes": ["Keys:read"]}, {"name": "a", "scopes": ["keys:*"]},
                 {"name": "a", "scopes": ["keys:read", "keys:read"]},
                 {"name": "a", "scopes": ["keys:write", "audit:read"]},
                 {"name": "", "scopes": ["keys:read"]},
                 {"name": "n" * ${name_max}, "scopes": ["keys:read"]},
                 {"name": "n" * (${name_max} + 1), "scopes": ["keys:read"]},
                 {"name": "a"}, {"scopes": ["keys:read"]}]:
        r = client.post("/admin/keys", headers=ROOT, json=body)
        rows.append([_brief(r) if r.status_code != 201 else [201, r.json()["scopes"]]])
    return rows


def probe_secret_only_when_minted(client):
    minted = _mint(client, ["keys:read"])
    key_id = minted.json()["id"]
    rows = [[minted.status_code, sorted(minted.json()),
             minted.json()["key"] == f"${new_prefix}{key_id:04d}"]]
    for path in [f"/admin/keys/{key_id}", "/admin/keys/1", "/admin/keys/2"]:
        r = client.get(path, headers=ROOT)
        rows.append([r.status_code, sorted(r.json())])
    listed = client.get("/admin/keys", headers=ROOT).json()
    rows.append(sorted({",".join(sorted(item)) for item in listed}))
    rows.append(sorted(client.delete(f"/admin/keys/{key_id}", headers=ROOT).json()))
    return rows


def probe_list_answers_directly(client):
    r = client.get("/admin/keys", headers=ROOT, follow_redirects=False)
    rows = [[r.status_code, r.headers.get("location")]]
    if r.status_code == 200:
        ids = [item["id"] for item in r.json()]
        rows.append([ids[:3], ids == sorted(ids)])
    r = client.get("/admin/keys", headers=METER, follow_redirects=False)
    rows.append([r.status_code, r.headers.get("location")])
    return rows


def probe_scope_per_route(client):
    valid = {"name": "x", "scopes": ["keys:read"]}
    calls = [
        (OPS, "get", "/admin/keys/2", None), (OPS, "post", "/admin/keys", valid),
        (OPS, "post", "/admin/keys", {}), (OPS, "delete", "/admin/keys/3", None),
        (OPS, "delete", "/admin/keys/999", None), (METER, "get", "/admin/keys/1", None),
        (METER, "get", "/admin/keys/999", None), (METER, "delete", "/admin/keys/2", None),
        (ROOT, "get", "/admin/keys/999", None), (ROOT, "delete", "/admin/keys/999", None),
        (ROOT, "get", "/admin/keys/abc", None), (ROOT, "post", "/admin/keys", {}),
    ]
    rows = []
    for headers, method, path, body in calls:
        extra = {} if body is None else {"json": body}
        r = client.request(method, path, headers=headers, **extra)
        rows.append([method, path, _brief(r) if r.status_code != 200 else [200, r.json()["id"]]])
    rows.append(_row(client.get("/whoami", headers=METER)))
    rows.append([client.get("/admin/keys/3", headers=ROOT).json()["revoked"]])
    return rows


def probe_revoke_once(client):
    key_id = _mint(client, ["audit:read"]).json()["id"]
    first = client.delete(f"/admin/keys/{key_id}", headers=ROOT)
    rows = [[first.status_code, first.json()["revoked"], first.json()["id"] == key_id],
            _row(client.delete(f"/admin/keys/{key_id}", headers=ROOT)),
            [client.get(f"/admin/keys/{key_id}", headers=ROOT).json()["revoked"]]]
    log = client.get("/admin/audit", headers=ROOT).json()
    rows.append([log.count(f"revoke {key_id} by 1"), log[-1] == f"revoke {key_id} by 1"])
    return rows
'''

_SETS = {
    "keys": [
        {"header": "X-API-Key", "name_max": 24, "root_name": "root", "root_secret": "Rk-9fQzA",
         "ops_name": "ops-console", "ops_secret": "oPs-41Tx", "meter_name": "billing-meter",
         "meter_secret": "mEter-77b", "new_prefix": "sk_Live_"},
        {"header": "X-Admin-Token", "name_max": 40, "root_name": "bootstrap",
         "root_secret": "BootStrap-K1", "ops_name": "support", "ops_secret": "Supp0rt-Q",
         "meter_name": "auditor", "meter_secret": "AudIt-303", "new_prefix": "KEY-ab"},
        {"header": "Api-Key", "name_max": 16, "root_name": "owner", "root_secret": "0wnerKey-Z",
         "ops_name": "helpdesk", "ops_secret": "HelpDesk-9", "meter_name": "compliance",
         "meter_secret": "cOmpl-5", "new_prefix": "Ak-"},
    ],
    "ops_scopes": [["keys:read"], ["audit:read", "keys:read"]],
    "new": [{"new_name": "ci-runner", "new_scopes": ["keys:read", "audit:read", "keys:read"]},
            {"new_name": "deploy bot", "new_scopes": ["keys:write"]}],
}

FAMILY = Family(
    id="repair/api_key_admin",
    title="Repair an API-key admin service with scopes that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds an API-key administration service: `solution.py` and the package
`keyadmin/` it imports (`models.py`, `store.py`, `auth.py`, `routes.py`). It should behave as
described below but does not, in several ways. Find and fix every deviation (edit or rewrite
any file); `solution.py` must keep defining `app` and `result`. State lives in memory and
carries from one request to the next.

**Keys.** A caller authenticates with the header `${header}: <secret>`. A secret matches a key
only when it is identical character for character (a secret differing only in letter case is
an unknown key). At start there are three keys: 1 `${root_name}` (secret `${root_secret}`,
scopes `["audit:read", "keys:read", "keys:write"]`), 2 `${ops_name}` (secret `${ops_secret}`,
scopes `${ops_scopes__json}`), 3 `${meter_name}` (secret `${meter_secret}`, scopes
`["audit:read"]`). A minted key gets the next id (4, 5, ...) and the secret
`${new_prefix}` followed by its id as four digits (`${new_prefix}0004`). Keys are never
deleted, only revoked. A key is shown as `{"id", "name", "scopes", "revoked"}`; its secret
appears in no response except the one that mints it.

**Errors** are `{"detail": <message>}`. On every route that needs a key: no header or an
empty one is FastAPI's standard 401 `Not authenticated` with `WWW-Authenticate: APIKey`; an
unknown secret is 401 `invalid key`, a revoked key's 401 `key revoked`, both also with
`WWW-Authenticate: APIKey`. A key lacking the scope a route needs is 403 `missing scope
<scope>`. Then come request validation errors (FastAPI's standard 422), then 404 `no such key`
for an unknown id: a failure earlier in this list wins over a later one. Every route answers at
exactly the path listed, never with a redirect.

**Routes.**
- `GET /status`, no key needed: 200 `{"status": "ok", "key": <the caller's key name, or null
  without a key (no header or an empty one)>}`; a secret that is sent but unknown or revoked
  is 401 as above.
- `GET /whoami` (any valid key): 200 `{"id", "name", "scopes"}` of the caller's key.
- `GET /admin/keys` (scope `keys:read`): 200, every key by id.
- `GET /admin/keys/{id}` (scope `keys:read`): 200, the key.
- `POST /admin/keys` (scope `keys:write`) with `{"name": 1 to ${name_max} characters, "scopes":
  non-empty list of `audit:read`, `keys:read`, `keys:write`}`: the scopes are stored without
  repeats in alphabetical order. A caller may only grant scopes its own key holds: otherwise
  403 `cannot grant <scope>`, naming the alphabetically first one it lacks. 201 with the key
  and `"key": <secret>`; the audit log gets `create <id> by <caller's id>`.
- `DELETE /admin/keys/{id}` (scope `keys:write`): revokes it, 200 with the key
  (`revoked` true); 409 `already revoked` the second time; the audit log gets `revoke <id>
  by <caller's id>`.
- `GET /admin/audit` (scope `audit:read`): 200, the audit log, a list of strings, oldest
  first.

`result` has three rows, each `[status, body]`:
1. `GET /whoami` with `${ops_name}`'s key
2. `POST /admin/keys` with `${root_name}`'s key and `{"name": "${new_name}", "scopes":
   ${new_scopes__json}}`
3. `GET /admin/keys` with `${root_name}`'s key
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["keys"][0], "ops_scopes": ["keys:read"], **_SETS["new"][0]},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement("A missing or empty key header is FastAPI's standard 401 `Not "
                    "authenticated` with `WWW-Authenticate: APIKey`.",
                    probes=("missing_key_is_401",), traps=(_REQUIRED_403,)),
        Requirement("`GET /status` serves callers without a key (`key` null) and names a "
                    "valid caller's key.",
                    probes=("status_is_public",), traps=(_OPTIONAL_401,)),
        Requirement("A secret matches only when identical, case included; an unknown one is "
                    "401 `invalid key` with `WWW-Authenticate: APIKey`.",
                    probes=("keys_compared_exactly",),
                    traps=(_CASELESS,
                           _in("auth", "unknown key without challenge",
                               'raise HTTPException(401, "invalid key", headers=CHALLENGE)',
                               'raise HTTPException(401, "invalid key")'))),
        Requirement("A revoked key is refused everywhere with 401 `key revoked`.",
                    probes=("revoked_key_refused",), traps=(_REVOKED_OK,)),
        Requirement("`GET /admin/audit` needs a key with scope `audit:read`.",
                    probes=("audit_needs_its_scope",), traps=(_AUDIT_OPEN,)),
        Requirement("A caller only grants scopes its key holds (403 `cannot grant <scope>`, "
                    "the alphabetically first one lacking).",
                    probes=("grant_only_held_scopes",), traps=(_ANY_OVERLAP,)),
        Requirement("Minted scopes are known ones, at least one, stored without repeats in "
                    "alphabetical order; the name is 1 to ${name_max} characters.",
                    probes=("scope_list_rules",),
                    traps=(_FREE_SCOPES,
                           _in("models", "scopes kept as sent",
                               "        return sorted(set(scopes))", "        return scopes"))),
        Requirement("The secret is shown only when the key is minted.",
                    probes=("secret_only_when_minted",), traps=(_SECRET_LEAK,)),
        Requirement("`GET /admin/keys` answers at that exact path, without a redirect.",
                    probes=("list_answers_directly",), traps=(_SLASH,)),
        Requirement("Each admin route needs its scope (403 `missing scope <scope>`), checked "
                    "before validation and before an unknown id.",
                    probes=("scope_per_route",),
                    traps=(_in("routes", "revoking needs only keys:read",
                               '@keys.delete("/{key_id}", response_model=KeyOut, '
                               'dependencies=[need("keys:write")])',
                               '@keys.delete("/{key_id}", response_model=KeyOut, '
                               'dependencies=[need("keys:read")])'),)),
        Requirement("A key is revoked once (409 `already revoked` the second time), and the "
                    "revocation is in the audit log.",
                    probes=("revoke_once",),
                    traps=(_in("routes", "revoking twice allowed", '''\
    if key["revoked"]:
        raise HTTPException(409, "already revoked")
''', ""),)),
    ),
)
