"""The searched tree as data: :class:`Node` (one position the search visited) and :class:`SearchTree` (the whole
search behind one move), with their JSON form.

Every number is from X's point of view (X is MAX, as in AIMA §5.2) and in the search's depth-aware units relative
to the root: a win for X in p plies from the root is ``10 - p``, a win for O ``-(10 - p)``, a draw 0 (the units of
:attr:`engine.minimax.search.SearchResult.value`). ``alpha`` and ``beta`` are the window a node was searched with,
``None`` where it is unbounded (and always for plain minimax, which has no window).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = ["Kind", "Node", "Rule", "SearchTree"]

Kind = Literal["node", "terminal", "cut", "table"]
"""``node``: every child searched (or the position valued by a rule); ``terminal``: the game is over there;
``cut``: the search stopped before its last child because the value reached the window (alpha >= beta);
``table``: the value came from the transposition table without a search."""

Rule = Literal["win now", "double threat", "forced block", "last cell", "out of reach"]
"""The threat rules of :class:`engine.minimax.config.SearchConfig` that valued a node without all its children:
the side to move completes a line (one child), cannot block two threats (no child), must block one (one child),
or fills the last cell (one child); 4x4 and 5x5 (:mod:`engine.tree.mnk`) count no child for a win now or the last
cell, and value a node "out of reach" (no child, a bound) when the fastest result still possible cannot enter the
window (mate-distance bounds)."""


@dataclass(slots=True)
class Node:
    """One position the search visited.

    Attributes:
        move: the 0-based cell whose move led here (``None`` at the root).
        mark: the side that played ``move`` (``"X"``/``"O"``; at the root, the side that moved last or ``None``).
        value: the value the search gave this position (a bound at a cut or a bound read from the table).
        alpha, beta: the window the children were searched with (after any narrowing by the table).
        kind: see :data:`Kind`.
        children: the children in the order searched.
        skipped: at a cut, the moves left unsearched, in order.
        rule: the threat rule that valued the node, if any.
        bound: whether ``value`` is the side to move's exact value (``"exact"`` or ``None``), a lower bound
            (``"lower"``: at least this) or an upper bound (``"upper"``), in the side to move's terms (the side that
            did not play ``mark``). Alpha-beta is fail-soft: a node whose value reached its window's beta is a lower
            bound (every cut, some last children), one at or under its alpha an upper bound; a table hit keeps its
            entry's.
        hidden: states searched below this node but not recorded (a tree recorded to a depth; 0 otherwise).
    """

    move: int | None
    mark: str | None
    value: int
    alpha: int | None = None
    beta: int | None = None
    kind: Kind = "node"
    children: list[Node] = field(default_factory=list)
    skipped: tuple[int, ...] = ()
    rule: Rule | None = None
    bound: str | None = None
    hidden: int = 0

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, depth first in search order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def size(self) -> int:
        """The nodes below this one (this one excluded): the states its search evaluated."""
        return sum(1 + node.hidden for node in self.walk()) - 1

    def as_json(self) -> dict[str, Any]:
        """``{"move", "value", "alpha", "beta", "kind", "children"}`` with cells 1-based, plus ``"mark"`` and, where
        they apply, ``"skipped"`` (1-based), ``"rule"``, ``"bound"`` and ``"hidden"``."""
        out: dict[str, Any] = {
            "move": None if self.move is None else self.move + 1,
            "mark": self.mark,
            "value": self.value,
            "alpha": self.alpha,
            "beta": self.beta,
            "kind": self.kind,
            "children": [child.as_json() for child in self.children],
        }
        if self.skipped:
            out["skipped"] = [cell + 1 for cell in self.skipped]
        if self.rule is not None:
            out["rule"] = self.rule
        if self.bound is not None:
            out["bound"] = self.bound
        if self.hidden:
            out["hidden"] = self.hidden
        return out


@dataclass(frozen=True, slots=True)
class SearchTree:
    """The search behind one move.

    Attributes:
        root: the position searched; its children are the root moves searched, in order.
        cells: the 0-based cells played from the empty board to the root.
        algorithm: ``"alpha-beta"`` or ``"minimax"``.
        states: the states the search evaluated: ``root.size()``, the count the bot shows.
        move: the move played (the first of ``best_moves`` unless the caller names the one the bot drew).
        best_moves: every root move with the best value, in search order.
        same_as: root moves not searched because a symmetry of the position maps them onto a searched one
            (move -> searched move, 0-based); they share its value.
        width: the board's side in cells.
        root_window: ``"shared"`` (each root move searched with a window one point past the best so far, so the
            root's earlier moves bound the later ones' searches) or ``"fresh"`` (every root move with an unbounded
            window, as the textbook does).
    """

    root: Node
    cells: tuple[int, ...]
    algorithm: str
    states: int
    move: int
    best_moves: tuple[int, ...]
    same_as: dict[int, int]
    width: int = 3
    root_window: str = "shared"

    def as_json(self) -> dict[str, Any]:
        """The root's JSON (:meth:`Node.as_json`) with the whole search's ``"algorithm"``, ``"states"``,
        ``"best_moves"``, ``"same_as"`` and ``"position"`` (every cell 1-based; the root's ``"move"`` stays null
        and ``"played"`` is the move the bot plays)."""
        out = self.root.as_json()
        out.update(
            {
                "algorithm": self.algorithm,
                "states": self.states,
                "played": self.move + 1,
                "best_moves": [cell + 1 for cell in self.best_moves],
                "same_as": {str(cell + 1): other + 1 for cell, other in sorted(self.same_as.items())},
                "position": [cell + 1 for cell in self.cells],
            }
        )
        return out
