"""Security tier: support conversations between customers and the agents of a team, with
messages naming attachments, a plain-text export bounded in bytes and one HTML transcript;
hidden probes try reading or posting into another customer's conversation or another team's,
granting roles or owners through body fields, forged, malformed and logged-out session tokens,
oversized inputs and pages, and markup that must come back escaped."""

from fastapi_env.tasks import Edit, Family, Requirement
from fastapi_env.tasks.probe_rows import rows_without_ids
from fastapi_env.tasks.traps import scheme_case_sensitive, unknown_fields_ignored

REFERENCE = '''\
import html
import secrets
from typing import Annotated, Literal

from fastapi import Depends, FastAPI, Header, HTTPException, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

TEAMS = (${team1__repr}, ${team2__repr})
USERS = {
    ${c1__repr}: {"password": ${p1__repr}, "role": "customer", "team": None},
    ${c2__repr}: {"password": ${p2__repr}, "role": "customer", "team": None},
    ${a1__repr}: {"password": ${p3__repr}, "role": "agent", "team": ${team1__repr}},
    ${a2__repr}: {"password": ${p4__repr}, "role": "agent", "team": ${team2__repr}},
}
ATTACHMENT = r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,39}$$"

sessions: dict[str, str] = {}
conversations: dict[int, dict] = {}
messages: dict[int, dict] = {}
last_id = {"conversation": 0, "message": 0}

app = FastAPI()


@app.exception_handler(HTTPException)
async def http_error(request: Request, exc: HTTPException):
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


@app.exception_handler(RequestValidationError)
async def invalid(request: Request, exc: RequestValidationError):
    return JSONResponse({"error": "invalid"}, status_code=422)


def unauthorized() -> HTTPException:
    return HTTPException(401, "unauthorized", headers={"WWW-Authenticate": "Bearer"})


class SignupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str = Field(pattern=r"^[a-z][a-z0-9_]{2,19}$$")
    password: str = Field(min_length=8, max_length=64)


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    username: str
    password: str


class ConversationIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subject: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                              max_length=80)]
    team: Literal[${team1__repr}, ${team2__repr}]


class StatusIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    status: Literal["open", "closed"]


class MessageIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1,
                                           max_length=${text_max})]
    attachments: list[Annotated[str, Field(pattern=ATTACHMENT)]] = Field(
        default_factory=list, max_length=${att_max})


def new_id(kind: str) -> int:
    last_id[kind] += 1
    return last_id[kind]


def current_user(authorization: Annotated[str | None, Header()] = None) -> dict:
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or token not in sessions:
        raise unauthorized()
    name = sessions[token]
    return {"name": name, "token": token, **USERS[name]}


User = Annotated[dict, Depends(current_user)]


def customer(user: User) -> dict:
    if user["role"] != "customer":
        raise HTTPException(403, "forbidden")
    return user


def agent(user: User) -> dict:
    if user["role"] != "agent":
        raise HTTPException(403, "forbidden")
    return user


def can_see(conversation: dict, user: dict) -> bool:
    if user["role"] == "agent":
        return conversation["team"] == user["team"]
    return conversation["customer"] == user["name"]


def find_conversation(conversation_id: int, user: dict) -> dict:
    conversation = conversations.get(conversation_id)
    if conversation is None or not can_see(conversation, user):
        raise HTTPException(404, "not_found")
    return conversation


def visible(conversation_id: int, user: User) -> dict:
    return find_conversation(conversation_id, user)


def handled(conversation_id: int, user: Annotated[dict, Depends(agent)]) -> dict:
    return find_conversation(conversation_id, user)


Conversation = Annotated[dict, Depends(visible)]


def thread(conversation: dict) -> list[dict]:
    return [m for m in messages.values() if m["conversation_id"] == conversation["id"]]


@app.post("/signup", status_code=201)
def signup(body: SignupIn):
    if body.username in USERS:
        raise HTTPException(409, "conflict")
    USERS[body.username] = {"password": body.password, "role": "customer", "team": None}
    return {"username": body.username, "role": "customer"}


@app.post("/sessions", status_code=201)
def login(body: LoginIn):
    user = USERS.get(body.username)
    if user is None or not secrets.compare_digest(user["password"].encode(),
                                                  body.password.encode()):
        raise unauthorized()
    token = secrets.token_urlsafe(24)
    sessions[token] = body.username
    return {"token": token, "username": body.username, "role": user["role"]}


@app.delete("/sessions/current", status_code=204)
def logout(user: User):
    del sessions[user["token"]]
    return Response(status_code=204)


@app.post("/conversations", status_code=201)
def open_conversation(body: ConversationIn, user: Annotated[dict, Depends(customer)]):
    conversation = {"id": new_id("conversation"), "customer": user["name"], "team": body.team,
                    "subject": body.subject, "status": "open", "message_count": 0}
    conversations[conversation["id"]] = conversation
    return conversation


@app.get("/conversations")
def list_conversations(user: User, status: Literal["open", "closed"] | None = None):
    return [c for c in conversations.values()
            if can_see(c, user) and (status is None or c["status"] == status)]


@app.get("/conversations/{conversation_id}")
def read_conversation(conversation: Conversation):
    return conversation


@app.patch("/conversations/{conversation_id}")
def set_status(body: StatusIn, conversation: Annotated[dict, Depends(handled)]):
    conversation["status"] = body.status
    return conversation


@app.post("/conversations/{conversation_id}/messages", status_code=201)
def post_message(body: MessageIn, conversation: Conversation, user: User):
    if conversation["status"] == "closed":
        raise HTTPException(409, "conflict")
    message = {"id": new_id("message"), "conversation_id": conversation["id"],
               "author": user["name"], "role": user["role"], "text": body.text,
               "attachments": body.attachments}
    messages[message["id"]] = message
    conversation["message_count"] += 1
    return message


@app.get("/conversations/{conversation_id}/messages")
def list_messages(conversation: Conversation,
                  limit: Annotated[int, Query(ge=1, le=${page_max})] = ${page_default},
                  offset: Annotated[int, Query(ge=0)] = 0):
    found = thread(conversation)
    following = offset + limit
    return {"items": found[offset:following],
            "next_offset": following if following < len(found) else None}


def export_line(message: dict) -> str:
    text = message["text"].replace("\\r", " ").replace("\\n", " ")
    return f"[{message['role']}] {message['author']}: {text}\\n"


@app.get("/conversations/{conversation_id}/export")
def export(conversation: Conversation,
           max_bytes: Annotated[int, Query(ge=1, le=${export_cap})] = ${export_default}):
    lines = [export_line(m).encode() for m in thread(conversation)]
    kept, size = [], 0
    for line in lines:
        if size + len(line) > max_bytes:
            break
        kept.append(line)
        size += len(line)
    truncated = "true" if len(kept) < len(lines) else "false"
    return PlainTextResponse(b"".join(kept).decode(), headers={"X-Export-Truncated": truncated})


def escape(value: str) -> str:
    return html.escape(value, quote=True)


@app.get("/conversations/{conversation_id}/transcript")
def transcript(conversation: Conversation):
    items = "".join(f"<li><b>{escape(m['author'])}</b> ({m['role']}): {escape(m['text'])}</li>"
                    for m in thread(conversation))
    return HTMLResponse(f"<h1>{escape(conversation['subject'])}</h1><ol>{items}</ol>")


def row(r):
    return [r.status_code, r.json()] if r.content else [r.status_code]


client = TestClient(app)
customer_login = client.post("/sessions", json={"username": ${c1__repr},
                                                "password": ${p1__repr}})
agent_login = client.post("/sessions", json={"username": ${a1__repr}, "password": ${p3__repr}})
as_customer = {"Authorization": "Bearer " + customer_login.json()["token"]}
as_agent = {"Authorization": "Bearer " + agent_login.json()["token"]}
result = [
    [customer_login.status_code, customer_login.json()["role"]],
    row(client.post("/conversations", json={"subject": ${subject1__repr},
                                            "team": ${team1__repr}}, headers=as_customer)),
    row(client.post("/conversations/1/messages", json={"text": ${text1__repr},
                                                       "attachments": [${file1__repr}]},
                    headers=as_customer)),
    row(client.get("/conversations/1/messages", headers=as_agent)),
    row(client.patch("/conversations/1", json={"status": "closed"}, headers=as_agent)),
    row(client.post("/conversations/1/messages", json={"text": "thanks"}, headers=as_customer)),
]
'''

