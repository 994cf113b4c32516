"""``fastapi-env report`` on saved runs (tests/data/report, see its README) and on small
hand-built rollouts."""

from __future__ import annotations

import itertools
import json
import shutil
import statistics
import sys
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from fastapi_env import report
from fastapi_env.cli import main as cli_main
from fastapi_env.report import (
    ReportError,
    Rollout,
    Run,
    Settings,
    bootstrap_ci,
    build_report,
    compare_runs,
    load_run,
    pass_at_k,
    percentile,
)

DATA = Path(__file__).parent / "data" / "report"
REFERENCE = DATA / "reference"
MIXED = DATA / "mixed"
# passing rollouts out of 3 per task in the mixed run (see tests/data/report/README.md)
MIXED_PASSES = {
    "errors/http_exception_headers": 3,
    "forms_files/login_form_fields": 2,
    "routing/path_order_shadowing": 1,
    "security/api_key_header": 3,
    "responses/camelcase_aliases": 0,
    "dependencies/yield_teardown_order": 2,
}


@pytest.fixture(scope="module")
def mixed() -> Run:
    return load_run(MIXED)


@pytest.fixture(scope="module")
def reference() -> Run:
    return load_run(REFERENCE)


@pytest.fixture(scope="module")
def two_run_report() -> dict:
    return build_report([load_run(REFERENCE), load_run(MIXED)])


def raw_rows(run_dir: Path) -> list[dict]:
    return [json.loads(x) for x in (run_dir / "results.jsonl").read_text().splitlines()]


# ----------------------------------------------------------------------------- the estimator


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (3, 1, 1, Fraction(1, 3)),
        (3, 1, 2, Fraction(2, 3)),  # 1 - C(2,2)/C(3,2) = 1 - 1/3
        (3, 2, 2, Fraction(1)),  # C(1,2) = 0
        (5, 2, 2, Fraction(7, 10)),  # 1 - C(3,2)/C(5,2) = 1 - 3/10
        (5, 2, 3, Fraction(9, 10)),  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        (10, 3, 4, Fraction(5, 6)),  # 1 - C(7,4)/C(10,4) = 1 - 35/210
        (4, 0, 1, Fraction(0)),  # c = 0
        (4, 0, 4, Fraction(0)),  # c = 0, k = n
        (4, 4, 1, Fraction(1)),  # c = n
        (4, 4, 4, Fraction(1)),  # c = n, k = n
        (4, 1, 4, Fraction(1)),  # k = n with one pass
        (1, 1, 1, Fraction(1)),
        (1, 0, 1, Fraction(0)),
    ],
)
def test_pass_at_k_hand_computed(n: int, c: int, k: int, expected: Fraction) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(float(expected), abs=1e-12)


def test_pass_at_k_is_the_chance_that_k_drawn_rollouts_hold_a_pass() -> None:
    for n in range(1, 7):
        for c in range(n + 1):
            outcomes = [True] * c + [False] * (n - c)
            for k in range(1, n + 1):
                draws = list(itertools.combinations(outcomes, k))
                exact = Fraction(sum(any(d) for d in draws), len(draws))
                assert pass_at_k(n, c, k) == pytest.approx(float(exact), abs=1e-12)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 4, 1), (3, 1, 0), (3, 1, 4), (0, 0, 1)])
def test_pass_at_k_rejects_impossible_counts(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError):
        pass_at_k(n, c, k)


def test_percentile_interpolates_between_order_statistics() -> None:
    assert percentile([4, 1, 3, 2], 0.5) == 2.5
    assert percentile([1, 2, 3, 4], 0.95) == pytest.approx(3.85)
    assert percentile([7.0], 0.95) == 7.0


# ----------------------------------------------------------------------------- the bootstrap


def test_bootstrap_interval_contains_the_mean_and_is_seeded() -> None:
    values = [1.0, 2 / 3, 1 / 3, 1.0, 0.0, 2 / 3]
    mean = statistics.fmean(values)
    low, high = bootstrap_ci(values, resamples=2000, seed=0)
    assert low < mean < high
    assert 0.0 <= low and high <= 1.0
    assert high - low > 0.2  # six tasks cannot pin the mean down
    assert bootstrap_ci(values, seed=0) == [low, high]
    spread = [0.05, 0.21, 0.38, 0.52, 0.77, 0.9, 0.96]
    assert bootstrap_ci(spread, resamples=300, seed=0) != bootstrap_ci(
        spread, resamples=300, seed=1
    )


