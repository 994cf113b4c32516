"""Repair tier: a feature-flag service, a package of seven modules in /workspace with eleven
planted bugs (the role dependency given as its class, so FastAPI builds an instance and never
calls it, leaving reads unauthenticated; a key pattern checked before the lower-casing; an error
helper whose headers argument the handler leaves out, losing WWW-Authenticate and Allow; a list
route without its return type, so UTC times end in +00:00 instead of Z; a naive datetime
accepted; Unix seconds (a number or a string of digits) accepted as an expiry; a 204 sent as a JSONResponse, whose body is `null`; a PATCH dumped with exclude_none,
so a null no longer clears; `enabled` typed as a lax bool, so "yes" and 1 pass; `from __future__
import annotations` over a router factory defining its body model, which turns the body into a
required query parameter; a rollout compared with <=). Each bug is one requirement's trap; the
setup is the reference with all of them."""

from fastapi_env.tasks import Requirement
from fastapi_env.tasks import body_after_credentials as late_body
from fastapi_env.tasks.probe_rows import ROWS_422_LOC_AND_HEAD
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor, repair_family

INIT = '''\
"""Feature flags: per-key switches with a percentage rollout, read by services, set by admins."""
'''

# The expiry guard: in the reference, and what _UNIX_EXPIRY removes from it.
EXPIRY_GUARD = '''\
def written_out(value: object) -> object:
    # AwareDatetime reads a number, or a string of digits, as Unix seconds
    if not isinstance(value, str) or value.strip().lstrip("+-").replace(".", "", 1).isdigit():
        raise ValueError("a date-time with a UTC offset")
    return value


Expiry = Annotated[AwareDatetime, BeforeValidator(written_out), AfterValidator(in_utc)]
'''

MODELS = '''\
from datetime import datetime, timezone
from typing import Annotated

from pydantic import (AfterValidator, AwareDatetime, BaseModel, BeforeValidator, Field,
                      StrictBool, StringConstraints)


def in_utc(moment: datetime) -> datetime:
    return moment.astimezone(timezone.utc)


FlagKey = Annotated[str, StringConstraints(strip_whitespace=True, to_lower=True,
                                           pattern=r"^[A-Za-z][A-Za-z0-9_]{2,30}$$")]
Rollout = Annotated[int, Field(ge=0, le=100)]


''' + EXPIRY_GUARD + '''

class FlagIn(BaseModel):
    key: FlagKey
    description: str | None = Field(None, max_length=80)
    enabled: StrictBool = False
    rollout: Rollout = 100
    expires_at: Expiry | None = None


class FlagPatch(BaseModel):
    description: str | None = Field(None, max_length=80)
    # None defaults are not validated, so a key sent as null is still refused
    enabled: StrictBool = None
    rollout: Rollout = None
    expires_at: Expiry | None = None


class Flag(BaseModel):
    key: str
    description: str | None
    enabled: bool
    rollout: int
    expires_at: AwareDatetime | None


class Evaluation(BaseModel):
    key: str
    user: str
    bucket: int
    enabled: bool
'''

STORE = '''\
TOKENS = {  # bearer token -> user
    "${tok_admin}": {"name": "${admin}", "role": "admin"},
    "${tok_viewer}": {"name": "${viewer}", "role": "viewer"},
}
RANK = {"viewer": 1, "admin": 2}
FLAGS: dict[str, dict] = {}  # key -> flag
'''

REPLIES = '''\
from fastapi.responses import JSONResponse, Response


def error(status: int, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def no_content() -> Response:
    return Response(status_code=204)
'''

ERRORS = '''\
from fastapi import FastAPI, Request
from starlette.exceptions import HTTPException

from . import replies


def http_error(request: Request, exc: HTTPException):
    return replies.error(exc.status_code, exc.detail, exc.headers)


def install(app: FastAPI) -> None:
    app.add_exception_handler(HTTPException, http_error)
'''

