"""The quiet collector: generation-1 and -2 passes wait for the foreground to give way, run at CPython's cadence
from a task, and the automatic thresholds come back when it stops."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from typing import Any

import pytest

from bot.collector import QuietCollector


@pytest.fixture
def passes() -> Iterator[list[int]]:
    """The generation of every collection started while the test runs (automatic or not)."""
    seen: list[int] = []

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(callback)
    yield seen
    gc.callbacks.remove(callback)


def make_garbage(young_passes: int) -> None:
    """Allocate cycles until at least ``young_passes`` automatic generation-0 passes ran."""
    threshold = gc.get_threshold()[0]
    for _ in range(threshold * (young_passes + 1)):
        cycle: list[Any] = []
        cycle.append(cycle)


async def test_older_generations_wait_for_the_foreground_then_run_from_the_task(passes: list[int]) -> None:
    gate = asyncio.Event()
    asked: list[int] = []

    async def give_way() -> None:
        asked.append(len(passes))
        await gate.wait()

    saved = gc.get_threshold()
    collector = QuietCollector(give_way, every=0.01)
    gc.collect()
    passes.clear()
    collector.start()
    try:
        assert gc.get_threshold() == (saved[0], 100, 100)
        make_garbage(30)
        assert passes and set(passes) == {0}  # CPython alone would have run a generation-1 pass by now
        while not asked:
            await asyncio.sleep(0.01)
        assert collector.due() == 1 and collector.passes[1] == 0
        gate.set()
        while not collector.passes:
            await asyncio.sleep(0.01)
        assert collector.passes == {1: 1} and 1 in passes[asked[0] :]
        assert collector.due() is None
    finally:
        await collector.stop()
    assert gc.get_threshold() == saved


async def test_a_full_pass_waits_until_the_oldest_generation_grew_by_a_quarter(passes: list[int]) -> None:
    async def give_way() -> None:
        pass

    collector = QuietCollector(give_way, every=0.002, ratio=2)
    gc.collect()
    passes.clear()
    collector.start()
    kept: list[list[int]] = []
    try:
        while collector.passes[1] < 8:  # a steady heap: generation-1 passes only
            make_garbage(3)
            await asyncio.sleep(0.005)
        assert collector.passes[2] == 0 and 2 not in passes
        kept.extend([i] for i in range(len(gc.get_objects(2))))  # survivors that will double the oldest generation
        for _ in range(2000):
            if collector.passes[2]:
                break
            make_garbage(3)
            await asyncio.sleep(0.002)
    finally:
        await collector.stop()
    assert collector.passes[2] >= 1 and 2 in passes


async def test_stop_is_safe_before_start_and_a_second_start_is_refused() -> None:
    async def give_way() -> None:
        pass

    collector = QuietCollector(give_way)
    await collector.stop()
    collector.start()
    try:
        with pytest.raises(RuntimeError, match="already started"):
            collector.start()
    finally:
        await collector.stop()


@pytest.mark.parametrize("options", [{"every": 0}, {"ratio": 0}, {"backstop": 0}])
def test_bounds_are_checked(options: dict[str, Any]) -> None:
    async def give_way() -> None:
        pass

    with pytest.raises(ValueError, match="need every"):
        QuietCollector(give_way, **options)
