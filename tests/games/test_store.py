"""The game service's records adapter: a running game goes into a row and comes back as the same game, and a finished
record gives the players and options a rematch needs."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.games.game import Game
from bot.games.store import from_finished, from_running, to_running
from bot.records import FinishedGame
from engine import Difficulty, Mark


def test_a_running_game_survives_its_row() -> None:
    game = Game("g1", 5, None, 11, difficulty=Difficulty.MEDIUM, algorithm="minimax", mode="text", guild_id=3)
    for cell in (4, 0, 8):
        game = game.play(cell)
    game = Game(**{**{f: getattr(game, f) for f in ("game_id", "channel_id", "x_id", "o_id", "difficulty",
                                                     "algorithm", "mode", "moves", "state", "guild_id")},
                   "ai_states": 812, "verified": False})  # fmt: skip
    row = to_running(game)
    assert (row.bot_side, row.difficulty, row.version, row.states_evaluated) == ("X", "medium", 3, 812)
    assert from_running(row) == game


def test_a_finished_record_gives_the_ended_game() -> None:
    t = datetime(2026, 11, 23, tzinfo=UTC)
    record = FinishedGame(
        game_id="g2", channel_id=5, guild_id=None, x_user_id=11, o_user_id=None, bot_side="O", difficulty="easy",
        algorithm="alpha-beta", moves=(4, 0), result="O", end_reason="resigned", states_evaluated=7,
        started_at=t, ended_at=t,
    )  # fmt: skip
    ended = from_finished(record)
    assert ended.over and ended.winner is Mark.O and ended.resigned is Mark.X
    assert (ended.x_id, ended.o_id, ended.difficulty, ended.moves) == (11, None, Difficulty.EASY, (4, 0))
