from fastapi_env.tasks import Task

PROMPT = '''\
Build an items API secured with the OAuth2 password flow and OAuth2 scopes, using FastAPI's
`OAuth2PasswordBearer` (with `tokenUrl="token"` and the scopes `{"items:read": "Read items",
"items:write": "Create items"}`), `OAuth2PasswordRequestForm` and `Security(..., scopes=[...])`.

Users (module level):

    USERS = {
        "ada": {"password": "lovelace", "scopes": ["items:read", "items:write"]},
        "bob": {"password": "builder", "scopes": ["items:read"]},
    }

**`POST /token`** reads an OAuth2 password request as an HTML form
(`application/x-www-form-urlencoded` fields `username`, `password` and an optional `scope`
holding space-separated scope names). A JSON body is not accepted: it fails FastAPI's validation
(422, the form fields are missing).

- Unknown user or wrong password: 400 with `{"detail": "Incorrect username or password"}`.
- Otherwise the granted scopes are the requested scopes that the user is allowed to have, in the
  order they were requested (requested scopes the user does not have are silently dropped; no
  `scope` field means no scopes). The access token is the string
  `"<username>|<granted scopes joined with ','>"` (e.g. `"bob|items:read"`, or `"ada|"` with no
  scopes). The server remembers every token it issued with its user and granted scopes; only
  issued tokens are valid. The response is `{"access_token": <token>, "token_type": "bearer",
  "scope": <granted scopes joined with a single space>}`.

**Protected routes** take the token from `Authorization: Bearer <token>`:

- `GET /me` (no scope required) returns `{"user": <username>, "scopes": <granted scopes list>}`.
- `GET /items` requires the scope `items:read` and returns `{"user": <username>, "items": ["lamp", "desk"]}`.
- `POST /items` requires the scope `items:write`, takes a JSON body `{"name": <string>}` and
  answers 201 with `{"user": <username>, "created": <name>}`.

Errors on protected routes (all 401):

- No bearer token: `{"detail": "Not authenticated"}` with `WWW-Authenticate: Bearer`.
- A token that was never issued: `{"detail": "Could not validate credentials"}`.
- A valid token lacking a scope the route requires: `{"detail": "Not enough permissions"}`.

For the last two, the `WWW-Authenticate` header is `Bearer scope="<the route's required scopes
joined with a space>"` when the route requires scopes, and just `Bearer` when it requires none.

In `/openapi.json`, `components["securitySchemes"]["OAuth2PasswordBearer"]` documents the
password flow with that `tokenUrl` and those scopes, and each protected operation's `security` is
`[{"OAuth2PasswordBearer": [<its required scopes>]}]`.

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
item, in this order:

1. `POST /token` with form data `username=bob`, `password=builder`, `scope="items:read items:write"`:
   `[status code (integer), JSON body (object)]`
2. `POST /token` with the JSON body `{"username": "bob", "password": "builder"}`:
   `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`
3. `POST /token` with form data `username=bob`, `password=wrong`: `[status code (integer), JSON body (object)]`
4. `GET /items` with `Authorization: Bearer <the access_token from request 1>`: `[status code
   (integer), WWW-Authenticate header (string or null), JSON body (object)]`
5. `POST /items` with the same token and JSON `{"name": "chair"}`: same row shape as 4
6. `GET /items` with no `Authorization` header: same row shape as 4
7. From `GET /openapi.json`: `[components["securitySchemes"] (object),
   paths["/items"]["post"]["security"] (list), paths["/me"]["get"]["security"] (list)]`
'''

HEAD = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Security
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm, SecurityScopes
from fastapi.testclient import TestClient
from pydantic import BaseModel

USERS = {
    "ada": {"password": "lovelace", "scopes": ["items:read", "items:write"]},
    "bob": {"password": "builder", "scopes": ["items:read"]},
}
ISSUED: dict[str, tuple[str, list[str]]] = {}

oauth2_scheme = OAuth2PasswordBearer(
    tokenUrl="token", scopes={"items:read": "Read items", "items:write": "Create items"}
)

app = FastAPI()


class NewItem(BaseModel):
    name: str

