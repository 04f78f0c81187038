"""benchmarks/ultimate_load.py: how it counts the contract's late callbacks; a late one stops a player, not the run."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from benchmarks.harness import BenchmarkError, RunResult
from benchmarks.harness.ultimate import UltimateStats
from benchmarks.ultimate_load import Phase, late_count, until_refused


def records(*latencies: float | None) -> list[Any]:
    return [SimpleNamespace(latency=latency) for latency in latencies]


def test_late_means_after_three_seconds_or_never() -> None:
    assert late_count(records(0.1, 2.999, 3.0)) == (0, 0)
    assert late_count(records(0.1, 3.02, None, 7.5)) == (3, 1)


async def test_a_refused_callback_stops_that_player_and_the_others_play_on() -> None:
    phase = Phase(True, RunResult("3x3 with ultimate", 1), UltimateStats())
    broken: set[int] = set()
    late_player, other = object(), object()
    played: list[str] = []

    async def refused() -> None:
        raise BenchmarkError("ultimate press in 1: callback refused: 404 10062 Unknown interaction")

    async def plays() -> None:
        await asyncio.sleep(0.01)
        played.append("other")

    await asyncio.gather(
        until_refused(refused(), late_player, phase, broken), until_refused(plays(), other, phase, broken)
    )
    assert broken == {id(late_player)} and played == ["other"]
    assert phase.stopped == ["ultimate press in 1: callback refused: 404 10062 Unknown interaction"]


async def test_any_other_failure_still_ends_the_run() -> None:
    phase = Phase(False, RunResult("3x3", 1), UltimateStats())

    async def broken_driver() -> None:
        raise RuntimeError("a bug in the driver")

    with pytest.raises(RuntimeError, match="a bug in the driver"):
        await until_refused(broken_driver(), object(), phase, set())
