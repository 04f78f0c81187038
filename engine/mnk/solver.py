"""The exact solver for m,n,k games (4x4 and 5x5, four in a row): negamax alpha-beta with depth-aware scores.

Sources: negamax and fail-soft alpha-beta (Knuth & Moore, "An analysis of alpha-beta pruning", 1975); a
transposition table of exact values and bounds (Marsland, 1986) keyed by symmetry class near the root; the
threat rules of k-in-a-row solvers (Allis, *Searching for Solutions in Games and Artificial Intelligence*,
1994; Uiterwijk, "Solving Strong and Weak 4-in-a-Row", IEEE CoG 2019); mate-distance bounds (the window
is clamped to the best and worst score still reachable).

**Scores.** From the side to move's point of view, a win completed when the board holds ``n`` marks is
worth ``cells + 1 - n``, the loss ``-(cells + 1 - n)``, a draw 0: the fastest win and the slowest loss
score best. The score of a position depends on the position alone, so the table needs no adjustment.

**The threat rules** are exact. The side to move that can complete a line wins now. Otherwise, if the
opponent can complete two different lines next move, the side to move loses in two plies; if one, the
block is the only move searched (every other move loses at once, the block never sooner).

**States evaluated** are nodes visited: one per position the search examines below the root, including
positions settled by a threat rule, by the table or by a bound. Settled root moves (a win now) count one.

**A deadline** stops a search: a kernel whose :attr:`~Kernel.deadline` is set reads the clock every
:data:`STOP_CHECK` + 1 states and, once it has passed, sets :attr:`~Kernel.stopped` and unwinds without storing
anything (its table keeps only finished work); the states counted up to then stay in :attr:`~Kernel.count`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from engine.mnk.rules import TicTacToe
from engine.native import native_module

__all__ = [
    "INF",
    "NATIVE",
    "STOP_CHECK",
    "Kernel",
    "PyKernel",
    "initial_threats",
    "move_value",
    "new_kernel",
    "threats_after",
]

INF = 1_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
_SYMMETRY_PLIES = 9
"""Positions with at most this many marks are stored under one key per symmetry class (the cost of the
eight transforms pays off only near the root, where transpositions by symmetry are common)."""
STOP_CHECK = 0x3FFF  # a kernel with a deadline reads the clock when count & STOP_CHECK is 0: every 16,384 states
_TABLE_LIMIT = 1_000_000
"""The table is emptied when it holds more entries than this (a bound on memory, about 250 MB at worst)."""


def initial_threats(game: TicTacToe, mine: int) -> int:
    """The cells (a mask, occupied ones included) that would complete a line for a side holding ``mine``."""
    cells = 0
    for line in game.lines:
        missing = line & ~mine
        if missing and not missing & (missing - 1):
            cells |= missing
    return cells


def threats_after(game: TicTacToe, threats: int, mine: int, cell: int) -> int:
    """``threats`` (see :func:`initial_threats`) after the side holding ``mine`` (``cell`` included) took ``cell``."""
    for line in game.lines_through[cell]:
        missing = line & ~mine
        if not missing & (missing - 1):
            threats |= missing
    return threats


def _static_order(game: TicTacToe) -> tuple[int, ...]:
    """Cells by the number of lines through them, most first, then nearest the centre."""
    centre_r, centre_c = (game.v - 1) / 2, (game.h - 1) / 2

    def rank(cell: int) -> tuple[int, float, int]:
        r, c = divmod(cell, game.h)
        return (-len(game.lines_through[cell]), abs(r - centre_r) + abs(c - centre_c), cell)

    return tuple(sorted(range(game.cells), key=rank))


def _symmetry_tables(game: TicTacToe) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``tables[s][row][bits]``: the mask that row ``row`` holding ``bits`` becomes under symmetry ``s``."""
    h = game.h
    return tuple(
        tuple(
            tuple(sum(1 << perm[row * h + c] for c in range(h) if bits >> c & 1) for bits in range(1 << h))
            for row in range(game.v)
        )
        for perm in game.symmetries
    )


class Kernel(Protocol):
    """A value function with its node counter and transposition table: :class:`PyKernel` or the C one."""

    count: int
    deadline: float  # time.monotonic() seconds at which a search stops (0: none)
    stopped: bool  # a search passed the deadline: the values returned since mean nothing (the caller resets it)

    def value(self, me: int, opp: int, n: int, alpha: int, beta: int, mine: int, theirs: int) -> int:
        """The score for the side to move (masks ``me``, ``opp``; ``n`` marks) within (alpha, beta), fail-soft.

        ``mine`` and ``theirs`` are the threat masks of :func:`initial_threats` for ``me`` and ``opp``;
        ``opp`` has not won and the board is not full.
        """
        ...

    def clear(self) -> None:
        """Empty the transposition table."""
        ...


