"""A pressed board against the game the bot holds: the game in memory is the truth."""

from __future__ import annotations

from dataclasses import replace

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.live import board_game, same_setup
from bot.games.match import Match, initial_for

ALICE, BOB = 11, 22


def held(*cells: int, message_id: int | None = 500) -> Match:
    game = Match("g1", 1, ALICE, None, message_id=message_id)
    for cell in cells:
        game = game.play(cell)
    return game


def key(found: Match | Refusal) -> str:
    assert isinstance(found, Refusal), found
    return found.key


def test_a_board_names_its_game_players_and_options() -> None:
    game = held(4)
    assert same_setup(held(4), game)
    assert not same_setup(replace(game, level=2), game), "other options"
    assert not same_setup(replace(game, x_id=BOB), game), "other players"
    assert not same_setup(replace(game, mode="text"), game) and same_setup(replace(game, mode="text"), game, mode=False)
    four = Match("g1", 1, ALICE, None, variant="4x4", state=initial_for("4x4"))
    assert not same_setup(four, Match("g1", 1, ALICE, None)), "another variant"


def test_the_held_game_is_what_a_press_on_its_current_board_acts_on() -> None:
    game = held(4, 0)
    assert board_game(game, held(4, 0), False) is game


def test_a_board_that_differs_from_the_held_game_is_refused() -> None:
    game = held(4, 0)
    assert key(board_game(game, replace(held(4, 0), ai_states=7), False)) == refusals.BOARD_MISMATCH
    assert key(board_game(game, replace(held(4, 0), level=3), False)) == refusals.BOARD_MISMATCH
    assert key(board_game(game, held(4), False)) == refusals.BOARD_CHANGED, "an earlier position, same message"
    assert key(board_game(game, held(4, message_id=400), False)) == refusals.STALE_BOARD
    assert key(board_game(game, held(4, 0, message_id=400), False)) == refusals.STALE_BOARD, "an older message"


def test_a_board_of_a_game_no_longer_held_is_over_or_stale() -> None:
    other = replace(held(4), game_id="g2")
    assert key(board_game(None, held(4), False)) == refusals.GAME_OVER
    assert key(board_game(other, held(4), True)) == refusals.GAME_OVER
    assert key(board_game(other, held(4), False)) == refusals.STALE_BOARD


def test_a_press_that_beats_its_reposts_answer_adopts_its_message_unless_it_is_the_board_replaced() -> None:
    reposting = replace(held(4, 0).reposted(), retired=500)
    adopted = board_game(reposting, held(4, 0, message_id=600), False)
    assert isinstance(adopted, Match) and adopted.message_id == 600
    assert key(board_game(reposting, held(4, 0, message_id=500), False)) == refusals.STALE_BOARD
