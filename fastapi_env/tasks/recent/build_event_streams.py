"""Recent-features tier: Server-Sent Events from FastAPI path operations (``fastapi.sse``,
0.135: ``response_class=EventSourceResponse`` on a generator, ``ServerSentEvent`` for
``event``/``id``/``retry``/comments and ``raw_data``; 0.140.12 split multi-line values into
one ``data:`` line each; 0.140.13 made ``status_code`` apply to streams). What a model from
memory gets wrong: an ``HTTPException`` raised inside the generator no longer changes the
status (the stream has started: a 200 with no events), so the 404 must come from a dependency;
plain yielded objects are validated and filtered by the stream's item type while a
``ServerSentEvent``'s ``data`` is not; string data is JSON (quoted) unless sent raw. A CI
server's build event streams, resumable with ``Last-Event-ID``."""

import json

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.recent._stream_probes import SSE_EVENTS

REFERENCE = '''\
from collections.abc import AsyncIterable
from typing import Annotated

from fastapi import Depends, FastAPI, Header, HTTPException
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, StringConstraints

RETRY_MS = ${retry_ms}
RUNNER = "${runner}"
# id -> {"project", "status", "steps": [{"name", "ok", "seconds", "runner", "log"}]}
BUILDS: dict[int, dict] = {int(build_id): build for build_id, build in ${builds__repr}.items()}
NEXT_ID = [max(BUILDS) + 1]  # ids only go up

app = FastAPI()


class StepOut(BaseModel):
    name: str
    ok: bool | None
    seconds: int


class Queued(BaseModel):
    build: int
    step: str
    position: int


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40)]


class NewBuild(BaseModel):
    project: Name
    steps: list[Name] = Field(min_length=1, max_length=${max_steps})


def find_build(build_id: int) -> int:
    # A dependency runs before the stream starts: raised inside the generator, the 404 would
    # only end a 200 stream that has already begun.
    if build_id not in BUILDS:
        raise HTTPException(404, "no such build")
    return build_id


def build_events(build_id: int, after: int):
    build = BUILDS[build_id]
    yield ServerSentEvent(comment=f"build {build_id} for {build['project']}", retry=RETRY_MS)
    for seq, step in enumerate(build["steps"], start=1):
        if seq <= after:
            continue
        # A ServerSentEvent's data is not filtered by any response model: send only the
        # public fields (never the runner).
        yield ServerSentEvent(event="step", id=str(seq), data=StepOut(**step))
        if step["log"]:
            yield ServerSentEvent(event="log", raw_data=step["log"])
    final = len(build["steps"]) + 1
    if final > after:
        yield ServerSentEvent(event="status", id=str(final), data=build["status"])


@app.get("/builds/{build_id}/events", response_class=EventSourceResponse)
async def events(build_id: Annotated[int, Depends(find_build)],
                 last_event_id: Annotated[int | None, Header(ge=0)] = None
                 ) -> AsyncIterable[ServerSentEvent]:
    for event in build_events(build_id, last_event_id or 0):
        yield event


@app.post("/builds", response_class=EventSourceResponse, status_code=201)
async def create_build(new: NewBuild) -> AsyncIterable[Queued]:
    build_id = NEXT_ID[0]
    NEXT_ID[0] += 1
    steps = [{"name": name, "ok": None, "seconds": 0, "runner": RUNNER, "log": ""}
             for name in new.steps]
    BUILDS[build_id] = {"project": new.project, "status": "queued", "steps": steps}
    for position, step in enumerate(steps, start=1):
        # Plain items are validated and filtered by the stream's item type (Queued).
        yield {"build": build_id, "step": step["name"], "position": position, **step}


def fields(r, name):
    return [line[len(name) + 2:] for line in r.text.splitlines() if line.startswith(name + ": ")]


client = TestClient(app, raise_server_exceptions=False)
first = client.get("/builds/${build_a}/events")
created = client.post("/builds", json={"project": "${new_project}", "steps": ${new_steps__repr}})
result = [
    ["events", first.status_code, first.headers["content-type"], fields(first, "event"),
     fields(first, "id")],
    ["created", created.status_code, len(fields(created, "data"))],
    ["missing", client.get("/builds/${missing}/events").status_code],
]
'''

