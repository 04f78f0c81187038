"""Proofs of Connect Four puzzles by the exact solver of :mod:`engine.connect_four.solver`.

The solver's scores are depth-aware (a win completed when the board holds ``n`` discs is worth ``43 - n``), so "the
side to move wins within ``k`` of its moves" is one null-window test, as on 4x4 and 5x5
(:mod:`engine.mnk.proof`): with ``n`` discs on the board, the side's ``k``-th disc is disc ``n + 2k - 1``,
worth ``t = 44 - n - 2k``, and a move wins that fast when the defender's fail-soft value after it, in the window
``(-t, -t + 1)``, is at most ``-t`` (Pearl's test, as in MTD(f): Plaat et al., 1996). The line is found as lichess
finds its mates: one winning move at every solver turn, the defender holding out longest.

Positions are bitboards inside (``cur``, the side to move's discs, and ``mask``, every disc: the solver's); moves
are the cells discs fall to outside (:mod:`engine.connect_four.cells`), as the puzzles store them.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.connect_four.cells import CELLS_GAME, bit_of, cell_of
from engine.connect_four.rules import BOARD, BOTTOM, CELLS, STRIDE, WIDTH, ConnectFourState, column_mask, has_four
from engine.connect_four.solver import Kernel, new_kernel, threat_cells
from engine.protocol import PuzzleLine

__all__ = ["MAX_WIN_IN", "TABLE_BITS", "ConnectFourProver", "drops", "replay", "sides"]

MAX_WIN_IN = 5
"""The longest puzzle, in the solver's moves (9 plies)."""
TABLE_BITS = 20
"""The prover's transposition table: 2^20 entries (about 16 MB in C), plenty for searches of at most 9 plies."""


def drops(mask: int) -> list[int]:
    """The bit each column's next disc takes, left to right, for the columns that are not full."""
    found = []
    for column in range(WIDTH):
        disc = (mask + (1 << (column * STRIDE))) & column_mask(column)
        if disc:
            found.append(disc)
    return found


def sides(moves: Sequence[int]) -> tuple[int, int]:
    """``(cur, mask)`` after ``moves`` (0-based cells): the side to move's discs and every disc.

    Raises:
        IllegalMoveError: (a subclass) a move cannot be played.
    """
    state = replay(moves)
    mask = state.x | state.o
    return (state.x if len(moves) % 2 == 0 else state.o), mask


def replay(moves: Sequence[int]) -> ConnectFourState:
    """The state after ``moves`` (0-based cells) from the empty board.

    Raises:
        IllegalMoveError: (a subclass) a move cannot be played.
    """
    state = CELLS_GAME.initial_state()
    for cell in moves:
        state = CELLS_GAME.result(state, cell)
    return state


class ConnectFourProver:
    """Finds Connect Four puzzle lines; keeps one solver kernel (its table persists between proofs)."""

    def __init__(self, kernel: Kernel | None = None) -> None:
        self.kernel = kernel if kernel is not None else new_kernel(table_bits=TABLE_BITS)

    def wins_with(self, cur: int, mask: int, disc: int, k: int) -> bool:
        """True when the side to move (discs ``cur``, every disc ``mask``) dropping ``disc`` (a bit) wins within
        ``k`` of its moves, against any defence."""
        if has_four(cur | disc):
            return True
        n = mask.bit_count() + 1
        mask |= disc
        opp = cur ^ (mask ^ disc)
        if k <= 1 or n == CELLS or threat_cells(opp, mask) & (mask + BOTTOM) & BOARD:
            return False  # no time left, a full board, or the defender wins at once
        t = max(1, 44 - (n - 1) - 2 * k)  # at least 1: a draw scores 0
        return self.kernel.value(opp, mask, n, -t, -t + 1) <= -t

    def winning_moves(self, cur: int, mask: int, k: int) -> list[int]:
        """The discs (bits) of the side to move that win within ``k`` of its moves, column by column."""
        return [disc for disc in drops(mask) if self.wins_with(cur, mask, disc, k)]

    def fastest(self, cur: int, mask: int, limit: int = MAX_WIN_IN) -> tuple[int, list[int]] | None:
        """``(N, discs)``: the fewest moves N <= ``limit`` in which the side to move forces a win, and the discs that
        do it; ``None`` when there is no such win."""
        for k in range(1, limit + 1):
            found = self.winning_moves(cur, mask, k)
            if found:
                return k, found
        return None

    def line(self, cur: int, mask: int, k: int) -> PuzzleLine | None:
        """The puzzle line (cells) when the side to move wins in exactly ``k`` moves with one winning move at each
        turn; ``None`` when two moves win that fast somewhere on every longest defence, or no move does."""
        found = self.winning_moves(cur, mask, k)
        if len(found) != 1:
            return None
        disc = found[0]
        cell = cell_of(disc.bit_length() - 1)
        if k == 1:
            return PuzzleLine((cell,), ())
        mine, mask = cur | disc, mask | disc
        for reply in drops(mask):
            after = mask | reply
            if self.fastest(mine, after, k - 2) is not None:
                continue  # a shorter loss: not the longest resistance
            rest = self.line(mine, after, k - 1)
            if rest is not None:
                return PuzzleLine((cell, *rest.solution), (cell_of(reply.bit_length() - 1), *rest.replies))
        return None

    def prove(self, moves: Sequence[int], limit: int = MAX_WIN_IN) -> PuzzleLine | None:
        """The puzzle line of the position after ``moves`` (0-based cells), or ``None`` when it is no puzzle.

        Raises:
            IllegalMoveError: (a subclass) a move cannot be played.
        """
        if CELLS_GAME.terminal(replay(moves)):
            return None
        cur, mask = sides(moves)
        found = self.fastest(cur, mask, limit)
        if found is None or len(found[1]) != 1:
            return None
        return self.line(cur, mask, found[0])

    def cell_wins(self, moves: Sequence[int], cell: int, k: int) -> bool:
        """True when ``cell`` (the landing cell of a legal move) played after ``moves`` wins within ``k`` moves."""
        cur, mask = sides(moves)
        return self.wins_with(cur, mask, bit_of(cell), k)
