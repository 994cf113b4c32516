from fastapi_env.tasks import Edit, Family, Requirement

_APP = '''\
from enum import Enum, IntEnum
from typing import Annotated, Literal

from fastapi import FastAPI, Query
from fastapi.testclient import TestClient


class State(str, Enum):
    ${s1} = "${s1}"
    ${s2} = "${s2}"
    ${s3} = "${s3}"


class Priority(IntEnum):
    low = 1
    mid = 2
    high = 3


${table_code}

app = FastAPI()


@app.get("/${plural}")
def search(
    state: Annotated[list[State], Query()] = [],
    min_priority: Priority = Priority.${pdef_name},
    sort: Literal["title", "-title", "priority"] = "${sort_def}",
):
    rows = [r for r in ${table} if (not state or r["state"] in state)
            and r["priority"] >= min_priority]
    if sort == "priority":
        rows.sort(key=lambda r: (r["priority"], r["title"]))
    else:
        rows.sort(key=lambda r: r["title"], reverse=sort == "-title")
    return {"count": len(rows), "titles": [r["title"] for r in rows]}
'''

_RESULT = '''

def row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["ctx"]["expected"]] for e in body["detail"]]]
    return [response.status_code, body]


client = TestClient(app)
result = [row(client.get(path)) for path in [
    "/${plural}",
    "/${plural}?state=${s1}&state=${s3}&sort=-title",
    "/${plural}?min_priority=3&sort=priority",
    "/${plural}?state=${s2_upper}&min_priority=high&sort=name",
]]
'''

PROMPT = '''\
Build one route, `GET /${plural}`, over this in-memory table (use it as is):

${table_literal}

Query parameters, all optional, validated by FastAPI:
- `state`: may be repeated (`?state=a&state=b`); each value must be one of, in this order,
  `${s1}`, `${s2}`, `${s3}` (exact, case-sensitive). Keep the rows whose state is any of the
  given ones; no `state` at all means every state.
- `min_priority`: one of the integers 1, 2, 3 (low, mid, high); keep the rows whose priority is
  at least this. Default ${pdef}.
- `sort`: `title` (A to Z), `-title` (Z to A) or `priority` (lowest first, ties by title A to
  Z). Default `${sort_def}`.

200 answer: `{"count": <number of rows kept>, "titles": [<their titles, sorted>]}`.

Invalid values are FastAPI's standard 422, one entry per invalid value in the parameter order
above: a bad `state` value is type `enum` at loc `["query", "state", <its index among the state
values>]` with `ctx.expected` `"'${s1}', '${s2}' or '${s3}'"`; a bad `min_priority` is type
`enum` at `["query", "min_priority"]` with `ctx.expected` `"1, 2 or 3"`; a bad `sort` is type
`literal_error` at `["query", "sort"]` with `ctx.expected` `"'title', '-title' or 'priority'"`.

Then fill `result` with one row per request, in this order, each sent with
`client.get(path)`. For a 422 the row is `[422, [[type, loc, ctx["expected"]] for each entry of
detail, in order]]`; otherwise `[status code (integer), the JSON body]`.

1. `/${plural}`
2. `/${plural}?state=${s1}&state=${s3}&sort=-title`
3. `/${plural}?min_priority=3&sort=priority`
4. `/${plural}?state=${s2_upper}&min_priority=high&sort=name`
'''

PROBES = '''\
def _row(response):
    body = response.json()
    if response.status_code == 422:
        return [422, [[e["type"], e["loc"], e["ctx"]["expected"]] for e in body["detail"]]]
    return [response.status_code, body]


def probe_state_filter(client):
    return [
        _row(client.get("/${plural}?state=${s2}")),
        _row(client.get("/${plural}?state=${s2}&state=${s2}&sort=priority")),
        _row(client.get("/${plural}?state=${s1}&state=nope&state=")),
        _row(client.get("/${plural}?state=" + "${s2}".upper())),  # case-sensitive
    ]


def probe_min_priority(client):
    return [
        _row(client.get("/${plural}?min_priority=1")),
        _row(client.get("/${plural}?min_priority=2&sort=title")),
        _row(client.get("/${plural}?min_priority=0")),
        _row(client.get("/${plural}?min_priority=4")),
        _row(client.get("/${plural}")),  # the default
    ]


def probe_sort_orders(client):
    return [
        _row(client.get("/${plural}?sort=priority&min_priority=1")),
        _row(client.get("/${plural}?sort=priority&state=${s3}")),
        _row(client.get("/${plural}?sort=title")),
        _row(client.get("/${plural}?sort=TITLE")),
        _row(client.get("/${plural}?sort=")),
    ]
'''