AUTH = '''\
from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from . import store

bearer = HTTPBearer()


class RequireRole:
    """A dependency: the caller, who must hold `role` or a higher one."""

    def __init__(self, role: str = "viewer"):
        self.role = role

    def __call__(self, credentials: Annotated[HTTPAuthorizationCredentials,
                                              Depends(bearer)]) -> dict:
        user = store.TOKENS.get(credentials.credentials)
        if user is None:
            raise HTTPException(401, "invalid token", headers={"WWW-Authenticate": "Bearer"})
        if store.RANK[user["role"]] < store.RANK[self.role]:
            raise HTTPException(403, "admins only")
        return user


Reader = Annotated[dict, Depends(RequireRole())]
Admin = Annotated[dict, Depends(RequireRole("admin"))]
'''

ROUTES = '''\
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response
''' + late_body.IMPORT + '''
from . import replies, store
from .auth import Admin, Reader
from .models import Flag, FlagIn, FlagPatch


''' + late_body.ROUTE_CLASSES + '''

router = APIRouter(route_class=CallerFirstRoute)


def find(key: str) -> dict:
    flag = store.FLAGS.get(key.strip().lower())
    if flag is None:
        raise HTTPException(404, "flag not found")
    return flag


@router.post("/flags", status_code=201, response_model=Flag)
def create_flag(body: FlagIn, _: Admin):
    if body.key in store.FLAGS:
        raise HTTPException(409, "flag exists")
    store.FLAGS[body.key] = body.model_dump()
    return store.FLAGS[body.key]


@router.get("/flags")
def list_flags(_: Reader) -> list[Flag]:
    return [store.FLAGS[key] for key in sorted(store.FLAGS)]


@router.get("/flags/{key}", response_model=Flag)
def read_flag(key: str, _: Reader):
    return find(key)


@router.patch("/flags/{key}", response_model=Flag)
def change_flag(key: str, patch: FlagPatch, _: Admin):
    flag = find(key)
    flag.update(patch.model_dump(exclude_unset=True))
    return flag


@router.delete("/flags/{key}", status_code=204)
def delete_flag(key: str, _: Admin) -> Response:
    del store.FLAGS[find(key)["key"]]
    return replies.no_content()
'''

EVALUATE = '''\
"""Whether a flag is on for a user: a stable bucket per user, compared with the rollout."""
import zlib

from fastapi import APIRouter
from pydantic import BaseModel, Field

from .auth import Reader
from .models import Evaluation
from .routes import CallerFirstRoute, find


def bucket(key: str, user: str) -> int:
    return zlib.crc32(f"{key}:{user}".encode()) % 100


def evaluation_router(max_user_length: int) -> APIRouter:
    class Subject(BaseModel):
        user: str = Field(min_length=1, max_length=max_user_length)

    router = APIRouter(route_class=CallerFirstRoute)

    @router.post("/flags/{key}/evaluate")
    def evaluate(key: str, subject: Subject, _: Reader) -> Evaluation:
        flag = find(key)
        slot = bucket(flag["key"], subject.user)
        return {"key": flag["key"], "user": subject.user, "bucket": slot,
                "enabled": flag["enabled"] and slot < flag["rollout"]}

    return router
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from flags import routes
from flags.errors import install
from flags.evaluate import evaluation_router

MAX_USER_LENGTH = ${max_user}

app = FastAPI()
install(app)
app.include_router(routes.router)
app.include_router(evaluation_router(MAX_USER_LENGTH))''' + RESULT_CLIENT + '''\
admin = {"Authorization": "Bearer ${tok_admin}"}
created = client.post("/flags", headers=admin,
                      json={"key": "${key1}", "description": "${desc1}", "enabled": True,
                            "rollout": ${rollout1}, "expires_at": "${expiry1}"})
listed = client.get("/flags", headers=admin)
evaluated = client.post("/flags/${key1}/evaluate", headers=admin, json={"user": "${user1}"})
result = [
    [created.status_code, body(created)],
    [listed.status_code, body(listed)],
    [evaluated.status_code, body(evaluated)],
]
'''

_in = editor("flags")

_ROLE_CLASS = _in("auth", "reader dependency given as its class",
                  "Reader = Annotated[dict, Depends(RequireRole())]",
                  "Reader = Annotated[dict, Depends(RequireRole)]")
_KEY_CASE = _in("models", "key pattern checked before lower-casing",
                'pattern=r"^[A-Za-z][A-Za-z0-9_]{2,30}$$"', 'pattern=r"^[a-z][a-z0-9_]{2,30}$$"')
