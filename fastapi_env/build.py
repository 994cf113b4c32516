"""Rebuild answer keys from the reference solutions, and verify every task.

The key of a task is what its reference produces through the real grader: its ``result`` rows
and each hidden probe's rows. ``verify_task`` checks everything the issue of record asks: the
reference runs and is deterministic across two fresh processes, its rows are plain JSON that
survive a round trip, it scores 1.0, every trap and every negative control scores 0, and
hand-written rows (where given) agree.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field, replace
from typing import Any

from fastapi_env.compare import compare
from fastapi_env.grading.host import AnswerKey, probe_verdicts, score
from fastapi_env.grading.runners import Runner
from fastapi_env.tasks import FamilyError, Task

CATCH_ALL = """\
import json
from fastapi import FastAPI

app = FastAPI()


@app.api_route("/{path:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"])
def anything(path: str):
    return {}


result = json.loads({rows!r})
"""


def negative_controls(visible_rows: list[list[Any]], *, all_of_them: bool = True) -> dict[str, str]:
    """Solutions that must score 0 on every task. The catch-all one carries the right rows, so
    only the hidden probes can fail it; it runs on every instance, the others (which fail
    before any probe runs) on each family's original instance. A task with setup files adds
    one more: its workspace left untouched (see ``verify_task``)."""
    catch_all = CATCH_ALL.replace("{rows!r}", repr(json.dumps(visible_rows)))
    if not all_of_them:
        return {"catch-all app with the visible rows": catch_all}
    return {
        "empty module": "",
        "no app": f"import json\nresult = json.loads({json.dumps(visible_rows)!r})\n",
        "syntax error": "def broken(:\n    pass\n",
        "catch-all app with the visible rows": catch_all,
    }


def requirement_problems(task: Task, key: AnswerKey | None) -> list[str]:
    """Each requirement names probes the key has and at least one trap; every probe checks
    some requirement. A module without requirements is not converted to a family yet."""
    if not task.requirements:
        return [] if not task.edits else ["traps without requirements"]
    problems = tier_problems(task)
    named: set[str] = set()
    for number, req in enumerate(task.requirements, 1):
        if not req.probes:
            problems.append(f"requirement {number} ({req.text[:50]!r}) names no probe")
        if not req.traps:
            problems.append(f"requirement {number} ({req.text[:50]!r}) has no trap")
        named.update(req.probes)
        if key is not None:
            for probe in set(req.probes) - set(key.probes):
                problems.append(f"requirement {number} names {probe}, which the probes lack")
    if key is not None:
        for probe in sorted(set(key.probes) - named):
            problems.append(f"{probe} checks no requirement")
    return problems


def tier_problems(task: Task) -> list[str]:
    """What a tier asks of its tasks beyond any family's requirements."""
    problems = []
    if task.tier == "security" and not task.security_probes():
        problems.append("a security-tier task states no security requirement")
    if task.tier == "repair" and not task.setup_files:
        problems.append("a repair-tier task writes no setup files into /workspace")
    if (task.tier == "blackbox") != bool(task.service):
        problems.append("a blackbox-tier task, and only one, has a hidden service")
    if task.service and not task.alternatives:
        problems.append("a hidden service needs a positive control (an alternative that runs "
                        "it) to prove the key is what it answers")
    return problems


@dataclass
class TaskReport:
    task: Task
    problems: list[str] = field(default_factory=list)
    key: AnswerKey | None = None
    seconds: float = 0.0
    # Per edit-trap: the numbers (1-based) of the requirements other than its own that it fails.
    # Empty: the trap breaks only its own requirement, as the format asks where possible.
    trap_spill: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def requirements_met(task: Task, key: AnswerKey, outcome: dict) -> list[bool]:
    """Per requirement of ``task``: did every one of its probes match?"""
    report = outcome.get("report")
    matched = probe_verdicts(report, key)[0] if isinstance(report, dict) else set()
    return [set(r.probes) <= matched for r in task.requirements]


def trap_owners(task: Task, trap: str) -> list[int]:
    """The numbers (1-based) of the requirements a trap belongs to."""
    return [n for n, r in enumerate(task.requirements, 1) if trap in r.traps]


def last_probe_of(task: Task, key: AnswerKey, owners: list[int]) -> str | None:
    """The last probe, in the order they run (the key keeps it), of the given requirements."""
    theirs = {p for n in owners for p in task.requirements[n - 1].probes}
    return next((p for p in reversed(list(key.probes)) if p in theirs), None)


def trap_target_problems(
    task: Task, report: TaskReport, trap: str, owners: list[int], outcome: dict, *,
    record_spill: bool,
) -> list[str]:
    """A trap must fail a probe of the requirement it belongs to: a trap caught only by another
    requirement's probes (or only by the visible rows) proves nothing about its own, and under
    partial credit that requirement would count as met by an app that violates it. With
    ``record_spill`` (every probe ran), records in ``report.trap_spill`` which other
    requirements it fails too."""
    if not owners or report.key is None:
        return []
    met = requirements_met(task, report.key, outcome)
    if record_spill:
        report.trap_spill[trap] = tuple(
            n for n, ok in enumerate(met, 1) if not ok and n not in owners
        )
    if all(met[n - 1] for n in owners):
        text = task.requirements[owners[0] - 1].text
        return [f"trap {trap!r} passes every probe of its own requirement ({text[:60]!r})"]
    return []


