"""The Docker backend: one hardened container per sandbox, driven through the Docker SDK.

Why it is built this way:

* Every blocking SDK call runs in a dedicated thread pool: called from async code directly, they
  stalled the event loop for seconds under load (measured), and the default pool has only
  ``cores + 4`` threads.
* The model's commands, stdin and files go through the container's attach stream to its init,
  which forks and execs each command (``channel.py``, ``init.py``): about 1 ms of CPU where a
  ``docker exec`` costs about 55 ms (measured; three per rollout). Commands of another user (root,
  in the conformance suite) use ``docker exec``. ``docker cp``/``put_archive`` could not serve
  anyway: the root filesystem is read-only and ``/workspace`` is a tmpfs.
* A timeout is decided by the host's clock, never by an exit code (124 and 137 are also what
  ordinary commands can return). On timeout every process of the model's user is killed (see the
  init below), which reaches processes that left the process group too.
* The container's first process is ``init.py`` (read its docstring): it ends the container when
  its lifetime is over, kills every process of the model's user on request (without a new
  process, so it works even when a fork bomb exhausted the pids limit) and confirms it, and forks
  preloaded Pythons for the grader. It is the one process started as root, with only
  ``INIT_CAPABILITIES`` (below); it runs every command as the model's uid, so nothing the model
  runs can signal, limit, reschedule or trace it, or the grader's supervisor (also root). A box
  whose channel is lost runs nothing more: every later command is a SandboxError.
* No network: the engine's ``NetworkDisabled``. The box gets a fresh network namespace of its
  own with only loopback, as ``--network none`` gives, but without the engine's network sandbox
  for it, whose set-up hook re-executes the daemon's binary: 0.12-0.16 CPU-seconds less per
  container on Docker 20.10 (``benchmarks/bench_network_modes.py``). The init
  checks what it got, and refuses to run anything in a box that has a network.
  Docker writes ``/etc/hosts`` only for boxes it networks, so ``hosts`` beside this file is
  mounted there, read-only: ``localhost`` still resolves.
* Containers are not auto-removed, so that a dead one can still be inspected: a container that
  died because the model's processes exhausted its memory (``OOMKilled``) is the model's failure,
  not the harness's. ``stop`` removes it; one whose host process crashed stops by itself at the
  end of its lifetime and is removed by the next stale sweep.
* Containers carry labels (owner process, expiry) so ``sweep`` can find leftovers: this process's
  at exit and on SIGINT/SIGTERM, anyone's stale ones at the first start, all of them by hand.
* Each box's model has a uid of its own (``base.MODEL_UID_RANGE``), recorded as the label
  ``fastapi-env.uid`` and drawn apart from the uids of the engine's other fastapi-env boxes (any
  host process's): the kernel's per-uid quotas are then per box. ``RLIMIT_NPROC`` (the engine's
  ``nproc`` ulimit, which root ignores) keeps ``HARNESS_PIDS`` of the box's pids out of the
  model's reach. ``/etc/fastapi-env`` is a small root-owned tmpfs where the init writes the
  model's ``passwd`` and ``group`` entries (the image's ``/etc/passwd`` points there).
"""

from __future__ import annotations

import asyncio
import atexit
import os
import queue
import signal
import socket
import threading
import time
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi_env.image import image_tag
from fastapi_env.sandbox import channel as ch
from fastapi_env.sandbox.base import (
    TRUNCATION_MARKER,
    WORKSPACE,
    ExecResult,
    Limits,
    Sandbox,
    SandboxError,
    claim_model_uid,
    model_nproc,
    release_model_uid,
)
from fastapi_env.sandbox.channel import Channel

LABEL = "fastapi-env"
OWNER = f"{socket.gethostname()}:{os.getpid()}"
_EXECUTOR = ThreadPoolExecutor(max_workers=64, thread_name_prefix="fastapi-env-docker")
_LIVE: weakref.WeakSet[DockerSandbox] = weakref.WeakSet()
_client_lock = threading.Lock()
_client: Any = None
_hooks_installed = False
# Callables run with each sandbox once it is removed (the benchmark collects timings here).
OBSERVERS: list = []


def docker_client() -> Any:
    """One SDK client per process. Raises SandboxError when no engine answers."""
    global _client
    with _client_lock:
        if _client is None:
            import docker

            try:
                client = docker.from_env(max_pool_size=64, timeout=60)
                client.ping()
            except Exception as exc:
                raise SandboxError(
                    f"cannot reach the Docker engine ({exc}); start one (see README: "
                    "scripts/start-docker.sh) or set DOCKER_HOST"
                ) from exc
            _client = client
        return _client