_HEADERS_DROPPED = _in("errors", "handler leaves out the exception's headers",
                       "replies.error(exc.status_code, exc.detail, exc.headers)",
                       "replies.error(exc.status_code, exc.detail)")
_LIST_UNTYPED = _in("routes", "flag list without its return type",
                    "def list_flags(_: Reader) -> list[Flag]:", "def list_flags(_: Reader):")
_UNIX_EXPIRY = _in("models", "Unix seconds accepted as an expiry", EXPIRY_GUARD,
                   "Expiry = Annotated[AwareDatetime, AfterValidator(in_utc)]\n")
# Planted with it, so the setup imports nothing it does not use.
_UNUSED_IMPORT_GONE = _in("models", "BeforeValidator no longer imported",
                          "BaseModel, BeforeValidator, Field,\n                      StrictBool,",
                          "BaseModel, Field, StrictBool,\n                     ")
_NAIVE_EXPIRY = _in("models", "naive expiry accepted",
                    "Expiry = Annotated[AwareDatetime,", "Expiry = Annotated[datetime,")
_NULL_BODY_204 = _in("replies", "204 sent as a JSONResponse",
                     "    return Response(status_code=204)",
                     "    return JSONResponse(None, status_code=204)")
_PATCH_EXCLUDE_NONE = _in("routes", "patch dumped with exclude_none",
                          "patch.model_dump(exclude_unset=True)",
                          "patch.model_dump(exclude_none=True)")
_LAX_ENABLED = _in("models", "enabled is a lax bool on create", "    enabled: StrictBool = False",
                   "    enabled: bool = False")
_FUTURE_ANNOTATIONS = _in("evaluate", "postponed annotations over the router factory",
                          "compared with the rollout.\"\"\"\nimport zlib\n",
                          "compared with the rollout.\"\"\"\nfrom __future__ import annotations"
                          "\n\nimport zlib\n")
_ROLLOUT_INCLUSIVE = _in("evaluate", "rollout compared with <=", 'slot < flag["rollout"]',
                         'slot <= flag["rollout"]')

FILES = {"flags/__init__.py": INIT, "flags/models.py": MODELS, "flags/store.py": STORE,
         "flags/replies.py": REPLIES, "flags/errors.py": ERRORS, "flags/auth.py": AUTH,
         "flags/routes.py": ROUTES, "flags/evaluate.py": EVALUATE}
PLANTED = (_ROLE_CLASS, _KEY_CASE, _HEADERS_DROPPED, _LIST_UNTYPED, _UNIX_EXPIRY,
           _UNUSED_IMPORT_GONE, _NAIVE_EXPIRY,
           _NULL_BODY_204, _PATCH_EXCLUDE_NONE, _LAX_ENABLED, _FUTURE_ANNOTATIONS,
           _ROLLOUT_INCLUSIVE)

