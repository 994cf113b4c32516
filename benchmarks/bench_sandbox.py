"""Sandbox costs on this machine: medians of container start, exec round trip, a Python exec
that imports FastAPI's TestClient, and stop. A script that prints figures, never a test.

    uv run python benchmarks/bench_sandbox.py [--runs 10]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from fastapi_env.sandbox.docker import DockerSandbox


async def measure(runs: int) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {
        "start": [],
        "exec `true`": [],
        "exec python + fastapi.testclient import": [],
        "stop": [],
    }
    for _ in range(runs):
        box = DockerSandbox()
        t0 = time.perf_counter()
        await box.start()
        figures["start"].append(time.perf_counter() - t0)
        for _ in range(5):
            t0 = time.perf_counter()
            await box.exec(["true"])
            figures["exec `true`"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = await box.exec(["python3", "-c", "import fastapi.testclient"])
        assert result.ok, result.stderr
        figures["exec python + fastapi.testclient import"].append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        await box.stop()
        figures["stop"].append(time.perf_counter() - t0)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    figures = asyncio.run(measure(args.runs))
    print(f"{'operation':<42} {'median':>9} {'min':>9} {'max':>9}  n")
    for name, values in figures.items():
        print(
            f"{name:<42} {statistics.median(values):8.3f}s {min(values):8.3f}s "
            f"{max(values):8.3f}s  {len(values)}"
        )


if __name__ == "__main__":
    main()
