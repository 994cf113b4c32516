from fastapi_env.tasks import Task

PROMPT = '''\
Build an API protected by OAuth2 bearer tokens, using FastAPI's `OAuth2PasswordBearer` security
scheme with `tokenUrl="token"` (the token endpoint itself is not part of this task).

Known tokens (module level): `TOKENS = {"t-ada": "ada", "t-bob": "bob"}`.

Routes:

- `GET /public` needs no credentials and returns `{"public": true}`.
- `GET /me` requires a bearer token sent as `Authorization: Bearer <token>` (the scheme word is
  case-insensitive, so `bearer <token>` works too). It returns `{"user": <name>}` for a known token.
  - No `Authorization` header, or one that does not use the Bearer scheme (e.g. `Basic ...` or a
    bare token): 401, JSON body `{"detail": "Not authenticated"}`, response header
    `WWW-Authenticate: Bearer`.
  - A Bearer token that is not in `TOKENS`: 401, JSON body `{"detail": "Invalid token"}`, response
    header `WWW-Authenticate: Bearer`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order. Each row is `[status code (integer), the value of the WWW-Authenticate
response header (string, or null if absent), JSON body (object)]`:

1. `GET /me` with no `Authorization` header
2. `GET /me` with `Authorization: Bearer t-ada`
3. `GET /me` with `Authorization: Bearer nope`
4. `GET /public`
'''

HEAD = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.security import OAuth2PasswordBearer
from fastapi.testclient import TestClient

TOKENS = {"t-ada": "ada", "t-bob": "bob"}

app = FastAPI()

'''

AUTH = '''\
oauth2_scheme = OAuth2PasswordBearer(tokenUrl="token")


def current_user(token: Annotated[str, Depends(oauth2_scheme)]) -> str:
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="Invalid token", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
'''

ROUTES = '''

@app.get("/public")
def public():
    return {"public": True}


@app.get("/me")
def me(user: Annotated[str, Depends(current_user)]):
    return {"user": user}


client = TestClient(app)
result = []
for headers in [{}, {"Authorization": "Bearer t-ada"}, {"Authorization": "Bearer nope"}]:
    r = client.get("/me", headers=headers)
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
        _row(client.get("/me", headers={"Authorization": "Basic dDphZGE="})),
        _row(client.get("/me", headers={"Authorization": "t-ada"})),
    ]


def probe_lowercase_scheme(client):
    return [_row(client.get("/me", headers={"Authorization": "bearer t-bob"}))]


def probe_public_with_bad_token(client):
    return [_row(client.get("/public", headers={"Authorization": "Bearer nope"}))]
'''

# The pre-0.122 convention (and many tutorials): a missing token is a 403 without a challenge.
TRAP_403_BY_HAND = HEAD + '''\
def current_user(authorization: Annotated[str | None, Header()] = None) -> str:
    scheme, _, token = (authorization or "").partition(" ")
    if not authorization or scheme.lower() != "bearer":
        raise HTTPException(status_code=403, detail="Not authenticated")
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="Invalid token", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
''' + ROUTES

TRAP_NO_CHALLENGE_ON_BAD_TOKEN = REFERENCE.replace(
    'raise HTTPException(status_code=401, detail="Invalid token", headers={"WWW-Authenticate": "Bearer"})',
    'raise HTTPException(status_code=401, detail="Invalid token")',
)

TRAP_PREFIX_STRIP = HEAD + '''\
def current_user(authorization: Annotated[str | None, Header()] = None) -> str:
    if not authorization:
        raise HTTPException(status_code=401, detail="Not authenticated", headers={"WWW-Authenticate": "Bearer"})
    token = authorization.removeprefix("Bearer ")
    if token not in TOKENS:
        raise HTTPException(status_code=401, detail="Invalid token", headers={"WWW-Authenticate": "Bearer"})
    return TOKENS[token]
''' + ROUTES

TASK = Task(
    id="security/missing_bearer_401",
    title="Missing bearer credentials: 401 with WWW-Authenticate: Bearer",
    category="security",
    difficulty="easy",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "hand-rolled check answering 403 for missing credentials": TRAP_403_BY_HAND,
        "invalid token rejected without WWW-Authenticate": TRAP_NO_CHALLENGE_ON_BAD_TOKEN,
        "token taken with removeprefix('Bearer ')": TRAP_PREFIX_STRIP,
    },
    expected_rows=[
        [401, "Bearer", {"detail": "Not authenticated"}],
        [200, None, {"user": "ada"}],
        [401, "Bearer", {"detail": "Invalid token"}],
        [200, None, {"public": True}],
    ],
)
