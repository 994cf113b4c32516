"""A black-box task's hidden service: the model queries it, never reads it.

A family with a ``service`` (``Family.service``) describes a running HTTP service the model must
reproduce from its answers alone. Its source stays on the host, rendered from the family by
task id like the probes (``dataset.task_service``); it is in neither the prompt, nor the task's
wire form, nor any file of the box. The model reaches it through one tool, ``query_service``
(``TOOL``), in both bindings: a batch of requests in, their raw responses out.

Where it runs: in the rollout's own box, on the image's Python (the one the key was built
with), by ``worker.py`` as ``python3 -I -S -c`` with the source on stdin, as the user the
grader's supervisor runs as (out of the model's reach on Docker). No model process is alive
then: the harness kills them after every command, and the service only runs between
commands. Its state is the requests it has answered: ``ServiceSession`` keeps them on the host
and each call replays them before the new ones (a service must answer the same sequence the
same way). So nothing outlives a call, and a served worker holds nothing but that list.

Everything the model does to the service is the model's: a malformed request, a timeout, a
crash of the service are tool messages, never a rollout error or a ``scoring_error`` (a box
that is gone stays the harness's failure, as for every tool). Grading does not use the
service: the hidden probes run against the model's app with a key built from the reference,
and ``--verify`` proves the key is what the service answers (the family's positive control
runs the service's own ``handle`` in the box).
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from pathlib import Path
from typing import Any

from fastapi_env.sandbox.base import Sandbox

logger = logging.getLogger(__name__)
WORKER_SOURCE = (Path(__file__).parent / "worker.py").read_text()
MAX_REQUESTS = 40  # per tool call
MAX_TARGET = 4096  # characters of path and query
MAX_HEADERS = 20
MAX_BODY = 65_536  # bytes
MAX_SHOWN_BODY = 4096  # characters of each response body in the tool message
MAX_LOG_BYTES = 4 * 2**20  # the requests a session replays; past it the model must restart
CALL_TIMEOUT = 20.0  # seconds for one call: the replay and the new requests
METHOD = re.compile(r"[A-Z]{1,16}")
HEADER_NAME = re.compile(r"[A-Za-z0-9-]{1,64}")
# The worker composes Host and, for a body, Content-Length.
COMPOSED_HEADERS = {"host", "content-length", "transfer-encoding"}

TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "query_service",
        "description": (
            "Send HTTP requests, in order, to the running service this task describes (the "
            "sandbox has no network: this tool is the only way to reach it) and return each "
            f"raw response: status line, headers, body. Up to {MAX_REQUESTS} requests per call. "
            "The service's state carries from one request and one call to the next unless "
            "`restart` is true."
        ),
        "parameters": {
            "type": "object",
            "properties": {
                "requests": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "method": {"type": "string", "description": "e.g. GET"},
                            "target": {"type": "string",
                                       "description": "path and query, percent-encoded"},
                            "headers": {"type": "string", "description": (
                                "header lines `Name: value`, one per line, or empty; Host "
                                "and Content-Length are set for you")},
                            "body": {"type": "string", "description": (
                                "sent as UTF-8, or empty; with body_base64, the base64 of "
                                "the bytes to send")},
                            "body_base64": {"type": "boolean", "description": (
                                "true to send bytes that are not UTF-8 text")},
                        },
                        "required": ["method", "target", "headers", "body", "body_base64"],
                        "additionalProperties": False,
                    },
                },
                "restart": {"type": "boolean",
                            "description": "restart the service (empty state) before the requests"},
            },
            "required": ["requests", "restart"],
            "additionalProperties": False,
        },
        "strict": True,
    },
}
TOOL_NAME: str = TOOL["function"]["name"]


# Turns below which a black-box task is barely playable: the blind solvers spent 18 to 20
# query_service calls on attempt 1 (README, "How hard the hard tiers are").
FEW_TURNS = 20


def warn_if_few_turns(records: list[dict[str, Any]], max_turns: int) -> None:
    """Say so when black-box tasks are selected with a turn budget that leaves the model only a
    handful of queries (the default 5 gives four): the run is legal, but rarely what was meant."""
    blackbox = sum(1 for r in records if r.get("hidden_service"))
    if blackbox and max_turns < FEW_TURNS:
        logger.warning(
            "%d black-box task(s) selected with max_turns=%d: the model can call query_service "
            "at most %d times; blind solvers needed 18 to 20 calls (README: Black-box tasks). "
            "Raise max_turns (e.g. 40), or leave the tier out", blackbox, max_turns,
            max_turns - 1)


class RequestRefused(ValueError):
    """A request the tool does not send (said to the model; nothing reaches the service)."""


def checked_request(request: Any) -> dict[str, Any]:
    """One request of the tool's arguments, validated: the worker gets only well-formed ones
    (its body as base64 of the bytes to send)."""
    if not isinstance(request, dict):
        raise RequestRefused("each request must be an object with method, target, headers, "
                             "body, body_base64")
    method, target = request.get("method"), request.get("target")
    headers, body = request.get("headers") or "", request.get("body") or ""
    if not isinstance(method, str) or not METHOD.fullmatch(method):
        raise RequestRefused(f"method must be upper-case letters, e.g. GET, not {method!r}")
    if not isinstance(target, str) or not target.startswith("/") or len(target) > MAX_TARGET \
            or any(c.isspace() or ord(c) < 32 or ord(c) > 126 for c in target):
        raise RequestRefused("target must start with / and hold only printable ASCII without "
                             f"spaces (percent-encode the rest), at most {MAX_TARGET} characters")
    if not isinstance(headers, str) or not isinstance(body, str):
        raise RequestRefused("headers and body must be strings")
    pairs = []
    for line in filter(None, (line.strip() for line in headers.splitlines())):
        name, colon, value = line.partition(":")
        if not colon or not HEADER_NAME.fullmatch(name.strip()):
            raise RequestRefused(f"header line {line!r} is not `Name: value`")
        if name.strip().lower() in COMPOSED_HEADERS:
            raise RequestRefused(f"{name.strip()} is set by the tool; leave it out")
        pairs.append([name.strip(), value.strip()])
    if len(pairs) > MAX_HEADERS:
        raise RequestRefused(f"at most {MAX_HEADERS} headers per request")
    if request.get("body_base64") is True:
        try:
            data = base64.b64decode(body, validate=True)
        except binascii.Error:
            raise RequestRefused("body_base64 is true but the body is not base64") from None
    else:
        data = body.encode()
    if len(data) > MAX_BODY:
        raise RequestRefused(f"a body may hold at most {MAX_BODY} bytes")
    return {"method": method, "target": target, "headers": pairs,
            "body64": base64.b64encode(data).decode()}


class ServiceSession:
    """One rollout's service in its box: the requests it has answered, replayed by each call."""

    def __init__(self, box: Sandbox, source: str) -> None:
        self.box, self.source = box, source
        self.log: list[dict[str, Any]] = []
        self.requests_sent = 0

    def restart(self) -> None:
        self.log = []

    async def ask(self, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The answers to checked requests, in order; those answered join the state. A request
        left unanswered when the call's time ran out ends the call: it and the rest get an
        ``error``, and are not kept. Raises SandboxError when the box is gone."""
        job = {"source": self.source, "replay": self.log, "requests": requests}
        result = await self.box.run_python(
            WORKER_SOURCE, stdin=json.dumps(job).encode(), timeout=CALL_TIMEOUT,
            output_limit=len(requests) * (2 * MAX_BODY + 65_536), privileged=True)
        answers = []
        for line in result.stdout.splitlines()[:len(requests)]:
            try:
                answers.append(json.loads(line))
            except ValueError:
                break
        self.requests_sent += len(answers)
        self.log += requests[:len(answers)]
        if len(answers) < len(requests) and not result.timed_out:
            # The model cannot make the worker stop early (the source and the job are ours):
            # a bug of ours, told to the model as the service's failure, and logged here.
            logger.warning("hidden service stopped early (exit %s): %s", result.exit_code,
                           result.stderr[-2000:])
        why = (f"no answer within the call's {CALL_TIMEOUT:g} s; this request and the ones "
               "after it were not kept" if result.timed_out else
               "the service stopped before answering; this request and the ones after it "
               "were not kept")
        return answers + [{"error": why}] * (len(requests) - len(answers))

    def log_bytes(self) -> int:
        return len(json.dumps(self.log))


def shown(number: int, request: dict[str, Any], answer: dict[str, Any]) -> str:
    """One exchange as the tool message shows it."""
    title = f"[{number}] {request['method']} {request['target']}"
    if "error" in answer:
        return f"{title}\n(no response: {answer['error']})"
    lines = [f"HTTP/1.1 {answer['status']} {answer['reason']}".rstrip()]
    lines += [f"{name}: {value}" for name, value in answer["headers"]]
    body = answer.get("body")
    if body is None:  # bytes that are not UTF-8
        body = f"(the body is not UTF-8; its base64:)\n{answer['body64']}"
    if len(body) > MAX_SHOWN_BODY:
        body = body[:MAX_SHOWN_BODY] + f"\n... ({len(body)} characters in all)"
    return "\n".join([title, *lines, "", body])


async def run_query(session: ServiceSession | None, args: Any) -> str:
    """The ``query_service`` tool: the text of its tool message. Never raises for anything the
    model sent (a bad batch is an error message, and nothing of it is sent); raises
    SandboxError only when the box is gone."""
    if session is None:
        return "Error: this task has no service to query"
    if not isinstance(args, dict) or not isinstance(args.get("requests"), list):
        return "Error: query_service takes `requests` (a list) and `restart` (true or false)"
    batch = args["requests"]
    if not 1 <= len(batch) <= MAX_REQUESTS:
        return f"Error: send 1 to {MAX_REQUESTS} requests per call, not {len(batch)}"
    try:
        checked = [checked_request(r) for r in batch]
    except RequestRefused as exc:
        return f"Error: nothing was sent: {exc}"
    if args.get("restart") is True:
        session.restart()
    if session.log_bytes() + len(json.dumps(checked)) > MAX_LOG_BYTES:
        return (f"Error: nothing was sent: this session's requests pass {MAX_LOG_BYTES} bytes; "
                "send restart: true to start the service afresh")
    exchanges = zip(checked, await session.ask(checked), strict=True)
    return "\n\n".join(shown(n, req, answer) for n, (req, answer) in enumerate(exchanges, 1))
