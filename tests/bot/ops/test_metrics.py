"""The metrics registry: the failed bot searches are exported at 0 for every slow variant and stage before the
first one (so ``increase`` and the alerts see the first), and count by variant and stage."""

from __future__ import annotations

from typing import get_args

from bot.games.bot_moves import Stage
from bot.ops.metrics import SEARCH_STAGES, SEARCHED_VARIANTS, Metrics
from engine.kernels import search_kernels
from engine.registry import VARIANTS


def test_failed_searches_start_at_zero_and_count_by_variant_and_stage() -> None:
    metrics = Metrics()
    sample = metrics.registry.get_sample_value
    for variant in SEARCHED_VARIANTS:
        for stage in SEARCH_STAGES:
            assert sample("ttt_search_failures_total", {"variant": variant, "stage": stage}) == 0.0
    metrics.search_failures_by("ultimate", "retry").inc()
    metrics.search_failures_by("ultimate", "retry").inc()
    assert sample("ttt_search_failures_total", {"variant": "ultimate", "stage": "retry"}) == 2.0
    assert sample("ttt_search_failures_total", {"variant": "ultimate", "stage": "search"}) == 0.0
    assert get_args(Stage) == SEARCH_STAGES and set(SEARCHED_VARIANTS) == set(VARIANTS)


def test_the_search_kernel_of_every_game_is_a_gauge() -> None:
    sample = Metrics().registry.get_sample_value
    for variant, kernel in search_kernels().items():
        assert sample("ttt_search_kernel", {"variant": variant, "kernel": kernel}) == 1.0
        other = "Python" if kernel == "C" else "C"
        assert sample("ttt_search_kernel", {"variant": variant, "kernel": other}) is None
    assert search_kernels()["3x3"] == "Python"
