from fastapi_env.tasks import Edit, Family, Requirement

PROMPT = '''\
Build an app with one route, `POST /chat`, that streams a fake chat completion as
server-sent events. Use FastAPI's own SSE support (`fastapi.sse`, FastAPI 0.135 and later).

Request body (JSON), validated by a Pydantic model:
- `prompt`: string, required, 1 to ${pmax} characters
- `max_tokens`: integer, optional, default ${mdef}, between 1 and ${mmax} inclusive

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
2. only if tokens were dropped: one event named `${ev}` whose data is the JSON number of
   dropped tokens;
3. a final event whose data is the ${sentinel_phrase} `${sentinel}` exactly (not a JSON string: no quotes).

Events carry no `id`, `retry` or comment lines. On the wire, for the prompt `"hi there you"`
with `max_tokens` 2, the body is exactly:

    data: {"index": 0, "token": "hi"}

    data: {"index": 1, "token": "there"}

    event: ${ev}
    data: 1

    data: ${sentinel}

(each line ends with `\\n` and each event with a blank line, so the body ends in `\\n\\n`).

Then fill `result` with one row per request, in this order, each sent as
`client.post("/chat", json={...})`. For a 422 the row is
`[status code (integer), detail[0]["type"] (string), detail[0]["loc"] (list)]`; otherwise it is
`[status code (integer), the content-type header (string), the cache-control header (string, or
null if absent), the whole response body as text (string)]`.

1. `json={"prompt": "${p1}"}`
2. `json={"prompt": "${p2}", "max_tokens": ${m2}}`
3. `json={"prompt": ""}`
4. `json={"prompt": "hi", "max_tokens": ${mmax_over}}`
'''

_MODEL = '''\
class ChatRequest(BaseModel):
    prompt: str = Field(min_length=1, max_length=${pmax})
    max_tokens: int = Field(default=${mdef}, ge=1, le=${mmax})
'''

_HANDLER = '''\
@app.post("/chat", response_class=EventSourceResponse)
async def chat(request: ChatRequest):
    tokens = request.prompt.split()
    for index, token in enumerate(tokens[: request.max_tokens]):
        yield {"index": index, "token": token}
    dropped = len(tokens) - request.max_tokens
    if dropped > 0:
        yield ServerSentEvent(data=dropped, event="${ev}")
    yield ServerSentEvent(raw_data="${sentinel}")
'''

_MODEL_TO_HANDLER = _MODEL + """

app = FastAPI()


""" + _HANDLER

REFERENCE = '''\
from fastapi import FastAPI
from fastapi.sse import EventSourceResponse, ServerSentEvent
from fastapi.testclient import TestClient
from pydantic import BaseModel, Field


''' + _MODEL_TO_HANDLER + '''

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
    row(client.post("/chat", json={"prompt": "${p1}"})),
    row(client.post("/chat", json={"prompt": "${p2}", "max_tokens": ${m2}})),
    row(client.post("/chat", json={"prompt": ""})),
    row(client.post("/chat", json={"prompt": "hi", "max_tokens": ${mmax_over}})),
]
'''

PROBES = '''\
def _row(r):
    if r.status_code == 422:
        first = r.json()["detail"][0]
        return [r.status_code, first["type"], first["loc"]]
    return [r.status_code, r.headers.get("content-type"), r.headers.get("cache-control"), r.text]


def _words(n):
    return " ".join(f"w{i}" for i in range(n))


def probe_exact_fit_and_whitespace(client):
    rows = [_row(client.post("/chat", json={"prompt": "  a\\tb \\n c  ", "max_tokens": 3}))]
    rows.append(_row(client.post("/chat", json={"prompt": "   "})))
    rows.append(_row(client.post("/chat", json={"prompt": "w " * 20, "max_tokens": 1})))
    return rows


def probe_default_and_upper_bound(client):
    return [
        _row(client.post("/chat", json={"prompt": _words(${mdef})})),
        _row(client.post("/chat", json={"prompt": _words(${mdef_plus})})),
        _row(client.post("/chat", json={"prompt": _words(${mmax_over}), "max_tokens": ${mmax}})),
    ]


def probe_non_ascii_and_quotes(client):
    return [_row(client.post("/chat", json={"prompt": 'caf\\u00e9 "${sentinel}" na\\u00efve'}))]


def probe_validation(client):
    rows = [_row(client.post("/chat", json={"prompt": "x", "max_tokens": 0}))]
    rows.append(_row(client.post("/chat", json={"max_tokens": 3})))
    rows.append(_row(client.post("/chat", json={"prompt": "y" * ${pmax_over}})))
    rows.append(_row(client.post("/chat", json={"prompt": "y" * ${pmax}, "max_tokens": 1})))
    rows.append(_row(client.post("/chat", json={"prompt": "x", "max_tokens": -2})))
    rows.append(_row(client.post("/chat", json={})))
    return rows
'''

