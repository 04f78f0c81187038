"""The static evaluation of an Ultimate tic-tac-toe position, for the depth-limited search.

Our own heuristic, in the spirit of the usual ones for the game (a won small board is worth much, two in an
open line is worth more than one, the centre counts most): scores are integers in *points*, from the point
of view of the side to move, and a won small board is worth about 100 points. Two precomputed tables make it
cheap (about 10 us a call):

- :data:`LOCAL` scores one open small board for the side whose marks are ``m`` against ``o``: open lines
  (lines holding no enemy mark) with two own marks and with one, minus the same for the enemy. Index
  ``m << 9 | o``, 9-bit masks.
- :data:`META` scores the grid of small boards for one side: each won board by its place, and each
  line of the grid not blocked by an enemy's or a drawn board, by how many boards of it are won.

A small board's local score is weighted by its place in the grid (:data:`BOARD_WEIGHT`, the centre most):
winning it counts in more lines of the grid. The side to move earns :data:`FREE_MOVE` points when it may
play in any open board.
"""

from __future__ import annotations

from engine.ultimate.rules import LINE_MASKS

__all__ = ["BOARD_WEIGHT", "FREE_MOVE", "LOCAL", "META", "evaluate"]

#: Open-line weights on a small board: (one own mark, two own marks).
LOCAL_LINE = (1, 6)
#: Open-line weights on the grid of small boards: (one won board, two won boards).
META_LINE = (25, 180)
#: A won small board's worth by its place: corner, edge, centre.
WON_BOARD = (100, 90, 120)
BOARD_WEIGHT = (4, 3, 4, 3, 5, 3, 4, 3, 4)
FREE_MOVE = 25
_PLACE = (0, 1, 0, 1, 2, 1, 0, 1, 0)


def _open_lines(mine: int, theirs: int, weights: tuple[int, int]) -> int:
    total = 0
    for line in LINE_MASKS:
        if not line & theirs:
            count = (line & mine).bit_count()
            if count == 1 or count == 2:
                total += weights[count - 1]
    return total


def _tables() -> tuple[list[int], list[int]]:
    local = [0] * (1 << 18)
    meta = [0] * (1 << 18)
    for m in range(512):
        rest = 511 & ~m
        o = rest
        while True:  # every submask o of the cells m leaves free
            local[m << 9 | o] = _open_lines(m, o, LOCAL_LINE) - _open_lines(o, m, LOCAL_LINE)
            won = sum(WON_BOARD[_PLACE[b]] for b in range(9) if m >> b & 1)
            meta[m << 9 | o] = won + _open_lines(m, o, META_LINE)
            if o == 0:
                break
            o = (o - 1) & rest
    return local, meta


LOCAL, META = _tables()


def evaluate(me: int, opp: int, my_boards: int, opp_boards: int, closed: int, forced: int) -> int:
    """The position's worth in points for the side to move (positive: better for it).

    Args:
        me, opp: the side to move's and the other side's marks, 81-bit board-major masks.
        my_boards, opp_boards: 9-bit masks of the small boards each has won.
        closed: 9-bit mask of the closed small boards.
        forced: the board the side to move must play in, or -1 for any.
    """
    score = 0
    for b in range(9):
        if not closed >> b & 1:
            shift = 9 * b
            score += LOCAL[(me >> shift & 511) << 9 | (opp >> shift & 511)] * BOARD_WEIGHT[b]
    dead = closed & ~(my_boards | opp_boards)
    score += META[my_boards << 9 | (opp_boards | dead)] - META[opp_boards << 9 | (my_boards | dead)]
    if forced < 0:
        score += FREE_MOVE
    return score
