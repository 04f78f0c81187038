"""The rules in engine.tictactoe.rules: AIMA's S0/TO-MOVE/ACTIONS/RESULT/IS-TERMINAL/UTILITY, parsing and errors."""

from __future__ import annotations

import dataclasses

import pytest

from engine import errors
from engine.tictactoe.rules import (
    Mark,
    State,
    actions,
    format_board,
    initial_state,
    parse_board,
    player,
    result,
    terminal,
    utility,
    winner,
    winning_cells,
    winning_line,
)


def play(*cells: int) -> State:
    state = initial_state()
    for cell in cells:
        state = result(state, cell)
    return state


# --- S0, TO-MOVE, ACTIONS, RESULT ------------------------------------------------------------------


def test_initial_state_is_empty_with_x_to_move() -> None:
    s = initial_state()
    assert s == State(0, 0)
    assert format_board(s) == "........."
    assert player(s) is Mark.X
    assert actions(s) == tuple(range(9))
    assert not terminal(s)
    assert utility(s) == 0
    assert winner(s) is None
    assert winning_line(s) is None
    assert s.marks == 0


def test_players_alternate_and_marks_land_where_played() -> None:
    s = play(4)
    assert player(s) is Mark.O
    assert s[4] is Mark.X
    assert format_board(s) == "....X...."
    s = result(s, 0)
    assert player(s) is Mark.X
    assert s[0] is Mark.O
    assert format_board(s) == "O...X...."
    assert actions(s) == (1, 2, 3, 5, 6, 7, 8)
    assert s.marks == 2


def test_mark_other() -> None:
    assert Mark.X.other is Mark.O
    assert Mark.O.other is Mark.X


@pytest.mark.parametrize(
    ("moves", "line"),
    [
        ((0, 3, 1, 4, 2), (0, 1, 2)),
        ((3, 0, 4, 1, 5), (3, 4, 5)),
        ((6, 0, 7, 1, 8), (6, 7, 8)),
        ((0, 1, 3, 2, 6), (0, 3, 6)),
        ((1, 0, 4, 2, 7), (1, 4, 7)),
        ((2, 0, 5, 1, 8), (2, 5, 8)),
        ((0, 1, 4, 2, 8), (0, 4, 8)),
        ((2, 0, 4, 1, 6), (2, 4, 6)),
    ],
)
def test_every_line_wins_for_x(moves: tuple[int, ...], line: tuple[int, int, int]) -> None:
    s = play(*moves)
    assert winner(s) is Mark.X
    assert winning_line(s) == line
    assert terminal(s)
    assert utility(s) == 1
    assert actions(s) == ()


def test_o_wins() -> None:
    s = play(0, 3, 1, 4, 8, 5)
    assert format_board(s) == "XX.OOO..X"
    assert winner(s) is Mark.O
    assert winning_line(s) == (3, 4, 5)
    assert utility(s) == -1
    assert terminal(s)


def test_draw_is_terminal_with_zero_utility() -> None:
    s = parse_board("XOXXOOOXX")
    assert winner(s) is None
    assert winning_line(s) is None
    assert terminal(s)
    assert utility(s) == 0
    assert actions(s) == ()


def test_win_on_the_last_move_counts_as_a_win() -> None:
    s = parse_board("XOXOXOOXX")  # X completes 0-4-8 with the ninth mark
    assert winner(s) is Mark.X
    assert utility(s) == 1


# --- errors -----------------------------------------------------------------------------------------


def test_occupied_cell() -> None:
    s = play(4)
    with pytest.raises(errors.CellOccupiedError) as info:
        result(s, 4)
    assert str(info.value) == "cell 5 is already taken by X"  # cells as people number them
    assert isinstance(info.value, errors.IllegalMoveError)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("bad", [-1, 9, 10, 100, True, False, "4", 4.0, None])
def test_out_of_range_cells(bad: object) -> None:
    with pytest.raises(errors.CellOutOfRangeError) as info:
        result(initial_state(), bad)  # type: ignore[arg-type]
    shown = str(bad + 1) if type(bad) is int else repr(bad)
    assert str(info.value) == f"cell {shown} is off the board: choose 1-9"
    assert isinstance(info.value, errors.IllegalMoveError)


def test_move_after_a_win_is_game_over() -> None:
    s = play(0, 3, 1, 4, 2)
    with pytest.raises(errors.GameOverError, match="X won"):
        result(s, 8)
    assert issubclass(errors.GameOverError, errors.IllegalMoveError)


def test_move_after_a_draw_is_game_over() -> None:
    with pytest.raises(errors.GameOverError, match="draw"):
        result(parse_board("XOXXOOOXX"), 0)


