"""A Connect Four puzzle through the puzzle service and its buttons (registered as an outside game is): a button per
column keyed by the cell its disc falls to, the solution pressed column by column until solved, the moves named by
column."""

from __future__ import annotations

import datetime
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.i18n.lang import lang
from bot.puzzles.messages import RIGHT, SOLVED
from bot.puzzles.service import PuzzleService, PuzzleShown
from bot.records import PuzzleStore, open_store
from bot.records.puzzle_values import Run
from bot.ui.puzzles import puzzle_view
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from engine.puzzles import load

pytestmark = [pytest.mark.asyncio]

OWNER, GUILD = 10, 5


@pytest.fixture
def columns_game() -> str:
    """The game played by column the engine registers."""
    return CONNECT_FOUR_VARIANT.name


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[PuzzleService]:
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    yield PuzzleService(PuzzleStore(records), random.Random(1), today=lambda: datetime.date(2026, 11, 28))
    await records.close()


async def test_a_puzzle_is_solved_by_pressing_columns(service: PuzzleService, columns_game: str) -> None:
    puzzle = next(p for p in load(columns_game) if p.win_in == 2)
    run = await service.store.start(Run(0, OWNER, GUILD, columns_game, puzzle.id))
    assert run is not None
    for step, cell in enumerate(puzzle.solution):
        rows = puzzle_view(run, lang(None)).to_components()
        keys = {int(b["custom_id"].rsplit(":", 1)[1]): b for row in rows for b in row["components"]}
        assert [len(row["components"]) for row in rows] == [4, 3] and cell in keys  # the column's landing cell
        assert keys[cell]["label"] == str(cell % 7 + 1) and not keys[cell].get("disabled")
        shown = await service.press(OWNER, run.run_id, run.progress, str(cell))
        assert isinstance(shown, PuzzleShown), shown
        said = dict(shown.lines)
        if step < puzzle.win_in - 1:
            assert said[RIGHT] == {"cell": str(cell % 7 + 1), "reply": str(puzzle.replies[step] % 7 + 1)}
            run = shown.run
        else:
            assert SOLVED in said and not shown.live
