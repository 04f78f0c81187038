"""What a board proves by itself: the bot's moves keep its game value, and the states count is the one the bot's own
searches give for the moves, where the game says its counts depend on the position and configuration only."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from pytest import MonkeyPatch

from bot.games.match import Algorithm, Match, initial_for
from bot.games.resuming.proof import extends, matches, proven, states_of
from engine import EngineMove, Mark, variant
from engine.tictactoe.rules import State, actions
from tests.e2e.outside_game import THREE_BY_FOUR

THREE = variant("3x3")


def sometimes_random(state: State, rng: random.Random, algorithm: Algorithm = "alpha-beta") -> EngineMove:
    """The bot's top-level move, replaced half of the time by a random legal move (its count stays the search's)."""
    move = THREE.play(state, algorithm=algorithm, rng=rng)
    return replace(move, cell=rng.choice(actions(state))) if rng.random() < 0.5 else move


ALICE, BOB = 11, 22


def game(*cells: int, x: int | None = ALICE, o: int | None = None, states: int = 0) -> Match:
    played = Match("g1", 1, x, o)
    for cell in cells:
        played = played.play(cell)
    return Match("g1", 1, x, o, moves=played.moves, state=played.state, ai_states=states, status=played.status)


@pytest.mark.parametrize("algorithm", ["alpha-beta", "minimax"])
@pytest.mark.parametrize("seed", range(3))
def test_the_count_replayed_from_the_moves_is_the_count_the_bot_showed(algorithm: Algorithm, seed: int) -> None:
    rng = random.Random(seed)
    bot = Mark.X if seed % 2 else Mark.O
    played = Match("g1", 1, None if bot is Mark.X else ALICE, ALICE if bot is Mark.X else None, algorithm=algorithm)
    while not played.over:
        if played.ai_to_move:
            played = played.with_ai(sometimes_random(played.state, rng, algorithm))
        else:
            played = played.play(rng.choice([c for c in range(9) if played.state[c] is None]))
    assert played.ai_states > 0
    assert states_of(THREE, played.moves, bot, algorithm) == played.ai_states


def test_a_board_proves_itself_only_for_its_one_person_against_a_bot_that_kept_its_value() -> None:
    assert proven(game(4, 0, 8, 2), ALICE)  # O (the bot) took corners against the centre: a draw kept
    assert not proven(game(4, 0, 8, 2), BOB), "someone not on the board"
    assert not proven(game(0, 3), ALICE), "the bot answered a corner with an edge: it lost its draw"
    assert not proven(game(4, 0, x=ALICE, o=BOB), ALICE), "a game between people"
    assert not proven(game(0, 3, 1, 4, 2), ALICE), "a game that is over"
    assert proven(game(), ALICE)


def test_a_board_matches_the_stored_game_it_shows_or_an_earlier_position() -> None:
    stored = game(4, 0, 8, states=300)
    assert matches(game(4, 0, 8, states=300), stored)
    assert matches(game(4, 0, states=7), stored)
    assert not matches(game(4, 0, 8, states=301), stored), "a forged count"
    assert not matches(game(4, 2, states=7), stored), "other moves"
    assert not matches(game(4, 0, 8, x=BOB, states=300), stored), "other players"
    assert extends(game(4, 0, 8, 2), stored) and not extends(game(4, 0), stored)


def test_a_board_of_another_variant_never_proves_itself_nor_matches_a_game_of_another_variant() -> None:
    four = Match("g", 1, 10, None, variant="4x4", state=initial_for("4x4")).play(5)
    assert not proven(four, 10)
    three = Match("g", 1, 10, None).play(5)
    assert proven(three, 10)
    assert not matches(four, three) and matches(three, three)


def test_a_board_proves_itself_only_where_the_game_says_its_counts_are_reproducible(monkeypatch: MonkeyPatch) -> None:
    assert THREE.counts_reproducible("alpha-beta") and THREE.counts_reproducible("minimax")
    assert not THREE_BY_FOUR.counts_reproducible("alpha-beta"), "a game that does not say so (memoised by position)"
    board = game(4, 0, 8, 2)
    monkeypatch.setattr(type(THREE), "counts_reproducible", lambda self, algorithm: algorithm != "alpha-beta")
    assert not proven(board, ALICE), "a count that may differ proves nothing: the board is unverified"
    assert proven(replace(board, algorithm="minimax"), ALICE)
