"""Repair tier: a user-settings service with PATCH semantics, a package of five modules in
/workspace with nine planted bugs (a shallow merge that replaces a nested object, a list route
whose response_model_exclude misses `__all__` so an internal field leaks, an ETag set on a
throwaway Response, an access check in `dependencies=[...]` that returns False instead of
raising, a router included with its own prefix again, a fixed admin route shadowed by an int
path parameter, a missing If-Match taken as a match, a nested patch model that ignores unknown
keys, a non-nullable field made nullable in the patch model). Each bug is one requirement's
trap; the setup is the reference with all of them."""

from fastapi_env.tasks import Edit, Family, Requirement, with_edits
from fastapi_env.tasks.repair._plumbing import RESULT_CLIENT, editor

INIT = '''\
"""User settings: per-user preferences with partial updates and optimistic concurrency."""
'''

MODELS = '''\
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Theme = Literal["light", "dark", "system"]
Digest = Literal["daily", "weekly", "never"]


class Notifications(BaseModel):
    email: bool
    push: bool
    digest: Digest


class Settings(BaseModel):
    user_id: int
    theme: Theme
    language: str
    nickname: str | None
    notifications: Notifications
    version: int
    pin: str  # internal: never shown


# Patch models: a field left out stays as it is. Only nickname may be set to null; the others
# default to None without accepting it (defaults are not validated), so null is a 422.
class NotificationsPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: bool = None
    push: bool = None
    digest: Digest = None


class SettingsPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
    theme: Theme = None
    language: str = Field(None, pattern=r"^[a-z]{2}$$")
    nickname: str | None = Field(None, min_length=1, max_length=${nick_max})
    notifications: NotificationsPatch = None
'''

STORE = '''\
import copy

DEFAULTS = {
    "theme": "${default_theme}", "language": "${default_lang}", "nickname": None,
    "notifications": {"email": True, "push": ${default_push}, "digest": "${default_digest}"},
}
USERS = {  # token -> user
    "${tok_admin}": {"id": 1, "name": "${admin}", "role": "admin"},
    "${tok_m1}": {"id": 2, "name": "${member1}", "role": "member"},
    "${tok_m2}": {"id": 3, "name": "${member2}", "role": "member"},
}
SETTINGS: dict[int, dict] = {}


def fresh(user_id: int, pin: str) -> dict:
    return {"user_id": user_id, **copy.deepcopy(DEFAULTS), "version": 1, "pin": pin}


def reset_all() -> None:
    for number, user in enumerate(USERS.values()):
        SETTINGS[user["id"]] = fresh(user["id"], f"{4711 + number * 1111}")
    SETTINGS[1]["theme"] = "${admin_theme}"


def merge(target: dict, changes: dict) -> None:
    """Apply a partial update: nested objects are merged key by key, not replaced."""
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


def etag(settings: dict) -> str:
    return f'"{settings["version"]}"'


reset_all()
'''

AUTH = '''\
from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from . import store

bearer = HTTPBearer()


def caller(credentials: Annotated[HTTPAuthorizationCredentials, Depends(bearer)]) -> dict:
    user = store.USERS.get(credentials.credentials)
    if user is None:
        raise HTTPException(401, "invalid token", headers={"WWW-Authenticate": "Bearer"})
    return user


Caller = Annotated[dict, Depends(caller)]


def self_or_admin(user_id: int, user: Caller) -> None:
    if user["id"] != user_id and user["role"] != "admin":
        raise HTTPException(403, "forbidden")


def admin_only(user: Caller) -> None:
    if user["role"] != "admin":
        raise HTTPException(403, "forbidden")
'''

