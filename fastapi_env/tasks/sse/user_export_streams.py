from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app that streams an export of this in-memory user table in two formats:

${users_prompt}

(the ${na_pos} name is `${na_name}`, with a non-ASCII `${na_char}`). Both routes take an optional integer query
parameter `min_id` (default ${mdef}) and export, in table order, only the users whose `id` is at
least `min_id`; a non-integer `min_id` is FastAPI's standard 422 validation error (type
`int_parsing`, loc `["query", "min_id"]`).
`password_hash` is never exported.

- `GET /export/users.csv` streams plain CSV text, one line at a time, with
  `content-type: text/csv; charset=utf-8`: first the header line `id${sep}name${sep}email`, then one line
  `<id>${sep}<name>${sep}<email>` per user, every line ending with `\\n` (no quoting is needed for this data).
- `GET /export/users.jsonl` streams JSON Lines (FastAPI 0.134 and later stream these natively),
  with `content-type: application/jsonl`: one line per user holding the JSON object
  `{"id": ..., "name": ..., "email": ...}` serialised compactly the way Pydantic's
  `model_dump_json()` does (no spaces: `${compact_example}`,
  non-ASCII characters written as-is in UTF-8, not escaped), each followed by `\\n`. With no
  users to export the body is empty.

Then fill `result` with one row per request, in this order. For a 422 the row is
`[422, detail[0]["type"] (string), detail[0]["loc"] (list)]`; otherwise
`[status code (integer), the content-type header (string, or null if absent), the whole
response body as text (string, response.text)]`.

1. `client.get("/export/users.csv")`
2. `client.get("/export/users.jsonl")`
3. `client.get("/export/users.jsonl", params={"min_id": ${last_id}})`
4. `client.get("/export/users.csv", params={"min_id": "two"})`
'''

_CSV = '''\
@app.get("/export/users.csv")
def export_csv(min_id: int = ${mdef}):
    def lines() -> Iterator[str]:
        yield "id${sep}name${sep}email\\n"
        for user in selected(min_id):
            yield f"{user['id']}${sep}{user['name']}${sep}{user['email']}\\n"

    return StreamingResponse(lines(), media_type="text/csv")
'''

_JSONL = '''\
@app.get("/export/users.jsonl")
async def export_jsonl(min_id: int = ${mdef}) -> AsyncIterable[UserOut]:
    for user in selected(min_id):
        yield user
'''

REFERENCE = '''\
from collections.abc import AsyncIterable, Iterator

from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel

${users_code}

class UserOut(BaseModel):
    id: int
    name: str
    email: str


app = FastAPI()


def selected(min_id: int) -> list[dict]:
    return [user for user in USERS if user["id"] >= min_id]


''' + _CSV + '''

''' + _JSONL + '''

def row(response):
    if response.status_code == 422:
        first = response.json()["detail"][0]
        return [422, first["type"], first["loc"]]
    return [response.status_code, response.headers.get("content-type"), response.text]


client = TestClient(app)
result = [
    row(client.get("/export/users.csv")),
    row(client.get("/export/users.jsonl")),
    row(client.get("/export/users.jsonl", params={"min_id": ${last_id}})),
    row(client.get("/export/users.csv", params={"min_id": "two"})),
]
'''

PROBES = '''\
def _row(r):
    if r.status_code == 422:
        first = r.json()["detail"][0]
        return [422, first["type"], first["loc"]]
    return [r.status_code, r.headers.get("content-type"), r.text]


def probe_filtered_exports(client):
    return [
        _row(client.get("/export/users.csv", params={"min_id": ${mid_id}})),
        _row(client.get("/export/users.jsonl", params={"min_id": ${mid_id}})),
        _row(client.get("/export/users.csv", params={"min_id": ${mid_id_plus}})),
        _row(client.get("/export/users.jsonl", params={"min_id": -5})),
    ]


def probe_defaults(client):
    return [_row(client.get("/export/users.csv")), _row(client.get("/export/users.jsonl"))]


def probe_nothing_to_export(client):
    return [
        _row(client.get("/export/users.csv", params={"min_id": 99})),
        _row(client.get("/export/users.jsonl", params={"min_id": 99})),
    ]


def probe_bad_min_id(client):
    return [_row(client.get("/export/users.jsonl", params={"min_id": value})) for value in ["1.5", ""]] + [
        _row(client.get("/export/users.csv", params={"min_id": ""}))]
