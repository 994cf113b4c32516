"""The benchmark's bookkeeping (its figures come from real runs; see README, Performance)."""

from __future__ import annotations

import asyncio

from fastapi_env.bench import Sample, repeated


def test_repeated_runs_pool_phases_and_take_the_median_throughput():
    runs = iter([(10, 6.0, [0.1, 0.2]), (10, 5.0, [0.3]), (10, 3.0, [0.4])])

    async def measure() -> Sample:
        rollouts, wall, grading = next(runs)
        return Sample(8, rollouts=rollouts, wall_s=wall, phases={"grading": grading},
                      peak_host_used_bytes=int(wall))

    merged = asyncio.run(repeated(measure, 3))
    assert merged.runs_per_minute == [100.0, 120.0, 200.0]
    assert merged.per_minute == 120.0  # the median, not the pooled 30 rollouts / 14 s
    assert merged.phases == {"grading": [0.1, 0.2, 0.3, 0.4]}
    assert (merged.rollouts, merged.peak_host_used_bytes) == (30, 6)


def test_a_single_run_reports_its_own_throughput():
    assert Sample(1, rollouts=42, wall_s=21.0).per_minute == 120.0
