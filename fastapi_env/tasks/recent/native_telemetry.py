"""Recent-features tier, specified by reference: FastAPI's native OpenTelemetry support
(``FastAPI(telemetry=...)``, a ``fastapi.telemetry.TelemetryConfig``; added in FastAPI 0.142,
exporter set-up made opt-in in 0.143). The prompt names the feature and the settings to use
(own ``tracer_provider`` and ``logger_provider``, ``metrics`` off, ``operation_spans`` on or off
per instance, ``exclude``) and says the installed source is in the box; it states how the app
records what FastAPI hands its providers, never what FastAPI hands them.

What a model from memory gets wrong: before 0.142 ``FastAPI(telemetry=...)`` landed silently in
``app.extra`` (no spans at all), and the hand-written replacement (an HTTP middleware starting a
span per request, as opentelemetry-instrumentation-fastapi did) differs in every detail FastAPI
now fixes: ``server.address``/``server.port``/``network.protocol.version``/``url.scheme`` on
every server span; ``url.query`` re-encoded with the semantic conventions' signature parameters
(``sig``, ``X-Amz-Signature``, ...) ``REDACTED`` and bare keys written ``key=``; a span named
only ``GET`` when no route matched, ``HTTP /path`` with ``_OTHER`` and
``http.request.method_original`` for unknown methods, the route kept on 405s and on the
trailing-slash 307; ``<mount>/{path}`` for a path a mounted app does not serve; ``ERROR`` and
``error.type`` (the exception's qualified name) only for 5xx, and ``"500"`` when a handler
turned the exception into the 500; WebSocket spans ``WS <route>``; operation spans
``fastapi.dependencies``/``endpoint``/``serialization``/``background_task``; the log events
``fastapi.validation.failed`` (with the error count) and ``http.server.request.exception``.
A stock service with a mounted legacy app, whose telemetry routes read the recorded spans and
log records back."""

import json

from fastapi_env.tasks import Edit, Family, Requirement

# The app's telemetry settings (spliced into the reference; a trap replaces them).
_TELEMETRY_APP = '''\
app = FastAPI(telemetry={
    "tracer_provider": RecordingTracerProvider(),
    "logger_provider": RecordingLoggerProvider(),
    "metrics": False,
    "operation_spans": ${ops},
    "exclude": excluded,
})
'''