def test_bootstrap_of_identical_values_is_that_value() -> None:
    assert bootstrap_ci([0.5] * 7) == [0.5, 0.5]


def test_weighted_bootstrap_pools_rollouts() -> None:
    # one task with 9 passing rollouts out of 9, one with 0 out of 1: the pooled mean is 0.9
    values, weights = [1.0, 0.0], [9, 1]
    low, high = bootstrap_ci(values, weights)
    assert (low, high) == (0.0, 1.0)  # resamples hold only the first, only the second, or both
    assert bootstrap_ci([1.0, 0.0], [1, 1]) == [0.0, 1.0]
    with pytest.raises(ValueError):
        bootstrap_ci([])


# ----------------------------------------------------------------------------- reading runs


def test_results_run_is_read_rollout_by_rollout(mixed: Run) -> None:
    assert mixed.source == "results.jsonl"
    assert mixed.model == "scripted-mixed"
    assert mixed.label == "scripted-mixed (mixed)"
    assert len(mixed.rollouts) == 18
    passes = {
        t: sum(r.reward == 1.0 for r in mixed.rollouts if r.task_id == t) for t in MIXED_PASSES
    }
    assert passes == MIXED_PASSES
    first = mixed.rollouts[0]
    assert (first.task_id, first.category, first.difficulty) == (
        "errors/http_exception_headers",
        "errors",
        "easy",
    )
    assert first.turns == 3  # assistant, tool, assistant, tool, assistant
    assert first.stop_condition == "no_tools_called"
    assert first.scoring_error is None
    assert first.reason == "all rows and hidden probes match"
    raw = raw_rows(MIXED)[0]["timing"]
    assert first.timing["total"] == raw["total"]
    assert first.timing["model"] == raw["model"]["duration"]
    assert first.timing["environment"] == pytest.approx(raw["total"] - raw["model"]["duration"])
    assert first.timing["tools"] == raw["env"]["duration"]
    assert first.timing["setup"] == raw["setup"]["duration"]
    assert first.timing["grading"] == pytest.approx(raw["total"] - raw["generation"]["duration"])


def test_turns_come_from_the_assistant_messages(mixed: Run) -> None:
    turns = [r.turns for r in mixed.rollouts]
    # reference: 3 turns, rows-only: 2 (write, then stop), noop: 1
    assert sum(turns) == 46 and max(turns) == 3 and min(turns) == 1


def test_locate_accepts_file_directory_and_a_parent_with_one_run(tmp_path: Path) -> None:
    assert len(load_run(MIXED / "results.jsonl").rollouts) == 18
    nested = tmp_path / "outputs" / "evals" / "fastapi-env--m" / "abc123"
    shutil.copytree(MIXED, nested)
    assert load_run(tmp_path / "outputs").path == nested
    with pytest.raises(ReportError, match="holds 2 runs"):
        load_run(DATA)
    with pytest.raises(ReportError, match="no such file"):
        load_run(tmp_path / "absent")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ReportError, match="no results.jsonl or traces.jsonl"):
        load_run(tmp_path / "empty")


def test_a_torn_line_is_skipped_and_counted(tmp_path: Path) -> None:
    lines = (MIXED / "results.jsonl").read_text().splitlines()
    (tmp_path / "results.jsonl").write_text("\n".join(lines[:4]) + "\n" + lines[4][:100])
    run = load_run(tmp_path)
    assert (len(run.rollouts), run.skipped_lines, run.metadata) == (4, 1, {})


def test_missing_task_metadata_comes_from_the_dataset() -> None:
    row = {"info": {"task_id": "routing/path_order_shadowing"}, "reward": 1.0}
    bare = [report.rollout_from_result(row), Rollout("newcat/some_task")]
    filled = report.fill_task_metadata(bare, None)  # None: the shipped dataset
    assert (filled[0].category, filled[0].difficulty) == ("routing", "medium")
    assert (filled[1].category, filled[1].difficulty) == ("newcat", "unknown")


def test_scoring_error_is_read_from_the_grade_or_the_metric() -> None:
    grade = {"scoring_error": "docker engine unreachable", "reason": "docker engine unreachable"}
    row = {
        "info": {"task_id": "a/b"},
        "reward": 0.0,
        "grade": grade,
        "metrics": {"scoring_error": 1.0},
    }
    assert report.rollout_from_result(row).scoring_error == "docker engine unreachable"
    row.pop("grade")
    assert "scoring_error metric" in report.rollout_from_result(row).scoring_error
    row["metrics"] = {"scoring_error": 0.0}
    assert report.rollout_from_result(row).scoring_error is None


