"""The sandbox interface every backend implements.

A sandbox is one isolated box for one rollout. Non-zero exit codes are *returned* in an
``ExecResult``; ``SandboxError`` is raised only when the box itself is unusable (engine gone,
container dead or never started), so callers can tell "your command failed" from "the harness
failed".
"""

from __future__ import annotations

import abc
import random
import threading
from collections.abc import Collection
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


# What one model turn may take besides its commands (the model's reply), for a rollout's box
# lifetime: a box stops itself at its lifetime, and a rollout still running then would be a
# scoring error the model did not cause.
TURN_ALLOWANCE_S = 180


def rollout_lifetime(max_turns: int, command_timeout: float, grading_timeout: float) -> int:
    """A rollout's box lifetime: never below the default, and long enough for every turn to
    run its commands for the whole timeout (a few per turn) and reply slowly, then grade."""
    per_turn = 3 * command_timeout + TURN_ALLOWANCE_S
    return int(max(Limits.lifetime_s, max_turns * per_turn + grading_timeout + 300))


TRUNCATION_MARKER = "\n[... output truncated by fastapi-env: {omitted} more bytes omitted ...]\n"

WORKSPACE = "/workspace"

# Each box runs its model as a uid (and gid) of its own, drawn from this range: the engine gives
# boxes no user namespace, so the kernel's per-uid quotas (pipe buffers, RLIMIT_NPROC's count)
# are host-wide per uid, and a shared uid let one box's model shrink another's. The range is
# the one systemd leaves unused (above nspawn's containers, below its "foreign" range and 2^31):
# no login user, subuid range or dynamic user of a usual host is there. 268 million values: two
# boxes of one engine are checked apart (DockerSandbox), processes of one host are apart by
# chance (two boxes among 100 share one with a chance of 2e-5).
MODEL_UID_RANGE = range(0x7000_0000, 0x7FFE_0000)
MODEL_NAME = "model"  # the model's user and group name, in the box's /etc/passwd and /etc/group
# Pids of a box that the model's uid can never take (RLIMIT_NPROC = pids limit - this): the
# harness's kill, its staging and the grader's start need a few even while a fork bomb runs.
HARNESS_PIDS = 16

_uids_lock = threading.Lock()
_uids_in_use: set[int] = set()  # this process's boxes' model uids


def claim_model_uid(taken: Collection[int] = ()) -> int:
    """A model uid no box of this process holds and not in ``taken`` (the engine's other
    boxes'); release it with ``release_model_uid``."""
    with _uids_lock:
        while True:
            uid = random.choice(MODEL_UID_RANGE)
            if uid not in _uids_in_use and uid not in taken:
                _uids_in_use.add(uid)
                return uid


def release_model_uid(uid: int) -> None:
    with _uids_lock:
        _uids_in_use.discard(uid)


def model_nproc(pids: int) -> int:
    """The model's RLIMIT_NPROC for a box of ``pids`` pids: at most pids - HARNESS_PIDS (the
    uid is the box's own, so the kernel's per-uid count is the box's), never below 8."""
    return max(8, pids - HARNESS_PIDS)


def passwd_line(uid: int, gid: int) -> str:
    """The model's /etc/passwd entry: a name, $HOME at the workspace (tools that look the user
    up, ``whoami``, ``getpass.getuser()``, pip's cache, see an ordinary user)."""
    return f"{MODEL_NAME}:x:{uid}:{gid}:fastapi-env model:{WORKSPACE}:/bin/sh\n"


def group_line(gid: int) -> str:
    return f"{MODEL_NAME}:x:{gid}:\n"


class Sandbox(abc.ABC):
    """One box. Use ``async with`` or call ``start``/``stop`` yourself; ``stop`` is idempotent."""

    limits: Limits
    model_ids: tuple[int, int]  # the model's uid and gid in this box (see MODEL_UID_RANGE)

    @property
    def model_user(self) -> str:
        """The model's ``uid:gid``: the default ``user`` of ``exec``."""
        return f"{self.model_ids[0]}:{self.model_ids[1]}"

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
