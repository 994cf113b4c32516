from fastapi_env.tasks import Edit, Family, Requirement

_MODEL = '''\
from typing import Annotated

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, field_validator, model_validator
from pydantic_core import PydanticCustomError


class ${model}(BaseModel):
    code: Annotated[str, Field(min_length=${cmin}, max_length=${cmax})]
    ${lo}: int = Field(ge=0)
    ${hi}: int = Field(ge=0)

    @field_validator("code", mode="before")
    @classmethod
    def trim_code(cls, value):
        # before the length check: surrounding spaces never count
        return value.strip() if isinstance(value, str) else value

    @field_validator("code")
    @classmethod
    def code_is_alphanumeric(cls, value: str) -> str:
        if not value.isalnum():
            raise ValueError("code must be letters and digits")
        return value.upper()

    @model_validator(mode="after")
    def check_range(self):
        # runs only once every field is valid
        if self.${hi} <= self.${lo}:
            raise PydanticCustomError("range_order", "${hi} must be greater than ${lo}")
        span = self.${hi} - self.${lo}
        if span > ${span_max}:
            raise PydanticCustomError(
                "range_too_wide", "${span_word} of {span} exceeds {limit}",
                {"span": span, "limit": ${span_max}},
            )
        return self


app = FastAPI()


@app.post("/${plural}")
def create(${singular}: ${model}):
    return {"code": ${singular}.code, "${lo}": ${singular}.${lo}, "${hi}": ${singular}.${hi},
            "${span_word}": ${singular}.${hi} - ${singular}.${lo}}
'''

_RESULT = '''

def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["msg"], e.get("ctx")] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
BODIES = [
    {"code": "  ${code_ok} ", "${lo}": 2, "${hi}": ${hi_ok}},
    {"code": "${code_bad}", "${lo}": 2, "${hi}": 2},
    {"code": "${code_ok}", "${lo}": 5, "${hi}": 4},
    {"code": "${code_ok}", "${lo}": 0, "${hi}": ${hi_wide}},
]
result = [row(client.post("/${plural}", json=body)) for body in BODIES]
'''

PROMPT = '''\
Build an app with one route, `POST /${plural}`, whose JSON body is a ${singular}:

- `code`: string. Surrounding whitespace is removed first, then the trimmed value must be
  ${cmin} to ${cmax} characters (FastAPI's `string_too_short` / `string_too_long`) and only
  letters and digits (otherwise type `value_error` with msg
  `Value error, code must be letters and digits`). It is stored upper-cased.
- `${lo}` and `${hi}`: integers, each at least 0 (`greater_than_equal`).
- Rules across fields, checked only when every field above is valid, in this order, each a
  single error entry at loc `["body"]`:
  1. `${hi}` must be greater than `${lo}`: otherwise type `range_order`, msg
     `${hi} must be greater than ${lo}` (no ctx);
  2. `${hi} - ${lo}` (the ${span_word}) must be at most ${span_max}: otherwise type
     `range_too_wide`, msg `${span_word} of <${span_word}> exceeds ${span_max}`, ctx
     `{"span": <${span_word}>, "limit": ${span_max}}`.

A valid body answers 200 with `{"code": <stored code>, "${lo}": ..., "${hi}": ...,
"${span_word}": <${hi} - ${lo}>}`. Every invalid body is FastAPI's standard 422, one entry per
error.

Then fill `result` with one row per request, in this order, each `client.post("/${plural}",
json=body)`. For a 422 the row is `[422, [[type, loc, msg, ctx] for each entry of detail, in
order]]`, `ctx` being the entry's `ctx` or null when it has none; otherwise
`[status code (integer), the JSON body]`.

1. `{"code": "  ${code_ok} ", "${lo}": 2, "${hi}": ${hi_ok}}`
2. `{"code": "${code_bad}", "${lo}": 2, "${hi}": 2}`
3. `{"code": "${code_ok}", "${lo}": 5, "${hi}": 4}`
4. `{"code": "${code_ok}", "${lo}": 0, "${hi}": ${hi_wide}}`
'''

PROBES = '''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["msg"], e.get("ctx")] for e in body["detail"]]]
    return [response.status_code, body]


def _post(client, body):
    return _row(client.post("/${plural}", json=body))


def probe_code_trimmed_before_length(client):
    return [
        _post(client, {"code": " ${code_short} ", "${lo}": 1, "${hi}": 2}),
        _post(client, {"code": "\\t${code_max}  ", "${lo}": 1, "${hi}": 2}),
        _post(client, {"code": "${code_max}x", "${lo}": 1, "${hi}": 2}),
        _post(client, {"code": "   ", "${lo}": 1, "${hi}": 2}),
        _post(client, {"code": 12345, "${lo}": 1, "${hi}": 2}),
    ]


def probe_code_characters_and_case(client):
    return [
        _post(client, {"code": "${code_mixed}", "${lo}": 1, "${hi}": 2}),
        _post(client, {"code": "${code_inner_space}", "${lo}": 1, "${hi}": 2}),
        _post(client, {"code": "${code_digits}", "${lo}": 1, "${hi}": 2}),
    ]


def probe_cross_rules_wait_for_valid_fields(client):
    return [
        _post(client, {"code": "${code_bad}", "${lo}": 9, "${hi}": 1}),
        _post(client, {"code": "${code_ok}", "${lo}": -1, "${hi}": ${hi_wide}}),
        _post(client, {"code": "${code_ok}", "${lo}": 3}),
        _post(client, {"code": "${code_ok}", "${lo}": 3, "${hi}": 3}),
    ]


def probe_span_limit(client):
    return [
        _post(client, {"code": "${code_ok}", "${lo}": 10, "${hi}": ${at_limit}}),
        _post(client, {"code": "${code_ok}", "${lo}": 10, "${hi}": ${past_limit}}),
        _post(client, {"code": "${code_ok}", "${lo}": 0, "${hi}": 1}),
    ]
'''