# ------------------------------------------------------------------------ the verifiers 0.4 reader


def _handwritten_trace(task_id: str, score: float) -> dict:
    return {
        "task": {"type": "FastAPITask", "data": {"prompt": "..."}},
        "rewards": {"correctness": {"score": score, "weight": 1.0}, "other": None},
        "metrics": {
            "rows_matched": score,
            "probes_matched": score,
            "scoring_error": 0.0,
            "pending": None,
        },
        "info": {"task_id": task_id, "grade": {"reason": "missing_app: no app"}},
        "nodes": [
            {"message": {"role": "system", "content": "s"}, "sampled": False},
            {"message": {"role": "assistant", "content": "a"}, "sampled": True},
            {"message": {"role": "tool", "content": "t", "tool_call_id": "1"}},
            {"message": {"role": "assistant", "content": "b"}, "sampled": True},
        ],
        "calls": [
            {"usage": {"prompt_tokens": 100, "completion_tokens": 20, "cached_input_tokens": 50}},
            {"usage": {"prompt_tokens": 150, "completion_tokens": 30}},
        ],
        "stop_condition": "max_turns",
        "errors": [{"type": "ToolError", "message": "boom"}],
        "timing": {
            "start": 100.0,
            "boot": {"start": 100.0, "end": 101.0},
            "setup": {"start": 101.0, "end": 102.5},
            "agent": {
                "start": 102.5,
                "end": 110.0,
                "model": {"duration": 4.0},
                "harness": {"duration": 3.5},
            },
            "finalize": {"start": 110.0, "end": 112.0},
            "scoring": {"start": 112.0, "end": 112.5},
        },
    }


def test_traces_reader_reads_an_episode_line(tmp_path: Path) -> None:
    episode = {
        "id": "e1",
        "task": {"type": "FastAPITask", "data": {}},
        "traces": [_handwritten_trace("routing/path_order_shadowing", 0.0)],
    }
    (tmp_path / "traces.jsonl").write_text(json.dumps(episode) + "\n")
    run = load_run(tmp_path)
    assert run.source == "traces.jsonl"
    (r,) = run.rollouts
    assert (r.task_id, r.category, r.difficulty) == (
        "routing/path_order_shadowing",
        "routing",
        "medium",
    )
    assert r.reward == 0.0 and r.metrics == {
        "rows_matched": 0.0,
        "probes_matched": 0.0,
        "scoring_error": 0.0,
    }
    assert r.turns == 2 and r.truncated and r.stop_condition == "max_turns"
    assert r.error == "ToolError: boom" and r.reason == "missing_app: no app"
    assert (r.prompt_tokens, r.completion_tokens) == (300.0, 50.0)
    assert r.timing == {
        "total": 12.5,
        "model": 4.0,
        "environment": 8.5,
        "setup": 2.5,
        "tools": 3.5,
        "grading": 2.5,
    }


def test_traces_reader_reads_what_verifiers_v1_serializes(tmp_path: Path) -> None:
    pytest.importorskip("verifiers.v1.episode")
    from verifiers.v1.episode import Episode
    from verifiers.v1.graph import MessageNode
    from verifiers.v1.trace import AgentInfo, ModelCall, Reward, Trace, TraceTask
    from verifiers.v1.types import AssistantMessage, Usage, UserMessage

    task = TraceTask(type="FastAPITask", data={"prompt": "build it"})
    trace = Trace(task=task, agent=AgentInfo(config={}))
    trace.nodes = [
        MessageNode(message=UserMessage(content="build it")),
        MessageNode(parent=0, message=AssistantMessage(content="done"), sampled=True),
    ]
    trace.calls = [ModelCall(node=1, usage=Usage(prompt_tokens=40, completion_tokens=7))]
    trace.rewards = {"correctness": Reward(score=1.0)}
    trace.record_metrics({"rows_matched": 1.0, "probes_matched": 1.0, "scoring_error": 0.0})
    trace.info = {
        "task_id": "security/api_key_header",
        "category": "security",
        "difficulty": "medium",
    }
    for span, (start, end) in zip(
        (trace.timing.setup, trace.timing.agent, trace.timing.scoring),
        ((10.0, 11.0), (11.0, 15.0), (15.0, 15.25)),
        strict=True,
    ):
        span.start, span.end = start, end
    trace.timing.agent.model.duration = 1.5
    trace.stop("no_tools_called")
    episode = Episode(task=task, traces=[trace], ok=True)
    (tmp_path / "traces.jsonl").write_text(episode.model_dump_json(exclude_none=True) + "\n")

    (r,) = load_run(tmp_path).rollouts
    assert (r.task_id, r.category, r.difficulty, r.reward) == (
        "security/api_key_header",
        "security",
        "medium",
        1.0,
    )
    assert r.turns == 1 and r.stop_condition == "no_tools_called" and not r.truncated
    assert (r.prompt_tokens, r.completion_tokens) == (40.0, 7.0)
    assert r.timing["total"] == 5.25 and r.timing["model"] == 1.5
    assert r.timing["environment"] == 3.75 and r.timing["grading"] == 0.25