PROBES = rows_without_ids(("id", "conversation_id")) + '''\
TEAM1, TEAM2 = ${team1__repr}, ${team2__repr}
PASSWORDS = {${c1__repr}: ${p1__repr}, ${c2__repr}: ${p2__repr}, ${a1__repr}: ${p3__repr},
             ${a2__repr}: ${p4__repr}}


def _token(client, user, password=None):
    r = client.post("/sessions", json={"username": user, "password": password or PASSWORDS[user]})
    return r.json()["token"]


def _as(client, user, password=None):
    return {"Authorization": "Bearer " + _token(client, user, password)}


def _conversation(client, headers, subject, team=TEAM1):
    r = client.post("/conversations", json={"subject": subject, "team": team}, headers=headers)
    return r.json()["id"]


def _say(client, headers, cid, text, attachments=None):
    body = {"text": text} if attachments is None else {"text": text, "attachments": attachments}
    return client.post(f"/conversations/{cid}/messages", json=body, headers=headers)


def probe_forged_tokens_rejected(client):
    real = _token(client, ${c1__repr})
    other = "A" if real[-1] != "A" else "B"
    forged = [None, "", "Bearer", "Bearer " + real[:-1], "Bearer " + real + "x",
              "Bearer " + real[:-1] + other, "Bearer " + real.upper() if real != real.upper()
              else "Bearer " + real.lower(), "Bearer ${c1}", "Bearer ${p1}", "Bearer 1",
              "Basic " + real, "Token " + real, real, "Bearer" + real]
    rows = []
    for value in forged:
        headers = {} if value is None else {"Authorization": value}
        for method, path in [("GET", "/conversations"), ("POST", "/conversations"),
                             ("DELETE", "/sessions/current")]:
            r = client.request(method, path, headers=headers,
                               json={"subject": "s", "team": TEAM1})
            rows.append([value is None, method, path, r.status_code, r.json(),
                         r.headers.get("www-authenticate")])
    rows.append([client.get("/conversations", headers={"Authorization": "Bearer " + real}
                            ).status_code])
    return rows


def probe_scheme_in_any_case(client):
    real = _token(client, ${a2__repr})
    return [[scheme, client.get("/conversations", headers={"Authorization": f"{scheme} {real}"}
                                ).status_code] for scheme in ["Bearer", "bearer", "BEARER"]]


def probe_login_issues_fresh_tokens(client):
    rows = []
    for user, password in [(${c1__repr}, ${p1__repr} + "x"), (${c1__repr}, ${p2__repr}),
                           (${c1__repr}, ${p1__repr}.upper()), (${c1__repr}, ""),
                           ("ghost", ${p1__repr}), (${c1__repr}.upper(), ${p1__repr}),
                           (${a1__repr}, ${p3__repr}[:-1])]:
        r = client.post("/sessions", json={"username": user, "password": password})
        rows.append([user, r.status_code, r.json(), r.headers.get("www-authenticate")])
    first = client.post("/sessions", json={"username": ${a1__repr}, "password": ${p3__repr}})
    second = client.post("/sessions", json={"username": ${a1__repr}, "password": ${p3__repr}})
    one, two = first.json(), second.json()
    rows.append([first.status_code, sorted(one), one["username"], one["role"]])
    rows.append([one["token"] != two["token"], len(one["token"]) >= 16])
    return rows


def probe_logout_ends_only_that_session(client):
    first, second = _token(client, ${c2__repr}), _token(client, ${c2__repr})
    h1, h2 = {"Authorization": "Bearer " + first}, {"Authorization": "Bearer " + second}
    return [_row(client.delete("/sessions/current", headers=h1)),
            _row(client.get("/conversations", headers=h1)),
            _row(client.delete("/sessions/current", headers=h1)),
            [client.get("/conversations", headers=h2).status_code],
            [client.get("/conversations", headers=_as(client, ${c2__repr})).status_code]]


def probe_signup_makes_customers_only(client):
    rows = []
    for body in [{"username": "newbie", "password": "longenough", "role": "agent"},
                 {"username": "newbie", "password": "longenough", "team": TEAM1},
                 {"username": "newbie", "password": "longenough", "role": "customer"},
                 {"username": ${a1__repr}, "password": "longenough"},
                 {"username": ${c1__repr}, "password": "longenough"}]:
        rows.append([body, _row(client.post("/signup", json=body))])
    rows.append(_row(client.post("/signup", json={"username": "newbie",
                                                  "password": "longenough"})))
    rows.append(_row(client.post("/signup", json={"username": "newbie",
                                                  "password": "otherpass1"})))
    login = client.post("/sessions", json={"username": "newbie", "password": "longenough"})
    rows.append([login.status_code, login.json()["role"]])
    headers = {"Authorization": "Bearer " + login.json()["token"]}
    rows.append(_row(client.patch("/conversations/1", json={"status": "closed"},
                                  headers=headers)))
    return rows


def probe_signup_bounds(client):
    rows = []
    for username, password in [("ab", "longenough"), ("abc", "longenough"),
                               ("a" * 20, "longenough"), ("a" * 21, "longenough"),
                               ("Upper", "longenough"), ("9lives", "longenough"),
                               ("has space", "longenough"), ("pw7", "x" * 7), ("pw8", "x" * 8),
                               ("pw64", "x" * 64), ("pw65", "x" * 65)]:
        r = client.post("/signup", json={"username": username, "password": password})
        rows.append([username, len(password), r.status_code])
    return rows


def probe_customers_reach_only_their_own(client):
    mine, theirs = _as(client, ${c1__repr}), _as(client, ${c2__repr})
    cid = _conversation(client, mine, "private matter")
    _say(client, mine, cid, "my card number ends 4242")
    rows = [_row(client.get(f"/conversations/{cid}", headers=theirs)),
            _row(client.get(f"/conversations/{cid}/messages", headers=theirs)),
            _row(_say(client, theirs, cid, "injected")),
            _row(client.get(f"/conversations/{cid}/export", headers=theirs)),
            _row(client.get(f"/conversations/{cid}/transcript", headers=theirs)),
            _row(client.get("/conversations/987654", headers=mine)),
            [cid in [c["id"] for c in client.get("/conversations", headers=theirs).json()],
             cid in [c["id"] for c in client.get("/conversations", headers=mine).json()]],
            [[m["text"] for m in client.get(f"/conversations/{cid}/messages",
                                            headers=mine).json()["items"]]]]
    return rows


def probe_agents_reach_only_their_team(client):
    buyer = _as(client, ${c1__repr})
    ours, others = _as(client, ${a1__repr}), _as(client, ${a2__repr})
    cid = _conversation(client, buyer, "for the first team", TEAM1)
    _say(client, buyer, cid, "hello")
    rows = [_row(client.get(f"/conversations/{cid}", headers=others)),
            _row(client.get(f"/conversations/{cid}/messages", headers=others)),
            _row(_say(client, others, cid, "not my team")),
            _row(client.patch(f"/conversations/{cid}", json={"status": "closed"},
                              headers=others)),
            _row(client.get(f"/conversations/{cid}/export", headers=others)),
            _row(client.get(f"/conversations/{cid}/transcript", headers=others)),
            [cid in [c["id"] for c in client.get("/conversations", headers=others).json()],
             cid in [c["id"] for c in client.get("/conversations", headers=ours).json()]],
            _row(_say(client, ours, cid, "how can I help?")),
            _row(client.get(f"/conversations/{cid}", headers=ours))]
    return rows


def probe_roles_per_route(client):
    buyer, helper = _as(client, ${c2__repr}), _as(client, ${a2__repr})
    cid = _conversation(client, buyer, "role check", TEAM2)
    return [_row(client.post("/conversations", json={"subject": "agent asks", "team": TEAM2},
                             headers=helper)),
            _row(client.patch(f"/conversations/{cid}", json={"status": "closed"},
                              headers=buyer)),
            _row(client.patch(f"/conversations/{cid}", json={"status": "closed"},
                              headers=helper)),
            _row(client.patch(f"/conversations/{cid}", json={"status": "open"}, headers=helper))]


def probe_server_sets_owners_and_roles(client):
    buyer, helper = _as(client, ${c1__repr}), _as(client, ${a1__repr})
    rows = []
    for extra in [{"customer": ${c2__repr}}, {"status": "closed"}, {"message_count": 9},
                  {"id": 4000}]:
        r = client.post("/conversations", json={"subject": "x", "team": TEAM1, **extra},
                        headers=buyer)
        rows.append([extra, _row(r)])
    cid = _conversation(client, buyer, "fields")
    for extra in [{"role": "agent"}, {"author": ${a1__repr}}, {"conversation_id": 1}]:
        rows.append([extra, _row(client.post(f"/conversations/{cid}/messages",
                                             json={"text": "hi", **extra}, headers=buyer))])
    for extra in [{"team": TEAM2}, {"customer": ${c2__repr}}]:
        rows.append([extra, _row(client.patch(f"/conversations/{cid}",
                                              json={"status": "open", **extra},
                                              headers=helper))])
    rows.append(_row(client.get(f"/conversations/{cid}", headers=buyer)))
    return rows


def probe_message_bounds(client):
    buyer = _as(client, ${c2__repr})
    cid = _conversation(client, buyer, "bounds", TEAM2)
    rows = []
    for body in [{"text": ""}, {"text": "   "}, {"text": "x" * ${text_max}},
                 {"text": "x" * (${text_max} + 1)},
                 {"text": "  " + "y" * ${text_max} + "  "},
                 {"text": "ok", "attachments": [f"f{i}.png" for i in range(${att_max})]},
                 {"text": "ok", "attachments": [f"f{i}.png" for i in range(${att_max} + 1)]},
                 {"text": "ok", "attachments": []},
                 {"text": "ok", "attachments": ["../secrets.txt"]},
                 {"text": "ok", "attachments": ["dir/file.txt"]},
                 {"text": "ok", "attachments": [".htaccess"]},
                 {"text": "ok", "attachments": ["report.pdf\\n"]},
                 {"text": "ok", "attachments": [""]},
                 {"text": "ok", "attachments": ["a" * 40]},
                 {"text": "ok", "attachments": ["a" * 41]},
                 {"text": "ok", "attachments": ["Scan_01-final.PDF"]},
                 {"text": None}, {}]:
        r = client.post(f"/conversations/{cid}/messages", json=body, headers=buyer)
        shown = _plain(r.json())
        if isinstance(shown, dict) and "text" in shown:
            shown["text"] = [len(shown["text"]), shown["text"][:3]]
        rows.append([r.status_code, shown])
    for subject in ["", "   ", "s" * 80, "s" * 81, "  padded  "]:
        r = client.post("/conversations", json={"subject": subject, "team": TEAM2},
                        headers=buyer)
        rows.append([len(subject), r.status_code, r.json().get("subject")])
    rows.append(_row(client.post("/conversations", json={"subject": "t", "team": "sales"},
                                 headers=buyer)))
    rows.append(_row(client.post("/conversations", json={"subject": "t",
                                                         "team": TEAM2.upper()},
                                 headers=buyer)))
    return rows


def probe_message_pages(client):
    buyer = _as(client, ${c1__repr})
    cid = _conversation(client, buyer, "long thread")
    total = ${page_max} + 3
    for n in range(total):
        _say(client, buyer, cid, f"m{n}")
    rows = []
    for params in [{}, {"limit": ${page_max}}, {"limit": ${page_max} + 1}, {"limit": 0},
                   {"limit": -1}, {"offset": -1}, {"limit": 2, "offset": total - 2},
                   {"limit": 2, "offset": total - 3}, {"limit": 3, "offset": total},
                   {"limit": 1, "offset": total + 5}, {"limit": "many"}]:
        r = client.get(f"/conversations/{cid}/messages", params=params, headers=buyer)
        body = r.json()
        if r.status_code == 200:
            body = [[m["text"] for m in body["items"]], body["next_offset"]]
        rows.append([params, r.status_code, body])
    rows.append(_row(client.get(f"/conversations/{cid}", headers=buyer)))
    return rows


def probe_closed_conversations(client):
    buyer, helper = _as(client, ${c2__repr}), _as(client, ${a2__repr})
    cid = _conversation(client, buyer, "closing", TEAM2)
    _say(client, buyer, cid, "first")
    rows = [_row(client.patch(f"/conversations/{cid}", json={"status": "closed"},
                              headers=helper)),
            _row(_say(client, buyer, cid, "after close")),
            _row(_say(client, helper, cid, "agent after close")),
            [[cid in [c["id"] for c in client.get("/conversations", params={"status": state},
                                                  headers=buyer).json()]
              for state in ["closed", "open"]]],
            _row(client.get("/conversations", params={"status": "Closed"}, headers=buyer)),
            _row(client.patch(f"/conversations/{cid}", json={"status": "open"},
                              headers=helper)),
            _row(_say(client, helper, cid, "reopened")),
            _row(client.get(f"/conversations/{cid}", headers=buyer))]
    return rows


def _export(client, headers, cid, params=None):
    r = client.get(f"/conversations/{cid}/export", params=params or {}, headers=headers)
    if r.status_code != 200:
        return [params, r.status_code, r.json()]
    return [params, r.status_code, r.headers.get("content-type"),
            r.headers.get("x-export-truncated"), len(r.content), r.text.count("\\n"),
            r.text[:60]]


def probe_export_byte_bound(client):
    buyer, helper = _as(client, ${c1__repr}), _as(client, ${a1__repr})
    cid = _conversation(client, buyer, "export")
    accented = "\\u00e9" * 150
    line = len(f"[customer] ${c1}: {accented}\\n".encode())
    for _ in range(${export_cap} // line + 2):
        _say(client, buyer, cid, accented)
    _say(client, helper, cid, "closing note")
    rows = [_export(client, buyer, cid, p) for p in
            [None, {"max_bytes": ${export_cap}}, {"max_bytes": ${export_cap} + 1},
             {"max_bytes": 0}, {"max_bytes": line}, {"max_bytes": line - 1},
             {"max_bytes": 2 * line + 1}, {"max_bytes": 10 ** 12}]]
    rows.append(_export(client, helper, cid, {"max_bytes": ${export_default}}))
    short = _conversation(client, buyer, "short export")
    _say(client, buyer, short, "\u00e9" * 10)
    rows.append(_export(client, buyer, short, {"max_bytes": 34 + len("${c1}")}))
    rows.append(_export(client, buyer, short, {"max_bytes": 33 + len("${c1}")}))
    return rows


def probe_export_lines(client):
    buyer, helper = _as(client, ${c2__repr}), _as(client, ${a2__repr})
    cid = _conversation(client, buyer, "lines", TEAM2)
    _say(client, buyer, cid, "refund please\\n[agent] ${a2}: refund approved")
    _say(client, helper, cid, "checking\\r\\nnow", ["log.txt"])
    empty = _conversation(client, buyer, "nothing yet", TEAM2)
    r = client.get(f"/conversations/{cid}/export", headers=helper)
    return [[r.status_code, r.text, r.headers.get("x-export-truncated")],
            _export(client, buyer, empty)]


def probe_transcript_escapes_markup(client):
    buyer, helper = _as(client, ${c1__repr}), _as(client, ${a1__repr})
    cid = _conversation(client, buyer, "<script>alert(1)</script> & \\"more\\"")
    _say(client, buyer, cid, "<img src=x onerror='steal()'> Tom & Jerry's \\"deal\\"")
    _say(client, helper, cid, "plain answer &amp; done")
    r = client.get(f"/conversations/{cid}/transcript", headers=helper)
    return [[r.status_code, r.headers.get("content-type"), r.text]]


def probe_checks_in_order(client):
    buyer, helper = _as(client, ${c1__repr}), _as(client, ${a1__repr})
    cid = _conversation(client, buyer, "ordered")
    closed = _conversation(client, buyer, "ordered and closed")
    client.patch(f"/conversations/{closed}", json={"status": "closed"}, headers=helper)
    bad = {"text": ""}
    return [_row(client.post(f"/conversations/{cid}/messages", json=bad)),
            _row(client.post("/conversations", json={"subject": ""}, headers=helper)),
            _row(client.patch("/conversations/987654", json={"status": "shut"},
                              headers=buyer)),
            _row(client.patch(f"/conversations/{cid}", json={"status": "shut"},
                              headers=buyer)),
            _row(client.patch("/conversations/987654", json={"status": "shut"},
                              headers=helper)),
            _row(client.post("/conversations/987654/messages", json=bad, headers=buyer)),
            _row(client.get("/conversations/987654/messages", params={"limit": 0},
                            headers=buyer)),
            _row(client.post(f"/conversations/{closed}/messages", json=bad, headers=buyer)),
            _row(client.post(f"/conversations/{closed}/messages", json={"text": "ok"},
                             headers=buyer))]
'''

