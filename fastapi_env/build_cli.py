"""Orchestration for ``build_tasks.py``: a few long-lived sandboxes, progress, a summary table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
import time
from collections import Counter
from collections.abc import Sequence

from fastapi_env import dataset
from fastapi_env.build import TaskReport, build_key, verify_task
from fastapi_env.grading.runners import RenewingRunner, Runner, run_on_host
from fastapi_env.tasks import Task, load_tasks


@contextlib.asynccontextmanager
async def runners(local: bool, jobs: int):
    """Yield a list of runners: one per sandbox, each renewed before its lifetime cap (or the
    host runner, repeated)."""
    if local:
        yield [run_on_host] * jobs
        return
    from fastapi_env.grading.host import GRADER_PRELOAD
    from fastapi_env.sandbox.docker import DockerSandbox

    pool = [RenewingRunner(lambda: DockerSandbox(preload=GRADER_PRELOAD)) for _ in range(jobs)]
    try:
        await asyncio.gather(*(runner.start() for runner in pool))
        yield pool
    finally:
        await asyncio.gather(*(runner.close() for runner in pool))


async def _map(tasks: Sequence[Task], pool: list[Runner], work) -> list:
    """Run ``work(task, runner)`` over tasks, each runner serving one task at a time."""
    queue: asyncio.Queue[Task] = asyncio.Queue()
    for task in tasks:
        queue.put_nowait(task)
    results: dict[str, object] = {}
    done = 0
    started = time.monotonic()

    async def worker(run: Runner) -> None:
        nonlocal done
        while not queue.empty():
            task = queue.get_nowait()
            results[task.id] = await work(task, run)
            done += 1
            mark = _mark(results[task.id])
            if mark != "ok  " or done % PROGRESS_EVERY == 0 or done == len(tasks):
                elapsed = time.monotonic() - started
                print(
                    f"[{done:>4}/{len(tasks)}] {elapsed:6.1f}s  {mark} {task.id}",
                    file=sys.stderr,
                    flush=True,
                )

    await asyncio.gather(*(worker(run) for run in pool))
    return [results[t.id] for t in tasks]


PROGRESS_EVERY = 25  # instances between progress lines (failures are printed at once)


def _mark(outcome: object) -> str:
    ok = outcome.ok if isinstance(outcome, TaskReport) else outcome[1] is None
    return "ok  " if ok else "FAIL"


def distinct_key_problems(reports: list[TaskReport]) -> dict[str, str]:
    """Instances of one family must differ in what a correct app returns: two with the same
    rows and probe rows are one task under two names (and two with one prompt are ambiguous)."""
    seen: dict[tuple[str, str], str] = {}
    problems = {}
    for r in reports:
        if r.key is None:
            continue
        rows = json.dumps([r.key.rows, r.key.probes], sort_keys=True)
        for what, value in (("rows", rows), ("prompt", r.task.prompt)):
            other = seen.setdefault((r.task.family_id, what + value), r.task.id)
            if other != r.task.id:
                problems[r.task.id] = f"has the same {what} as {other}"
    return problems


def coverage(tasks: Sequence[Task]) -> dict[str, dict[str, int]]:
    """Per category: families, instances, and the original instances' requirements, probes
    (named by a requirement) and traps, summed over families."""
    table: dict[str, Counter] = {}
    for t in tasks:
        row = table.setdefault(t.category, Counter())
        row["instances"] += 1
        if t.original:
            row["families"] += 1
            row["converted"] += bool(t.requirements)
            row["requirements"] += len(t.requirements)
            row["probes"] += len({p for r in t.requirements for p in r.probes})
            row["traps"] += len(t.edits) + len(t.traps)
    return {k: dict(v) for k, v in sorted(table.items())}


def _alone(group: list[TaskReport]) -> str:
    """Of a family's fully verified edit-traps, how many fail only their own requirement (known
    only with ``--traps``: otherwise a trap stops after its own requirement's probes)."""
    spills = [spill for r in group for spill in r.trap_spill.values()]
    return f"{sum(not s for s in spills)}/{len(spills)}" if spills else "-"


