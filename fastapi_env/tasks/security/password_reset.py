"""Security tier: HMAC-signed session tokens and single-use password-reset codes, with expiry
by a stated counter; hidden probes try malformed, forged, re-signed, expired and wrong-kind
tokens, reused, superseded, expired and brute-forced codes, a code used for another user, old
sessions after a reset, user enumeration and oversized inputs."""

from fastapi_env.tasks import Edit, Family, Requirement

REFERENCE = '''\
import hashlib
import hmac
import re
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

SECRET = b"${secret}"
USERS = {"${u1}": "${p1}", "${u2}": "${p2}"}
SESSION_TTL = ${session_ttl}
CODE_TTL = ${code_ttl}
MAX_ATTEMPTS = ${max_attempts}
CODE_LENGTH = ${code_len}
NUMBER = re.compile(r"[1-9][0-9]*")

counter = {"value": 0}  # the last number issued
codes: dict[str, dict] = {}  # user -> {"number", "wrong", "dead"}
sessions_valid_after: dict[str, int] = {}  # user -> the counter when their password changed

app = FastAPI()


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


class Login(BaseModel):
    username: str = Field(max_length=32)
    password: str = Field(max_length=64)


class ResetRequest(BaseModel):
    username: str = Field(max_length=32)


class ResetConfirm(BaseModel):
    username: str = Field(max_length=32)
    code: str = Field(max_length=64)
    new_password: str = Field(min_length=8, max_length=64)


def sign(message: str) -> str:
    return hmac.new(SECRET, message.encode(), hashlib.sha256).hexdigest()


def issue() -> int:
    counter["value"] += 1
    return counter["value"]


def fresh(number: int, ttl: int) -> bool:
    return number <= counter["value"] and counter["value"] - number <= ttl


def reset_code(user: str, number: int) -> str:
    return sign(f"reset.{user}.{number}")[:CODE_LENGTH]


def session_user(token: str) -> str | None:
    parts = token.split(".")
    if len(parts) != 4:
        return None
    kind, user, number, signature = parts
    if kind != "session" or user not in USERS or not NUMBER.fullmatch(number):
        return None
    expected = sign(f"session.{user}.{number}")
    if not hmac.compare_digest(signature.encode(), expected.encode()):
        return None
    issued = int(number)
    if not fresh(issued, SESSION_TTL) or issued <= sessions_valid_after.get(user, 0):
        return None
    return user


def caller(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, token = (authorization or "").partition(" ")
    user = session_user(token) if scheme == "Bearer" else None
    if user is None:
        raise HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})
    return {"user": user, "issued": int(token.split(".")[2])}


@app.post("/login")
def login(body: Login):
    if USERS.get(body.username) != body.password:
        raise HTTPException(401, "bad_credentials")
    message = f"session.{body.username}.{issue()}"
    return {"token": f"{message}.{sign(message)}"}


@app.get("/me")
def me(session: Annotated[dict, Depends(caller)]):
    return session


@app.post("/password-reset", status_code=202)
def request_reset(body: ResetRequest):
    if body.username in USERS:
        codes[body.username] = {"number": issue(), "wrong": 0, "dead": False}
    return {"status": "sent"}


@app.post("/password-reset/confirm")
def confirm_reset(body: ResetConfirm):
    entry = codes.get(body.username)
    if entry is None or entry["dead"] or not fresh(entry["number"], CODE_TTL):
        raise HTTPException(400, "invalid_code")
    expected = reset_code(body.username, entry["number"])
    if not hmac.compare_digest(body.code.encode(), expected.encode()):
        entry["wrong"] += 1
        entry["dead"] = entry["wrong"] >= MAX_ATTEMPTS
        raise HTTPException(400, "invalid_code")
    entry["dead"] = True
    USERS[body.username] = body.new_password
    sessions_valid_after[body.username] = counter["value"]
    return {"status": "changed"}


def row(r):
    return [r.status_code, r.json()]


client = TestClient(app)
first = client.post("/login", json={"username": "${u1}", "password": "${p1}"})
token = first.json()["token"]
code = hmac.new(SECRET, b"reset.${u2}.2", hashlib.sha256).hexdigest()[:CODE_LENGTH]
result = [
    row(first),
    row(client.get("/me", headers={"Authorization": f"Bearer {token}"})),
    row(client.post("/password-reset", json={"username": "${u2}"})),
    row(client.post("/password-reset/confirm",
                    json={"username": "${u2}", "code": code, "new_password": "${newpw}"})),
    row(client.post("/login", json={"username": "${u2}", "password": "${p2}"})),
]
'''

