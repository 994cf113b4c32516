from fastapi_env.tasks import Edit, Family, Requirement

# Three kinds of one resource, told apart by a tag field. Kind A has a length-bounded string and
# an integer, kind B one required string, kind C one integer with a default. The union lists the
# kinds in the instance's order, which FastAPI reports back in `expected_tags`.
_MODELS = '''\
from typing import Annotated, Literal

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class ${cls_a}(BaseModel):
    ${tag}: Literal["${kind_a}"]
    ${a_str}: str = Field(min_length=${amin})
    ${a_int}: int


class ${cls_b}(BaseModel):
    ${tag}: Literal["${kind_b}"]
    ${b_str}: str


class ${cls_c}(BaseModel):
    ${tag}: Literal["${kind_c}"]
    ${c_int}: int = ${cdef}


${union} = Annotated[${union_members}, Field(discriminator="${tag}")]

app = FastAPI()


@app.post("/${plural}")
def create_one(${singular}: ${union}):
    return ${singular}


@app.post("/${plural}/batch")
def create_batch(${plural}: Annotated[list[${union}], Field(min_length=1, max_length=${bmax})]):
    return {"count": len(${plural}), "kinds": [x.${tag} for x in ${plural}]}
'''

_RESULT = '''

def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e.get("ctx")] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
REQUESTS = [
    ("/${plural}", {"${tag}": "${kind_a}", "${a_str}": "${a_ok}", "${a_int}": 7}),
    ("/${plural}", {"${tag}": "${kind_c}"}),
    ("/${plural}", {"${tag}": "${kind_a}", "${a_str}": "${a_short}", "${a_int}": "x"}),
    ("/${plural}", {"${tag}": "${kind_unknown}", "${b_str}": "z"}),
    ("/${plural}/batch", [{"${tag}": "${kind_b}", "${b_str}": "q"}, {"${tag}": "${kind_b}"}]),
]
result = [row(client.post(url, json=body)) for url, body in REQUESTS]
'''

PROMPT = '''\
Build an app that accepts three kinds of ${singular}, told apart by the JSON field `${tag}`
(a discriminated union). The kinds, declared in this order:

1. `${tag}` = `"${first}"`
2. `${tag}` = `"${second}"`
3. `${tag}` = `"${third}"`

with these fields besides `${tag}`:

- kind `"${kind_a}"`: `${a_str}` (string, required, at least ${amin} characters) and `${a_int}`
  (integer, required)
- kind `"${kind_b}"`: `${b_str}` (string, required)
- kind `"${kind_c}"`: `${c_int}` (integer, optional, default ${cdef})

Extra keys are ignored, and fields are parsed in FastAPI's default (lax) mode, so a numeric
string such as `"12"` is accepted for an integer. The value of `${tag}` selects the kind exactly (case-sensitive, a JSON
string) and only that kind's fields are validated. Validation is FastAPI's standard 422, and
its entries must look like this:

- a body without `${tag}`: one entry, type `union_tag_not_found`, loc `["body"]`;
- a `${tag}` that names no kind (another string, other case, a number, null): one entry, type
  `union_tag_invalid`, loc `["body"]`, ctx `{"discriminator": "'${tag}'", "tag": <the value
  sent>, "expected_tags": "${expected_tags}"}` (the kinds in the order above);
- an invalid field of a known kind: one entry per invalid field of that kind only, at loc
  `["body", <the kind's tag>, <field>]`.

Routes:
- `POST /${plural}`: the body is one ${singular}. Answers 200 with the validated ${singular}:
  `${tag}` and that kind's fields, defaults filled in, nothing else.
- `POST /${plural}/batch`: the body is a JSON array of 1 to ${bmax} ${plural} (each as above).
  Answers 200 with `{"count": <number of items>, "kinds": [<each item's ${tag}, in order>]}`.
  An item's errors are reported like the single route's with the item's index after `"body"`
  (`["body", <index>, ...]`); an empty array is one `too_short` entry and more than ${bmax}
  items one `too_long` entry, both at loc `["body"]`.

Then fill `result` with one row per request, in this order, each sent as
`client.post(url, json=body)`. For a 422 the row is `[422, [[type, loc, ctx] for each entry of
detail, in order]]` where `ctx` is the entry's `ctx` object or null when it has none; for any
other response `[status code (integer), the JSON body]`.

1. `/${plural}` with `{"${tag}": "${kind_a}", "${a_str}": "${a_ok}", "${a_int}": 7}`
2. `/${plural}` with `{"${tag}": "${kind_c}"}`
3. `/${plural}` with `{"${tag}": "${kind_a}", "${a_str}": "${a_short}", "${a_int}": "x"}`
4. `/${plural}` with `{"${tag}": "${kind_unknown}", "${b_str}": "z"}`
5. `/${plural}/batch` with `[{"${tag}": "${kind_b}", "${b_str}": "q"}, {"${tag}": "${kind_b}"}]`
'''