_DOMAINS = [
    {"plural": "tickets", "table": "TICKETS", "s1": "open", "s2": "blocked", "s3": "closed",
     "titles": ["login bug", "api docs", "crash on save", "billing", "dark mode", "export"]},
    {"plural": "tasks", "table": "TASKS", "s1": "todo", "s2": "doing", "s3": "done",
     "titles": ["write tests", "deploy", "budget", "hire", "refactor", "audit"]},
    {"plural": "orders", "table": "ORDERS", "s1": "new", "s2": "paid", "s3": "shipped",
     "titles": ["desk", "lamp", "chair", "cable", "monitor", "mouse"]},
]

# (state index, priority) per row: several priorities tie, in an order unlike the titles'.
_SHAPES = [
    [(0, 2), (1, 3), (0, 1), (2, 2), (0, 3), (2, 1)],
    [(2, 3), (0, 2), (1, 2), (0, 3), (2, 1), (1, 1)],
    [(1, 1), (0, 3), (2, 3), (0, 2), (1, 2), (0, 1)],
]

_PDEF_NAMES = {1: "low", 2: "mid", 3: "high"}


def _derive(p):
    states = [p["s1"], p["s2"], p["s3"]]
    rows = [{"title": t, "state": states[s], "priority": pr}
            for t, (s, pr) in zip(p["titles"], p["shape"], strict=True)]
    lines = ",\n".join(
        f'    {{"title": "{r["title"]}", "state": "{r["state"]}", "priority": {r["priority"]}}}'
        for r in rows)
    code = f"{p['table']} = [\n{lines},\n]"
    return {
        "table_code": code,
        "table_literal": "\n".join("    " + line for line in code.splitlines()),
        "pdef_name": _PDEF_NAMES[p["pdef"]],
        "pdef_other_name": _PDEF_NAMES[p["pdef"] % 3 + 1],
        "s2_upper": p["s2"].capitalize(),
    }


FAMILY = Family(
    id="routing/enum_query_filters",
    title="Enum and Literal query parameters, a repeated enum list, and their 422 entries",
    category="routing",
    difficulty="medium",
    prompt=PROMPT,
    reference=_APP + _RESULT,
    probes=PROBES,
    original=_DOMAINS[0] | {"shape": _SHAPES[0], "pdef": 1, "sort_def": "title"},
    space={
        "domain": _DOMAINS,
        "shape": _SHAPES,
        "pdef": [1, 2],
        "sort_def": ["title", "priority", "-title"],
    },
    derive=_derive,
    instances=40,
    requirements=(
        Requirement(
            "`state` is read from every repeated query key, exact and case-sensitive; each bad "
            "value (an empty one too) is an `enum` entry at its index.",
            probes=("state_filter",),
            traps=(Edit("state list declared without Query()",
                        "    state: Annotated[list[State], Query()] = [],\n",
                        "    state: list[State] = [],\n"),
                   Edit("state matched ignoring case", '    ${s3} = "${s3}"\n',
                        '    ${s3} = "${s3}"\n\n'
                        "    @classmethod\n"
                        "    def _missing_(cls, value):\n"
                        "        return cls.__members__.get(str(value).lower())\n")),
        ),
        Requirement(
            "`min_priority` defaults to ${pdef} and takes only 1, 2 or 3 (an `enum` entry "
            "otherwise, also for names like `high`).",
            probes=("min_priority",),
            traps=(Edit("min_priority as a bounded integer",
                        "    min_priority: Priority = Priority.${pdef_name},\n",
                        "    min_priority: Annotated[int, Query(ge=1, le=3)] = ${pdef},\n"),
                   Edit("wrong min_priority default", "= Priority.${pdef_name},",
                        "= Priority.${pdef_other_name},")),
        ),
        Requirement(
            "`sort` defaults to `${sort_def}` and takes only its three values (`literal_error` "
            "otherwise); `priority` breaks ties by title.",
            probes=("sort_orders",),
            traps=(Edit("priority sort without the title tie-break",
                        'key=lambda r: (r["priority"], r["title"])',
                        'key=lambda r: r["priority"]'),
                   Edit("sort as free text falling back to title",
                        '    sort: Literal["title", "-title", "priority"] = "${sort_def}",\n',
                        '    sort: str = "${sort_def}",\n')),
        ),
    ),
)
