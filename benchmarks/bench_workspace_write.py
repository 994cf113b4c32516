"""Writing a solution's workspace into a long-lived box, as ``build_tasks.py --verify`` does
before each grading: one exec per file (``write_workspace``, after a wipe) against one exec for
the wipe and all files (``replace_workspace``). Medians over interleaved runs, for a one-file
workspace and the largest reference workspace. A script that prints figures, never a test.

    uv run python benchmarks/bench_workspace_write.py [--runs 15]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from fastapi_env.grading.runners import replace_workspace, write_workspace
from fastapi_env.sandbox.base import WORKSPACE
from fastapi_env.sandbox.docker import DockerSandbox
from fastapi_env.tasks import load_tasks


async def per_file(box: DockerSandbox, files: dict[str, str]) -> None:
    await box.exec(f"find {WORKSPACE} -mindepth 1 -delete", timeout=30)
    await write_workspace(box, files)


async def measure(runs: int) -> None:
    tasks = load_tasks()
    largest = max(tasks, key=lambda t: len(t.reference_workspace())).reference_workspace()
    single = next(t for t in tasks if len(t.reference_workspace()) == 1).reference_workspace()
    box = DockerSandbox()
    await box.start()
    try:
        for label, files in [("1 file", single), (f"{len(largest)} files", largest)]:
            times: dict[str, list[float]] = {"one exec per file": [], "one exec in all": []}
            for _ in range(runs):
                for name, write in [("one exec per file", per_file),
                                    ("one exec in all", replace_workspace)]:
                    started = time.perf_counter()
                    await write(box, files)
                    times[name].append(time.perf_counter() - started)
                listing = await box.exec(f"cd {WORKSPACE} && find . -type f | wc -l")
                assert int(listing.stdout) == len(files), listing
            old, new = (statistics.median(v) for v in times.values())
            print(f"{label}: one exec per file {old * 1000:.0f} ms, one exec in all "
                  f"{new * 1000:.0f} ms (median of {runs}), ratio {old / new:.1f}x")
    finally:
        await box.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    asyncio.run(measure(parser.parse_args().runs))