ROUTES = '''\
from collections import Counter
from typing import Annotated

from fastapi import APIRouter, Depends, Header, HTTPException, Response

from . import store
from .auth import Caller, admin_only, self_or_admin
from .models import Settings, SettingsPatch, Theme

HIDDEN = {"pin"}
users = APIRouter(prefix="/users")
admin = APIRouter(prefix="/admin", dependencies=[Depends(admin_only)])
public = APIRouter(prefix="/settings")


def load(user_id: int) -> dict:
    if user_id not in store.SETTINGS:
        raise HTTPException(404, "no such user")
    return store.SETTINGS[user_id]


@users.get("/me/settings", response_model=Settings, response_model_exclude=HIDDEN)
def my_settings(user: Caller, response: Response):
    return read_settings(user["id"], response)


@users.get("/{user_id}/settings", response_model=Settings, response_model_exclude=HIDDEN,
           dependencies=[Depends(self_or_admin)])
def read_settings(user_id: int, response: Response):
    settings = load(user_id)
    response.headers["ETag"] = store.etag(settings)
    return settings


@users.patch("/{user_id}/settings", response_model=Settings, response_model_exclude=HIDDEN,
             dependencies=[Depends(self_or_admin)])
def update_settings(
    user_id: int,
    patch: SettingsPatch,
    response: Response,
    if_match: Annotated[str | None, Header()] = None,
):
    settings = load(user_id)
    if if_match is None:
        raise HTTPException(428, "If-Match required")
    if if_match != store.etag(settings):
        raise HTTPException(412, "version mismatch")
    store.merge(settings, patch.model_dump(exclude_unset=True))
    settings["version"] += 1
    response.headers["ETag"] = store.etag(settings)
    return settings


@admin.get("/settings", response_model=list[Settings],
           response_model_exclude={"__all__": HIDDEN})
def all_settings(theme: Theme | None = None):
    return [s for _, s in sorted(store.SETTINGS.items()) if theme in (None, s["theme"])]


@admin.get("/settings/summary")
def theme_summary():
    counts = Counter(s["theme"] for s in store.SETTINGS.values())
    return {theme: counts[theme] for theme in ("light", "dark", "system")}


@admin.get("/settings/{user_id}", response_model=Settings, response_model_exclude=HIDDEN)
def any_settings(user_id: int):
    return load(user_id)


@admin.post("/settings/{user_id}/reset", response_model=Settings,
            response_model_exclude=HIDDEN)
def reset_settings(user_id: int):
    old = load(user_id)
    store.SETTINGS[user_id] = store.fresh(user_id, old["pin"]) | {"version": old["version"] + 1}
    return store.SETTINGS[user_id]


@public.get("/defaults")
def defaults():
    return store.DEFAULTS
'''

SOLUTION = '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient

from prefs.routes import admin, public, users

app = FastAPI()
app.include_router(users)
app.include_router(admin)
app.include_router(public)
''' + RESULT_CLIENT + '''\
me = {"Authorization": "Bearer ${tok_m1}"}
read = client.get("/users/me/settings", headers=me)
tag = {"If-Match": read.headers["etag"]} if "etag" in read.headers else {}
changed = client.patch("/users/2/settings", headers=me | tag,
                       json={"theme": "${new_theme}", "notifications": {"push": ${new_push}}})
result = [
    [read.status_code, body(read)],
    [changed.status_code, body(changed), changed.headers.get("etag")],
    [body(client.get("/settings/defaults"))],
]
'''


_in = editor("prefs")


_SHALLOW_MERGE = _in("store", "nested objects replaced, not merged", '''\
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value''', '''\
    target.update(changes)''')
_LIST_LEAK = _in("routes", "list exclude without __all__",
                 'response_model_exclude={"__all__": HIDDEN})', "response_model_exclude=HIDDEN)")
_ETAG_LOST = _in("routes", "me route sets the ETag on a throwaway Response",
                 'def my_settings(user: Caller, response: Response):\n'
                 '    return read_settings(user["id"], response)',
                 'def my_settings(user: Caller):\n'
                 '    return read_settings(user["id"], Response())')
_CHECK_RETURNS = _in("auth", "access check returns instead of raising", '''\
def self_or_admin(user_id: int, user: Caller) -> None:
    if user["id"] != user_id and user["role"] != "admin":
        raise HTTPException(403, "forbidden")''', '''\
def self_or_admin(user_id: int, user: Caller) -> bool:
    return user["id"] == user_id or user["role"] == "admin"''')
_DOUBLE_PREFIX = Edit("public router included with its prefix again",
                      "app.include_router(public)",
                      'app.include_router(public, prefix="/settings")')
_SHADOWED = _in("routes", "summary declared after the int route", '''\
@admin.get("/settings/summary")
def theme_summary():
    counts = Counter(s["theme"] for s in store.SETTINGS.values())
    return {theme: counts[theme] for theme in ("light", "dark", "system")}


