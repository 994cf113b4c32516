"""The verifiers binding for the SandboxEnv API (verifiers 0.2.x top level, 0.3.x legacy).

Thin on purpose: tasks, sandbox and grading live in the core. What is specific here:

* ``DockerSandboxClient`` speaks the subset of Prime's sandbox client that SandboxEnv calls
  (create / wait_for_creation / execute_command / delete / bulk_delete / teardown), backed by
  the project's hardened ``DockerSandbox``. ``sandbox="prime"`` is retired (``PRIME_RETIRED``):
  it left Prime's box networked, ignored the limits, could not kill the model's processes and
  passed the grader's job on the command line; the verifiers 0.4 binding runs on Prime's
  sandboxes with all of those (``fastapi_env/sandbox/vf_runtime.py``).
* A ``write_file`` that fails in a box that still runs (a read-only path, a FIFO at the target, a
  full disk, a NUL byte in the path) is a tool message the model reads, as in the 0.4 binding;
  only a box that is gone is a rollout error (and then a ``scoring_error`` at grading).
* ``post_rollout`` (run by SandboxEnv before it deletes the box, and before the rubric) grades
  once and caches the grade in the state. It never raises: if it did, SandboxEnv would skip
  the delete.
* Upstream's teardown handler builds its own Prime client; it is replaced so a Docker run never
  calls Prime, and so leftovers are swept.
* A black-box task (one with a hidden service) also offers ``query_service``
  (``fastapi_env.hidden_service``): its tool definition is added to that rollout's
  ``state["tool_defs"]`` only, and its requests are kept per sandbox until ``post_rollout``.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import verifiers as vf
from prime_sandboxes import CommandTimeoutError, StartCommand
from verifiers.types import Tool

from fastapi_env import dataset
from fastapi_env.dataset import select_records
from fastapi_env.grading.host import GRADER_PRELOAD, AnswerKey, Grade, grade, harness_failure
from fastapi_env.grading.runners import add_to_workspace
from fastapi_env.hidden_service import TOOL as QUERY_TOOL
from fastapi_env.hidden_service import TOOL_NAME as QUERY_TOOL_NAME
from fastapi_env.hidden_service import ServiceSession, run_query, warn_if_few_turns
from fastapi_env.prompts import system_prompt
from fastapi_env.sandbox import Limits, Sandbox, SandboxError
from fastapi_env.sandbox.base import rollout_lifetime
from fastapi_env.sandbox.docker import DockerSandbox, preflight
from fastapi_env.sandbox.docker import sweep as sweep_containers
from fastapi_env.sandbox.pool import WarmPool
from fastapi_env.tasks import load_tasks

MIN_MEMORY_MB = 128


@dataclass
class _Created:
    id: str
    name: str


@dataclass
class _Output:
    stdout: str
    stderr: str
    exit_code: int


class DockerSandboxClient:
    """What SandboxEnv needs of a sandbox client, on the project's Docker backend.

    Sandboxes come from a warm pool (started ahead of demand, each used once) and are removed in
    the background after a rollout, so neither start nor removal sits on the rollout's path."""

    def __init__(self, image: str | None, limits: Limits,
                 labels: dict[str, str] | None = None, warm_pool: int = 0,
                 warm_grader: bool = True) -> None:
        self.image, self.limits, self.labels = image, limits, labels or {}
        self.warm_pool = warm_pool
        self.preload = GRADER_PRELOAD if warm_grader else ()
        self.boxes: dict[str, DockerSandbox] = {}
        self._pool: WarmPool | None = None
        self._removals: set[asyncio.Task] = set()

    def _new_box(self) -> DockerSandbox:
        return DockerSandbox(image=self.image, limits=self.limits, labels=self.labels,
                             preload=self.preload)

    async def create(self, request: Any) -> _Created:
        if self._pool is None:
            self._pool = WarmPool(self._new_box, self.warm_pool)
        requested = time.monotonic()
        box = await self._pool.acquire()
        box.timings |= {"requested": requested, "acquired": time.monotonic(), "tool_calls": []}
        self.boxes[box.name] = box
        return _Created(id=box.name, name=box.name)

    async def wait_for_creation(self, sandbox_id: str, *args: Any, **kwargs: Any) -> None:
        if sandbox_id not in self.boxes:
            raise SandboxError(f"unknown sandbox {sandbox_id}")

    async def execute_command(
        self,
        sandbox_id: str,
        command: str,
        working_dir: str | None = None,
        timeout: int | None = None,
        **kwargs: Any,
    ) -> _Output:
        box = self.boxes.get(sandbox_id)
        if box is None:
            raise SandboxError(f"unknown sandbox {sandbox_id}")
        started = time.monotonic()
        result = await box.exec(command, timeout=timeout, workdir=working_dir)
        await box.kill_model_processes()  # nothing a command starts outlives it
        box.timings["tool_calls"].append(time.monotonic() - started)
        if result.timed_out:
            raise CommandTimeoutError(sandbox_id, command, int(timeout or 0))
        stderr = result.stderr
        if result.exit_code:
            stderr += f"\n[exit code {result.exit_code}]"
        return _Output(result.stdout, stderr, result.exit_code or 0)

    async def delete(self, sandbox_id: str) -> None:
        box = self.boxes.pop(sandbox_id, None)
        if box is not None:
            box.timings["released"] = time.monotonic()
            removal = asyncio.ensure_future(box.stop())  # off the rollout's path
            self._removals.add(removal)
            removal.add_done_callback(self._removals.discard)
            box.timings["released_done"] = time.monotonic()

    async def close(self) -> None:
        """Empty the pool and finish pending removals."""
        if self._pool is not None:
            await self._pool.close()
        await asyncio.gather(*list(self._removals), return_exceptions=True)

    async def bulk_delete(self, sandbox_ids: list[str]) -> None:
        await asyncio.gather(*(self.delete(i) for i in sandbox_ids))

    def teardown(self, wait: bool = True) -> None:
        for box in list(self.boxes.values()):
            box.stop_now()
        self.boxes.clear()