_STREAMING_BY_HAND = '''\
import json  # noqa: E402

from fastapi.responses import StreamingResponse  # noqa: E402


@app.post("/chat")
async def chat(request: ChatRequest):
    async def frames():
        tokens = request.prompt.split()
        for index, token in enumerate(tokens[: request.max_tokens]):
            yield f"data: {json.dumps({'index': index, 'token': token})}\\n\\n"
        dropped = len(tokens) - request.max_tokens
        if dropped > 0:
            yield f"event: ${ev}\\ndata: {dropped}\\n\\n"
        yield "data: ${sentinel}\\n\\n"

    return StreamingResponse(frames(), media_type="text/event-stream")
'''

FAMILY = Family(
    id="sse/chat_token_stream",
    title="Stream chat tokens as server-sent events ending with a raw [DONE]",
    category="sse",
    difficulty="hard",
    prompt=PROMPT,
    reference=REFERENCE,
    probes=PROBES,
    original={"pmax": 200, "mdef": 5, "mmax": 20, "ev": "truncated", "sentinel": "[DONE]",
              "p1": "hello big world", "p2": "one two three four five six", "m2": 4},
    space={
        "pmax": [200, 40, 120],
        "tokens": [{"mdef": 5, "mmax": 20}, {"mdef": 3, "mmax": 10}, {"mdef": 8, "mmax": 30}],
        "ev": ["truncated", "cut", "overflow"],
        "sentinel": ["[DONE]", "[END]"],
        "requests": [{"p1": "hello big world", "p2": "one two three four five six", "m2": 4},
                     {"p1": "stream me now please", "p2": "a b c d e", "m2": 2}],
    },
    derive=lambda p: {
        "sentinel_phrase": "four characters" if p["sentinel"] == "[DONE]" else "characters",
        "mmax_over": p["mmax"] + 1, "mmax_minus": p["mmax"] - 1, "mdef_plus": p["mdef"] + 1,
        "mdef_other": p["mdef"] + 1, "pmax_over": p["pmax"] + 1, "pmax_minus": p["pmax"] - 1,
    },
    instances=40,
    requirements=(
        Requirement(
            "`prompt` is 1 to ${pmax} characters and `max_tokens` 1 to ${mmax} with default "
            "${mdef} (each bound accepted, one past it a 422 of the stated type).",
            probes=("validation", "default_and_upper_bound"),
            traps=(
                Edit("prompt bound off by one", "max_length=${pmax})", "max_length=${pmax_minus})"),
                Edit("max_tokens bound off by one", "ge=1, le=${mmax})", "ge=1, le=${mmax_minus})"),
                Edit("wrong max_tokens default", "Field(default=${mdef},", "Field(default=${mdef_other},"),
            ),
        ),
        Requirement(
            "Tokens are `str.split()` words, one event each with `json.dumps` data (spaced "
            "separators, non-ASCII escaped), at most `max_tokens` of them.",
            probes=("exact_fit_and_whitespace", "non_ascii_and_quotes", "default_and_upper_bound"),
            traps=(
                Edit("token events as ServerSentEvent(data=<model>) (compact JSON)", _MODEL_TO_HANDLER,
                     _MODEL_TO_HANDLER.replace(
                         "\n\napp = FastAPI()", "\n\nclass Token(BaseModel):\n    index: int\n    token: str\n\n\napp = FastAPI()")
                     .replace('yield {"index": index, "token": token}',
                              "yield ServerSentEvent(data=Token(index=index, token=token))")),
                Edit("split on single spaces", "tokens = request.prompt.split()",
                     'tokens = [t for t in request.prompt.split(" ") if t]'),
            ),
        ),
        Requirement(
            "Only when tokens were dropped, one `${ev}` event carries their number.",
            probes=("exact_fit_and_whitespace", "default_and_upper_bound"),
            traps=(
                Edit("truncated event yielded as a dict shaped like an event",
                     'yield ServerSentEvent(data=dropped, event="${ev}")',
                     'yield {"event": "${ev}", "data": dropped}'),
                Edit("truncated event also sent when nothing was dropped", "if dropped > 0:",
                     "if dropped >= 0:"),
            ),
        ),
        Requirement(
            "The stream ends with an event whose data is `${sentinel}` raw (no quotes), and is "
            "served as `text/event-stream; charset=utf-8` with `cache-control: no-cache`.",
            probes=("exact_fit_and_whitespace", "non_ascii_and_quotes"),
            traps=(
                Edit("yields the sentinel as a plain string (JSON-quoted)",
                     'yield ServerSentEvent(raw_data="${sentinel}")', 'yield "${sentinel}"'),
                Edit("hand-rolled StreamingResponse frames (no cache-control)", _HANDLER, _STREAMING_BY_HAND),
            ),
        ),
    ),
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
