"""The whole 9x9 grid of an ultimate tic-tac-toe game as a PNG, drawn with Pillow.

The picture marks what a player needs to choose a move: the last move (a filled cell), the small board the
player to move must play in (a thick outline; every open board when the choice is free), and the small
boards already won (the winner's mark drawn large over it) or drawn (greyed). Columns are lettered a-i and
rows numbered 1-9 from the top left, as players type coordinates.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from PIL import Image, ImageDraw, ImageFont

from engine import Mark

__all__ = ["CELL_PX", "UltimatePicture", "draw_ultimate"]

CELL_PX = 40
_GAP = 6  # extra space between small boards
_MARGIN = 28  # room for the coordinates
_BOARD_PX = 3 * CELL_PX
_SIZE = _MARGIN + 9 * CELL_PX + 2 * _GAP + 8

_BACKGROUND = (49, 51, 56)  # Discord's dark theme, so the picture sits well in a message
_GRID = (128, 132, 142)
_TEXT = (219, 222, 225)
_X = (237, 66, 69)
_O = (88, 101, 242)
_LAST = (88, 84, 54)
_TARGET = (254, 231, 92)
_DRAWN = (79, 84, 92)

BoardResult = Mark | Literal["draw"] | None


@dataclass(frozen=True, slots=True)
class UltimatePicture:
    """What the picture shows.

    Attributes:
        cells: 81 marks (``None`` for empty), 0-based row by row over the whole grid.
        boards: 9 small-board results, row by row: the winner's mark, ``"draw"`` (full, no line), or ``None``.
        targets: the small boards (0-8) the player to move may play in; empty once the game is over.
        last: the cell (0-80) of the last move, or ``None`` before the first.
    """

    cells: Sequence[Mark | None]
    boards: Sequence[BoardResult]
    targets: frozenset[int]
    last: int | None

    def draw(self) -> bytes:
        """This picture as PNG bytes (:func:`draw_ultimate`)."""
        return draw_ultimate(self)


def draw_ultimate(picture: UltimatePicture) -> bytes:
    """The picture as PNG bytes (about 400 x 400 px, a few KB).

    Raises:
        ValueError: ``cells`` does not hold 81 entries or ``boards`` 9.
    """
    if len(picture.cells) != 81 or len(picture.boards) != 9:
        raise ValueError(
            f"an ultimate picture needs 81 cells and 9 boards, not {len(picture.cells)} and {len(picture.boards)}"
        )
    image = Image.new("RGB", (_SIZE, _SIZE), _BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = _font(15)
    for i in range(9):
        x0 = _cell_origin(i)[0]
        draw.text((x0 + CELL_PX / 2, _MARGIN / 2), chr(ord("a") + i), fill=_TEXT, font=font, anchor="mm")
        draw.text((_MARGIN / 2, _cell_origin(9 * i)[1] + CELL_PX / 2), str(i + 1), fill=_TEXT, font=font, anchor="mm")
    for board in range(9):
        _draw_board(draw, picture, board)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def _draw_board(draw: ImageDraw.ImageDraw, picture: UltimatePicture, board: int) -> None:
    top_cell = (board // 3) * 27 + (board % 3) * 3
    left, top = _cell_origin(top_cell)
    right, bottom = left + _BOARD_PX, top + _BOARD_PX
    result = picture.boards[board]
    if result == "draw":
        draw.rectangle((left, top, right, bottom), fill=_DRAWN)
    for k in range(9):
        cell = top_cell + (k // 3) * 9 + k % 3
        x0, y0 = _cell_origin(cell)
        if cell == picture.last:
            draw.rectangle((x0 + 1, y0 + 1, x0 + CELL_PX - 1, y0 + CELL_PX - 1), fill=_LAST)
        mark = picture.cells[cell]
        if mark is not None:
            _draw_mark(draw, mark, (x0, y0, x0 + CELL_PX, y0 + CELL_PX), width=3, inset=9, dim=result is not None)
    for k in (1, 2):
        draw.line((left + k * CELL_PX, top + 3, left + k * CELL_PX, bottom - 3), fill=_GRID, width=1)
        draw.line((left + 3, top + k * CELL_PX, right - 3, top + k * CELL_PX), fill=_GRID, width=1)
    if isinstance(result, Mark):
        _draw_mark(draw, result, (left, top, right, bottom), width=9, inset=14)
    if board in picture.targets:
        draw.rectangle((left - 3, top - 3, right + 3, bottom + 3), outline=_TARGET, width=3)


def _draw_mark(
    draw: ImageDraw.ImageDraw, mark: Mark, box: tuple[int, int, int, int], *, width: int, inset: int, dim: bool = False
) -> None:
    x0, y0, x1, y1 = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    colour = _X if mark is Mark.X else _O
    if dim:  # a closed board's small marks fade behind its result
        colour = _fade(colour)
    if mark is Mark.X:
        draw.line((x0, y0, x1, y1), fill=colour, width=width)
        draw.line((x0, y1, x1, y0), fill=colour, width=width)
    else:
        draw.ellipse((x0, y0, x1, y1), outline=colour, width=width)


def _fade(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    red, green, blue = ((c + 2 * b) // 3 for c, b in zip(colour, _BACKGROUND, strict=True))
    return red, green, blue


def _cell_origin(cell: int) -> tuple[int, int]:
    row, column = divmod(cell, 9)
    return _MARGIN + column * CELL_PX + (column // 3) * _GAP, _MARGIN + row * CELL_PX + (row // 3) * _GAP


@cache
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)
