"""``fastapi-env report``: read saved ``vf-eval -s`` runs and say what they show.

A run is given as its directory, a parent holding exactly one run, or the file itself:

* ``results.jsonl`` (+ ``metadata.json``): what ``vf-eval -s`` saves for the SandboxEnv binding
  (verifiers 0.2/0.3), one rollout per line: ``info`` {task_id, category, difficulty},
  ``reward``, ``metrics``, ``timing``, ``token_usage``, ``stop_condition``, ``error``,
  ``is_truncated``, ``completion`` and, with ``-C grade``, ``grade`` (see ``rollout_from_result``).
* ``traces.jsonl``: the verifiers 0.4 layout (see ``rollouts_from_trace_line``).

Statistics are per task first. pass@k uses the unbiased estimator ``1 - C(n-c, k) / C(n, k)``
averaged over tasks, for k up to the smallest number of scored rollouts of any task in the run;
intervals are percentile bootstraps over tasks (seeded). A rollout whose grading failed on the
harness side (``scoring_error``) is counted apart and left out of every reward statistic; the
model's own failures are reward 0.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

RESULTS_FILE = "results.jsonl"
TRACES_FILE = "traces.jsonl"
METADATA_FILE = "metadata.json"
METRIC_NAMES = (
    "correctness",
    "rows_matched",
    "probes_matched",
    "module_imported",
    "scoring_error",
    "security_ok",
)
DIFFICULTIES = ("easy", "medium", "hard")
# as fastapi_env.tasks.TIERS
TIERS = ("basic", "service", "repair", "recent", "security", "blackbox")
TIMING_KEYS = ("total", "model", "environment", "setup", "tools", "grading")
TRUNCATING_STOPS = frozenset(
    {"max_turns", "max_input_tokens", "max_output_tokens", "max_total_tokens", "context_length"}
)
LEVEL = 0.95
MIN_TASKS_FOR_CI = 2


class ReportError(Exception):
    """A run that cannot be read, or an option that cannot be honoured."""


@dataclass(frozen=True)
class Rollout:
    """One rollout, whichever file it came from. ``timing`` holds seconds under TIMING_KEYS:
    ``total`` wall clock; ``model`` waiting for the model; ``environment`` the rest (``setup``
    of the sandbox, ``tools`` running the model's commands, ``grading`` after the last turn:
    grading, teardown and the rubric)."""

    task_id: str
    category: str = ""
    difficulty: str = ""
    reward: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)
    scoring_error: str | None = None
    error: str | None = None
    reason: str | None = None
    stop_condition: str | None = None
    truncated: bool = False
    turns: int | None = None
    timing: dict[str, float] = field(default_factory=dict)
    prompt_tokens: float = 0.0
    completion_tokens: float = 0.0
    tier: str = ""


@dataclass
class Run:
    label: str
    path: Path
    source: str
    metadata: dict[str, Any]
    rollouts: list[Rollout]
    skipped_lines: int = 0

    @property
    def model(self) -> str | None:
        return self.metadata.get("model")


@dataclass(frozen=True)
class Settings:
    """A rollout passes when its reward is at least ``threshold``; intervals take
    ``resamples`` bootstrap resamples drawn with ``seed``."""

    threshold: float = 1.0
    resamples: int = 2000
    seed: int = 0


# ---------------------------------------------------------------------------------- reading


def locate(path: Path) -> Path:
    """The results or traces file of a run given as that file, its directory, or a parent
    directory holding exactly one run."""
    if path.is_file():
        return path
    if not path.is_dir():
        raise ReportError(f"{path}: no such file or directory")
    for name in (RESULTS_FILE, TRACES_FILE):
        if (path / name).is_file():
            return path / name
    found = sorted(p for name in (RESULTS_FILE, TRACES_FILE) for p in path.rglob(name))
    if len(found) == 1:
        return found[0]
    if not found:
        raise ReportError(f"{path}: no {RESULTS_FILE} or {TRACES_FILE} in it or below it")
    listing = "\n  ".join(str(p.parent) for p in found)
    raise ReportError(f"{path} holds {len(found)} runs; name one of them:\n  {listing}")


def read_jsonl(path: Path) -> tuple[list[dict], int]:
    """The JSON objects of a JSON-lines file, and how many lines were unreadable (a run that
    died mid-write leaves a torn last line)."""
    rows: list[dict] = []
    bad = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            bad += 1
            continue
        if isinstance(row, dict):
            rows.append(row)
        else:
            bad += 1
    return rows, bad


def load_run(path: Path | str, records: dict[str, dict] | None = None) -> Run:
    """Read one run; ``records`` (task id -> dataset record) fills in missing task metadata and
    defaults to the shipped dataset, read only when needed."""
    file = locate(Path(path))
    rows, bad = read_jsonl(file)
    if file.name == TRACES_FILE:
        rollouts = [r for row in rows for r in rollouts_from_trace_line(row)]
    else:
        rollouts = [rollout_from_result(row) for row in rows]
    if not rollouts:
        raise ReportError(f"{file}: no rollouts")
    metadata = _read_metadata(file.parent / METADATA_FILE)
    label = f"{metadata.get('model') or 'run'} ({file.parent.name})"
    return Run(label, file.parent, file.name, metadata, fill_task_metadata(rollouts, records), bad)


def _read_metadata(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ReportError(f"{path}: not JSON ({exc})") from exc
    return data if isinstance(data, dict) else {}


def dataset_records() -> dict[str, dict]:
    try:
        from fastapi_env.dataset import load_records

        records = load_records()
    except (FileNotFoundError, ImportError, KeyError, ValueError):
        return {}
    # A family id (a task id from before families) finds its instances' shared metadata.
    by_id = {r["family"]: r for r in records if r.get("family")}
    return by_id | {r["id"]: r for r in records}


def fill_task_metadata(rollouts: list[Rollout], records: dict[str, dict] | None) -> list[Rollout]:
    """Give every rollout a category, a difficulty and a tier: its own, the dataset's, or a
    guess (the task id's prefix; ``unknown``; ``basic``, what a record without a tier is)."""
    if all(r.category and r.difficulty and r.tier for r in rollouts):
        return rollouts
    records = dataset_records() if records is None else records
    filled = []
    for r in rollouts:
        record = records.get(r.task_id, {})
        category = r.category or record.get("category") or r.task_id.partition("/")[0]
        difficulty = r.difficulty or record.get("difficulty") or "unknown"
        tier = r.tier or record.get("tier") or "basic"
        filled.append(
            replace(r, category=category or "unknown", difficulty=difficulty, tier=tier)
        )
    return filled


def rollout_from_result(row: dict) -> Rollout:
    """One line of a verifiers 0.2/0.3 ``results.jsonl`` (``vf-eval -s``)."""
    info = _dict(row.get("info"))
    grade = _dict(row.get("grade"))
    metrics = _numbers(row.get("metrics") or {k: row[k] for k in METRIC_NAMES if k in row})
    usage = _dict(row.get("token_usage"))
    return Rollout(
        task_id=str(info.get("task_id") or f"example-{row.get('example_id')}"),
        category=str(info.get("category") or ""),
        difficulty=str(info.get("difficulty") or ""),
        tier=str(info.get("tier") or ""),
        reward=_float(row.get("reward")),
        metrics=metrics,
        scoring_error=_scoring_error(metrics, grade),
        error=_error_text(row.get("error")),
        reason=grade.get("reason"),
        stop_condition=row.get("stop_condition"),
        truncated=bool(row.get("is_truncated")),
        turns=_assistant_turns(row.get("completion")),
        timing=_timing_v03(_dict(row.get("timing"))),
        prompt_tokens=_float(usage.get("input_tokens")),
        completion_tokens=_float(usage.get("output_tokens")),
    )


def _timing_v03(timing: dict) -> dict[str, float]:
    """verifiers 0.3 ``timing``: ``setup``/``generation``/``scoring`` spans, ``model`` and
    ``env`` (tool) span lists with a ``duration`` each, ``total``; ``generation`` runs from the
    start through setup to the last turn, so grading is the total past it. 0.2: ``*_ms``."""
    if "total_ms" in timing:
        total = _float(timing["total_ms"]) / 1000
        return {"total": total, "grading": _float(timing.get("scoring_ms")) / 1000}
    total = _duration(timing.get("total"))
    generation = _duration(timing.get("generation"))
    if total is None and generation is not None:
        total = generation + (_duration(timing.get("scoring")) or 0.0)
    model = _duration(timing.get("model"))
    out = {
        "total": total,
        "model": model,
        "environment": None if total is None or model is None else total - model,
        "setup": _duration(timing.get("setup")),
        "tools": _duration(timing.get("env")),
        "grading": None if total is None or generation is None else total - generation,
    }
    return {k: v for k, v in out.items() if v is not None}


def rollouts_from_trace_line(row: dict) -> list[Rollout]:
    """One line of a verifiers 0.4 ``traces.jsonl``: an episode ``{"task": ..., "traces":
    [trace, ...]}`` (one rollout per trace), or a bare trace. Kept apart so it can follow 0.4.

    Fields read from a trace (all optional but the reward): ``rewards`` {name: {score, weight}}
    (or a plain ``reward``); ``metrics`` {name: value}; the task id, category and difficulty from
    ``info``, else ``task.data`` (or its ``info``), else ``task.key``; ``info.grade`` or ``grade``
    for ``reason``/``scoring_error``; ``stop_condition``, ``errors`` [{type, message}],
    ``is_truncated``; ``nodes`` [{message: {role}, sampled}] for turns; ``calls`` [{usage:
    {prompt_tokens, cached_input_tokens, completion_tokens}}] for tokens; ``timing`` {boot,
    setup, agent {model, harness: {duration}}, finalize, scoring: {start, end}}."""
    traces = row.get("traces")
    if not isinstance(traces, list):
        return [rollout_from_trace(row, {})]
    return [rollout_from_trace(t, _dict(row.get("task"))) for t in traces if isinstance(t, dict)]


def rollout_from_trace(trace: dict, episode_task: dict) -> Rollout:
    info = _dict(trace.get("info"))
    task = _dict(trace.get("task")) or episode_task
    data = _dict(task.get("data"))
    sources = (info, _dict(data.get("info")), data)

    def pick(*keys: str) -> str:
        return next((str(s[k]) for k in keys for s in sources if s.get(k)), "")

    metrics = _numbers(trace.get("metrics") or {})
    grade = _dict(info.get("grade")) or _dict(trace.get("grade"))
    errors = [e for e in trace.get("errors") or [] if isinstance(e, dict)]
    stop = trace.get("stop_condition")
    nodes = [n for n in trace.get("nodes") or [] if isinstance(n, dict)]
    calls = [_dict(c.get("usage")) for c in trace.get("calls") or [] if isinstance(c, dict)]
    return Rollout(
        task_id=pick("task_id", "id") or str(task.get("key") or "unknown"),
        category=pick("category"),
        difficulty=pick("difficulty"),
        tier=pick("tier"),
        reward=_trace_reward(trace),
        metrics=metrics,
        scoring_error=_scoring_error(metrics, grade),
        error=_error_text(errors[-1]) if errors else None,
        reason=grade.get("reason"),
        stop_condition=stop,
        truncated=bool(trace.get("is_truncated")) or stop in TRUNCATING_STOPS,
        turns=_sampled_turns(nodes),
        timing=_timing_v04(_dict(trace.get("timing"))),
        prompt_tokens=sum(
            _float(u.get("prompt_tokens")) + _float(u.get("cached_input_tokens")) for u in calls
        ),
        completion_tokens=sum(_float(u.get("completion_tokens")) for u in calls),
    )


def _sampled_turns(nodes: list[dict]) -> int | None:
    if not nodes:
        return None
    roles = [_dict(n.get("message")).get("role") for n in nodes if n.get("sampled")]
    return roles.count("assistant")


def _trace_reward(trace: dict) -> float:
    if isinstance(trace.get("reward"), int | float):
        return float(trace["reward"])
    rewards = [_dict(r) for r in _dict(trace.get("rewards")).values() if r is not None]
    return sum(_float(r.get("score")) * _float(r.get("weight", 1.0)) for r in rewards)


def _timing_v04(timing: dict) -> dict[str, float]:
    spans = {k: _dict(timing.get(k)) for k in ("boot", "setup", "agent", "finalize", "scoring")}
    starts = [_float(s.get("start")) for s in spans.values() if s.get("start")]
    ends = [_float(s.get("end")) for s in spans.values() if s.get("end")]
    if not starts or not ends:
        return {}
    total = max(ends) - min(starts)
    model = _duration(spans["agent"].get("model"))
    out = {
        "total": total,
        "model": model,
        "environment": None if model is None else total - model,
        "setup": sum(_span(spans[k]) for k in ("boot", "setup")),
        "tools": _duration(spans["agent"].get("harness")),
        "grading": sum(_span(spans[k]) for k in ("finalize", "scoring")),
    }
    return {k: v for k, v in out.items() if v is not None}


def _span(span: dict) -> float:
    start, end = _float(span.get("start")), _float(span.get("end"))
    return max(0.0, end - start) if start and end else 0.0


def _duration(value: Any) -> float | None:
    if isinstance(value, dict):
        value = value.get("duration")
    return float(value) if isinstance(value, int | float) else None


def _scoring_error(metrics: dict[str, float], grade: dict) -> str | None:
    if grade.get("scoring_error"):
        return str(grade["scoring_error"])
    if metrics.get("scoring_error", 0.0) > 0:
        return "scoring_error metric set (no grade saved: run vf-eval with -C grade)"
    return None


def _assistant_turns(messages: Any) -> int | None:
    if not isinstance(messages, list):
        return None
    return sum(1 for m in messages if isinstance(m, dict) and m.get("role") == "assistant")


def _error_text(error: Any) -> str | None:
    if not error:
        return None
    if isinstance(error, dict):
        kind, message = error.get("type") or error.get("error"), error.get("message")
        return ": ".join(str(x) for x in (kind, message) if x) or json.dumps(error)
    return str(error)


def _dict(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def _float(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def _numbers(values: dict) -> dict[str, float]:
    return {str(k): float(v) for k, v in values.items() if isinstance(v, int | float)}


# ------------------------------------------------------------------------------- statistics


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of one task with ``c`` passing rollouts out of ``n``."""
    if not (0 <= c <= n and 1 <= k <= n):
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n (n={n}, c={c}, k={k})")
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by linear interpolation between order statistics."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    position = q * (len(ordered) - 1)
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def bootstrap_ci(
    values: Sequence[float],
    weights: Sequence[float] | None = None,
    *,
    resamples: int = 2000,
    seed: int = 0,
    level: float = LEVEL,
) -> list[float]:
    """A percentile bootstrap interval of the (``weights``-weighted) mean of ``values``, each
    value one resampled unit (a task)."""
    import numpy as np

    if not len(values):
        raise ValueError("bootstrap of no values")
    x = np.asarray(values, dtype=float)
    w = np.ones_like(x) if weights is None else np.asarray(weights, dtype=float)
    picks = np.random.default_rng(seed).integers(0, len(x), size=(resamples, len(x)))
    means = (x[picks] * w[picks]).sum(axis=1) / w[picks].sum(axis=1)
    tail = (1.0 - level) / 2
    return [float(v) for v in np.quantile(means, [tail, 1.0 - tail])]


def task_ci(
    values: Sequence[float], weights: Sequence[float] | None, settings: Settings
) -> list[float] | None:
    """``bootstrap_ci`` over tasks, or None below MIN_TASKS_FOR_CI (one task's interval would
    be that task's value, not an estimate of anything)."""
    if len(values) < MIN_TASKS_FOR_CI:
        return None
    return bootstrap_ci(values, weights, resamples=settings.resamples, seed=settings.seed)


@dataclass(frozen=True)
class TaskScore:
    """One task's scored rollouts: ``n`` of them, ``c`` passing, their rewards summed."""

    task_id: str
    n: int
    c: int
    reward_sum: float

    @property
    def mean_reward(self) -> float:
        return self.reward_sum / self.n

    @property
    def pass_rate(self) -> float:
        return self.c / self.n


def passed(rollout: Rollout, threshold: float) -> bool:
    return rollout.reward >= threshold - 1e-9


def scored(rollouts: Iterable[Rollout]) -> list[Rollout]:
    return [r for r in rollouts if r.scoring_error is None]


def task_scores(rollouts: Iterable[Rollout], threshold: float) -> dict[str, TaskScore]:
    """Per task, over the rollouts without a scoring error."""
    by_task: dict[str, list[Rollout]] = defaultdict(list)
    for r in scored(rollouts):
        by_task[r.task_id].append(r)
    return {
        tid: TaskScore(
            tid, len(rs), sum(passed(r, threshold) for r in rs), sum(r.reward for r in rs)
        )
        for tid, rs in sorted(by_task.items())
    }


def rollouts_per_task(rollouts: Iterable[Rollout], threshold: float) -> int:
    """The largest k pass@k is defined for in every task: the fewest scored rollouts."""
    scores = task_scores(rollouts, threshold).values()
    return min((s.n for s in scores), default=0)


def _mean(values: Sequence[float]) -> float:
    return statistics.fmean(values)


def group_stats(rollouts: Sequence[Rollout], kmax: int, settings: Settings) -> dict[str, Any]:
    """Everything the report says about one set of rollouts (a run, a tier, a category)."""
    ok = scored(rollouts)
    errors = len(rollouts) - len(ok)
    out: dict[str, Any] = {
        "tasks": len({r.task_id for r in rollouts}),
        "rollouts": len(rollouts),
        "scored_rollouts": len(ok),
        "scoring_errors": errors,
        "scoring_error_rate": errors / len(rollouts) if rollouts else 0.0,
    }
    out |= reward_stats(list(task_scores(ok, settings.threshold).values()), kmax, settings)
    for name in ("rows_matched", "probes_matched", "module_imported", "security_ok"):
        values = [r.metrics[name] for r in ok if name in r.metrics]
        out[name] = statistics.fmean(values) if values else None
    return out | outcome_stats(rollouts, settings.threshold)


def reward_stats(tasks: list[TaskScore], kmax: int, settings: Settings) -> dict[str, Any]:
    """Mean reward over rollouts and pass@1..kmax over tasks, each with its interval."""
    if not tasks:
        return {"mean_reward": None, "reward_ci": None, "pass_at_k": {}, "pass_at_k_ci": {}}
    rewards, sizes = [t.mean_reward for t in tasks], [t.n for t in tasks]
    out: dict[str, Any] = {
        "mean_reward": sum(t.reward_sum for t in tasks) / sum(sizes),
        "reward_ci": task_ci(rewards, sizes, settings),
        "pass_at_k": {},
        "pass_at_k_ci": {},
    }
    for k in range(1, kmax + 1):
        values = [pass_at_k(t.n, t.c, k) for t in tasks]
        out["pass_at_k"][str(k)] = _mean(values)
        out["pass_at_k_ci"][str(k)] = task_ci(values, None, settings)
    return out


def outcome_stats(rollouts: Sequence[Rollout], threshold: float) -> dict[str, Any]:
    """How rollouts ended: stop conditions, truncation, errors, turns, why they failed."""
    turns = [r.turns for r in rollouts if r.turns is not None]
    failures = Counter(
        failure_kind(r.reason) for r in scored(rollouts) if r.reason and not passed(r, threshold)
    )
    return {
        "errors": sum(1 for r in rollouts if r.error),
        "truncated": sum(1 for r in rollouts if r.truncated),
        "stop_conditions": dict(Counter(str(r.stop_condition) for r in rollouts).most_common()),
        "turns_mean": statistics.fmean(turns) if turns else None,
        "turns_max": max(turns) if turns else None,
        "failures": dict(failures.most_common()),
    }


def failure_kind(reason: str) -> str:
    """``missing_app: ...; hidden probe p failed: ...`` -> ``missing_app``."""
    head = reason.split("; ")[0].split(":")[0].strip()
    return "hidden probe" if head.startswith("hidden probe") else head


def latency_stats(rollouts: Sequence[Rollout]) -> dict[str, dict[str, float]]:
    """Per timing part: p50, p95 and mean seconds per rollout, over rollouts that carry it."""
    out = {}
    for key in TIMING_KEYS:
        values = [r.timing[key] for r in rollouts if key in r.timing]
        if values:
            out[key] = {
                "p50": percentile(values, 0.5),
                "p95": percentile(values, 0.95),
                "mean": statistics.fmean(values),
            }
    return out


def token_stats(
    rollouts: Sequence[Rollout], price: dict[str, float] | None, threshold: float
) -> dict[str, Any]:
    """Tokens in all and per rollout; with ``price`` (USD per million input/output tokens),
    the cost in all, per rollout and per passing rollout."""
    prompt = sum(r.prompt_tokens for r in rollouts)
    completion = sum(r.completion_tokens for r in rollouts)
    n = len(rollouts) or 1
    out: dict[str, Any] = {
        "prompt": prompt,
        "completion": completion,
        "total": prompt + completion,
        "per_rollout": {
            "prompt": prompt / n,
            "completion": completion / n,
            "total": (prompt + completion) / n,
        },
    }
    if price is not None:
        cost = (prompt * price["input"] + completion * price["output"]) / 1e6
        passes = sum(passed(r, threshold) for r in scored(rollouts))
        out["cost"] = {
            "usd": cost,
            "per_rollout_usd": cost / n,
            "per_pass_usd": cost / passes if passes else None,
            "price": price,
        }
    return out


def load_prices(path: Path) -> dict[str, dict[str, float]]:
    """``{"model": {"input": USD per 1M tokens, "output": USD per 1M tokens}, "*": {...}}``."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ReportError(f"--prices {path}: {exc}") from exc
    if not isinstance(data, dict):
        raise ReportError(f"--prices {path}: expected an object of model -> prices")
    prices = {}
    for model, entry in data.items():
        values = _dict(entry)
        if not all(isinstance(values.get(k), int | float) for k in ("input", "output")):
            raise ReportError(f"--prices {path}: {model!r} needs numeric 'input' and 'output'")
        prices[model] = {"input": float(values["input"]), "output": float(values["output"])}
    return prices


def price_for(model: str | None, prices: dict[str, dict[str, float]] | None) -> dict | None:
    if not prices:
        return None
    return prices.get(model or "") or prices.get("*")


def compare_runs(base: Run, other: Run, settings: Settings) -> dict[str, Any]:
    """``other`` against ``base`` on their shared tasks: the difference in mean reward (per
    task, then averaged) with a paired bootstrap interval, and the tasks that flipped: solved
    (pass rate >= 1/2) in one run and not in the other, the widest gap in pass rate first."""
    a = task_scores(base.rollouts, settings.threshold)
    b = task_scores(other.rollouts, settings.threshold)
    shared = sorted(a.keys() & b.keys())
    out: dict[str, Any] = {
        "base": base.label,
        "run": other.label,
        "shared_tasks": len(shared),
        "only_in_base": len(a.keys() - b.keys()),
        "only_in_run": len(b.keys() - a.keys()),
    }
    if not shared:
        return out | {
            "base_mean": None,
            "run_mean": None,
            "diff": None,
            "diff_ci": None,
            "flipped": [],
        }
    diffs = [b[t].mean_reward - a[t].mean_reward for t in shared]
    meta = {r.task_id: r for r in base.rollouts}
    return out | {
        "base_mean": _mean([a[t].mean_reward for t in shared]),
        "run_mean": _mean([b[t].mean_reward for t in shared]),
        "diff": _mean(diffs),
        "diff_ci": task_ci(diffs, None, settings),
        "flipped": flipped_tasks(a, b, shared, meta),
    }


def flipped_tasks(
    a: dict[str, TaskScore], b: dict[str, TaskScore], shared: list[str], meta: dict[str, Rollout]
) -> list[dict[str, Any]]:
    flips = []
    for tid in shared:
        before, after = a[tid].pass_rate, b[tid].pass_rate
        if (before >= 0.5) == (after >= 0.5):
            continue
        flips.append(
            {
                "task_id": tid,
                "category": meta[tid].category,
                "difficulty": meta[tid].difficulty,
                "base_pass_rate": before,
                "run_pass_rate": after,
                "base_rollouts": a[tid].n,
                "run_rollouts": b[tid].n,
                "gap": abs(after - before),
                "direction": "regressed" if after < before else "fixed",
            }
        )
    return sorted(
        flips, key=lambda f: (-f["gap"], -(f["base_rollouts"] + f["run_rollouts"]), f["task_id"])
    )


# ----------------------------------------------------------------------------------- report


def _unique_labels(runs: Sequence[Run]) -> None:
    seen: Counter[str] = Counter()
    for run in runs:
        seen[run.label] += 1
        if seen[run.label] > 1:
            run.label = f"{run.label} #{seen[run.label]}"


def _difficulty_order(name: str) -> tuple[int, str]:
    return (DIFFICULTIES.index(name) if name in DIFFICULTIES else len(DIFFICULTIES), name)


def _tier_order(name: str) -> tuple[int, str]:
    return (TIERS.index(name) if name in TIERS else len(TIERS), name)


GROUP_ORDER = {"difficulty": _difficulty_order, "tier": _tier_order}


def run_report(run: Run, settings: Settings, prices: dict | None) -> dict[str, Any]:
    kmax = rollouts_per_task(run.rollouts, settings.threshold)
    by_difficulty: dict[str, list[Rollout]] = defaultdict(list)
    by_category: dict[str, list[Rollout]] = defaultdict(list)
    by_tier: dict[str, list[Rollout]] = defaultdict(list)
    for r in run.rollouts:
        by_difficulty[r.difficulty].append(r)
        by_category[r.category].append(r)
        by_tier[r.tier].append(r)
    keep = ("model", "env_args", "num_examples", "rollouts_per_example", "time", "avg_reward")
    return {
        "label": run.label,
        "path": str(run.path),
        "source": run.source,
        "model": run.model,
        "metadata": {k: run.metadata[k] for k in keep if k in run.metadata},
        "skipped_lines": run.skipped_lines,
        "rollouts_per_task": kmax,
        "all": group_stats(run.rollouts, kmax, settings),
        "difficulty": {
            d: group_stats(by_difficulty[d], kmax, settings)
            for d in sorted(by_difficulty, key=_difficulty_order)
        },
        "category": {c: group_stats(by_category[c], kmax, settings) for c in sorted(by_category)},
        "tier": {
            t: group_stats(by_tier[t], kmax, settings) for t in sorted(by_tier, key=_tier_order)
        },
        "latency_seconds": latency_stats(run.rollouts),
        "tokens": token_stats(run.rollouts, price_for(run.model, prices), settings.threshold),
    }


def build_report(
    runs: Sequence[Run], settings: Settings = Settings(), prices: dict | None = None
) -> dict[str, Any]:
    """The whole report as plain data (what ``--json`` prints); the first run is the base
    every other run is compared with."""
    _unique_labels(runs)
    return {
        "settings": {
            "pass_threshold": settings.threshold,
            "bootstrap_resamples": settings.resamples,
            "seed": settings.seed,
            "level": LEVEL,
        },
        "runs": [run_report(run, settings, prices) for run in runs],
        "comparisons": [compare_runs(runs[0], other, settings) for other in runs[1:]],
    }


# -------------------------------------------------------------------------------- rendering


@dataclass
class Section:
    title: str
    headers: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _interval(ci: Sequence[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _count(value: float) -> str:
    return f"{value:,.0f}"


def _group_keys(report: dict, kind: str) -> list[str]:
    if kind == "all":
        return ["all"]
    keys = {k for run in report["runs"] for k in run.get(kind, {})}
    return sorted(keys, key=GROUP_ORDER.get(kind, str))


def _group_row(key: str, run: dict, stats: dict, multi: bool) -> list[str]:
    kmax = str(run["rollouts_per_task"])
    return [
        key,
        *([run["label"]] if multi else []),
        str(stats["tasks"]),
        str(stats["rollouts"]),
        _num(stats["mean_reward"]),
        _interval(stats["reward_ci"]),
        _num(stats["pass_at_k"].get("1")),
        f"{_num(stats['pass_at_k'].get(kmax))} (k={kmax})",
        _num(stats["rows_matched"]),
        _num(stats["probes_matched"]),
        _num(stats.get("security_ok")),
        f"{stats['scoring_errors']} ({stats['scoring_error_rate']:.0%})",
    ]


def _group_rows(report: dict, kind: str) -> list[list[str]]:
    multi = len(report["runs"]) > 1
    rows = []
    for key in _group_keys(report, kind):
        for run in report["runs"]:
            stats = run["all"] if kind == "all" else run.get(kind, {}).get(key)
            if stats is not None:
                rows.append(_group_row(key, run, stats, multi))
    return rows


def _group_section(report: dict, kind: str, title: str) -> Section:
    multi = len(report["runs"]) > 1
    headers = [
        "" if kind == "all" else kind,
        *(["run"] if multi else []),
        "tasks",
        "rollouts",
        "reward",
        "95% CI",
        "pass@1",
        "pass@k",
        "rows",
        "probes",
        "security ok",
        "scoring errors",
    ]
    return Section(title, headers, _group_rows(report, kind))


def _pass_at_k_section(report: dict) -> Section:
    kmax = max(run["rollouts_per_task"] for run in report["runs"])
    rows = []
    for run in report["runs"]:
        stats = run["all"]
        cells = [
            f"{_num(stats['pass_at_k'][str(k)])} {_interval(stats['pass_at_k_ci'][str(k)])}"
            if str(k) in stats["pass_at_k"]
            else "-"
            for k in range(1, kmax + 1)
        ]
        rows.append([run["label"], *cells])
    note = "unbiased estimator per task, averaged over tasks; 95% bootstrap interval over tasks"
    return Section("pass@k", ["run", *(f"pass@{k}" for k in range(1, kmax + 1))], rows, [note])


def _outcome_section(report: dict) -> Section:
    rows = []
    for run in report["runs"]:
        stats = run["all"]
        stops = ", ".join(f"{k} {v}" for k, v in stats["stop_conditions"].items())
        failures = ", ".join(f"{k} {v}" for k, v in list(stats["failures"].items())[:4])
        turns = (
            "-"
            if stats["turns_mean"] is None
            else (f"{stats['turns_mean']:.1f} (max {stats['turns_max']})")
        )
        rows.append(
            [
                run["label"],
                stops,
                str(stats["truncated"]),
                str(stats["errors"]),
                turns,
                failures or "-",
            ]
        )
    headers = ["run", "stop conditions", "truncated", "errors", "turns", "failures (grade)"]
    return Section("Outcomes", headers, rows)


def _latency_section(report: dict) -> Section:
    rows = []
    for run in report["runs"]:
        for key, stats in run["latency_seconds"].items():
            rows.append(
                [
                    run["label"],
                    key,
                    _num(stats["p50"], 2),
                    _num(stats["p95"], 2),
                    _num(stats["mean"], 2),
                ]
            )
    notes = [
        "model: waiting for the model; environment: the rest (setup: the sandbox; tools: "
        "the model's commands; grading: after the last turn, teardown included)"
    ]
    return Section(
        "Latency (seconds per rollout)", ["run", "part", "p50", "p95", "mean"], rows, notes
    )


def _token_section(report: dict) -> Section:
    rows = []
    for run in report["runs"]:
        tokens = run["tokens"]
        cost = tokens.get("cost")
        rows.append(
            [
                run["label"],
                _count(tokens["prompt"]),
                _count(tokens["completion"]),
                _count(tokens["total"]),
                _count(tokens["per_rollout"]["total"]),
                "-" if cost is None else f"${cost['usd']:.4f}",
                "-" if cost is None else f"${cost['per_rollout_usd']:.5f}",
                "-" if not cost or cost["per_pass_usd"] is None else f"${cost['per_pass_usd']:.5f}",
            ]
        )
    headers = [
        "run",
        "prompt",
        "completion",
        "total",
        "total/rollout",
        "cost",
        "cost/rollout",
        "cost/pass",
    ]
    notes = (
        []
        if any("cost" in r["tokens"] for r in report["runs"])
        else ['cost: pass --prices FILE.json ({"model": {"input": usd_per_1M, "output": ...}})']
    )
    return Section("Tokens and cost", headers, rows, notes)


def _comparison_sections(report: dict) -> list[Section]:
    if not report["comparisons"]:
        return []
    rows = [
        [
            c["run"],
            c["base"],
            str(c["shared_tasks"]),
            _num(c["base_mean"]),
            _num(c["run_mean"]),
            _signed(c["diff"]),
            _interval(c["diff_ci"]),
            _verdict(c["diff_ci"]),
            str(len(c["flipped"])),
        ]
        for c in report["comparisons"]
    ]
    headers = [
        "run",
        "base",
        "shared tasks",
        "base reward",
        "run reward",
        "difference",
        "95% CI (paired)",
        "verdict",
        "flipped",
    ]
    sections = [
        Section(
            "Difference in mean reward",
            headers,
            rows,
            ["per-task mean rewards on shared tasks; paired bootstrap over tasks"],
        )
    ]
    for c in report["comparisons"]:
        if c["flipped"]:
            sections.append(_flip_section(c))
    return sections


def _flip_section(comparison: dict) -> Section:
    rows = [
        [
            f["task_id"],
            f["difficulty"],
            f["direction"],
            _num(f["base_pass_rate"], 2),
            _num(f["run_pass_rate"], 2),
            _num(f["gap"], 2),
        ]
        for f in comparison["flipped"]
    ]
    headers = ["task", "difficulty", "direction", "base pass rate", "run pass rate", "gap"]
    title = f"Flipped tasks: {comparison['run']} vs {comparison['base']}"
    return Section(title, headers, rows, ["solved = pass rate >= 0.5; widest gap first"])


def _signed(value: float | None) -> str:
    return "-" if value is None else f"{value:+.3f}"


def _verdict(ci: Sequence[float] | None) -> str:
    if ci is None:
        return "-"
    if ci[0] > 0:
        return "better"
    if ci[1] < 0:
        return "worse"
    return "no clear difference"


def _run_section(report: dict) -> Section:
    rows = []
    for run in report["runs"]:
        stats = run["all"]
        rows.append(
            [
                run["label"],
                run["source"],
                str(stats["tasks"]),
                str(stats["rollouts"]),
                str(run["rollouts_per_task"]),
                run["path"],
            ]
        )
    notes = [
        f"{r['label']}: skipped {r['skipped_lines']} unreadable line(s)"
        for r in report["runs"]
        if r["skipped_lines"]
    ]
    settings = report["settings"]
    notes.append(
        f"pass = reward >= {settings['pass_threshold']}; rollouts with a scoring error "
        f"(harness failure) are left out of reward statistics; 95% CI: bootstrap over tasks "
        f"({settings['bootstrap_resamples']} resamples, seed {settings['seed']}), '-' below "
        f"{MIN_TASKS_FOR_CI} tasks"
    )
    headers = ["run", "file", "tasks", "rollouts", "scored per task (k)", "path"]
    return Section("Runs", headers, rows, notes)


def sections(report: dict) -> list[Section]:
    return [
        _run_section(report),
        _group_section(report, "all", "Overall"),
        _group_section(report, "difficulty", "By difficulty"),
        _group_section(report, "tier", "By tier"),
        _group_section(report, "category", "By category"),
        _pass_at_k_section(report),
        *_comparison_sections(report),
        _outcome_section(report),
        _latency_section(report),
        _token_section(report),
    ]


def _is_numeric(cell: str) -> bool:
    return bool(cell) and (cell[0].isdigit() or cell[0] in "+-$[") and cell != "-"


def text_table(section: Section) -> str:
    widths = [max(len(c) for c in col) for col in zip(section.headers, *section.rows, strict=True)]
    numeric = [
        all(_is_numeric(row[i]) or row[i] == "-" for row in section.rows) and i > 0
        for i in range(len(widths))
    ]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        ).rstrip()

    body = [line(section.headers), line(["-" * w for w in widths]), *map(line, section.rows)]
    return "\n".join(body)


def render_text(report: dict) -> str:
    parts = []
    for s in sections(report):
        notes = "".join(f"\n  {note}" for note in s.notes)
        parts.append(f"{s.title}\n{'=' * len(s.title)}\n{text_table(s)}{notes}")
    return "\n\n".join(parts) + "\n"


def markdown_table(section: Section) -> str:
    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

    return "\n".join(
        [line(section.headers), line(["---"] * len(section.headers)), *map(line, section.rows)]
    )


def render_markdown(report: dict) -> str:
    parts = ["## fastapi-env report"]
    for s in sections(report):
        parts.append(f"### {s.title}\n\n{markdown_table(s)}")
        parts.extend(f"_{note}_" for note in s.notes)
    return "\n\n".join(parts) + "\n"


def render_json(report: dict) -> str:
    return json.dumps(report, indent=2, sort_keys=False) + "\n"


# ------------------------------------------------------------------------------------- plot


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError as exc:
        raise ReportError(
            "--plot needs matplotlib, an optional dependency: run `uv sync --extra report` "
            "(or `uv run --with matplotlib fastapi-env report ...`)"
        ) from exc
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def plot(report: dict, path: Path) -> Path:
    """Reward by difficulty and by category with 95% intervals, and pass@k per run."""
    plt = _pyplot()
    fig = plt.figure(figsize=(13, 8), layout="constrained")
    grid = fig.add_gridspec(2, 2)
    _reward_bars(fig.add_subplot(grid[0, 0]), report, "difficulty", "Reward by difficulty")
    _pass_curves(fig.add_subplot(grid[0, 1]), report)
    _reward_bars(fig.add_subplot(grid[1, :]), report, "category", "Reward by category")
    handles, labels = fig.axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncols=min(len(labels), 4))
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return Path(path)


def _reward_bars(ax: Any, report: dict, kind: str, title: str) -> None:
    keys = _group_keys(report, kind)
    width = 0.8 / len(report["runs"])
    for i, run in enumerate(report["runs"]):
        stats = [run[kind].get(k) or {} for k in keys]
        means = [s.get("mean_reward") or 0.0 for s in stats]
        cis = [s.get("reward_ci") or [m, m] for s, m in zip(stats, means, strict=True)]
        errors = [
            [m - lo for m, (lo, _) in zip(means, cis, strict=True)],
            [hi - m for m, (_, hi) in zip(means, cis, strict=True)],
        ]
        xs = [x + (i - (len(report["runs"]) - 1) / 2) * width for x in range(len(keys))]
        ax.bar(xs, means, width, yerr=errors, capsize=3, label=run["label"])
    ax.set_xticks(
        range(len(keys)),
        keys,
        rotation=20 if kind == "category" else 0,
        ha="right" if kind == "category" else "center",
    )
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("mean reward (95% CI)")
    ax.set_title(title)


def _pass_curves(ax: Any, report: dict) -> None:
    for run in report["runs"]:
        stats = run["all"]
        ks = [int(k) for k in stats["pass_at_k"]]
        values = [stats["pass_at_k"][str(k)] for k in ks]
        (line,) = ax.plot(ks, values, marker="o", label=run["label"])
        cis = [stats["pass_at_k_ci"][str(k)] for k in ks]
        if cis and all(cis):
            low, high = zip(*cis, strict=True)
            ax.fill_between(ks, low, high, alpha=0.2, color=line.get_color())
    ax.set_ylim(0, 1.05)
    ax.set_xlabel("k")
    ax.set_ylabel("pass@k (95% CI)")
    ax.set_title("pass@k")
    ax.xaxis.get_major_locator().set_params(integer=True)


# -------------------------------------------------------------------------------------- cli


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "runs",
        nargs="+",
        type=Path,
        metavar="RUN_DIR",
        help="a run directory (results.jsonl or traces.jsonl); the first is the "
        "base the others are compared with",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print the report as JSON")
    output.add_argument("--markdown", action="store_true", help="print the report as Markdown")
    parser.add_argument(
        "--plot",
        type=Path,
        metavar="FILE.png",
        help="also save a plot (needs matplotlib: uv sync --extra report)",
    )
    parser.add_argument(
        "--prices",
        type=Path,
        metavar="FILE.json",
        help='USD per million tokens by model: {"model": {"input": 0.4, '
        '"output": 1.6}} ("*" for any model)',
    )
    parser.add_argument(
        "--pass-threshold",
        type=float,
        default=1.0,
        help="a rollout passes when its reward is at least this (default 1.0)",
    )
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=0, help="bootstrap seed")


def main(args: argparse.Namespace) -> int:
    try:
        if args.resamples < 1:
            raise ReportError("--resamples must be at least 1")
        runs = [load_run(path) for path in args.runs]
        prices = load_prices(args.prices) if args.prices else None
        settings = Settings(args.pass_threshold, args.resamples, args.seed)
        report = build_report(runs, settings, prices)
        if args.plot:
            plot(report, args.plot)
    except ReportError as exc:
        print(f"fastapi-env report: {exc}", file=sys.stderr)
        return 2
    renderer = render_json if args.json else render_markdown if args.markdown else render_text
    sys.stdout.write(renderer(report))
    if args.plot:
        print(f"plot saved to {args.plot}", file=sys.stderr)
    return 0