# --------------------------------------------------------------------------------- statistics


def test_mixed_run_numbers_match_hand_computation(two_run_report: dict) -> None:
    run = two_run_report["runs"][1]
    stats = run["all"]
    assert run["rollouts_per_task"] == 3
    assert (stats["tasks"], stats["rollouts"], stats["scoring_errors"]) == (6, 18, 0)
    # rewards 3+2+1+3+0+2 = 11 of 18
    assert stats["mean_reward"] == pytest.approx(11 / 18)
    # pass@1 = mean(c/3); pass@2 = (1+1+2/3+1+0+1)/6; pass@3 = 5 of 6 tasks solved at least once
    assert stats["pass_at_k"] == pytest.approx({"1": 11 / 18, "2": 14 / 18, "3": 5 / 6})
    assert stats["rows_matched"] == pytest.approx(11 / 18)
    assert stats["probes_matched"] == pytest.approx(11 / 18)
    assert stats["module_imported"] == pytest.approx(17 / 18)  # the one noop wrote no module
    assert stats["failures"] == {"missing_app": 6, "no_solution": 1}
    assert stats["stop_conditions"] == {"no_tools_called": 18}
    assert stats["turns_mean"] == pytest.approx(46 / 18) and stats["turns_max"] == 3
    low, high = stats["reward_ci"]
    assert low < 11 / 18 < high
    for k, value in stats["pass_at_k"].items():
        low, high = stats["pass_at_k_ci"][k]
        assert low <= value <= high


def test_mixed_run_by_difficulty_and_category(two_run_report: dict) -> None:
    run = two_run_report["runs"][1]
    by_tier = {d: s["mean_reward"] for d, s in run["difficulty"].items()}
    assert list(by_tier) == ["easy", "medium", "hard"]
    assert by_tier == pytest.approx({"easy": 5 / 6, "medium": 4 / 6, "hard": 2 / 6})
    hard = run["difficulty"]["hard"]
    assert hard["pass_at_k"] == pytest.approx({"1": 1 / 3, "2": 1 / 2, "3": 1 / 2})
    by_category = {c: s["mean_reward"] for c, s in run["category"].items()}
    assert by_category == pytest.approx(
        {
            "dependencies": 2 / 3,
            "errors": 1.0,
            "forms_files": 2 / 3,
            "responses": 0.0,
            "routing": 1 / 3,
            "security": 1.0,
        }
    )
    assert run["category"]["responses"]["reward_ci"] is None  # one task: no interval


def test_reference_run_is_perfect(two_run_report: dict) -> None:
    stats = two_run_report["runs"][0]["all"]
    assert stats["mean_reward"] == 1.0 and stats["reward_ci"] == [1.0, 1.0]
    assert stats["pass_at_k"] == {"1": 1.0, "2": 1.0, "3": 1.0}
    assert stats["failures"] == {}


