"""Grading on the host: drive the in-container grader through a sandbox, then compare.

One grading path for every caller (the verifiers bindings, ``build_tasks.py --verify``, the
benchmarks). The answer key stays here: the container receives only the probes' source.

Who is to blame when something goes wrong:

* the runner's report (import error, timeout, missing ``app``/``result``, non-JSON rows, a probe
  that raised) is the model's: reward 0 with the reason;
* no frame from the supervisor while the box still answers means the solution got at it (e.g.
  exhausted the box's memory): also the model's; so is a frame past the limits the supervisor
  keeps (``decode_frame``: size, depth, count), which only a report it rejected could cause;
* an exception in the supervisor, a box that no longer answers, or an engine error is the
  harness's: ``scoring_error`` is set and the reward must not be used for training.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from fastapi_env.compare import compare, validate_expected
from fastapi_env.grading.in_container import READY, NotJSON, decode_frame
from fastapi_env.sandbox.base import WORKSPACE, Sandbox, SandboxError

GRADER_SOURCE = (Path(__file__).parent / "in_container.py").read_text()
# What a sandbox's init should preload so the grader forks warm (see sandbox/init.py): FastAPI's
# test client, and what FastAPI and the test client import lazily at the first route and the
# first request (about 0.1 s of CPU; found by listing the modules a grading adds).
GRADER_PRELOAD = ("fastapi.testclient", "pydantic.v1", "anyio._backends._asyncio", "queue")


@dataclass(frozen=True)
class AnswerKey:
    """What the reference produced: its ``result`` rows and each probe's rows; and, from the
    task, each requirement's probes (the unit of partial credit) and the probes of its
    security requirements."""

    rows: list[list[Any]]
    probes: dict[str, list[list[Any]]]
    requirements: tuple[tuple[str, ...], ...] = ()
    security: tuple[str, ...] = ()


@dataclass(frozen=True)
class Grade:
    reward: float
    rows_matched: bool
    rows_fraction: float
    probes_matched: bool
    probes_fraction: float
    imported: bool
    reason: str
    scoring_error: str | None = None
    seconds: float = 0.0  # host wall time of the grading (score() alone leaves the runner's)
    # The result rows and each requirement count one each; a requirement is met when all its
    # probes match. Tasks without requirements: the mean of the rows and probes fractions.
    requirements_fraction: float = 0.0
    # The app imported and every probe of every security requirement matched (vacuously true
    # for a task without security requirements once its app imports).
    security_ok: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def harness_failure(reason: str) -> Grade:
    return Grade(0.0, False, 0.0, False, 0.0, False, reason, scoring_error=reason)


def out_of_memory() -> Grade:
    """The box died because its processes exhausted its memory: only the model's code can."""
    reason = "the sandbox ran out of memory and died: the solution's processes exhausted it"
    return Grade(0.0, False, 0.0, False, 0.0, False, reason)


def build_job(probes: str, *, workspace: str, timeout: float, kill_leftovers: bool,
              model_ids: list[int] | None = None,
              stop_after: str | None = None) -> tuple[dict, str]:
    """The grader's job (its first line of stdin) and the nonce (its second line, sent apart:
    see ``run_grader``)."""
    job = {
        "source": GRADER_SOURCE,
        "workspace": workspace,
        "probes": probes,
        "timeout": timeout,
        "kill_leftovers": kill_leftovers,
        "model_ids": model_ids,
        "stop_after": stop_after,
    }
    return job, secrets.token_hex(16)


def grader_stdin(job: dict) -> bytes:
    return json.dumps(job).encode() + b"\n"


def parse_frame(stdout: str, nonce: str) -> dict | None:
    """Return the supervisor's outcome, or None when no frame with this nonce is present. A
    frame past the supervisor's own limits is the model's failure (``bad_frame``)."""
    prefix = nonce + ":"
    for line in reversed(stdout.splitlines()):
        if line.startswith(prefix):
            try:
                return decode_frame(line[len(prefix) :])
            except NotJSON as exc:
                return {"report": None, "failure": "bad_frame", "detail": str(exc)}
    return None


def _fraction(hits: int, total: int) -> float:
    return hits / total if total else 1.0


def _rows_fraction(actual: Any, expected: list[list[Any]]) -> float:
    if not isinstance(actual, list):
        return 0.0
    hits = sum(compare([a], [e]).ok for a, e in zip(actual, expected, strict=False))
    return hits / max(len(actual), len(expected), 1)


def probe_verdicts(report: dict, key: AnswerKey) -> tuple[set[str], list[str]]:
    """The probes of ``key`` whose rows the runner's report matches, and why each other failed."""
    probe_reports = report.get("probes") if isinstance(report.get("probes"), dict) else {}
    matched: set[str] = set()
    reasons = []
    for name, expected in key.probes.items():
        got = probe_reports.get(name)
        if not isinstance(got, dict) or "rows" not in got:
            error = got.get("error", "missing") if isinstance(got, dict) else "missing"
            reasons.append(f"hidden probe {name} failed: {str(error)[-300:]}")
            continue
        verdict = compare(got["rows"], expected)
        if verdict.ok:
            matched.add(name)
        else:
            reasons.append(f"hidden probe {name}: {verdict.reason}")
    return matched, reasons