PROBES = SSE_EVENTS + '''
def _stream(r):
    if r.headers.get("content-type", "").startswith("text/event-stream"):
        return [r.status_code, sse_events(r.text)]
    if r.status_code == 422:
        return [422, [[e["type"], e["loc"]] for e in r.json()["detail"]]]
    return [r.status_code, r.json() if r.content else None]


def _events(client, build_id, **headers):
    return _stream(client.get(f"/builds/{build_id}/events", headers=headers))


def _data(event):
    data = event.get("data") if isinstance(event, dict) else None
    return data[1] if isinstance(data, list) and len(data) == 2 else None


def _named(stream, name):
    return [event for event in stream[1] if event.get("event") == name] \\
        if isinstance(stream[1], list) and stream[0] == 200 else stream


def probe_stream_headers(client):
    rows = []
    for build_id in [${build_a}, ${build_b}]:
        r = client.get(f"/builds/{build_id}/events")
        rows.append([r.status_code] + [r.headers.get(name) for name in
                                       ["content-type", "cache-control", "x-accel-buffering"]])
    return rows


def probe_opening_event(client):
    rows = []
    for build_id, headers in [(${build_a}, {}), (${build_b}, {}),
                              (${build_b}, {"Last-Event-ID": "99"})]:
        stream = _events(client, build_id, **headers)
        rows.append([build_id, stream[1][0] if stream[0] == 200 and stream[1] else stream])
    return rows


def probe_step_events(client):
    return [[build_id, _named(_events(client, build_id), "step")]
            for build_id in [${build_a}, ${build_b}]]


def probe_log_lines(client):
    return [[build_id, _named(_events(client, build_id), "log")]
            for build_id in [${build_a}, ${build_b}]]


def probe_status_event(client):
    return [[build_id, _named(_events(client, build_id), "status")]
            for build_id in [${build_a}, ${build_b}]]


def probe_resume_after_last_event_id(client):
    rows = []
    for last in ["0", "1", "${resume_at}", "${final_b}", "${past_final_b}"]:
        stream = _events(client, ${build_b}, **{"Last-Event-ID": last})
        rows.append([last, [[event.get("event"), event.get("id")] for event in stream[1]]
                     if stream[0] == 200 else stream])
    return rows


def probe_invalid_last_event_id(client):
    return [[last, _events(client, ${build_a}, **{"Last-Event-ID": last})]
            for last in ["-1", "abc", "1.5", ""]]


def probe_unknown_builds(client):
    rows = []
    for build_id, headers in [(${missing}, {}), (0, {}), ("abc", {}),
                              (${missing}, {"Last-Event-ID": "abc"})]:
        rows.append([build_id, headers, _events(client, build_id, **headers)])
    return rows


def _create(client, body):
    return _stream(client.post("/builds", json=body))


def probe_create_streams_queued(client):
    r = client.post("/builds", json={"project": "probe", "steps": ["a", "b"]})
    stream = _stream(r)
    return [[r.status_code, r.headers.get("content-type"), len(stream[1])
             if r.status_code < 300 and isinstance(stream[1], list) else stream]]


def probe_queued_events_show_only_public_fields(client):
    stream = _create(client, {"project": "  spaced  ", "steps": [" x ", "y", "x"]})
    if not 200 <= stream[0] < 300 or not stream[1]:
        return [stream]
    first = _data(stream[1][0])
    first_id = first.get("build") if isinstance(first, dict) else None
    rows = []
    for event in stream[1]:
        data = _data(event)
        if isinstance(data, dict) and isinstance(first_id, int):
            data = {k: (v - first_id if k == "build" and isinstance(v, int) else v)
                    for k, v in data.items()}
        rows.append([event.get("data", [None])[0], data, sorted(k for k in event if k != "data")])
    return rows


def probe_new_build_validation(client):
    rows = []
    for body in [{"project": "", "steps": ["a"]}, {"project": "   ", "steps": ["a"]},
                 {"project": "p" * 40, "steps": ["a"]}, {"project": "p" * 41, "steps": ["a"]},
                 {"project": "p", "steps": []}, {"project": "p", "steps": ${max_step_list__repr}},
                 {"project": "p", "steps": ${over_step_list__repr}},
                 {"project": "p", "steps": ["ok", " "]}, {"steps": ["a"]}]:
        stream = _create(client, body)
        # Locations only: the prompt leaves the error types to the implementation.
        rows.append([stream[0] < 300, [loc for _, loc in stream[1]] if stream[0] == 422
                     else len(stream[1])])
    return rows


def probe_created_builds_stream_later(client):
    ids = []
    for project in ["later one", "later two"]:
        stream = _create(client, {"project": project, "steps": ["compile", "ship"]})
        data = _data(stream[1][0]) if 200 <= stream[0] < 300 and stream[1] else None
        ids.append(data.get("build") if isinstance(data, dict) else None)
    rows = [["ids", ids[0] is not None and ids[0] > ${max_seed_id}, ids[1] == (ids[0] or 0) + 1]]
    if ids[1] is not None:
        stream = _events(client, ids[1])
        rows.append([stream[0], [{k: v for k, v in event.items() if k != ":"}
                                 for event in stream[1]] if stream[0] == 200 else stream])
        rows.append(["comment", stream[1][0].get(":") == [f"build {ids[1]} for later two"]
                     if stream[0] == 200 and stream[1] else stream])
    return rows
'''