REFERENCE = '''\
from contextlib import contextmanager

from fastapi import BackgroundTasks, FastAPI, HTTPException, WebSocket
from fastapi.testclient import TestClient
from opentelemetry import trace
from opentelemetry._logs import Logger, LoggerProvider
from opentelemetry.trace import SpanContext, SpanKind, Status, TraceFlags
from pydantic import BaseModel, Field

TELEMETRY = "${tel}"
SPANS: list = []  # the spans FastAPI's telemetry started since the last clear, in start order
LOGS: list = []


class RecordedSpan(trace.Span):
    def __init__(self, name, kind, attributes, parent, trace_id):
        self.name, self.kind, self.parent = name, kind.name, parent
        self.attributes = dict(attributes or {})
        self.status = "UNSET"
        self.index = len(SPANS)
        self.context = SpanContext(trace_id=trace_id, span_id=len(SPANS) + 1, is_remote=False,
                                   trace_flags=TraceFlags(TraceFlags.SAMPLED))

    def get_span_context(self):
        return self.context

    def set_attributes(self, attributes):
        self.attributes.update(attributes)

    def set_attribute(self, key, value):
        self.attributes[key] = value

    def update_name(self, name):
        self.name = name

    def set_status(self, status, description=None):
        self.status = (status.status_code if isinstance(status, Status) else status).name

    def is_recording(self):
        return True

    def add_event(self, name, attributes=None, timestamp=None):
        pass

    def record_exception(self, exception, attributes=None, timestamp=None, escaped=False):
        pass

    def end(self, end_time=None):
        pass

    def public(self):
        return {"name": self.name, "kind": self.kind, "parent": self.parent,
                "status": self.status,
                "attributes": {key: value for key, value in self.attributes.items()
                               if key != "code.function.name"}}


class RecordingTracer(trace.Tracer):
    def start_span(self, name, context=None, kind=SpanKind.INTERNAL, attributes=None,
                   links=None, start_time=None, record_exception=True,
                   set_status_on_exception=True):
        current = trace.get_current_span(context)
        found = current.get_span_context()
        if isinstance(current, RecordedSpan):
            parent = current.index
        elif found.is_valid and found.is_remote:
            parent = format(found.span_id, "016x")
        else:
            parent = None
        trace_id = found.trace_id if found.is_valid else len(SPANS) + 1
        span = RecordedSpan(name, kind, attributes, parent, trace_id)
        SPANS.append(span)
        return span

    @contextmanager
    def start_as_current_span(self, name, context=None, kind=SpanKind.INTERNAL,
                              attributes=None, links=None, start_time=None,
                              record_exception=True, set_status_on_exception=True,
                              end_on_exit=True):
        span = self.start_span(name, context, kind, attributes, links, start_time)
        with trace.use_span(span, end_on_exit=end_on_exit, record_exception=record_exception,
                            set_status_on_exception=set_status_on_exception) as current:
            yield current


class RecordingTracerProvider(trace.TracerProvider):
    def get_tracer(self, instrumenting_module_name, instrumenting_library_version=None,
                   schema_url=None, attributes=None):
        return RecordingTracer()


class RecordingLogger(Logger):
    def emit(self, record=None, *, timestamp=None, observed_timestamp=None, context=None,
             severity_number=None, severity_text=None, body=None, attributes=None,
             event_name=None, exception=None):
        LOGS.append({"event_name": event_name, "severity_text": severity_text,
                     "severity_number": None if severity_number is None
                     else severity_number.value,
                     "body": body, "attributes": dict(attributes or {}),
                     "exception": None if exception is None else type(exception).__name__})

    def enabled(self, *, context=None, severity_number=None, event_name=None):
        return True


class RecordingLoggerProvider(LoggerProvider):
    def get_logger(self, name, version=None, schema_url=None, attributes=None):
        return RecordingLogger(name, version, schema_url, attributes)


def excluded(scope):
    return scope["path"] == TELEMETRY or scope["path"].startswith(TELEMETRY + "/")


''' + _TELEMETRY_APP + '''
STOCK = {int(key): dict(value) for key, value in ${seed__repr}.items()}
NEXT_ID = [${next_id}]
AUDIT: list = []


class NewThing(BaseModel):
    name: str = Field(min_length=1, max_length=${name_max})
    stock: int = Field(ge=0)


def public(thing_id):
    return {"id": thing_id, **STOCK[thing_id]}


def record_creation(thing_id):
    AUDIT.append(f"created {thing_id}")


@app.get("${prefix}/${res}")
def list_things(q: str | None = None):
    needle = (q or "").lower()
    return [public(key) for key in sorted(STOCK) if needle in STOCK[key]["name"].lower()]


@app.get("${prefix}/${res}/{${param}}")
def read_thing(${param}: int):
    if ${param} not in STOCK:
        raise HTTPException(404, "${singular} not found")
    return public(${param})


@app.post("${prefix}/${res}", status_code=201)
def create_thing(new: NewThing, tasks: BackgroundTasks):
    thing_id = NEXT_ID[0]
    NEXT_ID[0] += 1
    STOCK[thing_id] = new.model_dump()
    tasks.add_task(record_creation, thing_id)
    return public(thing_id)


@app.get("${prefix}/audit")
def read_audit():
    return {"entries": AUDIT}


@app.get("${prefix}/${res}/{${param}}/split/{parts}")
def split_thing(${param}: int, parts: int):
    if ${param} not in STOCK:
        raise HTTPException(404, "${singular} not found")
    return {"per_part": STOCK[${param}]["stock"] // parts}


@app.websocket("${prefix}/${res}/{${param}}/feed")
async def feed(websocket: WebSocket, ${param}: int):
    if ${param} not in STOCK:
        await websocket.close(code=1008, reason="${singular} not found")
        return
    await websocket.accept()
    await websocket.send_json(public(${param}))
    await websocket.close()


legacy = FastAPI()


@legacy.get("${legacy_path}")
def legacy_lookup(${legacy_param}: int):
    return {"${legacy_key}": ${legacy_param}}


app.mount("${mount}", legacy)


@app.get(TELEMETRY + "/spans")
def read_spans():
    return [span.public() for span in SPANS]


@app.get(TELEMETRY + "/logs")
def read_logs():
    return LOGS


@app.delete(TELEMETRY, status_code=204)
def clear_telemetry():
    SPANS.clear()
    LOGS.clear()


client = TestClient(app, raise_server_exceptions=False)


def traced(method, url, **kwargs):
    client.delete(TELEMETRY)
    response = client.request(method, url, **kwargs)
    return (response, client.get(TELEMETRY + "/spans").json(),
            client.get(TELEMETRY + "/logs").json())


read, read_recorded, _ = traced("GET", "${prefix}/${res}/${first_id}")
missing, missing_recorded, missing_logs = traced("GET", "${prefix}/${res}/${missing}")
invalid, _, invalid_logs = traced("POST", "${prefix}/${res}", json={"name": "", "stock": -1})
crash, crash_recorded, _ = traced("GET", "${prefix}/${res}/${first_id}/split/0")
first = crash_recorded[0] if crash_recorded else {}
result = [
    ["read", read.status_code, read_recorded],
    ["missing", missing.status_code, [span.get("name") for span in missing_recorded],
     missing_logs],
    ["invalid", invalid.status_code, invalid_logs],
    ["crash", crash.status_code, first.get("status"), first.get("attributes", {}).get("error.type")],
]
'''

