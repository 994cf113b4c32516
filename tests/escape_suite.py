"""The escape suite's one run through the real vf-eval, shared by the 0.3 and 0.4 tests: every
task played by an escape or by ``reference`` beside it (``attacks.escape_suite_assignment``)."""

from __future__ import annotations

import uuid

from fastapi_env.attacks import escape_suite_assignment, escape_suite_policy, expected_reward
from fastapi_env.dataset import select_records

from .conftest import labelled_containers

# One instance (the original) of every basic family: each escape plays a single-file task.
IDS = sorted(r["id"] for r in select_records(None, None, None, "all", 1, "basic"))
ASSIGNED = escape_suite_assignment(IDS)
# Small boxes and short timeouts, as the attack suite's; turns enough for the write_file
# mistakes and the solution that follows them.
SETTINGS = {"command_timeout": 10, "grading_timeout": 20, "memory_mb": 256, "pids": 64,
            "max_turns": 8}
LABEL = "fastapi-env.escape-run"


def run_labels() -> tuple[dict[str, str], str]:
    token = uuid.uuid4().hex[:12]
    return {LABEL: token}, f"{LABEL}={token}"


def policies() -> dict:
    return {"escape-suite": escape_suite_policy(IDS)}


def check(run, mine: str) -> None:
    """Every rollout: the reward its policy honestly earns, no scoring_error, no rollout error;
    every task played; no container left."""
    assert sorted(r["info"]["task_id"] for r in run.rollouts) == IDS
    wrong = []
    for rollout in run.rollouts:
        policy = ASSIGNED[rollout["info"]["task_id"]]
        grade = rollout.get("grade") or {}
        if (rollout["reward"] != expected_reward(policy) or grade.get("scoring_error")
                or rollout.get("scoring_error") or rollout.get("errors")
                or rollout.get("error")):
            wrong.append((policy, rollout["reward"], grade.get("scoring_error"),
                          rollout.get("errors") or rollout.get("error"),
                          str(grade.get("reason"))[:300]))
    assert wrong == [], "\n".join(map(str, wrong))
    assert labelled_containers(mine) == [], "containers left after vf-eval"