PROMPT = '''\
Build the ${brand} CI server's build event streams with FastAPI's Server-Sent Events support
(recent: `fastapi.sse`, added in FastAPI 0.135 and changed since; read the installed source
under `python3 -c "import fastapi, os; print(os.path.dirname(fastapi.__file__))"`, `sse.py`
and `routing.py`, if you do not know it). A stream is FastAPI's standard `text/event-stream`
response: `Content-Type: text/event-stream; charset=utf-8`, `Cache-Control: no-cache`,
`X-Accel-Buffering: no`, events separated by a blank line, each made of `field: value` lines.

**Builds** (in memory), as JSON: `${builds_text}` (each step: `name`, `ok`, `seconds`,
`runner`, `log`). The `runner` is internal and never appears in any
response. New builds get ids from ${next_id} up, never reused.

**`GET /builds/{build_id}/events`** (`build_id` an integer; anything else is FastAPI's
standard 422), optional header `Last-Event-ID`
(an integer >= 0). An unknown build is 404 `{"detail": "no such build"}` (JSON, no stream; this
wins over an invalid `Last-Event-ID`); an invalid `Last-Event-ID` is FastAPI's standard 422
(type `int_parsing`, or `greater_than_equal` below 0, at `["header", "last-event-id"]`). The
stream (200) sends, in order:
1. always first, an event with only the comment line `: build <id> for <project>` and
   `retry: ${retry_ms}` (no event name, no id, no data);
2. for each step, numbered 1, 2, ... in order: an event named `step` with id `<number>` whose
   data is the JSON object `{"name", "ok", "seconds"}`; then, if the step's log is not empty,
   an event named `log` (no id) whose data is the log text itself, not JSON, one `data:` line
   per line of the log;
3. last, an event named `status` with id `<number of steps + 1>` whose data is the build's
   status as a JSON string (with its quotes, e.g. `data: "passed"`).
With `Last-Event-ID: n`, the events with an id (and the log event that follows a skipped step)
up to and including `n` are left out; the opening event is always sent.

**`POST /builds`** with a JSON body `{"project": <1-40 characters>, "steps": [<names of 1-40
characters>, 1 to ${max_steps} of them]}` (the project and each name are trimmed of
surrounding whitespace, and the trimmed text is what is checked, stored and sent; invalid bodies
are FastAPI's standard 422, a bad name reported at `["body", "steps", <index>]`, a bad count at
`["body", "steps"]`): 201, a stream with, for each step in
order, one event with only a data line, the JSON object `{"build": <new id>, "step": <name>,
"position": <1, 2, ...>}` and nothing else. The new build is stored with status `queued`, its
steps with `ok` null, `seconds` 0, empty logs and runner `${runner}`, and streams on
`GET /builds/{id}/events` like the others.

`result`, in order:
1. `["events", status, Content-Type, [the values of the event's `event:` lines in order],
   [the values of the `id:` lines in order]]` of `GET /builds/${build_a}/events`;
2. `["created", status, <number of data lines>]` of `POST /builds` with
   `{"project": "${new_project}", "steps": ${new_steps__json}}`;
3. `["missing", <status of GET /builds/${missing}/events>]`.
'''


def _derive(p):
    builds = p["builds"]
    ids = sorted(int(i) for i in builds)
    build_b = p["build_b"]
    steps_b = len(builds[str(build_b)]["steps"])
    listed = [{"id": int(i)} | builds[i] for i in sorted(builds, key=int)]
    return {"builds_text": json.dumps(listed), "build_a": ids[0], "next_id": ids[-1] + 1, "max_seed_id": ids[-1],
            "missing": ids[-1] + 50, "resume_at": min(2, steps_b),
            "final_b": steps_b + 1, "past_final_b": steps_b + 5,
            "max_step_list": [f"s{n}" for n in range(p["max_steps"])],
            "over_step_list": [f"s{n}" for n in range(p["max_steps"] + 1)]}


