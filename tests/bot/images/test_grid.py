"""bot.images.grid: any grid up to 19 x 19 as a picture at most 1,000 px wide, with coordinates, pieces, the last move
and the winning line."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.images import grid
from bot.images.grid import MAX_PX, GridPicture, cell_px, draw_grid
from engine import Mark


def drawn(picture: GridPicture) -> Image.Image:
    image = Image.open(io.BytesIO(draw_grid(picture)))
    assert image.format == "PNG"
    return image.convert("RGB")


def centre(picture: GridPicture, cell: int) -> tuple[int, int]:
    side, margin = cell_px(picture.width, picture.height), grid._margin(max(picture.width, picture.height))
    x, y = grid._origin(cell, picture.width, side, margin)
    return x + side // 2, y + side // 2


@pytest.mark.parametrize(("width", "height"), [(6, 6), (7, 7), (9, 4), (15, 15), (19, 19), (19, 1)])
def test_every_grid_fits_1000_px_with_cells_large_enough_for_a_phone(width: int, height: int) -> None:
    image = drawn(GridPicture(width, height, (None,) * (width * height)))
    assert image.size[0] <= MAX_PX and image.size[1] <= MAX_PX
    assert cell_px(width, height) >= 45  # about 20 px a cell on a phone that shows the picture 400 px wide
    assert image.getpixel(centre(GridPicture(width, height, ()), width * height - 1)) == grid._BACKGROUND


def test_pieces_last_move_and_coordinates() -> None:
    cells: list[Mark | None] = [None] * 36
    cells[0], cells[14] = Mark.X, Mark.O
    picture = GridPicture(6, 6, tuple(cells), last=14)
    image = drawn(picture)
    assert image.getpixel(centre(picture, 0)) == grid._X  # the centre of an X's cross
    assert image.getpixel(centre(picture, 14)) == grid._LAST  # an O's centre is empty: the last move's fill
    assert image.getpixel(centre(picture, 1)) == grid._BACKGROUND
    top_row = [image.getpixel((x, grid._margin(6) // 2)) for x in range(image.size[0])]
    assert grid._TEXT in top_row or any(p != grid._BACKGROUND for p in top_row)  # the column letters are drawn


def test_discs_are_filled_in_their_colours() -> None:
    cells: list[Mark | None] = [None] * 56
    cells[49], cells[50] = Mark.X, Mark.O
    picture = GridPicture(8, 7, tuple(cells), pieces="discs", last=50)
    image = drawn(picture)
    assert image.getpixel(centre(picture, 49)) == grid._DISC[Mark.X]
    assert image.getpixel(centre(picture, 50)) == grid._DISC[Mark.O]
    side = cell_px(8, 7)
    ring = max(4, side // 5) - 3  # the last disc is ringed: a disc covers its cell's fill
    for cell, colour in ((50, grid._TEXT), (49, grid._BACKGROUND)):
        x, y = centre(picture, cell)
        assert image.getpixel((x, y - side // 2 + ring)) == colour


def test_the_winning_line_is_drawn_through_its_cells() -> None:
    line = (8, 15, 22, 29)  # a diagonal on 7 x 7, b2-e5
    cells: list[Mark | None] = [None] * 49
    for cell in line:
        cells[cell] = Mark.O
    picture = GridPicture(7, 7, tuple(cells), won=frozenset(line))
    image = drawn(picture)
    assert all(image.getpixel(centre(picture, cell)) == grid._WON for cell in line)
    assert image.getpixel(centre(picture, 9)) == grid._BACKGROUND
    assert grid._line_ends(frozenset(line), 7) == [(8, 29)]
    assert grid._line_ends(frozenset({0, 1, 2, 3, 7, 14, 21}), 7) == [(0, 3), (0, 21)]  # two lines from one corner


@pytest.mark.parametrize(("width", "height", "cells"), [(20, 6, 120), (6, 6, 35), (0, 3, 0)])
def test_a_board_it_cannot_draw_is_refused(width: int, height: int, cells: int) -> None:
    with pytest.raises(ValueError, match="1-19 cells a side"):
        draw_grid(GridPicture(width, height, (None,) * cells))


def test_a_line_that_lost_is_drawn_in_another_colour() -> None:
    cells: list[Mark | None] = [Mark.X, Mark.X, Mark.X, Mark.O, Mark.O, None, None, None, None]
    picture = GridPicture(3, 3, tuple(cells), won=frozenset({0, 1, 2}), lost=True)
    image = drawn(picture)
    assert all(image.getpixel(centre(picture, cell)) == grid._LOST for cell in (0, 1, 2))
    assert grid._LOST != grid._WON
