from fastapi_env.tasks import Edit, Family, Requirement

_PROMPT = '''Build an ${res} API secured with the OAuth2 password flow and OAuth2 scopes, using FastAPI's
`OAuth2PasswordBearer` (with `tokenUrl="${turl}"` and the scopes `{"${res}:read": "Read ${res}",
"${res}:write": "Create ${res}"}`), `OAuth2PasswordRequestForm` and `Security(..., scopes=[...])`.

Users (module level):

    USERS = {
        "${u1}": {"password": "${p1}", "scopes": ["${res}:read", "${res}:write"]},
        "${u2}": {"password": "${p2}", "scopes": ["${res}:read"]},
    }

**`POST /${turl}`** reads an OAuth2 password request as an HTML form
(`application/x-www-form-urlencoded` fields `username`, `password` and an optional `scope`
holding space-separated scope names). A JSON body is not accepted: it fails FastAPI's validation
(422, the form fields are missing).

- Unknown user or wrong password: 400 with `{"detail": "Incorrect username or password"}`.
- Otherwise the granted scopes are the requested scopes that the user is allowed to have, in the
  order they were requested (requested scopes the user does not have are silently dropped; no
  `scope` field means no scopes). The access token is the string
  `"<username>|<granted scopes joined with ','>"` (e.g. `"${u2}|${res}:read"`, or `"${u1}|"` with no
  scopes). The server remembers every token it issued with its user and granted scopes; only
  issued tokens are valid. The response is `{"access_token": <token>, "token_type": "bearer",
  "scope": <granted scopes joined with a single space>}`.

**Protected routes** take the token from `Authorization: Bearer <token>`:

- `GET /me` (no scope required) returns `{"user": <username>, "scopes": <granted scopes list>}`.
- `GET /${res}` requires the scope `${res}:read` and returns `{"user": <username>, "${res}": ["${i1}", "${i2}"]}`.
- `POST /${res}` requires the scope `${res}:write`, takes a JSON body `{"name": <string>}` and
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

1. `POST /${turl}` with form data `username=${u2}`, `password=${p2}`, `scope="${res}:read ${res}:write"`:
   `[status code (integer), JSON body (object)]`
2. `POST /${turl}` with the JSON body `{"username": "${u2}", "password": "${p2}"}`:
   `[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`
3. `POST /${turl}` with form data `username=${u2}`, `password=wrong`: `[status code (integer), JSON body (object)]`
4. `GET /${res}` with `Authorization: Bearer <the access_token from request 1>`: `[status code
   (integer), WWW-Authenticate header (string or null), JSON body (object)]`
5. `POST /${res}` with the same token and JSON `{"name": "${newname}"}`: same row shape as 4
6. `GET /${res}` with no `Authorization` header: same row shape as 4
7. From `GET /openapi.json`: `[components["securitySchemes"] (object),
   paths["/${res}"]["post"]["security"] (list), paths["/me"]["get"]["security"] (list)]`
'''

_HEAD = '''from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException, Security
from fastapi.security import OAuth2PasswordBearer, OAuth2PasswordRequestForm, SecurityScopes
from fastapi.testclient import TestClient
from pydantic import BaseModel

USERS = {
    "${u1}": {"password": "${p1}", "scopes": ["${res}:read", "${res}:write"]},
    "${u2}": {"password": "${p2}", "scopes": ["${res}:read"]},
}
ISSUED: dict[str, tuple[str, list[str]]] = {}

oauth2_scheme = OAuth2PasswordBearer(
    tokenUrl="${turl}", scopes={"${res}:read": "Read ${res}", "${res}:write": "Create ${res}"}
)

app = FastAPI()


class NewItem(BaseModel):
    name: str

'''

_TOKEN_ROUTE = '''

@app.post("/${turl}")
def login(form: Annotated[OAuth2PasswordRequestForm, Depends()]):
    user = USERS.get(form.username)
    if user is None or user["password"] != form.password:
        raise HTTPException(status_code=400, detail="Incorrect username or password")
    granted = [s for s in form.scopes if s in user["scopes"]]
    token = f"{form.username}|{','.join(granted)}"
    ISSUED[token] = (form.username, granted)
    return {"access_token": token, "token_type": "bearer", "scope": " ".join(granted)}
'''

_CURRENT_USER = '''

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

_ROUTES = '''

@app.get("/me")
def me(user: Annotated[dict, Security(current_user)]):
    return {"user": user["user"], "scopes": user["scopes"]}


@app.get("/${res}")
def list_${res}(user: Annotated[dict, Security(current_user, scopes=["${res}:read"])]):
    return {"user": user["user"], "${res}": ["${i1}", "${i2}"]}


@app.post("/${res}", status_code=201)
def create_item(item: NewItem, user: Annotated[dict, Security(current_user, scopes=["${res}:write"])]):
    return {"user": user["user"], "created": item.name}