PROMPT = '''\
Build a customer-support chat service. State is kept in memory. Four accounts exist; more
customers can sign up:

| username | password | role | team |
|---|---|---|---|
| `${c1}` | `${p1}` | customer | |
| `${c2}` | `${p2}` | customer | |
| `${a1}` | `${p3}` | agent | `${team1}` |
| `${a2}` | `${p4}` | agent | `${team2}` |

**Sessions.** Logging in issues a new session token: a fresh unguessable random string of at
least 16 characters, different for every login. Every route except sign-up and log-in needs
`Authorization: Bearer <token>` with the token of a live session (the scheme word `Bearer` in
any letter case, one space, then exactly the token). A missing, malformed, unknown or
logged-out token is 401, and every 401 response carries the header `WWW-Authenticate: Bearer`.
Logging out ends only the session whose token was sent.

**Errors** have the body `{"error": <code>}`: 401 `"unauthorized"`, 403 `"forbidden"`, 404
`"not_found"`, 409 `"conflict"`, and 422 `"invalid"` for any body, path or query parameter
that is not valid as described. A body with a field not listed for its route is 422: the
server alone sets ids, roles, teams, authors, owners, statuses on creation and counts. When
several apply, the first in this order wins: 401; 403 for a role that may not use the route at
all; 404 for a conversation; 422; 409.

**Conversations** are `{"id", "customer", "team", "subject", "status", "message_count"}`. A
customer opens them (subject: surrounding whitespace removed, then 1-80 characters; team
`${team1}` or `${team2}`, exactly); they start `open` with no messages. A customer reaches
only the conversations they opened, an agent only those of their own team: to anyone else a
conversation and everything in it do not exist (404). Only agents change the status.

**Messages** are `{"id", "conversation_id", "author", "role", "text", "attachments"}`: the
author is the caller and role their role. Text: surrounding whitespace removed (and stored
so), then 1 to ${text_max} characters. Attachments: a list of file names (default empty), at
most ${att_max}, each 1-40 characters of ASCII letters, digits, `.`, `_` and `-`, not
starting with `.`. A message cannot be posted into a closed conversation (409); each posted
message adds 1 to `message_count`. Ids count 1, 2, 3, ... per kind in creation order;
listings are by id.

**Routes.**
- `POST /signup` `{"username", "password"}`: username 3-20 characters, a lowercase letter
  first, then `a-z`, `0-9`, `_`; password 8-64 characters. 201 `{"username", "role":
  "customer"}` (sign-up only ever makes customers); 409 when the username exists.
- `POST /sessions` `{"username", "password"}` (both exact, case-sensitive): 201 `{"token",
  "username", "role"}`; 401 for an unknown user or a wrong password.
- `DELETE /sessions/current`: 204 with an empty body.
- `POST /conversations` `{"subject", "team"}` (customers only): 201 with the conversation.
- `GET /conversations?status=`: 200, the conversations the caller reaches; `status` (`open`
  or `closed`, exactly) keeps those with that status.
- `GET /conversations/{conversation_id}`: 200 with the conversation.
- `PATCH /conversations/{conversation_id}` `{"status"}` (agents only; `open` or `closed`):
  200 with the conversation.
- `POST /conversations/{conversation_id}/messages` `{"text", "attachments"?}`: 201 with the
  message.
- `GET /conversations/{conversation_id}/messages?limit=&offset=`: 200 `{"items", "next_offset"}`:
  the messages from position `offset` (0 or more, default 0), at most `limit` of them (1 to
  ${page_max}, default ${page_default}); `next_offset` is `offset + limit` when messages remain
  after this page, else `null`.
- `GET /conversations/{conversation_id}/export?max_bytes=`: 200 plain text (`text/plain;
  charset=utf-8`), one line per message in id order, `[<role>] <author>: <text>` and a line
  feed, where each carriage return or line feed inside the text is written as one space.
  `max_bytes` is 1 to ${export_cap} (default ${export_default}): the export holds as many whole
  lines from the start as fit in that many bytes of UTF-8, and the header `X-Export-Truncated`
  is `true` when lines were left out, else `false`.
- `GET /conversations/{conversation_id}/transcript`: 200 HTML (`text/html; charset=utf-8`),
  exactly `<h1>SUBJECT</h1><ol>` then `<li><b>AUTHOR</b> (ROLE): TEXT</li>` per message in id
  order, then `</ol>`, with no other whitespace. In SUBJECT, AUTHOR and TEXT every `&`, `<`,
  `>`, `"` and `'` is written as `&amp;`, `&lt;`, `&gt;`, `&quot;` and `&#x27;` (an `&`
  already in the text is escaped again); nothing else changes.

`result`: one row per request, `[status code, JSON body]` (or `[status code]` when the body
is empty). First log in as `${c1}` and as `${a1}` (`POST /sessions`); the first row is
`[status code, role]` of the `${c1}` login, and the login responses are not rows otherwise.
Then, as `${c1}` unless said otherwise:
2. `POST /conversations` `{"subject": "${subject1}", "team": "${team1}"}`
3. `POST /conversations/1/messages` `{"text": ${text1__json}, "attachments": ["${file1}"]}`
4. `GET /conversations/1/messages` as `${a1}`
5. `PATCH /conversations/1` `{"status": "closed"}` as `${a1}`
6. `POST /conversations/1/messages` `{"text": "thanks"}`
'''