_ORBIT = {"brand": "Orbit", "runner": "runner-eu-3", "build_b": 12,
          "builds": {"7": {"project": "web", "status": "passed", "steps": [
              {"name": "lint", "ok": True, "seconds": 12, "runner": "runner-eu-3", "log": ""},
              {"name": "test", "ok": True, "seconds": 95, "runner": "runner-eu-3",
               "log": "collected 41 items\n41 passed"}]},
              "12": {"project": "api", "status": "failed", "steps": [
                  {"name": "build", "ok": True, "seconds": 40, "runner": "runner-eu-1",
                   "log": "image built"},
                  {"name": "test", "ok": False, "seconds": 61, "runner": "runner-eu-1",
                   "log": "2 failed\nsee report.xml\nretry with -x"},
                  {"name": "deploy", "ok": None, "seconds": 0, "runner": "runner-eu-1",
                   "log": ""}]}},
          "new_project": "docs", "new_steps": ["render", "publish"]}
_KILN = {"brand": "Kiln", "runner": "kiln-box-9", "build_b": 3,
         "builds": {"3": {"project": "firmware", "status": "passed", "steps": [
             {"name": "compile", "ok": True, "seconds": 300, "runner": "kiln-box-2",
              "log": "warnings: none"},
             {"name": "flash-test", "ok": True, "seconds": 45, "runner": "kiln-box-2",
              "log": "board A ok\nboard B ok"},
             {"name": "sign", "ok": True, "seconds": 2, "runner": "kiln-box-2", "log": ""},
             {"name": "upload", "ok": True, "seconds": 9, "runner": "kiln-box-2",
              "log": "sent"}]},
             "2": {"project": "app", "status": "cancelled", "steps": [
                 {"name": "deps", "ok": None, "seconds": 0, "runner": "kiln-box-1", "log": ""}]},
             "5": {"project": "site", "status": "running", "steps": [
                 {"name": "build", "ok": True, "seconds": 20, "runner": "kiln-box-4",
                  "log": "done"}]}},
         "new_project": "cli", "new_steps": ["vet", "test", "release"]}

