"""The alpha-beta kernel of :mod:`engine.ultimate.search`: one node of negamax search on Ultimate tic-tac-toe.

Negamax alpha-beta (AIMA §5.3, written as in Knuth & Moore 1975) with a transposition table keyed by
Zobrist hashes (Zobrist 1970), and move ordering by the table's move, two killer moves per ply and the
history heuristic (Schaeffer 1989). Leaves at the depth limit get :func:`engine.ultimate.evaluation.evaluate`.
Moves are played inline on the board-major masks of :mod:`engine.ultimate` (the step of
:func:`engine.ultimate.rules.place` without its call: this is the hot loop); the iterative deepening, the root and
what counts as a state evaluated are :mod:`engine.ultimate.search`'s.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.ultimate.evaluation import evaluate
from engine.ultimate.rules import CELL_OF_BIT, WON9

__all__ = [
    "CHECK_EVERY",
    "INF",
    "MATE_BOUND",
    "MAX_DEPTH",
    "MOVES",
    "TEXTBOOK",
    "WIN",
    "ZOBRIST",
    "ZOBRIST_FORCED",
    "Kernel",
    "Options",
    "Stop",
]

WIN = 100_000
MATE_BOUND = WIN - 1_000
INF = 10 * WIN
MAX_DEPTH = 81
_EXACT, _LOWER, _UPPER = 0, 1, 2
CHECK_EVERY = 128  # states between clock reads: 1-3 ms of search

#: MOVES[b][e]: the bits (9b + cell) of the empty cells ``e`` (a 9-bit mask) of small board ``b``.
MOVES = tuple(tuple(tuple(9 * b + i for i in range(9) if e >> i & 1) for e in range(512)) for b in range(9))
_rng = random.Random(0x5EED)
ZOBRIST = (tuple(_rng.getrandbits(64) for _ in range(81)), tuple(_rng.getrandbits(64) for _ in range(81)))
ZOBRIST_FORCED = tuple(_rng.getrandbits(64) for _ in range(10))  # index forced + 1


@dataclass(frozen=True, slots=True)
class Options:
    """The kernel's switches. The defaults are the real search; :data:`TEXTBOOK` turns the extras off."""

    transposition_table: bool = True
    ordering: bool = True
    depth_aware: bool = True
    iterative_deepening: bool = True


TEXTBOOK = Options(transposition_table=False, ordering=False, depth_aware=False, iterative_deepening=False)


class Stop(Exception):
    """Raised by :meth:`Kernel.node` when the budget (time or states) is spent."""


class Kernel:
    def __init__(self, options: Options, deadline: float, max_nodes: int | None) -> None:
        self.opt = options
        self.deadline = deadline
        self.max_nodes = max_nodes if max_nodes is not None else 1 << 62
        self.nodes = 0
        self.next_check = min(CHECK_EVERY, self.max_nodes)
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.killers = [[-1, -1] for _ in range(MAX_DEPTH + 2)]
        self.history = [0] * 81
        self.ply_weight = 1 if options.depth_aware else 0

    def _check(self) -> None:
        if self.nodes >= self.max_nodes or time.perf_counter() >= self.deadline:
            raise Stop
        self.next_check = min(self.nodes + CHECK_EVERY, self.max_nodes)

    def moves(self, me: int, opp: int, closed: int, forced: int) -> list[int]:
        empty = ~(me | opp)
        if forced >= 0:
            return list(MOVES[forced][empty >> (9 * forced) & 511])
        out: list[int] = []
        for b in range(9):
            if not closed >> b & 1:
                out.extend(MOVES[b][empty >> (9 * b) & 511])
        return out

    def order(self, moves: list[int], tt_move: int, ply: int, closed: int) -> None:
        if not self.opt.ordering:
            moves.sort(key=CELL_OF_BIT.__getitem__)  # the game's natural order: grid cells ascending
            return
        hist = self.history
        k0, k1 = self.killers[ply]
        # A move that sends the opponent to a closed board hands it a free choice: try it late.
        score = {m: hist[m] - (1 << 20 if closed >> (m % 9) & 1 else 0) for m in moves}
        if k1 in score:
            score[k1] += 1 << 24
        if k0 in score:
            score[k0] += 1 << 25
        if tt_move in score:
            score[tt_move] += 1 << 30
        moves.sort(key=score.__getitem__, reverse=True)

    def node(self, me: int, opp: int, mw: int, ow: int, closed: int, forced: int, h: int, color: int,
             depth: int, alpha: int, beta: int, ply: int) -> int:  # fmt: skip
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        if WON9[ow]:  # the move that led here won the game
            return -(WIN - ply * self.ply_weight)
        if closed == 511:
            return 0
        alpha0 = alpha
        tt_move = -1
        use_tt = self.opt.transposition_table
        if use_tt:
            entry = self.tt.get(h)
            if entry is not None:
                e_depth, e_flag, e_value, tt_move = entry
                if e_depth >= depth:
                    if e_value >= MATE_BOUND:
                        e_value -= ply
                    elif e_value <= -MATE_BOUND:
                        e_value += ply
                    if e_flag == _EXACT:
                        return e_value
                    if e_flag == _LOWER:
                        alpha = max(alpha, e_value)
                    else:
                        beta = min(beta, e_value)
                    if alpha >= beta:
                        return e_value
        if depth <= 0:
            return evaluate(me, opp, mw, ow, closed, forced)
        moves = self.moves(me, opp, closed, forced)
        self.order(moves, tt_move, ply, closed)
        best = -INF
        best_move = -1
        z_me = ZOBRIST[color]
        h_base = h ^ ZOBRIST_FORCED[forced + 1]
        for bit in moves:
            b = bit // 9
            nme = me | 1 << bit
            nmw, nclosed = mw, closed
            small = nme >> (9 * b) & 511
            if WON9[small]:
                nmw |= 1 << b
                nclosed |= 1 << b
            elif (small | opp >> (9 * b)) & 511 == 511:
                nclosed |= 1 << b
            target = bit % 9
            nforced = -1 if nclosed >> target & 1 else target
            nh = h_base ^ z_me[bit] ^ ZOBRIST_FORCED[nforced + 1]
            score = -self.node(opp, nme, ow, nmw, nclosed, nforced, nh, color ^ 1, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                best_move = bit
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if self.opt.ordering:
                            killers = self.killers[ply]
                            if killers[0] != bit:
                                killers[1] = killers[0]
                                killers[0] = bit
                            self.history[bit] += depth * depth
                        break
        if use_tt:
            flag = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
            stored = best + ply if best >= MATE_BOUND else best - ply if best <= -MATE_BOUND else best
            self.tt[h] = (depth, flag, stored, best_move)
        return best
