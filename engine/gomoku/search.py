"""Alpha-beta for Gomoku: negamax with iterative deepening over the candidate moves near the stones, a transposition
table keyed by Zobrist keys, and the threat search at the root.

Sources: negamax fail-soft alpha-beta (Knuth and Moore, "An analysis of alpha-beta pruning", 1975); iterative
deepening with the previous iteration's best move first (Slate and Atkin, "Chess 4.5", 1977); a transposition table
of bounds and best moves (Marsland, "A review of game-tree pruning", 1986; Zobrist keys, 1970); threat-space search,
here VCF, before the alpha-beta (Allis, van den Herik and Huntjens, "Go-Moku and threat-space search", 1993).

**Scores** are the side to move's: :data:`WIN` minus the plies to a five for a win found in the tree, its negation
for a loss, else the pattern evaluation (:meth:`engine.gomoku.board.PyBoard.evaluate`) at the horizon.

**Forced replies.** A node where the side to move can complete five is a win; where the opponent has two five cells
it is lost; where the opponent has one, the only move searched is to take it.

**States evaluated** (:attr:`Search.states`): one per node of the alpha-beta (each position it visits, a horizon
leaf or a table hit included) plus every node of the threat search (:meth:`~engine.gomoku.board.PyBoard.vcf`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Protocol

__all__ = ["PROVEN", "WIN", "Board", "Search", "SearchTimeout"]

WIN = 100_000_000
"""``WIN - n``: the score of a five ``n`` plies from the root (above any evaluation: 572 windows of 2000 at most)."""
PROVEN = WIN - 226
"""Scores at or above it are proven wins (a five within the board's 225 plies)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_CLOCK_EVERY = 256
"""Nodes between two looks at the clock."""


class Board(Protocol):
    """The search board: :class:`engine.gomoku.board.PyBoard` or the C kernel's, with the same methods."""

    count: int
    key: int
    stones: int
    cells: list[int]

    def place(self, cell: int, side: int) -> None: ...
    def remove(self, cell: int) -> None: ...
    def evaluate(self, side: int) -> int: ...
    def five_cells(self, side: int) -> list[int]: ...
    def four_moves(self, side: int) -> list[int]: ...
    def candidates(self, side: int) -> list[int]: ...
    def vcf(self, side: int, moves: int) -> list[int] | None: ...


class SearchTimeout(Exception):
    """The search's deadline passed (caught by :meth:`Search.best`, which keeps the last complete iteration)."""


@dataclass
class Search:
    """One move's alpha-beta on ``board`` (``side`` to move), to ``depth`` plies at most, over the ``width`` best
    candidates of each node, until ``deadline`` (a :func:`time.perf_counter` time, or ``None``).

    Attributes:
        states: states evaluated so far (see the module's docstring), the threat search's included.
        depth: the depth of the last iteration completed.
    """

    board: Board
    width: int
    deadline: float | None = None
    depth: int = 0
    table: dict[int, tuple[int, int, int, int]] = field(default_factory=dict)
    nodes: int = 0

    @property
    def states(self) -> int:
        """States evaluated: the alpha-beta's nodes plus the board's threat-search nodes."""
        return self.nodes + self.board.count

    def best(self, side: int, depth: int, moves: list[int]) -> dict[int, int]:
        """Each root move's score for ``side`` from the deepest iteration completed (1 to ``depth`` plies), each
        child searched with a full window; the first iteration always completes."""
        scores: dict[int, int] = {}
        for iteration in range(1, depth + 1):
            found: dict[int, int] = {}
            try:
                for cell in moves:
                    if iteration > 1 and self.deadline is not None and time.perf_counter() > self.deadline:
                        raise SearchTimeout
                    self.board.place(cell, side)
                    try:
                        found[cell] = -self.negamax(1 - side, iteration - 1, -WIN - 1, WIN + 1, 1)
                    finally:
                        self.board.remove(cell)
            except SearchTimeout:
                if scores:
                    break
                self.deadline = None  # the first iteration completes whatever the clock says
                return self.best(side, 1, moves)
            scores = found
            self.depth = iteration
            moves = sorted(moves, key=lambda c: -scores[c])
            if max(scores.values()) >= PROVEN:
                break
        return scores

    def negamax(self, side: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The fail-soft negamax score of the board for ``side`` to move, ``ply`` plies below the root.

        Raises:
            SearchTimeout: the deadline passed.
        """
        self.nodes += 1
        board = self.board
        if self.deadline is not None and self.nodes % _CLOCK_EVERY == 0 and time.perf_counter() > self.deadline:
            raise SearchTimeout
        if board.five_cells(side):
            return WIN - ply - 1
        if board.stones == 225:
            return 0
        threats = board.five_cells(1 - side)
        if len(threats) > 1:
            return -(WIN - ply - 2)
        if depth <= 0 and not threats:
            return board.evaluate(side)
        key = board.key
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            entry_depth, flag, value, first = entry
            fits = flag == _EXACT or (flag == _LOWER and value >= beta) or (flag == _UPPER and value <= alpha)
            if entry_depth >= depth and fits:
                return value
        if threats:
            moves = threats
        else:
            moves = board.candidates(side)[: self.width]
            if first in moves:
                moves.remove(first)
                moves.insert(0, first)
        best, best_move, start = -WIN - 1, moves[0], alpha
        for cell in moves:
            board.place(cell, side)
            try:
                value = -self.negamax(1 - side, depth - 1, -beta, -alpha, ply + 1)
            finally:
                board.remove(cell)
            if value > best:
                best, best_move = value, cell
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _LOWER if best >= beta else _UPPER if best <= start else _EXACT
        self.table[key] = (depth, flag, best, best_move)
        return best