PROBES = ROWS_422_LOC_AND_HEAD + '''\
import zlib

ADMIN = {"Authorization": "Bearer ${tok_admin}"}
VIEWER = {"Authorization": "Bearer ${tok_viewer}"}
MAX_USER = ${max_user}
ROLLOUT = ${rollout}


def _flag(client, key, **fields):
    return client.post("/flags", headers=ADMIN, json={"key": key, **fields})


def _user_in_bucket(key, wanted):
    """The first user name `u<n>` whose bucket for `key` is `wanted`."""
    n = 0
    while zlib.crc32(f"{key}:u{n}".encode()) % 100 != wanted:
        n += 1
    return f"u{n}"


def _evaluate(client, key, user):
    return client.post(f"/flags/{key}/evaluate", headers=VIEWER, json={"user": user})


def probe_reads_need_a_token(client):
    _flag(client, "read_probe")
    rows = []
    for headers in [{}, {"Authorization": "Bearer nope"}, VIEWER]:
        rows.append([client.get("/flags", headers=headers).status_code,
                     client.get("/flags/read_probe", headers=headers).status_code])
    rows.append(_row(client.get("/flags/read_probe?role=viewer")))
    return rows


def probe_writes_need_admin(client):
    _flag(client, "write_probe")
    rows = [_row(client.post("/flags", headers=VIEWER, json={"key": "viewer_made"})),
            _row(client.post("/flags", headers=VIEWER, json={"rollout": "x"})),
            _row(client.patch("/flags/write_probe", headers=VIEWER, json={"rollout": 5})),
            _row(client.delete("/flags/write_probe", headers=VIEWER)),
            _row(client.get("/flags/viewer_made", headers=ADMIN)),
            [client.get("/flags/write_probe", headers=VIEWER).json()["rollout"]]]
    return rows


def probe_keys_are_case_insensitive(client):
    rows = []
    for key in ["Beta_UI", "  Spaced_Key  ", "ab", "abc", "1abc", "has-dash",
                "k" + "x" * 30, "k" + "x" * 31, ""]:
        r = _flag(client, key)
        rows.append([key, r.json()["key"] if r.status_code == 201 else _brief(r)])
    for path in ["BETA_UI", "beta_ui", "Spaced_KEY"]:
        r = client.get(f"/flags/{path}", headers=VIEWER)
        shown = _body(r).get("key") if r.status_code == 200 else _body(r)
        rows.append([path, r.status_code, shown])
    return rows


def probe_error_headers_kept(client):
    rows = []
    for r in [client.post("/flags", json={"key": "no_token"}),
              client.delete("/flags/x", headers={"Authorization": "Bearer no"}),
              client.patch("/flags/x", headers={"Authorization": "Basic ${tok_admin}"}, json={}),
              client.post("/flags/x/evaluate", json={"user": "u"}),
              client.get("/flags/nothing/evaluate", headers=VIEWER)]:
        rows.append([r.status_code, _body(r), r.headers.get("www-authenticate"),
                     r.headers.get("allow")])
    return rows


def probe_expiry_shown_in_utc(client):
    made = _flag(client, "expiry_probe", expires_at="${expiry2}")
    listed = [f for f in client.get("/flags", headers=VIEWER).json()
              if f["key"] == "expiry_probe"]
    return [[made.status_code, made.json().get("expires_at")],
            [[f["expires_at"] for f in listed]],
            [client.get("/flags/expiry_probe", headers=VIEWER).json()["expires_at"]]]


def probe_expiry_needs_an_offset(client):
    rows = []
    for n, moment in enumerate(["${naive}", "${naive}Z", None, "tomorrow"]):
        r = _flag(client, f"offset_probe{n}", expires_at=moment)
        rows.append([moment, r.json()["expires_at"] if r.status_code == 201 else _brief(r)])
    r = client.patch("/flags/offset_probe2", headers=ADMIN, json={"expires_at": "${naive}"})
    rows.append(_brief(r))
    return rows


def probe_expiry_is_not_unix_seconds(client):
    rows = []
    for n, moment in enumerate([${unix}, "${unix}", " ${unix} ", "${expiry2}"]):
        r = _flag(client, f"unix_probe{n}", expires_at=moment)
        rows.append([moment, r.json()["expires_at"] if r.status_code == 201 else _brief(r)])
    r = client.patch("/flags/unix_probe3", headers=ADMIN, json={"expires_at": ${unix}.5})
    rows.append(_brief(r))
    return rows


def probe_delete_has_no_body(client):
    _flag(client, "delete_probe")
    r = client.delete("/flags/Delete_Probe", headers=ADMIN)
    rows = [[r.status_code, r.content.decode()]]
    rows.append(_row(client.get("/flags/delete_probe", headers=VIEWER)))
    rows.append(_row(client.delete("/flags/delete_probe", headers=ADMIN)))
    return rows


def probe_patch_changes_sent_keys(client):
    _flag(client, "patch_probe", description="first", enabled=True, rollout=30,
          expires_at="${expiry2}")
    rows = []
    for patch in [{}, {"rollout": 40}, {"description": None}, {"enabled": False},
                  {"expires_at": None}, {"description": "again"}, {"enabled": None},
                  {"rollout": None}]:
        r = client.patch("/flags/patch_probe", headers=ADMIN, json=patch)
        rows.append([patch, _brief(r)])
    return rows


def probe_enabled_is_a_boolean(client):
    rows = []
    for n, value in enumerate([True, False, "true", 1, 0, "yes", None]):
        r = _flag(client, f"bool_probe{n}", enabled=value)
        rows.append([value, r.json()["enabled"] if r.status_code == 201 else _brief(r)])
    return rows


def probe_evaluate_reads_the_body(client):
    _flag(client, "eval_probe", enabled=True)
    rows = []
    for user in ["ann", "", "a" * MAX_USER, "a" * (MAX_USER + 1)]:
        rows.append([len(user), _brief(_evaluate(client, "Eval_Probe", user))])
    rows.append(_brief(client.post("/flags/eval_probe/evaluate", headers=VIEWER, json={})))
    rows.append(_brief(_evaluate(client, "no_such_flag", "ann")))
    return rows


def probe_rollout_buckets(client):
    _flag(client, "roll_probe", enabled=True, rollout=ROLLOUT)
    _flag(client, "roll_none", enabled=True, rollout=0)
    _flag(client, "roll_all", enabled=True, rollout=100)
    _flag(client, "roll_off", enabled=False, rollout=100)
    rows = []
    for key, buckets in [("roll_probe", [ROLLOUT - 1, ROLLOUT, ROLLOUT + 1]),
                         ("roll_none", [0, 1]), ("roll_all", [0, 99]), ("roll_off", [0, 99])]:
        for wanted in buckets:
            r = _evaluate(client, key, _user_in_bucket(key, wanted)).json()
            rows.append([key, r.get("bucket"), r.get("enabled")])
    return rows


def probe_rollout_bounds(client):
    rows = []
    for n, rollout in enumerate([0, 100, 101, -1, 50.5]):
        r = _flag(client, f"bound_probe{n}", rollout=rollout)
        rows.append([rollout, r.json()["rollout"] if r.status_code == 201 else _brief(r)])
    rows.append(_brief(client.patch("/flags/bound_probe0", headers=ADMIN, json={"rollout": 101})))
    return rows


def probe_keys_are_unique(client):
    rows = [_row(_flag(client, "promo_probe", description="kept"))]
    for key in ["promo_probe", "Promo_Probe", " PROMO_PROBE "]:
        rows.append(_row(_flag(client, key, description="replaced")))
    rows.append([client.get("/flags/promo_probe", headers=VIEWER).json()["description"]])
    return rows


def _late(r):
    """A 422 as where its errors lie (FastAPI names a body that is not JSON in more than one
    way); anything else as [status, body], with the challenge."""
    if r.status_code == 422:
        shown = sorted({str(e["loc"][0]) for e in r.json()["detail"]})
    else:
        shown = _body(r)
    return [r.status_code, shown, r.headers.get("www-authenticate")]
''' + late_body.probe_source(
    [("POST", "/flags"), ("PATCH", "/flags/${key1}"), ("POST", "/flags/${key1}/evaluate")],
    [("no token", "{}"), ("unknown token", '{"Authorization": "Bearer nope"}'),
     ("viewer", "VIEWER"), ("admin", "ADMIN")], row="_late")

