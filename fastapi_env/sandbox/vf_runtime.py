"""The sandbox interface over a verifiers 0.4 runtime (docker, podman, prime, ...).

When a user picks a verifiers runtime (``--env.agent.runtime.type docker``), the rollout's box
is the container or VM that runtime started, not our ``DockerSandbox``. The model's tools and
the grader then run through the runtime's own ``run`` / ``write``, with the same tools,
prompts, limits and grade as the default box. How each guarantee is kept there:

* **Network**: ``harden`` gives the runtime verifiers' empty allowlist (framework routes only;
  our harness calls the model from the host, so the box needs none of them), and ``check``
  refuses a runtime whose policy allows anything else. verifiers applies it before the first
  model turn (docker: bridge + iptables cut, Prime: the platform's egress policy).
* **Limits**: CPU and memory go to the runtime's resources (``cpu`` cores, ``memory`` GB) from
  the taskset's ``cpus`` / ``memory_mb``; command and grading timeouts are enforced in the box
  by ``box_exec.py`` and on the host by a backstop.
* **User**: every command runs through ``box_exec.py`` started as root, which runs it as the
  model's uid with no supplementary groups; the box's root is the runtime's default user
  (checked at start). The uid is the box's own (``base.MODEL_UID_RANGE``, apart from this
  process's other boxes'), named ``model`` in the box's ``/etc/passwd`` at start, and may hold
  at most ``pids - HARNESS_PIDS`` processes (RLIMIT_NPROC): a fork bomb leaves the pids the
  harness needs to kill it, stage the grader's job and grade (the runtime's own ``sleep``
  PID 1 reaps no orphan, so even the bomb's dead processes keep their pids).
* **Key and nonce**: the answer key never leaves the host. The grader's job (nonce, probes)
  is staged by root into a root-only directory, read and unlinked by the root wrapper and fed
  to the grader on a pipe: never argv, never a file the model's user can open. Every process
  of the model's user is killed before the job is staged (``kill(-1)`` from the user's uid,
  atomic against forks, then checked from root).

What a runtime cannot give is named, never silent: ``weaker_guarantees`` lists it per runtime
type and ``RuntimeSandbox.start`` logs it; ``check`` refuses what would break the contract.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from pathlib import Path
from typing import Any

from fastapi_env.sandbox.base import (
    WORKSPACE,
    ExecResult,
    Limits,
    Sandbox,
    SandboxError,
    claim_model_uid,
    group_line,
    model_nproc,
    passwd_line,
    release_model_uid,
)

logger = logging.getLogger(__name__)

BOX_EXEC_SOURCE = (Path(__file__).parent / "box_exec.py").read_text()
PRIVATE_DIR = "/run/fastapi-env"  # root only (0700): staged stdin, the grader's job
IDENTITY_DIR = "/etc/fastapi-env"  # the image's /etc/passwd and /etc/group point into it
BACKSTOP_S = 30.0  # host-side allowance beyond a command's timeout before the exec is abandoned
LOCAL_ENGINES = ("docker", "podman")

# Live (not zombie) processes of a uid, counted from root; PID 1 is the runtime's own.
_COUNT_LIVE = """
import os, sys
uid, n = sys.argv[1], 0
for pid in filter(str.isdigit, os.listdir('/proc')):
    try:
        status = open(f'/proc/{pid}/status').read().split('\\n')
    except OSError:
        continue
    fields = dict(line.split(':', 1) for line in status if ':' in line)
    if fields.get('Uid', '').split()[:1] == [uid] and not fields['State'].strip().startswith('Z'):
        n += 1
print(n)
"""


def _ids(user: str) -> tuple[int, int]:
    """``"uid:gid"`` (or ``"root"``) as numbers: box_exec switches to them itself."""
    if user == "root":
        return 0, 0
    uid, _, gid = user.partition(":")
    return int(uid), int(gid or uid)


class ProviderError(SandboxError):
    """The runtime itself failed (an API error, a rate limit, a lost or dead box): never the
    model's doing, so the rollout is a scoring error, not a tool error shown to the model."""