'''

TOKEN_ROUTE = '''

@app.post("/token")
def login(form: Annotated[OAuth2PasswordRequestForm, Depends()]):
    user = USERS.get(form.username)
    if user is None or user["password"] != form.password:
        raise HTTPException(status_code=400, detail="Incorrect username or password")
    granted = [s for s in form.scopes if s in user["scopes"]]
    token = f"{form.username}|{','.join(granted)}"
    ISSUED[token] = (form.username, granted)
    return {"access_token": token, "token_type": "bearer", "scope": " ".join(granted)}
'''

CURRENT_USER = '''

def current_user(security_scopes: SecurityScopes, token: Annotated[str, Depends(oauth2_scheme)]):
    if security_scopes.scopes:
        challenge = f'Bearer scope="{security_scopes.scope_str}"'
    else:
        challenge = "Bearer"
    if token not in ISSUED:
        raise HTTPException(status_code=401, detail="Could not validate credentials",
                            headers={"WWW-Authenticate": challenge})
    username, granted = ISSUED[token]
    for scope in security_scopes.scopes:
        if scope not in granted:
            raise HTTPException(status_code=401, detail="Not enough permissions",
                                headers={"WWW-Authenticate": challenge})
    return {"user": username, "scopes": granted}
'''

ROUTES = '''

@app.get("/me")
def me(user: Annotated[dict, Security(current_user)]):
    return {"user": user["user"], "scopes": user["scopes"]}


@app.get("/items")
def list_items(user: Annotated[dict, Security(current_user, scopes=["items:read"])]):
    return {"user": user["user"], "items": ["lamp", "desk"]}


@app.post("/items", status_code=201)
def create_item(item: NewItem, user: Annotated[dict, Security(current_user, scopes=["items:write"])]):
    return {"user": user["user"], "created": item.name}
'''

TAIL = '''

client = TestClient(app)
result = []
r = client.post("/token", data={"username": "bob", "password": "builder", "scope": "items:read items:write"})
result.append([r.status_code, r.json()])
token = r.json().get("access_token")
r = client.post("/token", json={"username": "bob", "password": "builder"})
body = r.json()
result.append([r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]])
r = client.post("/token", data={"username": "bob", "password": "wrong"})
result.append([r.status_code, r.json()])
auth = {"Authorization": f"Bearer {token}"}
for r in [client.get("/items", headers=auth), client.post("/items", headers=auth, json={"name": "chair"}),
          client.get("/items")]:
    result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
spec = client.get("/openapi.json").json()
result.append([spec["components"]["securitySchemes"], spec["paths"]["/items"]["post"]["security"],
               spec["paths"]["/me"]["get"]["security"]])
'''

REFERENCE = HEAD + TOKEN_ROUTE + CURRENT_USER + ROUTES + TAIL

PROBES = '''\
def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.json()]


def _token(client, username, password, scope=None):
    data = {"username": username, "password": password}
    if scope is not None:
        data["scope"] = scope
    r = client.post("/token", data=data)
    return r.status_code, r.json()


def probe_ada_full_access(client):
    status, body = _token(client, "ada", "lovelace", "items:write items:read")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    return [
        [status, body],
        _row(client.post("/items", headers=auth, json={"name": "desk"})),
        _row(client.get("/me", headers=auth)),
    ]


def probe_ada_narrow_token(client):
    status, body = _token(client, "ada", "lovelace", "items:read")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    return [[status, body], _row(client.post("/items", headers=auth, json={"name": "desk"}))]


def probe_no_scope_requested(client):
    status, body = _token(client, "ada", "lovelace")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    return [[status, body], _row(client.get("/me", headers=auth)), _row(client.get("/items", headers=auth))]


def probe_forged_tokens(client):
    forged = {"Authorization": "Bearer eve|items:write"}
    return [
        _row(client.post("/items", headers=forged, json={"name": "x"})),
        _row(client.get("/me", headers=forged)),
        _row(client.get("/me")),
    ]


def probe_unknown_user(client):
    return [list(_token(client, "eve", "lovelace", "items:read"))]


