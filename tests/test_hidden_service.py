"""The hidden service of black-box tasks (fastapi_env/hidden_service): what the model's
``query_service`` calls do, on a real box, and that the service's code reaches the model
nowhere. The bindings' use of it runs in the e2e suites (the reference policy asks the service
first and scores 1 only when it answered the first result row)."""

from __future__ import annotations

import asyncio
import json

import pytest

from fastapi_env.dataset import load_records, task_service
from fastapi_env.grading.host import GRADER_PRELOAD
from fastapi_env.hidden_service import (
    MAX_BODY,
    MAX_REQUESTS,
    RequestRefused,
    ServiceSession,
    checked_request,
    run_query,
)
from fastapi_env.sandbox.docker import DockerSandbox

BLACKBOX = [r for r in load_records() if r.get("hidden_service")]
MARKER = "hidden-service-marker-6c1f"
ECHO = f'''
import json
SEEN = []  # {MARKER}


def handle(raw):
    head, _, body = raw.partition(b"\\r\\n\\r\\n")
    SEEN.append(head.split(b" ")[1].decode())
    if SEEN[-1] == "/loop":
        while True:
            pass
    if SEEN[-1] == "/crash":
        raise KeyError("secret detail")
    if SEEN[-1] == "/bytes":
        return b"HTTP/1.1 200 OK\\r\\n\\r\\n" + body
    data = json.dumps({{"seen": SEEN, "head": head.decode(), "body": body.decode()}}).encode()
    length = str(len(data)).encode()
    return b"HTTP/1.1 200 OK\\r\\nContent-Length: " + length + b"\\r\\n\\r\\n" + data
'''


def request(target: str, method: str = "GET", headers: str = "", body: str = "",
            base64: bool = False) -> dict:
    return {"method": method, "target": target, "headers": headers, "body": body,
            "body_base64": base64}


def body_of(shown: str) -> dict:
    return json.loads(shown.rpartition("\n\n")[2])


# ------------------------------------------------------------------ no engine needed
@pytest.mark.parametrize("bad, why", [
    (request("/x", method="get"), "upper-case"),
    (request("x"), "start with /"),
    (request("/a b"), "without spaces"),
    (request("/é"), "printable ASCII"),
    (request("/x", headers="X-A: b\nnot a header"), "Name: value"),
    (request("/x", headers="Content-Length: 5"), "set by the tool"),
    (request("/x", headers="Host: elsewhere"), "set by the tool"),
    (request("/x", body="x" * (MAX_BODY + 1)), "at most"),
    (request("/x", body="not base64!", base64=True), "not base64"),
    ("GET /x", "must be an object"),
])
def test_malformed_requests_are_refused_before_anything_is_sent(bad, why):
    with pytest.raises(RequestRefused, match=why):
        checked_request(bad)


def test_a_whole_batch_is_refused_for_one_bad_request():
    session = ServiceSession(box=None, source=ECHO)  # type: ignore[arg-type]  # never reached
    text = asyncio.run(run_query(session, {"restart": False, "requests": [
        request("/fine"), request("/x", method="get")]}))
    assert text.startswith("Error: nothing was sent") and session.log == []
    for args in [{"requests": []}, {"requests": [request("/x")] * (MAX_REQUESTS + 1)},
                 {"requests": "GET /"}, []]:
        assert asyncio.run(run_query(session, args)).startswith("Error:")
    assert asyncio.run(run_query(None, {"requests": [request("/x")], "restart": False})) == (
        "Error: this task has no service to query")


def test_the_service_code_is_in_no_record_the_model_or_a_trace_sees():
    assert BLACKBOX, "no black-box task is shipped"
    for record in BLACKBOX:
        source = task_service(record["id"])
        assert source and "def handle(raw)" in source
        visible = json.dumps(record)
        # its distinctive lines: the route table, a rule, the adapter
        for line in ['("POST", r"/items/([^/]+)/movements", "add_movement")',
                     "needle = q.casefold()", "def handle(raw):"]:
            assert line in source and line not in visible
        assert record["setup_files"] == {}


# ------------------------------------------------------------------ real boxes
async def _ask(session: ServiceSession, *requests: dict, restart: bool = False) -> list[str]:
    text = await run_query(session, {"requests": list(requests), "restart": restart})
    return text.split("\n\n[")


@pytest.mark.docker
def test_state_carries_across_calls_until_a_restart():
    async def main():
        async with DockerSandbox(preload=GRADER_PRELOAD) as box:
            session = ServiceSession(box, ECHO)
            first = await _ask(session, request("/a"), request("/b", "POST", "X-Trace: 7", "hi"))
            assert body_of(first[0])["seen"] == ["/a"]
            sent = body_of(first[1])
            assert sent["seen"] == ["/a", "/b"] and sent["body"] == "hi"
            assert "X-Trace: 7" in sent["head"] and "Content-Length: 2" in sent["head"]
            assert first[0].startswith("[1] GET /a\nHTTP/1.1 200 OK\nContent-Length: ")
            [again] = await _ask(session, request("/c"))
            assert body_of(again)["seen"] == ["/a", "/b", "/c"]
            [fresh] = await _ask(session, request("/d"), restart=True)
            assert body_of(fresh)["seen"] == ["/d"] and session.requests_sent == 4
            # bytes that are not UTF-8 travel both ways, as base64
            [raw] = await _ask(session, request("/bytes", "POST", body="//5B", base64=True))
            assert raw.endswith("(the body is not UTF-8; its base64:)\n//5B")
    asyncio.run(main())


