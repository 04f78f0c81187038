"""engine.estimate: Knuth's estimate of minimax's states, against the true counts on 3x3."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameOverError
from engine.estimate import minimax_states_estimate
from engine.minimax.reference import minimax_search
from engine.tictactoe import rules as game


def test_the_estimate_of_the_whole_tree_is_within_five_percent_of_549_945() -> None:
    estimate = minimax_states_estimate(game, game.initial_state(), paths=4000, rng=random.Random(7))
    assert abs(estimate - 549_945) / 549_945 < 0.05


def test_the_estimate_after_the_centre_is_close_to_the_true_count() -> None:
    state = game.result(game.initial_state(), 4)
    true = minimax_search(game, state).states
    assert true == 55_504
    estimate = minimax_states_estimate(game, state, paths=4000, rng=random.Random(3))
    assert abs(estimate - true) / true < 0.05


def test_a_single_move_left_is_counted_exactly() -> None:
    state = game.initial_state()
    for cell in (0, 1, 2, 4, 3, 5, 7, 6):  # X O X X O O ... leaves cell 8
        state = game.result(state, cell)
    assert minimax_states_estimate(game, state, paths=5, rng=random.Random(1)) == 1


def test_bad_calls_are_refused() -> None:
    won = game.initial_state()
    for cell in (0, 3, 1, 4, 2):
        won = game.result(won, cell)
    with pytest.raises(GameOverError):
        minimax_states_estimate(game, won)
    with pytest.raises(ValueError, match="paths"):
        minimax_states_estimate(game, game.initial_state(), paths=0)
