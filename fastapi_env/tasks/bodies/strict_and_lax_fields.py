from fastapi_env.tasks import Edit, Family, Requirement

_APP = '''\
from typing import Annotated

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field


class ${model}(BaseModel):
    model_config = ConfigDict()

    sensor: str
${field_lines}

app = FastAPI()


@app.post("/${plural}")
def record(${singular}: ${model}):
    return ${singular}
'''

_RESULT = '''

def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


BASE = {"sensor": "${sensor}", "${f_int}": ${int_ok}, "${f_float}": ${float_ok}, "${f_bool}": True}
client = TestClient(app)
result = [
    row(client.post("/${plural}", json=BASE)),
    row(client.post("/${plural}", json=BASE | {"${f_int}": "${int_ok}"})),
    row(client.post("/${plural}", json=BASE | {"${f_float}": ${int_ok}})),
    row(client.post("/${plural}", json=BASE | {"${f_bool}": "yes"})),
]
'''

_RULES = {
    "int": {
        False: ("a JSON integer, `true`/`false` (as 1/0), a float without a fraction (`7.0`) or a "
                "string holding an integer (surrounding whitespace, `_` between digits and a "
                "`.0` fraction allowed: `\" 7 \"`, `\"1_000\"`, `\"7.0\"`). A float with a "
                "fraction is `int_from_float`, a string that is not an integer (`\"2.5\"`, "
                "`\"abc\"`, `\"\"`) is `int_parsing`"),
        True: "only a JSON integer; anything else (a string, a float, a boolean) is `int_type`",
    },
    "float": {
        False: ("a JSON number, `true`/`false` (as 1.0/0.0) or a numeric string (`\"2.5\"`, "
                "`\" 7 \"`, `\"1_000\"`), always answered as a float; a non-numeric string is "
                "`float_parsing`"),
        True: ("only a JSON number (an integer is accepted and answered as a float); a string "
               "or a boolean is `float_type`"),
    },
    "bool": {
        False: ("`true`/`false`, the integers 0 and 1, and the strings `0`, `1`, `true`, `false`, "
                "`yes`, `no`, `on`, `off`, `t`, `f`, `y`, `n` in any case; any other string or "
                "integer is `bool_parsing`"),
        True: "only `true` or `false`; anything else (a string, a number) is `bool_type`",
    },
}

PROMPT = '''\
Build an app with one route, `POST /${plural}`, whose JSON body is a ${singular}:

- `sensor`: string (a JSON number is `string_type`; it is never converted)
- `${f_int}`: integer, ${int_mode}: ${int_rule}
- `${f_float}`: float, ${float_mode}: ${float_rule}
- `${f_bool}`: boolean, ${bool_mode}: ${bool_rule}

All four are required. "Strict" fields accept only their own JSON type; "lax" fields accept
exactly the conversions listed (these are Pydantic's strict and lax modes). A valid body
answers 200 with the validated values `{"sensor": ..., "${f_int}": <int>, "${f_float}":
<float>, "${f_bool}": <bool>}`. Anything else is FastAPI's standard 422 with one entry per
invalid field, at loc `["body", <field>]`, of the type given above.

Then fill `result` with one row per request, in this order, each
`client.post("/${plural}", json=body)` where `BASE` is
`{"sensor": "${sensor}", "${f_int}": ${int_ok}, "${f_float}": ${float_ok}, "${f_bool}": true}`.
For a 422 the row is `[422, [[type, loc] for each entry of detail, in order]]`; otherwise
`[status code (integer), the JSON body]`.

1. `BASE`
2. `BASE` with `${f_int}` set to the string `"${int_ok}"`
3. `BASE` with `${f_float}` set to the integer `${int_ok}`
4. `BASE` with `${f_bool}` set to the string `"yes"`
'''

