"""What a recorded search did, in a few numbers (:class:`Summary`), for sentences beside its picture."""

from __future__ import annotations

from dataclasses import dataclass

from engine.tree.mcts import MctsTree
from engine.tree.node import SearchTree

__all__ = ["Summary", "summarise", "summarise_mcts"]


@dataclass(frozen=True, slots=True)
class Summary:
    """One search behind a move.

    Attributes:
        algorithm: ``"alpha-beta"``, ``"minimax"`` or ``"mcts"``.
        move: the move explained (0-based cell).
        states: the states the search evaluated (MCTS: the positions its iterations visited).
        best_moves: 3x3: every move as good as the best; MCTS: the best move alone.
        value: 3x3: the root's value (:mod:`engine.tree.node`'s units), else ``None``.
        terminal, table, cuts, skipped, mirrors: 3x3: finished positions among the recorded nodes, transposition-table
            hits, cuts, moves the cuts skipped, root moves not searched as mirror images (0 for MCTS).
        other_states: the other 3x3 search's count in the same position (minimax's for alpha-beta and the reverse),
            when known.
        fresh: a fresh search from an empty transposition table (4x4, 5x5), not a replay of the bot's.
        at_once: a win in one played at once, as the bot plays it, with no other move searched (the tree holds the
            winning moves alone: :func:`engine.tree.mnk.record_at_once`).
        iterations, visits, win_rate, proof, plies: MCTS: its iterations, and the move's visits, mean score for the
            mover, proof (``"win"``/``"draw"``/``"loss"``) and a proven result's distance in plies.
    """

    algorithm: str
    move: int
    states: int
    best_moves: tuple[int, ...]
    value: int | None = None
    terminal: int = 0
    table: int = 0
    cuts: int = 0
    skipped: int = 0
    mirrors: int = 0
    other_states: int | None = None
    iterations: int = 0
    visits: int = 0
    win_rate: float = 0.0
    proof: str | None = None
    plies: int | None = None
    fresh: bool = False
    at_once: bool = False


def summarise(tree: SearchTree, other: SearchTree | None = None, *, fresh: bool = False) -> Summary:
    """The :class:`Summary` of ``tree``; ``other`` is the other 3x3 search in the same position, for its count;
    ``fresh``: ``tree`` is a fresh search, not the bot's."""
    nodes = list(tree.root.walk())[1:]
    return Summary(
        tree.algorithm,
        tree.move,
        tree.states,
        tree.best_moves,
        tree.root.value,
        terminal=sum(1 for node in nodes if node.kind == "terminal"),
        table=sum(1 for node in nodes if node.kind == "table"),
        cuts=sum(1 for node in nodes if node.kind == "cut"),
        skipped=sum(len(node.skipped) for node in nodes),
        mirrors=len(tree.same_as),
        other_states=None if other is None else other.states,
        fresh=fresh,
        at_once=tree.root.rule == "win now",
    )


def summarise_mcts(tree: MctsTree, played: int | None = None) -> Summary:
    """The :class:`Summary` of an MCTS search's first plies, for the move ``played`` (default: the best one)."""
    best = tree.moves[0]
    move = next((m for m in tree.moves if m.move == played), best)
    return Summary(
        "mcts", move.move, tree.states, (best.move,), iterations=tree.iterations, visits=move.visits,
        win_rate=move.mean, proof=move.proof, plies=move.plies,
    )  # fmt: skip
