"""Ultimate's search behind a move, as data: the MCTS-Solver's first plies (:func:`record_mcts`).

The MCTS-Solver (:mod:`engine.ultimate.tree`) keeps statistics per node; what it reports, and what this records, is
the root's children (every legal move with its visits, its win rate for the mover and its proof) and the most
visited line below the best of them. With an iteration count and a seed the search is deterministic (the same with
the C and the Python kernel), so a tree recomputed after a restart is the same tree.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engine.ultimate.play import assess
from engine.ultimate.rules import UltimateState, UltimateTicTacToe
from engine.ultimate.tree import RootMove, search

__all__ = ["TREE_ITERATIONS", "MctsTree", "SampledTeller", "record_mcts"]

T_co = TypeVar("T_co", covariant=True)

TREE_ITERATIONS = 20_000
"""The iterations of a recorded ultimate search: a few tenths of a second in C, enough for the first plies' win
rates to settle (the bot's level 8 runs for its time budget instead, so its own count differs)."""


class SampledTeller(Protocol[T_co]):
    """Who tells an MCTS search in words (:class:`engine.tree.outline.Teller` tells every kind)."""

    def sampled(self, brief: MctsTree) -> T_co:
        """An MCTS search: its root moves with visits, win rates and proofs, and its most visited line."""
        ...


@dataclass(frozen=True, slots=True)
class MctsTree:
    """An MCTS-Solver search's first plies.

    Attributes:
        cells: the grid cells (0-80) played from the empty board to the root.
        moves: every legal root move, best first (:class:`engine.ultimate.tree.RootMove`: visits, mean, proof).
        iterations: the iterations the search ran (one rollout each).
        states: the positions it visited (tree descents and rollout plies).
        pv: the most visited line, grid cells, starting with the best move.
        seed: the search's seed.
    """

    cells: tuple[int, ...]
    moves: tuple[RootMove, ...]
    iterations: int
    states: int
    pv: tuple[int, ...]
    seed: int

    def tell(self, teller: SampledTeller[T_co]) -> T_co:
        """This search told by ``teller`` (:meth:`SampledTeller.sampled`)."""
        return teller.sampled(self)

    @property
    def move(self) -> int:
        """The move the search plays (its best)."""
        return self.moves[0].move

    def as_json(self) -> dict[str, Any]:
        """The tree in the shape of :meth:`engine.tree.node.SearchTree.as_json`: the root (``"move"`` null) with one
        child per root move; ``"value"`` is the expected score for the side that moved there (1 a win, 0.5 a draw),
        ``"visits"``, ``"win_rate"`` and ``"proof"`` are the search's, and the principal variation hangs below the
        best move as a chain of single children. Cells are 1-based."""
        mover = "X" if len(self.cells) % 2 == 0 else "O"
        children: list[dict[str, Any]] = [
            {
                "move": m.move + 1,
                "mark": mover,
                "value": assess(m).expected,
                "alpha": None,
                "beta": None,
                "kind": "node",
                "visits": m.visits,
                "win_rate": m.mean,
                "proof": m.proof,
                "children": [],
            }
            for m in self.moves
        ]
        line: list[dict[str, Any]] = children[0]["children"]
        side = mover
        for cell in self.pv[1:]:
            side = "O" if side == "X" else "X"
            below: list[dict[str, Any]] = []
            line.append(
                {
                    "move": cell + 1,
                    "mark": side,
                    "value": None,
                    "alpha": None,
                    "beta": None,
                    "kind": "node",
                    "children": below,
                }
            )
            line = below
        return {
            "move": None,
            "value": children[0]["value"],
            "alpha": None,
            "beta": None,
            "kind": "node",
            "children": children,
            "algorithm": "mcts",
            "iterations": self.iterations,
            "states": self.states,
            "played": self.move + 1,
            "position": [cell + 1 for cell in self.cells],
            "seed": self.seed,
        }


def record_mcts(cells: tuple[int, ...] | list[int], iterations: int = TREE_ITERATIONS, seed: int = 0) -> MctsTree:
    """The MCTS-Solver's first plies in the ultimate position after ``cells`` (0-based grid cells), searched for
    ``iterations`` with ``seed`` (deterministic).

    Raises:
        IllegalMoveError: a cell cannot be played.
        GameOverError: the game is over.
    """
    game = UltimateTicTacToe()
    state: UltimateState = game.initial_state()
    for cell in cells:
        state = game.result(state, cell)
    report = search(state, math.inf, iterations=iterations, seed=seed)
    return MctsTree(tuple(cells), report.moves, report.iterations, report.states, report.pv, seed)
