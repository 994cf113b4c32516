"""End to end on verifiers 0.4: the real 0.4 vf-eval CLI, the v1 binding, real containers,
scripted policies. The same checks as test_e2e_sandbox_env.py (the 0.3 binding).

Runs only where verifiers 0.4 is installed (``.venv-v04``, made by ``scripts/venv-v04.sh``):
``.venv-v04/bin/pytest -q tests/test_e2e_v1.py``. Elsewhere the module skips.
"""

from __future__ import annotations

import sys
import threading
import uuid
from pathlib import Path

import pytest

verifiers = pytest.importorskip("verifiers")


def _release(version: str) -> tuple[int, ...]:
    return tuple(int(p) for p in version.split(".")[:2] if p.isdigit())


if _release(verifiers.__version__) < (0, 4):
    pytest.skip(
        f"needs verifiers 0.4 (this env has {verifiers.__version__}): run "
        "`bash scripts/venv-v04.sh && .venv-v04/bin/pytest -q tests/test_e2e_v1.py`",
        allow_module_level=True,
    )

from fastapi_env.evaluate import run_vf_eval_v1  # noqa: E402

from .conftest import interfere_with_first, labelled_containers, sleep_first  # noqa: E402
from .test_e2e_sandbox_env import sample_ids  # noqa: E402

pytestmark = pytest.mark.docker

IDS = sample_ids()
VF_EVAL = Path(sys.executable).with_name("vf-eval")  # this interpreter's: verifiers 0.4
# Other sessions may run sandboxes on the same engine at the same time: every run here labels
# its boxes with a token, and the tests look only at (and kill only) boxes carrying theirs.
RUN_LABEL = "fastapi-env.e2e-v1"


def run_labels() -> tuple[dict[str, str], str]:
    token = uuid.uuid4().hex[:12]
    return {RUN_LABEL: token}, f"{RUN_LABEL}={token}"


def evaluate(policy: str, tmp_path, **kwargs):
    labels, mine = run_labels()
    run = run_vf_eval_v1(
        policy,
        rollouts=2,
        concurrency=4,
        taskset_args={"ids": IDS},
        task_args={"labels": labels},
        output_dir=tmp_path,
        vf_eval=VF_EVAL,
        **kwargs,
    )
    assert len(run.rollouts) == 2 * len(IDS), "vf-eval exits 0 even when rollouts fail: count"
    errors = [(r["info"]["task_id"], r["errors"]) for r in run.rollouts if r["errors"]]
    assert errors == [], "rollouts errored (no reward recorded)"
    assert labelled_containers(mine) == [], "containers left after vf-eval"
    return run


def test_at_least_ten_tasks_are_exercised():
    assert len(IDS) >= 10


def test_the_package_exports_the_v1_plugins():
    import fastapi_env
    from fastapi_env.envs import v1_env

    exported = {name: getattr(fastapi_env, name) for name in fastapi_env.__all__}
    assert exported["FastAPITaskset"] is v1_env.FastAPITaskset
    assert exported["FastAPIHarness"] is v1_env.FastAPIHarness
    assert exported["FastAPIEnv"] is v1_env.FastAPIEnv
    assert v1_env.FastAPIEnvConfig().agent.runtime.type == "subprocess"


def test_the_rubric_reads_the_stored_grade():
    """In process, no box: partial mode, and a rollout never graded is a scoring error."""
    import asyncio

    import verifiers.v1 as vf

    from fastapi_env.envs.v1_env import FastAPITaskset, FastAPITasksetConfig
    from fastapi_env.grading.host import Grade

    config = FastAPITasksetConfig(id="fastapi-env", ids=IDS[:1], task={"reward_mode": "partial"})
    [task] = list(FastAPITaskset(config))
    assert "rows" not in task.data.model_dump() and task.config.reward_mode == "partial"

    def scored(grade: Grade | None) -> vf.Trace:
        agent = vf.AgentInfo(config=vf.AgentConfig(model="m"))
        trace = vf.Trace(task=vf.TraceTask(type="FastAPITask", data=task.data), agent=agent)
        if grade is not None:
            trace.info["grade"] = grade.to_dict()
        asyncio.run(task.score(trace))
        return trace

    partial = scored(Grade(0.0, True, 1.0, False, 0.5, True, "one probe of two",
                           requirements_fraction=0.75, security_ok=True))
    assert partial.reward == 0.75 and partial.metrics["scoring_error"] == 0.0
    assert partial.metrics["security_ok"] == 1.0
    never = scored(None)
    assert never.reward == 0.0 and never.metrics["scoring_error"] == 1.0