FAMILY = Family(
    id="recent/build_event_streams",
    title="Resumable build event streams with FastAPI's Server-Sent Events",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=_ORBIT | {"retry_ms": 3000, "max_steps": 5},
    space={
        "site": [_ORBIT, _KILN],
        "retry_ms": [3000, 1500, 10000],
        "max_steps": [5, 8],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("Streams carry FastAPI's standard SSE headers (`text/event-stream; "
                    "charset=utf-8`, `Cache-Control: no-cache`, `X-Accel-Buffering: no`).",
                    probes=("stream_headers",),
                    traps=(Edit("hand-made stream without the SSE headers",
                                '@app.get("/builds/{build_id}/events", response_class='
                                'EventSourceResponse)\n'
                                "async def events(",
                                '@app.get("/builds/{build_id}/events")\n'
                                "async def events(build_id: Annotated[int, Depends("
                                "find_build)],\n"
                                "                 last_event_id: Annotated[int | None, "
                                "Header(ge=0)] = None):\n"
                                "    from fastapi.responses import StreamingResponse\n"
                                "    from fastapi.sse import format_sse_event\n"
                                "    items = [format_sse_event(data_str=e.raw_data if e.raw_data "
                                "is not None else (None if e.data is None else e.data."
                                "model_dump_json() if hasattr(e.data, 'model_dump_json') else "
                                "__import__('json').dumps(e.data)), event=e.event, id=e.id, "
                                "retry=e.retry, comment=e.comment) async for e in "
                                "sse_events(build_id, last_event_id)]\n"
                                "    return StreamingResponse(iter(items), media_type="
                                "\"text/event-stream\")\n\n\n"
                                "async def sse_events("),)),
        Requirement("Every stream opens with the comment `build <id> for <project>` and "
                    "`retry: ${retry_ms}`, also when resuming.",
                    probes=("opening_event",),
                    traps=(Edit("opening as a data event",
                                "ServerSentEvent(comment=f\"build {build_id} for "
                                "{build['project']}\", retry=RETRY_MS)",
                                "ServerSentEvent(data=f\"build {build_id} for "
                                "{build['project']}\", retry=RETRY_MS)"),)),
        Requirement("Each step is a `step` event with id `<number>` and data `{\"name\", "
                    "\"ok\", \"seconds\"}`, never the runner.",
                    probes=("step_events",),
                    traps=(Edit("step data with the runner (a ServerSentEvent is not filtered)",
                                "data=StepOut(**step))", "data=step)"),)),
        Requirement("A non-empty log is a `log` event with one raw `data:` line per log line.",
                    probes=("log_lines",),
                    traps=(Edit("log sent as a JSON string",
                                'yield ServerSentEvent(event="log", raw_data=step["log"])',
                                'yield ServerSentEvent(event="log", data=step["log"])'),)),
        Requirement("The last event is `status` with id `<steps + 1>` and the status as a "
                    "quoted JSON string.",
                    probes=("status_event",),
                    traps=(Edit("status sent raw",
                                'id=str(final), data=build["status"])',
                                'id=str(final), raw_data=build["status"])'),)),
        Requirement("`Last-Event-ID: n` leaves out the events up to and including id n (and "
                    "their logs).",
                    probes=("resume_after_last_event_id",),
                    traps=(Edit("resume repeats event n", "        if seq <= after:",
                                "        if seq < after:"),)),
        Requirement("An invalid `Last-Event-ID` is FastAPI's 422 at "
                    "`[\"header\", \"last-event-id\"]`.",
                    probes=("invalid_last_event_id",),
                    traps=(Edit("negative Last-Event-ID accepted",
                                "last_event_id: Annotated[int | None, Header(ge=0)] = None",
                                "last_event_id: Annotated[int | None, Header()] = None"),)),
        Requirement("An unknown build is a 404 JSON response, not a stream, even with an "
                    "invalid `Last-Event-ID`.",
                    probes=("unknown_builds",),
                    traps=(Edit("404 raised inside the stream",
                                "async def events(build_id: Annotated[int, Depends(find_build)],\n"
                                "                 last_event_id: Annotated[int | None, Header("
                                "ge=0)] = None\n"
                                "                 ) -> AsyncIterable[ServerSentEvent]:\n",
                                "async def events(build_id: int,\n"
                                "                 last_event_id: Annotated[int | None, Header("
                                "ge=0)] = None\n"
                                "                 ) -> AsyncIterable[ServerSentEvent]:\n"
                                "    find_build(build_id)\n"),
                           Edit("header checked before the build",
                                "def find_build(build_id: int) -> int:",
                                "def find_build(build_id: int, last_event_id: Annotated["
                                "int | None, Header(ge=0)] = None) -> int:"))),
        Requirement("`POST /builds` answers 201 with an event stream.",
                    probes=("create_streams_queued",),
                    traps=(Edit("created stream as 200",
                                '@app.post("/builds", response_class=EventSourceResponse, '
                                'status_code=201)',
                                '@app.post("/builds", response_class=EventSourceResponse)'),)),
        Requirement("Each queued event has only a data line `{\"build\", \"step\", "
                    "\"position\"}` (names trimmed), never the runner.",
                    probes=("queued_events_show_only_public_fields",),
                    traps=(Edit("queued data unfiltered (wrapped in ServerSentEvent)",
                                '        yield {"build": build_id, "step": step["name"], '
                                '"position": position, **step}',
                                '        yield ServerSentEvent(data={"build": build_id, '
                                '"step": step["name"], "position": position, **step})'),)),
        Requirement("New build bodies are checked: project and step names 1-40 characters "
                    "after trimming, 1 to ${max_steps} steps.",
                    probes=("new_build_validation",),
                    traps=(Edit("names not trimmed before the checks",
                                "StringConstraints(strip_whitespace=True, min_length=1, "
                                "max_length=40)",
                                "StringConstraints(min_length=1, max_length=40)"),
                           Edit("step count unbounded",
                                "steps: list[Name] = Field(min_length=1, max_length=${max_steps})",
                                "steps: list[Name] = Field(min_length=1)"))),
        Requirement("A new build gets the next id (from ${next_id}) and streams later as "
                    "`queued` with its steps.",
                    probes=("created_builds_stream_later",),
                    traps=(Edit("ids counted from the number of builds",
                                "    build_id = NEXT_ID[0]\n",
                                "    build_id = len(BUILDS) + 1\n"),
                           Edit("new builds not stored",
                                '    BUILDS[build_id] = {"project": new.project, "status": '
                                '"queued", "steps": steps}\n', ""))),
    ),
)
