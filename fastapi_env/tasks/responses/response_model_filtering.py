from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `GET /${plural}/{${id_param}}` (`${id_param}` an integer path parameter).
The handler looks the ${singular} up in this in-memory table and returns the whole stored record:

    ${table_name} = ${table_literal}

The response must contain only `id` and `name` (never `${secret}`): declare a Pydantic
model `${model}` with `id: int` and `name: str` as the route's `response_model`. An unknown id
answers ${missing_status} with the JSON body `{"detail": "${detail}"}`.

Then fill `result` with one row per request, in this order:
1. `GET /${plural}/${known}`: `[status code (int), the response's JSON body (object)]`
2. `GET /${plural}/${unknown}`: `[status code (int), the response's JSON body (object)]`
'''

REFERENCE = '''\
from fastapi import FastAPI, HTTPException
from fastapi.testclient import TestClient
from pydantic import BaseModel

${table_name} = ${table_code}


class ${model}(BaseModel):
    id: int
    name: str


app = FastAPI()


@app.get("/${plural}/{${id_param}}", response_model=${model})
def get_${singular}(${id_param}: int):
    if ${id_param} not in ${table_name}:
        raise HTTPException(status_code=${missing_status}, detail="${detail}")
    return ${table_name}[${id_param}]


client = TestClient(app)
result = []
for path in ["/${plural}/${known}", "/${plural}/${unknown}"]:
    response = client.get(path)
    result.append([response.status_code, response.json()])
'''

PROBES = '''\
def probe_other_record(client):
    r = client.get("/${plural}/${other}")
    return [[r.status_code, r.json()]]


def probe_non_integer_id(client):
    r = client.get("/${plural}/abc")
    return [[r.status_code, r.json()["detail"][0]["type"], r.json()["detail"][0]["loc"]]]


def probe_unknown_ids(client):
    rows = []
    for path in ["/${plural}/0", "/${plural}/-1", "/${plural}/${past_last}"]:
        r = client.get(path)
        rows.append([r.status_code, r.json()])
    return rows
'''


def _derive(p):
    ids = list(range(p["first_id"], p["first_id"] + len(p["names"])))
    table = {i: {"id": i, "name": n, p["secret"]: f"{p['secret'][0]}{i}{n[0]}"} for i, n in
             zip(ids, p["names"], strict=True)}
    if p["first_id"] == 1 and p["names"] == ["ada", "bob"]:  # the original task's hashes
        table[1][p["secret"]], table[2][p["secret"]] = "x1", "y2"
    lines = ",\n".join(f"    {i}: {r!r}".replace("'", '"') for i, r in table.items())
    return {
        "table_code": "{\n" + lines + ",\n}",
        "table_literal": ("{\n" + lines + ",\n}").replace("\n", "\n    "),
        "known": ids[0],
        "other": ids[-1],
        "unknown": ids[-1] + 1,
        "past_last": ids[-1] + 7,
        "other_status": 404 if p["missing_status"] != 404 else 410,
    }


FAMILY = Family(
    id="responses/response_model_filtering",
    title="response_model drops fields the handler returned",
    category="responses",
    difficulty="easy",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={
        "entity": "user", "singular": "user", "plural": "users", "id_param": "user_id",
        "table_name": "USERS", "model": "UserOut", "secret": "password_hash",
        "names": ["ada", "bob"], "first_id": 1, "missing_status": 404,
        "detail": "user not found",
    },
    space={
        "entity": [
            {"entity": e, "singular": e, "plural": f"{e}s", "id_param": f"{e}_id",
             "table_name": f"{e.upper()}S", "model": f"{e.capitalize()}Out",
             "detail": f"{e} not found", "secret": secret}
            for e, secret in [("user", "password_hash"), ("member", "api_token"),
                              ("account", "ssn"), ("author", "password_hash")]
        ],
        "names": [["ada", "bob"], ["cy", "dee", "eve"], ["lin", "max", "noor", "oz"]],
        "first_id": [1, 3, 10],
        "missing_status": [404, 410],
    },
    derive=_derive,
    instances=24,
    requirements=(
        Requirement(
            "A known id answers 200 with only `id` and `name`: the response_model drops the "
            "secret field.",
            probes=("other_record",),
            traps=(Edit("no response_model", ", response_model=${model})", ")"),),
        ),
        Requirement(
            "An unknown id, including 0 and negative ids, answers ${missing_status} with "
            '`{"detail": "${detail}"}`.',
            probes=("unknown_ids",),
            traps=(
                Edit(
                    "unknown ids checked by upper bound only",
                    "if ${id_param} not in ${table_name}:",
                    "if ${id_param} > max(${table_name}):",
                ),
                Edit("unknown id answers another status", "status_code=${missing_status}",
                     "status_code=${other_status}"),
            ),
        ),
        Requirement(
            "`${id_param}` is an integer path parameter: a non-integer is FastAPI's 422 "
            "`int_parsing` error at `[\"path\", \"${id_param}\"]`.",
            probes=("non_integer_id",),
            traps=(
                Edit(
                    "id declared as a string",
                    "def get_${singular}(${id_param}: int):\n    if ${id_param} not in ${table_name}:",
                    "def get_${singular}(${id_param}: str):\n"
                    "    if not ${id_param}.isdigit():\n"
                    "        raise HTTPException(status_code=${missing_status}, detail=\"${detail}\")\n"
                    "    ${id_param} = int(${id_param})\n"
                    "    if ${id_param} not in ${table_name}:",
                ),
            ),
        ),
    ),
    expected_rows=[[200, {"id": 1, "name": "ada"}], [404, {"detail": "user not found"}]],
)