def test_game_over_is_reported_before_occupied() -> None:
    s = play(0, 3, 1, 4, 2)
    with pytest.raises(errors.GameOverError):
        result(s, 0)


# --- parse_board / format_board --------------------------------------------------------------------


def test_parse_board_reads_rows_top_left_first() -> None:
    s = parse_board("X.O......")
    assert s[0] is Mark.X
    assert s[2] is Mark.O
    assert s[1] is None
    assert player(s) is Mark.X


def test_parse_board_accepts_people_friendly_input() -> None:
    expected = parse_board("X.O.X....")
    assert parse_board("x.o/.x./...") == expected
    assert parse_board(" X . O | . X . | . . . ") == expected
    assert parse_board("x.o\n.x.\n...") == expected


def test_round_trip_on_every_reachable_position(reachable: list[State]) -> None:
    assert len(reachable) == 5478
    for s in reachable:
        text = format_board(s)
        assert len(text) == 9 and set(text) <= {"X", "O", "."}
        assert parse_board(text) == s
        assert parse_board(text.lower()) == s


@pytest.mark.parametrize(
    ("board", "fragment"),
    [
        ("XO?......", "'?'"),
        ("XO-......", "'-'"),
        ("X0.......", "'0'"),
        ("X........ ", None),  # trailing whitespace is ignored: valid
    ],
)
def test_wrong_characters(board: str, fragment: str | None) -> None:
    if fragment is None:
        assert parse_board(board) == parse_board("X........")
        return
    with pytest.raises(errors.InvalidBoardError) as info:
        parse_board(board)
    assert fragment in str(info.value)
    assert "X, O and '.'" in str(info.value)


@pytest.mark.parametrize("board", ["", "X", "........", "..........", "XO.XO.XO.X"])
def test_wrong_length(board: str) -> None:
    with pytest.raises(errors.InvalidBoardError, match="exactly nine"):
        parse_board(board)


@pytest.mark.parametrize("board", ["XX.......", "O........", "OO.X.....", "XXXX.O..."])
def test_impossible_counts(board: str) -> None:
    with pytest.raises(errors.InvalidBoardError, match="X must equal O or O \\+ 1"):
        parse_board(board)


def test_both_sides_winning() -> None:
    with pytest.raises(errors.InvalidBoardError, match="both X and O winning"):
        parse_board("XXXOOO...")


def test_o_moved_after_x_won() -> None:
    assert winner(parse_board("XXXOOX.O.")) is Mark.X  # X won with its fourth mark: legal
    with pytest.raises(errors.InvalidBoardError, match="X has won, so O cannot have moved"):
        parse_board("XXXOO.O..")


def test_x_moved_after_o_won() -> None:
    with pytest.raises(errors.InvalidBoardError, match="O has won, so X cannot have moved"):
        parse_board("OOOXX.XX.")


def test_parse_board_rejects_non_strings() -> None:
    with pytest.raises(errors.InvalidBoardError, match="must be a string"):
        parse_board(None)  # type: ignore[arg-type]
    with pytest.raises(errors.InvalidBoardError):
        parse_board(list("X........"))  # type: ignore[arg-type]


def test_every_error_is_a_value_error() -> None:
    for cls in (
        errors.IllegalMoveError,
        errors.CellOutOfRangeError,
        errors.CellOccupiedError,
        errors.GameOverError,
        errors.InvalidBoardError,
    ):
        assert issubclass(cls, ValueError)
    assert not issubclass(errors.InvalidBoardError, errors.IllegalMoveError)


# --- State ------------------------------------------------------------------------------------------


def test_state_is_hashable_and_compares_by_value() -> None:
    a = play(4, 0)
    b = parse_board("O...X....")
    assert a == b
    assert hash(a) == hash(b)
    assert len({a, b, play(4)}) == 2
    assert {a: 1}[b] == 1


def test_state_is_immutable() -> None:
    s = play(4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.x = 0  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        s.extra = 1  # type: ignore[attr-defined]


def test_str_is_the_board_text() -> None:
    assert str(play(4, 0)) == "O...X...."


def test_winning_cells_cover_every_completed_line() -> None:
    # X's last move on 0 completes the top row and the left column at once.
    s = parse_board(".XXXOOXOO")
    s = result(s, 0)
    assert winner(s) is Mark.X
    assert winning_cells(s) == {0, 1, 2, 3, 6}
    assert winning_cells(parse_board("XOXXOOOXX")) == frozenset()


@pytest.mark.parametrize("cell", [-1, 9])
def test_indexing_outside_the_board_raises(cell: int) -> None:
    with pytest.raises(IndexError, match="out of range"):
        initial_state()[cell]
