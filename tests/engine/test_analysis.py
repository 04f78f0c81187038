"""engine.analysis: per-move outcomes and plies, checked against the oracle on every reachable position."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from engine.analysis import analyse
from engine.errors import GameOverError
from engine.minimax.search import DEFAULT, search
from engine.tictactoe.rules import Mark, State, actions, initial_state, parse_board, player, result

if TYPE_CHECKING:
    from conftest import Oracle


def test_every_move_of_every_position_matches_the_oracle(non_terminal: list[State], oracle: Oracle) -> None:
    for state in non_terminal:
        report = analyse(state, compare=False)
        assert report.to_move is player(state)
        assert [m.cell for m in report.moves] == list(actions(state))
        for move in report.moves:
            child = result(state, move.cell)
            value = oracle.move_value(state, move.cell)
            expected = "win" if value > 0 else "loss" if value < 0 else "draw"
            assert move.outcome == expected, (state, move)
            assert move.plies == oracle.plies(child) + 1, (state, move)
        assert {m.cell for m in report.best} == oracle.optimal(state), state
        assert report.states > 0
        assert report.alpha_beta_states == report.minimax_states == 0


def test_best_lists_fastest_win_first() -> None:
    report = analyse(parse_board("XX.OO...."))
    assert [(m.cell, m.outcome, m.plies) for m in report.best] == [(2, "win", 1)]
    by_cell = {m.cell: m for m in report.moves}
    assert (by_cell[5].outcome, by_cell[5].plies) == ("draw", 5)  # blocks O's row but gives up the win
    assert (by_cell[8].outcome, by_cell[8].plies) == ("loss", 2)  # lets O complete 3-4-5


def test_best_lists_the_slowest_loss() -> None:
    report = analyse(parse_board("XO..X...."))
    assert report.to_move is Mark.O
    assert [(m.cell, m.outcome, m.plies) for m in report.best] == [(8, "loss", 4)]
    assert all(m.outcome == "loss" for m in report.moves)


def test_empty_board_is_a_draw_everywhere_and_compares_searches() -> None:
    report = analyse(initial_state())
    assert len(report.moves) == 9
    assert all(m.outcome == "draw" and m.plies == 9 for m in report.moves)
    assert report.minimax_states == 549_945
    assert report.alpha_beta_states == search(initial_state(), config=DEFAULT).states
    assert report.alpha_beta_states < report.minimax_states


def test_last_move_analysis() -> None:
    report = analyse(parse_board("XOXXOOOX."))
    assert [(m.cell, m.outcome, m.plies) for m in report.moves] == [(8, "draw", 1)]


@pytest.mark.parametrize("board", ["XXXOO....", "XOXXOOOXX", "OOOXX.X.."])
def test_finished_positions_raise(board: str) -> None:
    with pytest.raises(GameOverError):
        analyse(parse_board(board))