PRIME_RETIRED = (
    "sandbox='prime' is retired in the verifiers 0.2/0.3 binding: it could not deny the box's "
    "network, apply memory/CPU/pids limits, kill the model's processes before grading or keep "
    "the grader's job off the command line. Run on Prime's sandboxes with the verifiers 0.4 "
    "binding instead: vf-eval fastapi-env --env.agent.runtime.type prime "
    "--env.agent.runtime.image <your pushed copy of the sandbox image> (README: Prime)"
)


class FastAPIEnv(vf.SandboxEnv):
    """SandboxEnv on hardened Docker containers, graded on the host."""

    def __init__(
        self,
        *,
        keys: dict[str, AnswerKey],
        probes: dict[str, str],
        setup_files: dict[str, dict[str, str]],
        backend: str,
        services: dict[str, str] | None = None,
        image: str | None,
        limits: Limits,
        grading_timeout: float,
        reward_mode: str,
        labels: dict[str, str] | None = None,
        warm_pool: int = 0,
        warm_grader: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.keys, self.probes, self.setup_files = keys, probes, setup_files
        self.services = services or {}  # task id: its hidden service's source (host only)
        self.sessions: dict[str, ServiceSession] = {}  # sandbox id: its service's requests
        self.backend, self.limits = backend, limits
        self.grading_timeout = grading_timeout
        if backend != "docker":
            raise ValueError(PRIME_RETIRED if backend == "prime" else f"no backend {backend!r}")
        self.sandbox_client = DockerSandboxClient(image, limits, labels, warm_pool, warm_grader)
        self.add_tool(self.write_file, args_to_skip=["sandbox_id", "sandbox_state"])
        # Callable in every rollout, offered (setup_state) only to black-box tasks'.
        self.tool_map[QUERY_TOOL_NAME] = self.query_service
        self.skipped_args[QUERY_TOOL_NAME] = ["sandbox_id", "sandbox_state", "task_id"]
        if self.services:
            self.tool_monitor_rubric.add_tool_metric(QUERY_TOOL_NAME)
        self.rubric = build_rubric(reward_mode)

    async def write_file(
        self, path: str, content: str, sandbox_id: str, sandbox_state: dict
    ) -> str:
        """Create or overwrite the text file at `path` (absolute, or relative to /workspace)
        with `content` exactly, without shell quoting."""
        if not sandbox_state["ready"]:
            await self._wait_for_sandbox_ready(sandbox_state, sandbox_id)
        target = path if path.startswith("/") else f"/workspace/{path}"
        box = self._sandbox(sandbox_id)
        started = time.monotonic()
        try:
            await box.write_file(target, content)
        except SandboxError as exc:
            if not await box.is_alive():  # the box itself is gone: the harness's failure
                raise vf.SandboxError(str(exc)) from exc
            return f"Error: {exc}"  # a path it may not write, a FIFO, a full disk: the model's
        if "tool_calls" in getattr(box, "timings", {}):  # the benchmark reads them
            box.timings["tool_calls"].append(time.monotonic() - started)
        return f"wrote {len(content.encode())} bytes to {target}"

    async def query_service(self, sandbox_id: str, sandbox_state: dict, task_id: str,
                            **arguments: Any) -> str:
        """``fastapi_env.hidden_service.TOOL``: its schema is the definition the model sees."""
        if task_id not in self.services:
            return await run_query(None, arguments)
        if not sandbox_state["ready"]:
            await self._wait_for_sandbox_ready(sandbox_state, sandbox_id)
        box = self._sandbox(sandbox_id)
        session = self.sessions.setdefault(sandbox_id,
                                           ServiceSession(box, self.services[task_id]))
        try:
            return await run_query(session, arguments)
        except SandboxError as exc:
            if not await box.is_alive():
                raise vf.SandboxError(str(exc)) from exc
            return f"Error: {exc}"

    async def setup_state(self, state: Any, **kwargs: Any) -> Any:
        """Create the box; a task with setup files (a repair task's app) gets them written
        into /workspace here, before the first turn; a black-box task gets query_service."""
        state = await super().setup_state(state, **kwargs)
        task_id = (state.get("info") or {}).get("task_id")
        if task_id in self.services:
            function = QUERY_TOOL["function"]
            state["tool_defs"] = [*state["tool_defs"], Tool(
                name=function["name"], description=function["description"],
                parameters=function["parameters"], strict=function["strict"])]
        files = self.setup_files.get(task_id, {})
        if files:
            sandbox_id = state["sandbox_id"]
            await self._wait_for_sandbox_ready(state["sandbox_state"], sandbox_id)
            try:
                await add_to_workspace(self._sandbox(sandbox_id), files)
            except SandboxError as exc:
                raise vf.SandboxError(f"cannot write the task's setup files: {exc}") from exc
        return state

    def update_tool_args(
        self, tool_name: str, tool_args: dict, messages: Any, state: Any, **kwargs: Any
    ) -> dict:
        args = super().update_tool_args(tool_name, tool_args, messages, state, **kwargs)
        if tool_name in ("write_file", QUERY_TOOL_NAME):
            args |= {"sandbox_id": state["sandbox_id"], "sandbox_state": state["sandbox_state"]}
        if tool_name == QUERY_TOOL_NAME:
            args["task_id"] = (state.get("info") or {}).get("task_id")
        return args

    def _sandbox(self, sandbox_id: str) -> Sandbox:
        box = self.sandbox_client.boxes.get(sandbox_id)
        if box is None:
            raise SandboxError(f"sandbox {sandbox_id} is gone")
        return box

    async def post_rollout(self, state: Any) -> None:
        """Grade after the last turn, before the box goes. Never raises."""
        self.sessions.pop(state.get("sandbox_id"), None)
        try:
            state["grade"] = (await self._grade(state)).to_dict()
        except BaseException as exc:  # noqa: BLE001 - a raise here would skip the delete
            state["grade"] = harness_failure(f"post_rollout crashed: {exc!r}").to_dict()
            if isinstance(exc, asyncio.CancelledError):
                raise
        state["scoring_error"] = state["grade"]["scoring_error"]

    async def _grade(self, state: Any) -> Grade:
        info = state.get("info") or {}
        task_id = info.get("task_id")
        if task_id not in self.keys:
            return harness_failure(f"no answer key for task {task_id!r}")
        sandbox_id = state.get("sandbox_id")
        if sandbox_id is None:
            return harness_failure("the sandbox was never created")
        try:
            box = self._sandbox(sandbox_id)
            if not state["sandbox_state"]["ready"]:
                await self._wait_for_sandbox_ready(state["sandbox_state"], sandbox_id)
        except Exception as exc:
            return harness_failure(f"sandbox unavailable at grading: {exc}")
        return await grade(
            box, self.probes[task_id], self.keys[task_id], timeout=self.grading_timeout
        )

    @vf.teardown
    async def teardown_sandboxes(self) -> None:
        """Replaces upstream's, which would call Prime even for Docker runs."""
        if isinstance(self.sandbox_client, DockerSandboxClient):
            await self.sandbox_client.close()
            self.sandbox_client.teardown()
            sweep_containers(mine_only=True)
        elif self.active_sandboxes:
            await super().teardown_sandboxes()


def _grade_of(state: Any) -> dict:
    return state.get("grade") or harness_failure("the rollout was never graded").to_dict()


def build_rubric(reward_mode: str) -> vf.Rubric:
    async def correctness(state: Any, **_: Any) -> float:
        g = _grade_of(state)
        if reward_mode == "partial":
            return g["requirements_fraction"]
        return g["reward"]

    async def rows_matched(state: Any, **_: Any) -> float:
        return float(_grade_of(state)["rows_fraction"])

    async def probes_matched(state: Any, **_: Any) -> float:
        return float(_grade_of(state)["probes_fraction"])

    async def module_imported(state: Any, **_: Any) -> float:
        return float(_grade_of(state)["imported"])

    async def scoring_error(state: Any, **_: Any) -> float:
        return float(bool(_grade_of(state)["scoring_error"]))

    async def security_ok(state: Any, **_: Any) -> float:
        return float(_grade_of(state)["security_ok"])

    rubric = vf.Rubric(funcs=[correctness], weights=[1.0])
    for metric in (rows_matched, probes_matched, module_imported, scoring_error, security_ok):
        rubric.add_metric(metric)
    return rubric


def load_environment(
    difficulty: str | list[str] | None = None,
    categories: list[str] | None = None,
    ids: list[str] | None = None,
    split: str = "all",
    num_instances_per_family: int | None = None,
    tier: str | list[str] | None = None,
    max_turns: int = 5,
    command_timeout: float = 30.0,
    grading_timeout: float = 60.0,
    sandbox: str = "docker",
    image: str | None = None,
    memory_mb: int = 512,
    cpus: float = 1.0,
    pids: int = 128,
    reward_mode: str = "binary",
    labels: dict[str, str] | None = None,
    warm_pool: int = 2,
    warm_grader: bool = True,
    **kwargs: Any,
) -> vf.Environment:
    """Build the environment. See the README's table of arguments."""
    from datasets import Dataset

    if sandbox == "prime":
        raise ValueError(PRIME_RETIRED)
    if sandbox != "docker":
        raise ValueError(f"sandbox must be 'docker', not {sandbox!r}")
    if reward_mode not in ("binary", "partial"):
        raise ValueError(f"reward_mode must be 'binary' or 'partial', not {reward_mode!r}")
    records = select_records(difficulty, categories, ids, split, num_instances_per_family, tier)
    warn_if_few_turns(records, max_turns)
    keys = dataset.load_keys()
    tasks = {t.id: t for t in load_tasks(only_families={r["family"] for r in records})}
    rows = [
        {
            "question": r["prompt"],
            "answer": "",
            "info": {
                "task_id": r["id"],
                "category": r["category"],
                "difficulty": r["difficulty"],
                "tier": r.get("tier", "basic"),
            },
        }
        for r in records
    ]
    limits = Limits(memory_mb=memory_mb, cpus=cpus, pids=pids, command_timeout_s=command_timeout,
                    lifetime_s=rollout_lifetime(max_turns, command_timeout, grading_timeout))
    if memory_mb < MIN_MEMORY_MB:
        raise ValueError(f"memory_mb must be at least {MIN_MEMORY_MB}: below it the grader "
                         "itself may not fit, and its death would be blamed on the model")
    image = preflight(image)  # a clear error now, not a failed rollout per task
    return FastAPIEnv(
        keys={r["id"]: keys[r["id"]] for r in records},
        probes={i: t.probes for i, t in tasks.items()},
        setup_files={r["id"]: r["setup_files"] for r in records if r.get("setup_files")},
        services={r["id"]: tasks[r["id"]].service for r in records if tasks[r["id"]].service},
        backend=sandbox,
        image=image,
        limits=limits,
        grading_timeout=grading_timeout,
        reward_mode=reward_mode,
        labels=labels,
        warm_pool=warm_pool,
        warm_grader=warm_grader,
        dataset=Dataset.from_list(rows),
        system_prompt=system_prompt(grading_timeout, command_timeout),
        max_turns=max_turns,
        sandbox_name="fastapi-env",
        docker_image=image or "fastapi-env-sandbox",
        start_command=StartCommand(executable="sleep", args=["infinity"]),
        timeout_per_command_seconds=int(command_timeout),
        **kwargs,
    )
