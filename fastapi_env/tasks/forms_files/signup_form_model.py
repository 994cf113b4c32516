from fastapi_env.tasks import Task

_SUMMARY = '''\
def summarize(response):
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/signup", data={"username": "ada", "age": "36", "newsletter": "on"})),
    summarize(client.post("/signup", data={"username": "grace", "age": "45", "nickname": ""})),
    summarize(client.post("/signup", data={"username": "linus", "age": "28", "referrer": "ad"})),
    summarize(client.post("/signup", data={"username": "al", "age": "12"})),
    summarize(client.post("/signup", json={"username": "ada", "age": 36})),
]
'''

TASK = Task(
    id="forms_files/signup_form_model",
    title="A signup form read into one Pydantic form model with strict fields",
    category="forms_files",
    difficulty="hard",
    prompt='''\
Build an app with one route, `POST /signup`, that receives an HTML signup form (the body is
form-encoded, `application/x-www-form-urlencoded`). Read the whole form into one Pydantic model
`SignupForm` declared as form data (the form fields are the model's fields; nothing is read from
JSON). Fields, declared in this order:

- `username`: string, required, 3 to 12 characters
- `age`: integer, required, at least 13
- `nickname`: string or null, optional (null when not given), at most 20 characters
- `newsletter`: boolean, optional, default `false`; it comes from a checkbox (a checked box
  arrives as `on`) and accepts FastAPI's usual boolean spellings (`on`/`off`, `yes`/`no`,
  `true`/`false`, `1`/`0`, ...)

Rules:
- The form may contain no other field: every unknown field is reported as a validation error
  of type `extra_forbidden` at loc `["body", "<field name>"]`.
- Like an HTML form, a field submitted with an empty value (e.g. `nickname=`) counts as not
  submitted at all: an optional field then takes its default, a required one is `missing`.
- Invalid input is FastAPI's standard 422 validation error, with entries of type `missing`,
  `string_too_short`, `string_too_long`, `int_parsing`, `greater_than_equal`, `bool_parsing` or
  `extra_forbidden`, each at loc `["body", "<field>"]`. The `detail` list holds the errors of
  the declared fields first, in field order, then one entry per unknown field, in the order the
  fields were sent. A JSON body carries no form fields, so every required field is missing.
- A valid form answers 201 with the JSON body
  `{"username": ..., "age": <int>, "nickname": <string or null>, "newsletter": <bool>}`.

Then fill `result` with one row per request, in this order. Send each form with
`client.post("/signup", data={...})` and the JSON with `client.post("/signup", json={...})`.
Each row is `[status code (integer), summary]`, where summary is the JSON body (object) when
the status is not 422, and for a 422 the list of `[entry["type"], entry["loc"]]` pairs (a
string and a list), one per entry of the body's `detail` list, in the order given there.

1. `data={"username": "ada", "age": "36", "newsletter": "on"}`
2. `data={"username": "grace", "age": "45", "nickname": ""}`
3. `data={"username": "linus", "age": "28", "referrer": "ad"}`
4. `data={"username": "al", "age": "12"}`
5. `json={"username": "ada", "age": 36}`
''',
    reference='''\
from typing import Annotated

from fastapi import FastAPI, Form
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field


class SignupForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=3, max_length=12)
    age: int = Field(ge=13)
    nickname: str | None = Field(default=None, max_length=20)
    newsletter: bool = False


app = FastAPI()


@app.post("/signup", status_code=201)
def signup(form: Annotated[SignupForm, Form()]):
    return form.model_dump()


''' + _SUMMARY,
    probes='''\
def _summary(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def probe_empty_values_count_as_absent(client):
    rows = [_summary(client.post("/signup", data={"username": "hopper", "age": "85",
                                                    "nickname": "", "newsletter": ""}))]
    rows.append(_summary(client.post("/signup", data={"username": "hopper", "age": ""})))
    rows.append(_summary(client.post("/signup", data={"username": "", "age": "20", "nickname": ""})))
    return rows


def probe_nickname_and_checkbox(client):
    rows = [_summary(client.post("/signup", data={"username": "ada", "age": "13",
                                                    "nickname": "Countess", "newsletter": "no"}))]
    rows.append(_summary(client.post("/signup", data={"username": "ada", "age": "20",
                                                        "nickname": "x" * 21, "newsletter": "maybe"})))
    rows.append(_summary(client.post("/signup", data={"username": "margaret_ham", "age": "abc"})))
    rows.append(_summary(client.post("/signup", data={"username": "margaret_hami", "age": "30"})))
    return rows


def probe_unknown_fields_after_field_errors(client):
    rows = [_summary(client.post("/signup", data={"zeta": "1", "username": "ada", "alpha": "2"}))]
    rows.append(_summary(client.post("/signup", data={"username": "ada", "age": "30",
                                                        "password": "x", "newsletter": "on"})))
    return rows
''',
    traps={
        "separate Form() parameters (unknown fields pass)": '''\
from typing import Annotated

from fastapi import FastAPI, Form
from fastapi.testclient import TestClient

app = FastAPI()


@app.post("/signup", status_code=201)
def signup(
    username: Annotated[str, Form(min_length=3, max_length=12)],
    age: Annotated[int, Form(ge=13)],
    nickname: Annotated[str | None, Form(max_length=20)] = None,
    newsletter: Annotated[bool, Form()] = False,
):
    return {"username": username, "age": age, "nickname": nickname, "newsletter": newsletter}


''' + _SUMMARY,
        "form model without extra='forbid'": '''\
from typing import Annotated

from fastapi import FastAPI, Form
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class SignupForm(BaseModel):
    username: str = Field(min_length=3, max_length=12)
    age: int = Field(ge=13)
    nickname: str | None = Field(default=None, max_length=20)
    newsletter: bool = False


app = FastAPI()


@app.post("/signup", status_code=201)
def signup(form: Annotated[SignupForm, Form()]):
    return form.model_dump()


''' + _SUMMARY,
        "request.form() fed into the model (empty strings kept)": '''\
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, ValidationError


class SignupForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=3, max_length=12)
    age: int = Field(ge=13)
    nickname: str | None = Field(default=None, max_length=20)
    newsletter: bool = False


app = FastAPI()


@app.post("/signup", status_code=201)
async def signup(request: Request):
    form = await request.form()
    try:
        data = SignupForm(**dict(form))
    except ValidationError as exc:
        errors = [{**e, "loc": ["body", *e["loc"]]} for e in exc.errors(include_url=False)]
        raise RequestValidationError(errors)
    return data.model_dump()


''' + _SUMMARY,
        "a JSON body model": '''\
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field


class SignupForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=3, max_length=12)
    age: int = Field(ge=13)
    nickname: str | None = Field(default=None, max_length=20)
    newsletter: bool = False


app = FastAPI()


@app.post("/signup", status_code=201)
def signup(form: SignupForm):
    return form.model_dump()


''' + _SUMMARY,
    },
    expected_rows=[
        [201, {"username": "ada", "age": 36, "nickname": None, "newsletter": True}],
        [201, {"username": "grace", "age": 45, "nickname": None, "newsletter": False}],
        [422, [["extra_forbidden", ["body", "referrer"]]]],
        [422, [["string_too_short", ["body", "username"]], ["greater_than_equal", ["body", "age"]]]],
        [422, [["missing", ["body", "username"]], ["missing", ["body", "age"]]]],
    ],
)
