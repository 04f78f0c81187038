"""A board's cells and grid as text (bot.text.grid): names, small boards and grids follow the game's Variant."""

from __future__ import annotations

from bot.text.grid import board_grid
from engine.registry import variant
from engine.tictactoe.rules import parse_board


def test_small_boards_cover_their_block_of_cells() -> None:
    ultimate = variant("ultimate")
    assert ultimate.block_cells(0) == (0, 1, 2, 9, 10, 11, 18, 19, 20)
    assert ultimate.block_cells(4) == (30, 31, 32, 39, 40, 41, 48, 49, 50)
    assert ultimate.block_name(8) == "g7-i9" and ultimate.block_of(50) == 4 and ultimate.block_of(80) == 8


def test_the_3x3_grid_is_a_keypad_and_the_others_have_coordinates() -> None:
    assert board_grid(parse_board("X...O....")).splitlines()[1] == " X │ 2 │ 3 "
    rules = variant("4x4")
    state = rules.replay((0, 5))
    assert board_grid(state, "4x4").splitlines()[1:4] == ["   a b c d", " 1 X · · ·", " 2 · O · ·"]


def test_the_ultimate_grid_separates_its_small_boards() -> None:
    lines = board_grid(variant("ultimate").replay((40,)), "ultimate").splitlines()
    assert lines[1] == "   a b c | d e f | g h i"
    assert lines[5] == "   ------+-------+------" and lines[9] == lines[5]
    assert lines[6] == " 4 · · · | · · · | · · ·" and lines[7] == " 5 · · · | · X · | · · ·"