PROBES = '''
from starlette.websockets import WebSocketDisconnect

TEL = "${tel}"
BASE = "${prefix}/${res}"


def _json(r):
    try:
        return r.json()
    except ValueError:
        return r.text


def _recorded(client):
    spans, logs = client.get(TEL + "/spans"), client.get(TEL + "/logs")
    return [[spans.status_code, _json(spans)] if spans.status_code != 200 else _json(spans),
            [logs.status_code, _json(logs)] if logs.status_code != 200 else _json(logs)]


def _traced(client, method, url, **kwargs):
    client.delete(TEL)
    r = client.request(method, url, **kwargs)
    spans, logs = _recorded(client)
    return r, spans, logs


def _spans(spans):
    return [s for s in spans if isinstance(s, dict)] if isinstance(spans, list) else []


def _server(spans):
    return [s for s in _spans(spans) if s.get("kind") == "SERVER"] or spans


def _shape(spans):
    return [[s.get("name"), s.get("kind"), s.get("parent"), s.get("status")]
            for s in _spans(spans)] or spans


def _socket(client, url, headers=None):
    client.delete(TEL)
    accepted = False
    try:
        with client.websocket_connect(url, headers=dict(headers or {})) as ws:
            accepted = True
            outcome = ["accepted", ws.receive_json()]
    except WebSocketDisconnect as closed:
        outcome = ["accepted" if accepted else "refused", closed.code, closed.reason]
    except Exception as exc:  # a failed handshake of a broken app
        outcome = ["error", type(exc).__name__]
    spans, logs = _recorded(client)
    return outcome, spans, logs


def probe_listing_and_reads(client):
    rows = []
    for query in [None, "${q_upper}", "${q_lower}", "", "zzz-none"]:
        r = client.get(BASE, params=None if query is None else {"q": query})
        rows.append(["list", query, r.status_code, _json(r)])
    for key in ${seed_ids__repr} + [${missing}, 0]:
        r = client.get(f"{BASE}/{key}")
        rows.append(["read", key, r.status_code, _json(r)])
    r = client.get(BASE + "/abc")
    rows.append(["read", "abc", r.status_code, [e.get("loc") for e in _json(r).get("detail", [])]
                 if r.status_code == 422 and isinstance(_json(r), dict) else _json(r)])
    return rows


def probe_create_and_audit(client):
    rows, ids = [], []
    for name, stock in [("${new_name}", 5), ("${name_at_max}", 0)]:
        r = client.post(BASE, json={"name": name, "stock": stock})
        body = _json(r)
        ids.append(body.get("id") if isinstance(body, dict) else None)
        rows.append([r.status_code, {k: v for k, v in body.items() if k != "id"}
                     if isinstance(body, dict) else body])
    rows.append(["ids", isinstance(ids[0], int) and ids[0] >= ${next_id},
                 isinstance(ids[1], int) and ids[1] == (ids[0] or 0) + 1])
    if isinstance(ids[1], int):
        r = client.get(f"{BASE}/{ids[1]}")
        rows.append(["read back", r.status_code, _json(r) == {"id": ids[1], "name": "${name_at_max}",
                                                              "stock": 0}])
    audit = _json(client.get("${prefix}/audit"))
    entries = audit.get("entries") if isinstance(audit, dict) else audit
    rows.append(["audit", entries[-2:] == [f"created {ids[0]}", f"created {ids[1]}"]
                 if isinstance(entries, list) else entries])
    for body in [{"name": "", "stock": 1}, {"name": "${name_over}", "stock": 1},
                 {"name": "x", "stock": -1}, {"name": "x"}, {}, {"name": 5, "stock": "many"}]:
        r = client.post(BASE, json=body)
        detail = _json(r)
        rows.append([r.status_code, [e.get("loc") for e in detail.get("detail", [])]
                     if r.status_code == 422 and isinstance(detail, dict) else detail])
    return rows


def probe_split(client):
    rows = []
    for key, parts in [(${first_id}, 3), (${first_id}, -3), (${second_id}, 1), (${missing}, 2),
                       (${missing}, 0), (${first_id}, 0)]:
        r = client.get(f"{BASE}/{key}/split/{parts}")
        rows.append([key, parts, r.status_code, r.headers.get("content-type"), _json(r)])
    r = client.get(f"{BASE}/{${first_id}}/split/none")
    rows.append(["none", r.status_code])
    return rows


def probe_feed(client):
    rows = []
    for key in [${first_id}, ${missing}]:
        outcome, _, _ = _socket(client, f"{BASE}/{key}/feed")
        rows.append([key, outcome])
    return rows


def _each(client, requests, view, **options):
    # One row per request: [method, url, status, view(spans, logs)].
    rows = []
    for method, url, kwargs in requests:
        r, spans, logs = _traced(client, method, url, **kwargs, **options)
        rows.append([method, url, r.status_code, view(spans, logs)])
    return rows


def _errors(spans, logs):
    return [[s.get("name"), s.get("status"), (s.get("attributes") or {}).get("error.type")]
            for s in _spans(spans)] or spans


def probe_server_spans(client):
    return _each(client, [("GET", f"{BASE}/${first_id}", {}), ("GET", BASE + "?q=${q_lower}", {}),
                          ("POST", BASE, {"json": {"name": "Spanned", "stock": 2}}),
                          ("GET", "${prefix}/audit", {}), ("GET", f"{BASE}/${second_id}/split/2", {})],
                 lambda spans, logs: _server(spans))


def probe_query_attributes(client):
    rows = []
    for query in ["q=${q_lower}&sig=abc123", "flag", "q=a+b&q=a%20b",
                  "q=caf%C3%A9&SIG=1&x-amz-signature=2&X-Goog-Signature=3&X-Amz-Credential=&sig",
                  "=v&&q=", "X-Amz-Security-Token=t0k3n&X-Amz-Signature=s&q=${q_upper}"]:
        r, spans, _ = _traced(client, "GET", BASE + "?" + query)
        server = _server(spans)
        attributes = server[0].get("attributes") if server and isinstance(server[0], dict) else {}
        rows.append([query, r.status_code, attributes.get("url.query", "<absent>")
                     if isinstance(attributes, dict) else attributes])
    return rows


def probe_unmatched_and_other_methods(client):
    return _each(client, [(method, url, {}) for method, url in [
        ("GET", "/nowhere"), ("GET", "${prefix}/nothing/here"), ("PUT", f"{BASE}/${first_id}"),
        ("DELETE", BASE), ("FOO", f"{BASE}/${first_id}"), ("QUERY", f"{BASE}/${first_id}"),
        ("HEAD", f"{BASE}/${first_id}"), ("GET", f"{BASE}/${first_id}/")]],
        lambda spans, logs: _server(spans), follow_redirects=False)


def probe_operation_spans(client):
    return _each(client, [("GET", f"{BASE}/${first_id}", {}), ("GET", f"{BASE}/${missing}", {}),
                          ("POST", BASE, {"json": {"name": "Operated", "stock": 1}}),
                          ("POST", BASE, {"json": {"name": "", "stock": 1}}),
                          ("GET", f"{BASE}/${first_id}/split/0", {}),
                          ("GET", "${mount}${legacy_example}", {}), ("GET", "/nowhere", {})],
                 lambda spans, logs: _shape(spans))


def probe_error_status(client):
    return _each(client, [("GET", f"{BASE}/${first_id}/split/0", {}),
                          ("GET", f"{BASE}/${second_id}/split/0", {}),
                          ("GET", f"{BASE}/${missing}/split/0", {}),
                          ("GET", f"{BASE}/${missing}", {}), ("POST", BASE, {"json": {}}),
                          ("GET", "/nowhere", {})], _errors)


def probe_log_records(client):
    rows = _each(client, [("POST", BASE, {"json": {"name": "", "stock": -1}}),
                          ("POST", BASE, {"json": {"name": "ok", "stock": "x"}}),
                          ("POST", BASE, {"content": b"not json",
                                          "headers": {"content-type": "application/json"}}),
                          ("GET", f"{BASE}/abc", {}), ("GET", f"{BASE}/${first_id}/split/0", {}),
                          ("GET", f"{BASE}/${missing}", {}), ("GET", f"{BASE}/${first_id}", {}),
                          ("GET", "${mount}${legacy_bad}", {})],
                 lambda spans, logs: logs)
    outcome, _, logs = _socket(client, f"{BASE}/abc/feed")
    rows.append(["WS", f"{BASE}/abc/feed", outcome[:2], logs])
    return rows


def probe_websocket_spans(client):
    rows = []
    for url in [f"{BASE}/${first_id}/feed", f"{BASE}/${missing}/feed", f"{BASE}/abc/feed",
                "/nowhere/feed"]:
        outcome, spans, _ = _socket(client, url)
        rows.append([url, outcome[:2], spans])
    return rows


def probe_mounted_app(client):
    rows = []
    for method, url in [("GET", "${mount}${legacy_example}"), ("GET", "${mount}${legacy_bad}"),
                        ("GET", "${mount}/nope"), ("PUT", "${mount}${legacy_example}"),
                        ("GET", "${mount}")]:
        r, spans, _ = _traced(client, method, url, follow_redirects=False)
        server = _server(spans)
        rows.append([method, url, r.status_code, _json(r) if r.status_code == 200 else None,
                     [[s.get("name"), (s.get("attributes") or {}).get("http.route")]
                      for s in server if isinstance(s, dict)] or server])
    return rows


def probe_remote_parent(client):
    rows = []
    for header in ["00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                   "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00",
                   "00-00000000000000000000000000000000-b7ad6b7169203331-01",
                   "not a traceparent"]:
        _, spans, _ = _traced(client, "GET", f"{BASE}/${first_id}",
                              headers={"traceparent": header})
        rows.append(["GET", header, [[s.get("name"), s.get("parent")] for s in _spans(spans)]
                     or spans])
    _, spans, _ = _socket(client, f"{BASE}/${first_id}/feed", headers={
        "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"})
    rows.append(["WS", [[s.get("name"), s.get("parent")] for s in _spans(spans)] or spans])
    return rows


def probe_telemetry_routes_excluded(client):
    rows = []
    client.delete(TEL)
    rows.append(["after clear", _recorded(client)])
    rows.append(["read twice", _recorded(client)])
    for method, url in [("GET", TEL + "/unknown"), ("POST", TEL + "/spans"), ("GET", TEL + "x"),
                        ("GET", "/x" + TEL)]:
        r, spans, logs = _traced(client, method, url)
        rows.append([method, url, r.status_code, [s.get("name") for s in _spans(spans)] or spans,
                     logs])
    return rows
'''

