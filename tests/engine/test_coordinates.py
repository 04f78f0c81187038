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
