"""The Ultimate tic-tac-toe search: MCTS-Solver under a budget, with exact distances for what it proves.

:func:`search` runs the MCTS-Solver kernel (``engine/ultimate/_ultimate_c.c``, or its pure-Python twin
:mod:`engine.ultimate.mcts` when the extension is missing or ``TTT_ENGINE_PURE_PYTHON`` is set) from a position
until the time budget or the iteration count is spent, or the position is proven. It reports every root move
with its visits, its mean score for the mover (a win 1, a draw 1/2, over the rollouts through it) and its proof.

**Proofs.** The MCTS-Solver proves a win, a draw or a loss when every line below it is settled, but the line it
finds is not always the shortest (a win) or the longest (a loss): its distance is an upper bound. So a proven win
or loss is then measured exactly by iterative deepening of :func:`engine.ultimate.mcts.prove` (the smallest
depth at which the winner forces the win, which is the minimax distance: the winner's fastest win against the
loser's longest defence), within the time left, at most up to the bound. When the time runs out first, the
result is still proven but its distance is not exact (``plies`` is ``None``). Distances are in plies from the
position before the move, the move itself included, as :class:`engine.protocol.GameValue` counts them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.errors import GameOverError
from engine.native import native_module
from engine.protocol import Mark
from engine.ultimate import mcts as ultimate_mcts
from engine.ultimate.rules import CELL_OF_BIT, UltimateState, UltimateTicTacToe

__all__ = ["EXPLORATION", "FORCED_ITERATIONS", "MAX_NODES", "NATIVE", "RootMove", "TreeReport", "search"]

EXPLORATION = 0.7
"""The UCT exploration constant (rewards in [0, 1]); chosen by matches, see docs/engine.md."""
MAX_NODES = 1 << 22
"""The most tree nodes a search holds (16 bytes each in C: 64 MB); then leaves stop being expanded."""
PROOF_NODES = 50_000_000
"""The most nodes one exact-distance measurement visits (the time left bounds it too)."""
FINISH_MARGIN_MS = 10.0
"""Kept from the budget for the work after the search (at most a twentieth of it)."""
FORCED_ITERATIONS = 1_000
"""The most iterations searched where a single move is legal: the move is known, the search only estimates its
worth (a few ms in C), so the time budget is not spent on it."""

Result = Literal["win", "draw", "loss"]
_RESULTS: dict[int, Result] = {ultimate_mcts.WIN: "win", ultimate_mcts.DRAW: "draw", ultimate_mcts.LOSS: "loss"}


def _load_native() -> tuple[Callable[..., Any], Callable[..., Any]] | None:
    module = native_module("engine.ultimate._ultimate_c")
    return None if module is None else (module.mcts, module.prove)


_NATIVE = _load_native()
NATIVE = _NATIVE is not None
"""True when the C kernel (``engine/ultimate/_ultimate_c.c``, built by ``pip install -e .``) is importable and not
turned off by ``TTT_ENGINE_PURE_PYTHON``; otherwise :func:`search` runs :mod:`engine.ultimate.mcts`."""


@dataclass(frozen=True, slots=True)
class RootMove:
    """One legal move at the root.

    Attributes:
        move: grid cell (0-80).
        visits: the iterations that went through it.
        mean: its mean rollout score for the mover in [0, 1] (0.5 when unvisited).
        proof: ``"win"``, ``"draw"`` or ``"loss"`` for the mover when proven, else ``None``.
        plies: a proven win's or loss's exact distance in plies (this move included), when measured.
    """

    move: int
    visits: int
    mean: float
    proof: Result | None = None
    plies: int | None = None


@dataclass(frozen=True, slots=True)
class TreeReport:
    """What a search found. ``moves`` holds every legal move, best first: proven wins (fastest first), then by
    visits, proven losses last (slowest first). ``proof`` and ``plies`` are the position's (its best move's)
    proof and exact distance; ``depth`` the deepest node the tree reached (plies); ``states`` the positions
    visited (tree descents and rollout plies); ``pv`` the most visited line, in grid cells."""

    moves: tuple[RootMove, ...]
    iterations: int
    states: int
    nodes: int
    depth: int
    elapsed_ms: float
    pv: tuple[int, ...]
    native: bool

    @property
    def best(self) -> RootMove:
        """The move to play."""
        return self.moves[0]


Raw = tuple[tuple[int, ...], tuple[int, ...], int, int, int, int]


def raw_position(state: UltimateState) -> Raw:
    """``state`` as the kernels read it, for the player to move (see :mod:`engine.ultimate.mcts`)."""
    x_moves = UltimateTicTacToe().player(state) is Mark.X
    me, opp = (state.x, state.o) if x_moves else (state.o, state.x)
    mine, theirs = (state.x_boards, state.o_boards) if x_moves else (state.o_boards, state.x_boards)
    return (
        tuple(me >> 9 * b & 511 for b in range(9)),
        tuple(opp >> 9 * b & 511 for b in range(9)),
        mine,
        theirs,
        state.closed,
        state.forced,
    )


def _kernels(native: bool | None) -> tuple[Callable[..., Any], Callable[..., Any]]:
    use_native = NATIVE if native is None else native
    if use_native and _NATIVE is not None:
        return _NATIVE
    return (ultimate_mcts.mcts, ultimate_mcts.prove)


def search(
    state: UltimateState,
    budget_ms: float = 1000.0,
    *,
    iterations: int | None = None,
    seed: int = 0,
    exact: int = 1,
    native: bool | None = None,
    exploration: float = EXPLORATION,
    max_nodes: int = MAX_NODES,
) -> TreeReport:
    """Search ``state`` until ``budget_ms`` (wall time, ms) or ``iterations`` run out, or it is proven; where a
    single move is legal, for at most :data:`FORCED_ITERATIONS`.

    Deterministic for a given ``seed`` with ``iterations`` and an infinite ``budget_ms``, and the same with
    either kernel. The proven moves among the ``exact`` best get exact distances within the time left (a
    twentieth of the budget is kept for them when the search does not end with a proof).

    Args:
        state: a position that is not over.
        budget_ms: wall-time budget in ms (``math.inf`` for none).
        iterations: MCTS iterations (one rollout each), or ``None`` for no limit.
        seed: the random numbers' seed (any int; 64 bits are used).
        exact: how many of the best moves get exact distances when proven.
        native: force the C kernel (``True``, when built) or the Python one (``False``); ``None``: :data:`NATIVE`.
        exploration: the UCT constant.
        max_nodes: the most tree nodes.

    Raises:
        GameOverError: ``state`` is over.
        ValueError: neither budget is finite, or ``iterations`` is below 1.
    """
    start = time.perf_counter()
    if state.is_over:
        raise GameOverError("the game is over: there is no move to search")
    if iterations is None and math.isinf(budget_ms):
        raise ValueError("give a finite budget_ms or an iteration count")
    if iterations is not None and iterations < 1:
        raise ValueError(f"iterations must be at least 1, not {iterations!r}")
    if len(UltimateTicTacToe().actions(state)) == 1:
        iterations = FORCED_ITERATIONS if iterations is None else min(iterations, FORCED_ITERATIONS)
    mcts, prove = _kernels(native)
    pos = raw_position(state)
    margin = min(FINISH_MARGIN_MS, budget_ms / 20.0)
    tree_ms = budget_ms - margin - (budget_ms / 20.0 if exact > 1 else 0.0)
    done, states, nodes, depth, _, _, children, pv = mcts(
        *pos, -1 if iterations is None else iterations, tree_ms, seed & (1 << 64) - 1, exploration, max_nodes
    )
    moves = sorted((_root_move(child) for child in children), key=_rank)
    bounds = {CELL_OF_BIT[c[0]]: c[4] + 1 for c in children}
    deadline = start + (budget_ms - margin) / 1000.0
    if moves[0].proof in ("win", "loss"):
        settled = _settle_root(prove, pos, moves, bounds, deadline)
        moves = [settled, *(m for m in moves if m.move != settled.move)]
    game = UltimateTicTacToe()
    for i in range(1, min(exact, len(moves))):
        if moves[i].proof in ("win", "loss"):
            moves[i] = _measure(prove, game.result(state, moves[i].move), moves[i], bounds[moves[i].move], deadline)
    moves.sort(key=_rank)
    elapsed_ms = (time.perf_counter() - start) * 1000.0
    return TreeReport(
        tuple(moves),
        done,
        states,
        nodes,
        depth,
        elapsed_ms,
        tuple(CELL_OF_BIT[b] for b in pv),
        mcts is not ultimate_mcts.mcts,
    )


def _root_move(child: tuple[int, int, int, int, int]) -> RootMove:
    bit, visits, score, proof, _ = child
    mean = score / (2.0 * visits) if visits else 0.5
    return RootMove(CELL_OF_BIT[bit], visits, mean, _RESULTS.get(proof))


def _rank(move: RootMove) -> tuple[int, int, int, float]:
    # A measured distance ranks before an unmeasured one: the root's own is the best of its kind.
    if move.proof == "win":
        return (0, 99 if move.plies is None else move.plies, 0, 0.0)
    if move.proof == "loss":
        return (2, 1 if move.plies is None else -move.plies, -move.visits, 0.0)
    return (1, 0, -move.visits, -move.mean)


def _left_ms(deadline: float) -> float:
    return max(0.0, (deadline - time.perf_counter()) * 1000.0)


def _settle_root(
    prove: Callable[..., Any], pos: Raw, moves: list[RootMove], bounds: dict[int, int], deadline: float
) -> RootMove:
    """The root's best move with the exact distance of its proven win or loss, when measured in time.

    A win: the smallest odd depth at which the mover forces it, and the first move that does. A loss: the
    smallest even depth at which every move loses; the best defence is the move that escaped two plies sooner.
    """
    best = moves[0]
    win = best.proof == "win"
    bound = min(bounds[m.move] for m in moves if m.proof == "win") if win else max(bounds.values())
    defence = best.move
    for depth in range(1 if win else 2, bound + 1, 2):
        found, bit, _ = prove(*pos, depth, PROOF_NODES, _left_ms(deadline))
        if found < 0:
            return best
        if found == 1:
            cell = CELL_OF_BIT[bit] if win else defence
            return replace(next(m for m in moves if m.move == cell), proof=best.proof, plies=depth)
        if not win:
            defence = CELL_OF_BIT[bit]
    return best


def _measure(prove: Callable[..., Any], after: UltimateState, move: RootMove, bound: int, deadline: float) -> RootMove:
    """``move`` with the exact distance of its proven result (``bound``: the proof's plies, the move included)."""
    if after.is_over:
        return replace(move, plies=1)
    pos = raw_position(after)
    # After the move the opponent is to move: the mover's win is the opponent's loss, at an even depth.
    for depth in range(2 if move.proof == "win" else 1, bound, 2):
        found, _, _ = prove(*pos, depth, PROOF_NODES, _left_ms(deadline))
        if found < 0:
            return move
        if found == 1:
            return replace(move, plies=depth + 1)
    return move
