"""The runtime-generic path's config and Prime's requests, without a box (verifiers 0.4 only).

* ``harden`` / ``check``: what a chosen runtime gets by default and what is refused;
* Prime: the requests verifiers' own ``PrimeRuntime`` makes for our hardened config (create,
  the egress policy, each exec, the staged stdin, delete), checked against prime-sandboxes'
  request models, through a recording stand-in for its ``AsyncSandboxClient`` (no Prime key
  here, so no real sandbox: this proves the requests, not Prime's enforcement of them);
* a provider failure (a lost sandbox, a rate limit) is a scoring error, never a silent 0.
"""

from __future__ import annotations

import asyncio
import json
import shlex
from types import SimpleNamespace

import pytest

verifiers = pytest.importorskip("verifiers")
if tuple(int(p) for p in verifiers.__version__.split(".")[:2]) < (0, 4):
    pytest.skip(f"needs verifiers 0.4 (this env has {verifiers.__version__}): run it with "
                ".venv-v04/bin/pytest (scripts/test.sh does)", allow_module_level=True)

import prime_sandboxes  # noqa: E402
from prime_sandboxes import models as prime_models  # noqa: E402
from prime_sandboxes import sandbox as prime_client  # noqa: E402
from verifiers.v1.runtimes.docker import DockerConfig  # noqa: E402
from verifiers.v1.runtimes.prime import PrimeRuntime  # noqa: E402

from fastapi_env.envs import v1_env  # noqa: E402
from fastapi_env.grading.host import AnswerKey, grade  # noqa: E402
from fastapi_env.sandbox import vf_runtime  # noqa: E402
from fastapi_env.sandbox.base import HARNESS_PIDS, MODEL_UID_RANGE  # noqa: E402
from fastapi_env.sandbox.vf_runtime import (  # noqa: E402
    BOX_EXEC_SOURCE,
    PRIVATE_DIR,
    RuntimeRefused,
    RuntimeSandbox,
)

IMAGE = "registry.example/team/fastapi-env-sandbox:0485d397ab42"


def env_config(runtime: dict, **task) -> v1_env.FastAPIEnvConfig:
    """The env config with these per-run knobs (``--env.taskset.task.*``)."""
    return v1_env.FastAPIEnvConfig.model_validate(
        {"agent": {"runtime": runtime}, "taskset": {"id": "fastapi-env", "task": task}})


# --------------------------------------------------------------------------- config
def test_a_chosen_runtime_gets_the_box_defaults():
    config = env_config({"type": "docker"}, cpus=2.0, memory_mb=768)
    runtime = config.agent.runtime
    assert (runtime.allow, runtime.block) == ([], ["*"])
    assert (runtime.cpu, runtime.memory, runtime.workdir) == (2.0, 0.75, "/workspace")
    assert runtime.image.startswith("fastapi-env-sandbox:")
    assert config.agent.network_notice is False  # the system prompt already says it
    vf_runtime.check(runtime)


def test_the_default_path_is_untouched():
    config = env_config({"type": "subprocess"})
    assert config.agent.runtime.type == "subprocess" and config.agent.network_notice is True


def test_what_the_user_sets_wins_and_a_network_is_refused():
    runtime = env_config({"type": "docker", "allow": ["*"], "cpu": 4}).agent.runtime
    assert runtime.cpu == 4
    with pytest.raises(RuntimeRefused, match="must have no network"):
        vf_runtime.check(runtime)
    with pytest.raises(RuntimeRefused, match="must have no network"):
        vf_runtime.check(DockerConfig(allow=["pypi.org"], cpu=1, memory=1))
    with pytest.raises(RuntimeRefused, match="no memory limit"):
        vf_runtime.check(DockerConfig(allow=[], cpu=1))


def test_prime_needs_a_pushed_image_and_gets_the_labels():
    local = env_config({"type": "prime"}).agent.runtime
    with pytest.raises(RuntimeRefused, match="push the sandbox image"):
        vf_runtime.check(local)
    runtime = env_config({"type": "prime", "image": IMAGE}, labels={"run": "r1"}).agent.runtime
    assert runtime.labels == ["fastapi-env", "run=r1"] and runtime.memory == 0.5
    vf_runtime.check(runtime)


