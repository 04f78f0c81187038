"""A game's board as the presentation needs it: its shape, how its cells are named, its small boards, and its
monospace text grid. Pure text: no ``discord`` import.

The width and height come from :class:`engine.variants.Variant`; the facts it does not carry yet (numbered cells,
small boards, an inline search) come from :data:`_LOCAL`, one row a game.

Coordinates are a column letter and a row number, ``a1`` at the top left (:mod:`engine.coordinates`); a numbered
board names its cells 1 to 9 like a phone keypad instead. A small board is named by the cells it covers, e.g.
``d4-f6`` for ultimate's centre board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from engine import Mark
from engine.coordinates import cell_name
from engine.variants import variant as variant_named

__all__ = [
    "DEFAULT_VARIANT",
    "Shape",
    "board_cells",
    "board_grid",
    "cell_label",
    "mark_at",
    "shape_of",
    "small_board_name",
]

DEFAULT_VARIANT: Final = "3x3"
"""The game played when none is chosen (``/ttt start``, the console, ``/ttt move`` without a game)."""


@dataclass(frozen=True, slots=True)
class Shape:
    """What the presentation knows of a game's board.

    Attributes:
        width, height: the whole board in cells (ultimate: 9 x 9).
        block: the side of a small board in cells (ultimate: 3), 0 on a board without small boards.
        numbered: True when people name the cells by number, 1 to ``width * height`` row by row (3x3's keypad),
            rather than by coordinate.
        inline: True when the bot's search answers within the press (the board never says "thinking").
    """

    width: int
    height: int
    block: int = 0
    numbered: bool = False
    inline: bool = False

    @property
    def cells(self) -> int:
        """Cells on the whole board."""
        return self.width * self.height


_LOCAL: Final[dict[str, dict[str, Any]]] = {
    "3x3": {"numbered": True, "inline": True},
    "ultimate": {"block": 3},
}
"""The facts :class:`engine.variants.Variant` does not carry yet, by game."""


@cache
def shape_of(variant: str) -> Shape:
    """The board of game ``variant``.

    Raises:
        UnknownVariantError: no game has that name.
    """
    rules = variant_named(variant)
    return Shape(rules.width, rules.height, **_LOCAL.get(variant, {}))


def cell_label(variant: str, cell: int) -> str:
    """0-based ``cell`` as people name it on ``variant``'s board: ``"5"`` on a numbered board, else ``"b3"``."""
    shape = shape_of(variant)
    return str(cell + 1) if shape.numbered else cell_name(cell, shape.width)


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
    shape = shape_of(variant)
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


def _keypad(shape: Shape, marks: list[Mark | None]) -> str:
    width = shape.width

    def row(r: int) -> str:
        return "│".join(f" {m.value if (m := marks[width * r + c]) else width * r + c + 1} " for c in range(width))

    divider = "┼".join(["───"] * width)
    return "```\n" + f"\n{divider}\n".join(row(r) for r in range(shape.height)) + "\n```"
