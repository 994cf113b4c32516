"""The verifiers 0.4 binding: the ``verifiers.v1`` Taskset / Task / Harness / Env API.

``vf-eval fastapi-env`` (0.4) imports ``fastapi_env`` and takes the classes its ``__all__``
exports (lazily, see ``fastapi_env/__init__.py``): ``FastAPITaskset`` (the tasks),
``FastAPIHarness`` (the default harness) and ``FastAPIEnv`` (the default env and its config).

Why it is built this way:

* **The box is ours, not a verifiers runtime.** 0.4's runtimes are a closed set, and its
  container runtimes plus built-in harnesses run a chat program *inside* the box that reaches
  the model through a host URL; our box has no network at all and must keep none. So each
  rollout owns one hardened ``DockerSandbox`` (network off, read-only root, limits; the same
  backend as the 0.3 binding), kept in ``_ROLLOUTS`` under the trace id.
* **The agent loop runs on the host.** ``FastAPIHarness.launch`` calls the model through the
  rollout's interception endpoint (OpenAI chat completions, ``Authorization: Bearer
  <secret>``, model ``ctx.model``) with two tools, ``bash`` and ``write_file``, whose names,
  descriptions and results are the 0.3 binding's; each call runs in the DockerSandbox as the
  unprivileged user in /workspace with the command timeout. A black-box task
  (``data.hidden_service``) also gets ``query_service`` (``fastapi_env.hidden_service``): the
  service's source is looked up on the host by task id, its requests kept in the rollout.
  It stops when the model answers without tool calls or after ``max_turns`` model turns (the
  last turn's tool calls are not run, as in 0.3). The harness API allows this ("a harness may
  run its loop in-process ... as long as every model call goes through endpoint + secret").
* **The verifiers runtime is nominal, unless the user picks one.** By default nothing runs in
  it: ``FastAPIEnvConfig``'s config defaults the seat's runtime to ``subprocess`` (0.4's
  default is Prime's, which needs a key), and each rollout's box is our DockerSandbox. With
  ``--env.agent.runtime.type docker|podman|prime`` the box is that runtime's container or VM,
  driven by ``fastapi_env.sandbox.vf_runtime.RuntimeSandbox`` (same tools, prompts, limits and
  grade; its guarantees and named weaker ones are in that module). ``FastAPIEnvConfig``
  hardens such a runtime's config (``vf_runtime.harden``) and ``FastAPITask.setup`` refuses
  one that would give the box a network (``vf_runtime.check``) and other harnesses (the
  built-in ``bash`` harness would run the model's commands on the host).
* **Lifecycle.** ``setup`` starts the box; ``finalize`` (the box still alive) grades it with
  ``fastapi_env.grading.host.grade`` exactly like the 0.3 ``post_rollout``, stores the grade
  dict in ``trace.info["grade"]`` and ``trace.info["scoring_error"]``, never raises, and stops
  the box; ``FastAPIHarness.cleanup`` (run on every path, errors and cancellation included)
  stops it again (idempotent) and forgets it; ``FastAPIEnv.stop`` and the sandbox module's
  exit hooks sweep this process's leftovers.
* **Failures.** A box that dies under a tool call ends the loop and is recorded in
  ``trace.info["harness_failure"]``; ``finalize`` turns it into a ``scoring_error`` with that
  reason (reward 0, metric ``scoring_error`` 1), never a silent 0. The model's own failures
  are reward 0 with the reason in the grade. A failed model call or box start is a verifiers
  rollout error (the trace has ``errors`` and no reward): 0.4 skips finalize and scoring then.
* **Served.** prime-rl serves the env with ``verifiers.v1.serve.EnvServer`` (or a pool of
  worker processes): each worker rebuilds a task as ``FastAPITask(TaskData, taskset.task)``
  and never runs ``load()``. So a task holds nothing else: its per-run knobs are its config
  (``FastAPITaskConfig``, ``--env.taskset.task.*``), and grading looks the answer key and
  probes up by task id in the package's data. No state only the loading process has.
* **Secrets.** The answer key stays on the host (read from the package's data at grading,
  never in ``TaskData``, which is written to ``traces.jsonl``); only the probes' source enters
  the box, at grading.

The rubric matches the 0.3 one by name and value: reward ``correctness`` (weight 1.0; binary,
or with ``reward_mode="partial"`` the fraction of the task's requirements met) and metrics
``rows_matched``, ``probes_matched``, ``module_imported``, ``scoring_error``, all read off the
stored grade (never regraded).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

import httpx
import verifiers.v1 as vf
from pydantic import Field, field_validator, model_validator
from verifiers.v1.utils.loaders import harness_class

from fastapi_env.dataset import (
    answer_key,
    select_records,
    shipped_prompt,
    task_probes,
    task_service,
)
from fastapi_env.grading.host import GRADER_PRELOAD, Grade, grade, harness_failure
from fastapi_env.grading.runners import add_to_workspace
from fastapi_env.hidden_service import TOOL as QUERY_TOOL
from fastapi_env.hidden_service import TOOL_NAME as QUERY_TOOL_NAME
from fastapi_env.hidden_service import ServiceSession, run_query, warn_if_few_turns
from fastapi_env.prompts import system_prompt
from fastapi_env.sandbox import Limits, SandboxError, vf_runtime
from fastapi_env.sandbox.base import WORKSPACE, Sandbox, rollout_lifetime
from fastapi_env.sandbox.docker import LABEL, DockerSandbox
from fastapi_env.sandbox.docker import sweep as sweep_containers

logger = logging.getLogger(__name__)

__all__ = [
    "FastAPIEnv",
    "FastAPIEnvConfig",
    "FastAPIHarness",
    "FastAPITask",
    "FastAPITaskConfig",
    "FastAPITaskData",
    "FastAPITaskset",
    "FastAPITasksetConfig",
]

# The tools, as the 0.3 binding offers them (same names, descriptions and parameters).
TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Execute `command` inside persistent sandbox container.",
            "parameters": {
                "type": "object",
                "properties": {"command": {"title": "Command", "type": "string"}},
                "required": ["command"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    },
    {
        "type": "function",
        "function": {
            "name": "write_file",
            "description": (
                "Create or overwrite the text file at `path` (absolute, or relative to "
                "/workspace)\nwith `content` exactly, without shell quoting."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"title": "Path", "type": "string"},
                    "content": {"title": "Content", "type": "string"},
                },
                "required": ["path", "content"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    },
]

MODEL_TIMEOUT = httpx.Timeout(900.0, connect=30.0)


@dataclass
class _Rollout:
    box: Sandbox
    config: FastAPITaskConfig
    service: ServiceSession | None = None  # a black-box task's hidden service

    @property
    def tools(self) -> list[dict[str, Any]]:
        return TOOLS + [QUERY_TOOL] if self.service else TOOLS


# The live boxes, by trace id: set by FastAPITask.setup, used by the harness and finalize,
# removed by FastAPIHarness.cleanup.
_ROLLOUTS: dict[str, _Rollout] = {}


# --------------------------------------------------------------------------- the taskset
class FastAPITaskConfig(vf.TaskConfig):
    """How each rollout runs: ``--env.taskset.task.<name>`` on the vf-eval CLI.

    This is the subtree 0.4 hands every task, also on an env server, which rebuilds each task
    as ``FastAPITask(TaskData, config.taskset.task)``: every per-run knob lives here, so a
    served rollout runs exactly as an in-process one."""

    max_turns: int = Field(5, ge=1)
    """Model turns per rollout."""
    command_timeout: float = Field(30.0, gt=0)
    """Seconds per tool command; the whole process tree is killed after it."""
    grading_timeout: float = Field(60.0, gt=0)
    """Seconds for importing the solution and running the hidden probes."""
    image: str | None = None
    """Sandbox image (None: the pinned tag)."""
    memory_mb: int = Field(512, gt=0)
    cpus: float = Field(1.0, gt=0)
    pids: int = Field(128, gt=0)
    reward_mode: Literal["binary", "partial"] = "binary"
    """binary: 1.0 only when all rows and probes match; partial: the fraction of requirements
    met (the result rows count as one; a task without requirements: mean of the two
    fractions)."""
    labels: dict[str, str] = Field(default_factory=dict)
    """Extra Docker labels on each sandbox (e.g. to find one run's boxes); never seen inside."""

    @field_validator("labels")
    @classmethod
    def _keep_reserved_labels(cls, labels: dict[str, str]) -> dict[str, str]:
        reserved = {LABEL, f"{LABEL}.owner", f"{LABEL}.expires"}
        if clash := sorted(reserved & labels.keys()):
            raise ValueError(f"labels may not set {clash}: sweeping relies on them")
        return labels

    def limits(self) -> Limits:
        lifetime = rollout_lifetime(self.max_turns, self.command_timeout, self.grading_timeout)
        return Limits(memory_mb=self.memory_mb, cpus=self.cpus, pids=self.pids,
                      command_timeout_s=self.command_timeout, lifetime_s=lifetime)


class FastAPITasksetConfig(vf.TasksetConfig):
    """Which tasks load: ``--env.taskset.<name>``; how they run: ``--env.taskset.task.*``."""

    difficulty: str | list[str] | None = None
    """"easy", "medium", "hard", or a list of them (None: all)."""
    categories: list[str] | None = None
    """Task categories (None: all)."""
    ids: list[str] | None = None
    """Task instance or family ids, e.g. ["responses/response_model_filtering"] (None: all)."""
    split: Literal["train", "test", "all"] = "all"
    """Families held out for evaluation ("test", about a fifth), the others ("train"), or all."""
    num_instances_per_family: int | None = Field(None, gt=0)
    """Keep the first n instances of each selected family, its original one first (None: all)."""
    tier: str | list[str] | None = None
    """"basic", "service", "repair", "recent", "security", or a list of them (None: all)."""
    task: FastAPITaskConfig = FastAPITaskConfig()
    """The per-rollout knobs (see FastAPITaskConfig)."""


class FastAPITaskData(vf.TaskData):
    """What the model and the trace see of a task (no answers)."""

    task_id: str
    category: str
    difficulty: str
    tier: str = "basic"
    setup_files: dict[str, str] = Field(default_factory=dict)
    """Written into /workspace before the first turn (a repair task's app); model-visible."""
    hidden_service: bool = False
    """A black-box task: the model gets query_service (the service's code stays host side)."""


def _grade_of(trace: vf.Trace) -> dict[str, Any]:
    return trace.info.get("grade") or harness_failure("the rollout was never graded").to_dict()


class FastAPITask(vf.Task[FastAPITaskData, vf.State, FastAPITaskConfig]):
    """One task, whole from its wire form: ``FastAPITask(data, config)`` is all an env server
    has. The answer key and the probes are looked up on the host by ``data.task_id`` from the
    package's data (never carried in ``TaskData``, which is traced; never in the box)."""

    NEEDS_CONTAINER = False  # the box is our DockerSandbox, not a verifiers runtime

    @property
    def key(self) -> str:
        return self.data.task_id

    async def setup(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        _check_pairing(trace, runtime)
        service = None
        if self.data.hidden_service and (service := task_service(self.data.task_id)) is None:
            raise vf.TaskError(f"task {self.data.task_id!r} has no hidden service in this "
                               "package: the client and the env server run different versions")
        box = _box_for(runtime, self.config)
        session = ServiceSession(box, service) if service else None
        _ROLLOUTS[trace.id] = _Rollout(box, self.config, session)  # before start: cleanup finds it
        try:
            await box.start()
            await add_to_workspace(box, self.data.setup_files)
        except vf_runtime.RuntimeRefused as exc:
            raise vf.TaskError(f"fastapi-env cannot run on this runtime: {exc}") from exc
        except SandboxError as exc:
            await box.stop()
            raise vf.SandboxError(str(exc)) from exc

    async def finalize(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        """Grade once, with the box alive, then stop it. Never raises (but cancellation)."""
        rollout = _ROLLOUTS.get(trace.id)
        result: Grade | None = None
        try:
            result = await self._grade(trace, rollout)
        except Exception as exc:  # noqa: BLE001 - a grader bug must not pass as the model's 0
            result = harness_failure(f"finalize crashed: {exc!r}")
        except BaseException:
            result = harness_failure("grading was cancelled (finalize timeout or interrupt)")
            raise
        finally:
            graded = (result or harness_failure("the rollout was never graded")).to_dict()
            trace.info["grade"] = graded
            trace.info["scoring_error"] = graded["scoring_error"]
            if rollout is not None:
                await rollout.box.stop()

    async def _grade(self, trace: vf.Trace, rollout: _Rollout | None) -> Grade:
        failure = trace.info.get("harness_failure")
        if failure:
            return harness_failure(failure)
        if rollout is None:
            return harness_failure("the sandbox was never started")
        task_id = self.data.task_id
        key, probes = answer_key(task_id), task_probes(task_id)
        if key is None or probes is None:
            return harness_failure(f"no answer key for task {task_id!r} in this package")
        if shipped_prompt(task_id) != self.data.prompt:  # a key must grade its own spec
            return harness_failure(
                f"task {task_id!r} arrived with another prompt than this package's: the "
                "client and the env server run different fastapi-env versions"
            )
        return await grade(rollout.box, probes, key, timeout=self.config.grading_timeout)

    @vf.reward(weight=1.0)
    async def correctness(self, trace: vf.Trace) -> float:
        g = _grade_of(trace)
        if self.config.reward_mode == "partial":
            return float(g["requirements_fraction"])
        return float(g["reward"])

    @vf.metric
    async def rows_matched(self, trace: vf.Trace) -> float:
        return float(_grade_of(trace)["rows_fraction"])

    @vf.metric
    async def probes_matched(self, trace: vf.Trace) -> float:
        return float(_grade_of(trace)["probes_fraction"])

    @vf.metric
    async def module_imported(self, trace: vf.Trace) -> float:
        return float(_grade_of(trace)["imported"])

    @vf.metric
    async def scoring_error(self, trace: vf.Trace) -> float:
        return float(bool(_grade_of(trace)["scoring_error"]))

    @vf.metric
    async def security_ok(self, trace: vf.Trace) -> float:
        return float(_grade_of(trace)["security_ok"])


def _check_pairing(trace: vf.Trace, runtime: vf.Runtime) -> None:
    """Refuse a harness other than ours (it would run the model's commands in the verifiers
    runtime, i.e. on the host for subprocess) and a runtime that cannot hold the box."""
    agent = trace.agent
    harness_id = getattr(getattr(agent.config, "harness", None), "id", None) if agent else None
    if harness_id is not None and not issubclass(harness_class(harness_id), FastAPIHarness):
        raise vf.TaskError(
            f"fastapi-env runs only with its own harness (got {harness_id!r}): the model's "
            "commands must run in the hardened Docker sandbox; drop --env.agent.harness.id"
        )
    if runtime.config.type != "subprocess":
        try:
            vf_runtime.check(runtime.config)
        except vf_runtime.RuntimeRefused as exc:
            raise vf.TaskError(f"fastapi-env cannot run on this runtime: {exc}") from exc


# ---------------------------------------------------------------- which box (issue 18 hook)
def _box_for(runtime: vf.Runtime, config: FastAPITaskConfig) -> Sandbox:
    """The hardened DockerSandbox on the nominal subprocess runtime (the default); else the
    box of the verifiers runtime the user chose, driven through its run / write."""
    if runtime.config.type == "subprocess":
        return DockerSandbox(config.image, config.limits(), labels=dict(config.labels),
                             preload=GRADER_PRELOAD)
    return vf_runtime.RuntimeSandbox(runtime, config.limits())


class FastAPITaskset(vf.Taskset[FastAPITask, FastAPITasksetConfig]):
    """The shipped FastAPI tasks, selected by the config's difficulty / categories / ids."""

    def load(self) -> Iterator[FastAPITask]:
        c = self.config
        system = system_prompt(c.task.grading_timeout, c.task.command_timeout)
        records = select_records(
            c.difficulty, c.categories, c.ids, c.split, c.num_instances_per_family, c.tier
        )
        warn_if_few_turns(records, c.task.max_turns)
        for record in records:
            data = FastAPITaskData(
                id=record["id"],
                name=record["id"],
                task_id=record["id"],
                category=record["category"],
                difficulty=record["difficulty"],
                tier=record.get("tier", "basic"),
                setup_files=record.get("setup_files") or {},
                hidden_service=bool(record.get("hidden_service")),
                prompt=record["prompt"],
                system_prompt=system,
            )
            yield FastAPITask(data, c.task)


# --------------------------------------------------------------------------- the harness
class _BoxFailed(Exception):
    """The sandbox itself failed under a tool call (dead container, engine gone)."""


class FastAPIHarness(vf.Harness):
    """The agent loop on the host; tool calls run in the rollout's DockerSandbox."""

    APPENDS_SYSTEM_PROMPT = True  # the system prompt goes out as a system message
    NEEDS_CONTAINER = False  # nothing runs in the verifiers runtime
    EXECUTES_CODE = False  # ... in the verifiers runtime: commands run in our Docker box

    async def launch(
        self,
        ctx: vf.ModelContext,
        trace: vf.Trace,
        runtime: vf.Runtime,
        endpoint: str,
        secret: str,
        mcp_urls: dict[str, str],
        data: vf.TaskData,
        **_: Any,
    ) -> vf.ProgramResult:
        rollout = _ROLLOUTS.get(trace.id)
        if rollout is None:
            raise vf.HarnessError(
                "no sandbox for this rollout: the fastapi-env harness runs only with the "
                "fastapi-env taskset, whose task setup starts the box"
            )
        endpoint = vf_runtime.host_endpoint(runtime, endpoint)  # the harness runs on the host
        system, prompt = self.resolve_text_prompt(data)
        messages: list[dict[str, Any]] = []
        if system:
            messages.append({"role": "system", "content": system})
        messages.append({"role": "user", "content": prompt or ""})
        config = rollout.config
        turns, stop = 0, "max_turns"
        async with httpx.AsyncClient(timeout=MODEL_TIMEOUT) as client:
            for turn in range(config.max_turns):
                reply = await self._complete(client, ctx, trace, endpoint, secret, messages,
                                             rollout.tools)
                if reply is None:  # the rollout was stopped by a verifiers limit
                    stop = f"stopped: {trace.stop_condition}"
                    break
                turns += 1
                messages.append(reply)
                calls = reply.get("tool_calls") or []
                if not calls:
                    stop = "no_tool_calls"
                    break
                if turn == config.max_turns - 1:
                    break  # as in 0.3: the last turn's tool calls are not run
                try:
                    for call in calls:
                        output = await run_tool(rollout.box, call, config.command_timeout,
                                                rollout.service)
                        messages.append(
                            {"role": "tool", "tool_call_id": call.get("id"), "content": output}
                        )
                except _BoxFailed as exc:
                    trace.info["harness_failure"] = str(exc)
                    stop = "sandbox_failed"
                    break
        # pid: which process ran the rollout (an env server's worker, when served)
        trace.info["harness"] = {"turns": turns, "stop": stop, "pid": os.getpid()}
        if rollout.service is not None:  # how much of the hidden service the model asked
            trace.info["harness"]["service_requests"] = rollout.service.requests_sent
        return vf.ProgramResult(exit_code=0, stdout="", stderr="")

    @staticmethod
    async def _complete(
        client: httpx.AsyncClient,
        ctx: vf.ModelContext,
        trace: vf.Trace,
        endpoint: str,
        secret: str,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
    ) -> dict[str, Any] | None:
        """One model turn through the interception; None when a verifiers limit stopped it."""
        body = {"model": ctx.model, "messages": messages, "tools": tools}
        try:
            response = await client.post(
                f"{endpoint.rstrip('/')}/chat/completions",
                json=body,
                headers={"Authorization": f"Bearer {secret}"},
            )
        except httpx.HTTPError as exc:
            raise vf.InterceptionError(f"model call failed: {exc!r}") from exc
        if response.status_code != 200:
            if trace.stop_condition is not None:
                return None
            raise vf.InterceptionError(
                f"model call failed: HTTP {response.status_code}: {response.text[:2000]}"
            )
        try:
            message = response.json()["choices"][0]["message"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise vf.InterceptionError(f"malformed model reply: {response.text[:2000]}") from exc
        reply: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
        if message.get("tool_calls"):
            reply["tool_calls"] = message["tool_calls"]
        return reply

    async def cleanup(self, trace: vf.Trace, runtime: vf.Runtime) -> None:
        rollout = _ROLLOUTS.pop(trace.id, None)
        if rollout is not None:
            await rollout.box.stop()


async def run_tool(box: Sandbox, call: dict[str, Any], command_timeout: float,
                   service: ServiceSession | None = None) -> str:
    """Run one tool call in the box and return the tool message's text, like the 0.3
    binding. Raises _BoxFailed when the box itself is gone."""
    function = call.get("function") or {}
    name = function.get("name")
    try:
        args = json.loads(function.get("arguments") or "{}")
        if not isinstance(args, dict):
            raise ValueError("the arguments are not a JSON object")
    except ValueError as exc:
        return f"Error: invalid arguments for {name}: {exc}"
    try:
        if name == "bash":
            return await _bash(box, str(args["command"]), command_timeout)
        if name == "write_file":
            return await _write_file(box, str(args["path"]), str(args["content"]))
        if name == QUERY_TOOL_NAME:
            return await run_query(service, args)
    except KeyError as exc:
        return f"Error: {name} is missing the argument {exc}"
    except Exception as exc:  # noqa: BLE001 - SandboxError, or an engine error it did not wrap
        if isinstance(exc, vf_runtime.ProviderError) or not await _alive(box):
            raise _BoxFailed(f"sandbox error during {name}: {exc}") from exc
        if isinstance(exc, SandboxError):  # e.g. a path the model may not write: its error
            return f"Error: {exc}"
        raise
    tools = "bash, write_file and query_service" if service else "bash and write_file"
    return f"Error: unknown tool {name!r}; the tools are {tools}"


async def _alive(box: Sandbox) -> bool:
    try:
        return await box.is_alive()
    except Exception:  # noqa: BLE001 - an unreachable engine: the box is as good as gone
        return False


async def _bash(box: Sandbox, command: str, timeout: float) -> str:
    result = await box.exec(command, timeout=int(timeout))
    await box.kill_model_processes()  # nothing a command starts outlives it, as in 0.3
    if result.timed_out:
        return f"Error: Command timed out after {int(timeout)}s"
    stdout = result.stdout.strip()
    stderr = result.stderr
    if result.exit_code:
        stderr += f"\n[exit code {result.exit_code}]"
    stderr = stderr.strip()
    combined = stdout
    if stderr:
        combined = f"{combined}\nstderr:\n{stderr}" if combined else f"stderr:\n{stderr}"
    return combined or "(no output)"


async def _write_file(box: Sandbox, path: str, content: str) -> str:
    target = path if path.startswith("/") else f"{WORKSPACE}/{path}"
    await box.write_file(target, content)
    return f"wrote {len(content.encode())} bytes to {target}"


# --------------------------------------------------------------------------- the env
class FastAPIEnvConfig(vf.SingleAgentEnvConfig):
    """The single-agent env with the nominal subprocess runtime as the seat's default."""

    agent: vf.AgentConfig = vf.AgentConfig(runtime=vf.SubprocessConfig())

    @model_validator(mode="after")
    def _harden_chosen_runtime(self) -> FastAPIEnvConfig:
        """A verifiers runtime the user chose gets fastapi-env's defaults for what they did
        not set (image, /workspace, empty allowlist, the taskset's CPU and memory), and no
        network notice: the system prompt already says the box has no network."""
        runtime = self.agent.runtime
        knobs = getattr(self.taskset, "task", None)  # FastAPITaskConfig, for our taskset
        if runtime.type != "subprocess":
            hardened = vf_runtime.harden(
                runtime,
                image=getattr(knobs, "image", None),
                cpus=getattr(knobs, "cpus", Limits.cpus),
                memory_mb=getattr(knobs, "memory_mb", Limits.memory_mb),
                labels=getattr(knobs, "labels", None),
            )
            notice = {} if "network_notice" in self.agent.model_fields_set else {
                "network_notice": False}
            self.agent = self.agent.model_copy(update={"runtime": hardened, **notice})
        return self


class FastAPIEnv(vf.SingleAgentEnv, vf.Env[FastAPIEnvConfig]):
    """SingleAgentEnv (one ``agent`` seat) whose runtime defaults to subprocess; on stop it
    sweeps whatever sandbox this process still owns."""

    async def stop(self) -> None:
        try:
            await super().stop()
        finally:
            await asyncio.to_thread(sweep_containers, mine_only=True)