PROBES = '''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e.get("ctx")] for e in body["detail"]]]
    return [response.status_code, body]


def probe_each_kind_and_defaults(client):
    return [
        _row(client.post("/${plural}", json={"${tag}": "${kind_b}", "${b_str}": "",
                                             "${a_int}": 3})),
        _row(client.post("/${plural}", json={"${tag}": "${kind_c}", "${c_int}": "12"})),
        _row(client.post("/${plural}", json={"${tag}": "${kind_c}", "${a_str}": "extra"})),
        _row(client.post("/${plural}", json={"${tag}": "${kind_a}", "${a_str}": "${a_min}",
                                             "${a_int}": 0})),
    ]


def probe_tag_errors(client):
    rows = []
    for body in [{}, {"${b_str}": "q"}, {"${tag}": "${kind_b_upper}", "${b_str}": "q"},
                 {"${tag}": 1}, {"${tag}": None, "${c_int}": 1}]:
        rows.append(_row(client.post("/${plural}", json=body)))
    return rows


def probe_field_errors_of_known_kind(client):
    return [
        _row(client.post("/${plural}", json={"${tag}": "${kind_b}"})),
        _row(client.post("/${plural}", json={"${tag}": "${kind_c}", "${c_int}": "many"})),
        _row(client.post("/${plural}", json={"${tag}": "${kind_a}", "${b_str}": "q"})),
    ]


def probe_batch(client):
    item_b = {"${tag}": "${kind_b}", "${b_str}": "q"}
    return [
        _row(client.post("/${plural}/batch", json=[{"${tag}": "${kind_c}"}, item_b])),
        _row(client.post("/${plural}/batch", json=[])),
        _row(client.post("/${plural}/batch", json=[item_b] * ${bmax})),
        _row(client.post("/${plural}/batch", json=[item_b] * ${bmax_over})),
        _row(client.post("/${plural}/batch", json=[item_b, {"${tag}": "${kind_unknown}"}])),
        _row(client.post("/${plural}/batch",
                         json=[{"${tag}": "${kind_a}", "${a_str}": "${a_short}", "${a_int}": 1}])),
    ]
'''

_DOMAINS = [
    {"singular": "payment", "plural": "payments", "tag": "method", "union": "Payment",
     "cls_a": "Card", "kind_a": "card", "a_str": "number", "a_int": "cvc",
     "cls_b": "Transfer", "kind_b": "transfer", "b_str": "iban",
     "cls_c": "Voucher", "kind_c": "voucher", "c_int": "amount", "kind_unknown": "cash"},
    {"singular": "shape", "plural": "shapes", "tag": "type", "union": "Shape",
     "cls_a": "Label", "kind_a": "label", "a_str": "text", "a_int": "size",
     "cls_b": "Icon", "kind_b": "icon", "b_str": "glyph",
     "cls_c": "Dot", "kind_c": "dot", "c_int": "radius", "kind_unknown": "circle"},
    {"singular": "notice", "plural": "notices", "tag": "channel", "union": "Notice",
     "cls_a": "Sms", "kind_a": "sms", "a_str": "phone", "a_int": "retries",
     "cls_b": "Email", "kind_b": "email", "b_str": "address",
     "cls_c": "Push", "kind_c": "push", "c_int": "badge", "kind_unknown": "fax"},
]