PROMPT = '''\
Instrument the ${brand} stock service with FastAPI's native OpenTelemetry support and let it
read back what that records. The feature is recent (FastAPI 0.142; 0.143 made the exporter
set-up opt-in) and you may not know it: the app is created with `FastAPI(telemetry=...)`, a
`fastapi.telemetry.TelemetryConfig`. Its installed source is in the sandbox: read
`/opt/venv/lib/python3.11/site-packages/fastapi/telemetry/` and the places in
`applications.py`, `routing.py` and `background.py` that call it. It uses the OpenTelemetry
API (opentelemetry-api 1.45.2, a dependency of FastAPI, in
`/opt/venv/lib/python3.11/site-packages/opentelemetry/`); the OpenTelemetry SDK is not
installed.

**Telemetry.** `FastAPI(telemetry={...})` (and no other argument) with exactly these
settings: `tracer_provider` and
`logger_provider` are providers of your own (subclasses of `opentelemetry.trace.TracerProvider`
and `opentelemetry._logs.LoggerProvider`) that record in memory what FastAPI hands them;
`metrics` is False; `operation_spans` is ${ops}; `exclude` skips the telemetry routes: requests
to `${tel}` and to paths under `${tel}/` produce no spans and no log records, every other HTTP
request and WebSocket connection is recorded. The providers implement the OpenTelemetry API as
it is specified: `start_as_current_span` is a context manager that makes the span current the
way `opentelemetry.trace.use_span` does, with the `end_on_exit`, `record_exception` and
`set_status_on_exception` it was given; a span's parent is `opentelemetry.trace.get_current_span`
of the context it was started with (the current context when none is given). Nothing else
traces or logs: no middleware, exception handler or route of yours creates spans or log records.

The grader compares exactly what FastAPI's telemetry produces (span names, kinds, parents,
statuses, attributes, log records) for the requests it sends. The telemetry routes report it,
unchanged:
- `GET ${tel}/spans`: 200, a JSON list with one object per span started since the last clear,
  in the order they were started: `{"name": <its name when read, after any update_name>,
  "kind": <the SpanKind's member name, e.g. "SERVER">, "parent": <the parent's index in this
  list; for a remote parent (an incoming `traceparent` header) its span id as 16 lowercase hex
  digits; null without a valid parent>, "status": <the name of the StatusCode last set,
  "UNSET" if none>, "attributes": <an object of the attributes given when it started and set
  later, the last value of a key winning, leaving out only `code.function.name`>}`.
- `GET ${tel}/logs`: 200, a JSON list with one object per log record emitted since the last
  clear, in order: `{"event_name", "severity_text", "severity_number": <the SeverityNumber's
  integer value>, "body", "attributes": <an object>, "exception": <the class name of the
  exception passed, or null>}`.
- `DELETE ${tel}`: 204, no body; clears both lists.

**The service** (in memory). ${singular}s, as JSON (id: name and stock): `${seed_text}`; new
ones get ids from ${next_id} up. The path operations return plain data (never a Response
object), raise their own `HTTPException`s and use no dependencies; invalid parameters and
bodies get FastAPI's standard answer (a 422; on the WebSocket, a close with 1008).
- `GET ${prefix}/${res}`, optional query `q`: 200, a list of `{"id", "name", "stock"}` ordered
  by id; with `q`, only those whose name contains `q` ignoring case (an empty `q` matches all).
- `GET ${prefix}/${res}/{${param}}` (an integer): 200 with `{"id", "name", "stock"}`, or 404
  `{"detail": "${singular} not found"}`.
- `POST ${prefix}/${res}`, JSON body `{"name": <a string of 1 to ${name_max} characters>,
  "stock": <an integer >= 0>}`: 201 with the new `{"id", "name", "stock"}`; after the response
  one background task, added with FastAPI's `BackgroundTasks`, appends `"created <id>"` to the
  audit log.
- `GET ${prefix}/audit`: 200 `{"entries": [<the audit log, oldest first>]}`.
- `GET ${prefix}/${res}/{${param}}/split/{parts}` (both integers): the 404 above for an unknown
  id, else 200 `{"per_part": <stock // parts, Python's floor division>}`. Nothing guards
  `parts` 0: the `ZeroDivisionError` is left unhandled (no exception handler for it), so the
  answer is FastAPI's plain-text `500 Internal Server Error`.
- WebSocket `${prefix}/${res}/{${param}}/feed` (an integer): for an unknown id the endpoint
  closes the connection itself, without accepting it, with code 1008 and reason
  `${singular} not found`; otherwise it accepts, sends `{"id", "name", "stock"}` as one JSON text
  message and closes with code 1000.
- A second FastAPI app (default settings) mounted at `${mount}` serves `GET ${legacy_path}`
  (`${legacy_param}` an integer): 200 `{"${legacy_key}": <${legacy_param}>}`.

`result`, in order, from `TestClient(app, raise_server_exceptions=False)` (its default base
URL); before each request send `DELETE ${tel}`, after it read `GET ${tel}/spans` and
`GET ${tel}/logs`:
1. `["read", status, <the spans list>]` for `GET ${prefix}/${res}/${first_id}`;
2. `["missing", status, [<the names of the spans, in order>], <the logs list>]` for
   `GET ${prefix}/${res}/${missing}`;
3. `["invalid", status, <the logs list>]` for `POST ${prefix}/${res}` with
   `{"name": "", "stock": -1}`;
4. `["crash", status, <the first span's "status">, <its "error.type" attribute, null if
   absent>]` for `GET ${prefix}/${res}/${first_id}/split/0`.
'''

