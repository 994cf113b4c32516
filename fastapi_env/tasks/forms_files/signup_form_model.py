from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `POST /signup`, that receives an HTML signup form (the body is
form-encoded, `application/x-www-form-urlencoded`). Read the whole form into one Pydantic model
`SignupForm` declared as form data (the form fields are the model's fields; nothing is read from
JSON). Fields, declared in this order:

- `username`: string, required, ${umin} to ${umax} characters
- `age`: integer, required, at least ${age_min}
- `nickname`: string or null, optional (null when not given), at most ${nick_max} characters
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
- A valid form answers ${created} with the JSON body
  `{"username": ..., "age": <int>, "nickname": <string or null>, "newsletter": <bool>}`.

Then fill `result` with one row per request, in this order. Send each form with
`client.post("/signup", data={...})` and the JSON with `client.post("/signup", json={...})`.
Each row is `[status code (integer), summary]`, where summary is the JSON body (object) when
the status is not 422, and for a 422 the list of `[entry["type"], entry["loc"]]` pairs (a
string and a list), one per entry of the body's `detail` list, in the order given there.

1. `data={"username": "${n1}", "age": "${a1}", "newsletter": "on"}`
2. `data={"username": "${n2}", "age": "${a2}", "nickname": ""}`
3. `data={"username": "${n3}", "age": "${a3}", "${extra}": "ad"}`
4. `data={"username": "${n_short}", "age": "${age_young}"}`
5. `json={"username": "${n1}", "age": ${a1}}`
'''

_MODEL = '''\
class SignupForm(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: str = Field(min_length=${umin}, max_length=${umax})
    age: int = Field(ge=${age_min})
    nickname: str | None = Field(default=None, max_length=${nick_max})
    newsletter: bool = False
'''

_ROUTE = '''\
@app.post("/signup", status_code=${created})
def signup(form: Annotated[SignupForm, Form()]):
    return form.model_dump()
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import FastAPI, Form
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field


''' + _MODEL + '''

app = FastAPI()


''' + _ROUTE + '''

def summarize(response):
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [
    summarize(client.post("/signup", data={"username": "${n1}", "age": "${a1}", "newsletter": "on"})),
    summarize(client.post("/signup", data={"username": "${n2}", "age": "${a2}", "nickname": ""})),
    summarize(client.post("/signup", data={"username": "${n3}", "age": "${a3}", "${extra}": "ad"})),
    summarize(client.post("/signup", data={"username": "${n_short}", "age": "${age_young}"})),
    summarize(client.post("/signup", json={"username": "${n1}", "age": ${a1}})),
]
'''

PROBES = '''\
def _summary(r):
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [r.status_code, body]


def _signup(client, **form):
    return _summary(client.post("/signup", data=form))


def probe_empty_values_count_as_absent(client):
    return [
        _signup(client, username="${n1}", age="85", nickname="", newsletter=""),
        _signup(client, username="${n1}", age=""),
        _signup(client, username="", age="40", nickname=""),
    ]


def probe_bounds(client):
    return [
        _signup(client, username="${n_min}", age="${age_min}", nickname="${nick_ok}"),
        _signup(client, username="${n_max}", age="${age_young}", nickname="${nick_long}"),
        _signup(client, username="${n_long}", age="abc"),
        _signup(client, username="${n_short}", age="-1"),
        _signup(client, username="${n_max}", age="${age_min}"),
    ]


def probe_newsletter_spellings(client):
    rows = []
    for value in ["no", "YES", "off", "1", "maybe", "checked"]:
        rows.append([value, _signup(client, username="${n1}", age="30", newsletter=value)])
    rows.append(["absent", _signup(client, username="${n1}", age="30")])
    return rows


def probe_unknown_fields_after_field_errors(client):
    return [
        _signup(client, zeta="1", username="${n1}", alpha="2"),
        _signup(client, username="${n1}", age="30", password="x", newsletter="on"),
        _signup(client, username="${n1}", age="30", ${extra}="ad", nick="x"),
    ]


def probe_json_is_not_the_form(client):
    r = client.post("/signup", json={"username": "${n1}", "age": 30, "newsletter": True})
    return [_summary(r), _summary(client.post("/signup", json={}))]


def probe_success_status(client):
    return [[client.post("/signup", data={"username": "${n1}", "age": "40"}).status_code]]
'''

_DATA = [
    {"n1": "ada", "a1": 36, "n2": "grace", "a2": 45, "n3": "linus", "a3": 28, "extra": "referrer"},
    {"n1": "alan", "a1": 41, "n2": "karen", "a2": 64, "n3": "dennis", "a3": 30, "extra": "promo"},
    {"n1": "joan", "a1": 19, "n2": "barbara", "a2": 52, "n3": "niklaus", "a3": 87, "extra": "source"},
]

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _derive(p):
    return {
        "n_short": "alan"[: p["umin"] - 1], "age_young": p["age_min"] - 1,
        "n_min": _LETTERS[: p["umin"]], "n_max": _LETTERS[: p["umax"]], "n_long": _LETTERS[: p["umax"] + 1],
        "nick_ok": "x" * p["nick_max"], "nick_long": "x" * (p["nick_max"] + 1),
        "umax_minus": p["umax"] - 1, "umin_plus": p["umin"] + 1, "age_plus": p["age_min"] + 1,
        "nick_minus": p["nick_max"] - 1, "other_created": 200 if p["created"] != 200 else 201,
    }


def _names_fit(p):
    names = [p["n1"], p["n2"], p["n3"]]
    ages = [p["a1"], p["a2"], p["a3"]]
    return all(p["umin"] <= len(n) <= p["umax"] for n in names) and min(ages) >= p["age_min"]


_FIELD_PARAMS = '''\
@app.post("/signup", status_code=${created})
def signup(
    username: Annotated[str, Form(min_length=${umin}, max_length=${umax})],
    age: Annotated[int, Form(ge=${age_min})],
    nickname: Annotated[str | None, Form(max_length=${nick_max})] = None,
    newsletter: Annotated[bool, Form()] = False,
):
    return {"username": username, "age": age, "nickname": nickname, "newsletter": newsletter}
'''

_FORM_BY_HAND = '''\
@app.post("/signup", status_code=${created})
async def signup(request: Request):
    form = await request.form()
    try:
        data = SignupForm(**dict(form))
    except ValidationError as exc:
        errors = [{**e, "loc": ["body", *e["loc"]]} for e in exc.errors(include_url=False)]
        raise RequestValidationError(errors) from None
    return data.model_dump()
'''

FAMILY = Family(
    id="forms_files/signup_form_model",
    title="A signup form read into one Pydantic form model with strict fields",
    category="forms_files",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"umin": 3, "umax": 12, "age_min": 13, "nick_max": 20, "created": 201, **_DATA[0]},
    space={
        "username": [{"umin": 3, "umax": 12}, {"umin": 2, "umax": 8}, {"umin": 4, "umax": 16}],
        "age_min": [13, 16, 18],
        "nick_max": [20, 10, 30],
        "created": [201, 200],
        "data": _DATA,
    },
    derive=_derive,
    valid=_names_fit,
    instances=40,
    requirements=(
        Requirement(
            "The whole form is read into the form model; a JSON body carries no form field "
            "(every required field is `missing`).",
            probes=("json_is_not_the_form",),
            traps=(Edit("a JSON body model", "form: Annotated[SignupForm, Form()]", "form: SignupForm"),),
        ),
        Requirement(
            "Unknown fields are `extra_forbidden` at `[\"body\", <name>]`, listed after the "
            "declared fields' errors, in the order they were sent.",
            probes=("unknown_fields_after_field_errors",),
            traps=(
                Edit("separate Form() parameters (unknown fields pass)", _ROUTE, _FIELD_PARAMS),
                Edit("form model without extra='forbid'", '    model_config = ConfigDict(extra="forbid")\n\n',
                     ""),
            ),
        ),
        Requirement(
            "A field sent with an empty value counts as not sent: optional ones take their "
            "default, required ones are `missing`.",
            probes=("empty_values_count_as_absent",),
            traps=(Edit("request.form() fed into the model (empty strings kept)", _ROUTE,
                        "from fastapi import Request  # noqa: E402\n"
                        "from fastapi.exceptions import RequestValidationError  # noqa: E402\n"
                        "from pydantic import ValidationError  # noqa: E402\n\n\n" + _FORM_BY_HAND),),
        ),
        Requirement(
            "`username` is ${umin} to ${umax} characters, `age` at least ${age_min}, `nickname` "
            "at most ${nick_max} characters (each bound itself accepted, one past it rejected "
            "with the stated error type).",
            probes=("bounds",),
            traps=(
                Edit("username bounds off by one", "Field(min_length=${umin}, max_length=${umax})",
                     "Field(min_length=${umin}, max_length=${umax_minus})"),
                Edit("username minimum off by one", "Field(min_length=${umin}, max_length=${umax})",
                     "Field(min_length=${umin_plus}, max_length=${umax})"),
                Edit("age must exceed the minimum", "Field(ge=${age_min})", "Field(gt=${age_min})"),
                Edit("nickname bound off by one", "max_length=${nick_max})", "max_length=${nick_minus})"),
            ),
        ),
        Requirement(
            "`newsletter` takes FastAPI's boolean spellings in any case (others are "
            "`bool_parsing`) and defaults to false.",
            probes=("newsletter_spellings",),
            traps=(
                Edit("checkbox kept as text and compared with 'on'", _MODEL,
                     "from pydantic import field_validator\n\n\n" + _MODEL.replace(
                         "    newsletter: bool = False\n",
                         '    newsletter: str = "off"\n\n'
                         '    @field_validator("newsletter")\n    @classmethod\n'
                         '    def checked(cls, value):\n        return value == "on"\n')),
            ),
        ),
        Requirement(
            "A valid form answers ${created}.",
            probes=("success_status",),
            traps=(Edit("wrong success status", "status_code=${created})", "status_code=${other_created})"),),
        ),
    ),
    expected_rows=[
        [201, {"username": "ada", "age": 36, "nickname": None, "newsletter": True}],
        [201, {"username": "grace", "age": 45, "nickname": None, "newsletter": False}],
        [422, [["extra_forbidden", ["body", "referrer"]]]],
        [422, [["string_too_short", ["body", "username"]], ["greater_than_equal", ["body", "age"]]]],
        [422, [["missing", ["body", "username"]], ["missing", ["body", "age"]]]],
    ],
)
