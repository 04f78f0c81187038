"""Proofs of ultimate tic-tac-toe puzzles: a depth-first search that proves a forced win against every defence.

``wins(position, k)`` is an AND/OR search (AIMA §4.5, as in proof-number and mate searches): the side to move
wins within ``k`` of its moves if one of its moves wins the game, or leaves a position where every reply is met
by a win within ``k - 1``. Iterative deepening on ``k`` finds the fastest win. Nothing is estimated: a branch is
cut only by an admissible bound (below), a transposition table of proved and disproved ``k`` per position, or
the node budget, which makes the answer "not a puzzle", never a guess.

**The bound.** To win, a side needs a line of three small boards with none held by the opponent or drawn; a
small board still to win needs at least ``3 - m`` more marks, ``m`` being its marks in its best line free of the
opponent. Each move adds one mark, so a side whose cheapest line needs more than ``k`` marks cannot win within
``k`` moves (an opponent's move never lowers the count).

Positions are :mod:`engine.ultimate`'s board-major masks; moves are bits (``9 * board + cell``) inside, grid
cells (0-80) outside.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.protocol import PuzzleLine
from engine.tictactoe.bitboard import POPCOUNT, THREATS
from engine.ultimate.kernel import MOVES
from engine.ultimate.rules import CELL_OF_BIT, LINE_MASKS, LINES3, WON9, UltimateTicTacToe, place

__all__ = ["MAX_WIN_IN", "NODE_BUDGET", "OutOfBudget", "UltimateProver", "position_of"]

MAX_WIN_IN = 4
NODE_BUDGET = 200_000
_FAR = 99
Position = tuple[int, int, int, int, int, int]
"""``(me, opp, my_boards, their_boards, closed, forced)`` for the side to move, as in :class:`UltimateState`."""


class OutOfBudget(Exception):
    """The search visited more nodes than its budget: the position is left unproved (no puzzle)."""


def _board_cost(mine: int, theirs: int) -> int:
    best = _FAR
    for line in LINE_MASKS:
        if not line & theirs:
            best = min(best, 3 - POPCOUNT[mine & line])
    return best


def position_of(moves: Sequence[int]) -> Position | None:
    """The position after ``moves`` (grid cells, 0-based) for the side to move, or ``None`` when the game is over.

    Raises:
        IllegalMoveError: (a subclass) a move cannot be played.
    """
    state = UltimateTicTacToe().play(tuple(moves))
    if state.is_over:
        return None
    if len(moves) % 2 == 0:
        return state.x, state.o, state.x_boards, state.o_boards, state.closed, state.forced
    return state.o, state.x, state.o_boards, state.x_boards, state.closed, state.forced


def play(pos: Position, bit: int) -> Position:
    """The position after the side to move plays ``bit``, seen from the other side (it is then to move)."""
    me, opp, mw, ow, closed, _ = pos
    me, mw, closed, forced = place(me, opp, mw, closed, bit)
    return opp, me, ow, mw, closed, forced


def moves_of(pos: Position) -> list[int]:
    """The legal moves (bits) of the side to move, board by board."""
    me, opp, _, _, closed, forced = pos
    empty = ~(me | opp)
    boards = (forced,) if forced >= 0 else [b for b in range(9) if not closed >> b & 1]
    out: list[int] = []
    for b in boards:
        out.extend(MOVES[b][empty >> (9 * b) & 511])
    return out


class UltimateProver:
    """Proves forced wins in ultimate positions; one transposition table per prover, one node budget per call."""

    def __init__(self, budget: int = NODE_BUDGET) -> None:
        self.budget = budget
        self.nodes = 0
        self._limit = budget
        self._proved: dict[tuple[int, int, int], int] = {}  # the fewest k known to win
        self._failed: dict[tuple[int, int, int], int] = {}  # the most k known not to win

    def need(self, pos: Position) -> int:
        """The bound of the module docstring: a lower bound on the moves the side to move needs to win."""
        me, opp, mw, _, closed, _ = pos
        costs = [
            0 if mw >> b & 1 else _FAR if closed >> b & 1 else _board_cost(me >> 9 * b & 511, opp >> 9 * b & 511)
            for b in range(9)
        ]
        return min(costs[a] + costs[b] + costs[c] for a, b, c in LINES3)

    def wins_now(self, pos: Position) -> int:
        """A move (bit) that wins the game at once for the side to move, or -1."""
        me, opp, mw, _, closed, forced = pos
        boards = (forced,) if forced >= 0 else range(9)
        for b in boards:
            if closed >> b & 1 or not WON9[mw | 1 << b]:
                continue
            cells = THREATS[me >> 9 * b & 511] & ~((me | opp) >> 9 * b) & 511
            if cells:
                return 9 * b + (cells & -cells).bit_length() - 1
        return -1

    def wins(self, pos: Position, k: int) -> bool:
        """True when the side to move wins within ``k`` of its moves against every defence.

        Raises:
            OutOfBudget: the call's node budget is spent.
        """
        self.nodes += 1
        if self.nodes > self._limit:
            raise OutOfBudget
        if self.wins_now(pos) >= 0:
            return True
        if k <= 1 or self.need(pos) > k:
            return False
        key = (pos[0], pos[1], pos[5])
        if self._proved.get(key, _FAR) <= k:
            return True
        if self._failed.get(key, 0) >= k:
            return False
        for bit in self._ordered(pos):
            if self.holds(play(pos, bit), k - 1):
                self._proved[key] = k
                return True
        self._failed[key] = k
        return False

    def holds(self, after: Position, k: int) -> bool:
        """True when every reply of the defender (to move in ``after``) leaves a win within ``k`` for the solver."""
        if WON9[after[3]]:
            return True  # the solver's move won the game
        if after[4] == 511 or self.wins_now(after) >= 0:
            return False
        if self.need((after[1], after[0], after[3], after[2], after[4], -1)) > k:
            return False
        for reply in self._ordered(after):
            child = play(after, reply)
            if WON9[child[3]] or child[4] == 511 or not self.wins(child, k):
                return False
        return True

    def move_wins(self, pos: Position, bit: int, k: int) -> bool:
        """True when the side to move playing ``bit`` wins within ``k`` of its moves (``bit`` included) against every
        defence; the call has its own node budget.

        Raises:
            OutOfBudget: the call's node budget is spent.
        """
        self._limit = self.nodes + self.budget
        return self.holds(play(pos, bit), k - 1)

    def _ordered(self, pos: Position) -> list[int]:
        """Moves that win a small board first, then moves that make a threat there, then moves sending the
        opponent to a board it cannot win at once."""
        me, opp, _, _, closed, _ = pos
        moves = moves_of(pos)

        def score(bit: int) -> int:
            b, target = divmod(bit, 9)
            mine, theirs = me >> 9 * b & 511, opp >> 9 * b & 511
            s = 8 if THREATS[mine] >> target & 1 else 0
            s += 4 if THREATS[theirs] >> target & 1 else 0
            s += 2 if THREATS[mine | 1 << target] & ~(mine | theirs) & 511 else 0
            if not closed >> target & 1 and THREATS[opp >> 9 * target & 511] & ~((me | opp) >> 9 * target) & 511:
                s -= 6
            return -s

        moves.sort(key=score)
        return moves

    def winning(self, pos: Position, k: int) -> list[int]:
        """The moves (bits) that win within ``k`` moves, in ascending grid-cell order."""
        out = [bit for bit in moves_of(pos) if self.holds(play(pos, bit), k - 1)]
        return sorted(out, key=CELL_OF_BIT.__getitem__)

    def line(self, pos: Position, k: int) -> PuzzleLine | None:
        """The puzzle line (grid cells) when exactly one move wins within ``k`` at each solver turn, else ``None``."""
        found = self.winning(pos, k)
        if len(found) != 1:
            return None
        bit = found[0]
        if k == 1:
            return PuzzleLine((CELL_OF_BIT[bit],), ())
        after = play(pos, bit)
        for reply in sorted(moves_of(after), key=CELL_OF_BIT.__getitem__):
            child = play(after, reply)
            if k > 2 and self.wins(child, k - 2):
                continue  # loses sooner: not the longest resistance
            rest = self.line(child, k - 1)
            if rest is not None:
                return PuzzleLine((CELL_OF_BIT[bit], *rest.solution), (CELL_OF_BIT[reply], *rest.replies))
        return None

    def prove(self, moves: Sequence[int], limit: int = MAX_WIN_IN) -> PuzzleLine | None:
        """The puzzle line of the position after ``moves`` (grid cells, 0-based), or ``None``: no forced win within
        ``limit`` moves, two moves winning as fast at some turn, or the node budget spent.

        Raises:
            IllegalMoveError: (a subclass) a move cannot be played.
        """
        pos = position_of(moves)
        if pos is None:
            return None
        self._limit = self.nodes + self.budget
        try:
            for k in range(1, limit + 1):
                if self.need(pos) > k:
                    continue
                found = self.winning(pos, k)
                if found:
                    return self.line(pos, k) if len(found) == 1 else None
        except OutOfBudget:
            return None
        return None
