"""The hidden service, run once per ``query_service`` call inside the rollout's box.

Run as ``python3 -I -S -c`` (the standard library only) by ``ServiceSession``, as a user the
model's processes cannot reach where the box has one, with no model process alive (the
harness kills them after every command). Its stdin is one JSON document: ``source`` (the
service's Python source, defining ``handle(raw: bytes) -> bytes``: one raw HTTP/1.1 request
in, the raw response out), ``replay`` (the session's earlier requests, answered and
discarded: the service's state is the requests it has seen) and ``requests`` (the new ones).
Each new request's answer is one JSON line on stdout, written as soon as it is known:
``status``, ``reason``, ``headers`` (``[name, value]`` pairs) and ``body`` (or ``body64``, its
base64, when the bytes are not UTF-8), or ``error`` when
the service closed without answering. A request is ``method``, ``target``, ``headers`` (pairs)
and ``body64`` (the base64 of the body's bytes).
"""

import base64
import json
import sys
import types


def raw_request(request):
    body = base64.b64decode(request["body64"])
    lines = [request["method"] + " " + request["target"] + " HTTP/1.1", "Host: service"]
    lines += [name + ": " + value for name, value in request["headers"]]
    if body:
        lines.append("Content-Length: " + str(len(body)))
    return "\r\n".join(lines).encode("utf-8") + b"\r\n\r\n" + body


def parsed_response(raw):
    head, separator, body = raw.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if not separator or len(parts) < 2 or not parts[1].isdigit():
        return {"error": "the service closed the connection without answering"}
    headers = [[part.strip() for part in line.split(":", 1)] for line in lines if ":" in line]
    answer = {"status": int(parts[1]), "reason": parts[2] if len(parts) > 2 else "",
              "headers": headers}
    try:
        answer["body"] = body.decode("utf-8")
    except UnicodeDecodeError:
        answer["body64"] = base64.b64encode(body).decode()
    return answer


def answer(service, request):
    try:
        return parsed_response(service.handle(raw_request(request)))
    except Exception:  # what a client sees of a crash: no traceback leaks to the model
        return {"error": "the service closed the connection without answering"}


def main():
    job = json.loads(sys.stdin.buffer.read())
    out = sys.stdout
    sys.stdout = sys.stderr  # a print in the service must not corrupt the answers
    service = types.ModuleType("service")
    exec(compile(job["source"], "service", "exec"), service.__dict__)
    for request in job["replay"]:
        answer(service, request)
    for request in job["requests"]:
        out.write(json.dumps(answer(service, request)) + "\n")
        out.flush()


main()
