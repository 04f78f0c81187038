"""engine.players: difficulty levels blunder at their stated rates; unbeatable never does."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from engine.errors import GameOverError
from engine.game import State, actions, initial_state, parse_board, player, result
from engine.players import Difficulty, choose_move
from engine.search import TEXTBOOK_ALPHA_BETA, search

if TYPE_CHECKING:
    from conftest import Oracle

DRAWS = 2_000
# A mid-game position (O to move) with 6 legal moves, only one of them optimal, so a random move
# is visible in the move itself and searches are cheap.
POSITION = parse_board("XO..X....")


def test_random_move_rates() -> None:
    assert Difficulty.EASY.random_move_rate == 0.5
    assert Difficulty.MEDIUM.random_move_rate == 0.2
    assert Difficulty.UNBEATABLE.random_move_rate == 0.0


@pytest.mark.parametrize("difficulty", [Difficulty.EASY, Difficulty.MEDIUM])
def test_random_moves_happen_at_the_stated_rate(difficulty: Difficulty) -> None:
    rng = random.Random(1234)
    decisions = [choose_move(POSITION, difficulty, rng=rng) for _ in range(DRAWS)]
    rate = difficulty.random_move_rate
    randoms = sum(d.random for d in decisions)
    sigma = math.sqrt(DRAWS * rate * (1 - rate))
    assert abs(randoms - DRAWS * rate) < 4 * sigma
    # Random moves are uniform over all 6 legal moves (the optimal one included).
    counts = Counter(d.cell for d in decisions if d.random)
    assert set(counts) == set(actions(POSITION))
    expected = randoms / 6
    chi2 = sum((counts[c] - expected) ** 2 / expected for c in actions(POSITION))
    assert chi2 < 25  # 5 degrees of freedom: p < 0.001 beyond this
    # Non-random decisions play the search's move, and every decision reports its search.
    for d in decisions:
        assert d.states > 0 and d.elapsed_ms >= 0 and d.mark is player(POSITION)
        if not d.random:
            assert d.cell == search(POSITION).move == 8


def test_unbeatable_is_never_random(non_terminal: list[State], oracle: Oracle) -> None:
    rng = random.Random(7)
    for state in non_terminal[::3]:
        d = choose_move(state, Difficulty.UNBEATABLE, rng=rng)
        assert not d.random
        assert d.cell in oracle.optimal(state)
        assert d.cell in search(state).best_moves


def test_default_difficulty_is_unbeatable() -> None:
    for seed in range(50):
        d = choose_move(POSITION, rng=random.Random(seed))
        assert (d.cell, d.random) == (8, False)


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_same_seed_same_game(difficulty: Difficulty) -> None:
    def game(seed: int) -> list[int]:
        rng = random.Random(seed)
        state, moves = initial_state(), []
        while actions(state):
            move = choose_move(state, difficulty, rng=rng).cell
            moves.append(move)
            state = result(state, move)
        return moves

    assert game(42) == game(42)
    assert len({tuple(game(seed)) for seed in range(20)}) > 1  # seeds matter


def test_custom_config_is_used() -> None:
    d = choose_move(parse_board("...X....."), Difficulty.UNBEATABLE, config=TEXTBOOK_ALPHA_BETA, rng=random.Random(0))
    assert d.states == 7_641 and d.algorithm == TEXTBOOK_ALPHA_BETA.algorithm == "alpha-beta"
    assert d.cell in search(parse_board("...X....."), config=TEXTBOOK_ALPHA_BETA).best_moves


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_finished_positions_raise(difficulty: Difficulty) -> None:
    with pytest.raises(GameOverError):
        choose_move(parse_board("XXXOO...."), difficulty, rng=random.Random(0))
