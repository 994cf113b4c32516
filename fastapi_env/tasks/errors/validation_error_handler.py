from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import BODY

_HEAD = '''\
from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, ValidationError, field_validator

EVENTS = {${e1}: "${t1}", ${e2}: "${t2}"}


class Registration(BaseModel):
    name: str
    age: int = Field(ge=${min_age})
    tags: list[str] = []

    @field_validator("name")
    @classmethod
    def no_digits(cls, value: str) -> str:
        if any(ch.isdigit() for ch in value):
            raise ValueError("name must not contain digits")
        return value


app = FastAPI()
'''

_HANDLER = '''

@app.exception_handler(RequestValidationError)
async def validation_handler(request: Request, exc: RequestValidationError):
    problems = [
        {
            "where": error["loc"][0],
            "field": "${sep}".join(str(part) for part in error["loc"][1:]),
            "type": error["type"],
            "message": error["msg"],
        }
        for error in exc.errors()
    ]
    return JSONResponse(
        status_code=${status},
        content={"error": "${code}", "problems": problems, "received": exc.body},
    )
'''

_ROUTES = '''

@app.get("/events/{event_id}")
def read_event(event_id: int):
    if event_id not in EVENTS:
        raise HTTPException(status_code=404, detail="event not found")
    return {"event_id": event_id, "title": EVENTS[event_id]}


@app.post("/events/{event_id}/registrations", status_code=201)
def register(event_id: int, registration: Registration, notify: bool = False):
    if event_id not in EVENTS:
        raise HTTPException(status_code=404, detail="event not found")
    return {"event_id": event_id, "notify": notify, **registration.model_dump()}
'''

_RESULT = '''

client = TestClient(app)
result = []
for path, body in [
    ("/events/${e1}/registrations?notify=true", {"name": "${name}", "age": ${age_ok}, "tags": ["vip"]}),
    ("/events/${e1}/registrations", {"name": "R2D2", "age": ${age_low}}),
    ("/events/x/registrations?notify=maybe", {"age": "old", "tags": ["a", 5]}),
    ("/events/${unknown}/registrations", {"name": "Bo", "age": 40}),
]:
    r = client.post(path, json=body)
    result.append([r.status_code, r.json()])
'''

_REFERENCE = _HEAD + _HANDLER + _ROUTES + _RESULT

_PYDANTIC_HANDLER = _HANDLER.replace(
    "@app.exception_handler(RequestValidationError)\nasync def validation_handler(request: Request, exc: RequestValidationError):",
    "@app.exception_handler(ValidationError)\nasync def validation_handler(request: Request, exc: ValidationError):",
).replace('"received": exc.body', '"received": None')