'''

_TABLES = [
    {"users": [[1, "ada", "ada@example.com", "x1"], [2, "zo\\u00eb", "zoe@example.com", "y2"],
               [3, "linus", "linus@example.com", "z3"]],
     "na_pos": "second", "na_name": "zoë", "na_char": "ë"},
    {"users": [[1, "jos\\u00e9", "jose@example.org", "h1"], [5, "grace", "grace@example.org", "h5"],
               [9, "ken", "ken@example.org", "h9"]],
     "na_pos": "first", "na_name": "josé", "na_char": "é"},
    {"users": [[1, "barbara", "bl@example.net", "p1"], [4, "edsger", "ed@example.net", "p4"],
               [6, "bj\\u00f6rn", "bjorn@example.net", "p6"], [7, "tim", "tim@example.net", "p7"]],
     "na_pos": "third", "na_name": "björn", "na_char": "ö"},
]


def _users_text(users, indent):
    lines = [f'{indent}    {{"id": {i}, "name": "{n}", "email": "{e}", "password_hash": "{h}"}},'
             for i, n, e, h in users]
    return f"{indent}USERS = [\n" + "\n".join(lines) + f"\n{indent}]"


def _derive(p):
    first = p["users"][0]
    ids = [u[0] for u in p["users"]]
    name = first[1].encode().decode("unicode_escape")
    return {
        "users_prompt": _users_text(p["users"], "    "), "users_code": _users_text(p["users"], "") + "\n",
        "compact_example": f'{{"id":{first[0]},"name":"{name}","email":"{first[2]}"}}',
        "last_id": ids[-1], "mid_id": ids[1], "mid_id_plus": ids[1] + 1,
        "mdef_other": p["mdef"] + 1,
    }


FAMILY = Family(
    id="sse/user_export_streams",
    title="Stream a user export as raw CSV and as JSON Lines",
    category="sse",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={**_TABLES[0], "mdef": 1, "sep": ","},
    space={"table": _TABLES, "mdef": [1, 2], "sep": [",", ";"]},
    valid=lambda p: p["mdef"] <= p["users"][1][0],
    derive=_derive,
    instances=12,
    requirements=(
        Requirement(
            "The CSV export is raw text (`text/csv; charset=utf-8`): the header line, then "
            "`<id>${sep}<name>${sep}<email>` lines, each ending in `\\n`, the header even when "
            "no user is exported.",
            probes=("filtered_exports", "nothing_to_export", "defaults"),
            traps=(
                Edit("CSV generator without a response class (JSON-encoded lines)", _CSV,
                     '@app.get("/export/users.csv")\n'
                     "def export_csv(min_id: int = ${mdef}):\n"
                     '    yield "id${sep}name${sep}email\\n"\n'
                     "    for user in selected(min_id):\n"
                     "        yield f\"{user['id']}${sep}{user['name']}${sep}{user['email']}\\n\"\n"),
                Edit("CSV StreamingResponse without a media type", 'StreamingResponse(lines(), media_type="text/csv")',
                     "StreamingResponse(lines())"),
            ),
        ),
        Requirement(
            "The JSON Lines export (`application/jsonl`) has one compact `UserOut` object per "
            "line, non-ASCII as-is, never `password_hash`; empty when no user is exported.",
            probes=("filtered_exports", "nothing_to_export", "defaults"),
            traps=(
                Edit("JSONL route returns a generator expression (one JSON array)", _JSONL,
                     '@app.get("/export/users.jsonl")\n'
                     "def export_jsonl(min_id: int = ${mdef}):\n"
                     '    return ({"id": u["id"], "name": u["name"], "email": u["email"]} for u in selected(min_id))\n'),
                Edit("JSONL yields filtered dicts without a return type", _JSONL,
                     '@app.get("/export/users.jsonl")\n'
                     "async def export_jsonl(min_id: int = ${mdef}):\n"
                     "    for u in selected(min_id):\n"
                     '        yield {"id": u["id"], "name": u["name"], "email": u["email"]}\n'),
                Edit("JSONL without its item type (password_hash leaks)", " -> AsyncIterable[UserOut]:", ":"),
            ),
        ),
        Requirement(
            "`min_id` defaults to ${mdef} and keeps the users whose id is at least it (the bound "
            "itself included); an empty or non-integer value is the 422.",
            probes=("filtered_exports", "defaults", "bad_min_id"),
            traps=(
                Edit("min_id exclusive", 'if user["id"] >= min_id]', 'if user["id"] > min_id]'),
                Edit("wrong min_id default", "def export_csv(min_id: int = ${mdef}):",
                     "def export_csv(min_id: int = ${mdef_other}):"),
            ),
        ),
    ),
    expected_rows=[
        [200, "text/csv; charset=utf-8",
         "id,name,email\n1,ada,ada@example.com\n2,zo\u00eb,zoe@example.com\n3,linus,linus@example.com\n"],
        [200, "application/jsonl",
         '{"id":1,"name":"ada","email":"ada@example.com"}\n'
         '{"id":2,"name":"zo\u00eb","email":"zoe@example.com"}\n'
         '{"id":3,"name":"linus","email":"linus@example.com"}\n'],
        [200, "application/jsonl", '{"id":3,"name":"linus","email":"linus@example.com"}\n'],
        [422, "int_parsing", ["query", "min_id"]],
    ],
)
