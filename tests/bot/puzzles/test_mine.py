"""python -m bot.puzzles.mine: new puzzles from the records' finished games (a real SQLite file), none of them a
position of the shipped set, each holding under the plain oracle."""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.puzzles.mine import main
from bot.records import FinishedGame, PuzzleStore, open_store
from engine.mnk.rules import TIC_TAC_TOE_4X4
from engine.puzzles import from_json, load
from engine.puzzles.mining import Miner, self_play
from engine.registry import variant
from tests.engine.puzzle_oracle import PlainOracle

pytestmark = [pytest.mark.asyncio]


def finished(index: int, moves: list[int]) -> FinishedGame:
    state = variant("4x4").replay(moves)
    won = variant("4x4").winner(state)
    result = "draw" if won == "draw" else won.value if won is not None else None
    now = datetime(2026, 11, 26, tzinfo=UTC)
    return FinishedGame(
        game_id=f"p{index:03d}", channel_id=1, guild_id=5, x_user_id=10, o_user_id=11, bot_side=None, level=None,
        algorithm=None, moves=tuple(moves), result=result, end_reason="draw" if result == "draw" else "win",
        states_evaluated=0, started_at=now, ended_at=now, variant="4x4",
    )  # fmt: skip


async def test_the_records_games_give_new_proved_puzzles(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'records.sqlite3'}"
    store = await open_store(url)
    games = [g for _, g in zip(range(40), self_play("4x4", 77), strict=False)]
    try:
        assert await store.save_many([finished(i, g) for i, g in enumerate(games)]) == len(games)
        assert await PuzzleStore(store).finished_moves("4x4") == [tuple(g) for g in games]
    finally:
        await store.close()
    out = io.StringIO()
    assert await asyncio.to_thread(main, ["--variant", "4x4", "--database-url", url], out) == 0  # it runs a loop
    found = [from_json("4x4", item) for item in json.loads(out.getvalue())]
    assert found
    miner = Miner("4x4")
    shipped = {miner.key(p.moves) for p in load("4x4")}
    assert not any(miner.key(p.moves) in shipped for p in found)
    oracle = PlainOracle(TIC_TAC_TOE_4X4)
    for puzzle in found[:8]:
        oracle.check(puzzle.moves, puzzle.solution, puzzle.replies)