# --------------------------------------------------------------------------- Prime requests
class RecordingPrimeClient:
    """Stands in for prime_sandboxes.AsyncSandboxClient: records each request, validates it
    with prime-sandboxes' own models and payload builder, answers like the API."""

    def __init__(self, *_, fail_jobs: Exception | None = None, **__):
        self.requests: list[tuple[str, object]] = []
        self.fail_jobs = fail_jobs
        self.jobs: dict[str, str] = {}

    async def create(self, request):
        assert isinstance(request, prime_models.CreateSandboxRequest)
        prime_models.CreateSandboxRequest.model_validate(request.model_dump())
        self.requests.append(("create", request))
        return SimpleNamespace(id="sbx-1", pending_image_build_id=None)

    async def wait_for_creation(self, sandbox_id, max_attempts=60):
        self.requests.append(("wait", sandbox_id))

    async def execute_command(self, sandbox_id, command, **kwargs):
        self.requests.append(("execute", command))

    async def set_network(self, sandbox_id, *, allow=None, deny=None):
        payload = prime_client._network_update_payload(allow, deny)
        policy = prime_models.SandboxEgressPolicy.model_validate(payload)
        self.requests.append(("network", policy))
        return prime_models.EgressPolicyStatus(policy=policy, generation=1,
                                               applied_generation=1, applied=True)

    async def get_network(self, sandbox_id):
        raise AssertionError("the policy was applied at once")

    async def upload_bytes(self, sandbox_id, path, data, filename=None):
        self.requests.append(("upload", (path, data)))

    async def start_background_job(self, sandbox_id, command, working_dir=None, env=None,
                                   user=None):
        if self.fail_jobs is not None:
            raise self.fail_jobs
        self.requests.append(("job", SimpleNamespace(command=command, user=user)))
        job = prime_models.BackgroundJob(job_id=f"j{len(self.jobs)}", sandbox_id=sandbox_id,
                                         stdout_log_file="o", stderr_log_file="e",
                                         exit_file="x")
        self.jobs[job.job_id] = command
        return job

    async def get_background_job(self, sandbox_id, job, timeout=None):
        return prime_models.BackgroundJobStatus(job_id=job.job_id, completed=True,
                                                exit_code=0, stdout="", stderr="")

    async def delete(self, sandbox_id):
        self.requests.append(("delete", sandbox_id))
        return {}

    async def aclose(self):
        pass


@pytest.fixture
def prime(monkeypatch):
    monkeypatch.setenv("PRIME_API_KEY", "not-used-the-client-is-a-stand-in")
    monkeypatch.setenv("VF_RUN_ID", "fastapi-env-unit")
    clients: list[RecordingPrimeClient] = []

    def make(*args, **kwargs):
        clients.append(RecordingPrimeClient(*args, **kwargs))
        return clients[-1]

    monkeypatch.setattr(prime_sandboxes, "AsyncSandboxClient", make)
    config = env_config({"type": "prime", "image": IMAGE}, labels={"run": "r1"}).agent.runtime
    return config, clients


def box_exec_spec(command: str) -> dict:
    argv = shlex.split(command)
    assert argv[:4] == ["python3", "-I", "-S", "-c"] and argv[4] == BOX_EXEC_SOURCE
    return json.loads(argv[5])


