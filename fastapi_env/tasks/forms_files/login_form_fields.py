from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.family import render


def _field_lines(p):
    user = f"- `{p['user']}`: string, required\n"
    password = f"- `{p['password']}`: string, required\n"
    return password + user if p["password_first"] else user + password


PROMPT_HEAD = '''\
Build an app with one route, `POST /login`, that receives an HTML login form. The request
body is form-encoded (`application/x-www-form-urlencoded`); the fields are read from the form
body only (never from the query string, never from a JSON body). Form fields, in this order:

'''

PROMPT_TAIL = '''\
- `${remember}`: boolean, optional, default `${default_word}`. It comes from a checkbox, so a checked box
  arrives as `on`. Accept the usual boolean spellings, case-insensitively: `true`/`1`/`yes`/`on`
  (and `t`/`y`) are true, `false`/`0`/`no`/`off` (and `f`/`n`) are false. Any other value is
  rejected with a 422 validation error of type `bool_parsing` at loc `["body", "${remember}"]`.

Accounts, in memory:

    ACCOUNTS = ${accounts_literal}

Behaviour:
- A missing required field is FastAPI's standard 422 validation error: one entry in `detail`
  per missing field, in field order, each with type `missing` and loc `["body", "<field>"]`.
  A request whose body is JSON carries no form fields, so every required field is missing.
- An unknown ${user} or a wrong ${password}: ${fail_status} with the JSON body `{"detail": "${detail}"}`.
- Otherwise 200 with the JSON body `{"${user}": <${user}>, "${remember}": <the boolean>}`.

Then fill `result` with one row per request, in this order. Send a form with
`client.post("/login", data={...})` and JSON with `client.post("/login", json={...})`.
Each row is `[status code (integer), summary]`, where summary is the JSON body (object) when
the status is not 422, and for a 422 the list of `[entry["type"], entry["loc"]]` pairs (a
string and a list), one per entry of the body's `detail` list, in the order given there.

1. `data={"${user}": "${u1}", "${password}": "${p1}"}`
2. `data={"${user}": "${u2}", "${password}": "${p2}", "${remember}": "on"}`
3. `data={"${user}": "${u1}", "${password}": "${p2}"}`
4. `json={"${user}": "${u1}", "${password}": "${p1}"}`
5. `data={"${user}": "${u2}"}`
'''


def _prompt(p):
    return render(PROMPT_HEAD, p) + _field_lines(p) + render(PROMPT_TAIL, p)


def _params_code(p):
    user = f"    {p['user']}: Annotated[str, Form()],\n"
    password = f"    {p['password']}: Annotated[str, Form()],\n"
    return password + user if p["password_first"] else user + password


_HANDLER_TAIL = '''\
    ${remember}: Annotated[bool, Form()] = ${default},
):
    if ACCOUNTS.get(${user}) != ${password}:
        raise HTTPException(status_code=${fail_status}, detail="${detail}")
    return {"${user}": ${user}, "${remember}": ${remember}}
'''

_HANDLER = '''\
@app.post("/login")
def login(
${params_code}\
''' + _HANDLER_TAIL

REFERENCE = '''\
from typing import Annotated

from fastapi import FastAPI, Form, HTTPException
from fastapi.testclient import TestClient

ACCOUNTS = ${accounts_literal}

app = FastAPI()


''' + _HANDLER + '''

def summarize(response):
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/login", data={"${user}": "${u1}", "${password}": "${p1}"})),
    summarize(client.post("/login", data={"${user}": "${u2}", "${password}": "${p2}", "${remember}": "on"})),
    summarize(client.post("/login", data={"${user}": "${u1}", "${password}": "${p2}"})),
    summarize(client.post("/login", json={"${user}": "${u1}", "${password}": "${p1}"})),
    summarize(client.post("/login", data={"${user}": "${u2}"})),
]
'''

