"""The puzzle service (bot.puzzles.service) on a real SQLite records store: its answers, with no Discord."""

from __future__ import annotations

import datetime
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.puzzles.messages import DAILY, DAILY_OPEN, NOT_YOURS, OVER, RATED, SOLUTION, STALE
from bot.puzzles.service import PuzzleRefusal, PuzzleService, PuzzleShown
from bot.records import PuzzleStore, open_store

pytestmark = [pytest.mark.asyncio]

OWNER, OTHER, GUILD = 10, 11, 5
DAY = datetime.date(2026, 11, 28)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[PuzzleService]:
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    yield PuzzleService(PuzzleStore(records), random.Random(1), today=lambda: DAY)
    await records.close()


async def test_a_daily_puzzle_is_one_try_and_a_wrong_move_ends_it_rated(service: PuzzleService) -> None:
    started = await service.start(OWNER, GUILD, "4x4", is_daily=True)
    assert isinstance(started, PuzzleShown) and started.progress == 0 and started.live
    assert started.lines == ((DAILY, {"day": DAY.isoformat(), "solvers": 0}),)
    assert await service.start(OWNER, GUILD, "4x4", is_daily=True) == PuzzleRefusal(DAILY_OPEN)

    run = started.run
    assert await service.press(OTHER, run.run_id, 0, "0") == PuzzleRefusal(NOT_YOURS, {"owner": f"<@{OWNER}>"})
    assert await service.press(OWNER, run.run_id, 2, "0") == PuzzleRefusal(STALE)
    puzzle = run.puzzle
    wrong = next(c for c in range(16) if c not in puzzle.moves and c != puzzle.line[0])
    ended = await service.press(OWNER, run.run_id, 0, str(wrong))
    assert isinstance(ended, PuzzleShown) and not ended.live and ended.progress == 0
    assert [key for key, _ in ended.lines][1:] == [SOLUTION, RATED]
    assert await service.press(OWNER, run.run_id, 0, str(puzzle.line[0])) == PuzzleRefusal(OVER)
