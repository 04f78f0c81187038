"""The Ultimate tic-tac-toe search: tactics, honest state counts, determinism, and the reference's values."""

from __future__ import annotations

import math
import random

import pytest

from engine.errors import GameOverError
from engine.minimax.reference import alpha_beta_search
from engine.ultimate.rules import CELL_OF_BIT, WON9, UltimateState, UltimateTicTacToe
from engine.ultimate.search import MATE_BOUND, TEXTBOOK, WIN, search

GAME = UltimateTicTacToe()
INF = math.inf


def cell(board: int, inner: int) -> int:
    """The grid cell of cell ``inner`` of small board ``board``."""
    return CELL_OF_BIT[9 * board + inner]


def position(x: dict[int, list[int]], o: dict[int, list[int]], forced: int) -> UltimateState:
    """A state from each side's cells per small board (board: inner cells), with the closed boards worked out."""
    xm = sum(1 << (9 * b + i) for b, cells in x.items() for i in cells)
    om = sum(1 << (9 * b + i) for b, cells in o.items() for i in cells)
    x_boards = sum(1 << b for b in range(9) if WON9[xm >> (9 * b) & 511])
    o_boards = sum(1 << b for b in range(9) if WON9[om >> (9 * b) & 511])
    full = sum(1 << b for b in range(9) if (xm | om) >> (9 * b) & 511 == 511)
    return UltimateState(xm, om, x_boards, o_boards, x_boards | o_boards | full, forced, -1)


# X has won boards 0 and 1 and holds cells 0 and 1 of board 2: cell 2 of board 2 wins the game.
THREAT_X = {0: [0, 1, 2], 1: [0, 1, 2], 2: [0, 1]}
THREAT_O = {3: [0, 1, 5], 5: [0, 1, 5], 6: [0, 1]}


@pytest.mark.parametrize("forced", [2, -1])
def test_it_wins_in_one(forced: int) -> None:
    state = position(THREAT_X, THREAT_O, forced)
    report = search(state, INF, max_nodes=50_000)
    assert report.moves[0].move == cell(2, 2)
    assert report.moves[0].score == WIN - 1
    assert report.pv[0] == cell(2, 2)


def test_it_does_not_send_the_opponent_to_its_winning_board() -> None:
    # O must play in board 4 (cells 2 and 8 are empty): cell 2 sends X to board 2, where X wins at once.
    x = {**THREAT_X, 4: [1, 3, 5, 6]}
    o = {**THREAT_O, 4: [0, 4, 7]}
    state = position(x, o, 4)
    assert GAME.player(state).value == "O" and set(GAME.actions(state)) == {cell(4, 2), cell(4, 8)}
    report = search(state, INF, max_nodes=50_000, multipv=None)
    scores = {m.move: m.score for m in report.moves}
    assert report.moves[0].move == cell(4, 8)
    assert scores[cell(4, 2)] == -(WIN - 2)


def test_a_depth_one_search_visits_each_legal_move_once() -> None:
    state = GAME.play([40, 30])
    report = search(state, INF, max_depth=1)
    assert report.depth == 1 and report.states == len(GAME.actions(state))
    assert {m.move for m in report.moves} == set(GAME.actions(state))


def test_it_is_deterministic_under_a_node_budget() -> None:
    state = GAME.play([40, 30, 10])
    first = search(state, INF, max_nodes=4_000)
    again = search(state, INF, max_nodes=4_000)
    assert (first.moves, first.depth, first.states, first.pv) == (again.moves, again.depth, again.states, again.pv)
    assert 4_000 - 1_000 < first.states <= 4_000 + len(GAME.actions(state))
    deeper = search(state, INF, max_nodes=40_000)
    assert deeper.depth > first.depth and deeper.states > first.states


def test_a_finished_game_cannot_be_searched() -> None:
    state = _endgames(1, 10)[0]
    while not state.is_over:
        state = GAME.result(state, GAME.actions(state)[0])
    with pytest.raises(GameOverError):
        search(state, 10.0)


def _open_empty(state: UltimateState) -> int:
    empty = ~(state.x | state.o)
    return sum((empty >> (9 * b) & 511).bit_count() for b in range(9) if not state.closed >> b & 1)


def _endgames(count: int, open_cells: int) -> list[UltimateState]:
    """From seeded random games, the first position with at most ``open_cells`` empty cells in open boards
    (and at least 3 plies before the end): small enough trees for the reference alpha-beta."""
    found = []
    for seed in range(1000):
        rng = random.Random(seed)
        line = [GAME.initial_state()]
        while not line[-1].is_over:
            line.append(GAME.result(line[-1], rng.choice(GAME.actions(line[-1]))))
        found.extend([s for s in line[:-3] if _open_empty(s) <= open_cells][:1])
        if len(found) == count:
            break
    return found


@pytest.mark.parametrize("state", _endgames(16, 10))
def test_textbook_configuration_matches_the_reference_count_and_values(state: UltimateState) -> None:
    reference = alpha_beta_search(GAME, state)
    report = search(state, INF, max_depth=81, multipv=None, options=TEXTBOOK)
    sign = 1 if GAME.player(state).value == "X" else -1
    assert {m.move: sign * m.score // WIN for m in report.moves} == dict(reference.values)
    assert report.states == reference.states


@pytest.mark.parametrize("state", _endgames(10, 11))
def test_the_real_search_finds_the_reference_value_near_the_end(state: UltimateState) -> None:
    reference = alpha_beta_search(GAME, state)
    report = search(state, INF, max_nodes=2_000_000)
    sign = 1 if GAME.player(state).value == "X" else -1
    best = report.moves[0].score
    if len(report.moves) == 1:  # the only move is played at once: its score is the evaluation's
        assert report.depth == 1 and report.moves[0].move == reference.move
        return
    if reference.value == 0:
        assert best == 0
    else:
        assert abs(best) >= MATE_BOUND and (best > 0) == (sign * reference.value > 0)
    assert dict(reference.values)[report.moves[0].move] == reference.value
