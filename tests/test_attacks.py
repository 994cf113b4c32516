"""Hostile policies end to end through the SandboxEnv binding, with real containers.

Every attack runs at the same time as honest reference rollouts, which must still score 1.0.
"""

from __future__ import annotations

import asyncio

import pytest

from fastapi_env.attacks import ATTACKS, attack_policies, honest_reward
from fastapi_env.evaluate import evaluate_in_process

from .conftest import labelled_containers, original_ids

pytestmark = pytest.mark.docker

IDS = original_ids("responses/response_model_filtering", "errors/http_exception_headers")
LIMITS = {"command_timeout": 10, "grading_timeout": 20, "memory_mb": 256, "pids": 64}


def mem_available_kib() -> int:
    for line in open("/proc/meminfo"):
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    raise RuntimeError("no MemAvailable")


@pytest.fixture(scope="module")
def outcomes():
    before = mem_available_kib()
    policies = ["reference", *attack_policies()]
    results = asyncio.run(evaluate_in_process(
        policies, ids=IDS, rollouts=1, concurrency=6, env_kwargs=LIMITS,
        extra_policies=attack_policies()))
    return results, before, mem_available_kib()


def test_every_attack_runs_on_every_task(outcomes):
    results, _, _ = outcomes
    assert set(results) == {"reference", *(f"attack-{name}" for name in ATTACKS)}
    assert all(len(rollouts) == len(IDS) for rollouts in results.values())


@pytest.mark.parametrize("policy", ["reference", *attack_policies()])
def test_reward_is_what_the_app_honestly_earns(outcomes, policy):
    results, _, _ = outcomes
    expected = 1.0 if policy == "reference" else honest_reward(policy)
    for rollout in results[policy]:
        grade = rollout.get("grade") or {}
        assert rollout["reward"] == expected, (rollout["info"]["task_id"], grade.get("reason"))
        assert not grade.get("scoring_error"), grade.get("scoring_error")


def test_attacks_leave_the_host_and_no_container_behind(outcomes):
    _, before, after = outcomes
    assert after > before * 0.5, f"host MemAvailable fell from {before} to {after} KiB"
    from fastapi_env.sandbox.docker import OWNER

    assert labelled_containers(f"fastapi-env.owner={OWNER}") == []