def test_scoring_errors_are_counted_apart_and_left_out(mixed: Run) -> None:
    rollouts = list(mixed.rollouts)
    # one passing rollout of login_form_fields (2 of 3 pass) and one failing rollout of
    # camelcase_aliases become harness failures
    login = next(
        i
        for i, r in enumerate(rollouts)
        if r.task_id == "forms_files/login_form_fields" and r.reward == 1.0
    )
    camel = next(i for i, r in enumerate(rollouts) if r.task_id == "responses/camelcase_aliases")
    for i in (login, camel):
        rollouts[i] = replace(rollouts[i], scoring_error="container died")
    run = Run("broken", MIXED, "results.jsonl", {}, rollouts)
    result = build_report([run])["runs"][0]
    stats = result["all"]
    assert (stats["rollouts"], stats["scored_rollouts"], stats["scoring_errors"]) == (18, 16, 2)
    assert stats["scoring_error_rate"] == pytest.approx(2 / 18)
    assert stats["mean_reward"] == pytest.approx(10 / 16)  # 11 passes minus the login one
    assert result["rollouts_per_task"] == 2  # login and camelcase keep 2 scored rollouts
    # pass@1 per task: 1, 1/2, 1/3, 1, 0, 2/3
    assert stats["pass_at_k"]["1"] == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 + 0 + 2 / 3) / 6)
    assert result["difficulty"]["easy"]["scoring_errors"] == 1


def test_two_runs_differ_with_a_paired_interval(two_run_report: dict) -> None:
    (diff,) = two_run_report["comparisons"]
    assert diff["base"] == "scripted-reference (reference)"
    assert diff["run"] == "scripted-mixed (mixed)"
    assert (diff["shared_tasks"], diff["only_in_base"], diff["only_in_run"]) == (6, 0, 0)
    assert (diff["base_mean"], diff["run_mean"]) == pytest.approx((1.0, 11 / 18))
    assert diff["diff"] == pytest.approx(-7 / 18)
    low, high = diff["diff_ci"]
    assert low < -7 / 18 < high < 0  # the mixed run is worse, and the interval says so


def test_flipped_tasks_widest_gap_first(two_run_report: dict) -> None:
    flips = two_run_report["comparisons"][0]["flipped"]
    assert [(f["task_id"], f["direction"]) for f in flips] == [
        ("responses/camelcase_aliases", "regressed"),
        ("routing/path_order_shadowing", "regressed"),
    ]
    assert [f["gap"] for f in flips] == pytest.approx([1.0, 2 / 3])
    assert (flips[1]["base_pass_rate"], flips[1]["run_pass_rate"]) == pytest.approx((1, 1 / 3))
    assert flips[0]["difficulty"] == "hard" and flips[1]["category"] == "routing"


def test_flips_the_other_way_are_fixes(mixed: Run, reference: Run) -> None:
    diff = compare_runs(mixed, reference, Settings())
    assert diff["diff"] == pytest.approx(7 / 18)
    assert [f["direction"] for f in diff["flipped"]] == ["fixed", "fixed"]
    assert diff["diff_ci"][0] > 0


def test_runs_without_shared_tasks_have_no_difference(mixed: Run) -> None:
    other = Run(
        "other",
        MIXED,
        "results.jsonl",
        {},
        [replace(r, task_id="x/" + r.task_id) for r in mixed.rollouts],
    )
    diff = compare_runs(mixed, other, Settings())
    assert (diff["shared_tasks"], diff["only_in_base"], diff["diff"]) == (0, 6, None)


def test_latency_percentiles_per_part(reference: Run) -> None:
    latency = build_report([reference])["runs"][0]["latency_seconds"]
    assert list(latency) == ["total", "model", "environment", "setup", "tools", "grading"]
    totals = [row["timing"]["total"] for row in raw_rows(REFERENCE)]
    assert latency["total"]["p50"] == pytest.approx(statistics.median(totals))
    assert latency["total"]["mean"] == pytest.approx(statistics.fmean(totals))
    assert min(totals) <= latency["total"]["p95"] <= max(totals)
    models = [row["timing"]["model"]["duration"] for row in raw_rows(REFERENCE)]
    assert latency["model"]["p50"] == pytest.approx(statistics.median(models))
    assert latency["environment"]["mean"] == pytest.approx(
        statistics.fmean(totals) - statistics.fmean(models)
    )


def test_tokens_and_cost(tmp_path: Path) -> None:
    rollouts = [
        Rollout("a/x", "a", "easy", 1.0, prompt_tokens=1000, completion_tokens=200),
        Rollout("a/x", "a", "easy", 0.0, prompt_tokens=3000, completion_tokens=600),
    ]
    run = Run("m", tmp_path, "results.jsonl", {"model": "gpt-x"}, rollouts)
    prices = {"gpt-x": {"input": 2.0, "output": 10.0}, "*": {"input": 0.0, "output": 0.0}}
    tokens = build_report([run], prices=prices)["runs"][0]["tokens"]
    assert (tokens["prompt"], tokens["completion"], tokens["total"]) == (4000, 800, 4800)
    assert tokens["per_rollout"] == {"prompt": 2000, "completion": 400, "total": 2400}
    # 4000 * 2 / 1e6 + 800 * 10 / 1e6
    assert tokens["cost"]["usd"] == pytest.approx(0.016)
    assert tokens["cost"]["per_rollout_usd"] == pytest.approx(0.008)
    assert tokens["cost"]["per_pass_usd"] == pytest.approx(0.016)  # one of the two passed
    run.metadata["model"] = "unpriced"
    assert build_report([run], prices=prices)["runs"][0]["tokens"]["cost"]["usd"] == 0.0
    assert "cost" not in build_report([run])["runs"][0]["tokens"]


