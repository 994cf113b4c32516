"""The sandbox interface every backend implements.

A sandbox is one isolated box for one rollout. Non-zero exit codes are *returned* in an
``ExecResult``; ``SandboxError`` is raised only when the box itself is unusable (engine gone,
container dead or never started), so callers can tell "your command failed" from "the harness
failed".
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field


class SandboxError(RuntimeError):
    """The sandbox itself failed: it could not start, it died, or the engine is unreachable."""


@dataclass(frozen=True)
class Limits:
    """Hardened defaults; every one can be changed per sandbox."""

    network: bool = False
    memory_mb: int = 512
    cpus: float = 1.0
    pids: int = 128
    workspace_mb: int = 128
    tmp_mb: int = 64
    lifetime_s: int = 1800
    command_timeout_s: float = 30.0
    output_limit_bytes: int = 64 * 1024


@dataclass(frozen=True)
class ExecResult:
    exit_code: int | None
    stdout: str
    stderr: str
    timed_out: bool = False
    truncated: bool = False
    seconds: float = 0.0
    stdout_bytes: bytes = field(default=b"", repr=False)

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


TRUNCATION_MARKER = "\n[... output truncated by fastapi-env: {omitted} more bytes omitted ...]\n"

MODEL_USER = "1000:1000"
WORKSPACE = "/workspace"


class Sandbox(abc.ABC):
    """One box. Use ``async with`` or call ``start``/``stop`` yourself; ``stop`` is idempotent."""

    limits: Limits

    @abc.abstractmethod
    async def start(self) -> None:
        """Create and start the box. Raises SandboxError."""

    @abc.abstractmethod
    async def exec(
        self,
        command: list[str] | str,
        *,
        timeout: float | None = None,
        user: str | None = None,
        stdin: bytes | None = None,
        workdir: str | None = None,
        output_limit: int | None = None,
    ) -> ExecResult:
        """Run argv (a list) or a shell command (a str) as ``user`` (the model's by default).

        On timeout every process of the command's user in the box is killed and the result has
        ``timed_out=True``. Output beyond the limit is cut with a visible marker.
        Raises SandboxError if the box is gone.
        """

    async def run_python(self, source: str, *, stdin: bytes | None = None,
                         timeout: float | None = None, output_limit: int | None = None,
                         privileged: bool = False,
                         late_stdin: tuple[bytes, bytes] | None = None) -> ExecResult:
        """Run Python ``source`` as ``python3 -I -S -c`` would (a backend may fork a preloaded
        interpreter instead). Same results and errors as ``exec``.

        ``privileged``: run it as a user the model's processes cannot reach, where the backend
        has one (Docker: the init's); elsewhere as the model's user. ``late_stdin`` is (marker,
        data): ``data`` is the rest of stdin, sent once stdout shows ``marker`` (a backend that
        cannot wait sends it at once)."""
        if late_stdin is not None:
            stdin = (stdin or b"") + late_stdin[1]
        return await self.exec(["python3", "-I", "-S", "-c", source], stdin=stdin,
                               timeout=timeout, output_limit=output_limit)

    @abc.abstractmethod
    async def read_file(self, path: str) -> bytes:
        """Return the file's bytes. Raises FileNotFoundError, or SandboxError."""

    @abc.abstractmethod
    async def write_file(self, path: str, data: bytes | str, *, user: str | None = None) -> None:
        """Create or replace a file (parents are created). Raises SandboxError."""

    @abc.abstractmethod
    async def stop(self) -> None:
        """Remove the box. Idempotent and never raises."""

    async def kill_model_processes(self) -> None:
        """Kill every process of the model's user (background servers, bombs). Best effort."""
        await self.exec(["kill", "-9", "-1"], timeout=10)

    async def died_of_oom(self) -> bool:
        """True when the box died because its processes exhausted its memory."""
        return False

    async def is_alive(self) -> bool:
        """True when the box still runs commands."""
        try:
            return (await self.exec(["true"], timeout=10)).exit_code == 0
        except SandboxError:
            return False

    async def __aenter__(self) -> Sandbox:
        try:
            await self.start()
        except BaseException:
            await self.stop()  # a failed start may already hold a container
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()