PROBES = '''\
import hashlib
import hmac

SECRET = b"${secret}"
PASSWORDS = {"${u1}": "${p1}", "${u2}": "${newpw}"}


def _sign(message, key=SECRET):
    return hmac.new(key, message.encode(), hashlib.sha256).hexdigest()


def _row(r):
    try:
        return [r.status_code, r.json()]
    except ValueError:
        return [r.status_code, r.text]


def _login(client, user):
    """A fresh session token of user and its number."""
    token = client.post("/login", json={"username": user, "password": PASSWORDS[user]}
                        ).json()["token"]
    return token, int(token.split(".")[2])


def _me(client, token):
    r = client.get("/me", headers={"Authorization": f"Bearer {token}"})
    return r.status_code


def _code(user, number):
    return _sign(f"reset.{user}.{number}")[:${code_len}]


def _request_code(client, user):
    """Request a reset code for user; its number is the next after a fresh login's."""
    _, number = _login(client, "${u1}" if user != "${u1}" else "${u2}")
    client.post("/password-reset", json={"username": user})
    return number + 1


def _confirm(client, user, code, new_password):
    body = {"username": user, "code": code, "new_password": new_password}
    return _row(client.post("/password-reset/confirm", json=body))


def _restore(client, user, password):
    """Set user's password back (through the reset flow) so later checks can log in."""
    number = _request_code(client, user)
    _confirm(client, user, _code(user, number), password)


def probe_login_issues_signed_tokens(client):
    rows = []
    token, number = _login(client, "${u1}")
    rows.append([token == f"session.${u1}.{number}.{_sign(f'session.${u1}.{number}')}"])
    token2, number2 = _login(client, "${u2}")
    rows.append([number2 - number, token2.split(".")[:2]])
    for body in [{"username": "${u1}", "password": "wrong"},
                 {"username": "${u1}", "password": "${p1}".upper()},
                 {"username": "nobody", "password": "${p1}"}, {"username": "${u1}"}]:
        rows.append(_row(client.post("/login", json=body)))
    _, number3 = _login(client, "${u1}")
    rows.append([number3 - number2])
    return rows


def probe_only_valid_session_tokens(client):
    token, n = _login(client, "${u1}")
    kind, user, number, sig = token.split(".")
    other_sig = _sign(f"session.${u2}.{n}")
    candidates = {
        "valid": token,
        "missing part": f"session.${u1}.{n}",
        "extra part": token + ".x",
        "empty": "",
        "user swapped": f"session.${u2}.{n}.{sig}",
        "number changed": f"session.${u1}.{n - 1}.{sig}",
        "leading zero": f"session.${u1}.0{n}.{_sign(f'session.${u1}.0{n}')}",
        "upper-case signature": f"session.${u1}.{n}.{sig.upper()}",
        "truncated signature": token[:-2],
        "another key": f"session.${u1}.{n}.{_sign(f'session.${u1}.{n}', b'guess')}",
        "md5 signature": f"session.${u1}.{n}." + hmac.new(SECRET, f"session.${u1}.{n}".encode(),
                                                         hashlib.md5).hexdigest(),
        "reset kind": f"reset.${u1}.{n}.{_sign(f'reset.${u1}.{n}')}",
        "other user's signature": f"session.${u1}.{n}.{other_sig}",
        "not yet issued": f"session.${u1}.{n + 1}.{_sign(f'session.${u1}.{n + 1}')}",
        "unknown user": f"session.mallory.{n}.{_sign(f'session.mallory.{n}')}",
        "space inside": f"session.${u1}.{n} .{sig}",
    }
    rows = [[name, _me(client, value)] for name, value in candidates.items()]
    for header in [f"bearer {token}", f"Bearer  {token}", token, f"Token {token}"]:
        r = client.get("/me", headers={"Authorization": header})
        rows.append([header.split(" ")[0][:7], r.status_code, r.json(),
                     r.headers.get("www-authenticate")])
    rows.append(_row(client.get("/me")))
    me = client.get("/me", headers={"Authorization": f"Bearer {token}"}).json()
    rows.append([me == {"user": "${u1}", "issued": n}])
    return rows


def probe_sessions_expire_by_the_counter(client):
    token, n = _login(client, "${u1}")
    rows = []
    for _ in range(${session_ttl}):
        _login(client, "${u2}")
    rows.append(["after ${session_ttl} more", _me(client, token)])
    _login(client, "${u2}")
    rows.append(["after one more", _me(client, token)])
    newest, _ = _login(client, "${u1}")
    rows.append(["new login", _me(client, newest)])
    return rows


def probe_reset_request_reveals_nothing(client):
    _, before = _login(client, "${u2}")
    rows = [_row(client.post("/password-reset", json={"username": "ghost"})),
            _row(client.post("/password-reset", json={"username": "${u1}".upper()}))]
    _, after = _login(client, "${u2}")
    rows.append(["numbers used by unknown users", after - before - 1])
    rows.append(_row(client.post("/password-reset", json={"username": "${u1}"})))
    _, last = _login(client, "${u2}")
    rows.append(["numbers used by a real user", last - after - 1])
    rows.append(_row(client.post("/password-reset", json={})))
    return rows


def probe_reset_changes_the_password(client):
    number = _request_code(client, "${u1}")
    rows = [_confirm(client, "${u1}", _code("${u1}", number), "brand-new-pass")]
    rows.append(_row(client.post("/login", json={"username": "${u1}", "password": "${p1}"})))
    r = client.post("/login", json={"username": "${u1}", "password": "brand-new-pass"})
    rows.append([r.status_code])
    _restore(client, "${u1}", "${p1}")
    rows.append([client.post("/login", json={"username": "${u1}", "password": "${p1}"}
                             ).status_code])
    return rows


def probe_codes_are_single_use(client):
    number = _request_code(client, "${u1}")
    code = _code("${u1}", number)
    rows = [_confirm(client, "${u1}", code, "first-change-1"),
            _confirm(client, "${u1}", code, "second-change-2")]
    rows.append([client.post("/login", json={"username": "${u1}", "password": "first-change-1"}
                             ).status_code])
    _restore(client, "${u1}", "${p1}")
    return rows


def probe_only_the_latest_code_counts(client):
    first = _request_code(client, "${u2}")
    client.post("/password-reset", json={"username": "${u2}"})
    second = first + 1
    rows = [_confirm(client, "${u2}", _code("${u2}", first), "superseded-1"),
            _confirm(client, "${u2}", _code("${u2}", second), "latest-wins-2")]
    _restore(client, "${u2}", "${newpw}")
    return rows


def probe_codes_expire_by_the_counter(client):
    rows = []
    number = _request_code(client, "${u2}")
    for _ in range(${code_ttl} + 1):
        _login(client, "${u1}")
    rows.append(["after ${code_ttl} + 1", _confirm(client, "${u2}", _code("${u2}", number),
                                                   "too-late-pass")])
    number = _request_code(client, "${u2}")
    for _ in range(${code_ttl}):
        _login(client, "${u1}")
    rows.append(["after ${code_ttl}", _confirm(client, "${u2}", _code("${u2}", number),
                                               "just-in-time")])
    _restore(client, "${u2}", "${newpw}")
    return rows


def probe_wrong_codes_burn_the_code(client):
    rows = []
    number = _request_code(client, "${u1}")
    code = _code("${u1}", number)
    wrong = ("0" if code[0] != "0" else "1") + code[1:]
    for _ in range(${max_attempts} - 1):
        rows.append(_confirm(client, "${u1}", wrong, "guessing-pass"))
    rows.append(["right code after ${max_attempts} - 1 wrong",
                 _confirm(client, "${u1}", code, "survived-pass")])
    _restore(client, "${u1}", "${p1}")
    number = _request_code(client, "${u1}")
    code = _code("${u1}", number)
    for _ in range(${max_attempts}):
        rows.append(_confirm(client, "${u1}", wrong, "guessing-pass")[:1])
    rows.append(["right code after ${max_attempts} wrong",
                 _confirm(client, "${u1}", code, "too-many-pass")])
    client.post("/password-reset", json={"username": "${u1}"})
    code = _code("${u1}", number + 1)
    for guess in [code.upper(), code[:-1], code + "0", " " + code]:
        rows.append([guess == code, _confirm(client, "${u1}", guess, "near-miss-pass")])
    _restore(client, "${u1}", "${p1}")
    return rows


def probe_a_code_is_for_its_user_only(client):
    number = _request_code(client, "${u1}")
    code = _code("${u1}", number)
    rows = [_confirm(client, "${u2}", code, "hijacked-pass"),
            _confirm(client, "${u2}", _code("${u2}", number), "hijacked-pass"),
            [client.post("/login", json={"username": "${u2}", "password": "${newpw}"}
                         ).status_code]]
    token, _ = _login(client, "${u1}")
    rows.append(_confirm(client, "${u1}", token.split(".")[3], "token-as-code"))
    rows.append(["first 6 characters", _confirm(client, "${u1}", _sign(f"reset.${u1}.{number}")[:6],
                                                "six-chars-pass")])
    rows.append(_confirm(client, "${u1}", code, "owner-uses-it"))
    _restore(client, "${u1}", "${p1}")
    return rows


def probe_reset_ends_older_sessions(client):
    old1, _ = _login(client, "${u1}")
    old2, _ = _login(client, "${u2}")
    number = _request_code(client, "${u1}")
    _confirm(client, "${u1}", _code("${u1}", number), "after-reset-1")
    rows = [["old session of ${u1}", _me(client, old1)],
            ["session of ${u2}", _me(client, old2)]]
    r = client.post("/login", json={"username": "${u1}", "password": "after-reset-1"})
    rows.append(["new session", _me(client, r.json()["token"]) if r.status_code == 200 else 0])
    _restore(client, "${u1}", "${p1}")
    return rows


def probe_inputs_are_bounded(client):
    number = _request_code(client, "${u1}")
    code = _code("${u1}", number)
    rows = []
    for new_password in ["short", "s" * 7, "p" * 65, "p" * 100000]:
        rows.append([len(new_password), _confirm(client, "${u1}", code, new_password)])
    for body in [{"username": "${u1}", "password": "x" * 65},
                 {"username": "u" * 33, "password": "x"},
                 {"username": "${u1}", "password": "x" * 100000}]:
        rows.append(_row(client.post("/login", json=body)))
    rows.append(_row(client.post("/password-reset", json={"username": "u" * 33})))
    rows.append(_row(client.post("/password-reset/confirm",
                                 json={"username": "${u1}", "code": "c" * 65,
                                       "new_password": "long-enough"})))
    rows.append(["8 characters, and the code still works",
                 _confirm(client, "${u1}", code, "8chars!!")])
    _restore(client, "${u1}", "${p1}")
    return rows
'''