def test_prices_file_is_validated(tmp_path: Path) -> None:
    good = tmp_path / "prices.json"
    good.write_text('{"m": {"input": 0.4, "output": 1.6}}')
    assert report.load_prices(good) == {"m": {"input": 0.4, "output": 1.6}}
    bad = tmp_path / "bad.json"
    bad.write_text('{"m": {"input": "cheap"}}')
    with pytest.raises(ReportError, match="numeric 'input' and 'output'"):
        report.load_prices(bad)


# ------------------------------------------------------------------------------------ outputs


def test_json_output_through_the_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    prices = tmp_path / "prices.json"
    prices.write_text('{"*": {"input": 1.0, "output": 1.0}}')
    code = cli_main(["report", str(REFERENCE), str(MIXED), "--json", "--prices", str(prices)])
    assert code == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["label"] for r in data["runs"]] == [
        "scripted-reference (reference)",
        "scripted-mixed (mixed)",
    ]
    assert data["runs"][1]["all"]["mean_reward"] == pytest.approx(11 / 18)
    assert data["runs"][1]["metadata"]["rollouts_per_example"] == 3
    assert data["runs"][0]["tokens"]["cost"]["usd"] == 0.0  # the scripted policy uses no tokens
    assert data["comparisons"][0]["diff"] == pytest.approx(-7 / 18)
    assert data["settings"] == {
        "pass_threshold": 1.0,
        "bootstrap_resamples": 2000,
        "seed": 0,
        "level": 0.95,
    }


def test_markdown_output(two_run_report: dict) -> None:
    text = report.render_markdown(two_run_report)
    assert text.startswith("## fastapi-env report\n")
    assert "| difficulty | run | tasks | rollouts | reward | 95% CI |" in text
    assert "| hard | scripted-mixed (mixed) | 2 | 6 | 0.333 |" in text
    assert "| all | scripted-mixed (mixed) | 6 | 18 | 0.611 |" in text
    assert (
        "| scripted-mixed (mixed) | scripted-reference (reference) | 6 | 1.000 | 0.611 | "
        "-0.389 |" in text
    )
    assert "### Flipped tasks: scripted-mixed (mixed) vs scripted-reference (reference)" in text
    assert "| responses/camelcase_aliases | hard | regressed | 1.00 | 0.00 | 1.00 |" in text
    assert "| routing/path_order_shadowing | medium | regressed | 1.00 | 0.33 | 0.67 |" in text


def test_text_output_is_a_table(two_run_report: dict) -> None:
    text = report.render_text(two_run_report)
    lines = text.splitlines()
    overall = lines.index("Overall")
    assert lines[overall + 1] == "=" * len("Overall")
    header = lines[overall + 2]
    assert header.split()[:5] == ["run", "tasks", "rollouts", "reward", "95%"]
    mixed_row = next(x for x in lines[overall:] if x.startswith("all  scripted-mixed"))
    assert mixed_row.split()[4:6] == ["18", "0.611"]
    assert "worse" in text and "missing_app 6, no_solution 1" in text


def test_single_run_text_has_no_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["report", str(MIXED)]) == 0
    out = capsys.readouterr().out
    assert "pass@3" in out and "0.833" in out  # pass@3 = 5/6
    assert "Difference in mean reward" not in out


def test_cli_reports_unreadable_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert cli_main(["report", str(tmp_path / "nowhere")]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_plot_without_matplotlib_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, two_run_report: dict
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(ReportError, match="uv sync --extra report"):
        report.plot(two_run_report, tmp_path / "plot.png")
    assert not (tmp_path / "plot.png").exists()


def test_plot_is_written(tmp_path: Path, two_run_report: dict) -> None:
    pytest.importorskip("matplotlib")
    out = report.plot(two_run_report, tmp_path / "plot.png")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 10_000
