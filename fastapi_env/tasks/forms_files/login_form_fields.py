from fastapi_env.tasks import Task

TASK = Task(
    id="forms_files/login_form_fields",
    title="A login endpoint that reads an HTML form, not JSON",
    category="forms_files",
    difficulty="easy",
    prompt='''\
Build an app with one route, `POST /login`, that receives an HTML login form. The request
body is form-encoded (`application/x-www-form-urlencoded`); the fields are read from the form
body only (never from the query string, never from a JSON body). Form fields, in this order:

- `username`: string, required
- `password`: string, required
- `remember`: boolean, optional, default `false`. It comes from a checkbox, so a checked box
  arrives as `on`. Accept the usual boolean spellings, case-insensitively: `true`/`1`/`yes`/`on`
  (and `t`/`y`) are true, `false`/`0`/`no`/`off` (and `f`/`n`) are false. Any other value is
  rejected with a 422 validation error of type `bool_parsing` at loc `["body", "remember"]`.

Accounts, in memory:

    ACCOUNTS = {"ada": "hunter2", "bob": "swordfish"}

Behaviour:
- A missing required field is FastAPI's standard 422 validation error: one entry in `detail`
  per missing field, in field order, each with type `missing` and loc `["body", "<field>"]`.
  A request whose body is JSON carries no form fields, so every required field is missing.
- An unknown username or a wrong password: 401 with the JSON body `{"detail": "invalid credentials"}`.
- Otherwise 200 with the JSON body `{"username": <username>, "remember": <the boolean>}`.

Then fill `result` with one row per request, in this order. Send a form with
`client.post("/login", data={...})` and JSON with `client.post("/login", json={...})`.
Each row is `[status code (integer), summary]`, where summary is the JSON body (object) when
the status is not 422, and for a 422 the list of `[entry["type"], entry["loc"]]` pairs (a
string and a list), one per entry of the body's `detail` list, in the order given there.

1. `data={"username": "ada", "password": "hunter2"}`
2. `data={"username": "bob", "password": "swordfish", "remember": "on"}`
3. `data={"username": "ada", "password": "swordfish"}`
4. `json={"username": "ada", "password": "hunter2"}`
5. `data={"username": "bob"}`
''',
    reference='''\
from typing import Annotated

from fastapi import FastAPI, Form, HTTPException
from fastapi.testclient import TestClient

ACCOUNTS = {"ada": "hunter2", "bob": "swordfish"}

app = FastAPI()


@app.post("/login")
def login(
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    remember: Annotated[bool, Form()] = False,
):
    if ACCOUNTS.get(username) != password:
        raise HTTPException(status_code=401, detail="invalid credentials")
    return {"username": username, "remember": remember}


def summarize(response):
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/login", data={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob", "password": "swordfish", "remember": "on"})),
    summarize(client.post("/login", data={"username": "ada", "password": "swordfish"})),
    summarize(client.post("/login", json={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob"})),
]
''',
    probes='''\
def _summary(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def probe_remember_spellings(client):
    rows = []
    for value in ["yes", "TRUE", "1", "off", "0", "maybe"]:
        r = client.post("/login", data={"username": "ada", "password": "hunter2", "remember": value})
        rows.append([value, _summary(r)])
    return rows


def probe_query_string_is_not_the_form(client):
    r = client.post("/login?username=ada&password=hunter2")
    return [_summary(r)]


def probe_unknown_user_and_empty_form(client):
    rows = [_summary(client.post("/login", data={"username": "eve", "password": "hunter2"}))]
    rows.append(_summary(client.post("/login", data={"password": "hunter2"})))
    rows.append(_summary(client.post("/login", data={"other": "x"})))
    return rows
''',
    traps={
        "plain parameters (read from the query string)": '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient

ACCOUNTS = {"ada": "hunter2", "bob": "swordfish"}
app = FastAPI()


@app.post("/login")
def login(username: str, password: str, remember: bool = False):
    if ACCOUNTS.get(username) != password:
        raise HTTPException(status_code=401, detail="invalid credentials")
    return {"username": username, "remember": remember}


def summarize(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/login", data={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob", "password": "swordfish", "remember": "on"})),
    summarize(client.post("/login", data={"username": "ada", "password": "swordfish"})),
    summarize(client.post("/login", json={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob"})),
]
''',
        "a JSON body model": '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

ACCOUNTS = {"ada": "hunter2", "bob": "swordfish"}


class LoginForm(BaseModel):
    username: str
    password: str
    remember: bool = False


app = FastAPI()


@app.post("/login")
def login(form: LoginForm):
    if ACCOUNTS.get(form.username) != form.password:
        raise HTTPException(status_code=401, detail="invalid credentials")
    return {"username": form.username, "remember": form.remember}


def summarize(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/login", data={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob", "password": "swordfish", "remember": "on"})),
    summarize(client.post("/login", data={"username": "ada", "password": "swordfish"})),
    summarize(client.post("/login", json={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob"})),
]
''',
        "lenient parser that also accepts JSON": '''\
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

ACCOUNTS = {"ada": "hunter2", "bob": "swordfish"}
TRUE = {"true", "1", "yes", "on", "t", "y"}
FALSE = {"false", "0", "no", "off", "f", "n"}
app = FastAPI()


@app.post("/login")
async def login(request: Request):
    if request.headers.get("content-type", "").startswith("application/json"):
        fields = await request.json()
    else:
        fields = dict(await request.form())
    errors = [
        {"type": "missing", "loc": ["body", name], "msg": "Field required", "input": None}
        for name in ("username", "password")
        if name not in fields
    ]
    remember = str(fields.get("remember", "false")).lower()
    if remember not in TRUE | FALSE:
        errors.append({"type": "bool_parsing", "loc": ["body", "remember"], "msg": "bad", "input": remember})
    if errors:
        return JSONResponse({"detail": errors}, status_code=422)
    if ACCOUNTS.get(fields["username"]) != fields["password"]:
        return JSONResponse({"detail": "invalid credentials"}, status_code=401)
    return {"username": fields["username"], "remember": remember in TRUE}


def summarize(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/login", data={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob", "password": "swordfish", "remember": "on"})),
    summarize(client.post("/login", data={"username": "ada", "password": "swordfish"})),
    summarize(client.post("/login", json={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob"})),
]
''',
        "checkbox compared with 'on' by hand": '''\
from typing import Annotated

from fastapi import FastAPI, Form, HTTPException
from fastapi.testclient import TestClient

ACCOUNTS = {"ada": "hunter2", "bob": "swordfish"}
app = FastAPI()


@app.post("/login")
def login(
    username: Annotated[str, Form()],
    password: Annotated[str, Form()],
    remember: Annotated[str, Form()] = "off",
):
    if ACCOUNTS.get(username) != password:
        raise HTTPException(status_code=401, detail="invalid credentials")
    return {"username": username, "remember": remember == "on"}


def summarize(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/login", data={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob", "password": "swordfish", "remember": "on"})),
    summarize(client.post("/login", data={"username": "ada", "password": "swordfish"})),
    summarize(client.post("/login", json={"username": "ada", "password": "hunter2"})),
    summarize(client.post("/login", data={"username": "bob"})),
]
''',
    },
    expected_rows=[
        [200, {"username": "ada", "remember": False}],
        [200, {"username": "bob", "remember": True}],
        [401, {"detail": "invalid credentials"}],
        [422, [["missing", ["body", "username"]], ["missing", ["body", "password"]]]],
        [422, [["missing", ["body", "password"]]]],
    ],
)