PROMPT = '''\
Build the account service of a small site: login with signed session tokens and a password
reset by single-use codes. State is kept in memory. Two users exist: `${u1}` with the
password `${p1}` and `${u2}` with the password `${p2}`. The server's signing key is the
byte string `${secret}` (UTF-8); `sign(m)` below is the lowercase hex digest of HMAC-SHA256
with that key over the UTF-8 bytes of the text `m` (the standard library's `hmac` and
`hashlib`).

**Numbers.** The service keeps a counter, 0 at start. Each login and each reset code issued
takes the next number (1, 2, 3, ...); nothing else does.

**Session tokens.** A successful login with number `n` returns the token
`session.<user>.<n>.<sign("session.<user>.<n>")>`, `<n>` in decimal without leading zeros.
A request carrying `Authorization: Bearer <token>` (the scheme exactly `Bearer`, one space) is
authenticated when the token is exactly one the service issued in that form and it is still
valid: a token is valid while at most ${session_ttl} numbers have been issued after its own,
and until its user's password is changed (tokens issued before a password change never work
again; other users' tokens are unaffected). Anything else is 401
`{"error": "unauthorized"}` with `WWW-Authenticate: Bearer`.

**Reset codes.** The code issued with number `m` for user `u` is the first ${code_len}
characters of `sign("reset.<u>.<m>")`. A code is "delivered by e-mail" (the service returns
it to nobody). A user has at most one live code: issuing a new one kills the previous. A code
works only for its own user, once; it dies when used, when more than ${code_ttl} numbers have
been issued after its own, or when ${max_attempts} wrong codes have been sent for its user
while it was live (each confirmation for that user with a code that is not exactly theirs counts).

**Errors** have the body `{"error": <code>}`; 422 `{"error": "invalid"}` for any body that is
not valid as described (a JSON object with exactly the string fields listed; extra fields are
ignored). Validation comes first: a 422 request changes nothing and counts as no attempt.

**Routes.**
- `POST /login` `{"username", "password"}` (username at most 32 characters, password at most
  64): 200 `{"token": <token>}`; wrong username or password: 401 `{"error": "bad_credentials"}`.
- `GET /me` (authenticated): 200 `{"user": <user>, "issued": <n of the token>}`.
- `POST /password-reset` `{"username"}` (at most 32 characters): for a user that exists,
  issues a new code; always (whether or not the user exists) 202 `{"status": "sent"}`.
- `POST /password-reset/confirm` `{"username", "code", "new_password"}` (code at most 64
  characters, new password 8 to 64): when `code` is exactly the user's live code, the
  password becomes `new_password` and the answer is 200 `{"status": "changed"}`; otherwise
  400 `{"error": "invalid_code"}`.

`result`: `[status code, JSON body]` of each of, in order:
1. `POST /login` `{"username": "${u1}", "password": "${p1}"}`
2. `GET /me` with the token from 1
3. `POST /password-reset` `{"username": "${u2}"}`
4. `POST /password-reset/confirm` for `${u2}` with the code just issued and the new
   password `${newpw}`
5. `POST /login` `{"username": "${u2}", "password": "${p2}"}`
'''

