from fastapi_env.tasks import Task

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
    ("POST", "/login", {"username": "ada", "lang": "fr"}),
    ("GET", "/me", None),
    ("POST", "/theme?value=dark", None),
    ("GET", "/me", None),
    ("POST", "/login", {"username": "bob"}),
    ("GET", "/me", None),
]:
    r = client.request(method, url, json=body)
    result.append([r.status_code, r.headers.get_list("set-cookie"), r.json()])
'''

_LOGIN = '''\
@app.post("/login")
def login(data: Login, response: Response):
    response.set_cookie("session_id", "sess-" + data.username, httponly=True, max_age=3600)
    response.set_cookie("theme", "light")
    if data.lang is not None:
        response.set_cookie("ui-lang", data.lang)
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
    ui_lang: Annotated[str | None, Cookie(alias="ui-lang")] = None,
):
    if session_id is None or not session_id.startswith("sess-"):
        raise HTTPException(status_code=401, detail="not signed in")
    return {"user": session_id[len("sess-"):], "theme": theme or "default", "lang": ui_lang or "en"}
'''

_THEME_OWN_RESPONSE = '''\
@app.post("/theme")
def set_theme(value: str, response: Response):
    response.set_cookie("theme", value)
    return JSONResponse({"theme": value})
'''

_ME_NO_COOKIE_MARKER = '''\
@app.get("/me")
def me(
    session_id: str | None = None,
    theme: Annotated[str | None, Cookie()] = None,
    ui_lang: Annotated[str | None, Cookie(alias="ui-lang")] = None,
):
    if session_id is None or not session_id.startswith("sess-"):
        raise HTTPException(status_code=401, detail="not signed in")
    return {"user": session_id[len("sess-"):], "theme": theme or "default", "lang": ui_lang or "en"}
'''

_ME_NO_ALIAS = _ME.replace('Cookie(alias="ui-lang")', "Cookie()")

_LOGIN_ASSIGNS_HEADER = '''\
@app.post("/login")
def login(data: Login, response: Response):
    response.headers["set-cookie"] = (
        "session_id=sess-" + data.username + "; HttpOnly; Max-Age=3600; Path=/; SameSite=lax"
    )
    response.headers["set-cookie"] = "theme=light; Path=/; SameSite=lax"
    if data.lang is not None:
        response.headers["set-cookie"] = "ui-lang=" + data.lang + "; Path=/; SameSite=lax"
    return {"ok": True, "user": data.username}
'''

_LOGIN_HAND_WRITTEN = '''\
@app.post("/login")
def login(data: Login, response: Response):
    response.headers.append("set-cookie", "session_id=sess-" + data.username + "; HttpOnly; Max-Age=3600")
    response.headers.append("set-cookie", "theme=light")
    if data.lang is not None:
        response.headers.append("set-cookie", "ui-lang=" + data.lang)
    return {"ok": True, "user": data.username}
'''

TASK = Task(
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
  1. cookie `session_id` = `"sess-" + username`, with `httponly=True, max_age=3600`;
  2. cookie `theme` = `"light"` (no other arguments);
  3. only when `lang` is given (not null): cookie `ui-lang` = lang (no other arguments).
  It returns `{"ok": true, "user": <username>}`.
- `POST /theme?value=<string>` (required query parameter `value`) sets cookie `theme` = value (no
  other arguments) and returns `{"theme": <value>}`.
- `GET /me` reads the cookies `session_id`, `theme` and `ui-lang` (the cookie names are exactly
  these; note the hyphen in `ui-lang`). If there is no `session_id` cookie, or its value does not
  start with `sess-`, it answers 401 with `{"detail": "not signed in"}`. Otherwise it returns
  `{"user": <session_id without the "sess-" prefix>, "theme": <theme cookie, or "default" when
  absent>, "lang": <ui-lang cookie, or "en" when absent>}`. Query parameters play no part.

Then make these requests in this order with **one** `TestClient(app)` (it stores the cookies the
app sets and sends them back on later requests), each sent as
`client.request(method, url, json=body)` with `body` `None` unless given, and fill `result` with one
row per request: `[status code (integer), the list of Set-Cookie header values in order
(response.headers.get_list("set-cookie"), a list of strings), the JSON body]`:
1. `GET /me`
2. `POST /login` with body `{"username": "ada", "lang": "fr"}`
3. `GET /me`
4. `POST /theme?value=dark`
5. `GET /me`
6. `POST /login` with body `{"username": "bob"}`
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
    rows.append(_row(client.get("/me?session_id=sess-mallory")))
    return rows


def probe_explicit_cookie_headers(client):
    rows = []
    for cookie in [
        "session_id=sess-kim; ui-lang=pt; theme=blue",
        "session_id=sess-kim; ui_lang=xx",
        "session_id=kim",
        "theme=dark; ui-lang=it",
    ]:
        rows.append(_row(client.get("/me", headers={"Cookie": cookie})))
    return rows


def probe_query_is_not_a_cookie(client):
    return [_row(client.get("/me?session_id=sess-eve&theme=x"))]
''',
    traps={
        "theme handler returns its own JSONResponse": (
            _HEAD + _LOGIN + "\n\n" + _THEME_OWN_RESPONSE + "\n\n" + _ME + _TAIL
        ),
        "session cookie read without Cookie() (a query parameter)": (
            _HEAD + _LOGIN + "\n\n" + _THEME + "\n\n" + _ME_NO_COOKIE_MARKER + _TAIL
        ),
        "ui-lang read without an alias": (
            _HEAD + _LOGIN + "\n\n" + _THEME + "\n\n" + _ME_NO_ALIAS + _TAIL
        ),
        "set-cookie header assigned once per cookie": (
            _HEAD + _LOGIN_ASSIGNS_HEADER + "\n\n" + _THEME + "\n\n" + _ME + _TAIL
        ),
        "Set-Cookie headers written by hand": (
            _HEAD + _LOGIN_HAND_WRITTEN + "\n\n" + _THEME + "\n\n" + _ME + _TAIL
        ),
    },
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
