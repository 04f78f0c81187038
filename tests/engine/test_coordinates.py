"""engine.coordinates: cell names people type, on every board size."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.coordinates import cell_name, parse_cell
from engine.errors import CellOutOfRangeError


@pytest.mark.parametrize(
    ("cell", "width", "name"),
    [
        (0, 3, "a1"),
        (2, 3, "c1"),
        (5, 3, "c2"),
        (8, 3, "c3"),
        (15, 4, "d4"),
        (12, 5, "c3"),
        (24, 5, "e5"),
        (80, 9, "i9"),
    ],
)
def test_cell_names_are_column_letter_and_row_number_from_the_top_left(cell: int, width: int, name: str) -> None:
    assert cell_name(cell, width) == name
    assert parse_cell(name, width, width) == cell
    assert parse_cell(name.upper(), width, width) == cell


def test_numbers_are_one_based_row_by_row() -> None:
    assert parse_cell("1", 3, 3) == 0
    assert parse_cell(" 9 ", 3, 3) == 8
    assert parse_cell("81", 9, 9) == 80


@pytest.mark.parametrize(
    ("text", "width"),
    [
        ("d1", 3),
        ("a4", 3),
        ("e5", 4),
        ("j1", 9),
        ("a10", 9),
        ("0", 3),
        ("10", 3),
        ("82", 9),
        ("", 3),
        ("b", 3),
        ("1a", 3),
        ("a-1", 3),
    ],
)
def test_cells_off_the_board_are_refused_with_what_is_accepted(text: str, width: int) -> None:
    with pytest.raises(CellOutOfRangeError, match=f"a1-{cell_name(width * width - 1, width)}"):
        parse_cell(text, width, width)


@given(st.sampled_from([3, 4, 5, 9]).flatmap(lambda w: st.tuples(st.just(w), st.integers(0, w * w - 1))))
def test_names_and_numbers_round_trip(board: tuple[int, int]) -> None:
    width, cell = board
    assert parse_cell(cell_name(cell, width), width, width) == cell
    assert parse_cell(str(cell + 1), width, width) == cell


UNREADABLE = ["²", "①", "b²", "٣", "1" * 5000, "a" + "1" * 5000, "\x00", "\ud800", "1\n2", "a-1"]
"""Texts that pass ``str.isdigit()`` or ``\\d`` but are no ASCII number (superscripts, circled numbers, other scripts'
digits), numbers longer than ``int()`` reads, control characters and lone surrogates."""


@pytest.mark.parametrize("text", UNREADABLE)
@pytest.mark.parametrize("by_column", [False, True])
def test_what_is_neither_a_number_nor_a_name_is_refused_with_the_engines_error(text: str, by_column: bool) -> None:
    with pytest.raises(CellOutOfRangeError) as caught:
        parse_cell(text, 7, 6, by_column=by_column)
    assert len(str(caught.value)) < 200, "the message quotes a long text shortened"


def test_full_width_digits_and_letters_read_as_their_ascii_forms() -> None:
    """As a Japanese keyboard types them: U+FF10-U+FF19 the digits, U+FF21 on the letters, U+3000 a space."""
    assert parse_cell("\uff13", 3, 3) == 2 and parse_cell("\uff42\uff12", 3, 3) == 4
    assert parse_cell("\uff23\uff13", 3, 3) == 8 and parse_cell("\uff18\uff11", 9, 9) == 80
    assert parse_cell("\u3000e5\u3000", 9, 9) == 40
    assert parse_cell("\uff14", 7, 6, by_column=True) == 3 and parse_cell("\uff47", 7, 6, by_column=True) == 6


def test_a_column_is_its_number_or_its_letter() -> None:
    assert [parse_cell(t, 7, 6, by_column=True) for t in ("1", " 7 ", "a", "G", "007")] == [0, 6, 0, 6, 6]
    for text in ("0", "8", "h", "", "d4", "0007"):
        with pytest.raises(CellOutOfRangeError, match="1-7 or a-g"):
            parse_cell(text, 7, 6, by_column=True)


@given(st.text(), st.sampled_from([(3, 3), (4, 4), (5, 5), (9, 9), (7, 6)]), st.booleans())
def test_any_text_is_a_cell_of_the_board_or_refused(text: str, board: tuple[int, int], by_column: bool) -> None:
    width, height = board
    try:
        cell = parse_cell(text, width, height, by_column=by_column)
    except CellOutOfRangeError:
        return
    assert 0 <= cell < (width if by_column else width * height)