_HANDWRITTEN = '''\
app = FastAPI()
MIDDLEWARE_TRACER = RecordingTracerProvider().get_tracer("app")


@app.middleware("http")
async def trace_requests(request, call_next):
    # What a model that does not know FastAPI's telemetry writes: a span per request.
    if excluded(request.scope):
        return await call_next(request)
    with MIDDLEWARE_TRACER.start_as_current_span(
            request.method, kind=SpanKind.SERVER,
            attributes={"http.request.method": request.method, "url.path": request.url.path,
                        "url.scheme": request.url.scheme}) as span:
        if request.url.query:
            span.set_attribute("url.query", request.url.query)
        response = await call_next(request)
        route = request.scope.get("route")
        if route is not None:
            span.set_attribute("http.route", route.path)
            span.update_name(f"{request.method} {route.path}")
        span.set_attribute("http.response.status_code", response.status_code)
    return response
'''


def _derive(p):
    seed = p["seed"]
    ids = sorted(int(key) for key in seed)
    listed = {key: seed[key] for key in sorted(seed, key=int)}
    legacy_name = p["legacy_path"].split("{")[0]
    return {"seed_text": json.dumps(listed), "seed_ids": ids, "first_id": ids[0],
            "second_id": ids[1], "next_id": ids[-1] + 1, "missing": ids[-1] + 40,
            "not_ops": not p["ops"], "name_at_max": ("N" * p["name_max"]),
            "name_over": "N" * (p["name_max"] + 1),
            "legacy_example": f"{legacy_name}7", "legacy_bad": f"{legacy_name}seven"}


