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
from fastapi_env.grading.runners import Runner, run_on_host, sandbox_runner
from fastapi_env.tasks import Task, load_tasks


@contextlib.asynccontextmanager
async def runners(local: bool, jobs: int):
    """Yield a list of runners: one per long-lived sandbox (or the host runner, repeated)."""
    if local:
        yield [run_on_host] * jobs
        return
    from fastapi_env.grading.host import GRADER_PRELOAD
    from fastapi_env.sandbox.docker import DockerSandbox

    boxes = [DockerSandbox(preload=GRADER_PRELOAD) for _ in range(jobs)]
    try:
        await asyncio.gather(*(box.start() for box in boxes))
        yield [sandbox_runner(box) for box in boxes]
    finally:
        await asyncio.gather(*(box.stop() for box in boxes))


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
            print(
                f"[{done:>3}/{len(tasks)}] {time.monotonic() - started:6.1f}s  {mark} {task.id}",
                file=sys.stderr,
                flush=True,
            )

    await asyncio.gather(*(worker(run) for run in pool))
    return [results[t.id] for t in tasks]


def _mark(outcome: object) -> str:
    ok = outcome.ok if isinstance(outcome, TaskReport) else outcome[1] is None
    return "ok  " if ok else "FAIL"


def print_summary(reports: list[TaskReport], seconds: float) -> None:
    width = max(len(r.task.id) for r in reports)
    print(f"\n{'task':<{width}}  {'difficulty':<10}  {'seconds':>7}  verdict")
    for r in reports:
        verdict = "ok" if r.ok else "FAIL"
        print(f"{r.task.id:<{width}}  {r.task.difficulty:<10}  {r.seconds:7.1f}  {verdict}")
        for problem in r.problems:
            print(f"{'':<{width}}    - {problem}")
    by_category = Counter(r.task.category for r in reports)
    by_difficulty = Counter(r.task.difficulty for r in reports)
    print("\nper category:   " + ", ".join(f"{k} {v}" for k, v in sorted(by_category.items())))
    print("per difficulty: " + ", ".join(f"{k} {v}" for k, v in sorted(by_difficulty.items())))
    failed = sum(not r.ok for r in reports)
    print(
        f"\n{len(reports) - failed} passed, {failed} failed, {len(reports)} tasks "
        f"in {seconds:.1f} s"
    )


async def run(
    tasks: list[Task], *, verify: bool, local: bool, jobs: int | None, timeout: float
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
            reports = await _map(tasks, pool, lambda t, r: verify_task(t, r, timeout))
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
        path = dataset.write(tasks, [k for k, _ in keys], all_ids={t.id for t in load_tasks()})
        print(f"wrote {len(tasks)} tasks and their keys to {path} in {seconds:.1f} s")
        return 0

    if not local:
        for report, problem in zip(reports, dataset.check_shipped(reports), strict=True):
            if problem:
                report.problems.append(problem)
    print_summary(reports, seconds)
    if any(not r.ok for r in reports):
        failing = [r.task.id for r in reports if not r.ok]
        print(json.dumps({"failed": failing}), file=sys.stderr)
        return 1
    return 0
