"""``fastapi-env bench``: the environment's own cost, side by side with the in-process floor.

Runs rollouts through the real SandboxEnv binding with the scripted ``reference`` policy (zero
model latency, so only the environment is measured) and prints medians and p95 of: sandbox
ready, each tool call, grading, teardown, whole rollout; throughput at several concurrencies;
peak memory per sandbox and in total. Beside each figure, the same tasks graded in process with
no container at all (the floor), as a ratio. A script that prints figures, never a test.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from fastapi_env import load_environment
from fastapi_env.build import key_from_outcome
from fastapi_env.evaluate import evaluate_in_process
from fastapi_env.grading.host import score
from fastapi_env.grading.runners import run_on_host
from fastapi_env.sandbox import docker as docker_backend
from fastapi_env.tasks import load_tasks


def default_tasks(count: int) -> list[str]:
    """``count`` shipped tasks spread over the categories (one rollout each, so that a
    concurrency of c really means c rollouts at once: verifiers runs a task's group together)."""
    from fastapi_env.dataset import load_records

    by_category: dict[str, list[str]] = {}
    for record in sorted(load_records(), key=lambda r: r["id"]):
        by_category.setdefault(record["category"], []).append(record["id"])
    spread = [i for group in itertools.zip_longest(*by_category.values()) for i in group if i]
    return spread[:count]


def quantiles(values: list[float]) -> tuple[float, float]:
    """(median, p95) of the values."""
    if not values:
        return float("nan"), float("nan")
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


@dataclass
class Sample:
    """What one configuration measured."""

    concurrency: int
    rollouts: int = 0
    wall_s: float = 0.0
    phases: dict[str, list[float]] = field(default_factory=dict)
    peak_sandbox_bytes: list[int] = field(default_factory=list)
    peak_host_used_bytes: int = 0
    runs_per_minute: list[float] = field(default_factory=list)  # one per repeated run

    @property
    def per_minute(self) -> float:
        """Throughput: the median over repeated runs, or this run's."""
        if self.runs_per_minute:
            return statistics.median(self.runs_per_minute)
        return 60 * self.rollouts / self.wall_s if self.wall_s else 0.0


async def repeated(measure: Callable[[], Awaitable[Sample]], times: int) -> Sample:
    """Run a measurement ``times`` times: phases pooled, throughput the median of the runs (a
    shared machine's speed drifts between runs by more than a run's own spread)."""
    runs = [await measure() for _ in range(times)]
    merged = Sample(runs[0].concurrency)
    for run in runs:
        merged.rollouts += run.rollouts
        merged.wall_s += run.wall_s
        for phase, values in run.phases.items():
            merged.phases.setdefault(phase, []).extend(values)
        merged.peak_sandbox_bytes += run.peak_sandbox_bytes
        merged.peak_host_used_bytes = max(merged.peak_host_used_bytes, run.peak_host_used_bytes)
        merged.runs_per_minute.append(run.per_minute)
    return merged


class HostMemory:
    """Samples the host's used memory in a thread; ``peak`` is above the starting point."""

    def __init__(self) -> None:
        self.start = self._used()
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @staticmethod
    def _used() -> int:
        fields = {}
        for line in open("/proc/meminfo"):
            name, value = line.split(":")
            fields[name] = int(value.split()[0]) * 1024
        return fields["MemTotal"] - fields["MemAvailable"]

    def _run(self) -> None:
        while not self._stop.wait(0.2):
            self.peak = max(self.peak, self._used() - self.start)

    def __enter__(self) -> HostMemory:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


async def measure_environment(ids: list[str], rollouts: int, concurrency: int,
                              warm_pool: int, warm_grader: bool = True) -> Sample:
    sample = Sample(concurrency)
    boxes: list[Any] = []
    docker_backend.OBSERVERS.append(boxes.append)
    per_task = max(1, rollouts // len(ids))
    # loading is not part of the cost
    env = load_environment(ids=ids, warm_pool=warm_pool, warm_grader=warm_grader)
    try:
        with HostMemory() as memory:
            started = time.monotonic()
            results = await evaluate_in_process(["reference"], rollouts=per_task,
                                                concurrency=concurrency, env=env)
            sample.wall_s = time.monotonic() - started
    finally:
        await env.teardown_sandboxes()
        docker_backend.OBSERVERS.remove(boxes.append)
    outputs = results["reference"]
    sample.rollouts = len(outputs)
    bad = [o for o in outputs if o["reward"] != 1.0]
    if bad:
        raise RuntimeError(f"{len(bad)} reference rollouts did not score 1.0: "
                           f"{bad[0].get('grade', {}).get('reason')}")
    phases: dict[str, list[float]] = {k: [] for k in
                                      ("sandbox ready", "tool call", "grading", "teardown",
                                       "whole rollout")}
    for box in boxes:
        t = box.timings
        if t.get("acquired") is None or t.get("released") is None:
            continue
        phases["sandbox ready"].append(t["acquired"] - t["requested"])
        phases["tool call"] += t["tool_calls"]  # as the binding's tools took them
        phases["teardown"].append(t["released_done"] - t["released"])
        phases["whole rollout"].append(t["released_done"] - t["requested"])
        if t["peak_memory_bytes"]:
            sample.peak_sandbox_bytes.append(t["peak_memory_bytes"])
    phases["grading"] = [o["grade"]["seconds"] for o in outputs]
    sample.phases = phases
    sample.peak_host_used_bytes = memory.peak
    return sample


async def measure_floor(ids: list[str], rollouts: int, concurrency: int) -> Sample:
    """The same tasks graded in process on the host: no container, no tool calls."""
    tasks = {t.id: t for t in load_tasks({i.split("/")[0] for i in ids})}
    keys = {}
    for task_id in ids:
        keys[task_id], _ = key_from_outcome(
            await run_on_host(tasks[task_id].reference, tasks[task_id].probes, 60))
    sample = Sample(concurrency)
    semaphore = asyncio.Semaphore(concurrency)
    per_task = max(1, rollouts // len(ids))

    async def one(task_id: str) -> float:
        async with semaphore:
            t0 = time.monotonic()
            outcome = await run_on_host(tasks[task_id].reference, tasks[task_id].probes, 60)
            if score(outcome, keys[task_id]).reward != 1.0:
                raise RuntimeError(f"floor: reference of {task_id} did not score 1.0")
            return time.monotonic() - t0

    started = time.monotonic()
    durations = await asyncio.gather(*(one(i) for i in ids for _ in range(per_task)))
    sample.wall_s = time.monotonic() - started
    sample.rollouts = len(durations)
    sample.phases = {"grading": list(durations), "whole rollout": list(durations)}
    return sample


def _fmt(value: float) -> str:
    return f"{value:7.3f}s"


def phase_table(title: str, sample: Sample, floor: Sample) -> list[str]:
    lines = [f"{title} at concurrency {sample.concurrency} ({sample.rollouts} rollouts)",
             f"  {'phase':<15} {'median':>8} {'p95':>8}   {'floor med':>9} {'ratio':>6}"]
    for phase, values in sample.phases.items():
        median, p95 = quantiles(values)
        floor_values = floor.phases.get(phase)
        if floor_values:
            floor_median = quantiles(floor_values)[0]
            extra = f"   {_fmt(floor_median)} {median / floor_median:5.1f}x"
        else:
            extra = "   " + " " * 9 + "     -"
        lines.append(f"  {phase:<15} {_fmt(median)} {_fmt(p95)}{extra}")
    return lines


def report(env: dict[int, Sample], floor: dict[int, Sample], baseline: dict[int, Sample],
           peer: list[str]) -> str:
    first = min(env)
    lines = ["per-rollout phases (floor = the same tasks graded in process, no container; "
             "'sandbox ready' and 'teardown' are what the rollout waits for)"]
    lines += phase_table("environment", env[first], floor[first])
    if first in baseline:
        lines += phase_table("baseline: no warm pool, cold grader", baseline[first], floor[first])
    lines.append("throughput (rollouts per minute)")
    lines.append(f"  {'concurrency':>11} {'environment':>12} {'baseline':>9} {'floor':>8} "
                 f"{'env/floor':>9}")
    for c in sorted(env):
        e, f = env[c].per_minute, floor[c].per_minute
        b = f"{baseline[c].per_minute:9.1f}" if c in baseline else f"{'-':>9}"
        lines.append(f"  {c:>11} {e:12.1f} {b} {f:8.1f} {e / f:8.2f}x")
    if len(env[first].runs_per_minute) > 1:
        lines.append(f"  (medians of {len(env[first].runs_per_minute)} runs each; the runs:)")
        for name, samples in (("environment", env), ("baseline", baseline), ("floor", floor)):
            for c in sorted(samples):
                runs = ", ".join(f"{r:.1f}" for r in samples[c].runs_per_minute)
                lines.append(f"    {name} at {c}: {runs}")
    peaks = [b for s in env.values() for b in s.peak_sandbox_bytes]
    if peaks:
        lines.append(f"peak memory per sandbox: median {statistics.median(peaks) / 2**20:.0f} "
                     f"MiB, max {max(peaks) / 2**20:.0f} MiB")
    for c in sorted(env):
        lines.append(f"peak host memory in use above idle at concurrency {c}: "
                     f"{env[c].peak_host_used_bytes / 2**20:.0f} MiB")
    lines.append("peer: verifiers 0.4's own docker runtime as the box (network restricted; "
                 "our harness and grader), beside the default box")
    lines += peer
    return "\n".join(lines)


PEER_ROLLOUTS = 12  # at concurrency 1: per-rollout time, not throughput, is the comparison


async def run(rollouts: int, concurrencies: list[int], ids: list[str], warm_pool: int,
              baseline_at: tuple[int, ...] = (1, 8), repeat: int = 1) -> str:
    env, floor, baseline = {}, {}, {}
    for c in concurrencies:
        print(f"[bench] environment, concurrency {c} ...", flush=True)
        env[c] = await repeated(partial(measure_environment, ids, rollouts, c, warm_pool), repeat)
        if c in baseline_at:
            print(f"[bench] baseline (no warm pool, cold grader), concurrency {c} ...", flush=True)
            baseline[c] = await repeated(
                partial(measure_environment, ids, rollouts, c, 0, warm_grader=False), repeat)
        print(f"[bench] floor, concurrency {c} ...", flush=True)
        floor[c] = await repeated(partial(measure_floor, ids, rollouts, c), repeat)
    from fastapi_env.bench_peer import side_by_side

    peer = side_by_side(ids[:PEER_ROLLOUTS], 1)
    return report(env, floor, baseline, peer)