_DOMAINS = [
    {"singular": "booking", "plural": "bookings", "model": "Booking", "lo": "check_in",
     "hi": "check_out", "span_word": "nights"},
    {"singular": "band", "plural": "bands", "model": "PriceBand", "lo": "min_price",
     "hi": "max_price", "span_word": "width"},
    {"singular": "shift", "plural": "shifts", "model": "Shift", "lo": "start_hour",
     "hi": "end_hour", "span_word": "hours"},
]


def _derive(p):
    return {
        "code_ok": "ab1c"[: max(p["cmin"], 3)] if p["cmin"] <= 4 else "ab1cd2"[: p["cmin"]],
        "code_bad": "a-b" + "c" * max(0, p["cmin"] - 3),
        "code_short": "q" * (p["cmin"] - 1),
        "code_max": "m" * p["cmax"],
        "code_mixed": ("xY" * p["cmax"])[: p["cmin"]],
        "code_inner_space": ("a b" + "c" * p["cmax"])[: p["cmax"]],
        "code_digits": "7" * p["cmin"],
        "hi_ok": 2 + p["span_max"] - 1, "hi_wide": p["span_max"] + 1,
        "at_limit": 10 + p["span_max"], "past_limit": 11 + p["span_max"],
        "cmin_plus": p["cmin"] + 1,
    }


_RANGE_ORDER = '''\
        if self.${hi} <= self.${lo}:
            raise PydanticCustomError("range_order", "${hi} must be greater than ${lo}")
'''

_AFTER_VALIDATOR = '''\
    @model_validator(mode="after")
    def check_range(self):
        # runs only once every field is valid
        if self.${hi} <= self.${lo}:
            raise PydanticCustomError("range_order", "${hi} must be greater than ${lo}")
        span = self.${hi} - self.${lo}
'''

_BEFORE_VALIDATOR = '''\
    @model_validator(mode="before")
    @classmethod
    def check_range(cls, data):
        self = type("Raw", (), data) if isinstance(data, dict) else data
        if self.${hi} <= self.${lo}:
            raise PydanticCustomError("range_order", "${hi} must be greater than ${lo}")
        span = self.${hi} - self.${lo}
'''

FAMILY = Family(
    id="bodies/cross_field_validation",
    title="Field and model validators: trimming before length, custom error types, rule order",
    category="bodies",
    difficulty="hard",
    prompt=PROMPT,
    reference=_MODEL + _RESULT,
    probes=PROBES,
    original=_DOMAINS[0] | {"cmin": 3, "cmax": 6, "span_max": 14},
    space={
        "domain": _DOMAINS,
        "code": [{"cmin": 3, "cmax": 6}, {"cmin": 2, "cmax": 4}, {"cmin": 4, "cmax": 8}],
        "span_max": [14, 7, 30],
    },
    derive=_derive,
    instances=27,
    requirements=(
        Requirement(
            "`code` is trimmed before its length (${cmin}..${cmax}) is checked; a non-string is "
            "`string_type`.",
            probes=("code_trimmed_before_length",),
            traps=(Edit("code trimmed after the length check",
                        '    @field_validator("code", mode="before")\n',
                        '    @field_validator("code", mode="after")\n'),
                   Edit("code length bound off by one", "Field(min_length=${cmin},",
                        "Field(min_length=${cmin_plus},")),
        ),
        Requirement(
            "`code` must be letters and digits (`value_error`, `Value error, code must be letters "
            "and digits`) and is stored upper-cased.",
            probes=("code_characters_and_case",),
            traps=(Edit("code not upper-cased", "        return value.upper()\n",
                        "        return value\n"),
                   Edit("digits-only code rejected", "if not value.isalnum():",
                        "if not value.isalnum() or value.isdigit():")),
        ),
        Requirement(
            "The cross-field rules run only when every field is valid: a body with a field error "
            "reports only the field errors.",
            probes=("cross_rules_wait_for_valid_fields",),
            traps=(Edit("cross-field rules in a before-validator on the raw data",
                        _AFTER_VALIDATOR, _BEFORE_VALIDATOR),),
        ),
        Requirement(
            "`${hi}` not greater than `${lo}` is one `range_order` entry at `[\"body\"]` with the "
            "stated msg and no ctx.",
            probes=("cross_rules_wait_for_valid_fields",),
            traps=(Edit("range order raised as a ValueError", _RANGE_ORDER,
                        _RANGE_ORDER.replace('PydanticCustomError("range_order", ',
                                             "ValueError(")),),
        ),
        Requirement(
            "A ${span_word} of at most ${span_max} is valid; more is one `range_too_wide` entry "
            "with the formatted msg and ctx `{span, limit}`.",
            probes=("span_limit",),
            traps=(Edit("span limit exclusive", "if span > ${span_max}:",
                        "if span >= ${span_max}:"),),
        ),
    ),
)
