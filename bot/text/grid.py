"""A board's cells and grid as text: a small board's cells and name, the mark in a cell, and the monospace text grid,
all following the game's :class:`engine.variants.Variant` (its shape, ``numbered``, ``block``; a cell's own name is
:meth:`~engine.variants.Variant.cell_label`). Pure text: no ``discord`` import.

Coordinates are a column letter and a row number, ``a1`` at the top left (:mod:`engine.coordinates`); a numbered
board names its cells 1 to 9 like a phone keypad instead. A small board is named by the cells it covers, e.g.
``d4-f6`` for ultimate's centre board.
"""

from __future__ import annotations

from typing import Any, Final

from engine import Mark
from engine.coordinates import cell_name
from engine.variants import Variant
from engine.variants import variant as variant_named

__all__ = [
    "DEFAULT_VARIANT",
    "board_cells",
    "board_grid",
    "mark_at",
    "small_board_name",
]

DEFAULT_VARIANT: Final = "3x3"
"""The game played when none is chosen (``/ttt start``, the console, ``/ttt move`` without a game)."""


def board_cells(small_board: int, width: int = 9, block: int = 3) -> tuple[int, ...]:
    """The cells (0-based, row by row over the whole ``width``-wide grid) of small board ``small_board`` (0-based, row
    by row), each ``block`` cells a side, in the small board's own order. The defaults are ultimate's."""
    across = width // block
    top, left = block * (small_board // across), block * (small_board % across)
    return tuple(width * (top + i // block) + left + i % block for i in range(block * block))


def small_board_name(small_board: int, width: int = 9, block: int = 3) -> str:
    """A small board by the cells it covers: ``0`` → ``"a1-c3"``, ``4`` → ``"d4-f6"`` (defaults: ultimate's)."""
    cells = board_cells(small_board, width, block)
    return f"{cell_name(cells[0], width)}-{cell_name(cells[-1], width)}"


def mark_at(state: Any, cell: int) -> Mark | None:
    """The mark in 0-based ``cell`` of an engine state (one indexable by cell, or a pair of masks ``x``, ``o`` as
    4x4's and 5x5's), or ``None``."""
    if hasattr(state, "__getitem__"):
        value = state[cell]
        return value if isinstance(value, Mark) else None
    return Mark.X if state.x >> cell & 1 else Mark.O if state.o >> cell & 1 else None


def board_grid(state: Any, variant: str = DEFAULT_VARIANT) -> str:
    """The board of engine ``state`` of game ``variant`` as monospace text in a code block. A numbered board is a
    boxed grid with the numbers of its empty cells; any other has column letters and row numbers, ``·`` for an empty
    cell, and lines between its small boards. At most about 300 characters (ultimate)."""
    shape = variant_named(variant)
    marks = [mark_at(state, cell) for cell in range(shape.cells)]
    if shape.numbered:
        return _keypad(shape, marks)
    block = shape.block or shape.width
    starts = range(0, shape.width, block)

    def grouped(items: list[str]) -> str:
        return " | ".join(" ".join(items[i : i + block]) for i in starts)

    lines = ["   " + grouped(list("abcdefghijklmnopqrstuvwxyz"[: shape.width]))]
    for row in range(shape.height):
        if row and row % block == 0:
            lines.append("   " + "-+-".join(["-" * (2 * block - 1)] * len(starts)))
        text = [m.value if m else "·" for m in marks[shape.width * row : shape.width * (row + 1)]]
        lines.append(f"{row + 1:>2} " + grouped(text))
    return "```\n" + "\n".join(lines) + "\n```"


def _keypad(shape: Variant, marks: list[Mark | None]) -> str:
    width = shape.width

    def row(r: int) -> str:
        return "│".join(f" {m.value if (m := marks[width * r + c]) else width * r + c + 1} " for c in range(width))

    divider = "┼".join(["───"] * width)
    return "```\n" + f"\n{divider}\n".join(row(r) for r in range(shape.height)) + "\n```"
