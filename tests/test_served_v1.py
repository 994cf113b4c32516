"""Served end to end on verifiers 0.4, as prime-rl runs it: ``EnvServer`` (and an
``EnvServerPool`` of 2 worker processes) on loopback, each task sent over ZMQ as its
``TaskData`` dump through ``EnvClient``, real containers, scripted policies.

Runs only where verifiers 0.4 is installed: ``.venv-v04/bin/pytest -q tests/test_served_v1.py``.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
import uuid

import pytest

verifiers = pytest.importorskip("verifiers")
if tuple(int(p) for p in verifiers.__version__.split(".")[:2]) < (0, 4):
    pytest.skip(f"needs verifiers 0.4 (this env has {verifiers.__version__}): run "
                "`.venv-v04/bin/pytest -q tests/test_served_v1.py`", allow_module_level=True)

from fastapi_env.dataset import load_keys, load_records  # noqa: E402
from fastapi_env.served import run_served  # noqa: E402

from .conftest import labelled_containers  # noqa: E402
from .test_e2e_sandbox_env import sample_ids  # noqa: E402

pytestmark = pytest.mark.docker


def load_records_by_id() -> dict[str, dict]:
    return {r["id"]: r for r in load_records()}

IDS = sample_ids()
# max_turns=2 below: tasks the scripted reference solves in one turn (a repair task's first
# turn lists /workspace, so it needs three)
SHORT = [i for i in IDS if load_records_by_id()[i].get("tier", "basic") == "basic"][:4]
RUN_LABEL = "fastapi-env.served-v1"  # this module's boxes, apart from other sessions'


def first_box_memory(label: str, seen: dict, done: threading.Event) -> None:
    """Watch for a box carrying ``label`` (the labels reached the server) and note its memory
    limit (so did the limits)."""
    while not done.is_set():
        for box in labelled_containers(label):
            found = subprocess.run(["docker", "inspect", "--format", "{{.HostConfig.Memory}}",
                                    box], capture_output=True, text=True)
            if found.returncode == 0:
                seen["memory"] = int(found.stdout)
                return
        time.sleep(0.2)


def serve(policies, ids, workers=1, **task_args):
    token = uuid.uuid4().hex[:12]
    task_args = {"labels": {RUN_LABEL: token}} | task_args
    seen: dict = {}
    done = threading.Event()
    watcher = threading.Thread(target=first_box_memory, args=(f"{RUN_LABEL}={token}", seen, done))
    watcher.start()
    try:
        runs = run_served(policies, workers=workers, concurrency=4, taskset_args={"ids": ids},
                          task_args=task_args)
    finally:
        done.set()
        watcher.join()
    assert "memory" in seen, "no box carried the run's label: labels did not reach the server"
    for run in runs.values():
        run.box_memory = seen["memory"]
    for policy, run in runs.items():
        print(f"served ({workers} worker(s)) {policy}: {len(run.rollouts)} rollouts, mean "
              f"reward {run.mean_reward:.3f}, scoring errors {len(run.scoring_errors())}, "
              f"session wall time {run.seconds:.1f} s")
        assert len(run.rollouts) == len(ids), "one trace per task sent"
        assert [r["errors"] for r in run.rollouts] == [[]] * len(ids), "rollouts errored"
        assert run.scoring_errors() == [], [r["grade"] for r in run.scoring_errors()]
        assert all(r["scoring_error"] == 0.0 for r in run.rollouts)
        pids = {r["harness"]["pid"] for r in run.rollouts}
        assert os.getpid() not in pids, "a rollout ran in the client process, not served"
    assert labelled_containers(f"{RUN_LABEL}={token}") == [], "containers left by the server"
    return runs


@pytest.fixture(scope="module")
def served():
    """One lone EnvServer with the default settings, three policies over the sample."""
    return serve(["reference", "noop", "rows-only"], IDS)


def test_at_least_ten_tasks_are_served():
    assert len(IDS) >= 10


def test_a_task_rebuilt_from_its_wire_form_is_whole():
    """In process, no box: what EnvServer._build_task makes from a wire dump and the config."""
    import asyncio

    import verifiers.v1 as vf
    from verifiers.v1.utils.loaders import resolve_env_config

    from fastapi_env.envs.v1_env import FastAPITask, FastAPITaskData, _Rollout
    from fastapi_env.served import env_config_data, wire_tasks

    config = resolve_env_config(env_config_data({"ids": IDS[:1]}, {"max_turns": 2}))
    [wire] = wire_tasks(env_config_data({"ids": IDS[:1]}))
    task = FastAPITask(FastAPITaskData.model_validate(wire), config.taskset.task)
    assert task.config.max_turns == 2 and task.key == IDS[0]

    def grade_of(**changes) -> str:
        rebuilt = FastAPITask(FastAPITaskData.model_validate(wire | changes), task.config)
        agent = vf.AgentInfo(config=vf.AgentConfig(model="m"))
        trace = vf.Trace(task=vf.TraceTask(type="FastAPITask", data=rebuilt.data), agent=agent)
        graded = asyncio.run(rebuilt._grade(trace, _Rollout(None, rebuilt.config)))
        return graded.scoring_error

    assert "no answer key" in grade_of(task_id="bodies/no_such_task")
    assert "different fastapi-env versions" in grade_of(prompt=wire["prompt"] + " (edited)")


def test_reference_scores_one_when_served(served):
    run = served["reference"]
    assert [r["reward"] for r in run.rollouts] == [1.0] * len(IDS), [
        (r["info"]["task_id"], (r["grade"] or {}).get("reason")) for r in run.rollouts
    ]
    assert sorted(r["info"]["task_id"] for r in run.rollouts) == sorted(IDS)
    assert all(r["harness"]["turns"] > 1 for r in run.rollouts)  # the default max_turns: 5
    assert run.box_memory == 512 * 1024 * 1024  # the default memory_mb


@pytest.mark.parametrize("policy", ["noop", "rows-only"])
def test_negative_policies_score_zero_when_served(served, policy):
    run = served[policy]
    assert [r["reward"] for r in run.rollouts] == [0.0] * len(IDS)
    if policy == "rows-only":  # the visible rows match: only the hidden probes catch it
        assert all(r["rows_matched"] == 1.0 and r["probes_matched"] < 1.0 for r in run.rollouts)


def test_the_key_is_never_on_the_wire_nor_in_a_trace(served):
    """TaskData carries no key and no probes; no trace that comes back holds the probes."""
    keys = load_keys()
    for run in served.values():
        for data in run.task_data:
            assert not {"rows", "probes", "answer_key", "key"} & data.keys()
            assert "def probe_" not in json.dumps(data)
        for episode in run.episodes:
            text = json.dumps(episode)
            assert "def probe_" not in text
            task_id = episode["task"]["data"]["task_id"]
            for rows in keys[task_id].probes.values():  # the hidden probes' expected rows
                if len(json.dumps(rows)) > 40:  # short ones may occur in the prompt by chance
                    assert json.dumps(rows) not in text


def test_a_pool_of_two_workers_serves_the_reference():
    [run] = serve(["reference"], IDS, workers=2).values()
    assert [r["reward"] for r in run.rollouts] == [1.0] * len(IDS)
    assert len({r["harness"]["pid"] for r in run.rollouts}) == 2, "both workers served"


def test_per_run_settings_take_effect_on_the_served_side():
    """max_turns, memory_mb, labels and reward_mode reach the server through the config alone
    (the defaults: 5 turns, 512 MB, binary; see test_reference_scores_one_when_served)."""
    runs = serve(["reference", "rows-only"], SHORT, max_turns=2, memory_mb=384,
                 reward_mode="partial")
    assert runs["reference"].box_memory == 384 * 1024 * 1024
    # the reference's third step (its final message) never comes: turn 2's bash call is the
    # last turn's, not run; its solution was written in turn 1, so it still scores 1.0
    reference = runs["reference"].rollouts
    assert [(r["harness"]["turns"], r["harness"]["stop"]) for r in reference] == [
        (2, "max_turns")
    ] * len(SHORT)
    assert [r["reward"] for r in reference] == [1.0] * len(SHORT)
    for r in runs["rows-only"].rollouts:  # binary mode would give 0.0: its rows match
        assert r["reward"] == pytest.approx(r["grade"]["requirements_fraction"])
        assert 0.0 < r["reward"] < 1.0


def test_no_container_is_left():
    assert labelled_containers(RUN_LABEL) == [], "boxes of this module's runs remain"
