import json

from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `GET /jobs/{job_id}/events`, that reports the steps of a job as
server-sent events. Use FastAPI's own SSE support (`fastapi.sse`, FastAPI 0.135 and later).
The jobs, in memory:

${jobs_prompt}

Behaviour:
- An unknown `job_id` answers 404 with the JSON body `{"detail": "job not found"}` (an ordinary
  JSON response: nothing is streamed).
- The optional request header `Last-Event-ID` is an integer (anything else is FastAPI's
  standard 422 validation error, type `int_parsing`, loc `["header", "last-event-id"]`).
  When given, the stream resumes after that step: only steps numbered higher than it are sent.
- Otherwise the answer is 200, `content-type: text/event-stream; charset=utf-8`, with the
  header `cache-control: no-cache`, streaming:
  1. for each step sent (steps are numbered from 1 in list order) an event named `${ev_step}` whose
     data is the JSON object `{"step": <number>, "name": <step name>}` and whose `id` is the
     step number;
  2. then always a final event named `${ev_done}` whose data is the JSON object
     `{"job": <job_id>, "steps": <total number of steps of the job>}`, with no id.
  The first event of every stream (whichever it is) also carries `retry: ${retry}`. JSON data is
  serialised as Python's `json.dumps` does with default settings (`", "` and `": "`
  separators). The fields of an event are written in the order `event`, `data`, `id`, `retry`.

For example, `GET /jobs/${j1}/events` with `Last-Event-ID: 1` streams exactly:

${example}

(each line ends with `\\n` and each event with a blank line, so the body ends in `\\n\\n`).

Then fill `result` with one row per request, in this order. For a 200 the row is
`[200, the content-type header (string), the cache-control header (string, or null if absent),
the response text split on "\\n" (list of strings: response.text.split("\\n"))]`; for a 422 it is
`[422, detail[0]["type"] (string), detail[0]["loc"] (list)]`; for any other status it is
`[status code (integer), the JSON body (object)]`.

1. `client.get("/jobs/${j1}/events")`
2. `client.get("/jobs/${j1}/events", headers={"Last-Event-ID": "2"})`
3. `client.get("/jobs/${unknown}/events")`
4. `client.get("/jobs/${j2}/events", headers={"Last-Event-ID": "abc"})`
'''

_STEP = '''\
        yield ServerSentEvent(data={"step": number, "name": name}, event="${ev_step}",
                              id=str(number), retry=retry)
'''

_ROUTE = '''\
@app.get("/jobs/{job_id}/events", response_class=EventSourceResponse)
async def job_events(
    job_id: Annotated[str, Depends(existing_job)],
    last_event_id: Annotated[int | None, Header()] = None,
):
    steps = JOBS[job_id]
    after = last_event_id if last_event_id is not None else 0
    retry = ${retry}
    for number, name in enumerate(steps, start=1):
        if number <= after:
            continue
''' + _STEP + '''\
        retry = None
    yield ServerSentEvent(data={"job": job_id, "steps": len(steps)}, event="${ev_done}", retry=retry)
'''

REFERENCE = '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient

${jobs_code}
app = FastAPI()


def existing_job(job_id: str) -> str:
    # Runs before the stream starts, so the 404 is a normal JSON response.
    if job_id not in JOBS:
        raise HTTPException(status_code=404, detail="job not found")
    return job_id


''' + _ROUTE + '''

def row(response):
    if response.status_code == 200:
        return [
            response.status_code,
            response.headers.get("content-type"),
            response.headers.get("cache-control"),
            response.text.split("\\n"),
        ]
    body = response.json()
    if response.status_code == 422:
        return [response.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [response.status_code, body]


client = TestClient(app, raise_server_exceptions=False)
result = [
    row(client.get("/jobs/${j1}/events")),
    row(client.get("/jobs/${j1}/events", headers={"Last-Event-ID": "2"})),
    row(client.get("/jobs/${unknown}/events")),
    row(client.get("/jobs/${j2}/events", headers={"Last-Event-ID": "abc"})),
]
'''

PROBES = '''\
def _row(r):
    if r.status_code == 200:
        return [r.status_code, r.headers.get("content-type"), r.headers.get("cache-control"),
                r.text.split("\\n")]
    try:
        body = r.json()
    except ValueError:
        return [r.status_code, r.text]
    if r.status_code == 422:
        return [r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [r.status_code, body]


def probe_single_step_job(client):
    return [_row(client.get("/jobs/${j2}/events"))]


def probe_resume_past_every_step(client):
    rows = [_row(client.get("/jobs/${j1}/events", headers={"Last-Event-ID": "${j1_len}"}))]
    rows.append(_row(client.get("/jobs/${j2}/events", headers={"Last-Event-ID": "0"})))
    rows.append(_row(client.get("/jobs/${j1}/events", headers={"Last-Event-ID": "99"})))
    rows.append(_row(client.get("/jobs/${j1}/events", headers={"Last-Event-ID": "-1"})))
    rows.append(_row(client.get("/jobs/${j1}/events", headers={"Last-Event-ID": "1"})))
    return rows


def probe_header_validation(client):
    return [_row(client.get("/jobs/${j1}/events", headers={"Last-Event-ID": value}))
            for value in ["", "1.5", "two"]]


def probe_unknown_job_with_header(client):
    rows = [_row(client.get("/jobs/${unknown}/events", headers={"Last-Event-ID": "1"}))]
    rows.append(_row(client.get("/jobs/${j1_cap}/events")))
    rows.append(_row(client.get("/jobs/${j1}/events?last_event_id=1")))
    return rows
'''

