"""The grader end to end in real containers: who gets blamed, and what scores what."""

from __future__ import annotations

import ast
import asyncio
import dataclasses

import pytest

from fastapi_env.build import negative_controls, verify_task
from fastapi_env.grading import in_container as ic
from fastapi_env.grading.host import (
    GRADER_PRELOAD,
    AnswerKey,
    Grade,
    grade,
    out_of_memory,
    parse_frame,
    run_grader,
    score,
)
from fastapi_env.grading.runners import (
    RenewingRunner,
    add_to_workspace,
    replace_workspace,
    sandbox_runner,
)
from fastapi_env.sandbox.docker import DockerSandbox
from fastapi_env.tasks import load_tasks

TASK = next(
    t
    for t in load_tasks({"responses"})
    if t.family_id == "responses/response_model_filtering" and t.original
)


def grade_solutions(solutions: dict[str, str | None], task=TASK, timeout: float = 20,
                    preload: tuple[str, ...] = GRADER_PRELOAD) -> dict:
    """Grade each solution in one fresh sandbox per solution, against the reference's key.
    With ``preload`` the runner forks from the sandbox's warm init, as in the environment."""

    async def one(source: str | None) -> Grade:
        async with DockerSandbox(preload=preload) as box:
            run = sandbox_runner(box)
            key_outcome = await run(task.reference, task.probes, timeout)
            report = key_outcome["report"]
            assert report is not None, key_outcome
            key = AnswerKey(report["result"], {n: p["rows"] for n, p in report["probes"].items()})
            if source is not None:
                await box.exec(["find", "/workspace", "-mindepth", "1", "-delete"])
                await box.write_file("/workspace/solution.py", source)
            return await grade(box, task.probes, key, timeout=timeout)

    async def all_of_them():
        grades = await asyncio.gather(*(one(s) for s in solutions.values()))
        return dict(zip(solutions, grades, strict=True))

    return asyncio.run(all_of_them())


# ----------------------------------------------------------------- unit (no Docker)
def test_parse_frame_needs_the_nonce():
    assert parse_frame('noise\nabc:{"x": 1}\n', "abc") == {"x": 1}
    assert parse_frame('xyz:{"x": 1}\n', "abc") is None
    assert parse_frame("abc:not json\n", "abc")["failure"] == "bad_frame"


@pytest.mark.parametrize("frame", [
    "[" * 100_000 + "]" * 100_000,  # too deep for the parser
    '{"report": ' + "[" * 900 + "]" * 900 + "}",  # parses, but past the shared depth
    '{"report": [' + "0," * (ic.FRAME_MAX_ITEMS + 10) + "0]}",  # past the count
    '{"report": "' + "x" * ic.FRAME_MAX_BYTES + '"}',  # past the size
    '{"report": NaN}',
    '["not", "an object"]',
])
def test_a_frame_past_the_shared_limits_is_the_models_failure(frame):
    outcome = parse_frame(f"abc:{frame}\n", "abc")
    assert outcome["failure"] == "bad_frame" and outcome["report"] is None, outcome


def test_what_the_supervisor_encodes_the_host_decodes_with_the_same_limits():
    rows = [[[[1, "x"]] * 3]] * 50
    outcome = {"report": {"result": rows, "probes": {"probe_a": {"rows": rows}}},
               "failure": None, "detail": "", "seconds": 0.1, "harness_error": None}
    assert ic.decode_frame(ic.encode_frame(outcome)) == outcome
    deep: list = []
    for _ in range(ic.FRAME_MAX_DEPTH):
        deep = [deep]
    with pytest.raises(ic.NotJSON):
        ic.encode_frame({"report": {"result": deep}})
    with pytest.raises(ic.NotJSON):  # the runner's report: bounded before it is parsed
        ic.parse_json(b"[" * 200_000, "report", ic.MAX_REPORT_BYTES, ic.FRAME_MAX_DEPTH,
                      ic.FRAME_MAX_ITEMS)


def test_score_blames_the_harness_only_for_its_own_failures():
    key = AnswerKey([[1]], {"probe_a": [[2]]})
    crashed = score({"harness_error": "Traceback ..."}, key)
    assert crashed.scoring_error and crashed.reward == 0.0
    timeout = score({"report": None, "failure": "timeout", "detail": "slow"}, key)
    assert timeout.scoring_error is None and timeout.reward == 0.0
    good = {"report": {"imported": True, "result": [[1]], "probes": {"probe_a": {"rows": [[2]]}}}}
    assert score(good, key).reward == 1.0
    wrong_type = {
        "report": {"imported": True, "result": [[True]], "probes": {"probe_a": {"rows": [[2]]}}}
    }
    assert score(wrong_type, key).reward == 0.0
    probe_fails = {
        "report": {"imported": True, "result": [[1]], "probes": {"probe_a": {"error": "boom"}}}
    }
    verdict = score(probe_fails, key)
    assert (verdict.reward, verdict.rows_matched, verdict.probes_fraction) == (0.0, True, 0.0)
    malformed_key = score(good, AnswerKey([[float("nan")]], {}))
    assert malformed_key.scoring_error and "answer key" in malformed_key.scoring_error