def print_summary(reports: list[TaskReport], seconds: float) -> None:
    families: dict[str, list[TaskReport]] = {}
    for r in reports:
        families.setdefault(r.task.family_id, []).append(r)
    width = max(len(f) for f in families)
    print(
        f"\n{'family':<{width}}  {'split':<5}  {'difficulty':<10}  {'inst':>4}  {'reqs':>4}  "
        f"{'traps':>5}  {'alone':>5}  {'seconds':>7}  verdict"
    )
    for family_id, group in families.items():
        first = group[0].task
        failed = [r for r in group if not r.ok]
        verdict = "ok" if not failed else f"FAIL ({len(failed)} of {len(group)})"
        if not first.requirements:
            verdict += " (unconverted: no requirements)"
        print(
            f"{family_id:<{width}}  {first.split:<5}  {first.difficulty:<10}  {len(group):>4}  "
            f"{len(first.requirements):>4}  {len(first.edits) + len(first.traps):>5}  "
            f"{_alone(group):>5}  {sum(r.seconds for r in group):7.1f}  {verdict}"
        )
        for r in failed[:3]:
            for problem in r.problems:
                print(f"{'':<{width}}    - {r.task.id}: {problem}")
    tasks = [r.task for r in reports]
    print(f"\n{'category':<16} families converted instances requirements probes traps")
    totals: Counter = Counter()
    for category, row in coverage(tasks).items():
        totals.update(row)
        print(
            f"{category:<16} {row.get('families', 0):>8} {row.get('converted', 0):>9} "
            f"{row['instances']:>9} {row.get('requirements', 0):>12} {row.get('probes', 0):>6} "
            f"{row.get('traps', 0):>5}"
        )
    print(
        f"{'total':<16} {totals['families']:>8} {totals['converted']:>9} {totals['instances']:>9} "
        f"{totals['requirements']:>12} {totals['probes']:>6} {totals['traps']:>5}"
    )
    by_split = Counter(t.split for t in tasks)
    split_families = Counter(t.split for t in tasks if t.original)
    print(
        "splits: "
        + ", ".join(
            f"{s} {split_families[s]} families / {by_split[s]} instances" for s in sorted(by_split)
        )
    )
    by_difficulty = Counter(t.difficulty for t in tasks)
    print("per difficulty: " + ", ".join(f"{k} {v}" for k, v in sorted(by_difficulty.items())))
    per_tier = Counter(t.tier for t in tasks)
    tier_families = Counter(t.tier for t in tasks if t.original)
    print("per tier: " + ", ".join(
        f"{k} {tier_families[k]} families / {per_tier[k]} instances" for k in sorted(per_tier)
    ))
    failed = sum(not r.ok for r in reports)
    print(
        f"\n{len(reports) - failed} passed, {failed} failed, {len(reports)} instances of "
        f"{len(families)} families in {seconds:.1f} s"
    )


def print_trap_spill(reports: list[TaskReport]) -> None:
    """Which requirements each trap fails: its own (numbered as in the family) and, after a
    `+`, the others it breaks too; an author reads this to keep requirements independent."""
    for report in reports:
        owner = {name: n for n, r in enumerate(report.task.requirements, 1) for name in r.traps}
        for trap, spill in report.trap_spill.items():
            others = f" + {', '.join(map(str, spill))}" if spill else "  (alone)"
            print(f"{report.task.id}  trap {trap!r}: requirement {owner.get(trap, '?')}{others}")


def fully_verified(tasks: Sequence[Task], per_family: int | None) -> set[str]:
    """The ids to verify in full: every one, or the first ``per_family`` of each family (its
    original, then a fixed sample: the instances sorted by id)."""
    if per_family is None:
        return {t.id for t in tasks}
    groups: dict[str, list[Task]] = {}
    for t in sorted(tasks, key=lambda t: (not t.original, t.id)):
        groups.setdefault(t.family_id, []).append(t)
    return {t.id for group in groups.values() for t in group[:per_family]}


async def run(
    tasks: list[Task],
    *,
    verify: bool,
    local: bool,
    jobs: int | None,
    timeout: float,
    full_per_family: int | None = None,
    list_traps: bool = False,
) -> int:
    jobs = max(1, min(jobs or os.cpu_count() or 2, len(tasks)))
    started = time.monotonic()
    where = "on this machine (--local, unisolated)" if local else f"in {jobs} sandbox(es)"
    print(
        f"{'verifying' if verify else 'building keys for'} {len(tasks)} task(s) {where}",
        file=sys.stderr,
    )
    async with runners(local, jobs) as pool:
        if verify:
            full = fully_verified(tasks, full_per_family)
            reports = await _map(
                tasks, pool,
                lambda t, r: verify_task(t, r, timeout, full=t.id in full, spill=list_traps),
            )
        else:
            keys = await _map(tasks, pool, lambda t, r: build_key(t, r, timeout))
    seconds = time.monotonic() - started

    if not verify:
        problems = {t.id: p for t, (_, p) in zip(tasks, keys, strict=True) if p}
        for task_id, problem in problems.items():
            print(f"{task_id}: {problem}")
        if problems:
            print(f"{len(problems)} task(s) have no key; nothing written")
            return 1
        if local:
            print("--local keys are not written: the shipped keys come from the sandbox image")
            return 0
        path = dataset.write(tasks, [k for k, _ in keys], every_task=load_tasks())
        print(f"wrote {len(tasks)} tasks and their keys to {path} in {seconds:.1f} s")
        return 0

    same_keys = distinct_key_problems(reports)
    for report in reports:
        problem = same_keys.get(report.task.id)
        if problem:
            report.problems.append(problem)
    if not local:
        for report, problem in zip(reports, dataset.check_shipped(reports), strict=True):
            if problem:
                report.problems.append(problem)
    if list_traps:
        print_trap_spill(reports)
    print_summary(reports, seconds)
    if not list_traps:
        print("alone: '-' without --traps (a trap's grading stops after its own requirement's "
              "last probe, so what it breaks beyond that is unknown)")
    if full_per_family is not None:
        print(
            f"traps, controls and determinism run on {len(full)} instance(s) "
            f"({full_per_family} per family); the other {len(tasks) - len(full)} had their key "
            "rebuilt and compared with the shipped one"
        )
    if any(not r.ok for r in reports):
        failing = [r.task.id for r in reports if not r.ok]
        print(json.dumps({"failed": failing}), file=sys.stderr)
        return 1
    return 0
