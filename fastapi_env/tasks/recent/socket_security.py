"""Recent-features tier: FastAPI's security schemes on WebSocket routes (``HTTPBearer`` and
``APIKeyQuery`` take an ``HTTPConnection`` in the installed FastAPI; 0.141 still required a
``Request``, so they could not guard a WebSocket). A refused handshake is an HTTP denial
response (401 with ``WWW-Authenticate``, or the status of an ``HTTPException`` raised by a
dependency), never a closed socket; invalid query parameters close the socket with 1008 and
FastAPI's errors as the reason, after the security checks; a ``WebSocketException`` after the
handshake closes with its own code and reason. A chat with writer and reader tokens, display
screens keyed by a query parameter, and the same rules on an HTTP route."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.recent._stream_probes import SOCKET_SESSION

REFERENCE = '''\
from typing import Annotated

from fastapi import (Depends, FastAPI, HTTPException, Query, WebSocket, WebSocketDisconnect,
                     WebSocketException)
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

USERS = ${users__repr}
SCREEN_KEYS = ${screen_keys__repr}
MAX_LENGTH = ${max_len}
ROOMS: dict[str, list[dict]] = {room: [] for room in ${rooms__repr}}
for seed_room, seed_user, seed_text in ${seed__repr}:
    ROOMS[seed_room].append({"id": len(ROOMS[seed_room]) + 1, "user": seed_user,
                             "text": seed_text})

app = FastAPI()
# The security schemes read a WebSocket handshake as well as a request: a refusal is an HTTP
# response to the handshake (401 with WWW-Authenticate), not a closed socket.
bearer = HTTPBearer()
screen_key = APIKeyQuery(name="${key_param}")


def current_user(credentials: Annotated[HTTPAuthorizationCredentials, Depends(bearer)]) -> dict:
    user = USERS.get(credentials.credentials)
    if user is None:
        raise HTTPException(403, "unknown token")
    return user


def open_room(room: str, user: Annotated[dict, Depends(current_user)]) -> str:
    # Depends on the user, so a missing or unknown token is reported before an unknown room.
    if room not in ROOMS:
        raise HTTPException(404, "no such room")
    return room


def after(room: str, since: int) -> list[dict]:
    return [message for message in ROOMS[room] if message["id"] > since]


def post(room: str, user: dict, text: str) -> dict:
    if not text:
        return {"type": "error", "detail": "empty message"}
    if len(text) > MAX_LENGTH:
        return {"type": "error", "detail": "message too long"}
    message = {"id": len(ROOMS[room]) + 1, "user": user["name"], "text": text}
    ROOMS[room].append(message)
    return {"type": "posted", "id": message["id"]}


@app.websocket("/rooms/{room}")
async def chat(websocket: WebSocket, room: Annotated[str, Depends(open_room)],
               user: Annotated[dict, Depends(current_user)],
               since: Annotated[int, Query(ge=0)] = 0):
    await websocket.accept()
    await websocket.send_json({"type": "welcome", "user": user["name"], "room": room,
                               "history": after(room, since)})
    try:
        while True:
            text = (await websocket.receive_text()).strip()
            if user["role"] != "writer":
                raise WebSocketException(code=1008, reason="read only")
            await websocket.send_json(post(room, user, text))
    except WebSocketDisconnect:
        pass


@app.websocket("/screens/{room}")
async def screen(websocket: WebSocket, key: Annotated[str, Depends(screen_key)], room: str):
    if key not in SCREEN_KEYS:
        raise HTTPException(403, "unknown key")
    if room not in ROOMS:
        raise HTTPException(404, "no such room")
    await websocket.accept()
    await websocket.send_json({"room": room, "count": len(ROOMS[room]),
                               "latest": ROOMS[room][-1] if ROOMS[room] else None})
    await websocket.close()


@app.get("/rooms/{room}/messages")
def messages(room: Annotated[str, Depends(open_room)],
             since: Annotated[int, Query(ge=0)] = 0) -> list[dict]:
    return after(room, since)


client = TestClient(app)
WRITER = {"Authorization": "Bearer ${writer_token}"}
with client.websocket_connect("/rooms/${room_a}", headers=WRITER) as socket:
    welcome = socket.receive_json()
    socket.send_text("  ${hello}  ")
    posted = socket.receive_json()
try:
    with client.websocket_connect("/rooms/${room_a}") as socket:
        refused = ["accepted"]
except WebSocketDenialResponse as denial:
    refused = [denial.status_code, denial.json(), denial.headers.get("www-authenticate")]
except WebSocketDisconnect as closed:
    refused = ["closed", closed.code]
result = [
    ["welcome", welcome],
    ["posted", posted],
    ["messages", client.get("/rooms/${room_a}/messages", headers=WRITER).json()],
    ["no token", refused],
]
'''

PROBES = '''\
''' + SOCKET_SESSION + '''
WRITER = {"Authorization": "Bearer ${writer_token}"}
READER = {"Authorization": "Bearer ${reader_token}"}


def _posted_id(client, room, text):
    rows = session(client, f"/rooms/{room}", WRITER, [text])
    return rows[1][-1].get("id") if rows[0] == "accepted" and isinstance(rows[1][-1], dict) \\
        else None


def probe_welcome(client):
    # Rooms the visible result posts nothing to: their history is the seed alone.
    return [[who, session(client, f"/rooms/{room}", headers)] for room in ${rooms__repr}[1:]
            for who, headers in [("writer", WRITER), ("reader", READER)]]


def probe_scheme_case(client):
    rows = []
    for value in ["bearer ${writer_token}", "BEARER ${reader_token}", "Bearer   ${writer_token}"]:
        outcome = session(client, "/rooms/${room_b}", {"Authorization": value})
        rows.append([value, outcome[0], outcome[1][0].get("user") if outcome[0] == "accepted"
                     and isinstance(outcome[1][0], dict) else outcome])
    return rows


def probe_missing_credentials(client):
    rows = []
    for headers in [{}, {"Authorization": ""}, {"Authorization": "Basic ${writer_token}"},
                    {"Authorization": "Bearer"}, {"Authorization": "Bearer "},
                    {"Authorization": "${writer_token}"}, {"X-Token": "${writer_token}"}]:
        rows.append([headers, session(client, "/rooms/${room_a}", headers)])
    return rows


def probe_unknown_token(client):
    rows = []
    for token in ["nope", "${writer_token}".upper(), "${writer_name}", "${screen_key}"]:
        rows.append([token, session(client, "/rooms/${room_a}",
                                    {"Authorization": f"Bearer {token}"})])
    return rows


def probe_unknown_room(client):
    rows = []
    for path, headers in [("/rooms/nowhere", WRITER), ("/rooms/" + "${room_a}".upper(), READER),
                          ("/rooms/nowhere", {}), ("/rooms/nowhere",
                                                   {"Authorization": "Bearer nope"})]:
        rows.append([path, bool(headers), session(client, path, headers)])
    return rows


def probe_history_since(client):
    first = _posted_id(client, "${room_b}", "since one")
    second = _posted_id(client, "${room_b}", "since two")
    rows = [["ids", first is not None and second == first + 1]]
    for since in [0, first - 1 if first else 0, first or 0, second or 0, 999]:
        outcome = session(client, f"/rooms/${room_b}?since={since}", READER)
        history = outcome[1][0].get("history") if outcome[0] == "accepted" \\
            and isinstance(outcome[1][0], dict) else outcome
        rows.append([since == 0, since == 999, history])
    return rows


def probe_invalid_since(client):
    return [[since, session(client, f"/rooms/${room_a}?since={since}", WRITER)]
            for since in ["-1", "abc", "1.5", ""]]


def probe_auth_before_validation(client):
    return [[path, headers, session(client, path, headers)]
            for path, headers in [("/rooms/${room_a}?since=-1", {}),
                                  ("/rooms/${room_a}?since=abc", {"Authorization": "Bearer nope"}),
                                  ("/rooms/nowhere?since=-1", WRITER)]]


def probe_posting(client):
    first = session(client, "/rooms/${room_a}", WRITER, ["  alpha  ", "beta"])
    other = session(client, "/rooms/${room_b}", WRITER, ["gamma"])
    again = session(client, "/rooms/${room_a}", WRITER, ["delta"])
    replies = [frame for outcome in (first, other, again) if outcome[0] == "accepted"
               for frame in outcome[1][1:]]
    ids = [frame.get("id") if isinstance(frame, dict) else frame for frame in replies]
    rows = [["types", [frame.get("type") if isinstance(frame, dict) else frame
                       for frame in replies]]]
    if len(ids) == 4 and all(isinstance(i, int) for i in ids):
        rows.append(["room ids step by one", ids[1] - ids[0], ids[3] - ids[1]])
        stored = client.get(f"/rooms/${room_a}/messages?since={ids[0] - 1}", headers=READER)
        rows.append(["stored", stored.status_code, stored.json()])
        rows.append(["other room", client.get("/rooms/${room_b}/messages", headers=READER
                                              ).json()[-1:]])
    return rows


def probe_message_limits(client):
    texts = ["", "   ", "${at_limit}", "${over_limit}", "  ${at_limit}  ", "ok"]
    outcome = session(client, "/rooms/${room_a}", WRITER, texts)
    replies = outcome[1][1:] if outcome[0] == "accepted" else outcome
    return [[text, reply.get("type") if isinstance(reply, dict) else reply,
             reply.get("detail") if isinstance(reply, dict) else None]
            for text, reply in zip(texts, replies)] + [["replies", len(replies)]]


def probe_readers_cannot_post(client):
    before = len(client.get("/rooms/${room_a}/messages", headers=READER).json())
    rows = [session(client, "/rooms/${room_a}", READER, ["hello from a reader", "again"]),
            session(client, "/rooms/${room_a}", READER, [""])]
    after = len(client.get("/rooms/${room_a}/messages", headers=READER).json())
    for outcome in rows:
        if outcome[0] == "accepted" and isinstance(outcome[1][0], dict):
            outcome[1][0] = outcome[1][0].get("type")
    return rows + [["stored", after - before]]


def probe_screen_access(client):
    rows = []
    for query, headers in [("", {}), ("?${key_param}=", {}), ("?${key_param}=nope", {}),
                           ("?${key_param}=" + "${screen_key}".upper(), {}),
                           ("", {"${key_param}": "${screen_key}"}),
                           ("?key_param=${screen_key}", {}), ("?${key_param}=${writer_token}", {})]:
        rows.append([query, headers, session(client, "/screens/${room_b}" + query, headers)])
    rows.append(["unknown room", session(client, "/screens/nowhere?${key_param}=${screen_key}")])
    rows.append(["unknown room, no key", session(client, "/screens/nowhere")])
    return rows


def _snapshot(client, room):
    # Compared with the room as GET /messages shows it, so earlier probes' posts do not matter.
    outcome = session(client, f"/screens/{room}?${key_param}=${screen_key}", until_closed=True)
    if outcome[0] != "accepted" or not isinstance(outcome[1][0], dict):
        return outcome
    stored = client.get(f"/rooms/{room}/messages", headers=READER).json()
    snapshot = outcome[1][0]
    return [sorted(snapshot), snapshot.get("room") == room, snapshot.get("count") == len(stored),
            snapshot.get("latest") == (stored[-1] if stored else None), outcome[1][1:]]


def probe_screen_snapshot(client):
    rows = [_snapshot(client, room) for room in ${rooms__repr}]
    _posted_id(client, "${room_c}", "fresh")
    rows.append(_snapshot(client, "${room_c}"))
    fresh = session(client, "/screens/${room_c}?${key_param}=${screen_key}")
    latest = fresh[1][0].get("latest") if fresh[0] == "accepted" and isinstance(
        fresh[1][0], dict) else None
    rows.append(["fresh", latest.get("text") if isinstance(latest, dict) else fresh])
    return rows


def _http(r):
    body = r.json()
    if r.status_code == 422:
        body = [[e["type"], e["loc"]] for e in body["detail"]]
    return [r.status_code, body, r.headers.get("www-authenticate")]


def probe_http_messages(client):
    rows = []
    for path, headers in [("/rooms/${room_c}/messages", {}),
                          ("/rooms/${room_c}/messages", {"Authorization": "Basic x"}),
                          ("/rooms/${room_c}/messages", {"Authorization": "Bearer nope"}),
                          ("/rooms/nowhere/messages", READER), ("/rooms/nowhere/messages", {}),
                          ("/rooms/${room_c}/messages?since=-1", READER),
                          ("/rooms/${room_c}/messages?since=-1", {}),
                          ("/rooms/${room_c}/messages?since=1", {"Authorization":
                                                                "bearer ${reader_token}"})]:
        rows.append([path, bool(headers), _http(client.get(path, headers=headers))])
    return rows
'''

PROMPT = '''\
Build the ${brand} team chat with FastAPI WebSockets, guarded by the installed FastAPI's own
security schemes (recent: FastAPI's `HTTPBearer`, `APIKeyQuery` and the other security classes
now also accept a WebSocket connection, so they can guard WebSocket routes; older FastAPI
required an HTTP request there). If you do not know how this behaves, read the installed source
under `python3 -c "import fastapi, os; print(os.path.dirname(fastapi.__file__))"`
(`security/`, `routing.py`) and Starlette's WebSocket support. "FastAPI's standard" below
means exactly what the installed FastAPI sends.

**Data.** Tokens (`token: {"name", "role"}`): `${users__repr}`. Rooms, in this order:
${rooms_text}. The rooms start with these messages (`[room, user, text]`), numbered 1, 2, ...
per room in this order: `${seed__repr}`. A message is `{"id", "user", "text"}`. Screen keys:
`${screen_keys__repr}`.

**Refusing a WebSocket.** A refused connection is never accepted: the handshake gets an HTTP
response with the status, a JSON body and headers given here (a browser sees a failed
handshake). Checks run in this order, the first failure wins:
1. the `Authorization` header must be `Bearer <token>` (scheme in any case, spaces around the
   token ignored) with a non-empty token; otherwise 401 `{"detail": "Not authenticated"}` with
   `WWW-Authenticate: Bearer` (a missing, empty or other-scheme header alike);
2. the token must be one of the tokens above (exact case); otherwise 403
   `{"detail": "unknown token"}` (no `WWW-Authenticate`);
3. the room must exist (exact name); otherwise 404 `{"detail": "no such room"}`;
4. the query parameter `since` (optional, an integer >= 0, default 0) must be valid; otherwise
   FastAPI's standard handling of invalid WebSocket parameters: the socket is closed before it
   is accepted with code 1008, the reason being FastAPI's list of errors (for `since=-1` one
   error of type `greater_than_equal` at `["query", "since"]`; `abc`, `1.5` and an empty value
   are `int_parsing`).

**`WS /rooms/{room}`.** Once accepted, the server sends `{"type": "welcome", "user": <name>,
"room": <room>, "history": [<the room's messages with id > since, oldest first>]}`. Then every
text frame the client sends is a message:
- from a `reader`: the server closes the socket with code 1008 and reason `read only`, storing
  nothing (whatever the text);
- from a `writer`, the text is trimmed of surrounding whitespace; empty after trimming, the
  server answers `{"type": "error", "detail": "empty message"}`; longer than ${max_len}
  characters after trimming, `{"type": "error", "detail": "message too long"}`; both keep the
  socket open. Otherwise it is stored with the room's next id (ids count per room, from the
  room's highest id + 1) and the server answers `{"type": "posted", "id": <id>}`.

**`WS /screens/{room}?${key_param}=<key>`** (display screens cannot send headers: the key is
the query parameter `${key_param}`). A missing or empty key is 401 `{"detail": "Not
authenticated"}` with `WWW-Authenticate: APIKey`; a key not among the screen keys (exact case)
is 403 `{"detail": "unknown key"}`; then an unknown room is 404 `{"detail": "no such room"}`
(refused as above). Accepted, the server sends `{"room": <room>, "count": <number of messages>,
"latest": <the message with the highest id, or null>}` and closes with code 1000.

**`GET /rooms/{room}/messages?since=`** (HTTP): the same checks 1-3 with the same statuses,
bodies and headers, then `since` as above with FastAPI's standard 422 for an invalid value;
200 with the room's messages with id > since, oldest first. Readers may read.

`result`, in order (writer token `${writer_token}`):
1. `["welcome", <the first frame>]` of `WS /rooms/${room_a}` opened with the writer's token;
2. `["posted", <the answer>]` after sending the text `"  ${hello}  "` on that socket;
3. `["messages", <body of GET /rooms/${room_a}/messages with the writer's token>]`;
4. `["no token", [status, body, WWW-Authenticate value]]` of opening `WS /rooms/${room_a}`
   without any header (the refused handshake's response).
'''


def _derive(p):
    users = p["users"]
    writer = next(t for t, u in users.items() if u["role"] == "writer")
    reader = next(t for t, u in users.items() if u["role"] == "reader")
    rooms = p["rooms"]
    return {"writer_token": writer, "reader_token": reader, "writer_name": users[writer]["name"],
            "room_a": rooms[0], "room_b": rooms[1], "room_c": rooms[-1],
            "rooms_text": ", ".join(f"`{r}`" for r in rooms),
            "screen_key": p["screen_keys"][0], "at_limit": "m" * p["max_len"],
            "over_limit": "m" * (p["max_len"] + 1)}


_HARBOR = {"brand": "Harbor", "users": {"tk-ann-51": {"name": "ann", "role": "writer"},
                                        "tk-bo-77": {"name": "bo", "role": "reader"},
                                        "tk-cy-09": {"name": "cy", "role": "writer"}},
           "rooms": ["lobby", "ops"],
           "seed": [["lobby", "ann", "welcome aboard"], ["ops", "cy", "deploy at 5"],
                    ["lobby", "cy", "coffee is on"], ["ops", "ann", "rollback plan ready"]],
           "hello": "morning all"}
_QUARRY = {"brand": "Quarry", "users": {"q-reader-3": {"name": "Rui", "role": "reader"},
                                        "q-writer-8": {"name": "Mele", "role": "writer"}},
           "rooms": ["general", "night-shift", "alerts"],
           "seed": [["night-shift", "Mele", "handover at 22:00"],
                    ["general", "Mele", "new badge readers"],
                    ["night-shift", "Mele", "gate 3 sticks"],
                    ["night-shift", "Rui", "noted"]],
           "hello": "shift starts"}

FAMILY = Family(
    id="recent/socket_security",
    title="WebSocket routes guarded by FastAPI's security schemes (denied handshakes)",
    category="recent",
    difficulty="hard",
    tier="recent",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original=_HARBOR | {"max_len": 40, "key_param": "key", "screen_keys": ["scr-lobby-1"]},
    space={
        "team": [_HARBOR, _QUARRY],
        "max_len": [40, 24, 60],
        "screens": [{"key_param": "key", "screen_keys": ["scr-lobby-1"]},
                    {"key_param": "screen_key", "screen_keys": ["wall-7", "wall-8"]}],
    },
    derive=_derive,
    instances=12,
    requirements=(
        Requirement("An accepted chat socket first sends the welcome frame with the user's "
                    "name, the room and its history oldest first.",
                    probes=("welcome",),
                    traps=(Edit("history newest first",
                                "    return [message for message in ROOMS[room] if "
                                "message[\"id\"] > since]",
                                "    return [message for message in reversed(ROOMS[room]) if "
                                "message[\"id\"] > since]"),)),
        Requirement("The `Bearer` scheme is accepted in any case, spaces around the token "
                    "ignored.",
                    probes=("scheme_case",),
                    traps=(Edit("case-sensitive Bearer prefix",
                                "    user = USERS.get(credentials.credentials)\n",
                                "    if credentials.scheme != \"Bearer\":\n"
                                "        raise HTTPException(401, \"Not authenticated\", "
                                "headers={\"WWW-Authenticate\": \"Bearer\"})\n"
                                "    user = USERS.get(credentials.credentials)\n"),)),
        Requirement("A missing, empty or non-Bearer `Authorization` refuses the handshake with "
                    "HTTP 401 `Not authenticated` and `WWW-Authenticate: Bearer`.",
                    probes=("missing_credentials",),
                    traps=(Edit("socket closed instead of a 401 handshake response",
                                "def current_user(credentials: Annotated["
                                "HTTPAuthorizationCredentials, Depends(bearer)]) -> dict:\n"
                                "    user = USERS.get(credentials.credentials)\n",
                                "def current_user(credentials: Annotated["
                                "HTTPAuthorizationCredentials | None, Depends(HTTPBearer("
                                "auto_error=False))]) -> dict:\n"
                                "    if credentials is None:\n"
                                "        raise WebSocketException(code=1008, reason=\"Not "
                                "authenticated\")\n"
                                "    user = USERS.get(credentials.credentials)\n"),)),
        Requirement("An unknown token (exact case) refuses the handshake with 403 "
                    "`unknown token`.",
                    probes=("unknown_token",),
                    traps=(Edit("unknown token as 401", 'raise HTTPException(403, "unknown token")',
                                'raise HTTPException(401, "unknown token")'),
                           Edit("tokens matched without case",
                                "    user = USERS.get(credentials.credentials)\n",
                                "    user = {t.lower(): u for t, u in USERS.items()}.get("
                                "credentials.credentials.lower())\n"))),
        Requirement("An unknown room refuses the handshake with 404, after the token checks.",
                    probes=("unknown_room",),
                    traps=(Edit("room checked before the token",
                                "def open_room(room: str, user: Annotated[dict, "
                                "Depends(current_user)]) -> str:",
                                "def open_room(room: str) -> str:"),)),
        Requirement("The welcome history holds only the room's messages with id > `since` "
                    "(default 0).",
                    probes=("history_since",),
                    traps=(Edit("since inclusive", 'if message["id"] > since]',
                                'if message["id"] >= since]'),)),
        Requirement("An invalid `since` closes the socket before accepting it with 1008 and "
                    "FastAPI's errors as the reason.",
                    probes=("invalid_since",),
                    traps=(Edit("negative since accepted",
                                "since: Annotated[int, Query(ge=0)] = 0):\n    await websocket"
                                ".accept()",
                                "since: Annotated[int, Query()] = 0):\n    await websocket"
                                ".accept()"),)),
        Requirement("Token and room failures win over an invalid `since`.",
                    probes=("auth_before_validation",),
                    traps=(Edit("token checked in the handler, after the parameters",
                                "async def chat(websocket: WebSocket, room: Annotated[str, "
                                "Depends(open_room)],\n"
                                "               user: Annotated[dict, Depends(current_user)],\n"
                                "               since: Annotated[int, Query(ge=0)] = 0):\n"
                                "    await websocket.accept()\n",
                                "async def chat(websocket: WebSocket, room: str,\n"
                                "               since: Annotated[int, Query(ge=0)] = 0):\n"
                                "    user = current_user(await bearer(websocket))\n"
                                "    room = open_room(room, user)\n"
                                "    await websocket.accept()\n"),)),
        Requirement("A writer's message is trimmed, stored with the room's next id and answered "
                    "`posted`; ids count per room.",
                    probes=("posting",),
                    traps=(Edit("one id counter for all rooms",
                                '    message = {"id": len(ROOMS[room]) + 1,',
                                '    message = {"id": sum(map(len, ROOMS.values())) + 1,'),
                           Edit("message not trimmed",
                                "            text = (await websocket.receive_text()).strip()",
                                "            text = await websocket.receive_text()"))),
        Requirement("Empty and over-${max_len}-character messages get an error frame and the "
                    "socket stays open.",
                    probes=("message_limits",),
                    traps=(Edit("limit off by one", "if len(text) > MAX_LENGTH:",
                                "if len(text) >= MAX_LENGTH:"),)),
        Requirement("A reader's message closes the socket with 1008 `read only` and stores "
                    "nothing.",
                    probes=("readers_cannot_post",),
                    traps=(Edit("readers may post", 'if user["role"] != "writer":',
                                'if user["role"] not in ("writer", "reader"):'),)),
        Requirement("Screens take the key from the `${key_param}` query parameter: missing or "
                    "empty is 401 with `WWW-Authenticate: APIKey`, unknown 403, then an unknown "
                    "room 404.",
                    probes=("screen_access",),
                    traps=(Edit("key as a plain optional query parameter",
                                "key: Annotated[str, Depends(screen_key)], room: str):",
                                "room: str, key: Annotated[str | None, "
                                "Query(alias=\"${key_param}\")] = None):"),)),
        Requirement("An accepted screen gets the room's count and latest message, then a 1000 "
                    "close.",
                    probes=("screen_snapshot",),
                    traps=(Edit("latest is the oldest", '"latest": ROOMS[room][-1] if',
                                '"latest": ROOMS[room][0] if'),)),
        Requirement("`GET /rooms/{room}/messages` applies the same token and room checks, then "
                    "FastAPI's 422 for `since`.",
                    probes=("http_messages",),
                    traps=(Edit("HTTP route without the token",
                                "def messages(room: Annotated[str, Depends(open_room)],",
                                "def messages(room: str,"),)),
    ),
)
