"""Gomoku's rules against OpenSpiel's ``gomoku``, its notation, and its errors."""

from __future__ import annotations

import random

import pyspiel
import pytest

from engine.coordinates import cell_name, parse_cell
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError
from engine.gomoku.rules import CELLS, GOMOKU, has_five
from engine.protocol import Mark


def openspiel_rows(state: pyspiel.State) -> str:
    """OpenSpiel's board (15 rows, top first, ``b`` black = X, ``w`` white = O) in ``format_board``'s form."""
    rows = str(state).split()[-15:]
    return "/".join(rows).replace("b", "X").replace("w", "O")


def test_rules_equal_openspiels_over_300_random_playouts() -> None:
    game = pyspiel.load_game("gomoku")
    rng = random.Random(47)
    winners = set()
    for _ in range(300):
        ours, theirs = GOMOKU.initial_state(), game.new_initial_state()
        while True:
            assert GOMOKU.format_board(ours) == openspiel_rows(theirs)
            assert GOMOKU.terminal(ours) == theirs.is_terminal()
            if theirs.is_terminal():
                assert GOMOKU.utility(ours) == round(theirs.returns()[0])
                assert GOMOKU.actions(ours) == ()
                break
            assert GOMOKU.player(ours) is (Mark.X if theirs.current_player() == 0 else Mark.O)
            assert list(GOMOKU.actions(ours)) == theirs.legal_actions()
            cell = rng.choice(theirs.legal_actions())
            ours = GOMOKU.result(ours, cell)
            theirs.apply_action(cell)
        winners.add(GOMOKU.utility(ours))
    assert winners >= {1, -1}


def test_openspiel_numbers_cells_row_by_row_from_the_top_left() -> None:
    state = pyspiel.load_game("gomoku").new_initial_state()
    state.apply_action(16)
    assert openspiel_rows(state).split("/")[1] == ".X" + "." * 13
    assert GOMOKU.format_board(GOMOKU.play([16])) == openspiel_rows(state)


def test_an_overline_wins_and_four_does_not() -> None:
    six = GOMOKU.play("a1 a15 b1 b15 c1 c15 e1 e15 f1 f14 d1")
    assert GOMOKU.winner(six) is Mark.X
    four = GOMOKU.play("a1 a15 b1 b15 c1 c15 d1")
    assert GOMOKU.winner(four) is None and not GOMOKU.terminal(four)


@pytest.mark.parametrize(
    "moves",
    [
        "h8 a1 h9 a2 h10 a3 h11 a4 h12",  # vertical
        "h8 a1 i9 a2 j10 a3 k11 a4 l12",  # up-right
        "h8 a1 i7 a2 j6 a3 k5 a4 l4",  # down-right
        "k15 a1 l15 a2 m15 a3 n15 a4 o15",  # along the top edge
    ],
)
def test_five_in_every_direction_wins(moves: str) -> None:
    state = GOMOKU.play(moves)
    assert GOMOKU.winner(state) is Mark.X and GOMOKU.actions(state) == ()


def test_lines_do_not_wrap_around_the_edge() -> None:
    assert not has_five(sum(1 << b for b in (12, 13, 14, 16, 17)))  # m15-o15 then a14-b14: not a line
    wrapped = GOMOKU.play("l15 a1 m15 a2 n15 a3 o15 a5 a14")  # four on the top row then the next row's first cell
    assert GOMOKU.winner(wrapped) is None


def test_the_centre_is_h8_and_rows_count_from_the_bottom() -> None:
    assert GOMOKU.parse_cell("h8") == 112 and GOMOKU.cell_name(112) == "h8"
    assert GOMOKU.parse_cell("a1") == 210 and GOMOKU.parse_cell("O15") == 14
    assert GOMOKU.parse_cell("\uff41\uff11\uff15") == 0 and GOMOKU.parse_cell("1") == 0
    assert all(GOMOKU.parse_cell(GOMOKU.cell_name(cell)) == cell for cell in range(CELLS))


@pytest.mark.parametrize("text", ["p1", "a16", "a0", "h", "226", "", "h\uff18x"])
def test_a_cell_off_the_board_is_refused(text: str) -> None:
    with pytest.raises(CellOutOfRangeError, match="a1-o15"):
        GOMOKU.parse_cell(text)


def test_other_boards_still_count_rows_from_the_top() -> None:
    assert parse_cell("a1", 3, 3) == 0 and cell_name(0, 3) == "a1"
    assert parse_cell("a1", 3, 3, from_bottom=True) == 6 and cell_name(6, 3, from_bottom=True, height=3) == "a1"


def test_illegal_moves_are_refused_with_their_reason() -> None:
    state = GOMOKU.play("h8")
    with pytest.raises(CellOccupiedError, match="h8 is taken"):
        GOMOKU.result(state, 112)
    with pytest.raises(CellOutOfRangeError):
        GOMOKU.result(state, 225)
    won = GOMOKU.play("h8 a1 h9 a2 h10 a3 h11 a4 h12")
    with pytest.raises(GameOverError):
        GOMOKU.result(won, 0)