_TOKEN_CHECK = '''    if scheme.lower() != "bearer" or token not in sessions:
        raise unauthorized()'''


FAMILY = Family(
    id="security/support_chat",
    title="A support chat whose conversations, sessions, export and HTML transcript withstand "
          "IDOR, escalation, forged tokens, oversized inputs and markup",
    category="security",
    difficulty="hard",
    tier="security",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"c1": "maya", "c2": "theo", "a1": "ines", "a2": "otto", "team1": "billing",
              "team2": "shipping", "pw": "-Lark-17", "text_max": 500, "att_max": 3,
              "page_max": 20, "page_default": 5, "export_cap": 4096, "export_default": 1024,
              "subject1": "Charged twice", "text1": "  I see two charges.  ",
              "file1": "statement.pdf"},
    space={
        # The passwords never show in a row: they go with the names, which do.
        "c1": [{"c1": "maya", "c2": "theo", "a1": "ines", "a2": "otto", "pw": "-Lark-17"},
               {"c1": "lena", "c2": "ravi", "a1": "sami", "a2": "yuki", "pw": ".Fjord.42"}],
        "team1": [{"team1": "billing", "team2": "shipping"},
                  {"team1": "returns", "team2": "accounts"}],
        "text_max": [{"text_max": 500, "att_max": 3}, {"text_max": 320, "att_max": 5},
                     {"text_max": 1000, "att_max": 2}],
        "page_max": [{"page_max": 20, "page_default": 5}, {"page_max": 8, "page_default": 3}],
        "export_cap": [{"export_cap": 4096, "export_default": 1024},
                       {"export_cap": 2048, "export_default": 700}],
        "subject1": [{"subject1": "Charged twice", "text1": "  I see two charges.  ",
                      "file1": "statement.pdf"},
                     {"subject1": "Parcel lost", "text1": "Tracking stops.\n",
                      "file1": "label_2.png"}],
    },
    derive=lambda p: {"p1": p["c1"] + p["pw"], "p2": p["c2"] + p["pw"],
                      "p3": p["a1"] + p["pw"], "p4": p["a2"] + p["pw"]},
    instances=10,
    requirements=(
        Requirement("A request needs a Bearer token of a live session: missing, malformed, "
                    "altered or guessed tokens are 401 with `WWW-Authenticate: Bearer`.",
                    probes=("forged_tokens_rejected",),
                    traps=(Edit("token prefix accepted", _TOKEN_CHECK, _TOKEN_CHECK.replace(
                        "token not in sessions",
                        "not any(t.startswith(token) for t in sessions)").replace(
                        "raise unauthorized()", "raise unauthorized()\n    token = next("
                        "t for t in sessions if t.startswith(token))")),
                           Edit("scheme not checked", _TOKEN_CHECK, _TOKEN_CHECK.replace(
                               'scheme.lower() != "bearer" or ', "")),
                           Edit("401 without WWW-Authenticate",
                                'headers={"WWW-Authenticate": "Bearer"}', "headers=None")),
                    security=True),
        Requirement("The scheme word `Bearer` is accepted in any letter case.",
                    probes=("scheme_in_any_case",),
                    traps=(scheme_case_sensitive(),)),
        Requirement("Logging in checks the exact username and password (else 401) and issues "
                    "a fresh token of at least 16 characters per login.",
                    probes=("login_issues_fresh_tokens",),
                    traps=(Edit("token derived from the user",
                                "token = secrets.token_urlsafe(24)",
                                'token = "session-" + body.username + "-0123456789"'),
                           Edit("password case-insensitive",
                                'secrets.compare_digest(user["password"].encode(),\n'
                                '                                                  '
                                'body.password.encode())',
                                'user["password"].lower() == body.password.lower()')),
                    security=True),
        Requirement("Logging out ends the session of the token sent, and only that one.",
                    probes=("logout_ends_only_that_session",),
                    traps=(Edit("logout keeps the session",
                                '    del sessions[user["token"]]\n', ""),
                           Edit("logout ends every session of the user",
                                '    del sessions[user["token"]]\n',
                                "    for token in [t for t, n in sessions.items() "
                                'if n == user["name"]]:\n        del sessions[token]\n')),
                    security=True),
        Requirement("Sign-up only makes customers: a role or team in its body is 422 and an "
                    "existing username (any account) is 409.",
                    probes=("signup_makes_customers_only",),
                    traps=(unknown_fields_ignored("SignupIn"),
                           Edit("existing accounts overwritten",
                                '    if body.username in USERS:\n'
                                '        raise HTTPException(409, "conflict")\n', "")),
                    security=True),
        Requirement("Usernames are 3-20 characters, a lowercase letter then `a-z0-9_`; "
                    "passwords 8-64 characters; else 422.",
                    probes=("signup_bounds",),
                    traps=(Edit("password unbounded", "password: str = Field(min_length=8, "
                                "max_length=64)", "password: str = Field(min_length=8)"),
                           Edit("username may start with a digit",
                                'pattern=r"^[a-z][a-z0-9_]{2,19}$$"',
                                'pattern=r"^[a-z0-9_]{3,20}$$"')),
                    security=True),
        Requirement("A customer reaches only the conversations they opened, in every route "
                    "and listing; others are 404.",
                    probes=("customers_reach_only_their_own",),
                    traps=(Edit("customers reach any conversation",
                                '    return conversation["customer"] == user["name"]',
                                "    return True"),
                           Edit("customers post anywhere",
                                "def post_message(body: MessageIn, conversation: Conversation, "
                                "user: User):",
                                "def post_message(body: MessageIn, conversation_id: int, "
                                "user: User):\n    conversation = conversations.get("
                                "conversation_id)\n    if conversation is None:\n"
                                '        raise HTTPException(404, "not_found")\n'
                                '    if user["role"] == "agent":\n'
                                "        find_conversation(conversation_id, user)")),
                    security=True),
        Requirement("An agent reaches only the conversations of their own team; others are "
                    "404.",
                    probes=("agents_reach_only_their_team",),
                    traps=(Edit("agents reach every team",
                                '        return conversation["team"] == user["team"]',
                                "        return True"),
                           Edit("agents close any team's conversation",
                                "def handled(conversation_id: int, user: Annotated[dict, "
                                "Depends(agent)]) -> dict:\n    return find_conversation("
                                "conversation_id, user)",
                                "def handled(conversation_id: int, user: Annotated[dict, "
                                "Depends(agent)]) -> dict:\n    if conversation_id not in "
                                'conversations:\n        raise HTTPException(404, "not_found")'
                                "\n    return conversations[conversation_id]")),
                    security=True),
        Requirement("Only customers open conversations and only agents change the status "
                    "(else 403).",
                    probes=("roles_per_route",),
                    traps=(Edit("agents open conversations",
                                "def open_conversation(body: ConversationIn, user: "
                                "Annotated[dict, Depends(customer)]):",
                                "def open_conversation(body: ConversationIn, user: User):"),
                           Edit("customers change the status",
                                "def handled(conversation_id: int, user: Annotated[dict, "
                                "Depends(agent)])",
                                "def handled(conversation_id: int, user: User)")),
                    security=True),
        Requirement("The server sets owners, authors, roles, statuses and counts: unlisted "
                    "body fields are 422.",
                    probes=("server_sets_owners_and_roles",),
                    traps=(unknown_fields_ignored("ConversationIn"), unknown_fields_ignored("MessageIn"),
                           unknown_fields_ignored("StatusIn")),
                    security=True),
        Requirement("Message text is trimmed then 1-${text_max} characters, at most "
                    "${att_max} attachment names of the stated form, subjects trimmed then "
                    "1-80, teams exact; else 422.",
                    probes=("message_bounds",),
                    traps=(Edit("text unbounded", "max_length=${text_max})]", "max_length=None)]"),
                           Edit("attachments unbounded", "default_factory=list, "
                                "max_length=${att_max})", "default_factory=list)"),
                           Edit("attachment names may hold paths",
                                'ATTACHMENT = r"^[A-Za-z0-9_-][A-Za-z0-9._-]{0,39}$$"',
                                'ATTACHMENT = r"^[A-Za-z0-9._/-]{1,40}$$"'),
                           Edit("text not trimmed", "    text: Annotated[str, StringConstraints("
                                "strip_whitespace=True, ", "    text: Annotated[str, "
                                "StringConstraints(")),
                    security=True),
        Requirement("Message pages take `limit` 1 to ${page_max} (default ${page_default}) and "
                    "`offset` from 0; `next_offset` is null on the last page.",
                    probes=("message_pages",),
                    traps=(Edit("page size unbounded", "Query(ge=1, le=${page_max})",
                                "Query(ge=1)"),
                           Edit("next offset on the last page",
                                "following if following < len(found) else None",
                                "following if following <= len(found) else None")),
                    security=True),
        Requirement("A closed conversation takes no messages (409) until an agent reopens it; "
                    "listings filter by exact status; `message_count` counts posted messages.",
                    probes=("closed_conversations",),
                    traps=(Edit("closed conversations take messages",
                                '    if conversation["status"] == "closed":\n'
                                '        raise HTTPException(409, "conflict")\n', ""),
                           Edit("message count not kept",
                                '    conversation["message_count"] += 1\n', ""))),
        Requirement("`max_bytes` is 1 to ${export_cap} (default ${export_default}) and the "
                    "export keeps whole lines within that many UTF-8 bytes, saying whether it "
                    "was truncated.",
                    probes=("export_byte_bound",),
                    traps=(Edit("export cap not enforced",
                                "Query(ge=1, le=${export_cap})", "Query(ge=1)"),
                           Edit("export counts characters",
                                "lines = [export_line(m).encode() for m in thread(conversation)]",
                                "lines = [export_line(m) for m in thread(conversation)]"),
                           Edit("export truncated header inverted",
                                'truncated = "true" if len(kept) < len(lines) else "false"',
                                'truncated = "true" if len(kept) <= len(lines) else "false"')),
                    security=True),
        Requirement("Export lines are `[role] author: text` with line breaks inside the text "
                    "written as spaces, so no message forges another line.",
                    probes=("export_lines",),
                    traps=(Edit("line breaks kept in the export",
                                'text = message["text"].replace("\\r", " ").replace('
                                '"\\n", " ")', 'text = message["text"]'),
                           Edit("CRLF written as one space",
                                'text = message["text"].replace("\\r", " ").replace('
                                '"\\n", " ")', 'text = " ".join(message["text"]'
                                '.splitlines())')),
                    security=True),
        Requirement("The HTML transcript is exactly the stated markup, with ampersands, angle "
                    "brackets and both kinds of quote escaped in the subject, authors and texts.",
                    probes=("transcript_escapes_markup",),
                    traps=(Edit("quotes left unescaped", "html.escape(value, quote=True)",
                                "html.escape(value, quote=False)"),
                           Edit("subject not escaped", "<h1>{escape(conversation['subject'])}"
                                "</h1>", "<h1>{conversation['subject']}</h1>"),
                           Edit("text escaped once only",
                                "{escape(m['text'])}</li>",
                                "{escape(html.unescape(m['text']))}</li>")),
                    security=True),
        Requirement("With several failures: 401, then 403 for the role, then 404 for the "
                    "conversation, then 422, then 409.",
                    probes=("checks_in_order",),
                    traps=(Edit("conversation before the role",
                                "def handled(conversation_id: int, user: Annotated[dict, "
                                "Depends(agent)]) -> dict:\n    return find_conversation("
                                "conversation_id, user)",
                                "def handled(conversation_id: int, user: User) -> dict:\n"
                                "    conversation = find_conversation(conversation_id, user)\n"
                                "    agent(user)\n    return conversation"),
                           Edit("closed before the body",
                                '@app.post("/conversations/{conversation_id}/messages", '
                                "status_code=201)\ndef post_message(body: MessageIn, "
                                "conversation: Conversation, user: User):",
                                "def still_open(conversation: Conversation) -> dict:\n"
                                '    if conversation["status"] == "closed":\n'
                                '        raise HTTPException(409, "conflict")\n'
                                "    return conversation\n\n\n"
                                '@app.post("/conversations/{conversation_id}/messages", '
                                "status_code=201)\ndef post_message(body: MessageIn, "
                                "conversation: Annotated[dict, Depends(still_open)], "
                                "user: User):"))),
    ),
)
