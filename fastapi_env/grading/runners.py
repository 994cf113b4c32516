"""Ways to run the grader on a solution: in a sandbox (the real one) or on the host (unsafe).

A runner takes ``(solution, probes source, timeout)``, and as a keyword ``stop_after`` (the
last probe to run), and returns the supervisor's outcome dict. ``solution`` is the source of
``solution.py``, or a whole workspace (relative path: text; what a repair task's setup files and
a multi-file reference make), or None (empty).
``build_tasks.py`` and the benchmarks use them; the verifiers
bindings grade the sandbox the model worked in directly with ``host.grade``.
"""

from __future__ import annotations

import asyncio
import io
import sys
import tarfile
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Protocol

from fastapi_env.grading.host import (
    GRADER_SOURCE,
    build_job,
    grader_stdin,
    parse_frame,
    run_grader,
)
from fastapi_env.sandbox.base import WORKSPACE, Sandbox, SandboxError

Solution = str | Mapping[str, str] | None


class Runner(Protocol):
    """What ``build.verify_task`` and the benchmarks call to grade one solution."""

    def __call__(self, solution: Solution, probes: str, timeout: float, *,
                 stop_after: str | None = None) -> Awaitable[dict]: ...


def workspace_files(solution: Solution) -> dict[str, str]:
    if solution is None:
        return {}
    if isinstance(solution, str):
        return {"solution.py": solution}
    return dict(solution)


async def run_on_host(solution: Solution, probes: str, timeout: float, *,
                      stop_after: str | None = None) -> dict:
    """Run the grader in a fresh Python on this machine. No isolation: trusted code only
    (task authoring, the in-process floor of the benchmark)."""
    with tempfile.TemporaryDirectory(prefix="fastapi-env-") as workspace:
        for relative, text in workspace_files(solution).items():
            target = Path(workspace, relative)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        job, nonce = build_job(probes, workspace=workspace, timeout=timeout,
                               kill_leftovers=False, stop_after=stop_after)
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

    async def run(solution: Solution, probes: str, timeout: float, *,
                  stop_after: str | None = None) -> dict:
        async with lock:
            return await grade_in(sandbox, solution, probes, timeout, stop_after)

    return run


async def grade_in(sandbox: Sandbox, solution: Solution, probes: str, timeout: float,
                   stop_after: str | None) -> dict:
    """One grading on a reused box: its workspace replaced by ``solution``'s, then the grader."""
    await replace_workspace(sandbox, workspace_files(solution))
    return await run_grader(sandbox, probes, timeout=timeout, stop_after=stop_after)


class RenewingRunner:
    """A runner like ``sandbox_runner`` on a box it starts itself, and replaces with a fresh
    one before the box's lifetime cap (``Limits.lifetime_s``, enforced inside the box) could
    stop it mid-grading: a verify run outlasts a box's life (a loaded CI's verify reached
    30 minutes, and crashed, when its two boxes were kept for the whole run)."""

    MARGIN_S = 120.0  # beyond a grading's timeout: writing the workspace, a slow start

    def __init__(self, new_box: Callable[[], Sandbox]) -> None:
        self.new_box = new_box
        self.box: Sandbox | None = None
        self.started = 0.0
        self.renewals = 0
        self._lock = asyncio.Lock()

    async def __call__(self, solution: Solution, probes: str, timeout: float, *,
                       stop_after: str | None = None) -> dict:
        async with self._lock:
            return await grade_in(await self._box_for(timeout), solution, probes, timeout,
                                  stop_after)

    async def _box_for(self, timeout: float) -> Sandbox:
        if self.box is not None:
            age = time.monotonic() - self.started
            if age + timeout + self.MARGIN_S < self.box.limits.lifetime_s:
                return self.box
            await self.box.stop()
            self.box, self.renewals = None, self.renewals + 1
        box = self.new_box()
        self.started = time.monotonic()  # before start: the box's clock starts with it
        try:
            await box.start()
        except BaseException:
            await box.stop()
            raise
        self.box = box
        return box

    async def start(self) -> None:
        async with self._lock:
            await self._box_for(0.0)

    async def close(self) -> None:
        async with self._lock:
            if self.box is not None:
                await self.box.stop()
                self.box = None


# Unpacks the tar archive on stdin into the workspace, as the model's user; WIPE first empties
# it. Exit 127: the box has no tar.
UNPACK_SCRIPT = (f"command -v tar >/dev/null || exit 127; "
                 f"exec tar -x -f - -C {WORKSPACE} --no-same-owner")
WIPE = f"find {WORKSPACE} -mindepth 1 -delete || exit 1; "


async def replace_workspace(sandbox: Sandbox, files: Mapping[str, str]) -> None:
    """Wipe the workspace and write ``files`` in one command: an exec is tens of milliseconds,
    and a verify run grades thousands of workspaces of up to 15 files (one exec per file
    was about half of each grading's own cost). A box without tar writes them one by one."""
    await _unpack(sandbox, files, WIPE + UNPACK_SCRIPT)


async def add_to_workspace(sandbox: Sandbox, files: Mapping[str, str]) -> None:
    """Write ``files`` beside what the workspace holds, in one command (a repair task's setup
    files, once per rollout, before the first turn); nothing at all when there are none."""
    if files:
        await _unpack(sandbox, files, UNPACK_SCRIPT)


async def _unpack(sandbox: Sandbox, files: Mapping[str, str], script: str) -> None:
    result = await sandbox.exec(["/bin/sh", "-c", script], stdin=tar_of(files), timeout=60)
    if result.exit_code == 127:
        await write_workspace(sandbox, files)
    elif result.exit_code != 0:
        raise SandboxError(f"could not write {WORKSPACE}: {result.stderr.strip()}")


def tar_of(files: Mapping[str, str]) -> bytes:
    """A tar archive of regular files (relative path: text), each 0644, parents implied."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as archive:
        for relative, text in files.items():
            data = text.encode()
            member = tarfile.TarInfo(relative)
            member.size, member.mode = len(data), 0o644
            archive.addfile(member, io.BytesIO(data))
    return buffer.getvalue()


async def write_workspace(sandbox: Sandbox, files: Mapping[str, str]) -> None:
    """Write files (relative paths) into the sandbox's workspace, as the model's user."""
    for relative, text in files.items():
        await sandbox.write_file(f"{WORKSPACE}/{relative}", text)
