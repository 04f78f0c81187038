"""One key per symmetry class of puzzle positions, so that no two shipped puzzles are the same position.

m,n,k boards: the smallest ``x << cells | o`` over the board's symmetries (:attr:`TicTacToe.symmetries`).
Ultimate: the 8 symmetries of the square (:data:`engine.tictactoe.bitboard.SYMMETRIES`) applied at once to the big board
(which small board goes where) and inside every small board, with the board the mover is sent to moved too.
Connect Four: the board and its mirror image (gravity leaves no other symmetry), the smaller of ``x << 49 | o``.
"""

from __future__ import annotations

from engine.connect_four.rules import STRIDE, WIDTH, column_mask
from engine.mnk.rules import TicTacToe
from engine.tictactoe.bitboard import SYMMETRIES, SYMMETRY_MASKS

__all__ = ["connect_four_key", "mnk_key", "ultimate_key"]


def mnk_key(game: TicTacToe, x: int, o: int) -> int:
    """The class key of the m,n,k position with masks ``x`` and ``o``."""
    best = -1
    for perm in game.symmetries:
        a = sum(1 << perm[c] for c in range(game.cells) if x >> c & 1)
        b = sum(1 << perm[c] for c in range(game.cells) if o >> c & 1)
        key = a << game.cells | b
        if best < 0 or key < best:
            best = key
    return best


def _ultimate_image(marks: int, k: int) -> int:
    perm, masks = SYMMETRIES[k], SYMMETRY_MASKS[k]
    return sum(masks[marks >> 9 * b & 511] << 9 * perm[b] for b in range(9))


def ultimate_key(x: int, o: int, forced: int) -> tuple[int, int, int]:
    """The class key of the ultimate position with board-major masks ``x``, ``o`` and the board ``forced`` (-1: any)."""
    return min(
        (_ultimate_image(x, k), _ultimate_image(o, k), -1 if forced < 0 else SYMMETRIES[k][forced]) for k in range(8)
    )


def _mirror(discs: int) -> int:
    """A Connect Four bitboard reflected left to right (column ``c`` to ``6 - c``)."""
    out = 0
    for column in range(WIDTH):
        out |= (discs & column_mask(column)) >> (column * STRIDE) << ((WIDTH - 1 - column) * STRIDE)
    return out


def connect_four_key(x: int, o: int) -> int:
    """The class key of the Connect Four position with bitboards ``x`` and ``o``."""
    shift = WIDTH * STRIDE
    return min(x << shift | o, _mirror(x) << shift | _mirror(o))