_DEPOT = {"brand": "Depot", "prefix": "/api", "res": "items", "singular": "Item",
          "param": "item_id", "mount": "/legacy", "legacy_path": "/orders/{order_id}",
          "legacy_param": "order_id", "legacy_key": "order", "tel": "/_telemetry",
          "seed": {"1": {"name": "Hex bolt", "stock": 40}, "2": {"name": "Wing nut", "stock": 7},
                   "4": {"name": "Bolt cutter", "stock": 0}},
          "q_upper": "BOLT", "q_lower": "bolt", "new_name": "Washer"}
_SHELF = {"brand": "Shelf", "prefix": "/v2", "res": "books", "singular": "Book",
          "param": "book_id", "mount": "/archive", "legacy_path": "/loans/{loan_id}",
          "legacy_param": "loan_id", "legacy_key": "loan", "tel": "/_debug/telemetry",
          "seed": {"3": {"name": "Dune", "stock": 12}, "5": {"name": "Dune Messiah", "stock": 2},
                   "8": {"name": "Emma", "stock": 9}, "9": {"name": "Middlemarch", "stock": 1}},
          "q_upper": "DUNE", "q_lower": "dune", "new_name": "Persuasion"}
_CELLAR = {"brand": "Cellar", "prefix": "/store", "res": "bottles", "singular": "Bottle",
           "param": "bottle_id", "mount": "/old", "legacy_path": "/crates/{crate_id}",
           "legacy_param": "crate_id", "legacy_key": "crate", "tel": "/_otel",
           "seed": {"10": {"name": "Rioja Reserva", "stock": 18},
                    "11": {"name": "Riesling", "stock": 30}},
           "q_upper": "RI", "q_lower": "ri", "new_name": "Cava"}