_CODE_LOOKUP = '''    entry = codes.get(body.username)
    if entry is None or entry["dead"] or not fresh(entry["number"], CODE_TTL):
        raise HTTPException(400, "invalid_code")
    expected = reset_code(body.username, entry["number"])'''
_CONFIRM_CHECK = '''    if not hmac.compare_digest(body.code.encode(), expected.encode()):
        entry["wrong"] += 1
        entry["dead"] = entry["wrong"] >= MAX_ATTEMPTS
        raise HTTPException(400, "invalid_code")'''

FAMILY = Family(
    id="security/password_reset",
    title="Signed session tokens and single-use reset codes that withstand forgery and reuse",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"u1": "maria", "p1": "maria-pass-1", "u2": "tomas", "p2": "tomas-pass-2",
              "newpw": "fresh-start-9", "secret": "k3y-of-the-realm", "session_ttl": 4,
              "code_ttl": 2, "max_attempts": 3, "code_len": 8},
    space={
        "u1": [{"u1": "maria", "p1": "maria-pass-1", "u2": "tomas", "p2": "tomas-pass-2",
                "newpw": "fresh-start-9"},
               {"u1": "olu", "p1": "Olu#secret", "u2": "pia", "p2": "pia-pia-pia",
                "newpw": "n3w-passw0rd"}],
        "secret": ["k3y-of-the-realm", "hunter2-but-longer"],
        "session_ttl": [4, 6],
        "code_ttl": [2, 3],
        "max_attempts": [3, 5],
        "code_len": [8, 6],
    },
    instances=12,
    requirements=(
        Requirement(
            "Login returns `session.<user>.<n>.<sign(...)>` with consecutive numbers; wrong "
            "credentials are 401 `bad_credentials`.",
            probes=("login_issues_signed_tokens",),
            traps=(Edit("password not checked", "if USERS.get(body.username) != body.password:",
                        "if body.username not in USERS:"),
                   Edit("signature over the user only", "{message}.{sign(message)}",
                        "{message}.{sign(body.username)}")),
            security=True),
        Requirement(
            "Only a token exactly as issued authenticates: any change of a part, another key or "
            "hash, another kind, a number not yet issued, or a malformed header is 401 with "
            "`WWW-Authenticate: Bearer`.",
            probes=("only_valid_session_tokens",),
            traps=(Edit("signature not checked",
                        "    if not hmac.compare_digest(signature.encode(), expected.encode()):\n"
                        "        return None\n    issued", "    issued"),
                   Edit("any kind accepted", 'if kind != "session" or user not in USERS',
                        "if user not in USERS"),
                   Edit("signature compared without case",
                        "hmac.compare_digest(signature.encode(), expected.encode())",
                        "hmac.compare_digest(signature.lower().encode(), expected.encode())"),
                   Edit("numbers taken loosely", "not NUMBER.fullmatch(number)",
                        "not number.isdigit()"),
                   Edit("future numbers accepted",
                        'return number <= counter["value"] and counter["value"] - number <= ttl',
                        "return counter[\"value\"] - number <= ttl"),
                   Edit("any scheme", 'user = session_user(token) if scheme == "Bearer" else None',
                        "user = session_user(token.strip())")),
            security=True),
        Requirement(
            "A session token stops working once more than ${session_ttl} numbers have been "
            "issued after its own.",
            probes=("sessions_expire_by_the_counter",),
            traps=(Edit("sessions never expire",
                        "if not fresh(issued, SESSION_TTL) or",
                        "if issued > counter[\"value\"] or"),
                   Edit("session expiry off by one", "SESSION_TTL = ${session_ttl}",
                        "SESSION_TTL = ${session_ttl} - 1")),
            security=True),
        Requirement(
            "A reset request answers 202 `sent` whether or not the user exists, and only a "
            "real user's request takes a number.",
            probes=("reset_request_reveals_nothing",),
            traps=(Edit("unknown users revealed", '''    if body.username in USERS:
        codes[body.username] = {"number": issue(), "wrong": 0, "dead": False}
    return {"status": "sent"}''', '''    if body.username not in USERS:
        raise HTTPException(404, "not_found")
    codes[body.username] = {"number": issue(), "wrong": 0, "dead": False}
    return {"status": "sent"}'''),
                   Edit("unknown users take a number", '''    if body.username in USERS:
        codes[body.username] = {"number": issue(), "wrong": 0, "dead": False}''',
                        '''    number = issue()
    if body.username in USERS:
        codes[body.username] = {"number": number, "wrong": 0, "dead": False}''')),
            security=True),
        Requirement(
            "The user's live code changes the password (200 `changed`): the old password stops "
            "working, the new one works.",
            probes=("reset_changes_the_password",),
            traps=(Edit("password never stored", "    USERS[body.username] = body.new_password\n",
                        ""),)),
        Requirement(
            "A code works once.",
            probes=("codes_are_single_use",),
            traps=(Edit("codes reusable", '''    entry["dead"] = True
    USERS[body.username]''', "    USERS[body.username]"),),
            security=True),
        Requirement(
            "Issuing a new code kills the previous one.",
            probes=("only_the_latest_code_counts",),
            traps=(Edit("every issued code works",
                        "expected = reset_code(body.username, entry[\"number\"])\n"
                        "    if not hmac.compare_digest(body.code.encode(), expected.encode()):",
                        "expected = reset_code(body.username, entry[\"number\"])\n"
                        "    if not any(body.code == reset_code(body.username, m) for m in "
                        "range(1, entry[\"number\"] + 1)):"),),
            security=True),
        Requirement(
            "A code dies once more than ${code_ttl} numbers have been issued after its own.",
            probes=("codes_expire_by_the_counter",),
            traps=(Edit("codes never expire",
                        'if entry is None or entry["dead"] or not fresh(entry["number"], '
                        'CODE_TTL):', 'if entry is None or entry["dead"]:'),
                   Edit("code expiry off by one", "CODE_TTL = ${code_ttl}",
                        "CODE_TTL = ${code_ttl} + 1")),
            security=True),
        Requirement(
            "After ${max_attempts} wrong codes for a user their live code is dead (the right "
            "code then fails too); fewer wrong codes leave it working.",
            probes=("wrong_codes_burn_the_code",),
            traps=(Edit("unlimited guesses", _CONFIRM_CHECK, _CONFIRM_CHECK.replace(
                '        entry["dead"] = entry["wrong"] >= MAX_ATTEMPTS\n', "")),
                   Edit("attempts off by one", 'entry["dead"] = entry["wrong"] >= MAX_ATTEMPTS',
                        'entry["dead"] = entry["wrong"] > MAX_ATTEMPTS'),
                   Edit("code compared without case", "hmac.compare_digest(body.code.encode(), "
                        "expected.encode())", "hmac.compare_digest(body.code.lower().encode(), "
                        "expected.encode())")),
            security=True),
        Requirement(
            "A code works only for its own user; a session token is never a code.",
            probes=("a_code_is_for_its_user_only",),
            traps=(Edit("codes looked up by value", _CODE_LOOKUP, _CODE_LOOKUP.replace(
                "    entry = codes.get(body.username)",
                "    owner = next((u for u, e in codes.items() if reset_code(u, e['number']) == "
                "body.code), body.username)\n    entry = codes.get(owner)").replace(
                "reset_code(body.username, entry", "reset_code(owner, entry")),),
            security=True),
        Requirement(
            "A password change ends the sessions of that user issued before it, not others'.",
            probes=("reset_ends_older_sessions",),
            traps=(Edit("old sessions survive a reset",
                        "    sessions_valid_after[body.username] = counter[\"value\"]\n", ""),
                   Edit("a reset ends everyone's sessions",
                        "issued <= sessions_valid_after.get(user, 0)",
                        "issued <= max(sessions_valid_after.values(), default=0)")),
            security=True),
        Requirement(
            "Bodies are bounded (usernames 32, passwords 64, codes 64, new passwords 8 to 64); a "
            "422 request counts as no attempt.",
            probes=("inputs_are_bounded",),
            traps=(Edit("new password unbounded",
                        "new_password: str = Field(min_length=8, max_length=64)",
                        "new_password: str = Field(min_length=8)"),
                   Edit("login password unbounded", "    password: str = Field(max_length=64)",
                        "    password: str")),
            security=True),
    ),
)