PROBES = '''\
def _summary(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def _login(client, **extra):
    return _summary(client.post("/login", data={"${user}": "${u1}", "${password}": "${p1}", **extra}))


def probe_remember_spellings(client):
    rows = []
    for value in ["yes", "TRUE", "1", "off", "0", "maybe", "On", "N", "2", "checked"]:
        rows.append([value, _login(client, ${remember}=value)])
    return rows


def probe_remember_default(client):
    return [_summary(client.post("/login", data={"${user}": "${u2}", "${password}": "${p2}"}))]


def probe_query_string_is_not_the_form(client):
    rows = [_summary(client.post("/login?${user}=${u1}&${password}=${p1}"))]
    rows.append(_summary(client.post("/login?${password}=${p1}", data={"${user}": "${u1}"})))
    return rows


def probe_json_body_is_not_the_form(client):
    return [
        _summary(client.post("/login", json={"${user}": "${u2}", "${password}": "${p2}", "${remember}": True})),
        _summary(client.post("/login", json={})),
    ]


def probe_missing_fields_in_order(client):
    rows = [_summary(client.post("/login", data={"${password}": "${p1}"}))]
    rows.append(_summary(client.post("/login", data={"other": "x"})))
    rows.append(_summary(client.post("/login", data={"${user}": "${u1}", "${remember}": "perhaps"})))
    rows.append(_summary(client.post("/login")))
    return rows


def probe_unknown_user_and_wrong_password(client):
    rows = []
    for user, password in [("${stranger}", "${p1}"), ("${u1_upper}", "${p1}"), ("${u1}", "${p1_upper}"),
                           ("${u1} ", "${p1}"), ("${u2}", "${p1}"), ("${p1}", "${u1}"), ("${u2}", "${p2}")]:
        data = {"${user}": user, "${password}": password, "${remember}": "no"}
        rows.append(_summary(client.post("/login", data=data)))
    return rows
'''

_ACCOUNTS = [
    {"u1": "ada", "p1": "hunter2", "u2": "bob", "p2": "swordfish", "stranger": "eve"},
    {"u1": "cy", "p1": "letmein", "u2": "dee", "p2": "opensesame", "stranger": "mallory"},
    {"u1": "lin", "p1": "blue-moon", "u2": "max", "p2": "Tr0ub4dor", "stranger": "trent"},
]


def _derive(p):
    accounts = {p["u1"]: p["p1"], p["u2"]: p["p2"]}
    return {
        "accounts_literal": "{" + ", ".join(f'"{u}": "{pw}"' for u, pw in accounts.items()) + "}",
        "default_word": "true" if p["default"] else "false",
        "other_default": not p["default"],
        "other_status": 403 if p["fail_status"] != 403 else 401,
        "params_code": _params_code(p),
        "u1_upper": p["u1"].upper(), "p1_upper": p["p1"].upper(),
    }


_PASSWORD_FIRST_SWAP = Edit(
    "the two required fields declared in the other order",
    lambda p: _params_code(p),
    lambda p: _params_code(p | {"password_first": not p["password_first"]}),
)

