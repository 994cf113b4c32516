"""End to end on a verifiers 0.4 runtime: the real 0.4 vf-eval CLI with
``--env.agent.runtime.type docker`` (verifiers' own docker runtime, network restricted), the
v1 binding's RuntimeSandbox, real containers, scripted policies.

What the default box's tests check, on the runtime's box: reference 1.0, negatives 0, no
scoring error, no leaked container; plus what that box has (no route out, iptables cut, the
model's uid, CPU and memory limits, a grader directory the model cannot open) and a box killed
from outside being a scoring error. Runs only with verifiers 0.4 (``.venv-v04``).
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

verifiers = pytest.importorskip("verifiers")
if tuple(int(p) for p in verifiers.__version__.split(".")[:2]) < (0, 4):
    pytest.skip(f"needs verifiers 0.4 (this env has {verifiers.__version__}): run it with "
                ".venv-v04/bin/pytest (scripts/test.sh does)", allow_module_level=True)

from fastapi_env.attacks import ATTACKS, honest_reward  # noqa: E402
from fastapi_env.dataset import load_records  # noqa: E402
from fastapi_env.evaluate import run_vf_eval_v1  # noqa: E402
from fastapi_env.image import NETWORK_IMAGE  # noqa: E402
from fastapi_env.policy_server import reference_script  # noqa: E402
from fastapi_env.sandbox.base import MODEL_UID_RANGE  # noqa: E402

from .test_e2e_sandbox_env import sample_ids  # noqa: E402
from .test_sandbox_uids import BOMBS, bombing_policy  # noqa: E402

pytestmark = pytest.mark.docker

IDS = sample_ids()
VF_EVAL = Path(sys.executable).with_name("vf-eval")
RUNTIME = ["--env.agent.runtime.type", "docker"]
PROBE = (
    "echo uid=$(id -u) groups=$(id -G) name=$(whoami); "
    "echo ifaces=$(ls /sys/class/net | sort | tr '\\n' ,); "
    "echo routes:; cat /proc/net/route; ls /run/fastapi-env 2>&1 | head -1; sleep {sleep}"
)


def vf_containers(run_id: str) -> list[str]:
    """verifiers labels every container of a run (helpers included) verifiers.run=$VF_RUN_ID."""
    argv = ["docker", "ps", "-aq", "--filter", f"label=verifiers.run={run_id}"]
    return subprocess.run(argv, capture_output=True, text=True, check=True).stdout.split()


@pytest.fixture
def run_id(monkeypatch) -> str:
    """This test's own verifiers run id: its containers, and only they, carry it."""
    token = f"fastapi-env-e2e-{uuid.uuid4().hex[:12]}"
    monkeypatch.setenv("VF_RUN_ID", token)
    yield token
    leftovers = vf_containers(token)
    for container in leftovers:  # never leave a box behind, even when the test failed
        subprocess.run(["docker", "rm", "-f", container], capture_output=True)
    assert leftovers == [], "containers of this run were left"


def evaluate(policy: str, tmp_path, ids=IDS, extra_args=(), **kwargs):
    return run_vf_eval_v1(policy, rollouts=1, concurrency=4, taskset_args={"ids": ids},
                          output_dir=tmp_path, vf_eval=VF_EVAL,
                          extra_args=[*RUNTIME, *extra_args], **kwargs)


def tool_outputs(run) -> list[str]:
    """The tool messages the model saw, from traces.jsonl."""
    texts = []
    for line in (run.results_dir / "traces.jsonl").read_text().splitlines():
        for trace in json.loads(line).get("traces") or []:
            for node in trace.get("nodes") or []:
                message = node.get("message") or {}
                if message.get("role") == "tool":
                    texts.append(str(message.get("content")))
    return texts


def test_reference_policy_scores_one(tmp_path, run_id):
    run = evaluate("reference", tmp_path)
    assert len(run.rollouts) == len(IDS)
    assert [r["errors"] for r in run.rollouts if r["errors"]] == []
    failures = [(r["info"]["task_id"], r["grade"]["reason"]) for r in run.rollouts
                if r["reward"] != 1.0]
    assert failures == []
    assert run.scoring_errors() == [] and run.mean_reward == 1.0
    assert vf_containers(run_id) == []


@pytest.mark.parametrize("policy", ["noop", "syntax-error", "rows-only"])
def test_negative_policies_score_zero_without_scoring_errors(policy, tmp_path, run_id):
    run = evaluate(policy, tmp_path, ids=IDS[:3])
    assert [r["errors"] for r in run.rollouts if r["errors"]] == []
    assert [r["reward"] for r in run.rollouts] == [0.0] * 3
    assert run.scoring_errors() == [] and all(r["scoring_error"] == 0.0 for r in run.rollouts)
    if policy == "rows-only":
        assert all(r["rows_matched"] == 1.0 and r["probes_matched"] < 1.0 for r in run.rollouts)


