"""Precomputed tables over 9-bit masks, shared by the rules and the search.

A mask has bit ``i`` set when cell ``i`` (0-8, row-major from the top-left) is occupied. Every table
is indexed by a mask (0-511), so a win test or a list of free cells is one list lookup.
"""

from __future__ import annotations

__all__ = [
    "CENTRE_CORNERS_EDGES",
    "FREE_BITS",
    "FREE_CELLS",
    "FULL",
    "LINES",
    "NATURAL",
    "POPCOUNT",
    "SYMMETRIES",
    "SYMMETRY_MASKS",
    "THREATS",
    "WINS",
    "canonical_key",
    "free_bits_in_order",
    "line_mask",
]

FULL = 0b111_111_111

LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),  # rows
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),  # columns
    (0, 4, 8),
    (2, 4, 6),  # diagonals
)

NATURAL: tuple[int, ...] = tuple(range(9))
CENTRE_CORNERS_EDGES: tuple[int, ...] = (4, 0, 2, 6, 8, 1, 3, 5, 7)


def line_mask(line: tuple[int, ...]) -> int:
    """The mask with the bits of ``line``'s cells set."""
    return sum(1 << cell for cell in line)


_LINE_MASKS = tuple(line_mask(line) for line in LINES)

WINS: list[bool] = [any(mask & m == m for m in _LINE_MASKS) for mask in range(512)]
"""``WINS[mask]`` is true when ``mask`` contains a complete line."""


def _threats(mask: int) -> int:
    cells = 0
    for line in _LINE_MASKS:
        missing = line & ~mask
        if missing and not missing & (missing - 1):  # exactly one cell of the line is missing
            cells |= missing
    return cells


THREATS: list[int] = [_threats(mask) for mask in range(512)]
"""``THREATS[mask]``: the cells (as a mask) that would complete a line for a side holding ``mask``.
AND it with the empty cells to get that side's immediately winning moves."""

POPCOUNT: list[int] = [mask.bit_count() for mask in range(512)]
"""``POPCOUNT[mask]`` is the number of cells set in ``mask``."""

FREE_CELLS: list[tuple[int, ...]] = [tuple(c for c in NATURAL if not occupied >> c & 1) for occupied in range(512)]
"""``FREE_CELLS[occupied]`` lists the empty cells, natural order."""


def free_bits_in_order(order: tuple[int, ...]) -> list[tuple[int, ...]]:
    """A table: for each occupied mask, the single-bit masks of its empty cells in ``order``."""
    return [tuple(1 << c for c in order if not occupied >> c & 1) for occupied in range(512)]


FREE_BITS: dict[tuple[int, ...], list[tuple[int, ...]]] = {
    NATURAL: free_bits_in_order(NATURAL),
    CENTRE_CORNERS_EDGES: free_bits_in_order(CENTRE_CORNERS_EDGES),
}
"""``FREE_BITS[order][occupied]``: the empty cells as single-bit masks, for each supported order."""


def _transform(cell: int, rotations: int, mirrored: bool) -> int:
    row, col = divmod(cell, 3)
    if mirrored:
        col = 2 - col
    for _ in range(rotations):
        row, col = col, 2 - row
    return row * 3 + col


SYMMETRIES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_transform(c, r, m) for c in NATURAL) for m in (False, True) for r in range(4)
)
"""The 8 symmetries of the square (the dihedral group D4): ``SYMMETRIES[k][cell]`` is the image of
``cell``. Index 0 is the identity."""

SYMMETRY_MASKS: tuple[list[int], ...] = tuple(
    [sum(1 << perm[c] for c in NATURAL if mask >> c & 1) for mask in range(512)] for perm in SYMMETRIES
)
"""``SYMMETRY_MASKS[k][mask]`` is ``mask`` with every cell moved by ``SYMMETRIES[k]``."""


def canonical_key(me: int, opp: int) -> int:
    """The smallest ``me << 9 | opp`` over the 8 symmetric images of a position: one key per class."""
    return min(masks[me] << 9 | masks[opp] for masks in SYMMETRY_MASKS)
