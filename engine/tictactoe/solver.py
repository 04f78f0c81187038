"""Exact game-theoretic values of positions, memoised: the engine's reference for reviews and
principal variations. This is not a search that reports a state count.

Values are *depth-aware*, as in the seeds 003/004 and :mod:`engine.minimax.search`: for the side to move, a
win completed when the board holds ``n`` marks is worth ``10 - n``, the matching loss ``-(10 - n)``,
a draw 0. So the fastest win and the slowest loss score best. :func:`exact_value` is plain negamax
(Knuth & Moore, 1975) over every legal move, memoised by position; tic-tac-toe has 5,478 reachable
positions (4,520 of them not over), so the memo stays small and every later call is one lookup.
"""

from __future__ import annotations

from functools import cache

from engine.protocol import GameValue
from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import Mark, State, player

__all__ = ["best_move", "exact_value", "value_for", "value_of"]


@cache
def exact_value(me: int, opp: int) -> int:
    """The exact depth-aware value (see the module docstring) for the side to move.

    Args:
        me: 9-bit mask of the side to move.
        opp: 9-bit mask of the side that just moved.

    Returns:
        ``10 - n`` (a win ending with ``n`` marks on the board), ``-(10 - n)`` (a loss) or 0 (a draw).
        A finished game is valued as it stands: the side that just moved won, or it is a draw.
    """
    occupied = me | opp
    if bb.WINS[opp]:
        return -(10 - bb.POPCOUNT[occupied])
    if occupied == bb.FULL:
        return 0
    return max(-exact_value(opp, me | (1 << cell)) for cell in bb.FREE_CELLS[occupied])


@cache
def best_move(me: int, opp: int) -> int:
    """The first cell in centre-first order (4, corners, edges) with the best :func:`exact_value`.

    Args:
        me, opp: as for :func:`exact_value`; the game must not be over.

    Raises:
        ValueError: the game is over (no move to choose).
    """
    occupied = me | opp
    if bb.WINS[opp] or occupied == bb.FULL:
        raise ValueError("the game is over: there is no best move")
    free = [cell for cell in bb.CENTRE_CORNERS_EDGES if not occupied >> cell & 1]
    return max(free, key=lambda cell: -exact_value(opp, me | (1 << cell)))


def value_of(value: int, marks: int) -> GameValue:
    """Turn a depth-aware value of a position holding ``marks`` marks (0-9) into a :class:`GameValue`."""
    if value > 0:
        return GameValue("win", 10 - value - marks)
    if value < 0:
        return GameValue("loss", 10 + value - marks)
    return GameValue("draw", 9 - marks)


def value_for(state: State, mark: Mark) -> GameValue:
    """The exact :class:`GameValue` of ``state`` for ``mark`` (either side, whoever is to move).

    ``state`` is assumed legal (built with :func:`engine.result` or :func:`engine.parse_board`).
    """
    to_move = player(state)
    me, opp = (state.x, state.o) if to_move is Mark.X else (state.o, state.x)
    value = exact_value(me, opp)
    return value_of(value if mark is to_move else -value, state.marks)
