from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build a small admin API protected by HTTP Basic authentication, declared with FastAPI's
`HTTPBasic` security scheme (`fastapi.security`), which reads and decodes the
`Authorization: Basic <base64 of username:password>` header itself.

Accounts (module level): `USERS = {"${u1}": "${p1}", "${u2}": "${p2}"}` (username -> password).
Usernames and passwords are compared exactly (case-sensitive, no trimming). A password may
itself contain `:`; the username is everything before the first `:` of the decoded pair, the
password everything after it.

Both schemes below announce the realm `${realm}`, so every challenge this API sends is exactly
`WWW-Authenticate: Basic realm="${realm}"`.

Routes:

- `GET /admin` requires credentials and returns `{"user": <username>, "role": <role>}` where the
  role is `"${role1}"` for `${u1}` and `"${role2}"` for `${u2}`.
  - No `Authorization` header, a header with another scheme (e.g. `Bearer ...`), or a `Basic`
    value that is not the base64 of an ASCII `username:password` pair: 401, JSON body
    `{"detail": "Not authenticated"}`, with the challenge header (FastAPI's `HTTPBasic` answers
    this itself).
  - A decodable pair whose username is not in `USERS`, or whose password is not that user's
    password (another user's password included): 401, JSON body `{"detail": "${bad}"}`, with the
    same challenge header.
- `GET /whoami` works with or without credentials. Without an `Authorization` header, or with
  one of another scheme, it returns `{"user": null}`; with correct credentials
  `{"user": <username>}`. Wrong credentials are the same 401 `${bad}` as above, and a `Basic`
  value that cannot be decoded is the same 401 `Not authenticated` as above (both with the
  challenge header).

Then make these requests with `fastapi.testclient.TestClient` and fill `result` with one row per
request, in this order. Pass credentials as `auth=(username, password)`
(`client.get(url, auth=...)`, which sends the `Authorization: Basic` header). Each row is
`[status code (integer), the value of the WWW-Authenticate response header (string, or null if
absent), JSON body (object)]`:

1. `GET /admin` with no credentials
2. `GET /admin` with `auth=("${u1}", "${p1}")`
3. `GET /admin` with `auth=("${u1}", "${p1}x")`
4. `GET /whoami` with no credentials
5. `GET /whoami` with `auth=("${u2}", "${p2}")`
'''

HEAD = '''\
import secrets
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException
from fastapi.security import HTTPBasic, HTTPBasicCredentials
from fastapi.testclient import TestClient

USERS = {"${u1}": "${p1}", "${u2}": "${p2}"}
ROLES = {"${u1}": "${role1}", "${u2}": "${role2}"}
CHALLENGE = {"WWW-Authenticate": 'Basic realm="${realm}"'}

app = FastAPI()
'''

SCHEMES = '''
basic = HTTPBasic(realm="${realm}")
optional_basic = HTTPBasic(realm="${realm}", auto_error=False)
'''

CHECK = '''

def check(credentials: HTTPBasicCredentials) -> str:
    stored = USERS.get(credentials.username)
    # compare_digest on both sides: the time taken does not tell which part was wrong
    if stored is None or not secrets.compare_digest(credentials.password.encode(), stored.encode()):
        raise HTTPException(status_code=401, detail="${bad}", headers=CHALLENGE)
    return credentials.username
'''

ROUTES = '''

@app.get("/admin")
def admin(credentials: Annotated[HTTPBasicCredentials, Depends(basic)]):
    user = check(credentials)
    return {"user": user, "role": ROLES[user]}


@app.get("/whoami")
def whoami(credentials: Annotated[HTTPBasicCredentials | None, Depends(optional_basic)]):
    if credentials is None:
        return {"user": None}
    return {"user": check(credentials)}
'''

TAIL = '''

client = TestClient(app)
result = []
for url, auth in [
    ("/admin", None),
    ("/admin", ("${u1}", "${p1}")),
    ("/admin", ("${u1}", "${p1}x")),
    ("/whoami", None),
    ("/whoami", ("${u2}", "${p2}")),
]:
    r = client.get(url, auth=auth)
    result.append([r.status_code, r.headers.get("www-authenticate"), r.json()])
'''

REFERENCE = HEAD + SCHEMES + CHECK + ROUTES + TAIL

PROBES = '''\
import base64


def _row(r):
    return [r.status_code, r.headers.get("www-authenticate"), r.json()]


def _basic(raw):
    return {"Authorization": "Basic " + base64.b64encode(raw.encode()).decode()}


def probe_missing_or_unusable_credentials(client):
    rows = []
    for headers in [{"Authorization": "Bearer ${p1}"}, {"Authorization": "Basic %%%"},
                    _basic("${u1}"), {"Authorization": "Basic"}]:
        rows.append(_row(client.get("/admin", headers=headers)))
    return rows


def probe_wrong_credentials(client):
    rows = []
    for auth in [("${u1}", "${p2}"), ("${u2}", "${p1}"), ("${u1_upper}", "${p1}"),
                 ("nobody", "${p1}"), ("${u1}", ""), ("${u1}", " ${p1}"), ("${p1}", "${u1}")]:
        rows.append(_row(client.get("/admin", auth=auth)))
    return rows


def probe_password_with_colon(client):
    return [
        _row(client.get("/admin", auth=("${u2}", "${p2}"))),
        _row(client.get("/admin", headers=_basic("${u2}:${p2_head}"))),
        _row(client.get("/whoami", headers=_basic("${u2}:${p2}"))),
    ]


def probe_optional_route(client):
    rows = []
    for headers in [{"Authorization": "Bearer ${p1}"}, {"Authorization": "Basic %%%"},
                    _basic("${u2}")]:
        rows.append(_row(client.get("/whoami", headers=headers)))
    for auth in [("${u1}", "${p1}"), ("${u1}", "${p2}"), ("ghost", "${p2}")]:
        rows.append(_row(client.get("/whoami", auth=auth)))
    return rows
'''

_CHECK_ANY_PASSWORD = '''\
    stored = USERS.get(credentials.username)
    # compare_digest on both sides: the time taken does not tell which part was wrong
    if stored is None or credentials.password not in USERS.values():
'''

FAMILY = Family(
    id="security/http_basic_realm",
    title="HTTP Basic: realm challenge, wrong user vs password, colons in passwords, optional auth",
    category="security",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"realm": "admin", "u1": "ada", "p1": "hunter2", "u2": "bob", "p2": "pa:ss:word",
              "role1": "owner", "role2": "auditor", "bad": "Incorrect username or password"},
    space={
        "realm": ["admin", "ops console", "vault"],
        "u1": [{"u1": "ada", "p1": "hunter2", "u2": "bob", "p2": "pa:ss:word"},
               {"u1": "root", "p1": "t0ps3cret", "u2": "carol", "p2": "c:arol"},
               {"u1": "mia", "p1": "Correct-Horse", "u2": "li", "p2": "::li::"}],
        "role1": [{"role1": "owner", "role2": "auditor"}, {"role1": "admin", "role2": "viewer"}],
        "bad": ["Incorrect username or password", "Invalid credentials", "Bad login"],
    },
    derive=lambda p: {"u1_upper": p["u1"].upper(), "p2_head": p["p2"].split(":")[0]},
    instances=54,
    requirements=(
        Requirement(
            "A missing, non-Basic or undecodable `Authorization` on `/admin` is 401 `Not "
            "authenticated` with `WWW-Authenticate: Basic realm=\"${realm}\"`.",
            probes=("missing_or_unusable_credentials",),
            traps=(Edit("HTTPBasic without the realm", 'basic = HTTPBasic(realm="${realm}")',
                        "basic = HTTPBasic()"),),
        ),
        Requirement(
            "Only the exact pair of `USERS` passes: an unknown user, a wrong password, another "
            "user's password or a differently cased username is 401 `${bad}` with the challenge.",
            probes=("wrong_credentials",),
            traps=(Edit("unknown user looked up with [] (500)",
                        "stored = USERS.get(credentials.username)",
                        "stored = USERS[credentials.username]"),
                   Edit("any user's password accepted", '''\
    stored = USERS.get(credentials.username)
    # compare_digest on both sides: the time taken does not tell which part was wrong
    if stored is None or not secrets.compare_digest(credentials.password.encode(), stored.encode()):
''', _CHECK_ANY_PASSWORD),
                   Edit("usernames compared case-insensitively",
                        "stored = USERS.get(credentials.username)",
                        "stored = USERS.get(credentials.username.lower())"),
                   Edit("wrong credentials answered without the challenge header",
                        'raise HTTPException(status_code=401, detail="${bad}", headers=CHALLENGE)',
                        'raise HTTPException(status_code=401, detail="${bad}")'),
                   Edit("wrong credentials answered 403",
                        'raise HTTPException(status_code=401, detail="${bad}", headers=CHALLENGE)',
                        'raise HTTPException(status_code=403, detail="${bad}")')),
        ),
        Requirement(
            "The password is everything after the first `:` of the decoded pair (`${u2}`'s "
            "password `${p2}` works, its part before a colon does not).",
            probes=("password_with_colon",),
            traps=(Edit("password cut at its first colon",
                        "credentials.password.encode(), stored.encode()",
                        'credentials.password.split(":")[0].encode(), '
                        'stored.split(":")[0].encode()'),),
        ),
        Requirement(
            "`/whoami` answers `{\"user\": null}` without credentials or with another scheme, the "
            "user with correct ones, and the same two 401s for wrong or undecodable Basic "
            "credentials.",
            probes=("optional_route",),
            traps=(Edit("optional route uses the required scheme",
                        "Depends(optional_basic)", "Depends(basic)"),
                   Edit("wrong credentials on /whoami treated as anonymous",
                        '''\
    if credentials is None:
        return {"user": None}
    return {"user": check(credentials)}''',
                        '''\
    if credentials is None or USERS.get(credentials.username) != credentials.password:
        return {"user": None}
    return {"user": check(credentials)}''')),
        ),
    ),
    expected_rows=[
        [401, 'Basic realm="admin"', {"detail": "Not authenticated"}],
        [200, None, {"user": "ada", "role": "owner"}],
        [401, 'Basic realm="admin"', {"detail": "Incorrect username or password"}],
        [200, None, {"user": None}],
        [200, None, {"user": "bob"}],
    ],
)