PROBES = '''\
BASE = {"sensor": "${sensor}", "${f_int}": ${int_ok}, "${f_float}": ${float_ok}, "${f_bool}": True}


def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in body["detail"]]]
    return [response.status_code, body]


def _send(client, field, values):
    return [[repr(v), _row(client.post("/${plural}", json=BASE | {field: v}))] for v in values]


def probe_integer_field(client):
    return _send(client, "${f_int}", [" ${int_ok} ", "1_000", "${int_ok}.0", ${int_ok}.0, 2.5,
                                      "2.5", "", True])


def probe_float_field(client):
    return _send(client, "${f_float}", ["2.5", " ${int_ok} ", "abc", False, 0])


def probe_boolean_field(client):
    return _send(client, "${f_bool}", ["OFF", "n", 0, 1, "maybe", 2, "true"])


def probe_sensor_and_several_errors(client):
    rows = _send(client, "sensor", [${int_ok}, ""])
    bad = {"sensor": 1, "${f_int}": "x", "${f_float}": "y", "${f_bool}": "z"}
    rows.append(["all", _row(client.post("/${plural}", json=bad))])
    rows.append(["empty", _row(client.post("/${plural}", json={}))])
    return rows
'''

_DOMAINS = [
    {"singular": "reading", "plural": "readings", "model": "Reading", "f_int": "count",
     "f_float": "level", "f_bool": "calibrated", "sensor": "t-01"},
    {"singular": "sample", "plural": "samples", "model": "Sample", "f_int": "batch",
     "f_float": "ph", "f_bool": "sealed", "sensor": "lab-7"},
    {"singular": "ping", "plural": "pings", "model": "Ping", "f_int": "hops",
     "f_float": "latency", "f_bool": "ok", "sensor": "edge"},
]

# Which of (int, float, bool) are strict: every mix except none and all, so that a strict
# field and a lax field always sit side by side.
_STRICT = [["int"], ["float"], ["bool"], ["int", "float"], ["int", "bool"], ["float", "bool"]]


def _line(p, kind):
    name, strict = p[f"f_{kind}"], kind in p["strict"]
    return f"    {name}: Annotated[{kind}, Field(strict=True)]" if strict else f"    {name}: {kind}"


def _derive(p):
    first = p["strict"][0]
    name = p[f"f_{first}"]
    out = {
        "field_lines": "\n".join(_line(p, k) for k in ("int", "float", "bool")) + "\n",
        "strict_line": f"    {name}: Annotated[{first}, Field(strict=True)]\n",
        "strict_line_lax": f"    {name}: {first}\n",
    }
    for kind in ("int", "float", "bool"):
        strict = kind in p["strict"]
        out[f"{kind}_mode"] = "**strict**" if strict else "**lax**"
        out[f"{kind}_rule"] = _RULES[kind][strict]
    return out


FAMILY = Family(
    id="bodies/strict_and_lax_fields",
    title="Strict and lax body fields side by side: which JSON values each converts",
    category="bodies",
    difficulty="hard",
    prompt=PROMPT,
    reference=_APP + _RESULT,
    probes=PROBES,
    original=_DOMAINS[0] | {"strict": ["int"], "int_ok": 7, "float_ok": 0.5},
    space={
        "domain": _DOMAINS,
        "strict": _STRICT,
        "values": [{"int_ok": 7, "float_ok": 0.5}, {"int_ok": 42, "float_ok": 3.25},
                   {"int_ok": 3, "float_ok": 12.5}],
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            lambda p: (f"The strict field(s) {', '.join(p['f_' + k] for k in p['strict'])} accept "
                       "only their own JSON type (an integer for a float), with the `*_type` "
                       "errors."),
            probes=("integer_field", "float_field", "boolean_field"),
            traps=(Edit("a strict field declared lax", "${strict_line}", "${strict_line_lax}"),),
        ),
        Requirement(
            "The lax fields convert exactly the listed values and report `int_from_float`, "
            "`int_parsing`, `float_parsing` or `bool_parsing` for the rest.",
            probes=("integer_field", "float_field", "boolean_field"),
            traps=(Edit("the whole model strict", "    model_config = ConfigDict()\n",
                        "    model_config = ConfigDict(strict=True)\n"),),
        ),
        Requirement(
            "`sensor` is a string and never converted from a number; every invalid field is its "
            "own entry, in field order.",
            probes=("sensor_and_several_errors",),
            traps=(Edit("numbers converted to strings",
                        "    model_config = ConfigDict()\n",
                        "    model_config = ConfigDict(coerce_numbers_to_str=True)\n"),),
        ),
    ),
)
