"""Run the real ``vf-eval`` against a scripted policy: the offline demo and the e2e tests."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi_env.policy_server import PolicyServer

KEY_VARIABLE = "FASTAPI_ENV_POLICY_KEY"


@dataclass
class EvalRun:
    policy: str
    results_dir: Path
    rollouts: list[dict]
    seconds: float
    exit_code: int

    @property
    def mean_reward(self) -> float:
        return statistics.fmean(r["reward"] for r in self.rollouts) if self.rollouts else 0.0

    def scoring_errors(self) -> list[dict]:
        return [r for r in self.rollouts if r.get("scoring_error")]


def vf_eval_command() -> list[str]:
    # This interpreter's own first: an installed package runs its venv's vf-eval, whatever PATH has.
    own = Path(sys.executable).with_name("vf-eval")
    return [str(own) if own.exists() else shutil.which("vf-eval") or str(own)]


def newest_results(output_dir: Path) -> Path:
    found = sorted(output_dir.rglob("results.jsonl"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise FileNotFoundError(f"vf-eval saved no results.jsonl under {output_dir}")
    return found[-1].parent


def run_against_policy(
    policy: str,
    argv: Callable[[str], list[str]],
    extra_policies: dict | None,
    label: str,
    *,
    stdout: Any,
    quiet: bool,
) -> tuple[subprocess.CompletedProcess, float]:
    """Serve ``policy`` on loopback, run ``argv(base_url)`` with the offline key set, and raise
    with the tail of stderr if it fails. Returns the finished process and the wall time."""
    started = time.monotonic()
    with PolicyServer(policy, extra_policies=extra_policies) as server:
        env = os.environ | {KEY_VARIABLE: "offline-no-key-needed"}
        completed = subprocess.run(argv(server.base_url), env=env, stdout=stdout,
                                   stderr=subprocess.PIPE if quiet else None, text=True)
    if completed.returncode != 0:
        tail = (completed.stderr or "")[-3000:] if quiet else ""
        raise RuntimeError(f"{label} exited with {completed.returncode}:\n{tail}")
    return completed, time.monotonic() - started


def run_vf_eval(
    policy: str,
    *,
    num_examples: int = -1,
    rollouts: int = 1,
    concurrency: int = 8,
    env_args: dict | None = None,
    output_dir: Path = Path("outputs"),
    extra_args: list[str] | None = None,
    quiet: bool = True,
    extra_policies: dict | None = None,
) -> EvalRun:
    """Serve ``policy`` on loopback and run ``vf-eval fastapi-env`` against it, saving results."""
    output_dir = Path(output_dir).resolve()
    output_dir.mkdir(parents=True, exist_ok=True)

    def argv(base_url: str) -> list[str]:
        return [
            *vf_eval_command(),
            "fastapi-env",
            "-m",
            f"scripted-{policy}",
            "-b",
            base_url,
            "-k",
            KEY_VARIABLE,
            "-n",
            str(num_examples),
            "-r",
            str(rollouts),
            "-c",
            str(concurrency),
            "-s",
            "-o",
            str(output_dir),
            "--disable-tui",
            "-C",
            "grade",
            "-a",
            json.dumps(env_args or {}),
            *(extra_args or []),
        ]

    completed, seconds = run_against_policy(policy, argv, extra_policies, "vf-eval",
                                            stdout=subprocess.PIPE if quiet else None,
                                            quiet=quiet)
    results_dir = newest_results(output_dir)
    lines = (results_dir / "results.jsonl").read_text().splitlines()
    return EvalRun(
        policy,
        results_dir,
        [json.loads(x) for x in lines if x.strip()],
        seconds,
        completed.returncode,
    )


# --------------------------------------------------------------------------- verifiers 0.4
V04_VARIABLE = "FASTAPI_ENV_VF_EVAL_V04"
V04_VF_EVAL = Path(__file__).resolve().parent.parent / ".venv-v04" / "bin" / "vf-eval"
METRICS = ("rows_matched", "probes_matched", "module_imported", "scoring_error", "security_ok")


def rollout_of_trace(trace: dict) -> dict:
    """One 0.4 trace (a ``traces.jsonl`` episode's) in the shape of a 0.3 results row."""
    data = (trace.get("task") or {}).get("data") or {}
    info = trace.get("info") or {}
    rewards = trace.get("rewards") or {}
    metrics = trace.get("metrics") or {}
    return {
        "reward": sum(r["score"] * r.get("weight", 1.0) for r in rewards.values() if r),
        **{name: metrics.get(name) for name in METRICS},
        "info": {k: data.get(k) for k in ("task_id", "category", "difficulty", "tier")},
        "grade": info.get("grade"),
        "harness": info.get("harness"),
        "ok": bool(trace.get("ok")),
        "errors": trace.get("errors") or [],
        "trace_id": trace.get("id"),
    }


def run_vf_eval_v1(
    policy: str,
    *,
    num_examples: int = -1,
    rollouts: int = 1,
    concurrency: int = 4,
    taskset_args: dict | None = None,
    task_args: dict | None = None,
    output_dir: Path = Path("outputs"),
    extra_args: list[str] | None = None,
    quiet: bool = True,
    extra_policies: dict | None = None,
    vf_eval: str | Path | None = None,
) -> EvalRun:
    """Serve ``policy`` on loopback and run verifiers 0.4's ``vf-eval fastapi-env`` against it.

    ``vf_eval`` defaults to $FASTAPI_ENV_VF_EVAL_V04, else ``.venv-v04/bin/vf-eval``
    (``scripts/venv-v04.sh``). ``taskset_args`` (which tasks) become ``--env.taskset.<name>``
    flags, ``task_args`` (how each runs) ``--env.taskset.task.<name>`` flags. The run
    writes ``<output_dir>/<run name>/traces.jsonl``; each trace becomes one rollout dict
    (``rollout_of_trace``). 0.4's vf-eval exits 0 even when rollouts fail: check ``errors``."""
    command = Path(vf_eval or os.environ.get(V04_VARIABLE) or V04_VF_EVAL)
    if not command.exists():
        raise FileNotFoundError(f"{command} is missing: create it with `bash scripts/venv-v04.sh`")
    output_dir = Path(output_dir).resolve()
    output_dir.mkdir(parents=True, exist_ok=True)
    run_name = f"fastapi-env--scripted-{policy}--{uuid.uuid4().hex[:8]}"
    def argv(base_url: str) -> list[str]:
        argv = [
            str(command),
            "fastapi-env",
            "-m",
            f"scripted-{policy}",
            "--client.base-url",
            base_url,
            "--client.api-key-var",
            KEY_VARIABLE,
            "-r",
            str(rollouts),
            "-c",
            str(concurrency),
            "-o",
            str(output_dir),
            "--run.name",
            run_name,
            "--no-push",
            "--no-rich",
        ]
        if num_examples > 0:
            argv += ["-n", str(num_examples)]
        for prefix, args in (("--env.taskset.", taskset_args), ("--env.taskset.task.", task_args)):
            for name, value in (args or {}).items():
                if value is not None:
                    flag = prefix + name.replace("_", "-")
                    argv += [flag, value if isinstance(value, str) else json.dumps(value)]
        return argv + (extra_args or [])

    # --no-rich prints every trace on stdout; traces.jsonl has them
    completed, seconds = run_against_policy(policy, argv, extra_policies, "vf-eval (0.4)",
                                            stdout=subprocess.DEVNULL, quiet=quiet)
    results_dir = output_dir / run_name
    traces = results_dir / "traces.jsonl"
    if not traces.exists():
        tail = (completed.stderr or "")[-3000:]
        raise FileNotFoundError(f"vf-eval (0.4) saved no {traces}:\n{tail}")
    rows = [
        rollout_of_trace(trace)
        for line in traces.read_text().splitlines()
        if line.strip()
        for trace in json.loads(line).get("traces") or []
    ]
    return EvalRun(policy, results_dir, rows, seconds, completed.returncode)


def summary(run: EvalRun) -> str:
    lines = [
        f"policy {run.policy}: {len(run.rollouts)} rollouts in {run.seconds:.0f} s, "
        f"mean reward {run.mean_reward:.3f}, scoring errors {len(run.scoring_errors())}"
    ]
    for key in ("difficulty", "tier"):
        groups: dict[str, list[float]] = defaultdict(list)
        for rollout in run.rollouts:
            groups[str(rollout["info"].get(key, "basic"))].append(rollout["reward"])
        for name, rewards in sorted(groups.items()):
            lines.append(
                f"  {key} {name:<9} {len(rewards):>4} rollouts  mean reward "
                f"{statistics.fmean(rewards):.3f}"
            )
    lines.append(f"results: {run.results_dir}/results.jsonl (+ metadata.json)")
    return "\n".join(lines)


async def evaluate_in_process(
    policies: list[str],
    *,
    ids: list[str] | None = None,
    rollouts: int = 1,
    concurrency: int = 8,
    env_kwargs: dict | None = None,
    extra_policies: dict | None = None,
    env=None,
) -> dict[str, list[dict]]:
    """Run policies through the SandboxEnv binding in this process (no vf-eval CLI start-up):
    the same environment, sandboxes and grading, driven by verifiers' own ``evaluate``. Pass a
    loaded ``env`` to reuse it (its sandboxes are then left for its own teardown)."""
    import asyncio

    from verifiers.types import ClientConfig

    from fastapi_env import load_environment

    owned = env is None
    env = env or load_environment(ids=ids, **(env_kwargs or {}))
    os.environ.setdefault(KEY_VARIABLE, "offline-no-key-needed")
    try:
        with PolicyServer(policies[0], extra_policies=extra_policies) as server:
            client = ClientConfig(api_key_var=KEY_VARIABLE, api_base_url=server.base_url)
            outputs = await asyncio.gather(*(
                env.evaluate(client, f"scripted-{policy}", num_examples=-1,
                             rollouts_per_example=rollouts, max_concurrent=concurrency,
                             state_columns=["grade"],
                             on_progress=lambda *args, **kwargs: None)
                for policy in policies
            ))
    finally:
        if owned:
            await env.teardown_sandboxes()  # the warm pool and pending removals, now
    return {p: [dict(o) for o in out["outputs"]] for p, out in zip(policies, outputs, strict=True)}
