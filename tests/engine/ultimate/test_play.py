"""The Ultimate tic-tac-toe API the bot calls: choose_move, hints, review_move."""

from __future__ import annotations

import math
import random

import pytest

from engine.errors import CellOccupiedError, GameOverError
from engine.protocol import GameValue
from engine.ultimate.play import (
    NOISY_CANDIDATES,
    REVIEW_THRESHOLDS,
    Assessment,
    choose_move,
    hints,
    review_move,
)
from engine.ultimate.rules import CELL_OF_BIT, WON9, UltimateState, UltimateTicTacToe
from engine.ultimate.scale import INTERCEPT, expected_score

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
    decision = choose_move(state, INF, iterations=3_000, seed=11)
    assert decision.move in GAME.actions(state) and decision.pv[0] == decision.move
    assert decision.iterations == 3_000 and decision.states > 3_000 and decision.depth >= 3
    assert 0.0 < decision.assessment.expected < 1.0 and decision.assessment.proven is None
    assert decision.assessment.value is None and decision.elapsed_ms > 0
    again = choose_move(state, INF, iterations=3_000, seed=11)
    assert (again.move, again.assessment, again.states, again.depth, again.pv) == (
        decision.move,
        decision.assessment,
        decision.states,
        decision.depth,
        decision.pv,
    )


def test_noise_is_seeded_and_only_picks_among_the_most_searched_moves() -> None:
    state = GAME.play([40, 30])

    def pick(seed: int, noise: float) -> int:
        return choose_move(state, INF, noise=noise, rng=random.Random(seed), iterations=2_000, seed=5).move

    picks = [pick(seed, 0.3) for seed in range(12)]
    assert picks == [pick(seed, 0.3) for seed in range(12)]
    assert 1 < len(set(picks)) <= NOISY_CANDIDATES
    assert len({pick(seed, 0.0) for seed in range(3)}) == 1
    # the proven loss (expected score 0) is not picked over the saving move (about 0.02 here) when the noise is far
    # below their gap
    saving = {choose_move(TRAP, INF, noise=0.002, rng=random.Random(s), iterations=2_000).move for s in range(8)}
    assert saving == {cell(4, 8)}


def test_hints_give_the_three_most_searched_moves_and_what_is_proven() -> None:
    state = GAME.play([40, 30])
    result = hints(state, INF, iterations=5_000)
    assert len(result.best) == 3 and result.states > 0 and result.depth >= 2
    assert {move for move, _ in result.best} <= set(GAME.actions(state))
    assert all(0.0 < a.expected < 1.0 and a.proven is None for _, a in result.best)
    two = hints(TRAP, INF, iterations=5_000)
    assert [move for move, _ in two.best] == [cell(4, 8), cell(4, 2)]
    assert two.best[1][1] == Assessment(0.0, "loss", 2) and two.best[1][1].value == GameValue("loss", 2)


def test_review_labels_a_move_into_a_lost_game_a_blunder() -> None:
    bad = review_move(TRAP, cell(4, 2), INF, iterations=20_000)
    assert bad.label == "blunder" and bad.best == cell(4, 8) and bad.move_value.proven == "loss"
    assert bad.loss == bad.best_value.expected - bad.move_value.expected > 0
    good = review_move(TRAP, cell(4, 8), INF, iterations=20_000)
    assert good.label is None and good.loss == 0 and good.best == cell(4, 8)
    with pytest.raises(CellOccupiedError):
        review_move(TRAP, cell(4, 0), INF, iterations=1_000)


def test_review_thresholds_go_from_worst_to_mildest() -> None:
    names = [name for name, _ in REVIEW_THRESHOLDS]
    limits = [limit for _, limit in REVIEW_THRESHOLDS]
    assert names == ["blunder", "mistake", "inaccuracy"] and limits == sorted(limits, reverse=True)
    assert limits[-1] > 0 and limits[0] < 1


def test_a_proven_result_reads_as_a_value_and_an_estimate_does_not() -> None:
    assert Assessment(1.0, "win", 5).value == GameValue("win", 5)
    assert Assessment(0.5, "draw").value == GameValue("draw", 0)
    assert Assessment(1.0, "win").value is None and Assessment(0.7).value is None
    assert 0.5 < expected_score(0.6) < 1.0 and expected_score(0.5) == pytest.approx(1 / (1 + math.exp(-INTERCEPT)))


def test_nothing_is_searched_after_the_end() -> None:
    state = GAME.result(
        position({0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1]}, {3: [0, 1, 5], 5: [0, 1, 5], 6: [0, 1]}, 2), cell(2, 2)
    )
    assert state.is_over
    for call in (lambda: choose_move(state), lambda: hints(state), lambda: review_move(state, 0)):
        with pytest.raises(GameOverError):
            call()
