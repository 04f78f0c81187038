"""The game service's records adapter: a running game goes into a row and comes back as the same game, and a finished
record gives the players and options a rematch needs."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from bot.games.finished import finished_game
from bot.games.match import Match, initial_for
from bot.games.store import from_finished, from_running, to_running
from bot.records import FinishedGame
from engine import Mark


def test_a_running_game_survives_its_row() -> None:
    game = Match("g1", 5, None, 11, level=5, algorithm="minimax", mode="text", guild_id=3)
    for cell in (4, 0, 8):
        game = game.play(cell)
    game = Match(**{**{f: getattr(game, f) for f in ("game_id", "channel_id", "x_id", "o_id", "level",
                                                     "algorithm", "mode", "moves", "state", "guild_id")},
                   "ai_states": 812, "verified": False})  # fmt: skip
    row = to_running(game)
    assert (row.bot_side, row.level, row.version, row.states_evaluated) == ("X", 5, 3, 812)
    assert from_running(row) == game


def test_a_finished_record_gives_the_ended_game() -> None:
    t = datetime(2026, 11, 23, tzinfo=UTC)
    record = FinishedGame(
        game_id="g2", channel_id=5, guild_id=None, x_user_id=11, o_user_id=None, bot_side="O",
        level=2, algorithm="alpha-beta", moves=(4, 0), result="O", end_reason="resigned",
        states_evaluated=7, started_at=t, ended_at=t,
    )  # fmt: skip
    ended = from_finished(record)
    assert ended.over and ended.winner is Mark.O and ended.resigned is Mark.X
    assert (ended.x_id, ended.o_id, ended.level, ended.moves) == (11, None, 2, (4, 0))


def test_a_5x5_game_keeps_its_variant_in_its_row_and_its_record() -> None:
    game = Match("g3", 5, 11, None, variant="5x5", state=initial_for("5x5"))
    for cell in (12, 0, 24):
        game = game.play(cell)
    row = to_running(game)
    assert (row.variant, row.moves, row.version) == ("5x5", (12, 0, 24), 3)
    back = from_running(row)
    assert back is not None and back.variant == "5x5" and back.state == game.state and back.to_move is Mark.O
    ended = game.resign(Mark.X)
    record = finished_game(ended)
    assert record.variant == "5x5" and record.moves == (12, 0, 24)
    again = from_finished(record)
    assert (again.variant, again.moves, again.state, again.winner) == ("5x5", (12, 0, 24), game.state, Mark.O)


def test_a_row_of_a_variant_this_bot_does_not_play_resumes_nothing() -> None:
    row = to_running(Match("g4", 5, 11, None).play(4))
    assert from_running(replace(row, variant="7x7")) is None
