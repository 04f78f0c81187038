"""The load benchmark's driver (``benchmarks/harness``, run by ``benchmarks/load.py``) at N=10 for a few seconds,
against the real bot.

Excluded from the default run (``-m 'not load'``); run it with ``python -m pytest -m load tests/e2e/test_load.py -q``.
"""

from __future__ import annotations

import pytest

from benchmarks.harness import LATE, run_ours

pytestmark = [pytest.mark.load, pytest.mark.asyncio]


async def test_ten_concurrent_games_are_answered_in_time() -> None:
    result = await run_ours(10, seconds=4.0)
    assert result.moves > 0 and result.games > 0, result
    assert result.late == 0, f"{result.late} of {result.records} interactions answered after {LATE} s"
    assert result.violations == []
    assert result.unknown_routes == []
    assert result.refused == 0, "a press was answered with something other than the updated board"
    assert result.errors == [], "\n".join(result.errors)
    assert result.latencies and max(result.latencies) < LATE
    assert result.finished > 0 and result.stored == result.finished, "an ended game is missing from the records"


async def test_two_shard_processes_share_the_load_and_the_records() -> None:
    result = await run_ours(8, processes=2, seconds=3.0)
    assert result.moves > 0 and result.late == 0 and result.refused == 0
    assert result.unknown_routes == [] and result.errors == [], "\n".join(result.errors)
    assert result.finished > 0 and result.stored == result.finished, "an ended game is missing from the records"


async def test_the_minimal_bot_plays_the_same_games() -> None:
    result = await run_ours(4, seconds=2.0, minimal=True)
    assert result.moves > 0 and result.games > 0, result
    assert result.late == 0 and result.refused == 0 and result.violations == []
    assert result.unknown_routes == [] and result.errors == [], "\n".join(result.errors)
