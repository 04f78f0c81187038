"""Alpha-beta search for Ultimate tic-tac-toe under a time budget, with depth-aware scores.

The bot plays with MCTS-Solver (:mod:`engine.ultimate.tree`); this search stays as the depth-aware reference the
tests check proven distances against, and as the Python method of ``benchmarks/ultimate_mcts.py``.

Negamax alpha-beta (AIMA §5.3, written as in Knuth & Moore 1975) with iterative deepening, a transposition
table keyed by Zobrist hashes (Zobrist 1970), and move ordering by the table's move, two killer moves per ply
and the history heuristic (Schaeffer 1989). Leaves at the depth limit get :func:`engine.ultimate.evaluation.evaluate`.

Scores are points for the side to move (see :mod:`engine.ultimate.evaluation`); a won game is worth
``WIN - plies`` (:data:`WIN` = 100,000), so the search takes the fastest win and puts off a loss.

**States evaluated** are nodes visited: one per call of the recursive search, the root's children and every
position below them, terminal ones included (the root itself is not counted, as in :mod:`engine.minimax.reference`).
With :class:`Options` ``textbook`` (no table, no ordering, no depth-aware scores, one full-depth pass), the
count and the values equal :func:`engine.minimax.reference.alpha_beta_search`'s.

This module is the driver (the deepening, the root moves, the budget and the report); the recursive node
search, its switches (:class:`Options`) and its tables are :mod:`engine.ultimate.kernel`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from engine.errors import GameOverError
from engine.ultimate.kernel import (
    CHECK_EVERY,
    INF,
    MATE_BOUND,
    MAX_DEPTH,
    MOVES,
    TEXTBOOK,
    WIN,
    ZOBRIST,
    ZOBRIST_FORCED,
    Kernel,
    Options,
    Stop,
)
from engine.ultimate.rules import BIT_OF_CELL, CELL_OF_BIT, UltimateState, UltimateTicTacToe

__all__ = ["MATE_BOUND", "MOVES", "TEXTBOOK", "WIN", "Options", "RootMove", "SearchReport", "search"]

FINISH_MARGIN_MS = 10.0
_REAL = Options()  # the default switches: the real search


@dataclass(frozen=True, slots=True)
class RootMove:
    """One root move: its grid cell (0-80), its score (points, mover's view) and whether that is exact.

    A score that is not exact is an upper bound: the move was proved no better than the best ones.
    """

    move: int
    score: int
    exact: bool


@dataclass(frozen=True, slots=True)
class SearchReport:
    """What one search found.

    Attributes:
        moves: every root move, best first, from the deepest completed iteration.
        depth: the deepest iteration completed (plies).
        states: nodes visited over all iterations (see the module's docstring).
        elapsed_ms: wall time of the search, in ms.
        pv: the principal variation from the table (grid cells), starting with the best move.
    """

    moves: tuple[RootMove, ...]
    depth: int
    states: int
    elapsed_ms: float
    pv: tuple[int, ...]


def _side_relative(state: UltimateState) -> tuple[int, int, int, int, int]:
    x_moves = state.x.bit_count() == state.o.bit_count()
    if x_moves:
        return state.x, state.o, state.x_boards, state.o_boards, 0
    return state.o, state.x, state.o_boards, state.x_boards, 1


def _child(state: UltimateState, bit: int, h: int, color: int) -> tuple[int, int, int, int, int, int, int, int]:
    """The arguments of :meth:`Kernel.node` before ``depth`` for the root move ``bit``, played by the game's rules.

    The kernel plays its moves inline for speed; the root's are played once per search by
    :meth:`UltimateTicTacToe.result`, off the hot path, and ``h`` (the root's hash) is updated incrementally.
    """
    child = UltimateTicTacToe().result(state, CELL_OF_BIT[bit])
    me, opp, mw, ow, _ = _side_relative(child)
    nh = h ^ ZOBRIST_FORCED[state.forced + 1] ^ ZOBRIST[color][bit] ^ ZOBRIST_FORCED[child.forced + 1]
    return me, opp, mw, ow, child.closed, child.forced, nh, color ^ 1


def _hash(state: UltimateState) -> int:
    h = ZOBRIST_FORCED[state.forced + 1]
    for bit in range(81):
        if state.x >> bit & 1:
            h ^= ZOBRIST[0][bit]
        elif state.o >> bit & 1:
            h ^= ZOBRIST[1][bit]
    return h


def search(
    state: UltimateState,
    budget_ms: float = 1000.0,
    *,
    max_nodes: int | None = None,
    max_depth: int = MAX_DEPTH,
    multipv: int | None = 1,
    exact_moves: frozenset[int] = frozenset(),
    options: Options = _REAL,
) -> SearchReport:
    """Search ``state`` by iterative deepening until the budget is spent; report every root move.

    The first iteration (depth 1: at most 81 states) always completes; later ones stop when ``budget_ms``
    (wall time, ms, less a margin of at most :data:`FINISH_MARGIN_MS` for the work after the last
    iteration) or ``max_nodes`` (states) runs out, and the deepest completed iteration is the answer.
    With ``max_nodes`` and an infinite ``budget_ms`` the search is deterministic.

    Args:
        state: a position that is not over.
        budget_ms: wall-time budget in ms (``math.inf`` for none).
        max_nodes: a budget in states, or ``None``.
        max_depth: the deepest iteration (plies).
        multipv: how many of the best root moves get exact scores (``None``: all of them, each with a
            fresh full window as :mod:`engine.minimax.reference` does); the others get upper bounds.
        exact_moves: root moves (grid cells) that always get exact scores (for reviews).
        options: the kernel's switches; without ``iterative_deepening`` one pass at ``max_depth`` is made.

    Raises:
        GameOverError: ``state`` is over.
    """
    start = time.perf_counter()
    if state.is_over:
        raise GameOverError("the game is over: there is no move to search")
    # The margin pays for what follows the last iteration (the principal variation, freeing the table).
    margin_ms = min(FINISH_MARGIN_MS, budget_ms / 20.0)
    kernel = Kernel(options, start + (budget_ms - margin_ms) / 1000.0, max_nodes)
    me, opp, _, _, color = _side_relative(state)
    h = _hash(state)
    root = kernel.moves(me, opp, state.closed, state.forced)
    children = {bit: _child(state, bit, h, color) for bit in root}
    kernel.order(root, -1, 0, state.closed)
    empties = 81 - (state.x | state.o).bit_count()
    depths = range(1, min(max_depth, empties) + 1) if options.iterative_deepening else (max_depth,)
    if len(root) == 1 and options.iterative_deepening:
        depths = range(1, 2)  # the only move: one iteration gives its score
    k = len(root) if multipv is None else max(1, multipv)
    exact_bits = {BIT_OF_CELL[m] for m in exact_moves}
    completed: list[tuple[int, int, bool]] = []
    depth_done = 0
    for depth in depths:
        first = depth == depths[0]
        if first:  # the first iteration is never cut short, so there is always an answer
            kernel.deadline, saved_deadline = float("inf"), kernel.deadline
            kernel.max_nodes, saved_max = 1 << 62, kernel.max_nodes
            kernel.next_check = kernel.nodes + CHECK_EVERY
        found: list[tuple[int, int, bool]] = []
        exact_scores: list[int] = []
        try:
            for bit in root:
                alpha = -INF if bit in exact_bits or len(exact_scores) < k else sorted(exact_scores)[-k]
                score = -kernel.node(*children[bit], depth - 1, -INF, -alpha, 1)
                exact = score > alpha or alpha == -INF
                if exact:
                    exact_scores.append(score)
                found.append((bit, score, exact))
        except Stop:
            break
        finally:
            if first:
                kernel.deadline, kernel.max_nodes = saved_deadline, saved_max
                kernel.next_check = min(kernel.nodes + CHECK_EVERY, kernel.max_nodes)
        found.sort(key=lambda t: (t[2], t[1]), reverse=True)
        completed, depth_done = found, depth
        root = [bit for bit, _, _ in found]
        if abs(found[0][1]) >= MATE_BOUND and options.depth_aware:
            break  # a proven result: deeper iterations cannot find a faster win or a longer defence
    moves = tuple(RootMove(CELL_OF_BIT[bit], score, exact) for bit, score, exact in completed)
    pv = _principal_variation(kernel, state, completed[0][0], depth_done)
    kernel.tt.clear()
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    return SearchReport(moves, depth_done, kernel.nodes, elapsed_ms, pv)


def _principal_variation(kernel: Kernel, state: UltimateState, first_bit: int, depth: int) -> tuple[int, ...]:
    game = UltimateTicTacToe()
    line = [CELL_OF_BIT[first_bit]]
    current = game.result(state, line[0])
    while len(line) < depth and not current.is_over:
        entry = kernel.tt.get(_hash(current))
        if entry is None or entry[3] < 0:
            break
        cell = CELL_OF_BIT[entry[3]]
        if cell not in game.actions(current):
            break
        line.append(cell)
        current = game.result(current, cell)
    return tuple(line)
