"""Broken infrastructure: what the environment does when the engine, the image or a container
fails. Expected: a clear error at start, or ``scoring_error`` with its reason, never a silent 0;
the other rollouts complete; nothing is left behind."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time

import pytest

from fastapi_env import load_environment
from fastapi_env.evaluate import evaluate_in_process
from fastapi_env.sandbox import SandboxError
from fastapi_env.sandbox.docker import OWNER

from .conftest import interfere_with_first, labelled_containers, original_ids, sleep_first

pytestmark = pytest.mark.docker

IDS = original_ids("responses/response_model_filtering", "routing/method_not_allowed")


MINE = f"fastapi-env.owner={OWNER}"
NO_POOL = {"warm_pool": 0}  # the first new container is then the rollout's own


def mine() -> list[str]:
    return labelled_containers(MINE)


def test_missing_image_is_a_clear_error_at_start():
    with pytest.raises(SandboxError, match="not found: run `fastapi-env image build`"):
        load_environment(ids=IDS[:1], image="fastapi-env-sandbox:does-not-exist")


def test_absent_engine_is_a_clear_error_at_start():
    script = ("from fastapi_env import load_environment\n"
              "load_environment(ids=['responses/response_model_filtering'])\n")
    env = os.environ | {"DOCKER_HOST": "unix:///nonexistent/docker.sock"}
    done = subprocess.run(["python", "-c", script], env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "cannot reach the Docker engine" in done.stderr


def test_too_little_memory_for_the_grader_is_refused():
    with pytest.raises(ValueError, match="memory_mb must be at least"):
        load_environment(ids=IDS[:1], memory_mb=64)


def test_the_retired_prime_backend_says_where_prime_runs_now():
    with pytest.raises(ValueError, match="--env.agent.runtime.type prime"):
        load_environment(ids=IDS[:1], sandbox="prime", image="registry.example/x:1")


@pytest.mark.parametrize("action", ["kill", "pause"])
def test_a_container_killed_or_paused_mid_rollout_is_a_scoring_error(action):
    slow = sleep_first(8)

    async def run():
        interference = asyncio.get_running_loop().run_in_executor(
            None, interfere_with_first, MINE, action, 2)
        results = await evaluate_in_process(["slow"], ids=IDS[:1], rollouts=1,
                                            env_kwargs=NO_POOL, extra_policies={"slow": slow})
        await interference
        return results["slow"]

    [rollout] = asyncio.run(run())
    assert rollout["reward"] == 0.0
    assert rollout["grade"]["scoring_error"], rollout["grade"]
    assert mine() == []


def test_other_rollouts_complete_when_one_container_dies():
    slow = sleep_first(6)

    async def run():
        interference = asyncio.get_running_loop().run_in_executor(
            None, interfere_with_first, MINE, "kill", 1)
        results = await evaluate_in_process(["slow"], ids=IDS, rollouts=2, concurrency=1,
                                            env_kwargs=NO_POOL, extra_policies={"slow": slow})
        await interference
        return results["slow"]

    rollouts = asyncio.run(run())
    errors = [r for r in rollouts if r["grade"]["scoring_error"]]
    assert len(errors) == 1
    assert [r["reward"] for r in rollouts if r not in errors] == [1.0] * 3
    assert mine() == []


ENGINE_PID_FILE = os.environ.get("FASTAPI_ENV_RESTARTABLE_ENGINE_PID_FILE")


@pytest.mark.skipif(not ENGINE_PID_FILE, reason="restarts the Docker engine: only where the "
                    "tests own it (set FASTAPI_ENV_RESTARTABLE_ENGINE_PID_FILE, as CI does)")
def test_engine_restarted_mid_evaluation():
    """Rollouts caught by the restart are scoring errors; the evaluation completes; nothing is
    left once the engine is back."""

    slow = sleep_first(6)

    def restart_engine() -> None:
        deadline = time.monotonic() + 120
        while not mine() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1)
        pid = int(open(ENGINE_PID_FILE).read())
        os.kill(pid, 15)
        while os.path.exists(f"/proc/{pid}") and time.monotonic() < deadline:
            time.sleep(0.2)
        subprocess.run(["bash", "scripts/start-docker.sh"], check=True, capture_output=True)

    async def run():
        restart = asyncio.get_running_loop().run_in_executor(None, restart_engine)
        results = await evaluate_in_process(["slow"], ids=IDS, rollouts=2, concurrency=4,
                                            env_kwargs={"warm_pool": 0},
                                            extra_policies={"slow": slow})
        await restart
        return results["slow"]

    rollouts = asyncio.run(run())
    assert len(rollouts) == 4
    assert all(r["reward"] == 1.0 or (r.get("grade") or {}).get("scoring_error")
               for r in rollouts), [r.get("grade") for r in rollouts]
    assert any((r.get("grade") or {}).get("scoring_error") for r in rollouts)
    from fastapi_env.sandbox.docker import sweep

    sweep(mine_only=True)
    assert mine() == []
