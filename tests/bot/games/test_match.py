"""The game value: transitions return new games; who plays, whose turn, who won; ids and links."""

from __future__ import annotations

import datetime
import random
from dataclasses import replace

import pytest

from bot.games.match import DISCORD_EPOCH_MS, EngineMove, Match, initial_for, new_game_id, to_base36
from engine import CellOccupiedError, CellOutOfRangeError, GameOverError, GameValue, Mark, variant
from engine.minimax.search import search
from engine.tictactoe.rules import parse_board

THREE = variant("3x3")

ALICE, BOB = 101, 102
CHANNEL, GUILD, MESSAGE = 1001, 5001, 9001


def vs_bot(*cells: int, bot: Mark = Mark.O) -> Match:
    game = Match("0a1b2c", CHANNEL, None if bot is Mark.X else ALICE, None if bot is Mark.O else ALICE)
    for cell in cells:
        game = game.play(cell)
    return game


def test_play_returns_a_new_game_and_checks_the_move() -> None:
    game = vs_bot()
    after = game.play(4)
    assert game.moves == () and game.state == parse_board(".........")
    assert after.moves == (4,) and after.state == parse_board("....X....") and after.ply == 1
    assert after.to_move is Mark.O and after.ai_to_move and after.status == "playing"
    with pytest.raises(CellOccupiedError):
        after.play(4)
    with pytest.raises(CellOutOfRangeError):
        after.play(9)


def test_a_win_and_a_draw_end_the_game() -> None:
    won = vs_bot(0, 3, 1, 4).play(2)
    assert (won.status, won.end_reason, won.winner, won.over) == ("over", "win", Mark.X, True)
    assert not won.ai_to_move
    with pytest.raises(GameOverError):
        won.play(8)
    drawn = vs_bot(0, 1, 2, 4, 3, 5, 7, 6).play(8)
    assert (drawn.status, drawn.end_reason, drawn.winner) == ("over", "draw", None)


def test_with_ai_plays_the_decision_and_adds_its_states_to_the_total() -> None:
    game = vs_bot(4)
    first = THREE.play(game.state, rng=random.Random(0))
    replied = game.with_ai(first)
    assert replied.last_ai == replace(first, mark=Mark.O, value=None, depth=None)  # 3x3's moves show no value
    assert replied.last_ai.algorithm == "alpha-beta"
    assert replied.ai_states == first.states == search(game.state).states
    assert replied.moves == (4, first.cell) and replied.to_move is Mark.X and not replied.ai_to_move
    free = next(c for c in range(9) if replied.state[c] is None)
    second_position = replied.play(free)
    second = THREE.play(second_position.state, 2, rng=random.Random(3))
    total = second_position.with_ai(second)
    assert total.ai_states == first.states + second.states
    assert total.last_ai is not None and total.last_ai.states == second.states


def test_the_minimax_option_is_recorded_on_the_bots_move() -> None:
    game = Match("0a1b2c", CHANNEL, None, ALICE, algorithm="minimax")
    replied = game.with_ai(THREE.play(game.state, rng=random.Random(0)))
    assert replied.last_ai is not None and replied.last_ai.algorithm == "minimax" and replied.last_ai.mark is Mark.X


def test_resign_end_and_accept() -> None:
    game = vs_bot(4, 0)
    resigned = game.resign(Mark.X)
    assert (resigned.status, resigned.end_reason, resigned.resigned, resigned.winner) == (
        "over",
        "resigned",
        Mark.X,
        Mark.O,
    )
    assert resigned.moves == game.moves
    for reason in ("abandoned", "declined", "expired"):
        ended = game.end(reason)
        assert (ended.status, ended.end_reason, ended.winner) == ("over", reason, None)
    challenge = Match("0a1b2c", CHANNEL, BOB, ALICE, status="challenge", challenged_id=BOB)
    accepted = challenge.accept()
    assert (accepted.status, accepted.challenged_id) == ("playing", None)
    assert (challenge.status, challenge.challenged_id) == ("challenge", BOB)


def test_players_sides_and_turns() -> None:
    people = Match("0a1b2c", CHANNEL, ALICE, BOB)
    assert not people.vs_bot and people.bot_mark is None and people.ai_moves == 0
    assert people.mark_of(ALICE) is Mark.X and people.mark_of(BOB) is Mark.O and people.mark_of(7) is None
    assert people.player_id(Mark.O) == BOB and people.is_player(BOB) and not people.is_player(7)
    assert not people.ai_to_move
    bot_x = vs_bot(bot=Mark.X)
    assert bot_x.vs_bot and bot_x.bot_mark is Mark.X and bot_x.player_id(Mark.X) is None and bot_x.ai_to_move
    assert vs_bot().bot_mark is Mark.O and not vs_bot().ai_to_move


