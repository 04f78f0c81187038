"""bot.images.ultimate: the picture shows the marks, the last move, the target boards and closed boards."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.images import ultimate
from bot.images.ultimate import UltimatePicture, draw_ultimate
from engine import Mark


def picture(**changes: object) -> Image.Image:
    fields: dict[str, object] = {"cells": [None] * 81, "boards": [None] * 9, "targets": frozenset(), "last": None}
    fields.update(changes)
    png = draw_ultimate(UltimatePicture(**fields))  # type: ignore[arg-type]
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def centre(cell: int) -> tuple[int, int]:
    x, y = ultimate._cell_origin(cell)
    return x + ultimate.CELL_PX // 2, y + ultimate.CELL_PX // 2


def corner(cell: int) -> tuple[int, int]:
    x, y = ultimate._cell_origin(cell)
    return x + 3, y + 3


def test_an_empty_grid_is_a_small_square_png() -> None:
    image = picture()
    assert image.size[0] == image.size[1] and 300 <= image.size[0] <= 500
    assert image.getpixel(centre(40)) == ultimate._BACKGROUND


def test_marks_land_in_their_cells_in_their_colours() -> None:
    cells: list[Mark | None] = [None] * 81
    cells[0], cells[80] = Mark.X, Mark.O
    image = picture(cells=cells)
    assert image.getpixel(centre(0)) == ultimate._X  # the crossing of X's two strokes
    x, y = ultimate._cell_origin(80)
    ring = [image.getpixel((x + ultimate.CELL_PX // 2, y + dy)) for dy in range(5, 15)]
    assert ultimate._O in ring
    assert image.getpixel(centre(40)) == ultimate._BACKGROUND


def test_the_last_move_is_filled_and_the_target_board_outlined() -> None:
    image = picture(last=30, targets=frozenset({4}))
    assert image.getpixel(corner(30)) == ultimate._LAST
    assert image.getpixel(corner(31)) == ultimate._BACKGROUND
    left, top = ultimate._cell_origin(30)  # the top-left cell of the centre board
    assert image.getpixel((left - 2, top + 20)) == ultimate._TARGET
    far_left, far_top = ultimate._cell_origin(0)
    assert image.getpixel((far_left - 2, far_top + 20)) != ultimate._TARGET


def test_won_boards_show_the_winner_large_and_drawn_boards_are_greyed() -> None:
    image = picture(boards=[Mark.X, "draw", None, None, None, None, None, None, Mark.O])
    assert image.getpixel(centre(10)) == ultimate._X  # board 0's centre cell, under the large X
    assert image.getpixel(corner(3)) == ultimate._DRAWN  # board 1's top-left cell
    assert image.getpixel(corner(60)) == ultimate._BACKGROUND  # board 6: open


def test_a_wrong_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="81 cells and 9 boards"):
        draw_ultimate(UltimatePicture([None] * 80, [None] * 9, frozenset(), None))
