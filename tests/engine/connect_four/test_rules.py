"""Connect Four's rules against OpenSpiel's ``connect_four`` over random playouts, and its bad-input errors."""

from __future__ import annotations

import random

import pyspiel
import pytest

from engine.connect_four.rules import BOARD, CONNECT_FOUR, ColumnFullError, ConnectFourState, winning_cells
from engine.errors import CellOutOfRangeError, GameOverError, IllegalMoveError
from engine.protocol import Mark


def openspiel_rows(state: pyspiel.State) -> str:
    """OpenSpiel's board (six rows, top first, ``x``/``o``/``.``) in :meth:`ConnectFour.format_board`'s form."""
    return "/".join(str(state).split()).upper()


def test_random_playouts_match_openspiel() -> None:
    game = pyspiel.load_game("connect_four")
    rng = random.Random(37)
    lengths = set()
    for _ in range(300):
        ours, theirs = CONNECT_FOUR.initial_state(), game.new_initial_state()
        while True:
            assert CONNECT_FOUR.format_board(ours) == openspiel_rows(theirs)
            assert CONNECT_FOUR.terminal(ours) == theirs.is_terminal()
            if theirs.is_terminal():
                assert CONNECT_FOUR.utility(ours) == round(theirs.returns()[0])
                assert CONNECT_FOUR.actions(ours) == ()
                break
            assert CONNECT_FOUR.player(ours) is (Mark.X if theirs.current_player() == 0 else Mark.O)
            assert list(CONNECT_FOUR.actions(ours)) == theirs.legal_actions()
            column = rng.choice(theirs.legal_actions())
            ours = CONNECT_FOUR.result(ours, column)
            theirs.apply_action(column)
        lengths.add(ours.discs)
    assert 42 in lengths and min(lengths) < 20  # draws on a full board and quick wins both came up


def test_a_full_board_without_four_is_a_draw() -> None:
    moves = "442761225377252342545563474175371666631311"  # a random playout that filled the board
    state = CONNECT_FOUR.play(moves[:-1])
    assert not CONNECT_FOUR.terminal(state) and CONNECT_FOUR.actions(state) == (0,)
    full = CONNECT_FOUR.result(state, 0)
    assert (full.x | full.o) == BOARD
    assert CONNECT_FOUR.terminal(full) and CONNECT_FOUR.winner(full) is None and CONNECT_FOUR.utility(full) == 0
    assert CONNECT_FOUR.actions(full) == ()


def test_four_in_a_row_in_every_direction_wins() -> None:
    # bottom row, a column, a rising and a falling diagonal
    for moves, cells in (("4455667", 4), ("1213141", 4), ("12234334544", 4), ("76654554344", 4)):
        state = CONNECT_FOUR.play(moves[:-1])
        assert not CONNECT_FOUR.terminal(state)
        state = CONNECT_FOUR.result(state, int(moves[-1]) - 1)
        won = CONNECT_FOUR.winner(state)
        assert won is not None and CONNECT_FOUR.utility(state) == (1 if won is Mark.X else -1)
        assert winning_cells(state.x if won is Mark.X else state.o).bit_count() == cells


def test_bad_moves_raise_clear_errors() -> None:
    with pytest.raises(CellOutOfRangeError, match="column 7 is off the board"):
        CONNECT_FOUR.result(CONNECT_FOUR.initial_state(), 7)
    with pytest.raises(CellOutOfRangeError):
        CONNECT_FOUR.result(CONNECT_FOUR.initial_state(), True)
    with pytest.raises(ColumnFullError, match=r"column 1 \(a\) is full"):
        CONNECT_FOUR.result(CONNECT_FOUR.play("111111"), 0)
    with pytest.raises(GameOverError):
        CONNECT_FOUR.result(CONNECT_FOUR.play("1212121"), 2)
    with pytest.raises(IllegalMoveError, match="digits 1-7"):
        CONNECT_FOUR.play("48")


def test_columns_are_named_1_to_7_and_a_to_g() -> None:
    assert [CONNECT_FOUR.parse_column(text) for text in ("1", " 7 ", "a", "G")] == [0, 6, 0, 6]
    assert CONNECT_FOUR.column_name(3) == "d"
    for text in ("0", "8", "h", "", "d4", "²", "①", "1" * 5000):
        with pytest.raises(CellOutOfRangeError):
            CONNECT_FOUR.parse_column(text)


def test_states_are_immutable_and_hashable() -> None:
    state = CONNECT_FOUR.play("44")
    assert state == ConnectFourState(state.x, state.o) and hash(state) == hash(CONNECT_FOUR.play("44"))
    with pytest.raises(AttributeError):
        state.x = 0  # type: ignore[misc]