# The declaration order of the kinds, as indices into (a, b, c).
_ORDERS = ["abc", "cab", "bca"]


def _derive(p):
    kinds = {"a": p["kind_a"], "b": p["kind_b"], "c": p["kind_c"]}
    classes = {"a": p["cls_a"], "b": p["cls_b"], "c": p["cls_c"]}
    ordered = [kinds[k] for k in p["order"]]
    members = " | ".join(classes[k] for k in p["order"])
    return {
        "first": ordered[0], "second": ordered[1], "third": ordered[2],
        "expected_tags": ", ".join(f"'{k}'" for k in ordered),
        "union_members": members,
        "union_members_reversed": " | ".join(classes[k] for k in reversed(p["order"])),
        "a_ok": "x" * (p["amin"] + 2), "a_min": "m" * p["amin"], "a_short": "s" * (p["amin"] - 1),
        "kind_b_upper": p["kind_b"].capitalize(),
        "bmax_over": p["bmax"] + 1, "bmax_minus": p["bmax"] - 1,
        "cdef_other": p["cdef"] + 1, "amin_plus": p["amin"] + 1,
    }


_BATCH_ANNOTATION = "Annotated[list[${union}], Field(min_length=1, max_length=${bmax})]"

FAMILY = Family(
    id="bodies/discriminated_union",
    title="A body that is one of three kinds, selected by a tag field, and its 422 locs",
    category="bodies",
    difficulty="hard",
    prompt=PROMPT,
    reference=_MODELS + _RESULT,
    probes=PROBES,
    original=_DOMAINS[0] | {"order": "abc", "amin": 4, "cdef": 0, "bmax": 3},
    space={
        "domain": _DOMAINS,
        "order": _ORDERS,
        "amin": [2, 4, 6],
        "cdef": [0, 5],
        "bmax": [2, 3, 5],
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            "Each kind validates only its own fields: a valid body answers 200 with `${tag}` and "
            "that kind's fields (lax coercion, `${c_int}` defaults to ${cdef}, extra keys "
            "dropped).",
            probes=("each_kind_and_defaults",),
            traps=(Edit("wrong default for ${c_int}", "${c_int}: int = ${cdef}",
                        "${c_int}: int = ${cdef_other}"),
                   Edit("extra keys kept (extra='allow' on a kind)",
                        "class ${cls_c}(BaseModel):\n",
                        "class ${cls_c}(BaseModel, extra='allow'):\n"),
                   Edit("${a_str} bound off by one", "Field(min_length=${amin})",
                        "Field(min_length=${amin_plus})")),
        ),
        Requirement(
            "A missing tag is one `union_tag_not_found` entry at `[\"body\"]`; an unknown tag "
            "(other string, case, number, null) one `union_tag_invalid` entry whose ctx lists "
            "the kinds in the declared order.",
            probes=("tag_errors",),
            traps=(Edit("kinds declared in another order",
                        'Annotated[${union_members}, Field(discriminator="${tag}")]',
                        'Annotated[${union_members_reversed}, Field(discriminator="${tag}")]'),),
        ),
        Requirement(
            "An invalid field of a known kind is reported for that kind only, at "
            "`[\"body\", <tag>, <field>]`.",
            probes=("field_errors_of_known_kind",),
            traps=(Edit("single route takes a plain union (no discriminator)",
                        "def create_one(${singular}: ${union}):",
                        "def create_one(${singular}: ${union_members}):"),),
        ),
        Requirement(
            "`POST /${plural}/batch` takes 1 to ${bmax} items (`too_short` / `too_long` at "
            "`[\"body\"]` otherwise) and reports an item's errors at `[\"body\", <index>, ...]`.",
            probes=("batch",),
            traps=(Edit("batch bound off by one", "max_length=${bmax})",
                        "max_length=${bmax_minus})"),
                   Edit("empty batch accepted", "Field(min_length=1, max_length=${bmax})",
                        "Field(max_length=${bmax})"),
                   Edit("batch items as a plain union", _BATCH_ANNOTATION,
                        _BATCH_ANNOTATION.replace("list[${union}]", "list[${union_members}]"))),
        ),
    ),
)
