from fastapi_env.tasks import Edit, Family, Requirement

_HEAD = '''\
from typing import Annotated

from fastapi import Cookie, FastAPI, HTTPException, Response
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel


class Login(BaseModel):
    username: str
    lang: str | None = None


app = FastAPI()

'''

_TAIL = '''

client = TestClient(app)
result = []
for method, url, body in [
    ("GET", "/me", None),
    ("POST", "/login", {"username": "${u1}", "lang": "${lang1}"}),
    ("GET", "/me", None),
    ("POST", "/theme?value=${dark}", None),
    ("GET", "/me", None),
    ("POST", "/login", {"username": "${u2}"}),
    ("GET", "/me", None),
]:
    r = client.request(method, url, json=body)
    result.append([r.status_code, r.headers.get_list("set-cookie"), r.json()])
'''

_LOGIN = '''\
@app.post("/login")
def login(data: Login, response: Response):
    response.set_cookie("session_id", "${prefix}" + data.username, httponly=True, max_age=${max_age})
    response.set_cookie("theme", "${theme0}")
    if data.lang is not None:
        response.set_cookie("${lc}", data.lang)
    return {"ok": True, "user": data.username}
'''

_THEME = '''\
@app.post("/theme")
def set_theme(value: str, response: Response):
    response.set_cookie("theme", value)
    return {"theme": value}
'''

_ME = '''\
@app.get("/me")
def me(
    session_id: Annotated[str | None, Cookie()] = None,
    theme: Annotated[str | None, Cookie()] = None,
    ui_lang: Annotated[str | None, Cookie(alias="${lc}")] = None,
):
    if session_id is None or not session_id.startswith("${prefix}"):
        raise HTTPException(status_code=401, detail="not signed in")
    return {"user": session_id[len("${prefix}"):], "theme": "${theme_default}" if theme is None else theme,
            "lang": "${lang_default}" if ui_lang is None else ui_lang}
'''

_THEME_OWN_RESPONSE = '''\
@app.post("/theme")
def set_theme(value: str, response: Response):
    response.set_cookie("theme", value)
    return JSONResponse({"theme": value})
'''

_LOGIN_ASSIGNS_HEADER = '''\
@app.post("/login")
def login(data: Login, response: Response):
    response.headers["set-cookie"] = (
        "session_id=sess-" + data.username + "; HttpOnly; Max-Age=${max_age}; Path=/; SameSite=lax"
    )
    response.headers["set-cookie"] = "theme=${theme0}; Path=/; SameSite=lax"
    if data.lang is not None:
        response.headers["set-cookie"] = "${lc}=" + data.lang + "; Path=/; SameSite=lax"
    return {"ok": True, "user": data.username}
'''

_LOGIN_HAND_WRITTEN = '''\
@app.post("/login")
def login(data: Login, response: Response):
    response.headers.append("set-cookie", "session_id=sess-" + data.username + "; HttpOnly; Max-Age=${max_age}")
    response.headers.append("set-cookie", "theme=${theme0}")
    if data.lang is not None:
        response.headers.append("set-cookie", "${lc}=" + data.lang)
    return {"ok": True, "user": data.username}
'''