class PyKernel:
    """One solver's transposition table, node counter and value function, for one :class:`TicTacToe`.

    The table persists between calls (values are exact facts about positions), so a caller that keeps
    the kernel reuses earlier work; :attr:`count` grows by the nodes each call visits.
    """

    def __init__(self, game: TicTacToe) -> None:
        self.game = game
        self.count = 0
        self.deadline = 0.0
        self.stopped = False
        self.table: dict[int, tuple[int, int, int]] = {}
        self.order = _static_order(game)
        self._sym = _symmetry_tables(game)
        self.value: Callable[[int, int, int, int, int, int, int], int] = self._build()

    def clear(self) -> None:
        """Empty the transposition table."""
        self.table.clear()

    def canonical_key(self, me: int, opp: int) -> int:
        """The smallest ``me' << cells | opp'`` over the board's symmetric images of a position."""
        h, rows, shift, row_mask = self.game.h, range(self.game.v), self.game.cells, (1 << self.game.h) - 1
        best = -1
        for table in self._sym:
            a = b = 0
            for row in rows:
                a |= table[row][me >> (row * h) & row_mask]
                b |= table[row][opp >> (row * h) & row_mask]
            key = a << shift | b
            if best < 0 or key < best:
                best = key
        return best

    def _build(self) -> Callable[[int, int, int, int, int, int, int], int]:
        game = self.game
        cells, full, through, order = game.cells, game.full, game.lines_through, self.order
        table, canonical_key, limit = self.table, self.canonical_key, _TABLE_LIMIT
        lookup = table.get
        kernel = self

        def value(me: int, opp: int, n: int, alpha: int, beta: int, mine: int, theirs: int) -> int:
            """The score for the side to move (masks ``me``, ``opp``; ``n`` marks) within (alpha, beta), fail-soft.

            ``mine`` and ``theirs`` are the threat masks of :func:`initial_threats` for ``me`` and ``opp``.
            ``opp`` has not won and the board is not full.
            """
            if kernel.stopped:
                return 0
            kernel.count += 1
            if kernel.deadline and not kernel.count & STOP_CHECK and time.monotonic() >= kernel.deadline:
                kernel.stopped = True
                return 0
            free = full ^ (me | opp)
            if mine & free:
                return cells - n
            left = cells - n
            if left == 1:
                return 0
            forced = theirs & free
            if forced:
                if forced & (forced - 1):
                    return n + 1 - cells
                cell = forced.bit_length() - 1
                me |= forced
                for line in through[cell]:
                    missing = line & ~me
                    if not missing & (missing - 1):
                        mine |= missing
                return -value(opp, me, n + 1, -beta, -alpha, theirs, mine)
            high = left - 2  # no win now, so the fastest is a win with the third mark from now
            low = 3 - left if left > 3 else 0  # the opponent has no threat: its fastest win is two moves away
            if high <= alpha:
                return high
            if low >= beta:
                return low
            if high < beta:
                beta = high
            if low > alpha:
                alpha = low
            key = canonical_key(me, opp) if n <= _SYMMETRY_PLIES else me << cells | opp
            entry = lookup(key)
            hint = -1
            if entry is not None:
                flag, stored, hint = entry
                if flag == _EXACT:
                    return stored
                if flag == _LOWER:
                    if stored >= beta:
                        return stored
                    if stored > alpha:
                        alpha = stored
                elif stored <= alpha:
                    return stored
                elif stored < beta:
                    beta = stored
                if n <= _SYMMETRY_PLIES:
                    hint = -1  # stored in another orientation
            alpha_in = alpha
            best, best_cell = -INF, -1
            moves = [c for c in order if free >> c & 1]
            if hint >= 0 and free >> hint & 1:
                moves.remove(hint)
                moves.insert(0, hint)
            n1 = n + 1
            for cell in moves:
                child = me | (1 << cell)
                threats = mine
                for line in through[cell]:
                    missing = line & ~child
                    if not missing & (missing - 1):
                        threats |= missing
                v = -value(opp, child, n1, -beta, -alpha, theirs, threats)
                if kernel.stopped:
                    return 0  # a stopped search stores nothing
                if v > best:
                    best, best_cell = v, cell
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if len(table) >= limit:
                table.clear()
            table[key] = (_UPPER if best <= alpha_in else _LOWER if best >= beta else _EXACT, best, best_cell)
            return best

        return value


def _load_native() -> type | None:
    module = native_module("engine.mnk._mnk_c")
    return None if module is None else module.CKernel


_NATIVE = _load_native()
NATIVE = _NATIVE is not None
"""True when the C kernel (``engine/mnk/_mnk_c.c``, built by ``pip install -e .``) is importable and not turned off
by the environment variable ``TTT_ENGINE_PURE_PYTHON``; otherwise :func:`new_kernel` returns a :class:`PyKernel`."""


def new_kernel(game: TicTacToe, *, native: bool | None = None) -> Kernel:
    """A fresh kernel (empty table, count 0) for ``game``: the C one when available, else :class:`PyKernel`.

    Raises:
        RuntimeError: ``native=True`` but the C kernel is not available.
    """
    if native is None:
        native = NATIVE
    if not native:
        return PyKernel(game)
    if _NATIVE is None:
        raise RuntimeError("the C kernel engine.mnk._mnk_c is not built (run pip install -e . with a C compiler)")
    kernel: Kernel = _NATIVE(game.cells, game.lines_through, _static_order(game), game.symmetries, _SYMMETRY_PLIES)
    return kernel


def move_value(
    kernel: Kernel, game: TicTacToe, me: int, opp: int, cell: int, alpha: int = -INF, beta: int = INF
) -> int:
    """The score for the side to move (``me``) of playing ``cell``, fail-soft within (alpha, beta).

    The position must not be over and ``cell`` must be empty. A move that completes a line counts one
    node and scores ``cells - n``; otherwise the child is searched (its nodes are added to ``kernel.count``).
    """
    n = (me | opp).bit_count()
    child = me | (1 << cell)
    mine = initial_threats(game, me)
    if mine >> cell & 1:
        kernel.count += 1
        return game.cells - n
    if n + 1 == game.cells:
        kernel.count += 1
        return 0
    threats = threats_after(game, mine, child, cell)
    return -kernel.value(opp, child, n + 1, -beta, -alpha, initial_threats(game, opp), threats)