@admin.get("/settings/{user_id}", response_model=Settings, response_model_exclude=HIDDEN)
def any_settings(user_id: int):
    return load(user_id)
''', '''\
@admin.get("/settings/{user_id}", response_model=Settings, response_model_exclude=HIDDEN)
def any_settings(user_id: int):
    return load(user_id)


@admin.get("/settings/summary")
def theme_summary():
    counts = Counter(s["theme"] for s in store.SETTINGS.values())
    return {theme: counts[theme] for theme in ("light", "dark", "system")}
''')
_MISSING_IF_MATCH_OK = _in("routes", "a missing If-Match passes", '''\
    if if_match is None:
        raise HTTPException(428, "If-Match required")
    if if_match != store.etag(settings):''', '''\
    if if_match is not None and if_match != store.etag(settings):''')
_NESTED_EXTRA = _in("models", "nested patch ignores unknown keys", '''\
class NotificationsPatch(BaseModel):
    model_config = ConfigDict(extra="forbid")
''', '''\
class NotificationsPatch(BaseModel):
''')
_NULLABLE_THEME = _in("models", "patch theme accepts null", "    theme: Theme = None",
                      "    theme: Theme | None = None")

FILES = {"prefs/__init__.py": INIT, "prefs/models.py": MODELS, "prefs/store.py": STORE,
         "prefs/auth.py": AUTH, "prefs/routes.py": ROUTES}
PLANTED = (_SHALLOW_MERGE, _LIST_LEAK, _ETAG_LOST, _CHECK_RETURNS, _DOUBLE_PREFIX, _SHADOWED,
           _MISSING_IF_MATCH_OK, _NESTED_EXTRA, _NULLABLE_THEME)
SETUP = with_edits(FILES | {"solution.py": SOLUTION}, PLANTED)

PROBES = '''\
ADMIN = {"Authorization": "Bearer ${tok_admin}"}
ONE = {"Authorization": "Bearer ${tok_m1}"}
TWO = {"Authorization": "Bearer ${tok_m2}"}