FAMILY = Family(
    id="headers_cookies/cookie_session",
    title="Cookie session: set cookies on the injected Response, read them with Cookie()",
    category="headers_cookies",
    difficulty="hard",
    prompt='''\
Build a cookie-based session with three routes. Cookies are set with Starlette's
`Response.set_cookie` on the `Response` that FastAPI injects into the handler (so only the
arguments listed below are passed; everything else keeps `set_cookie`'s defaults), and the
handlers return plain dicts that FastAPI renders as JSON (status 200).

- `POST /login` takes a JSON body `{"username": <string>, "lang": <string, optional>}` (a Pydantic
  model `Login` with `lang: str | None = None`). It sets, in this order:
  1. cookie `session_id` = `"${prefix}" + username`, with `httponly=True, max_age=${max_age}`;
  2. cookie `theme` = `"${theme0}"` (no other arguments);
  3. only when `lang` is given (not null): cookie `${lc}` = lang (no other arguments).
  It returns `{"ok": true, "user": <username>}`.
- `POST /theme?value=<string>` (required query parameter `value`) sets cookie `theme` = value (no
  other arguments) and returns `{"theme": <value>}`.
- `GET /me` reads the cookies `session_id`, `theme` and `${lc}` (the cookie names are exactly
  these; note the hyphen in `${lc}`). If there is no `session_id` cookie, or its value does not
  start with `${prefix}`, it answers 401 with `{"detail": "not signed in"}`. Otherwise it returns
  `{"user": <session_id without the "${prefix}" prefix>, "theme": <theme cookie, or "${theme_default}" when
  absent>, "lang": <${lc} cookie, or "${lang_default}" when absent>}`. Query parameters play no part.

Then make these requests in this order with **one** `TestClient(app)` (it stores the cookies the
app sets and sends them back on later requests), each sent as
`client.request(method, url, json=body)` with `body` `None` unless given, and fill `result` with one
row per request: `[status code (integer), the list of Set-Cookie header values in order
(response.headers.get_list("set-cookie"), a list of strings), the JSON body]`:
1. `GET /me`
2. `POST /login` with body `{"username": "${u1}", "lang": "${lang1}"}`
3. `GET /me`
4. `POST /theme?value=${dark}`
5. `GET /me`
6. `POST /login` with body `{"username": "${u2}"}`
7. `GET /me`
''',
    reference=_HEAD + _LOGIN + "\n\n" + _THEME + "\n\n" + _ME + _TAIL,
    probes='''\
def _row(r):
    return [r.status_code, r.headers.get_list("set-cookie"), r.json()]


def probe_fresh_flow(client):
    rows = [_row(client.post("/login", json={"username": "zoe", "lang": "de"}))]
    rows.append(_row(client.get("/me")))
    rows.append(_row(client.post("/theme?value=sepia")))
    rows.append(_row(client.get("/me?session_id=${prefix}mallory")))
    return rows


def probe_explicit_cookie_headers(client):
    rows = []
    for cookie in [
        "session_id=${prefix}kim; ${lc}=pt; theme=blue",
        "session_id=${prefix}kim; ${lc_under}=xx",
        "session_id=kim",
        "theme=dark; ${lc}=it",
        "session_id=${prefix}; theme=; ${lc}=",
        "session_id=",
    ]:
        rows.append(_row(client.get("/me", headers={"Cookie": cookie})))
    return rows


def probe_query_is_not_a_cookie(client):
    return [_row(client.get("/me?session_id=${prefix}eve&theme=x"))]
''',
    original={"prefix": "sess-", "max_age": 3600, "theme0": "light", "lc": "ui-lang", "u1": "ada",
              "lang1": "fr", "u2": "bob", "dark": "dark", "theme_default": "default", "lang_default": "en"},
    space={
        "prefix": ["sess-", "sid:", "s_"],
        "max_age": [3600, 600],
        "theme0": [{"theme0": "light", "dark": "dark", "theme_default": "default"},
                   {"theme0": "solar", "dark": "night", "theme_default": "plain"}],
        "lc": [{"lc": "ui-lang", "lang_default": "en"}, {"lc": "pref-locale", "lang_default": "en-GB"}],
        "u1": [{"u1": "ada", "lang1": "fr", "u2": "bob"}, {"u1": "lin", "lang1": "nl", "u2": "max"}],
    },
    derive=lambda p: {"lc_under": p["lc"].replace("-", "_")},
    instances=48,
    requirements=(
        Requirement(
            "Cookies are set on the injected Response with exactly the listed arguments, in order "
            "(each its own Set-Cookie header with set_cookie's defaults).",
            probes=("fresh_flow",),
            traps=(Edit("theme handler returns its own JSONResponse", _THEME, _THEME_OWN_RESPONSE),
                   Edit("set-cookie header assigned once per cookie", _LOGIN, _LOGIN_ASSIGNS_HEADER),
                   Edit("Set-Cookie headers written by hand", _LOGIN, _LOGIN_HAND_WRITTEN)),
        ),
        Requirement(
            "`GET /me` reads the cookies (never the query string); the lang cookie is exactly "
            "`${lc}`.",
            probes=("query_is_not_a_cookie", "explicit_cookie_headers"),
            traps=(Edit("session cookie read without Cookie() (a query parameter)",
                        "    session_id: Annotated[str | None, Cookie()] = None,", "    session_id: str | None = None,"),
                   Edit("${lc} read without an alias", 'Cookie(alias="${lc}")', "Cookie()")),
        ),
        Requirement(
            "No session cookie, or one not starting with `${prefix}` (the empty value included), "
            "is 401; `${prefix}` alone is the user \"\"; the defaults apply only to absent "
            "cookies (an empty cookie is the empty string).",
            probes=("explicit_cookie_headers",),
            traps=(Edit("empty cookies replaced by the defaults",
                        '"theme": "${theme_default}" if theme is None else theme,',
                        '"theme": theme or "${theme_default}",'),
                   Edit("an empty user name refused",
                        '    if session_id is None or not session_id.startswith("${prefix}"):',
                        '    if session_id is None or not session_id.startswith("${prefix}") or session_id == "${prefix}":')),
        ),
    ),
    expected_rows=[
        [401, [], {"detail": "not signed in"}],
        [200, ["session_id=sess-ada; HttpOnly; Max-Age=3600; Path=/; SameSite=lax",
               "theme=light; Path=/; SameSite=lax", "ui-lang=fr; Path=/; SameSite=lax"],
         {"ok": True, "user": "ada"}],
        [200, [], {"user": "ada", "theme": "light", "lang": "fr"}],
        [200, ["theme=dark; Path=/; SameSite=lax"], {"theme": "dark"}],
        [200, [], {"user": "ada", "theme": "dark", "lang": "fr"}],
        [200, ["session_id=sess-bob; HttpOnly; Max-Age=3600; Path=/; SameSite=lax",
               "theme=light; Path=/; SameSite=lax"],
         {"ok": True, "user": "bob"}],
        [200, [], {"user": "bob", "theme": "light", "lang": "fr"}],
    ],
)