FAMILY = Family(
    id="recent/native_telemetry",
    title="FastAPI's native OpenTelemetry spans and log records, read back from the app",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=_DEPOT | {"ops": True, "name_max": 40},
    space={"site": [_DEPOT, _SHELF, _CELLAR], "ops": [True, False], "name_max": [40, 24]},
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("`GET ${prefix}/${res}` lists by id, `q` matching names ignoring case; "
                    "`GET ${prefix}/${res}/{${param}}` answers the ${singular} or its 404.",
                    probes=("listing_and_reads",),
                    traps=(Edit("search is case-sensitive",
                                '    needle = (q or "").lower()\n'
                                '    return [public(key) for key in sorted(STOCK) if needle in '
                                'STOCK[key]["name"].lower()]',
                                '    needle = q or ""\n'
                                '    return [public(key) for key in sorted(STOCK) if needle in '
                                'STOCK[key]["name"]]'),)),
        Requirement("`POST ${prefix}/${res}` validates the body, answers 201 with the next id "
                    "and a background task appends `created <id>` to the audit log.",
                    probes=("create_and_audit",),
                    traps=(Edit("created as 200",
                                '@app.post("${prefix}/${res}", status_code=201)',
                                '@app.post("${prefix}/${res}")'),
                           Edit("no background task",
                                "    tasks.add_task(record_creation, thing_id)\n", ""))),
        Requirement("`split` answers `stock // parts`, its 404, and an unhandled "
                    "`ZeroDivisionError` (FastAPI's plain 500) for 0 parts.",
                    probes=("split",),
                    traps=(Edit("zero parts guarded with a 400",
                                '    return {"per_part": STOCK[${param}]["stock"] // parts}',
                                '    if parts == 0:\n'
                                '        raise HTTPException(400, "parts must not be 0")\n'
                                '    return {"per_part": STOCK[${param}]["stock"] // parts}'),)),
        Requirement("The feed WebSocket refuses an unknown id with 1008 before accepting, and "
                    "sends a known one as one JSON message.",
                    probes=("feed",),
                    traps=(Edit("unknown id accepted, then closed",
                                "    if ${param} not in STOCK:\n"
                                "        await websocket.close(code=1008",
                                "    if ${param} not in STOCK:\n"
                                "        await websocket.accept()\n"
                                "        await websocket.close(code=1008"),)),
        Requirement("Every recorded server span is exactly what FastAPI's telemetry produces "
                    "for a matched route (name, kind, attributes), read back as stated.",
                    probes=("server_spans", "query_attributes"),
                    traps=(Edit("FastAPI before 0.142 (telemetry= lands in app.extra)",
                                "app = FastAPI(telemetry={", "app = FastAPI(telemetry_0_141={"),
                           Edit("hand-written tracing middleware (from memory)",
                                _TELEMETRY_APP, _HANDWRITTEN),
                           Edit("recorder keeps only the attributes given at start",
                                "    def set_attributes(self, attributes):\n"
                                "        self.attributes.update(attributes)\n\n"
                                "    def set_attribute(self, key, value):\n"
                                "        self.attributes[key] = value\n",
                                "    def set_attributes(self, attributes):\n"
                                "        pass\n\n"
                                "    def set_attribute(self, key, value):\n"
                                "        pass\n"))),
        Requirement("Unmatched paths, other and unknown methods and the trailing-slash "
                    "redirect get the server spans FastAPI's telemetry gives them.",
                    probes=("unmatched_and_other_methods",),
                    traps=(Edit("recorder ignores update_name",
                                "    def update_name(self, name):\n        self.name = name\n",
                                "    def update_name(self, name):\n        pass\n"),)),
        Requirement("Operation spans are exactly those FastAPI's telemetry makes with "
                    "`operation_spans` ${ops}.",
                    probes=("operation_spans",),
                    traps=(Edit("operation_spans flipped",
                                '    "operation_spans": ${ops},',
                                '    "operation_spans": ${not_ops},'),)),
        Requirement("Span statuses and `error.type` are FastAPI's: the unhandled "
                    "`ZeroDivisionError` is not turned into a response by the app.",
                    probes=("error_status",),
                    traps=(Edit("a plain-text 500 handler for ZeroDivisionError",
                                "legacy = FastAPI()\n",
                                "from fastapi.responses import PlainTextResponse  # noqa: E402\n"
                                "\n\n"
                                "@app.exception_handler(ZeroDivisionError)\n"
                                "async def crashed(request, exc):\n"
                                '    return PlainTextResponse("Internal Server Error", '
                                "status_code=500)\n\n\n"
                                "legacy = FastAPI()\n"),)),
        Requirement("The log records are exactly those FastAPI's telemetry emits (validation "
                    "failures, the unhandled exception), read back as stated.",
                    probes=("log_records",),
                    traps=(Edit("logs switched off", '    "metrics": False,\n',
                                '    "metrics": False,\n    "logs": False,\n'),
                           Edit("recorder written for the LogRecord-only emit",
                                "    def emit(self, record=None, *, timestamp=None, "
                                "observed_timestamp=None, context=None,\n"
                                "             severity_number=None, severity_text=None, "
                                "body=None, attributes=None,\n"
                                "             event_name=None, exception=None):\n",
                                "    def emit(self, record):\n"
                                "        event_name, severity_text, severity_number = "
                                "record.event_name, record.severity_text, "
                                "record.severity_number\n"
                                "        body, attributes, exception = record.body, "
                                "record.attributes, None\n"))),
        Requirement("WebSocket connections get FastAPI's telemetry spans (accepted, refused, "
                    "invalid, unmatched).",
                    probes=("websocket_spans",),
                    traps=(Edit("exclude reads the scope as an HTTP request",
                                "def excluded(scope):\n"
                                '    return scope["path"] == TELEMETRY or scope["path"]'
                                '.startswith(TELEMETRY + "/")\n',
                                "def excluded(scope):\n"
                                "    from fastapi import Request\n"
                                "    path = Request(scope).url.path\n"
                                '    return path == TELEMETRY or path.startswith(TELEMETRY + "/")'
                                "\n"),)),
        Requirement('The legacy app is mounted at `${mount}` and answers `{"${legacy_key}": '
                    "id}`; its requests get the spans FastAPI gives a mounted app.",
                    probes=("mounted_app",),
                    traps=(Edit("legacy routes included instead of mounted",
                                'app.mount("${mount}", legacy)',
                                'app.include_router(legacy.router, prefix="${mount}")'),)),
        Requirement("A valid incoming `traceparent` is the server span's remote parent; "
                    "operation spans hang off the server span.",
                    probes=("remote_parent",),
                    traps=(Edit("recorder ignores remote parents",
                                "        elif found.is_valid and found.is_remote:\n"
                                '            parent = format(found.span_id, "016x")\n', ""),)),
        Requirement("Requests to `${tel}` and under `${tel}/` are excluded from telemetry; "
                    "every other path is recorded.",
                    probes=("telemetry_routes_excluded",),
                    traps=(Edit("no exclude", '    "exclude": excluded,\n', ""),
                           Edit("exclude by bare prefix",
                                'scope["path"] == TELEMETRY or scope["path"].startswith('
                                'TELEMETRY + "/")',
                                'scope["path"].startswith(TELEMETRY)'))),
    ),
)
