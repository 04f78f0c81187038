"""Proofs of m,n,k puzzles (4x4 and 5x5) by the exact solver of :mod:`engine.mnk.solver`.

The solver's scores are depth-aware (a win completed when the board holds ``n`` marks is worth ``cells + 1 - n``),
so "the side to move wins within ``k`` of its moves" is one null-window test: with ``n`` marks on the board, the
``k``-th move is the ``n + 2k - 1``-th mark, worth ``t = cells + 2 - n - 2k``, and the move wins that fast when its
fail-soft value in the window ``(t - 1, t)`` is at least ``t`` (Pearl's test, as in MTD(f): Plaat et al., 1996).
A puzzle's line is found as lichess finds its mates (the "only move" rule): the fastest win has exactly one
winning move at every solver turn, and the defender picks a reply that holds out longest.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.mnk.rules import TicTacToe
from engine.mnk.solver import Kernel, move_value, new_kernel
from engine.protocol import Mark, PuzzleLine

__all__ = ["MAX_WIN_IN", "MnkProver"]

MAX_WIN_IN = 5


class MnkProver:
    """Finds puzzle lines in positions of one m,n,k ``game``; keeps one solver kernel (its table persists)."""

    def __init__(self, game: TicTacToe, kernel: Kernel | None = None) -> None:
        self.game = game
        self.kernel = kernel if kernel is not None else new_kernel(game)

    def wins_with(self, me: int, opp: int, cell: int, k: int) -> bool:
        """True when the side to move (``me``) playing ``cell`` wins within ``k`` of its moves, against any defence."""
        t = max(1, self.game.cells + 2 - (me | opp).bit_count() - 2 * k)  # at least 1: a draw scores 0
        return move_value(self.kernel, self.game, me, opp, cell, t - 1, t) >= t

    def winning_moves(self, me: int, opp: int, k: int) -> list[int]:
        """The moves of the side to move that win within ``k`` of its moves, in cell order."""
        free = self.game.full ^ (me | opp)
        return [c for c in range(self.game.cells) if free >> c & 1 and self.wins_with(me, opp, c, k)]

    def fastest(self, me: int, opp: int, limit: int = MAX_WIN_IN) -> tuple[int, list[int]] | None:
        """``(N, moves)``: the fewest moves N <= ``limit`` in which the side to move forces a win, and the moves that
        do it; ``None`` when there is no such win."""
        for k in range(1, limit + 1):
            moves = self.winning_moves(me, opp, k)
            if moves:
                return k, moves
        return None

    def line(self, me: int, opp: int, k: int) -> PuzzleLine | None:
        """The puzzle line when the side to move wins in exactly ``k`` moves with one winning move at each turn.

        ``None`` when two moves win that fast somewhere on every longest defence, or no move does.
        """
        moves = self.winning_moves(me, opp, k)
        if len(moves) != 1:
            return None
        cell = moves[0]
        if k == 1:
            return PuzzleLine((cell,), ())
        mine = me | 1 << cell
        free = self.game.full ^ (mine | opp)
        for reply in range(self.game.cells):
            if not free >> reply & 1:
                continue
            theirs = opp | 1 << reply
            if self.fastest(mine, theirs, k - 2) is not None:
                continue  # a shorter loss: not the longest resistance
            rest = self.line(mine, theirs, k - 1)
            if rest is not None:
                return PuzzleLine((cell, *rest.solution), (reply, *rest.replies))
        return None

    def prove(self, moves: Sequence[int], limit: int = MAX_WIN_IN) -> PuzzleLine | None:
        """The puzzle line of the position after ``moves`` (0-based), or ``None`` when it is no puzzle.

        Raises:
            IllegalMoveError: (a subclass) a move cannot be played.
        """
        state = self.game.play(tuple(moves))
        if self.game.terminal(state):
            return None
        me, opp = (state.x, state.o) if self.game.player(state) is Mark.X else (state.o, state.x)
        found = self.fastest(me, opp, limit)
        if found is None or len(found[1]) != 1:
            return None
        return self.line(me, opp, found[0])