def key_from_outcome(outcome: dict) -> tuple[AnswerKey | None, str | None]:
    """The answer key a reference run yields, or why it yields none."""
    report = outcome.get("report")
    if outcome.get("harness_error"):
        return None, f"grader crashed: {outcome['harness_error']}"
    if not isinstance(report, dict):
        return None, f"reference failed: {outcome.get('failure')}: {outcome.get('detail')}"
    if report.get("failure"):
        return None, f"reference failed: {report['failure']}: {report.get('detail')}"
    probes = {}
    for name, got in (report.get("probes") or {}).items():
        if "rows" not in got:
            return None, f"reference fails hidden probe {name}: {got.get('error')}"
        probes[name] = got["rows"]
    return AnswerKey(rows=report["result"], probes=probes), None


def check_key_shape(key: AnswerKey) -> list[str]:
    problems = []
    for where, rows in [("result", key.rows), *key.probes.items()]:
        if not rows or not all(isinstance(r, list) and r for r in rows):
            problems.append(f"{where}: rows must be a non-empty list of non-empty rows")
            continue
        round_trip = json.loads(json.dumps(rows, allow_nan=False))
        if not compare(round_trip, rows).ok:
            problems.append(f"{where}: rows do not survive a JSON round trip exactly")
    if not key.probes:
        problems.append("no hidden probe produced rows")
    return problems


def keys_equal(a: AnswerKey, b: AnswerKey) -> str | None:
    verdict = compare(b.rows, a.rows)
    if not verdict.ok:
        return f"result differs between two runs: {verdict.reason}"
    if set(a.probes) != set(b.probes):
        return "the set of probes differs between two runs"
    for name in a.probes:
        verdict = compare(b.probes[name], a.probes[name])
        if not verdict.ok:
            return f"probe {name} differs between two runs: {verdict.reason}"
    return None


async def build_key(task: Task, run: Runner, timeout: float) -> tuple[AnswerKey | None, str | None]:
    key, problem = key_from_outcome(await run(task.reference_workspace(), task.probes, timeout))
    if key is None:
        return None, problem
    groups, security = task.requirement_groups(), task.security_probes()
    return replace(key, requirements=groups, security=security), None


async def verify_task(
    task: Task, run: Runner, timeout: float = 60, *, full: bool = True, spill: bool = False
) -> TaskReport:
    """Everything above; with ``full=False`` only the key (one reference run, its shape, the
    requirements' probes) and that every trap edit still applies, for instances whose family is
    fully verified on a sample of others.

    A trap belonging to a requirement is graded on the probes up to that requirement's last one
    (they run in source order, so each sees the state it sees in a full grading): failing one of
    them is what a trap must do, and it already makes the reward 0. With ``spill`` every trap
    runs every probe, to record which other requirements it breaks (``report.trap_spill``)."""
    started = time.monotonic()
    report = TaskReport(task)
    report.key, problem = await build_key(task, run, timeout)
    if problem:
        report.problems.append(problem)
        report.problems += requirement_problems(task, None)
    elif not full:
        report.problems += check_key_shape(report.key) + requirement_problems(task, report.key)
        try:
            task.trap_workspaces()  # every edit, on its own file, still applies
        except FamilyError as exc:
            report.problems.append(str(exc))
    else:
        report.problems += check_key_shape(report.key)
        second = await run(task.reference_workspace(), task.probes, timeout)
        again, problem = key_from_outcome(second)
        problem = problem or keys_equal(report.key, again)
        if problem:
            report.problems.append(f"nondeterministic reference: {problem}")
        grade = score(second, report.key)
        if grade.reward != 1.0:
            report.problems.append(f"reference scores {grade.reward}: {grade.reason}")
        if task.expected_rows is not None:
            verdict = compare(report.key.rows, task.expected_rows)
            if not verdict.ok:
                report.problems.append(f"hand-written rows disagree: {verdict.reason}")
        report.problems += requirement_problems(task, report.key)
        for name, source in task.alternatives.items():  # positive controls: each must score 1
            grade = score(await run(task.workspace(source), task.probes, timeout), report.key)
            if grade.scoring_error or grade.reward != 1.0:
                report.problems.append(f"alternative {name!r} scores {grade.reward}: "
                                       f"{grade.scoring_error or grade.reason}")
        try:
            wrong = {f"trap {n!r}": s for n, s in task.trap_workspaces().items()}
        except FamilyError as exc:
            report.problems.append(str(exc))
            wrong = {}
        controls = negative_controls(report.key.rows, all_of_them=task.original)
        wrong |= {f"control {n!r}": task.workspace(s) for n, s in controls.items()}
        if task.setup_files:  # the model did nothing: the planted bugs must still cost
            wrong["control 'untouched setup files'"] = task.workspace(None)
        for name, source in wrong.items():
            trap = name[6:-1] if name.startswith("trap ") else None
            owners = trap_owners(task, trap) if trap else []
            stop_after = None if spill or not owners else last_probe_of(task, report.key, owners)
            outcome = await run(source, task.probes, timeout, stop_after=stop_after)
            grade = score(outcome, report.key)
            if grade.scoring_error:
                report.problems.append(f"{name}: harness error: {grade.scoring_error}")
            elif grade.reward != 0.0:
                report.problems.append(f"{name} scores {grade.reward} (must be 0)")
            elif trap:
                report.problems += trap_target_problems(
                    task, report, trap, owners, outcome, record_spill=spill
                )
    report.seconds = time.monotonic() - started
    return report