@pytest.mark.docker
def test_a_hanging_or_crashing_service_is_the_models_tool_message():
    async def main():
        async with DockerSandbox(preload=GRADER_PRELOAD) as box:
            session = ServiceSession(box, ECHO)
            crashed, after = await _ask(session, request("/crash"), request("/after"))
            assert "(no response: the service closed the connection without answering)" in crashed
            assert "secret detail" not in crashed and body_of(after)["seen"][-1] == "/after"
            kept = list(session.log)
            ok, hung, skipped = await _ask(session, request("/e"), request("/loop"),
                                           request("/f"))
            assert body_of(ok)["seen"][-1] == "/e"
            assert "no answer within" in hung and "no answer within" in skipped
            assert session.log == [*kept, checked_request(request("/e"))]  # /loop not kept
            [later] = await _ask(session, request("/g"))  # the next call works, state intact
            assert body_of(later)["seen"] == ["/crash", "/after", "/e", "/g"]
    asyncio.run(main())


async def processes(box: DockerSandbox) -> set[str]:
    """Every process of the box but the ones listing them: pid and command line."""
    listing = await box.exec(["python3", "-c", (
        "import os\nfor p in os.listdir('/proc'):\n"
        "    if p.isdigit() and int(p) not in (os.getpid(), os.getppid()):\n"
        "        print(p, open(f'/proc/{p}/cmdline', 'rb').read())")], user="0:0")
    return set(listing.stdout.splitlines())


@pytest.mark.docker
def test_the_service_leaves_nothing_in_the_box():
    """No file holds its code and no process of it outlives a call."""
    async def main():
        async with DockerSandbox(preload=GRADER_PRELOAD) as box:
            session = ServiceSession(box, ECHO)
            before = await processes(box)
            await _ask(session, request("/a"))
            everywhere = ["grep", "-rlI", MARKER, "/", *(f"--exclude-dir={d}" for d in
                                                        ("proc", "sys", "dev", "workspace"))]
            for argv, user in [(everywhere, "0:0"), (["grep", "-rlI", MARKER, "/workspace"],
                                                     None)]:  # root may not read /workspace
                found = await box.exec(argv, user=user, timeout=60)
                assert (found.exit_code, found.stdout, found.stderr) == (1, "", "")
            assert await processes(box) == before
    asyncio.run(main())


@pytest.mark.docker
@pytest.mark.parametrize("record", BLACKBOX[:1], ids=lambda r: r["id"])
def test_the_shipped_service_answers_its_first_result_row(record):
    from fastapi_env.dataset import answer_key
    from fastapi_env.policy_server import answered, ask_first_row
    from fastapi_env.tasks import load_tasks

    [task] = [t for t in load_tasks(only_families={record["family"]}) if t.id == record["id"]]

    async def main():
        async with DockerSandbox(preload=GRADER_PRELOAD) as box:
            session = ServiceSession(box, task.service)
            text = await run_query(session, ask_first_row(task)[1])
            assert answered(answer_key(task.id).rows[0], [{"role": "tool", "content": text}])
    asyncio.run(main())


def test_the_reference_policy_tells_a_right_answer_from_a_wrong_one():
    """Its check is what makes an e2e 1.0 prove the tool answered (else it writes a module
    that does not parse)."""
    from fastapi_env.policy_server import answered

    row = [201, {"sku": "AB-1"}, "/items/AB-1"]
    right = "[1] POST /items\nHTTP/1.1 201 Created\nLocation: /items/AB-1\n\n{\"sku\": \"AB-1\"}"
    assert answered(row, [{"role": "tool", "content": right}])
    for wrong in [right.replace("201 Created", "409 Conflict"), right.replace("AB-1\n", "AB-2\n"),
                  right.replace('"AB-1"}', '"AB-2"}'), "Error: this task has no service to query"]:
        assert not answered(row, [{"role": "tool", "content": wrong}]), wrong


def test_a_box_outlives_every_turn_a_long_rollout_may_take():
    """Black-box tasks run with dozens of turns: the box's own lifetime cap (a stop the model
    did not cause, graded as a scoring error) must not come first."""
    from fastapi_env.sandbox.base import Limits, rollout_lifetime

    assert rollout_lifetime(5, 30, 60) == Limits.lifetime_s  # the default rollout: unchanged
    assert rollout_lifetime(40, 30, 60) >= 40 * (3 * 30 + 180) + 60


def test_too_few_turns_for_a_blackbox_task_is_said(caplog):
    from fastapi_env.hidden_service import warn_if_few_turns

    with caplog.at_level("WARNING"):
        warn_if_few_turns(BLACKBOX[:2], 5)
        warn_if_few_turns(BLACKBOX[:2], 40)
        warn_if_few_turns([{"id": "basic", "hidden_service": False}], 5)
    [record] = caplog.records
    assert "2 black-box task(s) selected with max_turns=5" in record.getMessage()
