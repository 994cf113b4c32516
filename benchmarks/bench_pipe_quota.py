"""The kernel's per-uid pipe quota across boxes: what one box holding many pipes does to another.

Without user namespaces the kernel counts pipe buffers per uid across the whole host
(``/proc/sys/fs/pipe-user-pages-soft``, 16384 pages by default): once a uid holds more, every
new pipe of that uid gets two pages instead of sixteen. Each box's model has a uid of its own
(``base.MODEL_UID_RANGE``), so this should now hit only the box that holds the pipes. It prints
the two boxes' model uids, then the pipe sizes each box sees, for the model's own pipes and for
the harness's (the init's command pipes: root's), while the first box holds ``--pipes`` pipes.
The first box's own figure shows that the quota was reached. A script, not a test.

    uv run python benchmarks/bench_pipe_quota.py [--pipes 1100]
"""

from __future__ import annotations

import argparse
import asyncio

from fastapi_env.sandbox import Limits
from fastapi_env.sandbox.docker import DockerSandbox

F_GETPIPE_SZ = 1032
# In the box: the size of a pipe the model makes, and of its stdout (a pipe the init made).
SIZES = ("python3 -c \"import fcntl, os\nr, w = os.pipe()\n"
         f"print(fcntl.fcntl(w, {F_GETPIPE_SZ}), fcntl.fcntl(1, {F_GETPIPE_SZ}))\"")
HOLD = ("import os, time\npipes = [os.pipe() for _ in range({n})]\n"
        "print('holding', len(pipes), flush=True)\ntime.sleep(60)\n")


async def sizes(box: DockerSandbox) -> tuple[int, int]:
    model, init = (await box.exec(SIZES)).stdout.split()
    return int(model), int(init)


async def main(pipes: int) -> None:
    soft = int(open("/proc/sys/fs/pipe-user-pages-soft").read())
    print(f"pipe-user-pages-soft: {soft} pages")
    limits = Limits(pids=128, lifetime_s=300)
    async with DockerSandbox(limits=limits) as hog, DockerSandbox(limits=limits) as other:
        print(f"model uids: box 1 {hog.model_ids[0]}, box 2 {other.model_ids[0]}")
        print(f"before: box 2 model pipe, init pipe = {await sizes(other)} bytes")
        holding = asyncio.ensure_future(hog.exec(
            ["python3", "-c", f"import resource\nresource.setrlimit(resource.RLIMIT_NOFILE, "
             f"({2 * pipes + 64}, {2 * pipes + 64}))\n" + HOLD.format(n=pipes)], timeout=90))
        await asyncio.sleep(5)
        print(f"while box 1 holds {pipes} pipes: box 2 model pipe, init pipe = "
              f"{await sizes(other)} bytes; box 1's own = {await sizes(hog)} bytes")
        holding.cancel()
        await hog.kill_model_processes()
        print(f"after: box 2 model pipe, init pipe = {await sizes(other)} bytes")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pipes", type=int, default=1100)
    asyncio.run(main(parser.parse_args().pipes))