def probe_documented_flow(client):
    spec = client.get("/openapi.json").json()
    token_op = spec["paths"]["/token"]["post"]
    return [[sorted(token_op["requestBody"]["content"]), spec["paths"]["/items"]["get"]["security"],
             "security" in token_op]]
'''

# A JSON login model on the token URL (what Swagger's Authorize button cannot send).
TRAP_JSON_LOGIN = HEAD + '''

class Login(BaseModel):
    username: str
    password: str
    scope: str = ""


@app.post("/token")
def login(form: Login):
    user = USERS.get(form.username)
    if user is None or user["password"] != form.password:
        raise HTTPException(status_code=400, detail="Incorrect username or password")
    granted = [s for s in form.scope.split() if s in user["scopes"]]
    token = f"{form.username}|{','.join(granted)}"
    ISSUED[token] = (form.username, granted)
    return {"access_token": token, "token_type": "bearer", "scope": " ".join(granted)}
''' + CURRENT_USER + ROUTES + TAIL.replace(
    '''r = client.post("/token", data={"username": "bob", "password": "builder", "scope": "items:read items:write"})''',
    '''r = client.post("/token", json={"username": "bob", "password": "builder", "scope": "items:read items:write"})''',
).replace(
    '''r = client.post("/token", json={"username": "bob", "password": "builder"})
body = r.json()
result.append([r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]])''',
    '''r = client.post("/token", json={"username": "bob", "password": "builder"})
result.append([r.status_code, None, None])''',
)

# Scopes are declared (and documented) but never compared with the token's scopes.
TRAP_SCOPES_NOT_ENFORCED = REFERENCE.replace('''    for scope in security_scopes.scopes:
        if scope not in granted:
            raise HTTPException(status_code=401, detail="Not enough permissions",
                                headers={"WWW-Authenticate": challenge})
''', "")

# Plain "Bearer" challenge everywhere (the scope parameter of the challenge is left out).
TRAP_PLAIN_CHALLENGE = REFERENCE.replace('''    if security_scopes.scopes:
        challenge = f'Bearer scope="{security_scopes.scope_str}"'
    else:
        challenge = "Bearer"''', '''    challenge = "Bearer"''')

# Ignores the requested scopes and grants everything the user may have.
TRAP_GRANT_ALL = REFERENCE.replace(
    'granted = [s for s in form.scopes if s in user["scopes"]]', 'granted = list(user["scopes"])'
)

# 403 for missing permissions (a common convention, but the spec says 401 + challenge).
TRAP_403_PERMISSIONS = REFERENCE.replace('''            raise HTTPException(status_code=401, detail="Not enough permissions",
                                headers={"WWW-Authenticate": challenge})''', '''            raise HTTPException(status_code=403, detail="Not enough permissions")''')

TASK = Task(
    id="security/oauth2_password_scopes",
    title="OAuth2 password flow: form token endpoint, scopes enforced with SecurityScopes",
    category="security",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    traps={
        "JSON login model on /token": TRAP_JSON_LOGIN,
        "scopes declared but never checked": TRAP_SCOPES_NOT_ENFORCED,
        "challenge without scope=\"...\"": TRAP_PLAIN_CHALLENGE,
        "all user scopes granted regardless of the request": TRAP_GRANT_ALL,
        "missing permission answered 403": TRAP_403_PERMISSIONS,
    },
    expected_rows=[
        [200, {"access_token": "bob|items:read", "token_type": "bearer", "scope": "items:read"}],
        [422, "missing", ["body", "username"]],
        [400, {"detail": "Incorrect username or password"}],
        [200, None, {"user": "bob", "items": ["lamp", "desk"]}],
        [401, 'Bearer scope="items:write"', {"detail": "Not enough permissions"}],
        [401, "Bearer", {"detail": "Not authenticated"}],
        [
            {"OAuth2PasswordBearer": {"type": "oauth2", "flows": {"password": {
                "scopes": {"items:read": "Read items", "items:write": "Create items"},
                "tokenUrl": "token"}}}},
            [{"OAuth2PasswordBearer": ["items:write"]}],
            [{"OAuth2PasswordBearer": []}],
        ],
    ],
)