def preflight(image: str | None = None) -> str:
    """Check, before any rollout, that the engine answers and the image exists; return the
    image. Raises SandboxError with what to do otherwise."""
    import docker

    image = image or os.environ.get("FASTAPI_ENV_IMAGE") or image_tag()
    try:
        docker_client().images.get(image)
    except docker.errors.ImageNotFound as exc:
        raise SandboxError(
            f"sandbox image {image} not found: run `fastapi-env image build`"
        ) from exc
    return image


async def _off_loop(func, *args):
    try:
        return await asyncio.get_running_loop().run_in_executor(_EXECUTOR, func, *args)
    except RuntimeError as exc:  # the pool is shut down: interpreter exit, run it here
        if "shutdown" not in str(exc):
            raise
        return func(*args)


# --------------------------------------------------------------------------- sweeping
def sweep(
    *, mine_only: bool = False, stale_only: bool = False, all_owners: bool = False
) -> list[str]:
    """Remove labelled containers: this process's, the expired ones, or all. Returns their ids."""
    try:
        client = docker_client()
        containers = client.containers.list(all=True, filters={"label": LABEL})
    except Exception:
        return []
    now = time.time()
    removed = []
    for container in containers:
        labels = container.labels or {}
        expired = float(labels.get(f"{LABEL}.expires", "0") or 0) < now
        expired = expired or _owner_is_gone(labels.get(f"{LABEL}.owner", ""))
        mine = labels.get(f"{LABEL}.owner") == OWNER
        if all_owners or (mine_only and mine) or (stale_only and expired):
            try:
                container.remove(force=True)
                removed.append(container.id)
            except Exception:
                pass
    return removed


def _owner_is_gone(owner: str) -> bool:
    """True when the owner was a process of this host that no longer exists."""
    host, _, pid = owner.rpartition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def _sweep_mine_at_exit() -> None:
    for box in list(_LIVE):
        box.stop_now()
    sweep(mine_only=True)


def _install_exit_hooks() -> None:
    global _hooks_installed
    if _hooks_installed:
        return
    _hooks_installed = True
    atexit.register(_sweep_mine_at_exit)
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(signum)

        def handler(num, frame, previous=previous):
            _sweep_mine_at_exit()
            if callable(previous):
                previous(num, frame)
            elif previous == signal.SIG_IGN:
                return
            else:
                raise SystemExit(128 + num)

        signal.signal(signum, handler)


# --------------------------------------------------------------------------- exec plumbing
FLOOD_BYTES = 8 * 1024 * 1024  # output past the limit by this much stops the command


