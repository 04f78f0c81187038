"""The presses on a puzzle (bot.cogs.puzzles) with a real SQLite records store: the custom_id names the running
puzzle, and the stored puzzle decides — another player, a stale ply, an illegal or forged move are refused privately
and change nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot.cogs.puzzles import PuzzleCommands
from bot.i18n.lang import lang
from bot.puzzles.messages import ILLEGAL, NOT_YOURS, OVER, STALE
from bot.puzzles.service import PuzzleService
from bot.records import PuzzleStore, RecordsStore, open_store
from bot.records.puzzle_values import Run
from engine.puzzles import load
from tests.bot.ui.fakes import FakeInteraction

pytestmark = [pytest.mark.asyncio]

OWNER, OTHER = 10, 11


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[RecordsStore]:
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    yield records
    await records.close()


def press_by(user_id: int) -> FakeInteraction:
    fake = FakeInteraction(pressed=500)
    fake.user = SimpleNamespace(id=user_id)
    return fake


def private_text(fake: FakeInteraction) -> str:
    (call,) = [c for c in fake.calls if c.name in ("send_message", "followup")]
    assert call.kwargs["ephemeral"] is True
    return str(call.kwargs["content"])


async def test_refusals_change_nothing_and_a_right_move_goes_on(store: RecordsStore) -> None:
    cog = PuzzleCommands(SimpleNamespace(), PuzzleService(PuzzleStore(store)))  # type: ignore[arg-type]
    puzzle = next(p for p in load("4x4") if p.win_in == 2)
    run = await PuzzleStore(store).start(Run(0, OWNER, 5, "4x4", puzzle.id))
    tr = lang("en-US")

    cases = [
        (OTHER, 0, str(puzzle.solution[0]), tr(NOT_YOURS, owner=f"<@{OWNER}>")),
        (OWNER, 2, str(puzzle.solution[1]), tr(STALE)),  # a ply the puzzle has not reached
        (OWNER, 0, str(puzzle.moves[0]), tr(ILLEGAL)),  # a taken cell, as a forged id could name
        (OWNER, 0, "b3", tr(ILLEGAL)),  # an ultimate pad key on a 4x4 puzzle
    ]
    for user, ply, key, expected in cases:
        fake = press_by(user)
        await cog.press(fake, run.run_id, ply, key)
        assert private_text(fake) == expected
        assert await PuzzleStore(store).run(run.run_id) == run

    fake = press_by(OWNER)
    await cog.press(fake, run.run_id, 0, str(puzzle.solution[0]))
    assert "The engine answers" in fake.named("edit_original_response")[-1]["content"]
    assert (await PuzzleStore(store).run(run.run_id)) == Run(run.run_id, OWNER, 5, "4x4", puzzle.id, progress=2)

    fake = press_by(OWNER)
    await cog.press(fake, run.run_id, 2, str(puzzle.solution[1]))
    assert "Solved!" in fake.named("edit_original_response")[-1]["content"]
    again = press_by(OWNER)
    await cog.press(again, run.run_id, 2, str(puzzle.solution[1]))
    assert private_text(again) == tr(OVER)
    assert await PuzzleStore(store).attempted(OWNER, "4x4") == {puzzle.id}
