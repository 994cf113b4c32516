from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `POST /survey`, that receives an HTML survey form (form-encoded,
`application/x-www-form-urlencoded`, or multipart: FastAPI's `Form()` parameters accept both).
Fields are read from the form body only (never from the query string). All validation is
FastAPI's own (standard 422 responses).

Fields, declared in this order:

- `${who}`: string, required. Like any single-valued form field in FastAPI, when the key is
  sent several times the **last** occurrence is used, and a field submitted with an empty
  value counts as not submitted: if the last `${who}` is empty the field is `missing`, even when
  an earlier occurrence had a value.
- `choice`: repeatable (`choice=a&choice=b`): the list of every occurrence in order, each
  exactly as sent. In a list an empty value is kept as the empty string `""`. No `choice` is
  the empty list.
- `rating`: repeatable integers, each between ${rmin} and ${rmax} inclusive; no `rating` is the
  empty list. A bad occurrence (an empty one included) is an error at loc
  `["body", "rating", <its 0-based index>]` (types `int_parsing`, `greater_than_equal`,
  `less_than_equal`), one per bad occurrence.

A request may hold at most ${maxf} form fields, every occurrence of a key counting (empty ones
included). With more, the app answers 400 with `{"detail": "Too many fields. Maximum number of
fields is ${maxf}."}` before any validation (FastAPI's `form_limits={"max_fields": ...}` on the
app does exactly this).

A valid form answers 200 with `{"${who}": ..., "choices": [...], "ratings": [<ints>], "total":
<sum of the ratings>}`.

Then fill `result` with one row per request, in this order. Send each form body exactly as
written, as `client.post("/survey", content=<body>, headers={"Content-Type":
"application/x-www-form-urlencoded"})`. Each row is `[status code (integer), summary]` where
summary is the JSON body for a status other than 422, and for a 422 the list of
`[entry["type"], entry["loc"]]` pairs, one per entry of `detail`, in order.

1. `${who}=ada&choice=tea&choice=&choice=cake&rating=${rmax}&rating=${rmin}`
2. `${who}=ada&${who}=bob&rating=${rabove}`
3. `${who}=&choice=x`
4. `${who}=ada` followed by ${maxf} times `&choice=c`
'''

HEAD = '''\
from typing import Annotated

from fastapi import FastAPI, Form
from fastapi.testclient import TestClient
from pydantic import Field

Rating = Annotated[int, Field(ge=${rmin}, le=${rmax})]

app = FastAPI(form_limits={"max_fields": ${maxf}})

'''

ROUTE = '''\
@app.post("/survey")
def survey(
    ${who}: Annotated[str, Form()],
    choice: Annotated[list[str], Form()] = [],
    rating: Annotated[list[Rating], Form()] = [],
):
    return {"${who}": ${who}, "choices": choice, "ratings": rating, "total": sum(rating)}
'''

TAIL = '''

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def row(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return [r.status_code, r.json()]


client = TestClient(app)
result = [row(client.post("/survey", content=body, headers=FORM)) for body in [
    "${who}=ada&choice=tea&choice=&choice=cake&rating=${rmax}&rating=${rmin}",
    "${who}=ada&${who}=bob&rating=${rabove}",
    "${who}=&choice=x",
    "${who}=ada" + "&choice=c" * ${maxf},
]]
'''

REFERENCE = HEAD + ROUTE + TAIL

PROBES = '''\
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def _row(r):
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return [r.status_code, r.json()]


def _post(client, body, url="/survey"):
    return _row(client.post(url, content=body, headers=FORM))


def probe_single_field_last_wins(client):
    return [_post(client, "${who}=bob&${who}=ada"), _post(client, "${who}=ada&${who}="),
            _post(client, "choice=a"), _post(client, "choice=a", url="/survey?${who}=q"),
            _row(client.post("/survey", json={"${who}": "ada"}))]


def probe_repeated_choices(client):
    multipart = client.post("/survey", data={"choice": ["x", "", "y"]},
                            files={"${who}": (None, "mp")})
    return [_post(client, "${who}=z&choice=&choice="),
            _post(client, "${who}=z&choice=a,b&choice=b"), _row(multipart)]


def probe_rating_bounds(client):
    return [_post(client, "${who}=r&rating=${rbelow}&rating=${rmin}&rating=${rmax}"
                          "&rating=${rabove}"),
            _post(client, "${who}=r&rating=x&rating="),
            _post(client, "${who}=&rating=${rabove}"),
            _post(client, "${who}=r&rating=${rmin}&rating=${rmax}&rating=${rmax}")]


def probe_field_limit(client):
    at_limit = "${who}=ada" + "&choice=" * ${maxf_minus}
    return [_post(client, at_limit), _post(client, at_limit + "&rating=x"),
            _post(client, "rating=x" + "&rating=${rabove}" * ${maxf})]
'''

FAMILY = Family(
    id="forms_files/survey_repeated_fields",
    title="Form fields: last value wins, empty means missing, lists keep empties, a field limit",
    category="forms_files",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"who": "respondent", "rmin": 1, "rmax": 5, "maxf": 6},
    space={
        "who": ["respondent", "email", "team"],
        "rmin": [{"rmin": 1, "rmax": 5}, {"rmin": 0, "rmax": 10}, {"rmin": 1, "rmax": 3}],
        "maxf": [6, 8, 10],
    },
    derive=lambda p: {"rbelow": p["rmin"] - 1, "rabove": p["rmax"] + 1,
                      "maxf_minus": p["maxf"] - 1, "maxf_plus": p["maxf"] + 1},
    instances=27,
    requirements=(
        Requirement(
            "`${who}` is a required form field (never the query string): the last occurrence "
            "is used, and an empty one counts as missing.",
            probes=("single_field_last_wins",),
            traps=(Edit("${who} read from the query string",
                        "    ${who}: Annotated[str, Form()],", "    ${who}: str,"),),
        ),
        Requirement(
            '`choice` collects every occurrence in order, empty values kept as "" and commas '
            "not splitting.",
            probes=("repeated_choices",),
            traps=(Edit("choice declared as a single field (last value only)",
                        "choice: Annotated[list[str], Form()] = [],",
                        "choice: Annotated[str | None, Form()] = None,"),
                   Edit("empty choices dropped", '"choices": choice,',
                        '"choices": [c for c in choice if c],')),
        ),
        Requirement(
            "Each `rating` is an integer in ${rmin}..${rmax} inclusive, errors per bad occurrence "
            "at its index; `total` is their sum.",
            probes=("rating_bounds",),
            traps=(Edit("upper rating bound exclusive", "le=${rmax})", "lt=${rmax})"),
                   Edit("total over the distinct ratings", "sum(rating)}", "sum(set(rating))}")),
        ),
        Requirement(
            "More than ${maxf} form fields (every occurrence counting) is 400 with the "
            "`Too many fields` detail, before validation; ${maxf} is still accepted.",
            probes=("field_limit",),
            traps=(Edit("field limit one too high", '{"max_fields": ${maxf}}',
                        '{"max_fields": ${maxf_plus}}'),
                   Edit("no field limit", 'FastAPI(form_limits={"max_fields": ${maxf}})',
                        "FastAPI()")),
        ),
    ),
)