def score(outcome: dict, key: AnswerKey) -> Grade:
    """Turn the supervisor's outcome into a Grade by comparing with the answer key."""
    problem = validate_expected(key.rows) or next(
        (p for p in map(validate_expected, key.probes.values()) if p), None
    )
    if problem:
        return harness_failure(f"malformed answer key: {problem}")
    if outcome.get("harness_error"):
        return harness_failure(f"grader crashed: {outcome['harness_error']}")
    seconds = float(outcome.get("seconds") or 0.0)
    report = outcome.get("report")
    if not isinstance(report, dict):
        reason = f"{outcome.get('failure')}: {outcome.get('detail')}"
        return Grade(0.0, False, 0.0, False, 0.0, False, reason, seconds=seconds)

    reasons = []
    if report.get("failure"):
        reasons.append(f"{report['failure']}: {report.get('detail', '')}")
    actual_rows = report.get("result")
    rows_verdict = compare(actual_rows, key.rows)
    if not rows_verdict.ok and not report.get("failure"):
        reasons.append(f"result: {rows_verdict.reason}")

    matched, probe_reasons = probe_verdicts(report, key)
    reasons += probe_reasons
    probe_hits = len(matched)

    rows_fraction = _rows_fraction(actual_rows, key.rows) if not rows_verdict.ok else 1.0
    probes_fraction = _fraction(probe_hits, len(key.probes))
    probes_matched = probe_hits == len(key.probes)
    if key.requirements:
        units = [rows_verdict.ok] + [set(group) <= matched for group in key.requirements]
        requirements_fraction = sum(units) / len(units)
    else:
        requirements_fraction = (rows_fraction + probes_fraction) / 2
    reward = 1.0 if rows_verdict.ok and probes_matched else 0.0
    return Grade(
        reward=reward,
        rows_matched=rows_verdict.ok,
        rows_fraction=rows_fraction,
        probes_matched=probes_matched,
        probes_fraction=probes_fraction,
        imported=bool(report.get("imported")),
        reason="; ".join(reasons) if reasons else "all rows and hidden probes match",
        seconds=seconds,
        requirements_fraction=requirements_fraction,
        security_ok=bool(report.get("imported")) and set(key.security) <= matched,
    )


async def run_grader(sandbox: Sandbox, probes: str, *, timeout: float,
                     stop_after: str | None = None) -> dict:
    """Run the in-container grader once; return its outcome, or raise SandboxError. With
    ``stop_after`` (a probe's name) no probe after that one runs: for verifying traps."""
    if not await sandbox.is_alive():
        raise SandboxError("the sandbox is not running (stopped or paused) at grading")
    await sandbox.kill_model_processes()  # the model's background processes end with its turns
    model_ids = list(sandbox.model_ids)  # the box's own model uid, which the runner drops to
    job, nonce = build_job(probes, workspace=WORKSPACE, timeout=timeout, kill_leftovers=True,
                           model_ids=model_ids, stop_after=stop_after)
    result = await sandbox.run_python(
        GRADER_SOURCE,
        stdin=grader_stdin(job),
        timeout=timeout + 15,
        output_limit=16 * 1024 * 1024,
        privileged=True,  # the supervisor: out of the model's reach; its runner drops to it
        late_stdin=(READY.encode(), nonce.encode() + b"\n"),  # after the runner is forked
    )
    outcome = parse_frame(result.stdout, nonce)
    if outcome is not None:
        return outcome
    if not await sandbox.is_alive():
        raise SandboxError(f"the sandbox died during grading (exit code {result.exit_code})")
    what = "timed out" if result.timed_out else f"ended with exit code {result.exit_code}"
    return {
        "report": None,
        "failure": "grader_killed",
        "detail": f"the grader {what} without a report: the solution interfered with it",
    }


async def grade(sandbox: Sandbox, probes: str, key: AnswerKey, *, timeout: float = 60) -> Grade:
    """Grade whatever the model left in the sandbox's workspace. Never raises."""
    started = time.monotonic()
    try:
        outcome = await run_grader(sandbox, probes, timeout=timeout)
        return dataclasses.replace(score(outcome, key), seconds=time.monotonic() - started)
    except SandboxError as exc:
        if await sandbox.died_of_oom():
            return out_of_memory()
        return harness_failure(f"sandbox error during grading: {exc}")
    except Exception as exc:  # a bug of ours must not pass as the model's zero
        return harness_failure(f"grading crashed: {type(exc).__name__}: {exc}")