'''

_TAIL = '''

client = TestClient(app)
result = []
r = client.post("/${turl}", data={"username": "${u2}", "password": "${p2}", "scope": "${res}:read ${res}:write"})
result.append([r.status_code, r.json()])
token = r.json().get("access_token") if r.status_code == 200 else None
r = client.post("/${turl}", json={"username": "${u2}", "password": "${p2}"})
detail = r.json().get("detail") or [{}]
result.append([r.status_code, detail[0].get("type"), detail[0].get("loc")])
r = client.post("/${turl}", data={"username": "${u2}", "password": "wrong"})
result.append([r.status_code, r.json()])
auth = {"Authorization": f"Bearer {token}"}
for r in [client.get("/${res}", headers=auth), client.post("/${res}", headers=auth, json={"name": "${newname}"}),
          client.get("/${res}")]:
    result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
spec = client.get("/openapi.json").json()
result.append([spec["components"]["securitySchemes"], spec["paths"]["/${res}"]["post"]["security"],
               spec["paths"]["/me"]["get"]["security"]])
'''

_PROBES = '''def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.json()]


def _token(client, username, password, scope=None):
    data = {"username": username, "password": password}
    if scope is not None:
        data["scope"] = scope
    r = client.post("/${turl}", data=data)
    return r.status_code, r.json()


def probe_ada_full_access(client):
    status, body = _token(client, "${u1}", "${p1}", "${res}:write ${res}:read")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    return [
        [status, body],
        _row(client.post("/${res}", headers=auth, json={"name": "${i2}"})),
        _row(client.get("/me", headers=auth)),
    ]


def probe_ada_narrow_token(client):
    status, body = _token(client, "${u1}", "${p1}", "${res}:read")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    return [[status, body], _row(client.post("/${res}", headers=auth, json={"name": "${i2}"}))]


def probe_no_scope_requested(client):
    status, body = _token(client, "${u1}", "${p1}")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    return [[status, body], _row(client.get("/me", headers=auth)), _row(client.get("/${res}", headers=auth))]


def probe_forged_tokens(client):
    forged = {"Authorization": "Bearer eve|${res}:write"}
    return [
        _row(client.post("/${res}", headers=forged, json={"name": "x"})),
        _row(client.get("/me", headers=forged)),
        _row(client.get("/me")),
    ]


def probe_unknown_user(client):
    return [list(_token(client, "eve", "${p1}", "${res}:read"))]


def probe_documented_flow(client):
    spec = client.get("/openapi.json").json()
    token_op = spec["paths"]["/${turl}"]["post"]
    return [[sorted(token_op["requestBody"]["content"]), spec["paths"]["/${res}"]["get"]["security"],
             "security" in token_op]]


def probe_scope_order_and_dropped_scopes(client):
    rows = [list(_token(client, "${u1}", "${p1}", "${res}:write ${res}:read"))]
    rows.append(list(_token(client, "${u2}", "${p2}", "${res}:write")))
    rows.append(list(_token(client, "${u2}", "${p2}", "${res}:read admin ${res}:read")))
    status, body = _token(client, "${u2}", "${p2}", "${res}:write")
    auth = {"Authorization": "Bearer " + body["access_token"]}
    rows.append(_row(client.get("/${res}", headers=auth)))
    rows.append(_row(client.get("/me", headers=auth)))
    return rows


def probe_forged_tokens_for_real_users(client):
    rows = []
    # none of these was ever issued (the earlier probes issued others for the same users)
    for token in ["${u1}|${res}:read,${res}:write", "${u2}|${res}:write", "${u1}|${res}:write",
                  "${u2}|${res}:read "]:
        auth = {"Authorization": "Bearer " + token}
        rows.append([token, _row(client.get("/${res}", headers=auth)), _row(client.get("/me", headers=auth))])
    return rows


def probe_wrong_passwords(client):
    return [list(_token(client, "${u1}", "${p1_cap}", "${res}:read")),
            list(_token(client, "${u1}", "${p2}", "${res}:read")),
            list(_token(client, "${u1_cap}", "${p1}", "${res}:read"))]