def _inspect_box(run_id: str, found: dict) -> None:
    """From the host, while the model's first command sleeps: the container's limits and
    options, and the iptables rules verifiers put in its network namespace."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not found:
        for container in vf_containers(run_id):
            inspected = json.loads(subprocess.run(
                ["docker", "inspect", container], capture_output=True, text=True).stdout or "[]")
            if inspected and inspected[0]["Config"]["Image"].startswith("fastapi-env-sandbox"):
                time.sleep(6)  # the network is cut after task setup, before the first turn
                rules = subprocess.run(
                    ["docker", "run", "--rm", "--label", f"verifiers.run={run_id}",
                     "--network", f"container:{container}", "--cap-drop", "ALL",
                     "--cap-add", "NET_ADMIN", NETWORK_IMAGE, "iptables", "-S"],
                    capture_output=True, text=True)
                host = json.loads(subprocess.run(["docker", "inspect", container],
                                                 capture_output=True, text=True).stdout)
                found.update(host=host[0]["HostConfig"], rules=rules.stdout + rules.stderr)
                return
        time.sleep(0.2)


def test_the_box_has_no_way_out_and_the_model_is_unprivileged(tmp_path, run_id):
    def probing(task, rows):
        return [("bash", {"command": PROBE.format(sleep=15)}), *reference_script(task, rows)]

    found: dict = {}
    inspector = threading.Thread(target=_inspect_box, args=(run_id, found))
    inspector.start()
    run = evaluate("probing", tmp_path, ids=IDS[:1], extra_policies={"probing": probing})
    inspector.join()
    [rollout] = run.rollouts
    assert rollout["errors"] == [] and rollout["reward"] == 1.0, rollout["grade"]
    probe = tool_outputs(run)[0]
    uid = int(probe.split("uid=")[1].split()[0])
    assert uid in MODEL_UID_RANGE and f"uid={uid} groups={uid} name=model" in probe, probe
    assert "ifaces=eth0,lo," in probe  # the bridge is there; iptables is what cuts it
    assert "Permission denied" in probe  # the grader's private directory
    host = found["host"]
    assert host["NanoCpus"] == 1_000_000_000 and host["Memory"] == 512 * 2**20
    assert host["PidsLimit"] == 128  # set by `docker update` after verifiers' start
    assert {"CAP_NET_ADMIN", "CAP_NET_RAW"} <= set(host["CapDrop"])
    assert "no-new-privileges" in host["SecurityOpt"]
    rules = found["rules"]
    assert "-A OUTPUT -o lo -j ACCEPT" in rules, rules
    assert rules.rstrip().endswith("-A OUTPUT -j REJECT --reject-with icmp-port-unreachable"), rules
    assert "-A INPUT -j REJECT" in rules


def test_a_box_killed_mid_rollout_is_a_scoring_error(tmp_path, run_id):
    def sleepy(task, rows):
        return [("bash", {"command": "sleep 20"}), *reference_script(task, rows)]

    def kill_first_box() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for container in vf_containers(run_id):
                image = subprocess.run(["docker", "inspect", "-f", "{{.Config.Image}}",
                                        container], capture_output=True, text=True).stdout
                if image.startswith("fastapi-env-sandbox"):
                    time.sleep(8)
                    subprocess.run(["docker", "kill", container], capture_output=True)
                    return
            time.sleep(0.2)

    killer = threading.Thread(target=kill_first_box)
    killer.start()
    run = evaluate("sleepy", tmp_path, ids=IDS[:1], extra_policies={"sleepy": sleepy})
    killer.join()
    [rollout] = run.rollouts
    assert rollout["errors"] == []
    assert rollout["reward"] == 0.0 and rollout["scoring_error"] == 1.0, rollout["grade"]
    assert rollout["harness"]["stop"] == "sandbox_failed", rollout["harness"]


def test_a_networked_runtime_is_refused(tmp_path, run_id):
    run = evaluate("reference", tmp_path, ids=IDS[:1],
                   extra_args=["--env.agent.runtime.allow", '["*"]'])
    [rollout] = run.rollouts
    assert not rollout["ok"] and rollout["grade"] is None
    assert "must have no network" in rollout["errors"][-1]["message"]


def test_every_attack_earns_its_honest_reward_on_the_runtime(tmp_path, run_id):
    """Each attack on a task of its own (the policy server plays by task), all in one run,
    with the attack suite's limits: reward as honestly earned, never a scoring error."""
    ids = sorted(r["id"] for r in load_records())[: len(ATTACKS)]
    attack_of = dict(zip(ids, ATTACKS, strict=True))

    def attacking(task, rows):
        return ATTACKS[attack_of[task.id]][0](task, rows)

    limits = ["--env.taskset.task.command-timeout", "10",
              "--env.taskset.task.grading-timeout", "20", "--env.taskset.task.memory-mb", "256"]
    run = evaluate("attacking", tmp_path, ids=ids, extra_args=limits,
                   extra_policies={"attacking": attacking})
    assert [r["errors"] for r in run.rollouts if r["errors"]] == []
    got = {attack_of[r["info"]["task_id"]]: (r["reward"], r["grade"]["scoring_error"],
                                             r["grade"]["reason"][:200]) for r in run.rollouts}
    expected = {name: (honest_reward(f"attack-{name}"), None) for name in ATTACKS}
    assert {name: value[:2] for name, value in got.items()} == expected, got


def test_fork_bombs_are_the_models_zero_on_the_runtime(tmp_path, run_id):
    """Before the model's uid had a process quota, a bomb's zombies (verifiers' `sleep` PID 1
    reaps none) could hold every pid, and staging the grader's job failed: a scoring error.
    Six bombs in one run, two kinds, four boxes at a time."""
    ids = sorted(r["id"] for r in load_records())[:6]
    bomb_of = dict(zip(ids, [*BOMBS] * 3, strict=True))
    bombing = bombing_policy(bomb_of)
    limits = ["--env.taskset.task.command-timeout", "10",
              "--env.taskset.task.grading-timeout", "20"]
    run = evaluate("bombing", tmp_path, ids=ids, extra_args=limits,
                   extra_policies={"bombing": bombing})
    assert [r["errors"] for r in run.rollouts if r["errors"]] == []
    outcomes = sorted((bomb_of[r["info"]["task_id"]], r["reward"], r["grade"]["scoring_error"])
                      for r in run.rollouts)
    assert outcomes == sorted((kind, 0.0, None) for kind in bomb_of.values()), [
        (r["info"]["task_id"], r["grade"]["reason"][:300]) for r in run.rollouts]
