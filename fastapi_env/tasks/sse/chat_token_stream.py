from fastapi_env.tasks import Task

_RESULT = '''\
def row(response):
    if response.status_code == 422:
        first = response.json()["detail"][0]
        return [response.status_code, first["type"], first["loc"]]
    return [
        response.status_code,
        response.headers.get("content-type"),
        response.headers.get("cache-control"),
        response.text,
    ]


client = TestClient(app)
result = [
    row(client.post("/chat", json={"prompt": "hello big world"})),
    row(client.post("/chat", json={"prompt": "one two three four five six", "max_tokens": 4})),
    row(client.post("/chat", json={"prompt": ""})),
    row(client.post("/chat", json={"prompt": "hi", "max_tokens": 21})),
]
'''

TASK = Task(
    id="sse/chat_token_stream",
    title="Stream chat tokens as server-sent events ending with a raw [DONE]",
    category="sse",
    difficulty="hard",
    prompt='''\
Build an app with one route, `POST /chat`, that streams a fake chat completion as
server-sent events. Use FastAPI's own SSE support (`fastapi.sse`, FastAPI 0.135 and later).

Request body (JSON), validated by a Pydantic model:
- `prompt`: string, required, 1 to 200 characters
- `max_tokens`: integer, optional, default 5, between 1 and 20 inclusive

An invalid body is FastAPI's standard 422 validation error (a JSON response), with entry
types `missing`, `string_too_short`, `string_too_long` (prompt) and `greater_than_equal`,
`less_than_equal` (max_tokens), at loc `["body", "<field>"]`.

A valid request answers 200 with `content-type: text/event-stream; charset=utf-8` and the
header `cache-control: no-cache`. The tokens are the words of `prompt` split on whitespace
(Python's `str.split()`). The stream holds, in this order:
1. one event per token, for the first `max_tokens` tokens: its data is the JSON object
   `{"index": <0-based position>, "token": <the word>}`, serialised exactly as Python's
   `json.dumps` does with default settings (`", "` and `": "` separators, keys in that order,
   non-ASCII characters escaped as `\\uXXXX`);
2. only if tokens were dropped: one event named `truncated` whose data is the JSON number of
   dropped tokens;
3. a final event whose data is the four characters `[DONE]` exactly (not a JSON string: no quotes).

Events carry no `id`, `retry` or comment lines. On the wire, for the prompt `"hi there you"`
with `max_tokens` 2, the body is exactly:

    data: {"index": 0, "token": "hi"}

    data: {"index": 1, "token": "there"}

    event: truncated
    data: 1

    data: [DONE]

(each line ends with `\\n` and each event with a blank line, so the body ends in `\\n\\n`).

Then fill `result` with one row per request, in this order, each sent as
`client.post("/chat", json={...})`. For a 422 the row is
`[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`; otherwise it is
`[status code (integer), the content-type header (string), the cache-control header (string, or
null if absent), the whole response body as text (string)]`.

1. `json={"prompt": "hello big world"}`
2. `json={"prompt": "one two three four five six", "max_tokens": 4}`
3. `json={"prompt": ""}`
4. `json={"prompt": "hi", "max_tokens": 21}`
''',
    reference='''\
from fastapi import FastAPI
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=200)
    max_tokens: int = Field(default=5, ge=1, le=20)


app = FastAPI()


@app.post("/chat", response_class=EventSourceResponse)
async def chat(request: ChatRequest):
    tokens = request.prompt.split()
    for index, token in enumerate(tokens[: request.max_tokens]):
        yield {"index": index, "token": token}
    dropped = len(tokens) - request.max_tokens
    if dropped > 0:
        yield ServerSentEvent(data=dropped, event="truncated")
    yield ServerSentEvent(raw_data="[DONE]")


''' + _RESULT,
    probes='''\
def _row(r):
    if r.status_code == 422:
        first = r.json()["detail"][0]
        return [r.status_code, first["type"], first["loc"]]
    return [r.status_code, r.headers.get("content-type"), r.headers.get("cache-control"), r.text]


def probe_exact_fit_and_whitespace(client):
    rows = [_row(client.post("/chat", json={"prompt": "  a\\tb \\n c  ", "max_tokens": 3}))]
    rows.append(_row(client.post("/chat", json={"prompt": "   "})))
    rows.append(_row(client.post("/chat", json={"prompt": "w " * 20, "max_tokens": 1})))
    return rows


def probe_non_ascii_and_quotes(client):
    return [_row(client.post("/chat", json={"prompt": 'caf\\u00e9 "[DONE]" na\\u00efve'}))]


def probe_validation(client):
    rows = [_row(client.post("/chat", json={"prompt": "x", "max_tokens": 0}))]
    rows.append(_row(client.post("/chat", json={"max_tokens": 3})))
    rows.append(_row(client.post("/chat", json={"prompt": "y" * 201})))
    return rows
''',
    traps={
        "yields the sentinel as a plain string (JSON-quoted)": '''\
from fastapi import FastAPI
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=200)
    max_tokens: int = Field(default=5, ge=1, le=20)


app = FastAPI()


@app.post("/chat", response_class=EventSourceResponse)
async def chat(request: ChatRequest):
    tokens = request.prompt.split()
    for index, token in enumerate(tokens[: request.max_tokens]):
        yield {"index": index, "token": token}
    dropped = len(tokens) - request.max_tokens
    if dropped > 0:
        yield ServerSentEvent(data=dropped, event="truncated")
    yield "[DONE]"


''' + _RESULT,
        "truncated event yielded as a dict shaped like an event": '''\
from fastapi import FastAPI
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=200)
    max_tokens: int = Field(default=5, ge=1, le=20)


app = FastAPI()


@app.post("/chat", response_class=EventSourceResponse)
async def chat(request: ChatRequest):
    tokens = request.prompt.split()
    for index, token in enumerate(tokens[: request.max_tokens]):
        yield {"index": index, "token": token}
    dropped = len(tokens) - request.max_tokens
    if dropped > 0:
        yield {"event": "truncated", "data": dropped}
    yield ServerSentEvent(raw_data="[DONE]")


''' + _RESULT,
        "token events as ServerSentEvent(data=<model>) (compact JSON)": '''\
from fastapi import FastAPI
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=200)
    max_tokens: int = Field(default=5, ge=1, le=20)


class Token(BaseModel):
    index: int
    token: str


app = FastAPI()


@app.post("/chat", response_class=EventSourceResponse)
async def chat(request: ChatRequest):
    tokens = request.prompt.split()
    for index, token in enumerate(tokens[: request.max_tokens]):
        yield ServerSentEvent(data=Token(index=index, token=token))
    dropped = len(tokens) - request.max_tokens
    if dropped > 0:
        yield ServerSentEvent(data=dropped, event="truncated")
    yield ServerSentEvent(raw_data="[DONE]")


''' + _RESULT,
        "hand-rolled StreamingResponse frames (no cache-control)": '''\
import json

from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=200)
    max_tokens: int = Field(default=5, ge=1, le=20)


app = FastAPI()


@app.post("/chat")
async def chat(request: ChatRequest):
    async def frames():
        tokens = request.prompt.split()
        for index, token in enumerate(tokens[: request.max_tokens]):
            yield f"data: {json.dumps({'index': index, 'token': token})}\\n\\n"
        dropped = len(tokens) - request.max_tokens
        if dropped > 0:
            yield f"event: truncated\\ndata: {dropped}\\n\\n"
        yield "data: [DONE]\\n\\n"

    return StreamingResponse(frames(), media_type="text/event-stream")


''' + _RESULT,
        "sse_starlette (not installed)": '''\
import json

from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field
from sse_starlette.sse import EventSourceResponse


class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=200)
    max_tokens: int = Field(default=5, ge=1, le=20)


app = FastAPI()


@app.post("/chat")
async def chat(request: ChatRequest):
    async def events():
        tokens = request.prompt.split()
        for index, token in enumerate(tokens[: request.max_tokens]):
            yield {"data": json.dumps({"index": index, "token": token})}
        dropped = len(tokens) - request.max_tokens
        if dropped > 0:
            yield {"event": "truncated", "data": str(dropped)}
        yield {"data": "[DONE]"}

    return EventSourceResponse(events())


''' + _RESULT,
    },
    expected_rows=[
        [200, "text/event-stream; charset=utf-8", "no-cache",
         'data: {"index": 0, "token": "hello"}\n\n'
         'data: {"index": 1, "token": "big"}\n\n'
         'data: {"index": 2, "token": "world"}\n\n'
         "data: [DONE]\n\n"],
        [200, "text/event-stream; charset=utf-8", "no-cache",
         'data: {"index": 0, "token": "one"}\n\n'
         'data: {"index": 1, "token": "two"}\n\n'
         'data: {"index": 2, "token": "three"}\n\n'
         'data: {"index": 3, "token": "four"}\n\n'
         "event: truncated\ndata: 2\n\n"
         "data: [DONE]\n\n"],
        [422, "string_too_short", ["body", "prompt"]],
        [422, "less_than_equal", ["body", "max_tokens"]],
    ],
)
