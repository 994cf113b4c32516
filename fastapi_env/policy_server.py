"""A scripted, OpenAI-compatible policy server on loopback: the offline demo and the e2e tests.

``fastapi-env serve-policy reference`` answers ``POST /v1/chat/completions`` (streaming and not)
by replaying a script of tool calls for whichever task the conversation is about. It finds the
task by its prompt, then plays the policy's next step given how many assistant turns came
before. Policies:

* ``reference``: lists /workspace first when the task starts with setup files (a repair task),
  writes the task's reference solution (and its other files, in one turn) with
  ``write_file``, compiles it once with ``bash``, then finishes, as a careful model would. On a
  black-box task it first sends the service the request of the first result row with
  ``query_service``, and writes the reference only if the answer is that row (else a module
  that does not parse: the rollout's 0 shows the tool failed);
* ``noop``: finishes at once, writing nothing;
* ``syntax-error``: writes a module that does not parse, then finishes;
* ``rows-only``: writes the visible rows as a literal ``result`` beside an ``app`` with no routes
  (only the hidden probes can catch it);
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from fastapi_env.dataset import load_keys
from fastapi_env.tasks import Task, load_tasks

ToolCall = tuple[str, dict[str, Any]]
# One turn: a tool call, several tool calls at once, or a final message that ends the rollout;
# or a function of the conversation so far returning one of those.
Step = ToolCall | list[ToolCall] | str | Callable[[list[dict]], Any]


def write_file_step(path: str, content: str) -> ToolCall:
    return ("write_file", {"path": path, "content": content})


def write_solution(source: str) -> ToolCall:
    return write_file_step("/workspace/solution.py", source)


BROKEN = "def broken(:\n    pass\n"


def ask_first_row(task: Task) -> ToolCall:
    """A black-box task's first result row, asked of its service (the stock ledger's)."""
    p = task.params
    body = json.dumps({"sku": p["sku1"], "name": p["name1"], "unit_price": p["price1"]})
    request = {"method": "POST", "target": "/items", "headers": "", "body": body,
               "body_base64": False}
    return ("query_service", {"requests": [request], "restart": False})


def answered(row: list, messages: list[dict]) -> bool:
    """Whether the last tool message shows ``[status, body, Location]`` as the row has it."""
    text = str(next((m.get("content") for m in reversed(messages) if m.get("role") == "tool"),
                    ""))
    head, _, body = text.partition("\n\n")
    try:
        parsed = json.loads(body)
    except ValueError:
        return False
    return (f"HTTP/1.1 {row[0]} " in head and f"\nLocation: {row[2]}" in head
            and parsed == row[1])


def reference_script(task: Task, rows: list) -> list[Step]:
    look: list[Step] = [("bash", {"command": "cd /workspace && ls -R"})] if task.setup_files else []
    writes = [write_file_step(f"/workspace/{p}", text) for p, text in task.files.items()]
    solution: Step = [*writes, write_solution(task.reference)]
    if task.service:
        look, written = [ask_first_row(task)], solution

        def solution(messages: list[dict]) -> Step:
            return written if answered(rows[0], messages) else write_solution(BROKEN)
    return [
        *look,
        solution,
        ("bash", {"command": "cd /workspace && python3 -m py_compile solution.py && echo ok"}),
        "Done: /workspace/solution.py defines app and result.",
    ]


def rows_only_script(task: Task, rows: list) -> list[Step]:
    literal = ("import json\nfrom fastapi import FastAPI\n\napp = FastAPI()  # no routes\n"
               f"result = json.loads({json.dumps(rows)!r})\n")
    return [write_solution(literal), "Done."]


POLICIES: dict[str, Callable[[Task, list], list[Step]]] = {
    "reference": reference_script,
    "noop": lambda task, rows: ["I cannot do this."],
    "syntax-error": lambda task, rows: [write_solution(BROKEN), "Done."],
    "rows-only": rows_only_script,
}


class PolicyServer:
    """Plays a policy for every task: the one the request's ``model`` names (``<policy>`` or
    ``scripted-<policy>``), else the server's default. Use as a context manager."""

    def __init__(
        self,
        policy: str,
        host: str = "127.0.0.1",
        port: int = 0,
        extra_policies: dict[str, Callable[[Task, list], list[Step]]] | None = None,
    ):
        policies = POLICIES | (extra_policies or {})
        if policy not in policies:
            raise ValueError(f"unknown policy {policy!r}; known: {', '.join(sorted(policies))}")
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the policy server only listens on loopback")
        self.policies = policies
        self.policy = policy
        self.tasks = load_tasks()
        self.keys = load_keys()
        self.requests = 0
        self._server = ThreadingHTTPServer((host, port), self._handler())
        self.base_url = f"http://{host}:{self._server.server_address[1]}/v1"
        self._thread: threading.Thread | None = None

    def find_task(self, messages: list[dict]) -> Task:
        text = "\n".join(str(m.get("content") or "") for m in messages if m.get("role") == "user")
        matches = [t for t in self.tasks if t.prompt.strip() in text]
        if not matches:
            raise LookupError("no task prompt found in the conversation")
        return max(matches, key=lambda t: len(t.prompt))

    def policy_for(self, model: str | None) -> str:
        name = (model or "").removeprefix("scripted-")
        return name if name in self.policies else self.policy

    def next_step(self, messages: list[dict], model: str | None = None) -> Step:
        task = self.find_task(messages)
        turn = sum(1 for m in messages if m.get("role") == "assistant")
        script = self.policies[self.policy_for(model)](task, self.keys[task.id].rows)
        step = script[min(turn, len(script) - 1)]
        return step(messages) if callable(step) else step

    # ---- HTTP
    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._json(
                        200,
                        {
                            "object": "list",
                            "data": [
                                {
                                    "id": f"scripted-{server.policy}",
                                    "object": "model",
                                    "owned_by": "local",
                                }
                            ],
                        },
                    )
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                    step = server.next_step(body.get("messages") or [], body.get("model"))
                except (LookupError, ValueError) as exc:
                    self._json(400, {"error": {"message": str(exc)}})
                    return
                server.requests += 1
                model = body.get("model") or f"scripted-{server.policy}"
                if body.get("stream"):
                    self._stream(step, model)
                else:
                    self._json(200, completion(step, model))

            def _json(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, step: Step, model: str) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.end_headers()
                for chunk in stream_chunks(step, model):
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        return Handler

    def __enter__(self) -> PolicyServer:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()

    def serve_forever(self) -> None:
        self._server.serve_forever()


def _message(step: Step) -> tuple[dict, str]:
    if isinstance(step, str):
        return {"role": "assistant", "content": step}, "stop"
    calls = [
        {
            "id": f"call_{uuid.uuid4().hex[:16]}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(arguments)},
        }
        for name, arguments in (step if isinstance(step, list) else [step])
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}, "tool_calls"


def completion(step: Step, model: str) -> dict:
    message, finish = _message(step)
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def stream_chunks(step: Step, model: str) -> list[dict]:
    message, finish = _message(step)
    base = {
        "id": f"chatcmpl-{uuid.uuid4().hex}",
        "object": "chat.completion.chunk",
        "created": int(time.time()),
        "model": model,
    }
    if message.get("tool_calls"):
        calls = [{"index": i, **call} for i, call in enumerate(message["tool_calls"])]
        delta = {"role": "assistant", "tool_calls": calls}
    else:
        delta = {"role": "assistant", "content": message["content"]}
    return [
        base | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
        base
        | {
            "choices": [{"index": 0, "delta": {}, "finish_reason": finish}],
            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
        },
    ]
