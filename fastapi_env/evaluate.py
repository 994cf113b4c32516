"""Run the real ``vf-eval`` against a scripted policy: the offline demo and the e2e tests."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

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
    found = shutil.which("vf-eval") or str(Path(sys.executable).with_name("vf-eval"))
    return [found]


def newest_results(output_dir: Path) -> Path:
    found = sorted(output_dir.rglob("results.jsonl"), key=lambda p: p.stat().st_mtime)
    if not found:
        raise FileNotFoundError(f"vf-eval saved no results.jsonl under {output_dir}")
    return found[-1].parent


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
    started = time.monotonic()
    with PolicyServer(policy, extra_policies=extra_policies) as server:
        argv = [
            *vf_eval_command(),
            "fastapi-env",
            "-m",
            f"scripted-{policy}",
            "-b",
            server.base_url,
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
        env = os.environ | {KEY_VARIABLE: "offline-no-key-needed"}
        completed = subprocess.run(argv, env=env, capture_output=quiet, text=True)
    seconds = time.monotonic() - started
    if completed.returncode != 0:
        tail = (completed.stderr or "")[-3000:] if quiet else ""
        raise RuntimeError(f"vf-eval exited with {completed.returncode}:\n{tail}")
    results_dir = newest_results(output_dir)
    lines = (results_dir / "results.jsonl").read_text().splitlines()
    return EvalRun(
        policy,
        results_dir,
        [json.loads(x) for x in lines if x.strip()],
        seconds,
        completed.returncode,
    )


def summary(run: EvalRun) -> str:
    by_difficulty: dict[str, list[float]] = defaultdict(list)
    for rollout in run.rollouts:
        by_difficulty[rollout["info"]["difficulty"]].append(rollout["reward"])
    lines = [
        f"policy {run.policy}: {len(run.rollouts)} rollouts in {run.seconds:.0f} s, "
        f"mean reward {run.mean_reward:.3f}, scoring errors {len(run.scoring_errors())}"
    ]
    for difficulty, rewards in sorted(by_difficulty.items()):
        lines.append(
            f"  {difficulty:<7} {len(rewards):>4} rollouts  mean reward "
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
) -> dict[str, list[dict]]:
    """Run policies through the SandboxEnv binding in this process (no vf-eval CLI start-up):
    the same environment, sandboxes and grading, driven by verifiers' own ``evaluate``."""
    import asyncio

    from verifiers.types import ClientConfig

    from fastapi_env import load_environment

    env = load_environment(ids=ids, **(env_kwargs or {}))
    os.environ.setdefault(KEY_VARIABLE, "offline-no-key-needed")
    with PolicyServer(policies[0], extra_policies=extra_policies) as server:
        client = ClientConfig(api_key_var=KEY_VARIABLE, api_base_url=server.base_url)
        outputs = await asyncio.gather(*(
            env.evaluate(client, f"scripted-{policy}", num_examples=-1,
                         rollouts_per_example=rollouts, max_concurrent=concurrency,
                         state_columns=["grade"],
                         on_progress=lambda *args, **kwargs: None)
            for policy in policies
        ))
    return {p: [dict(o) for o in out["outputs"]] for p, out in zip(policies, outputs, strict=True)}
