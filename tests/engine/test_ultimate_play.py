"""The Ultimate tic-tac-toe API the bot calls: choose_move, hints, review_move and the difficulty levels."""

from __future__ import annotations

import math
import random

import pytest

from engine.errors import CellOccupiedError, GameOverError
from engine.players import Difficulty
from engine.ultimate import CELL_OF_BIT, WON9, UltimateState, UltimateTicTacToe
from engine.ultimate_play import (
    LEVELS,
    REVIEW_THRESHOLDS,
    choose_move,
    describe_score,
    hints,
    level_move,
    review_move,
)
from engine.ultimate_search import MATE_BOUND, WIN

GAME = UltimateTicTacToe()
INF = math.inf


def cell(board: int, inner: int) -> int:
    return CELL_OF_BIT[9 * board + inner]


def position(x: dict[int, list[int]], o: dict[int, list[int]], forced: int) -> UltimateState:
    xm = sum(1 << (9 * b + i) for b, cells in x.items() for i in cells)
    om = sum(1 << (9 * b + i) for b, cells in o.items() for i in cells)
    x_boards = sum(1 << b for b in range(9) if WON9[xm >> (9 * b) & 511])
    o_boards = sum(1 << b for b in range(9) if WON9[om >> (9 * b) & 511])
    return UltimateState(xm, om, x_boards, o_boards, x_boards | o_boards, forced, -1)


# O to move in board 4 (cells 2 and 8 free); cell 2 would send X to board 2, where X wins the game at once.
TRAP = position(
    {0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1], 4: [1, 3, 5, 6]},
    {3: [0, 1, 5], 5: [0, 1, 5], 6: [0, 1], 4: [0, 4, 7]},
    4,
)


def test_choose_move_reports_its_search() -> None:
    state = GAME.play([40, 30])
    decision = choose_move(state, INF, max_nodes=3_000)
    assert decision.move in GAME.actions(state) and decision.pv[0] == decision.move
    assert 2_000 < decision.states <= 3_100 and decision.depth >= 3 and decision.elapsed_ms > 0
    again = choose_move(state, INF, max_nodes=3_000)
    assert (again.move, again.score, again.states, again.depth, again.pv) == (
        decision.move,
        decision.score,
        decision.states,
        decision.depth,
        decision.pv,
    )


def test_noise_is_seeded_and_only_picks_among_the_best_moves() -> None:
    state = GAME.play([40, 30])
    picks = [choose_move(state, INF, noise=500.0, rng=random.Random(seed), max_nodes=2_000).move for seed in range(12)]
    again = [choose_move(state, INF, noise=500.0, rng=random.Random(seed), max_nodes=2_000).move for seed in range(12)]
    assert picks == again
    assert 1 < len(set(picks)) <= 4
    # a proven loss is never among the candidates' winners: noise is far smaller than WIN
    assert {choose_move(TRAP, INF, noise=500.0, rng=random.Random(s), max_nodes=5_000).move for s in range(8)} == {
        cell(4, 8)
    }
    quiet = {choose_move(state, INF, noise=0.0, rng=random.Random(s), max_nodes=2_000).move for s in range(3)}
    assert len(quiet) == 1


def test_hints_give_three_exact_scores_best_first() -> None:
    state = GAME.play([40, 30])
    result = hints(state, INF, max_nodes=5_000)
    assert len(result.best) == 3 and result.states > 0 and result.depth >= 2
    scores = [score for _, score in result.best]
    assert scores == sorted(scores, reverse=True)
    assert {move for move, _ in result.best} <= set(GAME.actions(state))
    two = hints(TRAP, INF, max_nodes=5_000)
    assert [move for move, _ in two.best] == [cell(4, 8), cell(4, 2)] and two.best[1][1] == -(WIN - 2)


def test_review_labels_a_move_into_a_lost_game_a_blunder() -> None:
    bad = review_move(TRAP, cell(4, 2), INF, max_nodes=20_000)
    assert bad.label == "blunder" and bad.best == cell(4, 8) and bad.move_score == -(WIN - 2)
    assert bad.loss == bad.best_score - bad.move_score > 0
    good = review_move(TRAP, cell(4, 8), INF, max_nodes=20_000)
    assert good.label is None and good.loss == 0 and good.best == cell(4, 8)
    with pytest.raises(CellOccupiedError):
        review_move(TRAP, cell(4, 0), INF, max_nodes=1_000)


def test_review_thresholds_go_from_worst_to_mildest() -> None:
    names = [name for name, _ in REVIEW_THRESHOLDS]
    limits = [limit for _, limit in REVIEW_THRESHOLDS]
    assert names == ["blunder", "mistake", "inaccuracy"] and limits == sorted(limits, reverse=True)


def test_levels_spend_more_and_guess_less_as_they_rise() -> None:
    budgets = [LEVELS[level][0] for level in Difficulty]
    noises = [LEVELS[level][1] for level in Difficulty]
    assert budgets == sorted(budgets) and noises == sorted(noises, reverse=True) and noises[-1] == 0
    decision = level_move(GAME.play([40]), Difficulty.EASY, random.Random(3))
    assert decision.move in GAME.actions(GAME.play([40])) and decision.states > 0


def test_scores_read_as_wins_and_losses_only_when_proven() -> None:
    assert describe_score(WIN - 3) == "win in 3" and describe_score(-(WIN - 4)) == "loss in 4"
    assert describe_score(MATE_BOUND - 1) is None and describe_score(0) is None


def test_nothing_is_searched_after_the_end() -> None:
    state = GAME.result(
        position({0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1]}, {3: [0, 1, 5], 5: [0, 1, 5], 6: [0, 1]}, 2), cell(2, 2)
    )
    assert state.is_over
    for call in (lambda: choose_move(state), lambda: hints(state), lambda: review_move(state, 0)):
        with pytest.raises(GameOverError):
            call()
