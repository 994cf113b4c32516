"""Ways to run the grader on a solution: in a sandbox (the real one) or on the host (unsafe).

A runner takes ``(solution source or None, probes source, timeout)`` and returns the
supervisor's outcome dict. ``build_tasks.py`` and the benchmarks use them; the verifiers
bindings grade the sandbox the model worked in directly with ``host.grade``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from fastapi_env.grading.host import (
    GRADER_SOURCE,
    build_job,
    grader_stdin,
    parse_frame,
    run_grader,
)
from fastapi_env.sandbox.base import WORKSPACE, Sandbox, SandboxError

Runner = Callable[[str | None, str, float], Awaitable[dict]]


async def run_on_host(solution: str | None, probes: str, timeout: float) -> dict:
    """Run the grader in a fresh Python on this machine. No isolation: trusted code only
    (task authoring, the in-process floor of the benchmark)."""
    with tempfile.TemporaryDirectory(prefix="fastapi-env-") as workspace:
        if solution is not None:
            Path(workspace, "solution.py").write_text(solution)
        job, nonce = build_job(probes, workspace=workspace, timeout=timeout,
                               kill_leftovers=False)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-I",
            "-c",
            GRADER_SOURCE,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            cwd=workspace,
        )
        # the fresh runner gets only the job: a nonce sent with it never reaches the solution
        stdin = grader_stdin(job) + nonce.encode() + b"\n"
        stdout, _ = await asyncio.wait_for(proc.communicate(stdin), timeout + 30)
    outcome = parse_frame(stdout.decode(errors="replace"), nonce)
    if outcome is None:
        raise RuntimeError(f"the grader printed no frame (exit code {proc.returncode})")
    return outcome


def sandbox_runner(sandbox: Sandbox) -> Runner:
    """A runner that reuses one long-lived sandbox, wiping its workspace before each solution."""
    lock = asyncio.Lock()

    async def run(solution: str | None, probes: str, timeout: float) -> dict:
        async with lock:
            wipe = await sandbox.exec(f"find {WORKSPACE} -mindepth 1 -delete", timeout=30)
            if wipe.exit_code != 0:
                raise SandboxError(f"could not wipe {WORKSPACE}: {wipe.stderr.strip()}")
            if solution is not None:
                await sandbox.write_file(f"{WORKSPACE}/solution.py", solution)
            return await run_grader(sandbox, probes, timeout=timeout)

    return run