@pytest.mark.parametrize(
    ("bot", "cells", "ai_moves"),
    [
        (Mark.X, (), 0),
        (Mark.X, (4,), 1),
        (Mark.X, (4, 0), 1),
        (Mark.X, (4, 0, 8), 2),
        (Mark.O, (), 0),
        (Mark.O, (4,), 0),
        (Mark.O, (4, 0), 1),
        (Mark.O, (4, 0, 8, 2, 6), 2),
    ],
)
def test_ai_moves_counts_the_bots_moves(bot: Mark, cells: tuple[int, ...], ai_moves: int) -> None:
    assert vs_bot(*cells, bot=bot).ai_moves == ai_moves


def test_game_ids_are_base_36_snowflakes_and_carry_the_start_time() -> None:
    started = datetime.datetime(2026, 11, 23, 1, 26, 55, 123000, tzinfo=datetime.UTC)
    ms = int(started.timestamp() * 1000)
    snowflake = ((ms - DISCORD_EPOCH_MS) << 22) | 0b1011_0000_0000_0001_0110  # worker, process and increment bits
    game_id = new_game_id(snowflake)
    assert int(game_id, 36) == snowflake and game_id == game_id.lower()
    assert Match(game_id, CHANNEL, ALICE, None).started_at == started
    assert len(new_game_id(2**64 - 1)) == 13
    assert [to_base36(n) for n in (0, 35, 36, 36**2 - 1)] == ["0", "z", "10", "zz"]


def test_a_game_id_without_a_snowflake_comes_from_the_clock() -> None:
    before = datetime.datetime.now(datetime.UTC)
    ids = {new_game_id() for _ in range(50)}
    after = datetime.datetime.now(datetime.UTC)
    assert len(ids) == 50  # 22 random bits keep ids made in one millisecond apart
    for game_id in ids:
        started = Match(game_id, CHANNEL, ALICE, None).started_at
        assert before - datetime.timedelta(milliseconds=1) <= started <= after


def test_jump_url_in_a_guild_and_in_a_dm() -> None:
    game = Match("0a1b2c", CHANNEL, ALICE, None, guild_id=GUILD)
    assert game.jump_url is None  # no board message yet
    assert game.at(MESSAGE).jump_url == f"https://discord.com/channels/{GUILD}/{CHANNEL}/{MESSAGE}"
    dm = Match("0a1b2c", CHANNEL, ALICE, None)
    assert dm.at(MESSAGE).jump_url == f"https://discord.com/channels/@me/{CHANNEL}/{MESSAGE}"
    assert dm.at(MESSAGE).at(None).jump_url is None


def test_a_reposted_game_remembers_the_last_board_known_to_show_it() -> None:
    game = Match("0a1b2c", CHANNEL, ALICE, None).at(MESSAGE)
    moving = game.reposted()
    assert (moving.message_id, moving.post, moving.retired, moving.shown) == (None, 2, MESSAGE, MESSAGE)
    again = moving.reposted()  # posted again before the first new board's id came back
    assert (again.message_id, again.post, again.retired, again.shown) == (None, 3, MESSAGE, MESSAGE)
    placed = again.at(MESSAGE + 1)
    assert (placed.message_id, placed.retired, placed.shown) == (MESSAGE + 1, None, MESSAGE + 1)
    never_placed = Match("0a1b2c", CHANNEL, ALICE, None).reposted()
    assert (never_placed.post, never_placed.shown) == (2, None)


def test_on_an_exact_game_the_board_keeps_only_a_win_at_once_and_a_cut_short_search_s_depth() -> None:
    four = Match("0a1b2c", CHANNEL, ALICE, None, variant="4x4", state=initial_for("4x4"))
    for cell in (0, 4, 1, 5):
        four = four.play(cell)
    game = four.play(2)  # the bot (O) to move: the records below are what the engine could answer
    searched = EngineMove(6, 120, GameValue("draw", 11), 3.0, depth=None, mark=Mark.O)
    assert game.with_ai(searched).last_ai == replace(searched, value=None)  # an exact game's board shows no value
    cut = EngineMove(6, 2_000_000, None, 60_000.0, "cut short", depth=7, mark=Mark.O)
    assert game.with_ai(cut).last_ai == cut  # the depth of the best move found, shown instead of a value
    at_once = EngineMove(6, 0, GameValue("win", 1), 0.1, mark=Mark.O)
    assert game.with_ai(at_once).last_ai == at_once  # "wins at once"