class RuntimeStalled(ProviderError):
    """The runtime's exec did not return within the command's timeout plus the backstop."""


class RuntimeRefused(ValueError):
    """The chosen verifiers runtime cannot give a guarantee fastapi-env needs."""


def weaker_guarantees(runtime_type: str) -> list[str]:
    """What this runtime gives less than the default DockerSandbox (documented in README)."""
    common = [
        "no size limit on /workspace and /tmp beyond the runtime's disk; each file the "
        "model's processes write is capped at workspace_mb (RLIMIT_FSIZE)",
        "the grader starts a fresh interpreter (no preloaded FastAPI fork): about 0.5 s more",
        "a black-box task's hidden service runs as the model's uid, not a user the model "
        "cannot reach: only between commands, once the model's processes are killed",
    ]
    if runtime_type in LOCAL_ENGINES:
        return common + [
            "the pids limit is set with `<engine> update --pids-limit` right after verifiers "
            "starts the container (verifiers' config has no pids option)",
            "no box lifetime: the container lives until the rollout stops it or verifiers' "
            "exit hook removes it (a SIGKILLed host process leaves it running)",
            "the box reaches verifiers' egress proxy for the framework routes (the model "
            "endpoint; a request needs the model secret, which never enters the box)",
        ]
    no_pids = ("no pids limit on the box (verifiers' runtimes have no pids option): the model's "
               "uid, the box's own, is held to pids - 16 processes by RLIMIT_NPROC, and the "
               "harness's own processes (root's) by the memory limit only")
    if runtime_type == "prime":
        return common + [no_pids,
            "box lifetime: Prime's idle timeout only (verifiers creates sandboxes with "
            "timeout_minutes=-1)",
            "the framework routes' hosts stay allowed by Prime's egress policy",
        ]
    return common + [no_pids, f"runtime {runtime_type!r} was not run by fastapi-env's tests"]


def harden(runtime: Any, *, image: str | None, cpus: float, memory_mb: int,
           labels: dict[str, str] | None = None) -> Any:
    """The runtime config with fastapi-env's defaults for whatever the user did not set:
    the sandbox image, /workspace, an empty network allowlist, the taskset's CPU and memory.
    The subprocess runtime (the nominal one of the default DockerSandbox path) is unchanged."""
    if runtime.type == "subprocess":
        return runtime
    from verifiers.v1.configs.runtime import NetworkPolicyConfig

    fields, explicit = type(runtime).model_fields, runtime.model_fields_set
    wanted: dict[str, Any] = {"workdir": WORKSPACE, "cpu": cpus, "memory": memory_mb / 1024}
    if "image" in fields:
        from fastapi_env.image import image_tag

        wanted["image"] = image or image_tag()
    if isinstance(runtime, NetworkPolicyConfig) and not explicit & {"allow", "block"}:
        wanted |= {"allow": [], "block": ["*"]}
    if "labels" in fields and isinstance(getattr(runtime, "labels", None), list):
        extra = ["fastapi-env", *(f"{k}={v}" for k, v in sorted((labels or {}).items()))]
        wanted["labels"] = list(dict.fromkeys([*runtime.labels, *extra]))
        explicit = explicit - {"labels"}
    updates = {k: v for k, v in wanted.items() if k in fields and k not in explicit}
    return runtime.model_copy(update=updates) if updates else runtime


def check(config: Any) -> None:
    """Refuse a runtime config that would break the box's contract. Raises RuntimeRefused."""
    from verifiers.v1.configs.runtime import NetworkPolicyConfig

    kind = config.type
    if not isinstance(config, NetworkPolicyConfig):
        raise RuntimeRefused(
            f"the {kind} runtime has no framework-aware network policy, so fastapi-env "
            "cannot deny the box's network; use docker, podman or prime"
        )
    if config.allow or config.block != ["*"]:
        raise RuntimeRefused(
            f"the box must have no network, but the {kind} runtime allows "
            f"{config.allow or 'everything but ' + str(config.block)}: drop "
            "--env.agent.runtime.allow/block (fastapi-env sets the empty allowlist)"
        )
    for resource in ("cpu", "memory"):
        if getattr(config, resource, None) is None:
            raise RuntimeRefused(
                f"the {kind} runtime has no {resource} limit: set --env.agent.runtime.{resource}"
            )
    if kind == "prime" and "/" not in config.image:
        raise RuntimeRefused(
            f"Prime cannot pull the local image {config.image!r}: push the sandbox image to a "
            "registry and pass it with --env.agent.runtime.image (see README, Prime)"
        )


