"""The static evaluation of Connect Four at the weaker levels' search horizon (AIMA §5.4: a heuristic at the cut-off).

Two terms, both for the side to move and against its opponent:

- **Windows of four.** Each of the board's 69 lines of four cells (:data:`WINDOWS`) that holds discs of one side
  only scores for that side by how many it holds (:data:`WINDOW_WEIGHTS`: 1, 8, 64 for 1-3).
- **Threat parity.** An empty cell that would complete four for a side is a threat. The first player (X) profits
  from threats on the odd rows (1, 3, 5 from the bottom), the second (O) from those on the even rows: when the
  other columns fill up, zugzwang makes the opponent play under such a threat (Allis, "A Knowledge-based Approach
  of Connect-Four", 1988, §3: the rule of odd and even threats). Each threat on its side's rows scores
  :data:`PARITY_WEIGHT` more.

The windows are counted all at once with bitboards (:mod:`engine.connect_four.rules`): for each direction, the four
shifted copies of a side's discs are added bit by bit, so each start cell's bits say how many discs its window holds.
"""

from __future__ import annotations

from engine.connect_four.rules import BOARD, BOTTOM, STRIDE
from engine.connect_four.solver import threat_cells

__all__ = ["EVEN_ROWS", "ODD_ROWS", "PARITY_WEIGHT", "WINDOWS", "WINDOW_WEIGHTS", "evaluate", "windows_score"]

WINDOW_WEIGHTS = (0, 1, 8, 64)
"""The worth of a window open to one side holding 0-3 of its discs."""
PARITY_WEIGHT = 48
"""The extra worth of a threat on its side's rows (odd rows for X, even rows for O)."""
ODD_ROWS = BOTTOM * 0b010101
"""The cells of rows 1, 3 and 5 counted from the bottom (bit rows 0, 2, 4)."""
EVEN_ROWS = BOTTOM * 0b101010
"""The cells of rows 2, 4 and 6 counted from the bottom."""

_DIRECTIONS = (1, STRIDE, STRIDE - 1, STRIDE + 1)  # vertical, horizontal, and the two diagonals
_LINES = tuple((s, BOARD & (BOARD >> s) & (BOARD >> 2 * s) & (BOARD >> 3 * s)) for s in _DIRECTIONS)
"""Per direction: its shift ``s``, and the cells where a window of four on the board starts (its other cells ``s``,
``2s`` and ``3s`` bits above)."""


def _windows() -> tuple[int, ...]:
    found = []
    for shift, starts in _LINES:
        found += [sum(1 << (b + i * shift) for i in range(4)) for b in range(starts.bit_length()) if starts >> b & 1]
    return tuple(found)


WINDOWS = _windows()
"""The 69 lines of four cells (bitboard masks)."""


def _count_score(a: int, b: int, c: int, d: int, open_: int) -> int:
    """The worth of the windows starting at ``open_``'s cells, whose four cells' discs are ``a``-``d`` (each window
    at the same bit of the four): the four are added bit by bit into the count's low bit and "2 or more"."""
    ab, cd = a ^ b, c ^ d
    odd = ab ^ cd
    pairs = (a & b) | (c & d) | (ab & cd)
    return (
        (open_ & odd & ~pairs).bit_count() * WINDOW_WEIGHTS[1]
        + (open_ & ~odd & pairs & ~(a & b & c & d)).bit_count() * WINDOW_WEIGHTS[2]
        + (open_ & odd & pairs).bit_count() * WINDOW_WEIGHTS[3]
    )


def windows_score(me: int, opp: int) -> int:
    """The windows term: the worth of ``me``'s windows free of ``opp``'s discs, minus that of ``opp``'s."""
    score = 0
    for shift, starts in _LINES:
        m1, m2, m3 = me >> shift, me >> 2 * shift, me >> 3 * shift
        o1, o2, o3 = opp >> shift, opp >> 2 * shift, opp >> 3 * shift
        if mine := starts & ~(opp | o1 | o2 | o3):
            score += _count_score(me, m1, m2, m3, mine)
        if theirs := starts & ~(me | m1 | m2 | m3):
            score -= _count_score(opp, o1, o2, o3, theirs)
    return score


def evaluate(me: int, opp: int) -> int:
    """The static worth of a position for the side to move, whose discs are ``me`` (bitboards; the side to move is X
    when both sides hold as many discs): windows and threat parity (see the module), its own minus the opponent's.
    Points on the scale of :data:`WINDOW_WEIGHTS`; a position with four in a row is the search's to score."""
    occupied = me | opp
    mine_good, theirs_good = (ODD_ROWS, EVEN_ROWS) if me.bit_count() == opp.bit_count() else (EVEN_ROWS, ODD_ROWS)
    parity = (threat_cells(me, occupied) & mine_good).bit_count() - (
        threat_cells(opp, occupied) & theirs_good
    ).bit_count()
    return windows_score(me, opp) + PARITY_WEIGHT * parity