def _row(r):
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _brief(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return _row(r)


def _patch(client, user_id, headers, body):
    """PATCH with the current ETag, read first by the admin."""
    tag = client.get(f"/users/{user_id}/settings", headers=ADMIN).headers.get("etag")
    return client.patch(f"/users/{user_id}/settings", headers=headers | {"If-Match": tag},
                        json=body)


def _reset(client, user_id):
    client.post(f"/admin/settings/{user_id}/reset", headers=ADMIN)


def probe_nested_patch_merges(client):
    _reset(client, 3)
    rows = [_row(_patch(client, 3, TWO, {"notifications": {"digest": "never"}}))]
    rows.append(_row(_patch(client, 3, TWO, {"notifications": {"email": False},
                                             "nickname": "${nick}"})))
    rows.append(_row(_patch(client, 3, TWO, {"notifications": {}})))
    rows.append(_row(_patch(client, 3, TWO, {"nickname": None})))
    rows.append(_row(client.get("/users/3/settings", headers=TWO)))
    return rows


def probe_pin_never_shown(client):
    rows = []
    for path, headers in [("/users/me/settings", ONE), ("/users/2/settings", ONE),
                          ("/admin/settings", ADMIN), ("/admin/settings?theme=${admin_theme}",
                                                       ADMIN), ("/admin/settings/3", ADMIN)]:
        body = client.get(path, headers=headers).json()
        rows.append([path, [sorted(item) for item in (body if isinstance(body, list) else [body])]])
    rows.append(sorted(_patch(client, 2, ONE, {"language": "${other_lang}"}).json()))
    rows.append(sorted(client.post("/admin/settings/2/reset", headers=ADMIN).json()))
    return rows


def probe_etag_on_every_read(client):
    rows = []
    for path, headers in [("/users/me/settings", TWO), ("/users/3/settings", TWO),
                          ("/users/3/settings", ADMIN), ("/users/me/settings", ADMIN)]:
        r = client.get(path, headers=headers)
        rows.append([path, r.status_code, r.headers.get("etag") == f'"{r.json()["version"]}"'])
    r = _patch(client, 3, TWO, {"theme": "dark"})
    rows.append([r.status_code, r.headers.get("etag") == f'"{r.json()["version"]}"'])
    mine = client.get("/users/me/settings", headers=TWO)
    rows.append([mine.headers.get("etag"), mine.json()["version"]])
    return rows


def probe_members_only_touch_their_own(client):
    before = client.get("/users/3/settings", headers=ADMIN).json()
    tag = client.get("/users/3/settings", headers=ADMIN).headers.get("etag")
    rows = [_row(client.get("/users/3/settings", headers=ONE)),
            _row(client.patch("/users/3/settings", headers=ONE | {"If-Match": tag},
                              json={"theme": "system"})),
            _row(client.get("/users/1/settings", headers=TWO)),
            _row(client.get("/users/99/settings", headers=ONE)),
            _row(client.get("/users/99/settings", headers=ADMIN)),
            [client.get("/users/3/settings", headers=ADMIN).json() == before],
            _row(client.get("/admin/settings", headers=ONE)),
            _row(client.post("/admin/settings/3/reset", headers=TWO)),
            [client.get("/users/1/settings", headers=ADMIN).status_code]]
    return rows


def probe_public_defaults_route(client):
    return [_row(client.get("/settings/defaults")),
            [client.get("/settings/settings/defaults").status_code]]


def probe_admin_summary_counts_themes(client):
    _reset(client, 2)
    before = client.get("/admin/settings/summary", headers=ADMIN)
    rows = [[before.status_code, sorted(before.json()), sum(before.json().values())]]
    _patch(client, 2, ONE, {"theme": "system"})
    after = client.get("/admin/settings/summary", headers=ADMIN).json()
    rows.append([after[theme] - before.json()[theme] for theme in ("light", "dark", "system")])
    rows.append(_row(client.get("/admin/settings/summary", headers=ONE)))
    rows.append(_brief(client.get("/admin/settings/abc", headers=ADMIN)))
    return rows


def probe_if_match_is_required_and_current(client):
    settings = client.get("/users/2/settings", headers=ONE)
    tag, version = settings.headers.get("etag"), settings.json()["version"]
    rows = [_row(client.patch("/users/2/settings", headers=ONE, json={"theme": "dark"})),
            _row(client.patch("/users/2/settings", headers=ONE | {"If-Match": f'"{version + 1}"'},
                              json={"theme": "dark"})),
            _row(client.patch("/users/2/settings", headers=ONE | {"If-Match": str(version)},
                              json={"theme": "dark"})),
            [client.get("/users/2/settings", headers=ONE).json()["version"] - version]]
    ok = client.patch("/users/2/settings", headers=ONE | {"If-Match": tag}, json={"theme": "dark"})
    rows.append([ok.status_code, ok.json()["version"] - version, ok.json()["theme"]])
    stale = client.patch("/users/2/settings", headers=ONE | {"If-Match": tag}, json={})
    rows.append(_row(stale))
    rows.append(_row(client.patch("/users/99/settings", headers=ADMIN, json={})))
    return rows


def probe_unknown_keys_refused(client):
    rows = []
    for body in [{"colour": "red"}, {"notifications": {"sms": True}},
                 {"notifications": {"push": True, "pager": False}}, {"version": 99},
                 {"pin": "0000"}, {"notifications": {"push": False}}]:
        rows.append([body, _brief(_patch(client, 2, ONE, body))[0]])
    settings = client.get("/users/2/settings", headers=ONE).json()
    rows.append([settings["notifications"], sorted(settings)])
    return rows


def probe_null_only_clears_nickname(client):
    start, rows = client.get("/users/3/settings", headers=TWO).json(), []
    for body in [{"theme": None}, {"language": None}, {"notifications": None},
                 {"notifications": {"push": None}}, {"nickname": None}]:
        r = _patch(client, 3, TWO, body)
        rows.append([body, _brief(r) if r.status_code != 200 else [200, r.json()["nickname"]]])
    r = client.get("/users/3/settings", headers=TWO)
    rows.append([r.status_code, r.json().get("theme") == start["theme"],
                 r.json().get("language") == start["language"]])
    return rows


def probe_field_rules(client):
    rows = []
    for body in [{"theme": "DARK"}, {"theme": "blue"}, {"language": "EN"}, {"language": "eng"},
                 {"language": "${other_lang}"}, {"nickname": ""}, {"nickname": "n" * ${nick_max}},
                 {"nickname": "n" * (${nick_max} + 1)}, {"notifications": {"digest": "hourly"}}]:
        r = _patch(client, 2, ONE, body)
        rows.append([body, _brief(r) if r.status_code != 200 else 200])
    return rows


def probe_tokens(client):
    rows = []
    for headers in [{}, {"Authorization": "Bearer nope"}, {"Authorization": "${tok_m1}"},
                    {"Authorization": "Basic ${tok_m1}"}, {"Authorization": "bearer ${tok_m1}"}]:
        r = client.get("/users/me/settings", headers=headers)
        rows.append([r.status_code, r.json() if r.status_code == 401 else r.json()["user_id"],
                     r.headers.get("www-authenticate")])
    return rows
'''

_SETS = {
    "people": [
        {"admin": "root", "member1": "mia", "member2": "noah", "tok_admin": "adm-31",
         "tok_m1": "mia-77", "tok_m2": "noah-12", "nick": "Mimi"},
        {"admin": "ops", "member1": "lena", "member2": "omar", "tok_admin": "t-ops-1",
         "tok_m1": "t-lena-2", "tok_m2": "t-omar-3", "nick": "Oz"},
    ],
    "defaults": [
        {"default_theme": "light", "default_lang": "en", "default_push": False,
         "default_digest": "weekly", "admin_theme": "dark", "other_lang": "de"},
        {"default_theme": "system", "default_lang": "fr", "default_push": True,
         "default_digest": "daily", "admin_theme": "light", "other_lang": "it"},
        {"default_theme": "dark", "default_lang": "nl", "default_push": True,
         "default_digest": "never", "admin_theme": "system", "other_lang": "en"},
    ],
    "change": [{"new_theme": "dark", "new_push": True}, {"new_theme": "system", "new_push": False}],
    "nick_max": [20, 12],
}

FAMILY = Family(
    id="repair/user_settings",
    title="Repair a user-settings service with PATCH semantics that misbehaves",
    category="repair",
    difficulty="hard",
    tier="repair",
    prompt='''\
`/workspace` holds a user-settings service: `solution.py` and the package `prefs/` it imports
(`models.py`, `store.py`, `auth.py`, `routes.py`). It should behave as described below but
does not, in several ways. Find and fix every deviation (edit or rewrite any file);
`solution.py` must keep defining `app` and `result`. State lives in memory and carries from one
request to the next.

**Users** send `Authorization: Bearer <token>`: `${tok_admin}` is user 1 (`${admin}`, the
admin), `${tok_m1}` user 2 (`${member1}`), `${tok_m2}` user 3 (`${member2}`), both members.
A missing header or another scheme is 401 `{"detail": "Not authenticated"}` (the scheme
name is case-insensitive); an unknown token 401 `{"detail": "invalid token"}`; both with
`WWW-Authenticate: Bearer`. Other errors are `{"detail": <message>}` as well: 403
`forbidden`, 404 `no such user`, 412 `version mismatch`, 428 `If-Match required`; request
validation errors are FastAPI's standard 422.

**Settings** are shown as `{"user_id", "theme", "language", "nickname", "notifications":
{"email", "push", "digest"}, "version"}`. Each record also holds an internal `pin`, which no
response ever shows. Every user starts with the defaults, `version` 1, except that user 1's
theme is `${admin_theme}`. The defaults: theme `${default_theme}`, language
`${default_lang}`, nickname null, notifications email true, push ${default_push__json},
digest `${default_digest}`.

**Routes.**
- `GET /settings/defaults` (no token needed): 200 with the defaults
  `{"theme", "language", "nickname", "notifications"}`.
- `GET /users/me/settings`: 200, the caller's settings.
- `GET /users/{id}/settings`: 200; a member may only read their own (403 otherwise, checked
  before the 404 of an unknown id); the admin reads anyone's.
- Both reads, and a successful PATCH, send the header `ETag: "<version>"` (the version in
  double quotes).
- `PATCH /users/{id}/settings` (same access rule) needs `If-Match` equal to the current ETag:
  428 without it, 412 when it differs (nothing changes either way; an unknown id is 404
  before `If-Match` is looked at). The body changes only the
  keys it holds; `notifications` may be partial and is merged key by key. `theme` is `light`,
  `dark` or `system`; `language` two lowercase letters; `nickname` 1 to ${nick_max}
  characters or null (null clears it); `digest` `daily`, `weekly` or `never`. `null` is
  refused (422) for every key but `nickname`, and so is any unknown key, at the top level or
  inside `notifications`. 200 with the new settings; `version` goes up by 1.
- Admin only (members get 403): `GET /admin/settings?theme=` (every user's settings by id,
  only those with that theme if given); `GET /admin/settings/summary` (200 `{"light": n,
  "dark": n, "system": n}`, users per theme); `GET /admin/settings/{id}` (anyone's
  settings); `POST /admin/settings/{id}/reset` (back to the defaults, keeping the pin,
  `version` up by 1; 200 with the settings).

`result` has three rows:
1. `[status, body]` of `GET /users/me/settings` as `${member1}`
2. `[status, body, ETag header]` of `PATCH /users/2/settings` as `${member1}` with the ETag
   just read and `{"theme": "${new_theme}", "notifications": {"push": ${new_push__json}}}`
3. `[body]` of `GET /settings/defaults`
''',
    reference=SOLUTION,
    files=FILES,
    setup=SETUP,
    probes=PROBES,
    original={**_SETS["people"][0], **_SETS["defaults"][0], **_SETS["change"][0],
              "nick_max": 20},
    space=_SETS,
    instances=12,
    requirements=(
        Requirement("A partial `notifications` object is merged key by key.",
                    probes=("nested_patch_merges",), traps=(_SHALLOW_MERGE,)),
        Requirement("No response shows the `pin`, the admin's list included.",
                    probes=("pin_never_shown",), traps=(_LIST_LEAK,)),
        Requirement('Reads and successful PATCHes send `ETag: "<version>"`, '
                    "`/users/me/settings` included.",
                    probes=("etag_on_every_read",), traps=(_ETAG_LOST,)),
        Requirement("A member reads and changes only their own settings; admin routes are "
                    "admin-only (403 `forbidden`).",
                    probes=("members_only_touch_their_own",), traps=(_CHECK_RETURNS,)),
        Requirement("`GET /settings/defaults` serves the defaults without a token.",
                    probes=("public_defaults_route",), traps=(_DOUBLE_PREFIX,)),
        Requirement("`GET /admin/settings/summary` counts users per theme.",
                    probes=("admin_summary_counts_themes",), traps=(_SHADOWED,)),
        Requirement("PATCH needs the current ETag in `If-Match` (428 without, 412 if stale).",
                    probes=("if_match_is_required_and_current",),
                    traps=(_MISSING_IF_MATCH_OK,)),
        Requirement("Unknown keys, top-level or in `notifications`, are 422.",
                    probes=("unknown_keys_refused",), traps=(_NESTED_EXTRA,)),
        Requirement("Only `nickname` may be set to null; null elsewhere is 422.",
                    probes=("null_only_clears_nickname",), traps=(_NULLABLE_THEME,)),
        Requirement("Field rules: theme and digest from their lists, language two lowercase "
                    "letters, nickname 1 to ${nick_max} characters.",
                    probes=("field_rules",),
                    traps=(_in("models", "language pattern unanchored",
                               'pattern=r"^[a-z]{2}$$"', 'pattern=r"[a-z]{2}"'),
                           _in("models", "nickname unbounded",
                               "nickname: str | None = Field(None, min_length=1, "
                               "max_length=${nick_max})", "nickname: str | None = None"))),
        Requirement("A missing or non-Bearer header is 401 `Not authenticated`, an unknown token "
                    "401 `invalid token`, both with `WWW-Authenticate: Bearer`.",
                    probes=("tokens",),
                    traps=(_in("auth", "unknown token without challenge",
                               'raise HTTPException(401, "invalid token", headers='
                               '{"WWW-Authenticate": "Bearer"})',
                               'raise HTTPException(401, "invalid token")'),)),
    ),
)