def host_endpoint(runtime: Any, endpoint: str) -> str:
    """The model endpoint as the host reaches it. verifiers hands the harness the URL a program
    *in the box* would use (``runtime.host_url``); our harness runs on the host. On the local
    engines that URL goes through verifiers' egress proxy, whose listener lives in the box's
    network namespace, so the host maps it back to the interception's loopback origin (read
    off the proxy's own table: verifiers 0.4.0). Remote runtimes' URLs (Prime's tunnel) are
    public and work from the host as they are."""
    from urllib.parse import urlsplit, urlunsplit

    proxy = getattr(runtime, "_proxy", None)
    callbacks = getattr(proxy, "_callbacks", None)
    if not callbacks:
        return endpoint
    from verifiers.v1.runtimes.docker.egress import _CALLBACK_PREFIX

    parts = urlsplit(endpoint)
    if not parts.path.startswith(_CALLBACK_PREFIX):
        return endpoint
    token, _, path = parts.path[len(_CALLBACK_PREFIX):].partition("/")
    callback = callbacks.get(token)
    if callback is None:
        return endpoint
    return urlunsplit((callback.scheme, callback.authority, "/" + path, parts.query, ""))


class RuntimeSandbox(Sandbox):
    """One rollout's box, inside a verifiers runtime that the rollout owns (started and
    stopped by verifiers). ``stop`` only forgets it; the runtime's teardown removes it."""

    def __init__(self, runtime: Any, limits: Limits | None = None) -> None:
        self.runtime = runtime  # the runtime's default user: must be root (see start)
        self.limits = limits or Limits()
        uid = claim_model_uid()
        self.model_ids = (uid, uid)
        self._uid = uid
        self._stopped = False
        self._failures: list[BaseException] = []  # the provider's, for died_of_oom
        self.timings: dict[str, list[float]] = {"execs": []}

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> None:
        check(self.runtime.config)
        for problem in weaker_guarantees(self.runtime.config.type):
            logger.info("fastapi-env on the %s runtime: %s", self.runtime.config.type, problem)
        prepare = (
            'set -e; [ "$(id -u)" = 0 ] || { echo "the default user is $(id -u), not root" >&2; '
            "exit 3; }; "
            f'[ -x /opt/venv/bin/python3 ] && [ -f /opt/fastapi-env/installed.txt ] || '
            '{ echo "not the fastapi-env sandbox image" >&2; exit 4; }; '
            f"mkdir -p {PRIVATE_DIR} {WORKSPACE}; chmod 700 {PRIVATE_DIR}; "
            f"chown {self.model_user} {WORKSPACE}; chmod 700 {WORKSPACE}; "
            f"{self._name_the_model()}"
        )
        result = await self._run_root(["sh", "-c", prepare], self.limits.command_timeout_s)
        if result.exit_code in (3, 4):
            raise RuntimeRefused(f"{self.runtime.config.type} box: {result.stderr.strip()}")
        if result.exit_code != 0:
            raise SandboxError(f"could not prepare the box: {result.stderr.strip()[-500:]}")
        if self.runtime.config.type in LOCAL_ENGINES:
            await self._limit_pids()

    def _name_the_model(self) -> str:
        """Shell: the image's users and groups plus the model's, where the image's /etc/passwd
        and /etc/group point (as the default box's init writes them)."""
        uid, gid = self.model_ids
        return (f"mkdir -p {IDENTITY_DIR}; "
                f"{{ cat /etc/passwd.image; printf %s '{passwd_line(uid, gid)}'; }} "
                f"> {IDENTITY_DIR}/passwd; "
                f"{{ cat /etc/group.image; printf %s '{group_line(gid)}'; }} "
                f"> {IDENTITY_DIR}/group")

    async def _none_left(self) -> bool:
        counted = await self._run_root(
            ["python3", "-I", "-S", "-c", _COUNT_LIVE, str(self._uid)], 10)
        return counted.exit_code == 0 and counted.stdout.strip() == "0"

    async def _kill_from_host(self) -> None:
        """Pause the container (cgroup freezer: nothing forks), SIGKILL the model's uid's
        processes by their host pids (``<engine> top``), unpause. Needs the engine on this
        machine and root here; best effort otherwise."""
        import os
        import signal

        from verifiers.v1.runtimes.container import cli

        engine, container = self.runtime.config.type, self.runtime.info.id
        if (await cli(engine, "pause", container)).exit_code != 0:
            return
        try:
            top = await cli(engine, "top", container, "-eo", "pid,uid")
            for line in top.stdout.splitlines()[1:]:
                pid, _, uid = line.strip().partition(" ")
                if uid.strip() == str(self._uid) and pid.isdigit():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
        finally:
            await cli(engine, "unpause", container)

    async def _limit_pids(self) -> None:
        """The local engines can still limit a running container's pids (a fork bomb must
        not outgrow the box); verifiers' config has no option for it."""
        from verifiers.v1.runtimes.container import cli

        engine, container = self.runtime.config.type, self.runtime.info.id
        done = await cli(engine, "update", "--pids-limit", str(self.limits.pids), container)
        if done.exit_code != 0:
            raise SandboxError(f"{engine} update --pids-limit failed: {done.stderr.strip()}")

    async def stop(self) -> None:
        if not self._stopped:
            release_model_uid(self._uid)
        self._stopped = True

    async def is_alive(self) -> bool:
        return not self._stopped and await self._answers()

    async def _answers_after_cleanup(self) -> bool:
        """Whether the box still runs commands, asked again after killing the model's
        processes: a memory or fork bomb may make one exec fail without the box being gone."""
        for attempt in range(3):
            if await self._answers():
                return True
            try:
                await self.kill_model_processes()
            except SandboxError:
                await asyncio.sleep(1 + attempt)
        return await self._answers()

    async def _answers(self) -> bool:
        try:
            return (await self._run_root(["true"], 30)).exit_code == 0
        except SandboxError:
            return False

    # ------------------------------------------------------------------ commands
    async def _run_root(self, argv: list[str], timeout: float) -> Any:
        """The runtime's run (its default user), bounded on the host. Raises SandboxError."""
        if self._stopped:
            raise SandboxError("the sandbox is stopped")
        try:
            return await asyncio.wait_for(self.runtime.run(argv, {}), timeout + BACKSTOP_S)
        except TimeoutError as exc:
            raise RuntimeStalled(f"the runtime did not return within {timeout + BACKSTOP_S:.0f} s"
                                ) from exc
        except Exception as exc:  # verifiers' SandboxError, a provider's API error, a lost box
            self._failures.append(exc)
            raise ProviderError(f"{self.runtime.config.type} runtime: {exc}") from exc

    async def _stage(self, data: bytes) -> str:
        """Put ``data`` where only root can read it; box_exec reads and unlinks it."""
        path = f"{PRIVATE_DIR}/{uuid.uuid4().hex}"
        try:
            await self.runtime.write(path, data)
        except Exception as exc:
            raise ProviderError(f"{self.runtime.config.type} runtime: write failed: {exc}"
                                ) from exc
        return path

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
        argv = ["/bin/sh", "-c", command] if isinstance(command, str) else list(command)
        timeout = float(timeout or self.limits.command_timeout_s)
        uid, _ = _ids(user or self.model_user)
        try:
            result, seconds = await self._box_exec(argv, user or self.model_user, timeout, stdin,
                                                   workdir or WORKSPACE, output_limit)
        except RuntimeStalled:
            # a box thrashing under the model's processes stalls every exec: the model's
            # doing if the box answers once they are killed, else the box is gone
            if uid == self._uid and await self._answers_after_cleanup():
                return ExecResult(None, "", "", timed_out=True, seconds=timeout + BACKSTOP_S)
            raise
        if result.exit_code != 0 and not await self._answers_after_cleanup():
            # a CLI's exec into a dead container returns an ordinary non-zero exit
            raise ProviderError(f"the {self.runtime.config.type} box is gone "
                                f"(exit code {result.exit_code}: {result.stderr.strip()[-300:]})")
        timed_out = seconds >= timeout  # the host's clock decides, never an exit code
        if timed_out and uid == self._uid:
            await self.kill_model_processes()
        self.timings["execs"].append(seconds)
        return ExecResult(
            exit_code=result.exit_code,
            stdout=result.stdout,
            stderr=result.stderr,
            timed_out=timed_out,
            truncated="output truncated by fastapi-env" in result.stdout + result.stderr,
            seconds=round(seconds, 4),
            stdout_bytes=result.stdout.encode(),
        )

    async def _box_exec(self, argv: list[str], user: str, timeout: float, stdin: bytes | None,
                        workdir: str, output_limit: int | None) -> tuple[Any, float]:
        """One command through box_exec; (the runtime's result, host seconds)."""
        uid, gid = _ids(user)
        spec = {
            "argv": argv,
            "uid": uid,
            "gid": gid,
            "cwd": workdir,
            "timeout": timeout,
            "limit": output_limit or self.limits.output_limit_bytes,
            "file_limit": self.limits.workspace_mb * 2**20,
            "nproc": model_nproc(self.limits.pids),
            "stdin_path": await self._stage(stdin) if stdin is not None else None,
        }
        started = time.monotonic()
        result = await self._run_root(
            ["python3", "-I", "-S", "-c", BOX_EXEC_SOURCE, json.dumps(spec)], timeout
        )
        return result, time.monotonic() - started

    async def died_of_oom(self) -> bool:
        """Prime reports a box killed because its processes exhausted its memory as
        SandboxOOMError (under verifiers' SandboxError); the local engines keep the box alive
        and the kernel kills the biggest process, which the grade shows as the model's."""
        for failure in self._failures:
            while failure is not None:
                if type(failure).__name__ == "SandboxOOMError":
                    return True
                failure = failure.__cause__
        return False

    async def kill_model_processes(self) -> None:
        """kill(-1) from the model's uid (the kernel signals them all at once, so a fork bomb
        cannot outrun it), then count from root; repeated while any survive. The model's
        process quota leaves the killer its pids; should it still not start, on the local
        engines the host freezes the container and kills them itself."""
        uid, gid = self.model_ids
        kill = json.dumps({"kill": True, "uid": uid, "gid": gid})
        for _ in range(5):
            await self._run_root(["python3", "-I", "-S", "-c", BOX_EXEC_SOURCE, kill], 10)
            if await self._none_left():
                return
            if self.runtime.config.type in LOCAL_ENGINES:
                await self._kill_from_host()
                if await self._none_left():
                    return
            await asyncio.sleep(0.5)
        logger.warning("processes of the model's user survived five kills")

    # ------------------------------------------------------------------ files
    async def read_file(self, path: str) -> bytes:
        result = await self.exec(["cat", "--", path], timeout=120, output_limit=16 * 2**20)
        if result.exit_code != 0:
            if "No such file" in result.stderr:
                raise FileNotFoundError(path)
            raise SandboxError(f"cannot read {path}: {result.stderr.strip()}")
        return result.stdout_bytes

    async def write_file(self, path: str, data: bytes | str, *, user: str | None = None) -> None:
        payload = data.encode() if isinstance(data, str) else data
        script = 'mkdir -p -- "$(dirname -- "$1")" && cat > "$1"'
        result = await self.exec(["/bin/sh", "-c", script, "sh", path], user=user,
                                 stdin=payload, timeout=120, workdir="/")
        if result.exit_code != 0:
            raise SandboxError(f"cannot write {path}: {result.stderr.strip()}")