# The callers never show in a row: each data set carries its own, so no two instances differ
# by the tokens alone.
_SETS = {
    "data": [
        {"admin": "greta", "tok_admin": "tok-greta-admin", "viewer": "hugo",
         "tok_viewer": "tok-hugo-view", "key1": "new_checkout", "desc1": "one-page checkout",
         "rollout1": 40, "expiry1": "2026-09-30T23:30:00-02:00", "user1": "carla",
         "expiry2": "2026-07-01T09:30:00+02:00", "naive": "2026-07-01T09:30:00", "unix": 1782900000},
        {"admin": "paz", "tok_admin": "p4z.admin.7", "viewer": "quinn",
         "tok_viewer": "qu1nn.view.3", "key1": "dark_mode", "desc1": "night theme",
         "rollout1": 75, "expiry1": "2027-01-01T00:15:00+05:30", "user1": "dev42",
         "expiry2": "2026-12-31T22:00:00-03:00", "naive": "2026-03-15T12:00:00", "unix": 1767225600},
        {"admin": "ravi", "tok_admin": "adm-ravi-9", "viewer": "sun",
         "tok_viewer": "view-sun-2", "key1": "search_v2", "desc1": "new ranking",
         "rollout1": 10, "expiry1": "2026-11-05T08:00:00+09:00", "user1": "mia",
         "expiry2": "2026-08-15T23:59:00-07:00", "naive": "2026-08-15T23:59:00", "unix": 1800000000},
    ],
    "rules": [
        {"max_user": 12, "rollout": 25}, {"max_user": 20, "rollout": 60},
        {"max_user": 32, "rollout": 90},
    ],
}