class DeadOfOOM:
    """A sandbox whose container died of memory exhaustion (a unit-test double)."""

    async def is_alive(self) -> bool:
        return False

    async def died_of_oom(self) -> bool:
        return True


def test_a_box_killed_by_the_solutions_memory_use_is_the_models_failure():
    verdict = asyncio.run(grade(DeadOfOOM(), "", AnswerKey([[1]], {})))
    assert verdict == dataclasses.replace(out_of_memory(), seconds=verdict.seconds)
    assert verdict.scoring_error is None and verdict.reward == 0.0


# ----------------------------------------------------------------- real containers
WRONG = {
    "import error": "import does_not_exist\n",
    "timeout at import": "import time\ntime.sleep(600)\n",
    "missing result": "from fastapi import FastAPI\napp = FastAPI()\n",
    "nan in result": TASK.reference + "\nresult = [[float('nan')]]\n",
    "generator result": TASK.reference + "\nresult = (row for row in result)\n",
    "tuple rows": TASK.reference + "\nresult = [tuple(r) for r in result]\n",
    "fake frame": "import sys\nprint('\\ndeadbeef:{\"report\": null}')\nsys.exit(0)\n",
    "kills the supervisor": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n",
    "exits early with success": TASK.reference + "\nimport os\nos._exit(0)\n",
    "monkeypatches json": TASK.reference + "\nimport json\njson.dumps = lambda *a, **k: '{}'\n",
}


@pytest.mark.docker
def test_reference_scores_one_and_prints_do_not_matter():
    noisy = "print('x' * 5_000_000)\nimport sys\nsys.stderr.write('y' * 100000)\n" + TASK.reference
    grades = grade_solutions({"reference": TASK.reference, "noisy reference": noisy})
    for name, verdict in grades.items():
        assert verdict.reward == 1.0, (name, verdict.reason)
        assert verdict.scoring_error is None


@pytest.mark.docker
def test_model_failures_score_zero_without_blaming_the_harness():
    grades = grade_solutions(WRONG)
    for name, verdict in grades.items():
        assert verdict.reward == 0.0, (name, verdict)
        assert verdict.scoring_error is None, (name, verdict.scoring_error)
    assert "import_error" in grades["import error"].reason
    assert "timeout" in grades["timeout at import"].reason
    assert "missing_result" in grades["missing result"].reason
    assert "nan" in grades["nan in result"].reason.lower()
    assert "generator" in grades["generator result"].reason
    assert grades["import error"].imported is False


@pytest.mark.docker
def test_warm_and_fresh_runners_grade_alike():
    solutions = {"reference": TASK.reference, **TASK.trap_sources(),
                 "import error": WRONG["import error"], "nan in result": WRONG["nan in result"]}
    # a generous limit: all of them grade at once, and a fresh runner imports FastAPI itself
    # (under load a timeout would compare a timeout with a verdict)
    warm = grade_solutions(solutions, timeout=60)
    fresh = grade_solutions(solutions, preload=(), timeout=60)
    for name in solutions:
        assert (warm[name].reward, warm[name].reason) == (fresh[name].reward, fresh[name].reason)


@pytest.mark.docker
def test_the_runner_starts_as_a_fresh_interpreter_would():
    """The runner is forked from the init, not started fresh: the solution must not see it (a
    SIGPIPE left at its default once killed TestClient's threads at random)."""
    setup = ("[str(signal.getsignal(s)) for s in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT,"
             " signal.SIGUSR1, signal.SIGCHLD)] + [os.getsid(0) == os.getpid()]"
             " + [gc.isenabled(), list(gc.get_threshold())]")  # the preload pauses the GC
    solution = TASK.reference + f"\nimport gc, os, signal\nresult = [{setup}]\n"

    async def body():
        async with DockerSandbox(preload=GRADER_PRELOAD) as box:
            probe = f"import gc, os, signal; print({setup})"
            fresh = await box.exec(["python3", "-I", "-c", probe])
            await box.write_file("/workspace/solution.py", solution)
            return fresh, await run_grader(box, TASK.probes, timeout=20)

    fresh, outcome = asyncio.run(body())
    assert outcome["report"]["result"] == [ast.literal_eval(fresh.stdout)], outcome


@pytest.mark.docker
def test_traps_and_controls_score_zero():
    solutions = TASK.trap_sources() | negative_controls(TASK.expected_rows)
    for name, verdict in grade_solutions(solutions).items():
        assert verdict.reward == 0.0, (name, verdict.reason)
        assert verdict.scoring_error is None, name


