from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `POST /runs`, that replays the output of a build as server-sent
events. Use FastAPI's own SSE support (`fastapi.sse`: `EventSourceResponse`,
`ServerSentEvent`).

Request body (JSON), validated by Pydantic models:
- `job`: string, required, 1 to 30 characters;
- `steps`: a list of 1 to ${smax} steps (inclusive), each `{"name": <string>, "output": <string>}`
  (both required).

An invalid body is FastAPI's standard 422 validation error (an ordinary JSON response), e.g.
type `too_short` / `too_long` at loc `["body", "steps"]`, `string_too_short` at
`["body", "job"]`, `missing` at `["body", "steps", <index>, "output"]`.

A valid body answers **201** with `content-type: text/event-stream; charset=utf-8` (and
FastAPI's `cache-control: no-cache`). The stream holds, in this order:

1. a comment line `: run <job>` (a comment, ignored by `EventSource` clients: not an event
   with data);
2. for each step, in order, an event named `${step_event}` whose id is `${id_prefix}<n>` (steps
   numbered from 1) and whose data is the step's `output` as raw text (not JSON: no quotes).
   Output may span several lines: every line break (`\\n`, `\\r\\n` or a lone `\\r`) starts a
   new `data:` line, so an output of k line breaks is sent as k + 1 `data:` lines (an empty
   output is one empty `data:` line, an output ending in a line break ends with an empty one);
3. a final event named `${final_event}` whose data is the JSON object
   `{"job": <job>, "steps": <number of steps>, "lines": <total number of data: lines the step
   events carried>}`, serialised as Python's `json.dumps` does with default settings
   (`", "` and `": "` separators), with no id.

On the wire, each field is written as `<field>: <value>` in the order `event`, `data`, `id`, and
every event (the comment included) ends with a blank line. For `{"job": "web", "steps":
[{"name": "test", "output": "ok\\nfine"}]}` the body is exactly:

    : run web

    event: ${step_event}
    data: ok
    data: fine
    id: ${id_prefix}1

    event: ${final_event}
    data: {"job": "web", "steps": 1, "lines": 2}

(each line ends with `\\n`, so the body ends in `\\n\\n`).

Then fill `result` with one row per request, in this order (`client.post("/runs", json=body)`).
For a 201 the row is `[201, the content-type header (string), the whole body as text
(response.text)]`; for a 422 `[422, detail[0]["type"] (string), detail[0]["loc"] (list)]`.

1. `{"job": "api", "steps": [{"name": "lint", "output": "clean"},
   {"name": "test", "output": "3 passed\\n1 skipped"}]}`
2. `{"job": "api", "steps": []}`
3. `{"job": "docs", "steps": [{"name": "build", "output": ""}]}`
'''

HEAD = '''\
from fastapi import FastAPI
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field

app = FastAPI()


class Step(BaseModel):
    name: str
    output: str


class Run(BaseModel):
    job: str = Field(min_length=1, max_length=30)
    steps: list[Step] = Field(min_length=1, max_length=${smax})

'''

LINES = '''

def data_lines(text: str) -> int:
    # as the SSE encoder does: \\r\\n, \\r and \\n all break lines, empty lines are kept
    return len(text.replace("\\r\\n", "\\n").replace("\\r", "\\n").split("\\n"))
'''

ROUTE = '''

@app.post("/runs", response_class=EventSourceResponse, status_code=201)
async def replay(run: Run):
    yield ServerSentEvent(comment=f"run {run.job}")
    lines = 0
    for number, step in enumerate(run.steps, start=1):
        yield ServerSentEvent(raw_data=step.output, event="${step_event}",
                              id=f"${id_prefix}{number}")
        lines += data_lines(step.output)
    yield ServerSentEvent(data={"job": run.job, "steps": len(run.steps), "lines": lines},
                          event="${final_event}")
'''

TAIL = '''

def row(r):
    if r.status_code == 422:
        d = r.json()["detail"][0]
        return [422, d["type"], d["loc"]]
    return [r.status_code, r.headers.get("content-type"), r.text]


client = TestClient(app)
result = [row(client.post("/runs", json=body)) for body in [
    {"job": "api", "steps": [{"name": "lint", "output": "clean"},
                             {"name": "test", "output": "3 passed\\n1 skipped"}]},
    {"job": "api", "steps": []},
    {"job": "docs", "steps": [{"name": "build", "output": ""}]},
]]
'''

REFERENCE = HEAD + LINES + ROUTE + TAIL

PROBES = '''\
def _row(r):
    if r.status_code == 422:
        d = r.json()["detail"][0]
        return [422, d["type"], d["loc"]]
    return [r.status_code, r.headers.get("content-type"), r.headers.get("cache-control"), r.text]


def _run(client, job, *outputs):
    steps = [{"name": f"s{i}", "output": out} for i, out in enumerate(outputs)]
    return _row(client.post("/runs", json={"job": job, "steps": steps}))


def probe_line_breaks(client):
    return [_run(client, "win", "a\\r\\nb\\rc"),
            _run(client, "tail", "done\\n", "\\n\\n"),
            _run(client, "quote", '{"ok": true}', 'say "hi"')]


def probe_numbering_and_summary(client):
    return [_run(client, "many", *["line %d" % i for i in range(${smax})])]


def probe_validation(client):
    rows = [_run(client, "x", *["o"] * ${smax_over}), _run(client, "", "o"),
            _row(client.post("/runs", json={"job": "j", "steps": [{"name": "n"}]})),
            _row(client.post("/runs", json={"steps": [{"name": "n", "output": "o"}]}))]
    return rows
'''

FAMILY = Family(
    id="sse/build_log_stream",
    title="SSE with fastapi.sse: 201 stream, a comment, multi-line raw data, a JSON summary",
    category="sse",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"smax": 5, "step_event": "step", "final_event": "done", "id_prefix": ""},
    space={
        "smax": [5, 3, 8],
        "step_event": [{"step_event": "step", "final_event": "done"},
                       {"step_event": "output", "final_event": "summary"},
                       {"step_event": "log", "final_event": "end"}],
        "id_prefix": ["", "s", "step-"],
    },
    derive=lambda p: {"smax_over": p["smax"] + 1},
    instances=27,
    requirements=(
        Requirement(
            "A valid run answers 201 as `text/event-stream`.",
            probes=("numbering_and_summary",),
            traps=(Edit("status code left at 200", ', status_code=201)', ')'),),
        ),
        Requirement(
            "The stream starts with the comment `: run <job>`, not an event with data.",
            probes=("numbering_and_summary", "line_breaks"),
            traps=(Edit("the comment sent as data", 'ServerSentEvent(comment=f"run {run.job}")',
                        'ServerSentEvent(raw_data=f"run {run.job}")'),),
        ),
        Requirement(
            "Each step's output is raw text, one `data:` line per line (`\\n`, `\\r\\n` and `\\r` "
            "all break lines; empty lines kept).",
            probes=("line_breaks",),
            traps=(Edit("output JSON-encoded", "raw_data=step.output,", "data=step.output,"),
                   Edit("trailing line breaks stripped", "raw_data=step.output,",
                        "raw_data=step.output.rstrip(),")),
        ),
        Requirement(
            "Step events are named `${step_event}` with ids `${id_prefix}1`, `${id_prefix}2`, ...",
            probes=("numbering_and_summary", "line_breaks"),
            traps=(Edit("steps numbered from 0", "enumerate(run.steps, start=1)",
                        "enumerate(run.steps)"),),
        ),
        Requirement(
            "The final `${final_event}` event counts the data lines the step events carried.",
            probes=("line_breaks",),
            traps=(Edit("lines counted with splitlines()", "lines += data_lines(step.output)",
                        "lines += len(step.output.splitlines())"),),
        ),
        Requirement(
            "The body needs a job of 1-30 characters and 1 to ${smax} steps with name and output "
            "(FastAPI's 422 otherwise).",
            probes=("validation",),
            traps=(Edit("one step too many accepted", "max_length=${smax})",
                        "max_length=${smax_over})"),),
        ),
    ),
)
