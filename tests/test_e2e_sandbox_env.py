"""End to end: the real vf-eval CLI, the SandboxEnv binding, real containers, scripted policies."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid

import pytest

from fastapi_env.dataset import load_records
from fastapi_env.evaluate import run_vf_eval
from fastapi_env.tasks import TIERS, load_tasks

from .conftest import interfere_with_first, labelled_containers, sleep_first

pytestmark = pytest.mark.docker


def sample_ids(count: int = 12) -> list[str]:
    """One instance of every tier beyond basic (service, repair, recent, security), then
    instances from as many categories as possible and from both splits, deterministic:
    category by category, alternately a test-split and a train-split family's instance (its
    second instance when it has one, so drawn instances are exercised, not only originals)."""
    records = sorted(load_records(), key=lambda r: (r["original"], r["id"]))
    by_category: dict[str, dict[str, list[str]]] = {}
    for record in records:
        splits = by_category.setdefault(record["category"], {"test": [], "train": []})
        splits[record["split"]].append(record["id"])
    ids: list[str] = []
    for tier in TIERS[1:]:
        ids += [r["id"] for r in records if r.get("tier") == tier][:1]
    turn = 0
    while len(ids) < min(count, len(records)):
        for splits in by_category.values():
            preferred = ("test", "train") if turn % 2 == 0 else ("train", "test")
            for split in preferred:
                taken = [i for i in splits[split] if i not in ids]
                if taken and len(ids) < count:
                    ids.append(taken[0])
                    turn += 1
                    break
    return ids


IDS = sample_ids()
RUN_LABEL = f"fastapi-env.test-run={uuid.uuid4().hex[:12]}"  # this test run's boxes only


def ours() -> list[str]:
    return labelled_containers(RUN_LABEL)


def env_args(ids: list[str], **extra) -> dict:
    key, value = RUN_LABEL.split("=")
    return {"ids": ids, "labels": {key: value}, **extra}


def evaluate(policy: str, tmp_path, rollouts: int = 2, **kwargs):
    run = run_vf_eval(
        policy, rollouts=rollouts, concurrency=8, env_args=env_args(IDS), output_dir=tmp_path,
        **kwargs,
    )
    assert len(run.rollouts) == rollouts * len(IDS), "vf-eval exits 0 even when rollouts fail"
    assert ours() == [], "containers left after vf-eval"
    return run


def report_of(run, part: str = "all") -> dict:
    """`fastapi-env report --json` on the saved run: it must read what the policy scored."""
    done = subprocess.run([sys.executable, "-m", "fastapi_env.cli", "report",
                           str(run.results_dir), "--json"], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)["runs"][0][part]


def test_at_least_ten_tasks_are_exercised():
    assert len(IDS) >= 10


def test_only_blackbox_tasks_are_offered_query_service():
    """The env holds the services by task id (host side); the tool is in no env-wide tool
    list, so setup_state adds it to a black-box rollout's tools alone."""
    from fastapi_env.envs.sandbox_env import load_environment

    env = load_environment(tier=["blackbox", "repair"], num_instances_per_family=1,
                           warm_pool=0)
    rows = {row["info"]["task_id"]: row["info"]["tier"] for row in env.dataset}
    assert set(env.services) == {i for i, tier in rows.items() if tier == "blackbox"} != set()
    assert "query_service" not in [t.name for t in env.tool_defs]
    assert "query_service" in env.tool_map


def test_reference_policy_scores_one(tmp_path):
    run = evaluate("reference", tmp_path)
    failures = [
        (r["info"]["task_id"], r.get("grade", {}).get("reason"))
        for r in run.rollouts
        if r["reward"] != 1.0
    ]
    assert failures == []
    assert run.mean_reward == 1.0 and run.scoring_errors() == []
    assert (run.results_dir / "metadata.json").exists()
    summary = report_of(run)
    assert (summary["tasks"], summary["rollouts"]) == (len(IDS), 2 * len(IDS))
    assert summary["mean_reward"] == 1.0 and summary["pass_at_k"] == {"1": 1.0, "2": 1.0}
    assert summary["scoring_errors"] == 0
    assert all(r["security_ok"] == 1.0 for r in run.rollouts)
    by_tier = report_of(run, "tier")
    assert set(by_tier) == set(TIERS) and all(t["mean_reward"] == 1.0 for t in by_tier.values())


def test_partial_reward_is_the_fraction_of_requirements_met(tmp_path):
    """The rows-only policy meets one unit (the result rows) of a service task's
    requirements + 1; the security task's noop leaves security_ok at 0."""
    service = next(r for r in load_records() if r.get("tier") == "service")
    security = next(r for r in load_records() if r.get("tier") == "security")
    task = next(t for t in load_tasks({"service"}) if t.id == service["id"])
    run = run_vf_eval("rows-only", rollouts=1, env_args=env_args(
        [service["id"], security["id"]], reward_mode="partial", warm_pool=0),
        output_dir=tmp_path)
    rewards = {r["info"]["task_id"]: r for r in run.rollouts}
    assert rewards[service["id"]]["reward"] == pytest.approx(1 / (len(task.requirements) + 1))
    assert rewards[security["id"]]["security_ok"] == 0.0
    assert run.scoring_errors() == [] and ours() == []


@pytest.mark.parametrize("policy", ["noop", "syntax-error", "rows-only"])
def test_negative_policies_score_zero_without_scoring_errors(policy, tmp_path):
    # one rollout per task: the reference's run covers -r 2 (with two, these three took 512 s
    # of a 1,562 s run of the main suite on a loaded machine)
    run = evaluate(policy, tmp_path, rollouts=1)
    assert [r["reward"] for r in run.rollouts] == [0.0] * len(run.rollouts)
    assert run.scoring_errors() == []
    if policy == "rows-only":  # the visible rows match: only the hidden probes catch it
        assert all(r["rows_matched"] == 1.0 and r["probes_matched"] < 1.0 for r in run.rollouts)
    summary = report_of(run)
    assert summary["mean_reward"] == 0.0 and summary["pass_at_k"]["1"] == 0.0


def test_a_container_killed_mid_rollout_is_a_scoring_error(tmp_path):
    killer = threading.Thread(target=interfere_with_first, args=(RUN_LABEL,))
    killer.start()
    run = run_vf_eval(
        "sleepy",
        num_examples=1,
        rollouts=1,
        env_args=env_args(IDS[:1], warm_pool=0),  # the first container is the rollout's
        output_dir=tmp_path,
        extra_policies={"sleepy": sleep_first(25)},
    )
    killer.join()
    [rollout] = run.rollouts
    assert rollout["reward"] == 0.0
    assert rollout["scoring_error"] == 1.0
    assert rollout["grade"]["scoring_error"], rollout["grade"]
    assert ours() == []


def test_no_container_is_left():
    assert ours() == []