PROMPT = '''\
`/workspace` holds a feature-flag service: `solution.py` and the package `flags/` it imports
(`models.py`, `store.py`, `replies.py`, `errors.py`, `auth.py`, `routes.py`, `evaluate.py`).
It should behave as described below but does not, in several ways. Find and fix every deviation
(edit or rewrite any file); `solution.py` must keep defining `app` and `result`. State lives in
memory and carries from one request to the next; there are no flags at start.

**Callers** send `Authorization: Bearer <token>`: `${tok_admin}` is `${admin}` (an admin),
`${tok_viewer}` is `${viewer}` (a viewer). Every route needs a valid token, reads and
evaluations included: a missing header or another scheme is 401 `{"error": "Not
authenticated"}`, an unknown token 401 `{"error": "invalid token"}`, both with
`WWW-Authenticate: Bearer`. Any valid token may read flags and evaluate them; creating,
changing and deleting flags is for admins only: a viewer gets 403 `{"error": "admins only"}`.
The caller is checked before the request is validated (a viewer's invalid create is 403),
also when the body is not JSON at all: that is a 422 like any other invalid body, but only for
a caller the route admits.

**Errors** are `{"error": <message>}`, FastAPI's router errors included, keeping whatever
headers they carry (a 405 keeps its `Allow`); request validation errors stay FastAPI's
standard 422 `{"detail": [...]}`. Other errors: 404 `flag not found`, 409 `flag exists`.

**Flags** are shown as `{"key", "description", "enabled", "rollout", "expires_at"}`. A key is
3 to 31 characters, a letter then letters, digits or `_`, in any case and with surrounding
spaces ignored; it is stored lower-case, and keys in paths match in any case. `description`
is a string of at most 80 characters or null; `enabled` a JSON boolean (`true`/`false` only:
strings and numbers are 422); `rollout` an integer from 0 to 100; `expires_at` null or a
JSON string holding a date-time with a UTC offset (one without an offset is 422, and so is a
number or a string of digits, such as Unix seconds), always shown converted to UTC in
FastAPI's standard form ending in `Z` (`"2026-07-01T07:30:00Z"`), in every response.
- `POST /flags` with `{"key", "description"?: null, "enabled"?: false, "rollout"?: 100,
  "expires_at"?: null}`: 201 with the flag; a key already taken (after lower-casing) is 409.
- `GET /flags`: 200 with every flag, in key order. `GET /flags/{key}`: 200 with the flag.
- `PATCH /flags/{key}` with any of `description`, `enabled`, `rollout`, `expires_at`: only the
  keys sent change; null clears `description` and `expires_at` and is 422 for `enabled` and
  `rollout`; 200 with the flag.
- `DELETE /flags/{key}`: 204 with an empty body; the flag is gone.
- `POST /flags/{key}/evaluate` with the JSON body `{"user": <1 to ${max_user} characters>}`:
  200 `{"key", "user", "bucket", "enabled"}`. The user's bucket is `zlib.crc32` of the UTF-8
  bytes of `<key>:<user>` (the stored key), modulo 100; the flag is on for the user when it is
  enabled and the bucket is below its rollout (rollout 0: nobody, 100: everybody).

`result` has three rows, each `[status, body]`, all as `${admin}`:
1. `POST /flags` with `{"key": "${key1}", "description": "${desc1}", "enabled": true,
   "rollout": ${rollout1}, "expires_at": "${expiry1}"}`
2. `GET /flags`
3. `POST /flags/${key1}/evaluate` with `{"user": "${user1}"}`
'''

