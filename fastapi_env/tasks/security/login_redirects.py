"""Security tier: sign-in with a `next` target and a session cookie. Hidden probes try open
redirects in every spelling (`//host`, `/\\host`, `https:host`, userinfo and look-alike hosts,
percent-encoded and control characters, repeated or empty targets), forged and revoked session
cookies, and the cookie's attributes on sign-in and sign-out; the natural Starlette redirect
re-encodes the target and drops cookies set on the injected response."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import ROWS_OF_BODY_OR_NONE
from fastapi_env.tasks.security._error_handlers import ERROR_HANDLERS

REFERENCE = '''\
import hashlib
import hmac
from typing import Annotated
from urllib.parse import unquote, urlsplit

from fastapi import Cookie, FastAPI, Form, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

USERS = {"${user_a}": "${pass_a}", "${user_b}": "${pass_b}"}
HOME = "${home}"
OWN_HOST = "${own_host}"
COOKIE = "${cookie}"
SERVER_KEY = b"k-session-${cookie}"
SESSIONS: dict[str, str] = {}
ISSUED = [0]

app = FastAPI()


''' + ERROR_HANDLERS + '''

def plain(text: str) -> bool:
    """Printable ASCII without spaces or backslashes (browsers read `\\\\` as `/`)."""
    return all("!" <= c <= "~" for c in text) and "\\\\" not in text


def shaped_safe(target: str) -> bool:
    if not plain(target):
        return False
    if target.startswith("/"):
        return not target.startswith("//")  # `//host` is another site
    parts = urlsplit(target)
    return parts.scheme.lower() == "https" and parts.netloc.lower() == OWN_HOST


def safe(target: str) -> bool:
    # One round of percent-decoding must not reveal what the rules refuse (`/%2F/host`).
    return 0 < len(target) <= ${max_next} and shaped_safe(target) and shaped_safe(unquote(target))


def destination(values: list[str]) -> str:
    if not values:
        return HOME
    if len(values) == 1 and safe(values[0]):
        return values[0]
    ${unsafe_action}


def redirect(location: str) -> Response:
    # Not RedirectResponse: it percent-encodes characters such as `|` and `{`.
    return Response(status_code=303, headers={"Location": location})


def session_of(token: str | None) -> str:
    if not token:
        raise HTTPException(401, "no_session")
    if token not in SESSIONS:
        raise HTTPException(401, "bad_session")
    return SESSIONS[token]


SessionCookie = Annotated[str | None, Cookie(alias=COOKIE)]


@app.post("/login")
def login(
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    next: Annotated[list[str], Form()] = [],
):
    name = username.strip().lower()
    # Bytes: compare_digest refuses str with non-ASCII characters.
    if name not in USERS or not hmac.compare_digest(USERS[name].encode(), password.encode()):
        raise HTTPException(401, "bad_credentials")
    location = destination(next)
    ISSUED[0] += 1
    token = hmac.new(SERVER_KEY, f"session:{ISSUED[0]}".encode(), hashlib.sha256).hexdigest()
    SESSIONS[token] = name
    response = redirect(location)
    response.set_cookie(COOKIE, token, max_age=${max_age}, path="${cookie_path}", httponly=True,
                        secure=True, samesite="${samesite}")
    return response


@app.get("/login")
def login_page(next: Annotated[list[str] | None, Query()] = None, token: SessionCookie = None):
    location = destination(next or [])
    if token in SESSIONS:
        return redirect(location)
    return {"next": location}


@app.get("/me")
def me(token: SessionCookie = None):
    return {"username": session_of(token)}


@app.post("/logout")
def logout(token: SessionCookie = None):
    SESSIONS.pop(token or "", None)
    response = redirect("/login")
    response.delete_cookie(COOKIE, path="${cookie_path}", httponly=True, secure=True,
                           samesite="${samesite}")
    return response


client = TestClient(app, follow_redirects=False)
signed = client.post("/login", data={"username": "${user_a}", "password": "${pass_a}",
                                     "next": "${visible_next}"})
client.cookies.clear()
result = [
    [signed.status_code, signed.headers.get("location"), signed.content.decode()],
    [client.post("/login", data={"username": "${user_a}", "password": "nope"}).json()],
    [client.get("/login", params={"next": "//evil.example"}).status_code],
]
'''

PROBES = ROWS_OF_BODY_OR_NONE + '''\
COOKIE = "${cookie}"
EVIL = "evil.example"


def _login(client, next=None, username="${user_a}", password="${pass_a}", raw=None):
    data = {"username": username, "password": password}
    if next is not None:
        data["next"] = next
    if raw is not None:
        r = client.post("/login", content=raw, follow_redirects=False,
                        headers={"Content-Type": "application/x-www-form-urlencoded"})
    else:
        r = client.post("/login", data=data, follow_redirects=False)
    client.cookies.clear()  # every probe sends its cookies explicitly
    return r


def _cookie(r):
    """The session cookie a response sets, [value, attributes], without the clock-dependent
    expiry; None when it sets none."""
    for header in r.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        if name != COOKIE:
            continue
        value, *attributes = [part.strip() for part in rest.split(";")]
        pairs = [a.partition("=") for a in attributes]
        return [value, sorted([k.lower(), v] for k, _, v in pairs if k.lower() != "expires")]
    return None


def _token(client, username="${user_a}", password="${pass_a}"):
    found = _cookie(_login(client, username=username, password=password))
    return found[0] if found else None


def _as(token):
    return {"Cookie": f"{COOKIE}={token}"}


def _redirect(r):
    return [r.status_code, r.headers.get("location"), _body(r), _cookie(r) is not None]


def _targets(client, targets):
    return [[t, _redirect(_login(client, next=t))] for t in targets]


def probe_sign_in_redirects(client):
    r = _login(client)
    return [[r.status_code, r.headers.get("location"), r.content.decode()],
            _redirect(_login(client, next="/reports"))]


def probe_cookie_attributes(client):
    first, second = _cookie(_login(client)), _cookie(_login(client, next="/x"))
    return [[first[1], len(first[0]), all(c in "0123456789abcdef" for c in first[0]),
             second[1], first[0] != second[0]]]


def probe_credentials(client):
    rows = []
    for username, password in [("${user_a}", "nope"), ("${user_a}", "${pass_a}".upper()),
                               ("${user_a}", "${pass_a} "), ("${user_a}", "${pass_b}"),
                               ("ghost", "${pass_a}"), ("${user_a}", "\u00e9${pass_a}"),
                               ("${user_a}", "${pass_a}\u00e9"), ("${user_b}", "${pass_b}"),
                               ("  ${user_a_upper} ", "${pass_a}")]:
        r = _login(client, username=username, password=password)
        found = _cookie(r)
        me = client.get("/me", headers=_as(found[0])).json() if found else None
        rows.append([username, r.status_code, _body(r), me])
    return rows


def probe_form_validation(client):
    rows = []
    for raw in [b"username=${user_a}", b"password=${pass_a}", b"username=&password=${pass_a}",
                b"username=${user_a}&password=", b""]:
        rows.append([raw.decode(), _row(_login(client, raw=raw))])
    return rows


def probe_relative_targets_kept(client):
    return _targets(client, ["/reports?year=2024&q=a+b#top", "/a|b{c}^d", "/x/%41?y=%7E",
                             "/", "/p;v=1/@user", "/~me/it's"])


def probe_other_hosts_refused(client):
    return _targets(client, ["//" + EVIL, "///" + EVIL, "/\\\\" + EVIL, "\\\\/" + EVIL,
                             "/\\\\/" + EVIL, "\\\\\\\\" + EVIL, "//${own_host}/x",
                             "http://" + EVIL, "javascript:alert(1)", EVIL + "/x", "reports"])


def probe_absolute_targets(client):
    return _targets(client, ["https://${own_host}/r?x=1", "HTTPS://${own_host_upper}/Case",
                             "https://${own_host}", "http://${own_host}/x",
                             "https:${own_host}/x", "https:/${own_host}/x",
                             "https://${own_host}.evil.example/", "https://evil${own_host}/",
                             "https://${own_host}@evil.example/", "https://evil.example@${own_host}/",
                             "https://u@${own_host}/",
                             "https://${own_host}:443/", "https://evil.example/${own_host}",
                             "https://evil.example#${own_host}", "ftp://${own_host}/"])


def probe_encoded_targets(client):
    return _targets(client, ["/%2F" + EVIL, "/%2f/" + EVIL, "/%5C" + EVIL, "/%09/" + EVIL,
                             "%2F%2F" + EVIL, "/%252F" + EVIL, "/caf%C3%A9",
                             "https://${own_host}%40evil.example/", "/ok%20space"])


def probe_control_characters_refused(client):
    return _targets(client, ["/\\t/" + EVIL, " /home", "/home ", "/a b", "/x\\r\\nSet-Cookie: a=b",
                             "/caf\\u00e9", "/\\x00", "/\\x7f"])


def probe_target_length(client):
    rows = []
    for size in [${max_next}, ${max_next} + 1]:
        target = "/" + "a" * (size - 1)
        r = _login(client, next=target)
        rows.append([size, r.status_code, r.headers.get("location") == target])
    return rows


def probe_repeated_or_empty_next(client):
    rows = []
    for raw in [b"next=%2Fone&next=%2Ftwo", b"next=%2F%2Fevil.example&next=%2Fok",
                b"next=", b"next=&next=%2Fok"]:
        r = _login(client, raw=b"username=${user_a}&password=${pass_a}&" + raw)
        rows.append([raw.decode(), _redirect(r)])
    return rows


def probe_unsafe_target_handling(client):
    rows = []
    for username, password in [("${user_a}", "${pass_a}"), ("${user_a}", "nope")]:
        r = _login(client, next="//" + EVIL, username=username, password=password)
        rows.append(_redirect(r))
    rows.append(_row(client.get("/me", headers=_as("anything"))))
    return rows


def probe_login_page(client):
    token = _token(client)
    rows = []
    for headers in [{}, _as(token), _as("forged"), _as("")]:
        for params in [{}, {"next": "/deep/link"}, {"next": "//" + EVIL},
                       {"next": ["/a", "/b"]}, {"next": ""}]:
            r = client.get("/login", params=params, headers=headers, follow_redirects=False)
            rows.append([params, r.status_code, r.headers.get("location"), _body(r)])
    return rows


def probe_session_required(client):
    token = _token(client, "${user_b}", "${pass_b}")
    rows = []
    for headers in [{}, {"Cookie": f"{COOKIE}="}, _as("${user_b}"), _as(token.upper()),
                    _as(token[:-1]), {"Cookie": f"${cookie_python}={token}"},
                    {"Cookie": f"other=1; {COOKIE}={token}"}]:
        rows.append(_row(client.get("/me", headers=headers)))
    return rows


def probe_sessions_distinct(client):
    one, two = _token(client), _token(client)
    other = _token(client, "${user_b}", "${pass_b}")
    client.post("/logout", headers=_as(one), follow_redirects=False)
    return [[len({one, two, other}), _row(client.get("/me", headers=_as(one))),
             _row(client.get("/me", headers=_as(two))),
             _row(client.get("/me", headers=_as(other)))]]


def probe_sign_out(client):
    token = _token(client)
    r = client.post("/logout", headers=_as(token), follow_redirects=False)
    rows = [[r.status_code, r.headers.get("location"), _cookie(r)]]
    rows.append(_row(client.get("/me", headers=_as(token))))
    r = client.post("/logout", follow_redirects=False)
    rows.append([r.status_code, r.headers.get("location"), _cookie(r)])
    return rows
'''

PROMPT = '''\
Build the sign-in part of a web application: a login form with a `next` target, a session
cookie, and sign-out. State is in memory and starts empty.

## Users and errors
Two users: `${user_a}` with password `${pass_a}`, and `${user_b}` with password `${pass_b}`.
A username is matched ignoring case and surrounding spaces; a password exactly. Every error
body is `{"error": <code>}`; invalid requests (a missing field) are 422 `invalid`.

## Where a sign-in may send the browser
A `next` target is *safe* only when all of these hold:
- it is 1 to ${max_next} characters long, and every character is printable ASCII other than
  space and backslash (`!` to `~`, without `\\`);
- it is either a path on this site, starting with `/` whose next character is not `/`, or an
  absolute URL whose scheme is `https` (any case) and whose whole authority (what
  `urllib.parse.urlsplit` calls `netloc`) is `${own_host}`, ignoring case: no user, no port;
- the text after one round of percent-decoding (`urllib.parse.unquote`) is safe by the two
  rules above as well.
The *destination* is the `next` value when exactly one is given and it is safe, and `${home}`
when none is given. ${unsafe_rule} A `next` that is present but empty is unsafe, and so is
`next` given more than once (even when every value is safe).

A redirect is a 303 with an empty body and `Location` set to the destination exactly as
given, byte for byte, nothing re-encoded.

## Routes
- `POST /login`, an HTML form (`application/x-www-form-urlencoded`) with `username`,
  `password` and optionally `next`. A missing `username` or `password` (an empty one counts
  as missing) is 422 `invalid`. Then wrong credentials are 401 `bad_credentials` (whatever
  `next` is), then the destination is resolved. On success the user gets a new session, and
  the answer is a redirect to the destination that sets the session cookie:
  `Set-Cookie: ${cookie}=<token>; HttpOnly; Max-Age=${max_age}; Path=${cookie_path}; SameSite=${samesite}; Secure`.
  A token is 64 lowercase hex characters, different for every sign-in, never derived from the
  username alone; no clock or randomness (an HMAC of a counter with a key in the module will
  do). Failed sign-ins set no cookie and create no session.
- `GET /login?next=...` resolves the destination the same way (`next` may repeat here too);
  then, when the request carries the cookie of a live session, it redirects there, else it
  answers 200 `{"next": <destination>}`.
- `GET /me`: 200 `{"username": <the user's name as listed above>}` for a live session's
  cookie; a missing cookie, or one with an empty value, is 401 `no_session`; any other value
  (unknown, altered, signed out) is 401 `bad_session`.
- `POST /logout` ends the session its cookie names (if any; other sessions, even the same
  user's, stay live) and always redirects to `/login`, clearing the cookie with
  `Set-Cookie: ${cookie}=""; expires=<now>; HttpOnly; Max-Age=0; Path=${cookie_path}; SameSite=${samesite}; Secure`.
  Set-Cookie attributes are compared ignoring their order and `expires`.

## result
1. `[status code, Location, body text]` of signing in as `${user_a}` with `next`
   `${visible_next}`;
2. `[body]` of signing in as `${user_a}` with the password `nope`;
3. `[status code]` of `GET /login?next=//evil.example` without a cookie.
'''

_UNSAFE = {
    "home": {"unsafe_action": "return HOME",
             "unsafe_short": "an unsafe target sends the user to the home path.",
             "unsafe_rule": "When a given `next` is not safe, the destination is `${home}` too."},
    "refuse": {"unsafe_action": 'raise HTTPException(400, "unsafe_next")',
               "unsafe_short": "an unsafe one is 400 `unsafe_next`, with no session.",
               "unsafe_rule": "When a given `next` is not safe, the request is refused with 400 "
                              "`unsafe_next` (no session, no cookie)."},
}


def _derive(p):
    unsafe = _UNSAFE[p["unsafe"]]
    other = _UNSAFE["refuse" if p["unsafe"] == "home" else "home"]
    return {"unsafe_action": unsafe["unsafe_action"], "unsafe_short": unsafe["unsafe_short"],
            "other_unsafe_action": other["unsafe_action"],
            "unsafe_rule": unsafe["unsafe_rule"].replace("${home}", p["home"]),
            "cookie_python": p["cookie"].replace("-", "_"), "own_host_upper": p["own_host"].upper(),
            "user_a_upper": p["user_a"].upper()}


FAMILY = Family(
    id="security/login_redirects",
    title="Sign-in with a next target that never leaves the site, and its session cookie",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"user_a": "ana", "pass_a": "Sesame-4", "user_b": "bo", "pass_b": "Tulip-9",
              "home": "/home", "own_host": "app.example.com", "cookie": "app-session",
              "cookie_path": "/", "samesite": "lax", "max_age": 3600, "unsafe": "home",
              "max_next": 200, "visible_next": "/orders?page=2|3"},
    space={
        "users": [{"user_a": "ana", "pass_a": "Sesame-4", "user_b": "bo", "pass_b": "Tulip-9"}],
        "site": [{"home": "/home", "own_host": "app.example.com", "visible_next": "/orders?page=2|3"},
                 {"home": "/dashboard", "own_host": "portal.example.org",
                  "visible_next": "/files/{id}"}],
        "cookie": [{"cookie": "app-session", "cookie_path": "/"},
                   {"cookie": "portal-sid", "cookie_path": "/app"}],
        "samesite": ["lax", "strict"],
        "max_age": [3600, 900],
        "unsafe": ["home", "refuse"],
        "max_next": [200, 120],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("A successful sign-in is a 303 with an empty body to the destination "
                    "(`${home}` without `next`).",
                    probes="sign_in_redirects",
                    traps=Edit("Starlette's default redirect status",
                               "    return Response(status_code=303, headers={\"Location\": location})",
                               "    return Response(status_code=307, headers={\"Location\": location})")),
        Requirement("The session cookie carries exactly the stated attributes and a fresh "
                    "64-hex token.",
                    probes="cookie_attributes", security=True,
                    traps=(Edit("cookie set on the injected response",
                                "    response = redirect(location)\n    response.set_cookie(COOKIE, token, max_age=${max_age}, "
                                "path=\"${cookie_path}\", httponly=True,\n                        secure=True, "
                                "samesite=\"${samesite}\")\n    return response\n",
                                "    response = Response()  # FastAPI drops it: another response is returned\n"
                                "    response.set_cookie(COOKIE, token, max_age=${max_age}, "
                                "path=\"${cookie_path}\", httponly=True,\n                        secure=True, "
                                "samesite=\"${samesite}\")\n    return redirect(location)\n"),
                           Edit("cookie without Secure", "httponly=True,\n                        secure=True,",
                                "httponly=True,\n                        secure=False,"),
                           Edit("cookie without HttpOnly", 'path="${cookie_path}", httponly=True,\n                        secure',
                                'path="${cookie_path}", httponly=False,\n                        secure'))),
        Requirement("Usernames match ignoring case and surrounding spaces, passwords exactly; "
                    "else 401 `bad_credentials`, with no cookie.",
                    probes="credentials", security=True,
                    traps=(Edit("username matched exactly", "    name = username.strip().lower()\n",
                                "    name = username\n"),
                           Edit("password ignoring case",
                                "not hmac.compare_digest(USERS[name].encode(), password.encode())",
                                "USERS[name].lower() != password.lower()"),
                           Edit("passwords compared as text",
                                "hmac.compare_digest(USERS[name].encode(), password.encode())",
                                "hmac.compare_digest(USERS[name], password)"))),
        Requirement("A missing or empty `username` or `password` is 422 `invalid`.",
                    probes="form_validation",
                    traps=Edit("empty fields read as empty strings",
                               "    username: Annotated[str, Form()],\n    password: Annotated[str, Form()],\n",
                               "    username: Annotated[str, Form()] = \"\",\n    password: Annotated[str, Form()] = \"\",\n")),
        Requirement("`Location` is a safe path exactly as given, nothing re-encoded.",
                    probes="relative_targets_kept",
                    traps=Edit("Starlette's RedirectResponse",
                               "    return Response(status_code=303, headers={\"Location\": location})",
                               "    from fastapi.responses import RedirectResponse\n"
                               "    return RedirectResponse(location, status_code=303)")),
        Requirement("A sign-in never sends the browser to another site through a path-like "
                    "target.",
                    probes="other_hosts_refused", security=True,
                    traps=Edit("backslashes allowed",
                               '    return all("!" <= c <= "~" for c in text) and "\\\\" not in text',
                               '    return all("!" <= c <= "~" for c in text)')),
        Requirement("An absolute target is allowed only as `https` to exactly `${own_host}`.",
                    probes="absolute_targets", security=True,
                    traps=(Edit("host compared by hostname",
                                '    return parts.scheme.lower() == "https" and parts.netloc.lower() == OWN_HOST',
                                '    return parts.scheme.lower() == "https" and parts.hostname == OWN_HOST'),
                           Edit("host matched as a prefix",
                                '    return parts.scheme.lower() == "https" and parts.netloc.lower() == OWN_HOST',
                                '    return target.lower().startswith("https://" + OWN_HOST)'))),
        Requirement("Percent-encoding cannot smuggle a refused target (one round of decoding).",
                    probes="encoded_targets", security=True,
                    traps=(Edit("decoding not checked",
                                " and shaped_safe(target) and shaped_safe(unquote(target))",
                                " and shaped_safe(target)"),
                           Edit("decoded until stable",
                                " and shaped_safe(target) and shaped_safe(unquote(target))",
                                " and shaped_safe(target) and shaped_safe(unquote(unquote(target)))"))),
        Requirement("Targets with spaces, control or non-ASCII characters are not safe.",
                    probes="control_characters_refused", security=True,
                    traps=Edit("targets trimmed",
                               "    if not plain(target):\n        return False\n",
                               "    target = target.strip()\n    if not all(c.isprintable() for c in target) or \"\\\\\" in target:\n        return False\n")),
        Requirement("A target of ${max_next} characters can be safe, one more cannot.",
                    probes="target_length",
                    traps=Edit("length bound off by one", "    return 0 < len(target) <= ${max_next} and",
                               "    return 0 < len(target) < ${max_next} and")),
        Requirement("An empty `next`, or one given more than once, is not safe.",
                    probes="repeated_or_empty_next", security=True,
                    traps=(Edit("the last next wins",
                                '    next: Annotated[list[str], Form()] = [],\n):\n',
                                '    next: Annotated[str | None, Form()] = None,\n):\n    next = [] if next is None else [next]\n'),
                           Edit("empty next means none",
                                "    if not values:\n        return HOME\n",
                                "    values = [v for v in values if v]\n    if not values:\n        return HOME\n"))),
        Requirement("Credentials are checked before the target; ${unsafe_short}",
                    probes="unsafe_target_handling", security=True,
                    traps=Edit("unsafe target handled the other way",
                               "        return values[0]\n    ${unsafe_action}\n",
                               "        return values[0]\n    ${other_unsafe_action}\n")),
        Requirement("`GET /login` resolves the destination, then redirects a live session "
                    "there and answers others 200 `{\"next\"}`.",
                    probes="login_page",
                    traps=(Edit("login page trusts any cookie", "    if token in SESSIONS:\n        return redirect(location)",
                                "    if token:\n        return redirect(location)"),
                           Edit("signed-in visitors sent home",
                                "    if token in SESSIONS:\n        return redirect(location)",
                                "    if token in SESSIONS:\n        return redirect(HOME)"))),
        Requirement("Without a cookie, or with an empty one, `/me` is 401 `no_session`; an "
                    "unknown or altered token 401 `bad_session`.",
                    probes="session_required", security=True,
                    traps=(Edit("empty cookie read as a token",
                                "    if not token:\n        raise HTTPException(401, \"no_session\")",
                                "    if token is None:\n        raise HTTPException(401, \"no_session\")"),
                           Edit("cookie name given no alias",
                                "@app.get(\"/me\")\ndef me(token: SessionCookie = None):\n    return {\"username\": session_of(token)}",
                                "@app.get(\"/me\")\ndef me(${cookie_python}: Annotated[str | None, Cookie()] = None):\n"
                                "    return {\"username\": session_of(${cookie_python})}"))),
        Requirement("Every sign-in gets its own token; signing out ends only that session.",
                    probes="sessions_distinct", security=True,
                    traps=Edit("one token per user",
                               'f"session:{ISSUED[0]}".encode()', 'f"session:{name}".encode()')),
        Requirement("`POST /logout` ends the session and clears the cookie with the same "
                    "attributes, `Max-Age=0`.",
                    probes="sign_out", security=True,
                    traps=(Edit("Starlette's default cookie deletion",
                                '    response.delete_cookie(COOKIE, path="${cookie_path}", httponly=True, secure=True,\n'
                                '                           samesite="${samesite}")\n',
                                "    response.delete_cookie(COOKIE)\n"),
                           Edit("sign-out keeps the session", '    SESSIONS.pop(token or "", None)\n', ""))),
    ),
)
