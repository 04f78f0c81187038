"""Cell names as people write them: a 1-based number row by row, or a coordinate such as ``b3``; a column by its
number or letter; a board as text.

A coordinate is a column letter (``a`` is the leftmost column) and a row number (``1`` is the top row), so
``a1`` is the top-left cell: a1-c3 on 3x3, a1-d4 on 4x4, a1-e5 on 5x5 and a1-i9 on the 9x9 grid of ultimate
tic-tac-toe. Gomoku numbers its rows from the bottom (``from_bottom``), as Gomoku and Go boards are labelled: ``a1``
is its bottom-left cell and ``h8`` the centre of 15 x 15. The engine's cells are 0-based, row by row: cell
``9 * (r - 1) + (c - 1)`` is row ``r`` (from the top), column ``c`` of a board 9 wide.

What people type is read by one function, :func:`parse_cell`, for every game: ASCII digits and letters, and their
full-width forms (as a Japanese keyboard types them, folded by NFKC); nothing else is a digit, so a superscript
``²``, a circled ``①`` or another script's digits are refused as any other text, and a number has at most 3 digits.
"""

from __future__ import annotations

import re
import unicodedata

from engine.errors import CellOutOfRangeError

__all__ = ["cell_name", "folded", "parse_cell", "text_grid", "typed_ranges"]

_COORDINATE = re.compile(r"([a-z])\s*([0-9]{1,2})", re.ASCII)
_NUMBER = re.compile(r"[0-9]{1,3}", re.ASCII)
_LETTER = re.compile(r"[a-z]", re.ASCII)
_FULL_WIDTH = re.compile(r"[\uff01-\uff5e]+")
"""The full-width forms of ASCII's printable characters (U+FF01-U+FF5E: U+FF11 is a full-width ``1``)."""
_QUOTED = 20
"""The characters of a refused text that its error message quotes."""


def cell_name(cell: int, width: int, *, from_bottom: bool = False, height: int = 0) -> str:
    """The coordinate of 0-based ``cell`` on a board ``width`` columns wide, e.g. ``cell_name(5, 3) == "c2"``; with
    ``from_bottom``, rows are numbered from the bottom of a board ``height`` rows high (``cell_name(0, 15,
    from_bottom=True, height=15) == "a15"``)."""
    row, column = divmod(cell, width)
    number = height - row if from_bottom else row + 1
    return f"{chr(ord('a') + column)}{number}"


def typed_ranges(width: int, height: int, *, by_column: bool = False) -> tuple[str, str]:
    """What :func:`parse_cell` reads on a ``width`` x ``height`` board, as two ranges: the numbers and the names,
    ``("1-9", "a1-c3")`` on 3x3, ``("1-7", "a-g")`` by column on 7 x 6."""
    if by_column:
        return f"1-{width}", f"a-{chr(ord('a') + width - 1)}"
    return f"1-{width * height}", f"a1-{cell_name(width * height - 1, width)}"


def parse_cell(text: str, width: int, height: int, *, by_column: bool = False, from_bottom: bool = False) -> int:
    """The 0-based cell that ``text`` names on a ``width`` x ``height`` board: a coordinate (``"b3"``, ``"B3"``, or
    in full-width forms; with ``from_bottom``, its row counted from the bottom) or a 1-based number (``"7"``, row by
    row from the top left); with ``by_column``, the 0-based column (the top row's cell) that a number 1-``width`` or
    a letter (``"a"`` the leftmost) names.

    Raises:
        CellOutOfRangeError: ``text`` is none of these, or names a cell off the board (any text at all, whatever
            its characters or length); the message quotes its start and says what the board accepts.
    """
    numbers, names = typed_ranges(width, height, by_column=by_column)
    if from_bottom:
        names = f"a1-{cell_name(width - 1, width, from_bottom=True, height=height)}"
    cleaned = folded(text)
    if by_column:
        if _NUMBER.fullmatch(cleaned) and 1 <= int(cleaned) <= width:
            return int(cleaned) - 1
        if _LETTER.fullmatch(cleaned) and (column := ord(cleaned) - ord("a")) < width:
            return column
        raise CellOutOfRangeError(f"column {_quoted(text)} is not on the board: give {numbers} or {names}")
    if match := _COORDINATE.fullmatch(cleaned):
        column = ord(match[1]) - ord("a")
        row = height - int(match[2]) if from_bottom else int(match[2]) - 1
        if column < width and 0 <= row < height:
            return row * width + column
    elif _NUMBER.fullmatch(cleaned) and 1 <= int(cleaned) <= width * height:
        return int(cleaned) - 1
    accepted = f"a coordinate {names} or a number {numbers}"
    raise CellOutOfRangeError(f"cell {_quoted(text)} is not on this board: give {accepted}")


def folded(text: object) -> str:
    """``text`` as :func:`parse_cell` reads it: full-width forms folded to ASCII (NFKC), stripped, ASCII in lower
    case; any other character left as it is (``"²"`` stays ``"²"``); ``""`` for what is not a ``str``."""
    if not isinstance(text, str):
        return ""
    ascii_forms = _FULL_WIDTH.sub(lambda m: unicodedata.normalize("NFKC", m[0]), text).strip()
    return ascii_forms.lower() if ascii_forms.isascii() else ascii_forms  # the Kelvin sign would lower to a "k"


def _quoted(text: object) -> str:
    """``text`` quoted for an error message, its first :data:`_QUOTED` characters only."""
    if isinstance(text, str) and len(text) > _QUOTED:
        return f"{text[:_QUOTED]!r}…"
    return repr(text)


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