@pytest.mark.docker
def test_a_dead_sandbox_is_a_scoring_error_not_a_zero():
    async def body() -> Grade:
        box = DockerSandbox()
        await box.start()
        await box.write_file("/workspace/solution.py", TASK.reference)
        await box.stop()  # the container dies before grading
        return await grade(box, TASK.probes, AnswerKey([[1]], {}))

    verdict = asyncio.run(body())
    assert verdict.reward == 0.0 and verdict.scoring_error


@pytest.mark.docker
def test_verify_rejects_deliberately_broken_tasks():
    nondeterministic = dataclasses.replace(
        TASK,
        id="responses/broken_nondeterministic",
        reference=TASK.reference + "\nimport random\nresult.append([random.random()])\n",
    )
    passing_trap = dataclasses.replace(
        TASK, id="responses/broken_trap", traps={"same as reference": TASK.reference}
    )
    not_json = dataclasses.replace(
        TASK,
        id="responses/broken_rows",
        reference=TASK.reference + "\nresult = [[{1, 2}]]\n",
        expected_rows=None,
    )
    wrong_alternative = dataclasses.replace(  # a positive control that is not correct
        TASK, id="responses/broken_alternative",
        alternatives={"no routes": "from fastapi import FastAPI\napp = FastAPI()\nresult = []\n"},
    )

    async def body():
        async with DockerSandbox() as box:
            run = sandbox_runner(box)
            return [
                await verify_task(t, run, 20)
                for t in (nondeterministic, passing_trap, not_json, wrong_alternative)
            ]

    reports = asyncio.run(body())
    problems = ["\n".join(r.problems) for r in reports]
    assert "nondeterministic reference" in problems[0]
    assert "trap 'same as reference' scores 1.0" in problems[1]
    assert "bad_result" in problems[2] and "set is not a JSON value" in problems[2]
    assert "alternative 'no routes' scores 0.0" in problems[3]
    assert all(not r.ok for r in reports)


@pytest.mark.docker
def test_workspace_files_are_written_in_one_command_as_the_models_user():
    """A repair task's setup files reach a box in one exec (`add_to_workspace`, beside what is
    there); a grading replaces the workspace (`replace_workspace`, nothing of before left).
    Either way the files are the model's to edit, parents included."""
    setup = {"market/__init__.py": "", "market/routers/main.py": "X = 'é'\n", "solution.py": "1\n"}

    async def body():
        async with DockerSandbox() as box:
            await box.write_file("/workspace/notes.txt", "mine\n")
            await add_to_workspace(box, setup)
            await add_to_workspace(box, {})
            listed = (await box.exec(["sh", "-c", "cd /workspace && find . -type f | sort"])).stdout
            owners = (await box.exec(["sh", "-c", "stat -c %U /workspace/market/routers "
                                      "/workspace/market/routers/main.py | sort -u"])).stdout
            text = await box.read_file("/workspace/market/routers/main.py")
            await box.exec(["sh", "-c", "echo ok >> /workspace/market/routers/main.py"])
            edited = await box.read_file("/workspace/market/routers/main.py")
            await replace_workspace(box, {"solution.py": "2\n"})
            after = (await box.exec(["sh", "-c", "cd /workspace && find . | sort"])).stdout
            user = (await box.exec(["whoami"])).stdout
            return listed, owners, text, edited, after, user

    listed, owners, text, edited, after, user = asyncio.run(body())
    assert listed.split() == ["./market/__init__.py", "./market/routers/main.py", "./notes.txt",
                              "./solution.py"]
    assert owners.split() == [user.strip()]
    assert text.decode() == "X = 'é'\n" and edited.decode().endswith("ok\n")
    assert after.split() == [".", "./solution.py"]


@pytest.mark.docker
def test_a_verify_runner_renews_its_box_before_the_box_lifetime_ends():
    """A box stops itself at Limits.lifetime_s; a verify run outlasts that, so its runner
    starts a fresh box once the next grading could cross the line (here: at once, the
    lifetime being short), and grades on it as before."""
    from fastapi_env.sandbox import Limits

    short = Limits(lifetime_s=int(RenewingRunner.MARGIN_S + 30))

    async def main():
        runner = RenewingRunner(lambda: DockerSandbox(limits=short, preload=GRADER_PRELOAD))
        try:
            first = await runner(TASK.reference, TASK.probes, 20)
            old = runner.box
            await asyncio.sleep(12)  # 12 s of age + 20 s of timeout + the margin: past 150 s
            second = await runner(TASK.reference, TASK.probes, 20)
            assert runner.renewals == 1 and runner.box is not old
            assert not await old.is_alive()
            assert first["report"]["result"] == second["report"]["result"] is not None
        finally:
            await runner.close()

    asyncio.run(main())