FAMILY = Family(
    id="forms_files/login_form_fields",
    title="A login endpoint that reads an HTML form, not JSON",
    category="forms_files",
    difficulty="easy",
    prompt=_prompt,
    reference=REFERENCE,
    probes=PROBES,
    original={"user": "username", "password": "password", "remember": "remember",
              "password_first": False, "default": False, "fail_status": 401,
              "detail": "invalid credentials", **_ACCOUNTS[0]},
    space={
        "fields": [{"user": "username", "password": "password", "remember": "remember"},
                   {"user": "login", "password": "secret", "remember": "keep"},
                   {"user": "user", "password": "passphrase", "remember": "stay"}],
        "password_first": [False, True],
        "default": [False, True],
        "failure": [{"fail_status": 401, "detail": "invalid credentials"},
                    {"fail_status": 403, "detail": "wrong name or password"}],
        "accounts": _ACCOUNTS,
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            "The fields come from the form body only: the same names in the query string or in "
            "a JSON body are not read (every required field not in the form is `missing`).",
            probes=("query_string_is_not_the_form", "json_body_is_not_the_form"),
            traps=(
                Edit("plain parameters (read from the query string)", "Annotated[str, Form()]", "str",
                     count=2),
                Edit("a JSON body model", _HANDLER, lambda p: (
                    "from pydantic import BaseModel\n\n\nclass LoginForm(BaseModel):\n"
                    f"    {p['user']}: str\n    {p['password']}: str\n"
                    f"    {p['remember']}: bool = {p['default']}\n\n\n"
                    '@app.post("/login")\ndef login(form: LoginForm):\n'
                    f"    if ACCOUNTS.get(form.{p['user']}) != form.{p['password']}:\n"
                    f'        raise HTTPException(status_code={p["fail_status"]}, detail="{p["detail"]}")\n'
                    f'    return {{"{p["user"]}": form.{p["user"]}, "{p["remember"]}": form.{p["remember"]}}}\n')),
                Edit("lenient parser that also accepts JSON", _HANDLER, lambda p: (
                    "from fastapi import Request\nfrom fastapi.responses import JSONResponse\n\n"
                    'TRUE = {"true", "1", "yes", "on", "t", "y"}\n'
                    'FALSE = {"false", "0", "no", "off", "f", "n"}\n\n\n'
                    '@app.post("/login")\nasync def login(request: Request):\n'
                    '    if request.headers.get("content-type", "").startswith("application/json"):\n'
                    "        fields = await request.json()\n    else:\n"
                    "        fields = dict(await request.form())\n"
                    '    names = [n for n in ' + repr([p["password"], p["user"]] if p["password_first"]
                                                     else [p["user"], p["password"]]) + ' if n not in fields]\n'
                    '    errors = [{"type": "missing", "loc": ["body", n]} for n in names]\n'
                    f'    remember = str(fields.get("{p["remember"]}", "{p["default_word"]}")).lower()\n'
                    "    if remember not in TRUE | FALSE:\n"
                    f'        errors.append({{"type": "bool_parsing", "loc": ["body", "{p["remember"]}"]}})\n'
                    "    if errors:\n"
                    '        return JSONResponse({"detail": errors}, status_code=422)\n'
                    f'    if ACCOUNTS.get(fields["{p["user"]}"]) != fields["{p["password"]}"]:\n'
                    f'        return JSONResponse({{"detail": "{p["detail"]}"}}, status_code={p["fail_status"]})\n'
                    f'    return {{"{p["user"]}": fields["{p["user"]}"], "{p["remember"]}": remember in TRUE}}\n')),
            ),
        ),
        Requirement(
            "`${remember}` accepts the listed spellings in any case (anything else is "
            "`bool_parsing`) and defaults to `${default_word}`.",
            probes=("remember_spellings", "remember_default"),
            traps=(
                Edit("checkbox compared with 'on' by hand", _HANDLER_TAIL,
                     _HANDLER_TAIL.replace("Annotated[bool, Form()] = ${default}",
                                           'Annotated[str, Form()] = "${default_word}"')
                     .replace('"${remember}": ${remember}}', '"${remember}": ${remember} in ("on", "true")}')),
                Edit("wrong default for the checkbox", "Annotated[bool, Form()] = ${default},",
                     "Annotated[bool, Form()] = ${other_default},"),
            ),
        ),
        Requirement(
            "Missing fields are FastAPI's 422, one `missing` entry per field in the stated field "
            "order (with a bad `${remember}` after them).",
            probes=("missing_fields_in_order",),
            traps=(_PASSWORD_FIRST_SWAP,),
        ),
        Requirement(
            "Only the exact ${user} and its own ${password} log in (case and whitespace count); "
            'anything else is ${fail_status} `{"detail": "${detail}"}`.',
            probes=("unknown_user_and_wrong_password",),
            traps=(
                Edit("password compared case-insensitively", "if ACCOUNTS.get(${user}) != ${password}:",
                     'if (ACCOUNTS.get(${user}) or "").lower() != ${password}.lower():'),
                Edit("user name trimmed and lower-cased", "if ACCOUNTS.get(${user}) != ${password}:",
                     "if ACCOUNTS.get(${user}.strip().lower()) != ${password}:"),
                Edit("any known password accepted", "if ACCOUNTS.get(${user}) != ${password}:",
                     "if ${password} not in ACCOUNTS.values():"),
                Edit("wrong failure status", "status_code=${fail_status}", "status_code=${other_status}"),
            ),
        ),
    ),
    expected_rows=[
        [200, {"username": "ada", "remember": False}],
        [200, {"username": "bob", "remember": True}],
        [401, {"detail": "invalid credentials"}],
        [422, [["missing", ["body", "username"]], ["missing", ["body", "password"]]]],
        [422, [["missing", ["body", "password"]]]],
    ],
)
