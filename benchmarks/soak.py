"""Soak run: hundreds of rollouts at high concurrency with a mix of honest, negative and hostile
policies (the attacks and every escape of ``attacks.ESCAPES``), through the real SandboxEnv
binding and real containers. A script, not a test.

    uv run python benchmarks/soak.py [--rollouts-per-task 12] [--concurrency 16]

Each task is played by one policy (assigned round-robin over the tasks sorted by id), so every
class of policy runs beside the others the whole time; each pass runs every task once.
Prints rollouts completed, harness errors (scoring errors and rollout errors), leaked containers
(must be 0), peak host memory, and the mean reward of each policy class against what it honestly
earns.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import time
import uuid
from collections import defaultdict

from fastapi_env import load_environment
from fastapi_env.attacks import ATTACKS, ESCAPES, escape_policies
from fastapi_env.bench import HostMemory
from fastapi_env.dataset import select_records
from fastapi_env.evaluate import evaluate_in_process
from fastapi_env.policy_server import POLICIES

ATTACK_NAMES = ["fork-bomb", "memory-bomb", "gigantic-output", "kill-grader", "kill-init",
                "fake-grader-output", "monkeypatch-json-stdout", "result-nan",
                "shadow-imports", "network-look", "credential-hunt", "noisy-correct-app"]
HONEST = {"reference": 1.0, "noop": 0.0, "syntax-error": 0.0, "rows-only": 0.0}


def assignment() -> dict[str, str]:
    """Task id -> the policy that plays it."""
    policies = [*HONEST, *(f"attack-{name}" for name in ATTACK_NAMES), *escape_policies()]
    ids = sorted(r["id"] for r in select_records(None, None, None, "all", 1))
    return {task_id: policies[i % len(policies)] for i, task_id in enumerate(ids)}


def expected_reward(policy: str) -> float:
    if policy.startswith("escape-"):
        return ESCAPES[policy.removeprefix("escape-")][1]
    return HONEST.get(policy, ATTACKS.get(policy.removeprefix("attack-"), (None, 0.0))[1])


def mixed_policy(plan: dict[str, str]):
    scripts = {**POLICIES, **{f"attack-{n}": ATTACKS[n][0] for n in ATTACK_NAMES},
               **escape_policies()}

    def play(task, rows):
        return scripts[plan[task.id]](task, rows)

    return play


async def run_passes(passes: int, concurrency: int, env_kwargs: dict,
                     plan: dict[str, str]) -> list[dict]:
    """One rollout per task per pass: verifiers runs a task's rollouts together, so this keeps
    the number of rollouts in flight at ``concurrency``."""
    env = load_environment(**env_kwargs)
    rollouts: list[dict] = []
    try:
        for number in range(passes):
            results = await evaluate_in_process(["mixed"], rollouts=1, concurrency=concurrency,
                                                env=env,
                                                extra_policies={"mixed": mixed_policy(plan)})
            rollouts += results["mixed"]
            print(f"[soak] pass {number + 1}/{passes}: {len(rollouts)} rollouts", flush=True)
    finally:
        await env.teardown_sandboxes()
    return rollouts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rollouts-per-task", type=int, default=12)
    parser.add_argument("--concurrency", type=int, default=16)
    args = parser.parse_args()
    plan = assignment()
    label = f"soak-{uuid.uuid4().hex[:8]}"
    env_kwargs = {"command_timeout": 10, "grading_timeout": 15, "max_turns": 8,
                  "num_instances_per_family": 1,
                  "labels": {"fastapi-env.soak": label}}
    started = time.monotonic()
    with HostMemory() as memory:
        rollouts = asyncio.run(run_passes(args.rollouts_per_task, args.concurrency, env_kwargs,
                                          plan))
    wall = time.monotonic() - started
    time.sleep(2)
    leaked = subprocess.run(["docker", "ps", "-aq", "--filter", f"label=fastapi-env.soak={label}"],
                            capture_output=True, text=True).stdout.split()
    by_policy: dict[str, list[float]] = defaultdict(list)
    harness_errors = []
    for rollout in rollouts:
        policy = plan[rollout["info"]["task_id"]]
        grade = rollout.get("grade") or {}
        if grade.get("scoring_error"):
            harness_errors.append((policy, grade["scoring_error"]))
        elif rollout.get("error"):  # a rollout error: prime-rl would mask or drop it
            harness_errors.append((policy, f"rollout error: {rollout['error']}"))
        by_policy[policy].append(rollout["reward"])
    print(f"rollouts completed: {len(rollouts)} in {wall:.0f} s "
          f"({60 * len(rollouts) / wall:.1f} per minute) at concurrency {args.concurrency}")
    print(f"harness errors (scoring_error or rollout error): {len(harness_errors)}")
    for policy, reason in harness_errors[:10]:
        print(f"  {policy}: {str(reason)[:160]}")
    print(f"leaked containers: {len(leaked)}")
    print(f"peak host memory in use above idle: {memory.peak / 2**20:.0f} MiB")
    print(f"{'policy':<40} {'rollouts':>8} {'mean reward':>12} {'honest':>7}")
    for policy in sorted(by_policy):
        rewards = by_policy[policy]
        flag = "" if statistics.fmean(rewards) == expected_reward(policy) else "  MISMATCH"
        print(f"{policy:<40} {len(rewards):>8} {statistics.fmean(rewards):12.3f} "
              f"{expected_reward(policy):7.1f}{flag}")


if __name__ == "__main__":
    main()