def test_prime_requests_match_prime_sandboxes_models(prime):
    config, clients = prime

    async def rollout():
        runtime = PrimeRuntime(config)
        await runtime.start()
        await runtime.prepare_execution(["https://tunnel.example/v1"])
        box = RuntimeSandbox(runtime)
        await box.start()
        await box.exec("ls", timeout=7)
        await box.run_python("print(1)", stdin=b'{"nonce": "n0nce"}')
        await runtime.stop()
        return box

    box = asyncio.run(rollout())
    [client] = clients
    kinds = [kind for kind, _ in client.requests]
    assert kinds[:3] == ["create", "wait", "execute"] and kinds[-1] == "delete"
    create = client.requests[0][1]
    assert create.docker_image == IMAGE
    assert (create.cpu_cores, create.memory_gb) == (1.0, 0.5)
    assert {"fastapi-env", "run=r1", "fastapi-env-unit"} <= set(create.labels)
    assert create.idle_timeout_minutes == 60 and create.timeout_minutes == -1
    # verifiers 0.4 creates without an allowlist and restricts before the first model turn:
    assert create.network_allowlist is None
    [network] = [r for kind, r in client.requests if kind == "network"]
    assert network.allowlist == ["tunnel.example"] and network.denylist is None
    assert kinds.index("network") < kinds.index("job")
    jobs = [r for kind, r in client.requests if kind == "job"]
    assert all(job.user is None for job in jobs)  # root runs box_exec, which drops to the model
    specs = [box_exec_spec(job.command) for job in jobs[1:]]
    assert [(s["uid"], s["gid"]) for s in specs] == [box.model_ids] * 2
    assert box.model_ids[0] in MODEL_UID_RANGE and box.model_ids[0] == box.model_ids[1]
    assert [s["nproc"] for s in specs] == [128 - HARNESS_PIDS] * 2
    prepare = shlex.split(jobs[0].command)[-1]
    assert f"model:x:{box.model_ids[0]}:{box.model_ids[1]}:" in prepare
    assert specs[0]["argv"] == ["/bin/sh", "-c", "ls"] and specs[0]["timeout"] == 7
    # the job reaches the box as a root-only file, never on a command line
    [(path, data)] = [r for kind, r in client.requests if kind == "upload"]
    assert path.startswith(PRIVATE_DIR + "/") and specs[1]["stdin_path"] == path
    assert data == b'{"nonce": "n0nce"}'
    assert not any("n0nce" in job.command for job in jobs)


# --------------------------------------------------------------------------- failures
def test_a_provider_failure_is_a_scoring_error_never_a_zero(prime, monkeypatch):
    config, clients = prime
    rate_limited = prime_sandboxes.APIError("HTTP 429: rate limit exceeded")

    async def rollout():
        runtime = PrimeRuntime(config)
        await runtime.start()
        clients[0].fail_jobs = rate_limited
        box = RuntimeSandbox(runtime)
        call = {"id": "c1", "function": {"name": "bash", "arguments": '{"command": "ls"}'}}
        with pytest.raises(v1_env._BoxFailed, match="rate limit"):
            await v1_env.run_tool(box, call, 30)
        graded = await grade(box, "", AnswerKey(rows=[], probes={}), timeout=5)
        await runtime.stop()
        return graded

    graded = asyncio.run(rollout())
    assert graded.reward == 0.0 and graded.scoring_error  # the box no longer answers


def test_a_box_prime_killed_for_memory_is_the_models_zero(prime):
    """Prime reports a box its processes ran out of memory as SandboxOOMError: the model's."""
    config, clients = prime

    async def rollout():
        runtime = PrimeRuntime(config)
        await runtime.start()
        clients[0].fail_jobs = prime_sandboxes.SandboxOOMError("sbx-1", "OOM_KILLED")
        graded = await grade(RuntimeSandbox(runtime), "", AnswerKey(rows=[], probes={}))
        await runtime.stop()
        return graded

    graded = asyncio.run(rollout())
    assert graded.reward == 0.0 and graded.scoring_error is None and "memory" in graded.reason


def test_a_create_that_fails_is_a_rollout_error(prime, monkeypatch):
    config, _ = prime

    async def boom(self, request):
        raise TimeoutError("create timed out")

    monkeypatch.setattr(RecordingPrimeClient, "create", boom)
    from verifiers.v1.errors import SandboxError as VfSandboxError

    with pytest.raises(VfSandboxError, match="provisioning failed"):
        asyncio.run(PrimeRuntime(config).start())
