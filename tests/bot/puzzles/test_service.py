"""The puzzle service (bot.puzzles.service) on a real SQLite records store: its answers, with no Discord."""

from __future__ import annotations

import datetime
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.puzzles.messages import (
    DAILY,
    DAILY_OPEN,
    ILLEGAL,
    NOT_YOURS,
    OVER,
    RATED,
    SLOWER,
    SOLUTION,
    SOLVED,
    STALE,
    UNRATED_SLOWER,
)
from bot.puzzles.service import PuzzleRefusal, PuzzleService, PuzzleShown
from bot.records import PuzzleStore, open_store
from bot.records.puzzle_values import Run
from engine.puzzles import load
from engine.puzzles.slower import slower_win
from engine.registry import variant

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
    wrong = next(
        c for c in range(16) if c not in puzzle.moves and c != puzzle.line[0] and slower_win(puzzle, 0, c) is None
    )
    ended = await service.press(OWNER, run.run_id, 0, str(wrong))
    assert isinstance(ended, PuzzleShown) and not ended.live and ended.progress == 0
    assert [key for key, _ in ended.lines][1:] == [SOLUTION, RATED]
    assert await service.press(OWNER, run.run_id, 0, str(puzzle.line[0])) == PuzzleRefusal(OVER)


async def test_a_slower_win_is_told_and_the_attempt_goes_on_unrated(service: PuzzleService) -> None:
    rules = variant("5x5")
    for puzzle in (p for p in load("5x5") if p.win_in == 1):
        legal = rules.game.actions(rules.replay(puzzle.moves))
        slower = [(c, k) for c in legal if c != puzzle.solution[0] and (k := slower_win(puzzle, 0, c))]
        if slower:
            break
    (cell, wins_in), *_ = slower
    run = await service.store.start(Run(0, OWNER, GUILD, "5x5", puzzle.id))
    assert run is not None
    told = await service.press(OWNER, run.run_id, 0, str(cell))
    assert isinstance(told, PuzzleShown) and told.live and told.progress == 0 and not told.run.rated
    assert told.lines == ((SLOWER, {"cell": rules.cell_name(cell), "slower": wins_in, "n": 1}),)
    stored = await service.store.run(run.run_id)
    assert stored is not None and not stored.rated and stored.progress == 0
    solved = await service.press(OWNER, run.run_id, 0, str(puzzle.solution[0]))
    assert isinstance(solved, PuzzleShown) and not solved.live
    assert [key for key, _ in solved.lines] == [SOLVED, UNRATED_SLOWER]
    player = await service.store.player(OWNER, "5x5")
    assert player.attempts == 0 and player.rating == 1500.0  # nothing rated
    assert puzzle.id not in await service.store.puzzle_ratings("5x5")


async def test_a_press_on_a_cell_no_disc_can_reach_is_refused(service: PuzzleService) -> None:
    """In a game played by column only the cell a disc falls to is a move; a forged id may name any other."""
    name = "connect-four"
    rules = variant(name)
    puzzle = load(name)[0]
    run = await service.store.start(Run(0, OWNER, GUILD, name, puzzle.id))
    assert run is not None
    state = rules.replay(puzzle.moves)
    floating = [c for c in range(rules.cells) if rules.mark(state, c) is None and c not in rules.columns(state)]
    for cell in floating[:3]:
        assert await service.press(OWNER, run.run_id, 0, str(cell)) == PuzzleRefusal(ILLEGAL)
    assert floating and await service.store.run(run.run_id) == run  # nothing changed


def puzzle_rows(tmp_path: Path) -> list[list[tuple[object, ...]]]:
    """Every row of the records file's puzzle tables."""
    tables = ("running_puzzles", "puzzle_attempts", "puzzle_ratings", "puzzle_players", "daily_tries")
    with sqlite3.connect(tmp_path / "records.sqlite3") as connection:
        return [connection.execute(f"SELECT * FROM {table} ORDER BY 1").fetchall() for table in tables]


async def test_a_puzzle_is_its_players_whatever_the_press_says_also_after_a_restart(
    service: PuzzleService, tmp_path: Path
) -> None:
    """Issue 45: a puzzle's id names its run only; who may play it is the stored run's player. Another user's press
    on every kind of button (a cell, a small board, Back) is refused and writes nothing, before and after a restart
    (a new service over the same records file)."""
    started = await service.start(OWNER, GUILD, "ultimate", is_daily=False)
    assert isinstance(started, PuzzleShown)
    run = started.run
    before = puzzle_rows(tmp_path)
    refusal = PuzzleRefusal(NOT_YOURS, {"owner": f"<@{OWNER}>"})
    right = str(run.puzzle.line[0])
    for key in (right, "b4", "k"):
        assert await service.press(OTHER, run.run_id, 0, key) == refusal, key
    assert puzzle_rows(tmp_path) == before
    restarted = PuzzleService(service.store, random.Random(2), today=lambda: DAY)
    for key in (right, "b4", "k"):
        assert await restarted.press(OTHER, run.run_id, 0, key) == refusal, key
    assert puzzle_rows(tmp_path) == before
    assert isinstance(await restarted.press(OWNER, run.run_id, 0, right), PuzzleShown)