def test_reference_policy_scores_one(tmp_path):
    run = evaluate("reference", tmp_path)
    failures = [
        (r["info"]["task_id"], (r["grade"] or {}).get("reason"))
        for r in run.rollouts
        if r["reward"] != 1.0
    ]
    assert failures == []
    assert run.mean_reward == 1.0 and run.scoring_errors() == []
    assert all(r["module_imported"] == 1.0 for r in run.rollouts)
    assert all(r["security_ok"] == 1.0 for r in run.rollouts)
    assert (run.results_dir / "traces.jsonl").exists()


def test_repair_tasks_carry_their_setup_files_in_the_task_data():
    from fastapi_env.envs.v1_env import FastAPITaskset, FastAPITasksetConfig

    config = FastAPITasksetConfig(id="fastapi-env", tier="repair", num_instances_per_family=1)
    tasks = list(FastAPITaskset(config))
    assert tasks and all(t.data.tier == "repair" and t.data.setup_files for t in tasks)
    assert "solution.py" in tasks[0].data.setup_files


def test_only_blackbox_tasks_get_query_service_and_none_carries_the_service():
    from fastapi_env.dataset import task_service
    from fastapi_env.envs.v1_env import (
        TOOLS,
        FastAPITaskset,
        FastAPITasksetConfig,
        _Rollout,
    )
    from fastapi_env.hidden_service import ServiceSession

    config = FastAPITasksetConfig(id="fastapi-env", tier=["blackbox", "repair"],
                                  num_instances_per_family=1)
    tasks = list(FastAPITaskset(config))
    blackbox = [t for t in tasks if t.data.tier == "blackbox"]
    assert blackbox and all(t.data.hidden_service for t in blackbox)
    assert not any(t.data.hidden_service for t in tasks if t.data.tier != "blackbox")
    for task in blackbox:  # the wire form (what traces record) holds no line of the service
        source, wire = task_service(task.data.task_id), task.data.model_dump_json()
        assert source and "def handle(raw):" in source and "def handle(raw):" not in wire
    plain = _Rollout(box=None, config=tasks[0].config)  # type: ignore[arg-type]
    asked = _Rollout(box=None, config=tasks[0].config,  # type: ignore[arg-type]
                     service=ServiceSession(None, "x"))  # type: ignore[arg-type]
    assert plain.tools == TOOLS
    assert [t["function"]["name"] for t in asked.tools] == ["bash", "write_file", "query_service"]


@pytest.mark.parametrize("policy", ["noop", "syntax-error", "rows-only"])
def test_negative_policies_score_zero_without_scoring_errors(policy, tmp_path):
    run = evaluate(policy, tmp_path)
    assert [r["reward"] for r in run.rollouts] == [0.0] * len(run.rollouts)
    assert run.scoring_errors() == []
    assert all(r["scoring_error"] == 0.0 for r in run.rollouts)
    if policy == "rows-only":  # the visible rows match: only the hidden probes catch it
        assert all(r["rows_matched"] == 1.0 and r["probes_matched"] < 1.0 for r in run.rollouts)


def run_one(policy: str, tmp_path, labels: dict[str, str], **kwargs):
    """One rollout of the first task, its boxes labelled with ``labels``."""
    return run_vf_eval_v1(policy, num_examples=1, rollouts=1,
                          taskset_args={"ids": IDS[:1]}, task_args={"labels": labels},
                          output_dir=tmp_path, vf_eval=VF_EVAL, **kwargs)


def test_a_container_killed_mid_rollout_is_a_scoring_error(tmp_path):
    labels, mine = run_labels()

    killer = threading.Thread(target=interfere_with_first, args=(mine,))
    killer.start()
    run = run_one("sleepy", tmp_path, labels, extra_policies={"sleepy": sleep_first(25)})
    killer.join()
    [rollout] = run.rollouts
    assert rollout["errors"] == []
    assert rollout["reward"] == 0.0
    assert rollout["scoring_error"] == 1.0
    assert rollout["grade"]["scoring_error"], rollout["grade"]
    assert rollout["harness"]["stop"] == "sandbox_failed", rollout["harness"]
    assert labelled_containers(mine) == []


def test_another_harness_is_refused_before_any_box_starts(tmp_path):
    """The built-in bash harness would run the model's commands on the host."""
    labels, mine = run_labels()
    run = run_one("reference", tmp_path, labels, extra_args=["--env.agent.harness.id", "bash"])
    [rollout] = run.rollouts
    assert not rollout["ok"] and rollout["grade"] is None
    assert "its own harness" in rollout["errors"][-1]["message"]
    assert labelled_containers(mine) == []


def test_no_container_is_left():
    assert labelled_containers(RUN_LABEL) == [], "boxes of this module's runs remain"