FAMILY = Family(
    id="errors/validation_error_handler",
    title="Replace FastAPI's 422 with a custom 400 validation error format",
    category="errors",
    difficulty="medium",
    prompt='''\
Build an event-registration API whose request-validation errors use the company's own format
instead of FastAPI's default 422.

Events live in memory: `{${e1}: "${t1}", ${e2}: "${t2}"}` (id -> title). Registration bodies follow
this model (use it as is):

    class Registration(BaseModel):
        name: str
        age: int = Field(ge=${min_age})
        tags: list[str] = []

        @field_validator("name")
        @classmethod
        def no_digits(cls, value: str) -> str:
            if any(ch.isdigit() for ch in value):
                raise ValueError("name must not contain digits")
            return value

Routes:
- `GET /events/{event_id}` (`event_id` integer): 200 `{"event_id": <id>, "title": <title>}`.
- `POST /events/{event_id}/registrations` (`event_id` integer; optional boolean query parameter
  `notify`, default false; JSON body a `Registration`): 201 with
  `{"event_id": <id>, "notify": <bool>, "name": ..., "age": ..., "tags": [...]}`.
- Both answer 404 with FastAPI's usual `{"detail": "event not found"}` for an unknown event id.
  Only request-validation errors change format; other errors keep FastAPI's defaults.

Whenever FastAPI rejects a request because its path/query parameters or body fail validation,
answer **${status}** (not 422) with this JSON body:

    {"error": "${code}",
     "problems": [<one object per validation error, in the order FastAPI reports them>],
     "received": <the request's JSON body as FastAPI parsed it, or null if the request had no body>}

Each problem is `{"where": <first element of the error's loc, e.g. "body", "query", "path">,
"field": <the remaining elements of loc converted to strings and joined with "${sep}", e.g.
"tags${sep}1"; "" if there are none>, "type": <the error's type>, "message": <the error's msg>}`.
The type and msg are exactly what FastAPI reports in its default 422 body; for instance the
validator above produces type `value_error` with msg `Value error, name must not contain digits`.

Then fill `result` with one row per request (all `POST`, with the given JSON body), in this
order, each row `[status code (integer), the JSON body]`:
1. `/events/${e1}/registrations?notify=true` with `{"name": "${name}", "age": ${age_ok}, "tags": ["vip"]}`
2. `/events/${e1}/registrations` with `{"name": "R2D2", "age": ${age_low}}`
3. `/events/x/registrations?notify=maybe` with `{"age": "old", "tags": ["a", 5]}`
4. `/events/${unknown}/registrations` with `{"name": "Bo", "age": 40}`
''',
    reference=_REFERENCE,
    probes=BODY + '''

def probe_path_error_without_body(client):
    rows = []
    r = client.get("/events/abc")
    rows.append([r.status_code, _body(r)])
    r = client.get("/events/${e2}")
    rows.append([r.status_code, r.json()])
    r = client.get("/events/${unknown}")
    rows.append([r.status_code, r.json()])
    return rows


def probe_missing_body(client):
    r = client.post("/events/${e2}/registrations")
    rows = [[r.status_code, _body(r)]]
    r = client.post("/events/${e2}/registrations", json={"name": "Cy", "age": ${age_ok}, "tags": ["x", "y", 3]})
    rows.append([r.status_code, _body(r)])  # a nested loc: the field is joined with the separator
    return rows


def probe_valid_defaults(client):
    rows = []
    for body in [{"name": "Cy", "age": ${min_age}}, {"name": "", "age": ${age_ok}, "tags": []}, {}]:
        r = client.post("/events/${e2}/registrations", json=body)
        rows.append([r.status_code, r.json()])
    return rows
''',
    original={"e1": 1, "e2": 2, "t1": "meetup", "t2": "workshop", "unknown": 9, "min_age": 18,
              "sep": ".", "status": 400, "code": "invalid_request", "name": "Ann"},
    space={
        "e1": [{"e1": 1, "e2": 2, "unknown": 9}, {"e1": 7, "e2": 30, "unknown": 8}],
        "t1": [{"t1": "meetup", "t2": "workshop", "name": "Ann"}, {"t1": "gala", "t2": "hackathon", "name": "Ola"}],
        "min_age": [18, 16, 21],
        "sep": [".", "/", "->"],
        "status": [{"status": 400, "code": "invalid_request"}, {"status": 400, "code": "bad_input"},
                   {"status": 406, "code": "invalid_request"}],
    },
    derive=lambda p: {"age_ok": 30, "age_low": p["min_age"] - 1, "wrong_sep": "." if p["sep"] != "." else "/"},
    instances=60,
    requirements=(
        Requirement(
            "Request-validation errors (path, query and body alike) answer ${status} with "
            '`{"error": "${code}", "problems": [...], "received": ...}`; problems in FastAPI\'s '
            'order with where, field (joined with "${sep}"), type and msg.',
            probes=("path_error_without_body", "missing_body", "valid_defaults"),
            traps=(Edit("handler registered for pydantic.ValidationError", _HANDLER,
                        _PYDANTIC_HANDLER),
                   Edit("custom body but status left at 422", "status_code=${status},", "status_code=422,"),
                   Edit("field joined with dots", '"field": "${sep}".join(', '"field": "${wrong_sep}".join(')),
        ),
        Requirement(
            "`received` is the body as FastAPI parsed it, or null when the request had none.",
            probes=("path_error_without_body", "missing_body"),
            traps=(Edit("received taken from await request.json()", '"received": exc.body',
                        '"received": await request.json()'),),
        ),
        Requirement(
            "`age` must be at least ${min_age} (${min_age} itself is accepted); an empty name is a "
            "valid name; `tags` defaults to [] and `notify` to false.",
            probes=("valid_defaults",),
            traps=(Edit("age bound exclusive", "age: int = Field(ge=${min_age})",
                        "age: int = Field(gt=${min_age})"),
                   Edit("empty names rejected", "        if any(ch.isdigit() for ch in value):",
                        "        if not value or any(ch.isdigit() for ch in value):")),
        ),
        Requirement(
            'An unknown event id is FastAPI\'s usual 404 `{"detail": "event not found"}` on both routes.',
            probes=("path_error_without_body",),
            traps=(Edit("GET of an unknown event answers a null title",
                        '    if event_id not in EVENTS:\n        raise HTTPException(status_code=404, detail="event not found")\n'
                        '    return {"event_id": event_id, "title": EVENTS[event_id]}',
                        '    return {"event_id": event_id, "title": EVENTS.get(event_id)}'),),
        ),
    ),
    expected_rows=[
        [201, {"event_id": 1, "notify": True, "name": "Ann", "age": 30, "tags": ["vip"]}],
        [400, {
            "error": "invalid_request",
            "problems": [
                {"where": "body", "field": "name", "type": "value_error",
                 "message": "Value error, name must not contain digits"},
                {"where": "body", "field": "age", "type": "greater_than_equal",
                 "message": "Input should be greater than or equal to 18"},
            ],
            "received": {"name": "R2D2", "age": 17},
        }],
        [400, {
            "error": "invalid_request",
            "problems": [
                {"where": "path", "field": "event_id", "type": "int_parsing",
                 "message": "Input should be a valid integer, unable to parse string as an integer"},
                {"where": "query", "field": "notify", "type": "bool_parsing",
                 "message": "Input should be a valid boolean, unable to interpret input"},
                {"where": "body", "field": "name", "type": "missing", "message": "Field required"},
                {"where": "body", "field": "age", "type": "int_parsing",
                 "message": "Input should be a valid integer, unable to parse string as an integer"},
                {"where": "body", "field": "tags.1", "type": "string_type",
                 "message": "Input should be a valid string"},
            ],
            "received": {"age": "old", "tags": ["a", 5]},
        }],
        [404, {"detail": "event not found"}],
    ],
)
