"""The exact Connect Four solver: negamax alpha-beta on bitboards, narrowed by null-window searches.

Sources: negamax and fail-soft alpha-beta (Knuth & Moore, "An analysis of alpha-beta pruning", 1975); the
null-window searches that narrow the value to one score, as MTD(f) and the Connect Four solvers do (Plaat et al.,
"Best-first fixed-depth minimax algorithms", 1996; Pons, "Solving Connect 4", 2019); a transposition table of
bounds and best moves (Marsland, 1986); the bitboard and its key (Tromp; Pons); move ordering: the table's best move
from an earlier search of the position, then centre first and by the threats a move creates (Allis, *A
Knowledge-based Approach of Connect-Four*, 1988, on the value of threats).

**Scores.** From the side to move's point of view, a win completed when the board holds ``n`` discs is worth
``CELLS + 1 - n`` (43 - n), the loss its negation, a draw 0: the fastest win and the slowest loss score best, and a
score depends on the position alone.

**Threats, exactly.** The side to move never searches a position where it can win at once (the caller plays the
win). The side to move must block an opponent's immediate win; two of them lose in two plies; a disc under an
opponent's winning cell loses in two plies too; when every move is one of those, the position is lost in two.

**States evaluated** are calls of the value function: one per position the search examines, including positions
settled by a threat rule, by the table or by a bound; a root that wins at once counts one.

**A deadline** stops a search (:func:`solve_by`): the kernel reads the clock every :data:`STOP_CHECK` + 1 states and,
once the deadline has passed, unwinds without storing anything, so its table holds only finished work; the states
counted up to then are kept.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from engine.connect_four.rules import (
    BOARD,
    BOTTOM,
    CELLS,
    CONNECT_FOUR,
    STRIDE,
    ConnectFourState,
    column_mask,
    has_four,
)
from engine.native import native_module
from engine.protocol import GameValue

__all__ = [
    "CENTRE_FIRST",
    "NATIVE",
    "STOP_CHECK",
    "TABLE_BITS",
    "Kernel",
    "PyKernel",
    "Solution",
    "column_values",
    "new_kernel",
    "score_value",
    "solve",
    "solve_by",
    "threat_cells",
]

TABLE_BITS = 22
"""The table holds 2^22 entries (a slot per key hash, always replaced): about 64 MB in C."""
_MULTIPLIER = 0x9E3779B97F4A7C15  # Fibonacci hashing (Knuth, TAOCP vol. 3, §6.4)
_MASK64 = (1 << 64) - 1
STOP_CHECK = 0x3FFF  # a kernel with a deadline reads the clock when count & STOP_CHECK is 0: every 16,384 states
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
"""Columns by distance from the centre, the tie order of the move ordering."""


def threat_cells(mine: int, mask: int) -> int:
    """The empty cells (anywhere on the board, playable or not) that would give ``mine`` four in a row.

    ``mask`` holds every disc on the board. For each direction, a cell completes a four when three of its
    neighbours along that direction are ``mine`` in one of four patterns (the cell last, third, second or first).
    """
    cells = (mine << 1) & (mine << 2) & (mine << 3)  # vertical: three below
    for shift in (STRIDE, STRIDE - 1, STRIDE + 1):
        pair = (mine << shift) & (mine << (2 * shift))
        cells |= pair & ((mine << (3 * shift)) | (mine >> shift))
        pair = (mine >> shift) & (mine >> (2 * shift))
        cells |= pair & ((mine << shift) | (mine >> (3 * shift)))
    return cells & (BOARD ^ mask)


class Kernel(Protocol):
    """A value function with its node counter and transposition table: :class:`PyKernel` or the C one."""

    count: int
    deadline: float  # time.monotonic() seconds at which a search stops (0: none)
    stopped: bool  # a search passed the deadline: the values returned since mean nothing (the caller resets it)

    def value(self, cur: int, mask: int, n: int, alpha: int, beta: int) -> int:
        """The score for the side to move (discs ``cur``; every disc ``mask``; ``n`` discs), fail-soft in (alpha, beta).

        The side to move cannot win at once and the game is not over.
        """
        ...

    def clear(self) -> None:
        """Empty the transposition table."""
        ...


class PyKernel:
    """The value function in pure Python, with its transposition table and node counter (the C kernel's twin).

    The table is a dict standing in for the C kernel's array: one entry per slot, the slot chosen by the same hash
    and always replaced, so both kernels visit the same positions and count the same states.
    """

    def __init__(self, table_bits: int = TABLE_BITS) -> None:
        if not 1 <= table_bits <= 30:
            raise ValueError(f"table_bits {table_bits!r}: choose 1-30")
        self.count = 0
        self.deadline = 0.0
        self.stopped = False
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.value: Callable[[int, int, int, int, int], int] = self._build(64 - table_bits)

    def clear(self) -> None:
        """Empty the transposition table."""
        self.table.clear()

    def _build(self, hash_shift: int) -> Callable[[int, int, int, int, int], int]:
        table, lookup, kernel = self.table, self.table.get, self
        columns = tuple(column_mask(column) for column in CENTRE_FIRST)

        def value(cur: int, mask: int, n: int, alpha: int, beta: int) -> int:
            if kernel.stopped:
                return 0
            kernel.count += 1
            if kernel.deadline and not kernel.count & STOP_CHECK and time.monotonic() >= kernel.deadline:
                kernel.stopped = True
                return 0
            opp = cur ^ mask
            possible = (mask + BOTTOM) & BOARD
            opp_wins = threat_cells(opp, mask)
            forced = possible & opp_wins
            if forced:
                if forced & (forced - 1):
                    return n - 41  # two cells to block: the opponent wins with disc n + 2
                possible = forced
            possible &= ~(opp_wins >> 1)
            if not possible:
                return n - 41
            if n >= CELLS - 2:
                return 0  # a safe disc now, and the opponent's last one cannot win
            low, high = n - 39, 40 - n  # lose with disc n + 4 at worst; win with disc n + 3 at best
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            key = cur + mask
            slot = ((key * _MULTIPLIER) & _MASK64) >> hash_shift
            entry = lookup(slot)
            stored_low, stored_high, hint = low, high, 0
            if entry is not None and entry[0] == key:
                stored_low, stored_high, hint = entry[1], entry[2], entry[3]
                if stored_low >= beta:
                    return stored_low
                if stored_high <= alpha:
                    return stored_high
                if stored_low > alpha:
                    alpha = stored_low
                if stored_high < beta:
                    beta = stored_high
            moves: list[tuple[int, int]] = []
            for column in columns:
                move = possible & column
                if move:
                    threats = threat_cells(cur | move, mask | move).bit_count()
                    at = len(moves)
                    while at and moves[at - 1][0] < threats:
                        at -= 1
                    moves.insert(at, (threats, move))
            if hint:  # the best move of an earlier search of this position goes first
                for at, (_, move) in enumerate(moves):
                    if move == hint:
                        moves.insert(0, moves.pop(at))
                        break
            alpha_in, best, best_move = alpha, -CELLS, 0
            for _, move in moves:
                v = -value(opp, mask | move, n + 1, -beta, -alpha)
                if kernel.stopped:
                    return 0  # a stopped search stores nothing
                if v > best:
                    best, best_move = v, move
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if best <= alpha_in:
                stored_high = min(stored_high, best)
            elif best >= beta:
                stored_low = max(stored_low, best)
            else:
                stored_low = stored_high = best
            table[slot] = (key, stored_low, stored_high, best_move)
            return best

        return value


def _load_native() -> type | None:
    module = native_module("engine.connect_four._connect_four_c")
    return None if module is None else module.CKernel


_NATIVE = _load_native()
NATIVE = _NATIVE is not None
"""True when the C kernel (``engine/connect_four/_connect_four_c.c``, built by ``pip install -e .``) is importable
and not turned off by ``TTT_ENGINE_PURE_PYTHON``; otherwise :func:`new_kernel` returns a :class:`PyKernel`."""


def new_kernel(*, native: bool | None = None, table_bits: int = TABLE_BITS) -> Kernel:
    """A fresh kernel (empty table, count 0): the C one when available, else :class:`PyKernel`.

    Raises:
        RuntimeError: ``native=True`` but the C kernel is not available.
        ValueError: ``table_bits`` outside 1-30.
    """
    if native is None:
        native = NATIVE
    if not native:
        return PyKernel(table_bits)
    if _NATIVE is None:
        raise RuntimeError("the C kernel engine.connect_four._connect_four_c is not built (pip install -e .)")
    kernel: Kernel = _NATIVE(table_bits)
    return kernel


@dataclass(frozen=True, slots=True)
class Solution:
    """A solved position.

    Attributes:
        value: the exact value for the side to move, with the plies to the end of the game.
        score: the same as a score (see the module's docstring).
        states: states the solve evaluated (value-function calls).
    """

    value: GameValue
    score: int
    states: int


def score_value(score: int, discs: int) -> GameValue:
    """The :class:`GameValue` of ``score`` (see the module's docstring) in a position holding ``discs`` discs."""
    if score > 0:
        return GameValue("win", CELLS + 1 - score - discs)
    if score < 0:
        return GameValue("loss", CELLS + 1 + score - discs)
    return GameValue("draw", CELLS - discs)


def _sides(state: ConnectFourState) -> tuple[int, int]:
    """(the side to move's discs, every disc)."""
    mask = state.x | state.o
    return (state.x if state.x.bit_count() == state.o.bit_count() else state.o), mask


def solve(state: ConnectFourState, kernel: Kernel | None = None) -> Solution:
    """The exact value of ``state`` for the side to move: :func:`solve_by` without a deadline."""
    solution = solve_by(state, kernel, 0.0)
    assert solution is not None, "a search without a deadline always ends"
    return solution


def solve_by(state: ConnectFourState, kernel: Kernel | None, deadline: float) -> Solution | None:
    """The exact value of ``state`` for the side to move, by null-window searches that halve the range of scores
    still possible (biased towards 0, where most positions lie), each a call of ``kernel.value``; ``None`` when the
    search passed ``deadline`` (:func:`time.monotonic` seconds; 0 for none), its states then counted in
    ``kernel.count`` only. ``kernel`` (default: a fresh :func:`new_kernel`) keeps its table between calls, so
    solving related positions with one kernel reuses work; :attr:`Solution.states` counts this call's states only."""
    kernel = kernel if kernel is not None else new_kernel()
    before = kernel.count
    cur, mask = _sides(state)
    n = mask.bit_count()
    opp = cur ^ mask
    if has_four(opp):
        return Solution(GameValue("loss", 0), -(CELLS + 1 - n), 1)
    if n == CELLS:
        return Solution(GameValue("draw", 0), 0, 1)
    if threat_cells(cur, mask) & (mask + BOTTOM):
        score = CELLS - n
        return Solution(score_value(score, n), score, 1)
    kernel.deadline, kernel.stopped = deadline, False
    try:
        if n == CELLS - 1:
            score = kernel.value(cur, mask, n, -CELLS, CELLS)
        else:
            low, high = n - 41, 40 - n
            while low < high and not kernel.stopped:
                middle = low + (high - low) // 2
                if middle <= 0 and low // 2 < middle:
                    middle = low // 2
                elif middle >= 0 and high // 2 > middle:
                    middle = high // 2
                found = kernel.value(cur, mask, n, middle, middle + 1)
                if found <= middle:
                    high = found
                else:
                    low = found
            score = low
        if kernel.stopped:
            return None  # the finally clause resets the kernel first
    finally:
        kernel.deadline, kernel.stopped = 0.0, False
    return Solution(score_value(score, n), score, kernel.count - before)


def column_values(state: ConnectFourState, kernel: Kernel | None = None) -> dict[int, GameValue]:
    """Every legal column's exact value for the side to move (a win now is ``win`` in 1), by :func:`solve` on
    each child with one shared kernel. Empty when the game is over."""
    kernel = kernel if kernel is not None else new_kernel()
    values: dict[int, GameValue] = {}
    for column in CONNECT_FOUR.actions(state):
        child = CONNECT_FOUR.result(state, column)
        if CONNECT_FOUR.terminal(child):
            values[column] = GameValue("draw" if CONNECT_FOUR.winner(child) is None else "win", 1)
            continue
        after = solve(child, kernel).value
        flipped = {"win": "loss", "loss": "win", "draw": "draw"}[after.result]
        values[column] = GameValue(flipped, after.plies + 1)  # type: ignore[arg-type]
    return values