class Output:
    """A command's stdout and stderr, cut at the limit; ``flooded`` once the output runs past
    the limit by FLOOD_BYTES (streaming it all would only load the engine)."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.buffers = {1: bytearray(), 2: bytearray()}
        self.omitted = {1: 0, 2: 0}

    def add(self, stream: int, payload: bytes) -> None:
        stream = stream if stream in self.buffers else 2
        target = self.buffers[stream]
        room = len(payload) if self.limit is None else min(len(payload),
                                                           max(0, self.limit - len(target)))
        target += payload[:room]
        self.omitted[stream] += len(payload) - room

    @property
    def flooded(self) -> bool:
        return self.limit is not None and sum(self.omitted.values()) > FLOOD_BYTES


def _read_docker_stream(sock: socket.socket, deadline: float, output: Output) -> bool:
    """Read a ``docker exec`` stream into ``output`` until EOF, a flood, or the deadline;
    return whether the deadline passed."""
    pending = bytearray()
    while not output.flooded:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return True
        sock.settimeout(remaining)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            return True
        except OSError:
            return False
        if not chunk:
            return False
        pending += chunk
        for stream, payload in ch.engine_frames(pending):
            output.add(stream, payload)
    return False


class DockerSandbox(Sandbox):
    """A hardened container. Arguments override the image and any limit."""

    def __init__(
        self,
        image: str | None = None,
        limits: Limits | None = None,
        labels: dict[str, str] | None = None,
        preload: tuple[str, ...] = (),
    ) -> None:
        self.image = image or os.environ.get("FASTAPI_ENV_IMAGE") or image_tag()
        self.limits = limits or Limits()
        self.extra_labels = labels or {}
        self.preload = preload  # modules the init imports ahead of its fork-server children
        self._channel: Channel | None = None  # commands of the model's user go through it
        self.name = f"fastapi-env-{uuid.uuid4().hex[:12]}"
        uid = claim_model_uid()  # checked against the engine's other boxes in _create
        self.model_ids = (uid, uid)
        self.container_id: str | None = None
        self._stopped = False
        # Wall times in seconds, for the benchmark: start, each exec in order, stop.
        self.timings: dict[str, Any] = {"created": time.monotonic(), "start": None,
                                        "execs": [], "stop": None, "ended": None,
                                        "peak_memory_bytes": None}

    # ---- lifecycle
    def _create(self) -> str:
        import docker

        client = docker_client()
        if _needs_stale_sweep():
            sweep(stale_only=True)
        lim = self.limits
        api = client.api
        self._avoid_engine_uids(api)
        uid, gid = self.model_ids
        labels = {
            LABEL: "1",
            f"{LABEL}.owner": OWNER,
            f"{LABEL}.expires": str(int(time.time() + lim.lifetime_s + 60)),
            UID_LABEL: str(uid),
            **self.extra_labels,
        }
        offline = not lim.network
        nproc = model_nproc(lim.pids)
        try:
            host_config = api.create_host_config(
                log_config={"type": "none"},
                network_mode="none" if offline else "bridge",
                binds={str(HOSTS_FILE): {"bind": "/etc/hosts", "mode": "ro"}} if offline else None,
                cap_drop=["ALL"],
                cap_add=INIT_CAPABILITIES,
                security_opt=["no-new-privileges"],
                pids_limit=lim.pids,
                ulimits=[docker.types.Ulimit(name="nproc", soft=nproc, hard=nproc)],
                mem_limit=f"{lim.memory_mb}m",
                memswap_limit=f"{lim.memory_mb}m",
                nano_cpus=int(lim.cpus * 1e9),
                read_only=True,
                tmpfs={
                    WORKSPACE: f"size={lim.workspace_mb}m,uid={uid},gid={gid},mode=0700",
                    "/tmp": f"size={lim.tmp_mb}m,mode=1777",
                    IDENTITY_DIR: "size=64k,mode=0755",  # root's: the init names the model
                },
            )
            container_id = api.create_container(
                self.image,
                command=self._init_command(offline),
                network_disabled=offline,
                name=self.name,
                user="0:0",  # the init only: it runs every command as the model's user
                labels=labels,
                working_dir="/",  # root has no DAC override: /workspace is the model's (0700)
                stdin_open=True,  # the init's stdin is the command channel
                host_config=host_config,
            )["Id"]
        except docker.errors.ImageNotFound as exc:
            raise SandboxError(
                f"sandbox image {self.image} not found: run `fastapi-env image build`"
            ) from exc
        except Exception as exc:  # engine errors, and timeouts of an overloaded engine
            raise SandboxError(f"could not start a sandbox: {exc}") from exc
        try:  # attached before the start, so no frame of the init can be missed
            attached = api.attach_socket(
                container_id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
            self._channel = Channel(attached, self.name)
            api.start(container_id)
        except Exception as exc:
            try:
                api.remove_container(container_id, force=True)
            except Exception:
                pass
            raise SandboxError(f"could not start a sandbox: {exc}") from exc
        return container_id

    def _avoid_engine_uids(self, api: Any) -> None:
        """Draw the model's uid again if a fastapi-env box of the engine (any host process's,
        running or not yet removed) already has it."""
        try:
            boxes = api.containers(all=True, filters={"label": UID_LABEL})
        except Exception:
            return  # the create that follows reports an engine that does not answer
        taken = {int(uid) for box in boxes
                 if (uid := (box.get("Labels") or {}).get(UID_LABEL, "")).isdigit()}
        if self.model_ids[0] in taken:
            release_model_uid(self.model_ids[0])
            uid = claim_model_uid(taken)
            self.model_ids = (uid, uid)

    def _init_command(self, offline: bool) -> list[str]:
        return ["python3", "-I", "-c", INIT_SOURCE, str(int(self.limits.lifetime_s)),
                "offline" if offline else "online", self.model_user, *self.preload]

    async def start(self) -> None:
        if self.container_id is not None:
            return
        _install_exit_hooks()
        _LIVE.add(self)
        started = self.timings["created"] = time.monotonic()
        creation = asyncio.ensure_future(_off_loop(self._create))
        try:
            self.container_id = await asyncio.shield(creation)
            self.timings["start"] = time.monotonic() - started
        except asyncio.CancelledError:
            # The container may finish starting after we were cancelled: remove it then.
            creation.add_done_callback(self._remove_late)
            raise

    def _remove_late(self, creation: asyncio.Future) -> None:
        if not creation.cancelled() and creation.exception() is None:
            self.container_id = creation.result()
            _EXECUTOR.submit(self.stop_now)

    def stop_now(self) -> None:
        """Synchronous, idempotent, best-effort removal."""
        if self._stopped:
            return
        self._stopped = True
        _LIVE.discard(self)
        release_model_uid(self.model_ids[0])
        started = time.monotonic()
        self.timings["peak_memory_bytes"] = self._peak_memory()
        target = self.container_id or self.name
        try:
            docker_client().api.remove_container(target, force=True)
        except Exception:
            pass  # already gone or never created
        if self._channel is not None:
            self._channel.close()
        self.timings["ended"] = time.monotonic()
        self.timings["stop"] = self.timings["ended"] - started
        for observe in OBSERVERS:
            observe(self)

    def _peak_memory(self) -> int | None:
        """The container's peak memory (cgroup v1 file on a local engine), or None."""
        if not OBSERVERS or self.container_id is None:
            return None
        path = f"/sys/fs/cgroup/memory/docker/{self.container_id}/memory.max_usage_in_bytes"
        try:
            with open(path) as handle:
                return int(handle.read())
        except (OSError, ValueError):
            return None

    async def stop(self) -> None:
        await asyncio.shield(_off_loop(self.stop_now))

    # ---- commands
    def _exec_blocking(
        self,
        argv: list[str],
        user: str,
        workdir: str,
        stdin: bytes | None,
        timeout: float,
        limit: int | None,
        python: PythonRequest | None = None,
    ) -> ExecResult:
        """Run a command: the model's user's through the init's channel, others (root, in the
        conformance suite) through ``docker exec``. With ``python``, run that source in a fork
        of the init instead of ``argv``."""
        if self.container_id is None or self._stopped:
            raise SandboxError("the sandbox is not running")
        started = time.monotonic()
        output = Output(limit)
        if user == self.model_user and self._channel is not None:
            request: dict[str, Any] = {"argv": argv}
            if python is not None:
                request = {"python": python.source, "privileged": python.privileged,
                           "stdin_follows": python.late_stdin is not None}
            request |= {"cwd": workdir, "timeout": timeout}
            exit_code, timed_out = self._run_in_channel(
                request, stdin, timeout, output, python.late_stdin if python else None)
        else:
            exit_code, timed_out = self._run_in_docker_exec(argv, user, workdir, stdin, timeout,
                                                            output)
        return self._result(output, None if timed_out else exit_code, timed_out,
                            time.monotonic() - started)

    def _raise_unless_running(self) -> None:
        """A paused or dead box looks like a slow command or a silent init: it is not."""
        if not self._running(docker_client().api):
            raise SandboxError("the sandbox stopped or was paused while a command ran")

    def _stop_overrunning_command(self) -> None:
        """A command timed out or flooded: kill it, unless the box itself is the problem."""
        self._raise_unless_running()
        self.kill_model_processes_now()

    def _run_in_channel(self, request: dict[str, Any], stdin: bytes | None, timeout: float,
                        output: Output,
                        late_stdin: tuple[bytes, bytes] | None = None) -> tuple[int | None, bool]:
        """``late_stdin`` is (marker, data): ``data`` is sent as the rest of the command's stdin
        once its stdout shows ``marker``."""
        assert self._channel is not None
        deadline = time.monotonic() + timeout
        try:
            command_id, replies = self._channel.submit(request, stdin)
        except OSError as exc:
            raise SandboxError(f"the sandbox's command channel is gone: {exc}") from exc
        exit_code, timed_out = None, False
        try:
            while not output.flooded:
                try:
                    kind, payload = replies.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    timed_out = True
                    break
                if kind in (ch.STDOUT, ch.STDERR):
                    output.add(kind, payload)
                    if late_stdin is not None and late_stdin[0] in output.buffers[ch.STDOUT]:
                        self._feed(command_id, late_stdin[1])
                        late_stdin = None
                elif kind == ch.EXIT:
                    exit_code = int(payload)
                    break
                elif kind == ch.REFUSED:
                    raise SandboxError(f"the sandbox refused to run commands: "
                                       f"{payload.decode(errors='replace')}")
                elif kind == ch.FAILED:  # e.g. the model's processes hold every pid
                    output.add(ch.STDERR, b"fastapi-env: " + payload + b"\n")
                    exit_code = 126
                    break
                else:
                    raise SandboxError("the sandbox stopped while a command ran")
        finally:
            self._channel.forget(command_id)
        if timed_out or output.flooded:
            self._stop_overrunning_command()
        return exit_code, timed_out

    def _feed(self, command_id: int, data: bytes) -> None:
        assert self._channel is not None
        try:
            feed_id, _ = self._channel.submit({"feed": command_id}, data)
        except OSError as exc:
            raise SandboxError(f"the sandbox's command channel is gone: {exc}") from exc
        self._channel.forget(feed_id)  # a feed has no reply

    def _run_in_docker_exec(self, argv: list[str], user: str, workdir: str,
                            stdin: bytes | None, timeout: float,
                            output: Output) -> tuple[int | None, bool]:
        import docker

        api = docker_client().api
        deadline = time.monotonic() + timeout
        backstop = ["timeout", "-s", "KILL", str(int(timeout) + 5)]
        try:
            exec_id = api.exec_create(
                self.container_id,
                backstop + argv,
                stdin=stdin is not None,
                user=user,
                workdir=workdir,
            )["Id"]
            sock = api.exec_start(exec_id, socket=True)
        except docker.errors.DockerException as exc:
            raise SandboxError(f"exec failed, the sandbox is gone: {exc}") from exc
        raw = getattr(sock, "_sock", sock)
        try:
            if stdin is not None:
                raw.sendall(stdin)
                raw.shutdown(socket.SHUT_WR)
            timed_out = _read_docker_stream(raw, deadline, output)
        except OSError as exc:
            raise SandboxError(f"lost the exec stream: {exc}") from exc
        finally:
            raw.close()
        if timed_out or output.flooded:
            self._stop_overrunning_command()
        return self._exit_code(api, exec_id, wait=not timed_out), timed_out

    def _exit_code(self, api: Any, exec_id: str, wait: bool) -> int | None:
        for _ in range(50 if wait else 1):
            info = api.exec_inspect(exec_id)
            if not info.get("Running"):
                if info.get("ExitCode") is None or not self._running(api):
                    raise SandboxError("the sandbox stopped while a command ran")
                return info["ExitCode"]
            time.sleep(0.02)
        if not self._running(api):
            raise SandboxError("the sandbox stopped while a command ran")
        return None

    def _running(self, api: Any) -> bool:
        """Running and not paused: a paused box runs nothing, and waiting on it would hang."""
        try:
            state = api.inspect_container(self.container_id)["State"]
        except Exception:
            return False
        return bool(state["Running"]) and not state.get("Paused")

    def kill_model_processes_now(self, wait_s: float = 15.0) -> None:
        """Have the init kill every process of the model's user (no fork needed inside), and
        wait until it confirms: a kill carried out late could hit what runs next (the grader).
        Requests are handled in order, so its answer means the kill is done. Raises SandboxError
        when it does not answer in time; a box whose channel is gone is left to the next call."""
        if self._channel is None or self._channel.closed:
            return
        try:
            command_id, replies = self._channel.submit({"kill": True})
        except OSError:
            return
        try:
            replies.get(timeout=wait_s)  # EXIT, or CLOSED: the box is gone
        except queue.Empty:
            self._raise_unless_running()
            raise SandboxError(f"the sandbox's init did not confirm a kill in {wait_s} s") from None
        finally:
            self._channel.forget(command_id)

    async def kill_model_processes(self) -> None:
        await _off_loop(self.kill_model_processes_now)

    def _oom_killed(self) -> bool:
        try:
            return bool(docker_client().api.inspect_container(self.container_id)["State"]
                        ["OOMKilled"])
        except Exception:
            return False

    async def died_of_oom(self) -> bool:
        if self.container_id is None:
            return False
        return await _off_loop(self._oom_killed)

    async def is_alive(self) -> bool:
        if self.container_id is None or self._stopped:
            return False
        return await _off_loop(self._running, docker_client().api)

    @staticmethod
    def _result(output: Output, exit_code: int | None, timed_out: bool,
                seconds: float) -> ExecResult:
        texts, truncated = {}, False
        for stream in (1, 2):
            text = bytes(output.buffers[stream]).decode("utf-8", errors="replace")
            if output.omitted[stream]:
                truncated = True
                text += TRUNCATION_MARKER.format(omitted=output.omitted[stream])
            texts[stream] = text
        if output.flooded:
            texts[2] += (f"[fastapi-env stopped the command: its output ran more than "
                         f"{FLOOD_BYTES // 2**20} MiB past the limit]\n")
        return ExecResult(
            exit_code=exit_code,
            stdout=texts[1],
            stderr=texts[2],
            timed_out=timed_out,
            truncated=truncated,
            seconds=round(seconds, 4),
            stdout_bytes=bytes(output.buffers[1]),
        )

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
        return await self._timed_exec(argv, user or self.model_user, workdir or WORKSPACE, stdin,
                                      timeout, output_limit)

    async def _timed_exec(self, argv: list[str], user: str, workdir: str, stdin: bytes | None,
                          timeout: float | None, output_limit: int | None,
                          python: PythonRequest | None = None) -> ExecResult:
        """``exec`` with the box's default limits, off the event loop, timed for the bench."""
        result = await _off_loop(
            self._exec_blocking,
            argv,
            user,
            workdir,
            stdin,
            timeout or self.limits.command_timeout_s,
            output_limit or self.limits.output_limit_bytes,
            python,
        )
        self.timings["execs"].append(result.seconds)
        return result

    async def run_python(self, source: str, *, stdin: bytes | None = None,
                         timeout: float | None = None, output_limit: int | None = None,
                         privileged: bool = False,
                         late_stdin: tuple[bytes, bytes] | None = None) -> ExecResult:
        """Run ``source`` in a fork of the init, whose modules are preloaded (no fresh
        interpreter when there is a preload): as the model's user, or ``privileged`` as the
        init's (the grader's supervisor, out of the model's reach)."""
        if self._channel is None:
            return await super().run_python(source, stdin=stdin, timeout=timeout,
                                            output_limit=output_limit, late_stdin=late_stdin)
        return await self._timed_exec([], self.model_user, WORKSPACE, stdin, timeout, output_limit,
                                      python=PythonRequest(source, privileged, late_stdin))

    async def read_file(self, path: str, *, user: str | None = None) -> bytes:
        result = await _off_loop(
            self._exec_blocking, ["cat", "--", path], user or self.model_user, "/", None, 120.0,
            None
        )
        if result.exit_code != 0:
            if "No such file" in result.stderr:
                raise FileNotFoundError(path)
            raise SandboxError(f"cannot read {path}: {result.stderr.strip()}")
        return result.stdout_bytes

    async def write_file(self, path: str, data: bytes | str, *, user: str | None = None) -> None:
        """Within the command timeout; a target that exists but is no regular file (a FIFO, a
        device, a directory) is refused rather than opened, which could block."""
        if "\x00" in path:
            raise SandboxError(f"cannot write {path!r}: a path cannot contain a NUL byte")
        payload = data.encode() if isinstance(data, str) else data
        script = ('[ ! -e "$1" ] || [ -f "$1" ] || { echo "it exists and is not a regular file"'
                  ' >&2; exit 1; }; mkdir -p -- "$(dirname -- "$1")" && cat > "$1"')
        timeout = self.limits.command_timeout_s
        result = await _off_loop(
            self._exec_blocking,
            ["/bin/sh", "-c", script, "sh", path],
            user or self.model_user,
            "/",
            payload,
            timeout,
            64 * 1024,
        )
        if result.timed_out:
            raise SandboxError(f"cannot write {path}: timed out after {timeout:g} s")
        if result.exit_code != 0:
            raise SandboxError(f"cannot write {path}: {result.stderr.strip()}")


@dataclass(frozen=True)
class PythonRequest:
    """Python source for the init to run in a fork of itself (see ``run_python``)."""

    source: str
    privileged: bool = False
    late_stdin: tuple[bytes, bytes] | None = None


# What the init needs: to drop its children to the model's user (and empty their bounding set),
# and to kill them. The model's processes hold none of these.
INIT_CAPABILITIES = ["SETUID", "SETGID", "SETPCAP", "KILL"]

_stale_swept = False

INIT_SOURCE = (Path(__file__).parent / "init.py").read_text()
IDENTITY_DIR = "/etc/fastapi-env"  # the model's passwd and group entries (see init.py)
UID_LABEL = f"{LABEL}.uid"
HOSTS_FILE = Path(__file__).parent / "hosts"  # /etc/hosts of a box without a network


def _needs_stale_sweep() -> bool:
    global _stale_swept
    first, _stale_swept = not _stale_swept, True
    return first
