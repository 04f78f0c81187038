"""Any grid of cells up to 19 x 19 as a PNG, drawn with Pillow: the picture of a board too wide for buttons.

Columns are lettered a-s and rows numbered from 1 at the top, on all four sides, as players type coordinates with
``/ttt move cell:`` (:meth:`engine.Variant.parse_cell`'s default notation). The picture shows the pieces (X and O, or
red and yellow discs), the last move (a filled cell) and, once a line is completed, the winning line (its cells
outlined in green and a green stroke through them). The cells shrink as the board grows so that the picture stays at
most :data:`MAX_PX` wide: 64 px a cell up to 14 columns, 49 px at 19, where a phone that shows it 400 px wide still
draws each cell about 20 px wide.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from engine import MAX_SIDE, Mark, Pieces

__all__ = ["MAX_PX", "GridPicture", "cell_px", "draw_grid"]

MAX_PX: Final = 1000
"""The widest (and highest) picture drawn, px."""
_LARGEST_CELL = 64
_BACKGROUND = (49, 51, 56)  # Discord's dark theme, as the ultimate picture
_GRID = (128, 132, 142)
_TEXT = (219, 222, 225)
_X, _O = (237, 66, 69), (88, 101, 242)
_DISC = {Mark.X: (221, 46, 68), Mark.O: (253, 203, 88)}  # the red and yellow discs of the board's text
_LAST = (88, 84, 54)
_WON = (87, 242, 135)
_LOST = (181, 186, 193)


@dataclass(frozen=True, slots=True)
class GridPicture:
    """What the picture of a grid shows.

    Attributes:
        width, height: the board in cells (1-19 each).
        cells: ``width * height`` pieces (``None`` for empty), 0-based row by row.
        pieces: ``"marks"`` (X and O) or ``"discs"``.
        last: the cell of the last move, or ``None`` before the first.
        won: the cells of the line that decided the game (empty while none did).
        lost: True when that line lost the game (misère): drawn in :data:`_LOST`, not :data:`_WON`.
    """

    width: int
    height: int
    cells: Sequence[Mark | None]
    pieces: Pieces = "marks"
    last: int | None = None
    won: frozenset[int] = frozenset()
    lost: bool = False

    def draw(self) -> bytes:
        """This picture as PNG bytes (:func:`draw_grid`)."""
        return draw_grid(self)


def cell_px(width: int, height: int) -> int:
    """The side of a cell, px, on a board ``width`` x ``height``: as large as :data:`MAX_PX` allows, at most 64."""
    side = max(width, height)
    return min(_LARGEST_CELL, (MAX_PX - 2 * _margin(side)) // side)


def _margin(side: int) -> int:
    return 30 if side < 10 else 34  # room for the coordinates; two-digit row numbers need a little more


def draw_grid(picture: GridPicture) -> bytes:
    """The picture as PNG bytes: at most :data:`MAX_PX` x :data:`MAX_PX` px (6 x 6: 444 px), 10-45 KB.

    Raises:
        ValueError: the board is not 1-19 cells a side, or ``cells`` does not hold one entry per cell.
    """
    width, height = picture.width, picture.height
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE) or len(picture.cells) != width * height:
        raise ValueError(f"a grid picture is 1-{MAX_SIDE} cells a side with a piece per cell, not {width} x {height}")
    side, margin = cell_px(width, height), _margin(max(width, height))
    image = Image.new("RGB", (2 * margin + width * side, 2 * margin + height * side), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font(max(12, min(18, side * 2 // 5)))
    right, bottom = margin + width * side, margin + height * side
    for column in range(width):
        x = margin + column * side + side / 2
        for y in (margin / 2, bottom + margin / 2):
            draw.text((x, y), chr(ord("a") + column), fill=_TEXT, font=font, anchor="mm")
    for row in range(height):
        y = margin + row * side + side / 2
        for x in (margin / 2, right + margin / 2):
            draw.text((x, y), str(row + 1), fill=_TEXT, font=font, anchor="mm")
    if picture.last is not None:
        x0, y0 = _origin(picture.last, width, side, margin)
        draw.rectangle((x0, y0, x0 + side, y0 + side), fill=_LAST)
    for k in range(width + 1):
        draw.line((margin + k * side, margin, margin + k * side, bottom), fill=_GRID, width=1)
    for k in range(height + 1):
        draw.line((margin, margin + k * side, right, margin + k * side), fill=_GRID, width=1)
    for cell, piece in enumerate(picture.cells):
        if piece is not None:
            _draw_piece(draw, piece, picture.pieces, _origin(cell, width, side, margin), side)
    if picture.last is not None and picture.pieces == "discs":  # a disc covers the fill: ring it as well
        x0, y0 = _origin(picture.last, width, side, margin)
        inset = max(4, side // 5) - 4
        draw.ellipse((x0 + inset, y0 + inset, x0 + side - inset, y0 + side - inset), outline=_TEXT, width=2)
    _draw_won(draw, picture, side, margin)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _origin(cell: int, width: int, side: int, margin: int) -> tuple[int, int]:
    row, column = divmod(cell, width)
    return margin + column * side, margin + row * side


def _draw_piece(draw: ImageDraw.ImageDraw, mark: Mark, pieces: Pieces, origin: tuple[int, int], side: int) -> None:
    inset = max(4, side // 5)
    x0, y0, x1, y1 = origin[0] + inset, origin[1] + inset, origin[0] + side - inset, origin[1] + side - inset
    stroke = max(2, side // 12)
    if pieces == "discs":
        draw.ellipse((x0 - 2, y0 - 2, x1 + 2, y1 + 2), fill=_DISC[mark])
    elif mark is Mark.X:
        draw.line((x0, y0, x1, y1), fill=_X, width=stroke)
        draw.line((x0, y1, x1, y0), fill=_X, width=stroke)
    else:
        draw.ellipse((x0, y0, x1, y1), outline=_O, width=stroke)


def _draw_won(draw: ImageDraw.ImageDraw, picture: GridPicture, side: int, margin: int) -> None:
    """The deciding cells outlined in green (grey when the line lost), and a stroke of that colour from end to end of
    each straight line among them."""
    if not picture.won:
        return
    colour = _LOST if picture.lost else _WON
    for cell in picture.won:
        x0, y0 = _origin(cell, picture.width, side, margin)
        draw.rectangle((x0 + 2, y0 + 2, x0 + side - 2, y0 + side - 2), outline=colour, width=3)
    for first, last in _line_ends(picture.won, picture.width):
        (ax, ay), (bx, by) = (_origin(c, picture.width, side, margin) for c in (first, last))
        draw.line(
            (ax + side // 2, ay + side // 2, bx + side // 2, by + side // 2), fill=colour, width=max(3, side // 10)
        )


def _line_ends(won: frozenset[int], width: int) -> list[tuple[int, int]]:
    """The two end cells of every maximal straight run (across, down, either diagonal) of 3 or more cells of ``won``."""
    found = []
    for cell in sorted(won):
        row, column = divmod(cell, width)
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            before = (row - dr) * width + column - dc
            if 0 <= column - dc < width and before in won:
                continue  # not the start of its run
            length = 1
            while 0 <= column + length * dc < width and (row + length * dr) * width + column + length * dc in won:
                length += 1
            if length >= 3:
                end = (row + (length - 1) * dr) * width + column + (length - 1) * dc
                found.append((cell, end))
    return found


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)
