from fastapi_env.tasks import Task

_RESULT = '''\
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


client = TestClient(app)
result = [
    row(client.get("/jobs/build/events")),
    row(client.get("/jobs/build/events", headers={"Last-Event-ID": "2"})),
    row(client.get("/jobs/deploy/events")),
    row(client.get("/jobs/lint/events", headers={"Last-Event-ID": "abc"})),
]
'''

_JOBS = '''\
JOBS = {
    "build": ["checkout", "compile", "test"],
    "lint": ["ruff"],
}
'''

TASK = Task(
    id="sse/job_progress_events",
    title="Job progress as named SSE events with ids, resumable with Last-Event-ID",
    category="sse",
    difficulty="medium",
    prompt='''\
Build an app with one route, `GET /jobs/{job_id}/events`, that reports the steps of a job as
server-sent events. Use FastAPI's own SSE support (`fastapi.sse`, FastAPI 0.135 and later).
The jobs, in memory:

    JOBS = {
        "build": ["checkout", "compile", "test"],
        "lint": ["ruff"],
    }

Behaviour:
- An unknown `job_id` answers 404 with the JSON body `{"detail": "job not found"}` (an ordinary
  JSON response: nothing is streamed).
- The optional request header `Last-Event-ID` is an integer (anything else is FastAPI's
  standard 422 validation error, type `int_parsing`, loc `["header", "last-event-id"]`).
  When given, the stream resumes after that step: only steps numbered higher than it are sent.
- Otherwise the answer is 200, `content-type: text/event-stream; charset=utf-8`, with the
  header `cache-control: no-cache`, streaming:
  1. for each step sent (steps are numbered from 1 in list order) an event named `step` whose
     data is the JSON object `{"step": <number>, "name": <step name>}` and whose `id` is the
     step number;
  2. then always a final event named `done` whose data is the JSON object
     `{"job": <job_id>, "steps": <total number of steps of the job>}`, with no id.
  The first event of every stream (whichever it is) also carries `retry: 3000`. JSON data is
  serialised as Python's `json.dumps` does with default settings (`", "` and `": "`
  separators). The fields of an event are written in the order `event`, `data`, `id`, `retry`.

For example, `GET /jobs/build/events` with `Last-Event-ID: 1` streams exactly:

    event: step
    data: {"step": 2, "name": "compile"}
    id: 2
    retry: 3000

    event: step
    data: {"step": 3, "name": "test"}
    id: 3

    event: done
    data: {"job": "build", "steps": 3}

(each line ends with `\\n` and each event with a blank line, so the body ends in `\\n\\n`).

Then fill `result` with one row per request, in this order. For a 200 the row is
`[200, the content-type header (string), the cache-control header (string, or null if absent),
the response text split on "\\n" (list of strings: response.text.split("\\n"))]`; for a 422 it is
`[422, detail[0]["type"] (string), detail[0]["loc"] (list)]`; for any other status it is
`[status code (integer), the JSON body (object)]`.

1. `client.get("/jobs/build/events")`
2. `client.get("/jobs/build/events", headers={"Last-Event-ID": "2"})`
3. `client.get("/jobs/deploy/events")`
4. `client.get("/jobs/lint/events", headers={"Last-Event-ID": "abc"})`
''',
    reference='''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient

''' + _JOBS + '''
app = FastAPI()


def existing_job(job_id: str) -> str:
    # Runs before the stream starts, so the 404 is a normal JSON response.
    if job_id not in JOBS:
        raise HTTPException(status_code=404, detail="job not found")
    return job_id


@app.get("/jobs/{job_id}/events", response_class=EventSourceResponse)
async def job_events(
    job_id: Annotated[str, Depends(existing_job)],
    last_event_id: Annotated[int | None, Header()] = None,
):
    steps = JOBS[job_id]
    after = last_event_id if last_event_id is not None else 0
    retry = 3000
    for number, name in enumerate(steps, start=1):
        if number <= after:
            continue
        yield ServerSentEvent(data={"step": number, "name": name}, event="step",
                              id=str(number), retry=retry)
        retry = None
    yield ServerSentEvent(data={"job": job_id, "steps": len(steps)}, event="done", retry=retry)


''' + _RESULT,
    probes='''\
def _row(r):
    if r.status_code == 200:
        return [r.status_code, r.headers.get("content-type"), r.headers.get("cache-control"),
                r.text.split("\\n")]
    body = r.json()
    if r.status_code == 422:
        return [r.status_code, body["detail"][0]["type"], body["detail"][0]["loc"]]
    return [r.status_code, body]


def probe_single_step_job(client):
    return [_row(client.get("/jobs/lint/events"))]


def probe_resume_past_every_step(client):
    rows = [_row(client.get("/jobs/build/events", headers={"Last-Event-ID": "3"}))]
    rows.append(_row(client.get("/jobs/lint/events", headers={"Last-Event-ID": "0"})))
    return rows


def probe_unknown_job_with_header(client):
    rows = [_row(client.get("/jobs/nope/events", headers={"Last-Event-ID": "1"}))]
    rows.append(_row(client.get("/jobs/Build/events")))
    return rows
''',
    traps={
        "404 raised inside the generator (stream already started)": '''\
from typing import Annotated

from fastapi import FastAPI, Header, HTTPException
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient

''' + _JOBS + '''
app = FastAPI()


@app.get("/jobs/{job_id}/events", response_class=EventSourceResponse)
async def job_events(job_id: str, last_event_id: Annotated[int | None, Header()] = None):
    if job_id not in JOBS:
        raise HTTPException(status_code=404, detail="job not found")
    steps = JOBS[job_id]
    after = last_event_id or 0
    retry = 3000
    for number, name in enumerate(steps, start=1):
        if number <= after:
            continue
        yield ServerSentEvent(data={"step": number, "name": name}, event="step",
                              id=str(number), retry=retry)
        retry = None
    yield ServerSentEvent(data={"job": job_id, "steps": len(steps)}, event="done", retry=retry)


''' + _RESULT.replace("TestClient(app)", "TestClient(app, raise_server_exceptions=False)"),
        "events yielded as dicts with event/id keys": '''\
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.sse import EventSourceResponse
from fastapi.testclient import TestClient

''' + _JOBS + '''
app = FastAPI()


def existing_job(job_id: str) -> str:
    if job_id not in JOBS:
        raise HTTPException(status_code=404, detail="job not found")
    return job_id


@app.get("/jobs/{job_id}/events", response_class=EventSourceResponse)
async def job_events(
    job_id: Annotated[str, Depends(existing_job)],
    last_event_id: Annotated[int | None, Header()] = None,
):
    steps = JOBS[job_id]
    after = last_event_id or 0
    first = True
    for number, name in enumerate(steps, start=1):
        if number <= after:
            continue
        event = {"event": "step", "data": {"step": number, "name": name}, "id": str(number)}
        if first:
            event["retry"] = 3000
            first = False
        yield event
    done = {"event": "done", "data": {"job": job_id, "steps": len(steps)}}
    if first:
        done["retry"] = 3000
    yield done


''' + _RESULT,
        "Last-Event-ID read as a query parameter": '''\
from typing import Annotated

from fastapi import Depends, FastAPI, HTTPException
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient

''' + _JOBS + '''
app = FastAPI()


def existing_job(job_id: str) -> str:
    if job_id not in JOBS:
        raise HTTPException(status_code=404, detail="job not found")
    return job_id


@app.get("/jobs/{job_id}/events", response_class=EventSourceResponse)
async def job_events(job_id: Annotated[str, Depends(existing_job)], last_event_id: int | None = None):
    steps = JOBS[job_id]
    after = last_event_id or 0
    retry = 3000
    for number, name in enumerate(steps, start=1):
        if number <= after:
            continue
        yield ServerSentEvent(data={"step": number, "name": name}, event="step",
                              id=str(number), retry=retry)
        retry = None
    yield ServerSentEvent(data={"job": job_id, "steps": len(steps)}, event="done", retry=retry)


''' + _RESULT,
        "hand-written frames with the id line first": '''\
import json
from typing import Annotated

from fastapi import FastAPI, Header
from fastapi.responses import JSONResponse
from fastapi.sse import EventSourceResponse
from fastapi.testclient import TestClient

''' + _JOBS + '''
app = FastAPI()


@app.get("/jobs/{job_id}/events")
async def job_events(job_id: str, last_event_id: Annotated[int | None, Header()] = None):
    if job_id not in JOBS:
        return JSONResponse({"detail": "job not found"}, status_code=404)
    steps = JOBS[job_id]
    after = last_event_id or 0

    async def frames():
        retry = "retry: 3000\\n"
        for number, name in enumerate(steps, start=1):
            if number <= after:
                continue
            data = json.dumps({"step": number, "name": name})
            yield f"id: {number}\\nevent: step\\ndata: {data}\\n{retry}\\n"
            retry = ""
        data = json.dumps({"job": job_id, "steps": len(steps)})
        yield f"event: done\\ndata: {data}\\n{retry}\\n"

    return EventSourceResponse(frames(), headers={"cache-control": "no-cache"})


''' + _RESULT,
    },
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