_JOBS = [
    {"jobs": [["build", ["checkout", "compile", "test"]], ["lint", ["ruff"]]], "unknown": "deploy"},
    {"jobs": [["release", ["tag", "package", "upload", "announce"]], ["docs", ["render", "publish"]]],
     "unknown": "build"},
    {"jobs": [["nightly", ["fetch", "train"]], ["audit", ["scan"]], ["backup", ["dump", "copy", "verify"]]],
     "unknown": "restore"},
    {"jobs": [["migrate", ["lock", "apply", "unlock"]], ["seed", ["load", "index"]]], "unknown": "rollback"},
]


def _jobs_text(jobs, indent):
    lines = [f'{indent}    "{name}": [{", ".join(json.dumps(s) for s in steps)}],' for name, steps in jobs]
    return f"{indent}JOBS = {{\n" + "\n".join(lines) + f"\n{indent}}}"


def _example(p):
    """The stream of the first job resumed after step 1, as the prompt shows it."""
    name, steps = p["jobs"][0]
    lines = []
    for number, step in enumerate(steps[1:], start=2):
        lines += [f"event: {p['ev_step']}", "data: " + json.dumps({"step": number, "name": step}),
                  f"id: {number}"]
        if number == 2:
            lines.append(f"retry: {p['retry']}")
        lines.append("")
    lines += [f"event: {p['ev_done']}", "data: " + json.dumps({"job": name, "steps": len(steps)})]
    return "\n".join(f"    {line}" if line else "" for line in lines)


def _derive(p):
    (j1, steps1), (j2, _) = p["jobs"][0], p["jobs"][1]
    return {
        "jobs_prompt": _jobs_text(p["jobs"], "    "), "jobs_code": _jobs_text(p["jobs"], "") + "\n",
        "example": _example(p), "j1": j1, "j2": j2, "j1_len": len(steps1), "j1_cap": j1.capitalize(),
    }


_ROUTE_404_INSIDE = _ROUTE.replace(
    "    job_id: Annotated[str, Depends(existing_job)],\n", "    job_id: str,\n").replace(
    "    steps = JOBS[job_id]\n",
    "    if job_id not in JOBS:\n"
    '        raise HTTPException(status_code=404, detail="job not found")\n'
    "    steps = JOBS[job_id]\n")

FAMILY = Family(
    id="sse/job_progress_events",
    title="Job progress as named SSE events with ids, resumable with Last-Event-ID",
    category="sse",
    difficulty="medium",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={**_JOBS[0], "retry": 3000, "ev_step": "step", "ev_done": "done"},
    space={
        "jobs": _JOBS,
        "retry": [3000, 1500, 10000],
        "events": [{"ev_step": "step", "ev_done": "done"}, {"ev_step": "progress", "ev_done": "finished"}],
    },
    derive=_derive,
    instances=24,
    requirements=(
        Requirement(
            'An unknown job (exact, case-sensitive id) is an ordinary 404 `{"detail": "job not '
            'found"}` response, nothing streamed.',
            probes=("unknown_job_with_header",),
            traps=(Edit("404 raised inside the generator (stream already started)", _ROUTE, _ROUTE_404_INSIDE),),
        ),
        Requirement(
            "`Last-Event-ID` is an integer request header (an empty or non-integer value is the "
            "422; the query string is not read); only steps numbered above it are sent.",
            probes=("resume_past_every_step", "header_validation", "unknown_job_with_header"),
            traps=(
                Edit("Last-Event-ID read as a query parameter",
                     "    last_event_id: Annotated[int | None, Header()] = None,\n",
                     "    last_event_id: int | None = None,\n"),
                Edit("resume includes the given step", "        if number <= after:\n",
                     "        if number < after:\n"),
            ),
        ),
        Requirement(
            "Each sent step is a `${ev_step}` event with its JSON data and its number as `id`; a "
            "`${ev_done}` event without id always ends the stream.",
            probes=("single_step_job", "resume_past_every_step"),
            traps=(
                Edit("events yielded as dicts with event/id keys", _STEP,
                     '        yield {"event": "${ev_step}", "data": {"step": number, "name": name}, '
                     '"id": str(number), "retry": retry}\n'),
                Edit("done event carries the last id", 'event="${ev_done}", retry=retry)',
                     'event="${ev_done}", id=str(len(steps)), retry=retry)'),
            ),
        ),
        Requirement(
            "Only the first event of every stream, whichever it is, carries `retry: ${retry}`.",
            probes=("single_step_job", "resume_past_every_step"),
            traps=(
                Edit("retry on every event", "        retry = None\n", ""),
                Edit("retry only on step events", 'event="${ev_done}", retry=retry)', 'event="${ev_done}")'),
            ),
        ),
    ),
    expected_rows=[
        [200, "text/event-stream; charset=utf-8", "no-cache", [
            "event: step", 'data: {"step": 1, "name": "checkout"}', "id: 1", "retry: 3000", "",
            "event: step", 'data: {"step": 2, "name": "compile"}', "id: 2", "",
            "event: step", 'data: {"step": 3, "name": "test"}', "id: 3", "",
            "event: done", 'data: {"job": "build", "steps": 3}', "", "",
        ]],
        [200, "text/event-stream; charset=utf-8", "no-cache", [
            "event: step", 'data: {"step": 3, "name": "test"}', "id: 3", "retry: 3000", "",
            "event: done", 'data: {"job": "build", "steps": 3}', "", "",
        ]],
        [404, {"detail": "job not found"}],
        [422, "int_parsing", ["header", "last-event-id"]],
    ],
)