'''


_REFERENCE = _HEAD + _TOKEN_ROUTE + _CURRENT_USER + _ROUTES + _TAIL

_SCOPE_CHECK = """\
    for scope in security_scopes.scopes:
        if scope not in granted:
            raise HTTPException(status_code=401, detail="Not enough permissions",
                                headers={"WWW-Authenticate": challenge})
"""

_CHALLENGE = """\
    if security_scopes.scopes:
        challenge = f'Bearer scope="{security_scopes.scope_str}"'
    else:
        challenge = "Bearer"
"""

_REGISTRY = """\
    if token not in ISSUED:
        raise HTTPException(status_code=401, detail="Could not validate credentials",
                            headers={"WWW-Authenticate": challenge})
    username, granted = ISSUED[token]
"""

_JSON_LOGIN = """

class Login(BaseModel):
    username: str
    password: str
    scope: str = ""


@app.post("/${turl}")
def login(form: Login):
    user = USERS.get(form.username)
    if user is None or user["password"] != form.password:
        raise HTTPException(status_code=400, detail="Incorrect username or password")
    granted = [s for s in form.scope.split() if s in user["scopes"]]
    token = f"{form.username}|{','.join(granted)}"
    ISSUED[token] = (form.username, granted)
    return {"access_token": token, "token_type": "bearer", "scope": " ".join(granted)}
"""

_GRANTED = 'granted = [s for s in form.scopes if s in user["scopes"]]'

FAMILY = Family(
    id="security/oauth2_password_scopes",
    title="OAuth2 password flow: form token endpoint, scopes enforced with SecurityScopes",
    category="security",
    difficulty="hard",
    prompt=_PROMPT,
    reference=_REFERENCE,
    probes=_PROBES,
    original={"u1": "ada", "p1": "lovelace", "u2": "bob", "p2": "builder", "res": "items",
              "i1": "lamp", "i2": "desk", "newname": "chair", "turl": "token"},
    space={
        "users": [{"u1": "ada", "p1": "lovelace", "u2": "bob", "p2": "builder"},
                  {"u1": "grace", "p1": "cobol59", "u2": "linus", "p2": "penguin"},
                  {"u1": "root", "p1": "toor", "u2": "guest", "p2": "guest"}],
        "resource": [{"res": "items", "i1": "lamp", "i2": "desk", "newname": "chair"},
                     {"res": "orders", "i1": "o-1", "i2": "o-2", "newname": "o-3"},
                     {"res": "assets", "i1": "laptop", "i2": "phone", "newname": "tablet"}],
        "turl": ["token", "auth/token"],
    },
    derive=lambda p: {"p1_cap": p["p1"].capitalize(), "u1_cap": p["u1"].capitalize()},
    instances=18,
    requirements=(
        Requirement(
            "`POST /${turl}` reads an OAuth2 password form (a JSON body is FastAPI's 422); an "
            "unknown user or a wrong password (exact, case-sensitive) is 400.",
            probes=("unknown_user", "wrong_passwords", "documented_flow"),
            traps=(Edit("JSON login model on the token URL", _TOKEN_ROUTE, _JSON_LOGIN),),
        ),
        Requirement(
            "Granted scopes are the requested ones the user may have, in request order; the "
            "token and `scope` show them.",
            probes=("scope_order_and_dropped_scopes", "ada_full_access", "ada_narrow_token", "no_scope_requested"),
            traps=(
                Edit("all user scopes granted regardless of the request", _GRANTED,
                     'granted = list(user["scopes"])'),
                Edit("granted scopes sorted", _GRANTED,
                     'granted = sorted(s for s in form.scopes if s in user["scopes"])'),
            ),
        ),
        Requirement(
            "Only tokens the server issued are valid: a token forged for a real user (even in the "
            'issued format) is 401 "Could not validate credentials".',
            probes=("forged_tokens", "forged_tokens_for_real_users"),
            traps=(Edit("token parsed instead of looked up", _REGISTRY,
                        '    username, _, scopes = token.partition("|")\n'
                        "    if username not in USERS:\n"
                        '        raise HTTPException(status_code=401, detail="Could not validate credentials",\n'
                        '                            headers={"WWW-Authenticate": challenge})\n'
                        '    granted = [s for s in scopes.split(",") if s]\n'),),
            security=True,
        ),
        Requirement(
            "Each route's required scope is enforced: a valid token lacking it is 401 "
            '"Not enough permissions" (not 403).',
            probes=("ada_narrow_token", "scope_order_and_dropped_scopes", "no_scope_requested"),
            traps=(
                Edit("scopes declared but never checked", _SCOPE_CHECK, ""),
                Edit("missing permission answered 403", _SCOPE_CHECK, _SCOPE_CHECK.replace(
                    'status_code=401, detail="Not enough permissions",\n'
                    '                                headers={"WWW-Authenticate": challenge})',
                    'status_code=403, detail="Not enough permissions")')),
            ),
            security=True,
        ),
        Requirement(
            'The 401s carry `WWW-Authenticate: Bearer scope="<required scopes>"` on scoped routes '
            "and plain `Bearer` elsewhere; no token is \"Not authenticated\".",
            probes=("forged_tokens", "ada_narrow_token"),
            traps=(Edit("challenge without scope=\"...\"", _CHALLENGE, '    challenge = "Bearer"\n'),),
        ),
    ),
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
