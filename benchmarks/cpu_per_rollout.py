"""Where a rollout's CPU goes, in CPU-seconds (a script that prints figures, never a test; it
must run as root on the engine's own Linux machine, with cgroup v1 or v2).

Default: one run of the environment (`fastapi-env bench`'s, reference policy) and, per rollout,
the whole machine's busy CPU (/proc/stat, steal excluded), the containers' own (their cgroups,
read just before removal), dockerd's and containerd's, this host process's, and the rest (the
shims, runc, the kernel's work outside the containers).

``--phases``: inside one box at a time, the CPU of the init and its preload, of the reference
policy's two tool calls, and of grading (medians over ``--tasks`` tasks).

    uv run python benchmarks/cpu_per_rollout.py [--concurrency 8] [--warm-pool 2]
    uv run python benchmarks/cpu_per_rollout.py --phases [--tasks 8]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
from pathlib import Path

from fastapi_env import bench
from fastapi_env.dataset import load_keys
from fastapi_env.grading.host import GRADER_PRELOAD, grade
from fastapi_env.policy_server import reference_script
from fastapi_env.sandbox import docker as docker_backend
from fastapi_env.sandbox.docker import DockerSandbox
from fastapi_env.tasks import load_tasks

TICK = os.sysconf("SC_CLK_TCK")
ENGINE = ("dockerd", "containerd")


def busy_cpu_seconds() -> float:
    ticks = [int(v) for v in open("/proc/stat").readline().split()[1:]]
    return (sum(ticks[:8]) - ticks[3] - ticks[4] - ticks[7]) / TICK  # not idle, iowait, steal


def process_cpu(pid: str) -> float:
    """A process's CPU with that of the children it reaped."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(v) for v in fields[11:15]) / TICK


def engine_cpu() -> dict[str, float]:
    found = dict.fromkeys(ENGINE, 0.0)
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            name = Path(f"/proc/{pid}/comm").read_text().strip()
            if name in ENGINE:
                found[name] += process_cpu(pid)
        except OSError:
            pass  # it ended meanwhile
    return found


def container_cpu(container_id: str) -> float | None:
    for path, scale in ((f"/sys/fs/cgroup/cpuacct/docker/{container_id}/cpuacct.usage", 1e9),
                        (f"/sys/fs/cgroup/system.slice/docker-{container_id}.scope/cpu.stat",
                         1e6)):
        try:
            text = Path(path).read_text()
        except OSError:
            continue
        if path.endswith("cpu.stat"):  # cgroup v2: "usage_usec N" on the first line
            text = text.split()[1]
        return int(text) / scale
    return None


async def whole_machine(concurrency: int, warm_pool: int) -> None:
    containers: list[float] = []
    marks: list[tuple[float, dict[str, float], tuple[float, ...], int]] = []
    stop_now = DockerSandbox.stop_now
    evaluate = bench.evaluate_in_process

    def stop_and_count(box: DockerSandbox) -> None:
        if not box._stopped and box.container_id:
            used = container_cpu(box.container_id)
            if used is not None:
                containers.append(used)
        stop_now(box)

    async def marked(*args, **kwargs):  # the rollouts only: not loading the env, nor teardown
        marks.append((busy_cpu_seconds(), engine_cpu(), os.times()[:4], len(containers)))
        try:
            return await evaluate(*args, **kwargs)
        finally:
            marks.append((busy_cpu_seconds(), engine_cpu(), os.times()[:4], len(containers)))

    docker_backend.DockerSandbox.stop_now = stop_and_count
    bench.evaluate_in_process = marked
    ids = bench.default_tasks(42)
    sample = await bench.measure_environment(ids, len(ids), concurrency, warm_pool)
    (busy0, engine0, host0, first), (busy1, engine1, host1, last) = marks
    busy = busy1 - busy0
    engine = {name: used - engine0.get(name, 0.0) for name, used in engine1.items()}
    mine = sum(host1) - sum(host0)
    containers = containers[first:last]  # those removed while the rollouts ran
    n = sample.rollouts
    cores = os.cpu_count() or 1
    print(f"concurrency {concurrency}, warm pool {warm_pool}: {n} rollouts, "
          f"{sample.per_minute:.1f} per minute, the {cores} cores "
          f"{busy / sample.wall_s / cores:.0%} busy")
    print(f"  CPU-seconds per rollout: whole machine {busy / n:.3f}")
    print(f"    containers {sum(containers) / n:.3f} ({len(containers)} containers, "
          f"{statistics.median(containers):.3f} each)")
    for name, used in engine.items():
        print(f"    {name} {used / n:.3f}")
    print(f"    this host process {mine / n:.3f}")
    rest = busy - sum(containers) - sum(engine.values()) - mine
    print(f"    the rest: shims, runc, kernel work outside the containers {rest / n:.3f}")


async def phases(count: int) -> None:
    keys, rows = load_keys(), {"init and preload": [], "two tool calls": [], "grading": []}
    for task in load_tasks()[:count]:
        [write, (_, bash), _] = reference_script(task, [])
        async with DockerSandbox(preload=GRADER_PRELOAD) as box:
            await asyncio.sleep(1.5)  # the preload is done
            start = container_cpu(box.container_id)
            await box.write_file(write[1]["path"], write[1]["content"])
            await box.exec(bash["command"])
            await box.kill_model_processes()
            tools = container_cpu(box.container_id)
            verdict = await grade(box, task.probes, keys[task.id])
            graded = container_cpu(box.container_id)
        assert verdict.reward == 1.0, (task.id, verdict.reason)
        rows["init and preload"].append(start)
        rows["two tool calls"].append(tools - start)
        rows["grading"].append(graded - tools)
    print(f"CPU-seconds inside one box, medians over {count} tasks:")
    for name, values in rows.items():
        print(f"  {name:18s} {statistics.median(values):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--warm-pool", type=int, default=2)
    parser.add_argument("--phases", action="store_true", help="inside one box, per phase")
    parser.add_argument("--tasks", type=int, default=8, help="tasks for --phases")
    args = parser.parse_args()
    if args.phases:
        asyncio.run(phases(args.tasks))
    else:
        asyncio.run(whole_machine(args.concurrency, args.warm_pool))


if __name__ == "__main__":
    main()
