"""Probe text that reads a stream as rows, shared by the recent families: a WebSocket
session (socket_security) and a text/event-stream body (build_event_streams). Not a family:
modules starting with `_` are skipped at load. Each snippet is Python source pasted into a
probes template (so every reference stays one self-contained app); the snippets hold no `$`."""

# How a probe sees one WebSocket session, as plain rows: refused before the handshake (an HTTP
# denial response: status, JSON body, WWW-Authenticate), closed before the handshake (code and
# the reason, FastAPI's validation errors reduced to type and loc), or accepted (the first
# frame, then one reply per message sent, or how the server closed).
SOCKET_SESSION = '''import json

from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect


def _reason(reason):
    if isinstance(reason, str):
        try:
            reason = json.loads(reason)
        except ValueError:
            return reason
    if isinstance(reason, list):
        return [[e.get("type"), e.get("loc")] for e in reason if isinstance(e, dict)]
    return reason


def _receive(socket):
    try:
        return socket.receive_json()
    except WebSocketDisconnect as closed:
        return ["closed", closed.code, _reason(closed.reason)]


def _is_closed(frame):
    return isinstance(frame, list) and frame[:1] == ["closed"]


def session(client, path, headers=None, sends=(), until_closed=False):
    try:
        # A copy: the test client adds the handshake headers to the dict it is given.
        with client.websocket_connect(path, headers=dict(headers or {})) as socket:
            frames = [_receive(socket)]
            for text in sends:
                if _is_closed(frames[-1]):
                    break
                socket.send_text(text)
                frames.append(_receive(socket))
            if until_closed and not _is_closed(frames[-1]):
                frames.append(_receive(socket))
            return ["accepted", frames]
    except WebSocketDenialResponse as denied:
        body = denied.json() if denied.headers.get("content-type") == "application/json" \\
            else denied.text
        return ["refused", denied.status_code, body, denied.headers.get("www-authenticate")]
    except WebSocketDisconnect as closed:
        return ["closed before accept", closed.code, _reason(closed.reason)]

'''

# A text/event-stream body as rows: one dict per event, `data` lines joined by newlines and
# shown as ["json", value] when they parse as JSON or ["text", lines] when they do not (so a
# quoted string and raw text differ while JSON spacing does not matter), comment lines as a
# list under ":", and the last `event`, `id`, `retry` (and any other field) as text.
SSE_EVENTS = '''import json


def sse_events(text):
    events, fields = [], {}
    for line in text.replace("\\r\\n", "\\n").replace("\\r", "\\n").split("\\n"):
        if line == "":
            if fields:
                events.append(fields)
            fields = {}
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name or ":", []).append(value[1:] if value.startswith(" ") else value)
    if fields:
        events.append(fields | {"unterminated": [""]})
    rows = []
    for fields in events:
        event = {}
        for name, values in fields.items():
            if name == "data":
                joined = "\\n".join(values)
                try:
                    event["data"] = ["json", json.loads(joined)]
                except ValueError:
                    event["data"] = ["text", joined]
            else:
                event[name] = values if name == ":" else values[-1]
        rows.append(event)
    return rows

'''
