"""The search behind one move of a game, recomputed from the moves played: :func:`explain`, for the bot's "How did it
think?" (3x3: the recorded alpha-beta and plain minimax trees; 4x4 and 5x5: a fresh exact search, near the end of a
game; ultimate: the MCTS-Solver's first plies). A game says where it can be explained: :meth:`engine.Variant.explains`.

Deterministic: the same moves, move and seed give the same trees, so an explanation asked after a restart is the one
asked before it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5
from engine.protocol import Algorithm
from engine.tree.mcts import MctsTree, record_mcts
from engine.tree.mnk import record_mnk
from engine.tree.node import SearchTree
from engine.tree.record import record
from engine.tree.summary import Summary, summarise

__all__ = ["EXPLAINED", "STEPPED", "Explained", "explain", "stepped"]

EXPLAINED = ("3x3", "4x4", "5x5", "ultimate")
"""The variants whose search can be recomputed and drawn (4x4 and 5x5 only near the end: :mod:`engine.tree.mnk`)."""
STEPPED = ("3x3", "4x4", "5x5")
"""The variants whose alpha-beta search can be stepped through (:mod:`engine.tree.step`): ultimate's MCTS has no
window to walk."""
_MNK = {"4x4": TIC_TAC_TOE_4X4, "5x5": TIC_TAC_TOE_5X5}
_DRAWN_DEPTH = 2


@dataclass(frozen=True, slots=True)
class Explained:
    """The trees to draw, side by side (3x3: plain minimax's, recorded to the drawn depth, then the one asked for),
    or ultimate's MCTS tree, and the :class:`~engine.tree.summary.Summary` of the search asked for."""

    trees: tuple[SearchTree, ...] | MctsTree
    summary: Summary


def explain(name: str, cells: Sequence[int], played: int | None, algorithm: Algorithm, seed: int = 0) -> Explained:
    """The search of variant ``name`` in the position after ``cells`` (0-based), explaining ``played`` (the move the
    bot made there, or ``None``: the search's own best move, e.g. for a hint).

    On 3x3 ``algorithm`` is the search's; a ``played`` move the search would not play (a weaker level's, a random
    one) is explained by the search's own best move, as on 4x4 and 5x5 (a fresh search from an empty table: its count
    is its own, not the bot's). On ultimate the MCTS-Solver runs its :data:`engine.tree.mcts.TREE_ITERATIONS` with
    ``seed``.

    Raises:
        ValueError: ``name`` is not one of :data:`EXPLAINED`, or a 4x4 or 5x5 position has too many empty cells.
        IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
    """
    if name not in EXPLAINED:
        raise ValueError(f"the search of {name!r} cannot be recomputed: only {', '.join(EXPLAINED)}")
    cells = tuple(cells)
    if name in _MNK:
        fresh = record_mnk(_MNK[name], cells)
        if played is not None and played in fresh.best_moves:
            fresh = record_mnk(_MNK[name], cells, played)
        return Explained((fresh,), summarise(fresh, fresh=True))
    if name == "ultimate":
        mcts = record_mcts(cells, seed=seed)
        return Explained(mcts, summarise(mcts, played=played))
    keep = _DRAWN_DEPTH if algorithm == "minimax" else None  # minimax's states below are counted, not kept
    tree = record(cells, algorithm, keep=keep)
    if played is not None and played in tree.best_moves:
        tree = record(cells, algorithm, played, keep=keep)
    if algorithm == "minimax":
        other = record(cells, "alpha-beta", tree.move)
        return Explained((tree, other), summarise(tree, other))
    minimax = record(cells, "minimax", tree.move, keep=_DRAWN_DEPTH)  # the same move: one principal line
    return Explained((minimax, tree), summarise(tree, minimax))


def stepped(name: str, cells: Sequence[int], played: int | None) -> SearchTree:
    """The alpha-beta tree a stepper walks in variant ``name`` after ``cells`` (0-based): on 3x3 the bot's search
    recorded whole (:func:`engine.tree.record.record`, at most 231 states), on 4x4 and 5x5 the fresh exact search
    (:func:`engine.tree.mnk.record_mnk`), explaining ``played`` when it is one of the best moves (as :func:`explain`).
    Deterministic: the same arguments give the same tree, so a stepper can recompute it on every press.

    Raises:
        ValueError: ``name`` is not one of :data:`STEPPED`, or a 4x4 or 5x5 position has too many empty cells.
        IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
    """
    if name not in STEPPED:
        raise ValueError(f"the search of {name!r} cannot be stepped through: only {', '.join(STEPPED)}")
    cells = tuple(cells)
    if name in _MNK:
        tree = record_mnk(_MNK[name], cells)
        return record_mnk(_MNK[name], cells, played) if played is not None and played in tree.best_moves else tree
    tree = record(cells)
    return record(cells, move=played) if played is not None and played in tree.best_moves else tree
