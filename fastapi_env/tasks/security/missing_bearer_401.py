from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an API protected by OAuth2 bearer tokens, using FastAPI's `OAuth2PasswordBearer` security
scheme with `tokenUrl="token"` (the token endpoint itself is not part of this task).

Known tokens (module level): `TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}"}`.

Routes:

- `GET /public` needs no credentials and returns `{"${pub}": true}`.
- `GET ${me}` requires a bearer token sent as `Authorization: Bearer <token>` (the scheme word is
  case-insensitive, so `bearer <token>` works too). It returns `{"${user_key}": <name>}` for a known token.
  - No `Authorization` header, or one that does not use the Bearer scheme (e.g. `Basic ...` or a
    bare token): 401, JSON body `{"detail": "Not authenticated"}`, response header
    `WWW-Authenticate: Bearer`.
  - A Bearer token that is not in `TOKENS`: 401, JSON body `{"detail": "${invalid}"}`, response
    header `WWW-Authenticate: Bearer`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order. Each row is `[status code (integer), the value of the WWW-Authenticate
response header (string, or null if absent), JSON body (object)]`:

1. `GET ${me}` with no `Authorization` header
2. `GET ${me}` with `Authorization: Bearer ${t1}`
3. `GET ${me}` with `Authorization: Bearer nope`
4. `GET /public`
'''

HEAD = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.security import OAuth2PasswordBearer
from fastapi.testclient import TestClient

TOKENS = {"${t1}": "${u1}", "${t2}": "${u2}"}

app = FastAPI()

'''

AUTH = '''\
oauth2_scheme = OAuth2PasswordBearer(tokenUrl="token")


def current_user(token: Annotated[str, Depends(oauth2_scheme)]) -> str:
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="${invalid}", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
'''

ROUTES = '''

@app.get("/public")
def public():
    return {"${pub}": True}


@app.get("${me}")
def me(user: Annotated[str, Depends(current_user)]):
    return {"${user_key}": user}


client = TestClient(app)
result = []
for headers in [{}, {"Authorization": "Bearer ${t1}"}, {"Authorization": "Bearer nope"}]:
    r = client.get("${me}", headers=headers)
    result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
r = client.get("/public")
result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
'''

REFERENCE = HEAD + AUTH + ROUTES

PROBES = '''\
def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.json()]


def probe_other_schemes(client):
    return [
        _row(client.get("${me}", headers={"Authorization": "Basic dDphZGE="})),
        _row(client.get("${me}", headers={"Authorization": "${t1}"})),
    ]


def probe_lowercase_scheme(client):
    return [_row(client.get("${me}", headers={"Authorization": "bearer ${t2}"}))]


def probe_forged_tokens(client):
    return [
        _row(client.get("${me}", headers={"Authorization": "Bearer ${u1}"})),
        _row(client.get("${me}", headers={"Authorization": "Bearer ${t1_upper}"})),
        _row(client.get("${me}", headers={"Authorization": "Bearer ${t2}x"})),
    ]


def probe_public_with_bad_token(client):
    return [_row(client.get("/public", headers={"Authorization": "Bearer nope"}))]
'''

_HAND_403 = '''\
def current_user(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if not authorization or scheme.lower() != "bearer":
        raise HTTPException(status_code=403, detail="Not authenticated")
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="${invalid}", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
'''

_PREFIX_STRIP = '''\
def current_user(authorization: Annotated[str | None, Header()] = None) -> str:
    if not authorization:
        raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "Bearer"})
    token = authorization.removeprefix("Bearer ")
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="${invalid}", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
'''

_CASE_SENSITIVE = '''\
def current_user(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme != "Bearer":
        raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "Bearer"})
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="${invalid}", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
'''

FAMILY = Family(
    id="security/missing_bearer_401",
    title="Missing bearer credentials: 401 with WWW-Authenticate: Bearer",
    category="security",
    difficulty="easy",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"t1": "t-ada", "u1": "ada", "t2": "t-bob", "u2": "bob", "me": "/me",
              "invalid": "Invalid token", "pub": "public", "user_key": "user"},
    space={
        "t1": [{"t1": "t-ada", "u1": "ada", "t2": "t-bob", "u2": "bob"},
               {"t1": "tok-lin", "u1": "lin", "t2": "tok-max", "u2": "max"},
               {"t1": "9f8e7d", "u1": "root", "t2": "1a2b3c", "u2": "guest"}],
        "me": [{"me": "/me", "user_key": "user"}, {"me": "/whoami", "user_key": "name"},
               {"me": "/profile", "user_key": "username"}],
        "invalid": ["Invalid token", "Unknown token"],
        "pub": ["public", "open"],
    },
    derive=lambda p: {"t1_upper": p["t1"].upper()},
    instances=36,
    requirements=(
        Requirement(
            "No credentials, or a scheme other than Bearer (Basic, a bare token), is 401 "
            '`{"detail": "Not authenticated"}` with `WWW-Authenticate: Bearer`.',
            probes=("other_schemes",),
            traps=(Edit("hand-rolled check answering 403 for missing credentials", AUTH, _HAND_403),
                   Edit("token taken with removeprefix('Bearer ')", AUTH, _PREFIX_STRIP)),
        ),
        Requirement(
            "A Bearer token not in `TOKENS` (a user name, another case, a suffix) is 401 "
            '`{"detail": "${invalid}"}` with `WWW-Authenticate: Bearer`.',
            probes=("forged_tokens",),
            traps=(Edit("invalid token rejected without WWW-Authenticate",
                        'detail="${invalid}", headers={"WWW-Authenticate": "Bearer"})',
                        'detail="${invalid}")'),
                   Edit("user names accepted as tokens", "    if token not in TOKENS:\n",
                        "    if token in TOKENS.values():\n        return token\n    if token not in TOKENS:\n")),
        ),
        Requirement(
            "The scheme word is case-insensitive (`bearer <token>` works).",
            probes=("lowercase_scheme",),
            traps=(Edit("scheme checked case-sensitively", AUTH, _CASE_SENSITIVE),),
        ),
        Requirement(
            "`GET /public` needs no credentials and ignores a bad token.",
            probes=("public_with_bad_token",),
            traps=(Edit("public guarded", "def public():", "def public(user: Annotated[str, Depends(current_user)]):"),),
        ),
    ),
    expected_rows=[
        [401, "Bearer", {"detail": "Not authenticated"}],
        [200, None, {"user": "ada"}],
        [401, "Bearer", {"detail": "Invalid token"}],
        [200, None, {"public": True}],
    ],
)
