"""Cell names as people write them: a 1-based number row by row, or a coordinate such as ``b3``; a board as text.

A coordinate is a column letter (``a`` is the leftmost column) and a row number (``1`` is the top row), so
``a1`` is the top-left cell on every board: a1-c3 on 3x3, a1-d4 on 4x4, a1-e5 on 5x5 and a1-i9 on the 9x9
grid of ultimate tic-tac-toe. The engine's cells are 0-based, row by row: cell ``9 * (r - 1) + (c - 1)``
is row ``r``, column ``c`` of a board 9 wide.
"""

from __future__ import annotations

import re

from engine.errors import CellOutOfRangeError

__all__ = ["cell_name", "parse_cell", "text_grid"]

_COORDINATE = re.compile(r"([a-z])\s*(\d{1,2})")
_NUMBER = re.compile(r"\d{1,3}")


def cell_name(cell: int, width: int) -> str:
    """The coordinate of 0-based ``cell`` on a board ``width`` columns wide, e.g. ``cell_name(5, 3) == "c2"``."""
    row, column = divmod(cell, width)
    return f"{chr(ord('a') + column)}{row + 1}"


def parse_cell(text: str, width: int, height: int) -> int:
    """The 0-based cell that ``text`` names: a coordinate (``"b3"``, ``"B3"``) or a 1-based number (``"7"``).

    Raises:
        CellOutOfRangeError: ``text`` is neither, or names a cell off the ``width`` x ``height`` board; the
            message says what the board accepts.
    """
    last = cell_name(width * height - 1, width)
    accepted = f"a coordinate a1-{last} or a number 1-{width * height}"
    cleaned = text.strip().lower() if isinstance(text, str) else ""
    if match := _COORDINATE.fullmatch(cleaned):
        column = ord(match[1]) - ord("a")
        row = int(match[2]) - 1
        if column < width and 0 <= row < height:
            return row * width + column
    elif _NUMBER.fullmatch(cleaned) and 1 <= int(cleaned) <= width * height:
        return int(cleaned) - 1
    raise CellOutOfRangeError(f"cell {text!r} is not on this board: give {accepted}")


def text_grid(marks: list[str], width: int, block: int) -> str:
    """A board as monospace lines: column letters over ``marks`` (one string per cell, row by row, ``width`` a row)
    with row numbers, and lines between small boards of side ``block`` (``width`` for a board without them)."""
    starts = range(0, width, block)

    def grouped(items: list[str]) -> str:
        return " | ".join(" ".join(items[i : i + block]) for i in starts)

    lines = ["   " + grouped([chr(ord("a") + column) for column in range(width)])]
    for row in range(len(marks) // width):
        if row and row % block == 0:
            lines.append("   " + "-+-".join(["-" * (2 * block - 1)] * len(starts)))
        lines.append(f"{row + 1:>2} " + grouped(marks[width * row : width * (row + 1)]))
    return "\n".join(lines)
