"""The bench's peer: the same rollouts on verifiers 0.4's own docker runtime, side by side
with the default box, both through the real 0.4 ``vf-eval`` (``.venv-v04``) and the scripted
``reference`` policy. Per-rollout phases are read off each trace's own timing in
``traces.jsonl`` (boot = the runtime's start, setup = the task's box set-up, agent = the tool
turns, finalize = the grading), so the CLI's start-up is not counted.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from fastapi_env.evaluate import V04_VF_EVAL, run_vf_eval_v1

PHASES = ("boot", "setup", "agent", "finalize")
SIDES = {"default box (DockerSandbox)": [],
         "verifiers docker runtime": ["--env.agent.runtime.type", "docker"]}


def trace_phases(traces: Path) -> tuple[dict[str, list[float]], float]:
    """Each phase's seconds per rollout, plus the span from the first start to the last end."""
    phases: dict[str, list[float]] = {name: [] for name in (*PHASES, "whole rollout")}
    starts, ends = [], []
    for line in traces.read_text().splitlines():
        for trace in json.loads(line).get("traces") or []:
            if trace.get("errors"):
                raise RuntimeError(f"a peer rollout failed: {trace['errors'][-1]['message']}")
            timing = trace["timing"]
            for name in PHASES:
                phases[name].append(timing[name]["end"] - timing[name]["start"])
            end = timing["scoring"]["end"]
            phases["whole rollout"].append(end - timing["start"])
            starts.append(timing["start"])
            ends.append(end)
    return phases, max(ends) - min(starts)


def side_by_side(ids: list[str], concurrency: int) -> list[str]:
    """The table's lines, or one line saying why the peer could not run."""
    from fastapi_env.bench import quantiles
    from fastapi_env.image import NETWORK_IMAGE, _image_exists

    if not V04_VF_EVAL.exists():
        return [f"not run: {V04_VF_EVAL} is missing (bash scripts/venv-v04.sh)"]
    import docker

    if not _image_exists(docker.from_env(), NETWORK_IMAGE):
        return [f"not run: {NETWORK_IMAGE} is missing (fastapi-env image network)"]
    measured = {}
    with tempfile.TemporaryDirectory(prefix="fastapi-env-peer-") as out:
        for side, flags in SIDES.items():
            print(f"[bench] peer: {side}, concurrency {concurrency} ...", flush=True)
            run = run_vf_eval_v1("reference", rollouts=1, concurrency=concurrency,
                                 taskset_args={"ids": ids}, output_dir=Path(out),
                                 extra_args=flags)
            if run.mean_reward != 1.0 or run.scoring_errors():
                raise RuntimeError(f"peer {side}: reference did not score 1.0")
            measured[side] = trace_phases(run.results_dir / "traces.jsonl")
    lines = [f"  both through verifiers 0.4's vf-eval, {len(ids)} rollouts at concurrency "
             f"{concurrency}; median (p95) seconds per rollout",
             f"  {'phase':<15}" + "".join(f" {side:>30}" for side in measured)]
    for phase in (*PHASES, "whole rollout"):
        cells = []
        for phases, _ in measured.values():
            median, p95 = quantiles(phases[phase])
            cells.append(f"{median:7.3f} ({p95:6.3f})")
        lines.append(f"  {phase:<15}" + "".join(f" {cell:>30}" for cell in cells))
    spans = [f"{len(ids) / span * 60:.1f}" for _, span in measured.values()]
    lines.append(f"  {'per minute':<15}" + "".join(f" {s:>30}" for s in spans))
    return lines