FAMILY = repair_family(
    id="repair/feature_flags",
    title="Repair a feature-flag service with percentage rollouts that misbehaves",
    prompt=PROMPT,
    solution=SOLUTION,
    files=FILES,
    planted=PLANTED,
    probes=PROBES,
    original={**_SETS["data"][0], **_SETS["rules"][0]},
    space=_SETS,
    instances=9,
    requirements=(
        Requirement("Every read needs a valid token.",
                    probes=("reads_need_a_token",), traps=(_ROLE_CLASS,)),
        Requirement("Only admins create, change and delete flags; a viewer is 403 before "
                    "validation.",
                    probes=("writes_need_admin",),
                    traps=(_in("auth", "admin routes open to viewers",
                               'Admin = Annotated[dict, Depends(RequireRole("admin"))]',
                               "Admin = Annotated[dict, Depends(RequireRole())]"),)),
        Requirement("A body that is not JSON is a 422 only after the token and the role are "
                    "checked.",
                    probes=("credentials_before_json",),
                    traps=(_in("routes", "flag routes decode the body first",
                               "router = APIRouter(route_class=CallerFirstRoute)",
                               "router = APIRouter()"),
                           _in("evaluate", "evaluation decodes the body first",
                               "    router = APIRouter(route_class=CallerFirstRoute)",
                               "    router = APIRouter()"))),
        Requirement("Keys are accepted in any case and trimmed, stored lower-case, and match "
                    "in paths in any case.",
                    probes=("keys_are_case_insensitive",),
                    traps=(_KEY_CASE,
                           _in("routes", "path keys matched exactly",
                               "store.FLAGS.get(key.strip().lower())",
                               "store.FLAGS.get(key)"))),
        Requirement("Errors keep their headers: `WWW-Authenticate: Bearer` on 401s, `Allow` on "
                    "405s.",
                    probes=("error_headers_kept",), traps=(_HEADERS_DROPPED,)),
        Requirement("`expires_at` is shown in UTC ending in `Z` everywhere, the list included.",
                    probes=("expiry_shown_in_utc",), traps=(_LIST_UNTYPED,)),
        Requirement("An `expires_at` without a UTC offset is 422.",
                    probes=("expiry_needs_an_offset",), traps=(_NAIVE_EXPIRY,)),
        Requirement("An `expires_at` given as a number or a string of digits (Unix seconds) is "
                    "422.",
                    probes=("expiry_is_not_unix_seconds",), traps=(_UNIX_EXPIRY,)),
        Requirement("`DELETE` is 204 with an empty body, and the flag is gone.",
                    probes=("delete_has_no_body",), traps=(_NULL_BODY_204,)),
        Requirement("A PATCH changes only the keys sent; null clears `description` and "
                    "`expires_at` and is 422 for `enabled` and `rollout`.",
                    probes=("patch_changes_sent_keys",),
                    traps=(_PATCH_EXCLUDE_NONE,
                           _in("models", "patch rollout accepts null",
                               "    rollout: Rollout = None",
                               "    rollout: Rollout | None = None"))),
        Requirement("`enabled` is a JSON boolean; strings and numbers are 422.",
                    probes=("enabled_is_a_boolean",), traps=(_LAX_ENABLED,)),
        Requirement("Evaluation reads `{\"user\"}` from the JSON body, 1 to ${max_user} "
                    "characters.",
                    probes=("evaluate_reads_the_body",),
                    traps=(_FUTURE_ANNOTATIONS,
                           _in("evaluate", "user length one short",
                               "max_length=max_user_length)", "max_length=max_user_length - 1)"))),
        Requirement("A flag is on for a user when it is enabled and the bucket is below the "
                    "rollout.",
                    probes=("rollout_buckets",),
                    traps=(_ROLLOUT_INCLUSIVE,
                           _in("evaluate", "disabled flags still roll out",
                               '"enabled": flag["enabled"] and slot', '"enabled": slot'))),
        Requirement("`rollout` is an integer from 0 to 100.",
                    probes=("rollout_bounds",),
                    traps=(_in("models", "rollout bound excludes 100",
                               "Field(ge=0, le=100)", "Field(ge=0, lt=100)"),)),
        Requirement("A key already taken, in any case, is 409 `flag exists` and the flag is "
                    "unchanged.",
                    probes=("keys_are_unique",),
                    traps=(_in("routes", "create overwrites a taken key", '''\
    if body.key in store.FLAGS:
        raise HTTPException(409, "flag exists")
''', ""),)),
    ),
)
