"""engine.mnk.horizon: depth-limited alpha-beta sees exactly as far as its depth."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameOverError
from engine.mnk.horizon import WIN, evaluate, horizon_search
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, TicTacToe

T3 = TicTacToe(3, 3, 3)


def test_depth_one_takes_a_win_in_one() -> None:
    # X: a1 b1, O: a2 b2; X to move wins on c1 (cell 2)
    state = T3.play([0, 3, 1, 4])
    found = horizon_search(T3, state, 1)
    assert found.move == 2
    assert found.score == WIN - 1
    assert found.best_moves == (2,)


def test_depth_two_blocks_what_depth_one_cannot_see() -> None:
    # X: a1 c3, O: b2 a2; X to move must block c2 (cell 5): O threatens a2-b2-c2
    state = T3.play([0, 4, 8, 3])
    assert horizon_search(T3, state, 2).best_moves == (5,)
    assert horizon_search(T3, state, 2).score > -WIN // 2


def test_depth_three_finds_a_fork_and_a_deeper_search_agrees() -> None:
    # X: a1 b2, O: b1 c3; X on a2 (cell 3) or a3 (cell 6) makes two threats at once: a win in 3 plies
    state = T3.play([0, 1, 4, 8])
    for depth in (3, 5):
        found = horizon_search(T3, state, depth)
        assert (found.score, found.best_moves) == (WIN - 3, (3, 6)), depth
    assert horizon_search(T3, state, 1).score < WIN // 2  # one ply ahead, the fork is only a position


def test_the_evaluation_is_antisymmetric_and_counts_open_lines() -> None:
    state = TIC_TAC_TOE_4X4.play([5, 0, 6])
    assert evaluate(TIC_TAC_TOE_4X4, state.x, state.o) == -evaluate(TIC_TAC_TOE_4X4, state.o, state.x)
    assert evaluate(TIC_TAC_TOE_4X4, state.x, state.o) > 0  # two central marks against a corner
    assert evaluate(T3, 0, 0) == 0


def test_noise_draws_from_the_rng_and_is_reproducible() -> None:
    state = TIC_TAC_TOE_5X5.initial_state()
    picks = [horizon_search(TIC_TAC_TOE_5X5, state, 1, random.Random(seed), 64.0).move for seed in range(20)]
    again = [horizon_search(TIC_TAC_TOE_5X5, state, 1, random.Random(seed), 64.0).move for seed in range(20)]
    assert picks == again
    assert len(set(picks)) > 1


def test_states_are_counted_and_grow_with_depth() -> None:
    state = TIC_TAC_TOE_4X4.play([5])
    counts = [horizon_search(TIC_TAC_TOE_4X4, state, depth).states for depth in (1, 2, 3)]
    assert counts[0] == 15
    assert counts[0] < counts[1] < counts[2]


def test_bad_requests_raise() -> None:
    with pytest.raises(ValueError, match="depth 0"):
        horizon_search(T3, T3.initial_state(), 0)
    with pytest.raises(GameOverError):
        horizon_search(T3, T3.play([0, 3, 1, 4, 2]), 2)


def test_the_root_moves_can_be_limited_to_a_given_set() -> None:
    state = T3.play([0, 1, 4, 8])  # X's forks are a2 and a3 (cells 3 and 6)
    assert horizon_search(T3, state, 3, moves={2, 5, 6}).best_moves == (6,)
    assert horizon_search(T3, state, 3, moves={2}).states < horizon_search(T3, state, 3).states
    with pytest.raises(ValueError, match="legal"):
        horizon_search(T3, state, 3, moves={0, 1})
