"""Step through a recorded search, one state at a time, in the order the search evaluated them.

:func:`steps` turns a :class:`~engine.tree.node.SearchTree` into one :class:`Step` per node below the root (so as
many steps as the states the search counted, when the tree was recorded whole), each with the window its children
were searched with, the value it returned and, at a cut, the moves never searched. :func:`replay` builds the tree
back from the steps alone (the tests check it is the same tree). :func:`walk` writes the steps for a person: each
state as it is entered with its alpha and beta, each value as it comes back up, each cut as it happens with the
alpha or beta that allowed it (:func:`engine.tree.labels.cut_notes`, the picture's words), and the count so far.
Sources: the alpha-beta walk-through of AIMA §5.3 (Figure 5.5), fail-soft negamax as in Knuth & Moore (1975).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from engine.tree.labels import Held, cell_label, cut_notes, searched, tags
from engine.tree.node import Node, SearchTree
from engine.tree.words import ENGLISH, Words, signed

__all__ = ["Cursor", "Step", "replay", "steps", "walk"]


@dataclass(frozen=True, slots=True)
class Step:
    """One state the search evaluated.

    Attributes:
        count: the states evaluated so far, this one included (states counted below a node recorded to a depth
            included: :attr:`engine.tree.node.Node.hidden`).
        path: the 0-based cells played from the root to this state; ``node``: its recorded node.
        alpha, beta: the window its children were searched with (X's values; ``None``: unbounded or minimax).
        value: the value it returned (X's, :mod:`engine.tree.node`'s units); ``node.bound`` says if it is a bound.
    """

    count: int
    path: tuple[int, ...]
    node: Node

    def as_json(self) -> dict[str, Any]:
        """``{"count", "path", "move", "mark", "alpha", "beta", "value", "kind", "children"}`` (cells 1-based;
        ``children``: how many of its children were searched), plus ``"bound"``, ``"rule"``, ``"skipped"`` and
        ``"hidden"`` where they apply: :meth:`engine.tree.node.Node.as_json` without the children themselves."""
        out = self.node.as_json()
        out["children"] = len(self.node.children)
        return {"count": self.count, "path": [cell + 1 for cell in self.path], **out}


def steps(tree: SearchTree) -> Iterator[Step]:
    """Every node below ``tree``'s root, in the order the search evaluated it (depth first, children in search
    order)."""
    count = 0
    stack: list[tuple[Node, tuple[int, ...]]] = [(child, ()) for child in reversed(tree.root.children)]
    while stack:
        node, above = stack.pop()
        assert node.move is not None
        path = (*above, node.move)
        count += 1 + node.hidden
        yield Step(count, path, node)
        stack.extend((child, path) for child in reversed(node.children))


@dataclass(frozen=True, slots=True)
class Cursor:
    """Moves through a search's steps (a list from :func:`steps`) the way a stepper's buttons do, by index: each method
    returns the index to show next, or the same index when there is nowhere to go (so a stale or repeated press is
    harmless). Indices out of range raise :class:`IndexError`.

    ``next``/``back``: the following or previous state in search order; ``into``: the first state searched below this
    one; ``out``: the state above it (``None`` at a root move: back to the root); ``cut``: the next state where the
    search cut, after this one.
    """

    steps: tuple[Step, ...]

    def _check(self, index: int) -> None:
        if not 0 <= index < len(self.steps):
            raise IndexError(f"step {index + 1} of {len(self.steps)}")

    def next(self, index: int) -> int:
        """The following state in search order."""
        self._check(index)
        return min(index + 1, len(self.steps) - 1)

    def back(self, index: int) -> int:
        """The previous state in search order."""
        self._check(index)
        return max(index - 1, 0)

    def into(self, index: int) -> int:
        """The first state searched below this one (itself at a leaf)."""
        self._check(index)
        return index + 1 if self.steps[index].node.children else index

    def out(self, index: int) -> int | None:
        """The state this one was searched from (``None`` at a root move)."""
        self._check(index)
        parent = self.steps[index].path[:-1]
        if not parent:
            return None
        return next(i for i in range(index - 1, -1, -1) if self.steps[i].path == parent)

    def cut(self, index: int) -> int:
        """The next state where the search cut (itself when there is none after it)."""
        self._check(index)
        return next((i for i in range(index + 1, len(self.steps)) if self.steps[i].node.kind == "cut"), index)


def replay(events: Iterable[dict[str, Any]], root: Node) -> Node:
    """The tree rebuilt from :meth:`Step.as_json` events alone, under a copy of ``root``'s own fields (its move, mark,
    value and window; its children come from the events).

    Raises:
        ValueError: an event's path does not hang from an earlier one, or a node has a different number of children
            than its event said.
    """
    top = Node(root.move, root.mark, root.value, root.alpha, root.beta, root.kind)
    nodes: dict[tuple[int, ...], tuple[Node, int]] = {}
    for event in events:
        path = tuple(cell - 1 for cell in event["path"])
        if path[:-1] and path[:-1] not in nodes:
            raise ValueError(f"step {event['count']} hangs from {event['path'][:-1]}, which was never entered")
        node = Node(path[-1], event["mark"], event["value"], event["alpha"], event["beta"], event["kind"],
                    skipped=tuple(c - 1 for c in event.get("skipped", ())), rule=event.get("rule"),
                    bound=event.get("bound"), hidden=event.get("hidden", 0))  # fmt: skip
        (nodes[path[:-1]][0] if path[:-1] else top).children.append(node)
        nodes[path] = (node, event["children"])
    for path, (node, children) in nodes.items():
        if len(node.children) != children:
            raise ValueError(f"the node at {[c + 1 for c in path]} has {len(node.children)} children, not {children}")
    return top


def walk(tree: SearchTree, words: Words = ENGLISH) -> Iterator[tuple[Step | None, list[str]]]:
    """The walk through ``tree`` for a person: per step, the lines that come with it (first the values returned and
    the cuts made since the last step, then the state entered: its count so far, its window, and a leaf's value),
    and at the end ``(None, the last returns and the root's value)``."""
    return _Walk(tree, words).run()


class _Walk:
    def __init__(self, tree: SearchTree, words: Words) -> None:
        self.tree, self.words = tree, words
        self.count = 0
        self.pending: list[str] = []
        self.width = tree.width

    def run(self) -> Iterator[tuple[Step | None, list[str]]]:
        tree, w = self.tree, self.words
        side = "X" if len(tree.cells) % 2 == 0 else "O"
        held: dict[str, Held] = {"X": None, "O": None}
        yield from self.children(tree.root, side, 0, held, (), shared=tree.root_window == "shared")
        total = w.count(w.states, tree.states)
        self.pending.append(f"{self.after(1)}{w.to_move.format(side=side, value=w.value_text(tree.root))}: {total}")
        yield None, self.flush()

    def children(
        self, node: Node, side: str, depth: int, held: dict[str, Held], path: tuple[int, ...], *, shared: bool = True
    ) -> Iterator[tuple[Step | None, list[str]]]:
        other = "O" if side == "X" else "X"
        for child, above in searched(node, side, depth, held, count=shared):
            assert child.move is not None
            here = (*path, child.move)
            self.count += 1 + child.hidden
            yield Step(self.count, here, child), [*self.flush(), self.enter(child, depth + 1)]
            if child.children:
                yield from self.children(child, other, depth + 1, above, here)
            if child.kind == "cut":  # its reason, under its searched children, before its value goes up
                notes = cut_notes(child, above, self.words, self.label)
                self.pending += [f"{self.after(depth + 2)}{note}" for note in notes]
            if child.children:
                self.pending.append(f"{self.after(depth + 1)}← {self.name(child)} = {self.value(child)}")

    def enter(self, node: Node, depth: int) -> str:
        w, indent = self.words, self.indent(depth)
        head = f"{self.count:>7,}  {indent}{self.name(node)}"
        if node.kind != "terminal" and self.tree.algorithm == "alpha-beta":
            head += f"  {_ALPHA} {_bound(node.alpha, '-')}  β {_bound(node.beta, '+')}"
        if not node.children:  # a leaf: its value is known at once
            why = [*tags(node, w)] or ([w.count(w.below, node.hidden)] if node.hidden else [])
            return f"{head}  = {self.value(node)}" + "".join(f"; {text}" for text in why)
        return head + "".join(f"; {text}" for text in tags(node, w))

    def value(self, node: Node) -> str:
        return self.words.value_text(node)

    def name(self, node: Node) -> str:
        assert node.move is not None
        return f"{node.mark} {self.label(node.move)}"

    def label(self, cell: int) -> str:
        return cell_label(cell, self.width)

    def indent(self, depth: int) -> str:
        return "  " * (depth - 1)

    def after(self, depth: int) -> str:  # a line with no count: under the moves, past the count column
        return " " * 9 + self.indent(depth)

    def flush(self) -> list[str]:
        lines, self.pending = self.pending, []
        return lines


_ALPHA = "\N{GREEK SMALL LETTER ALPHA}"


def _bound(value: int | None, infinity: str) -> str:
    return f"{infinity}∞" if value is None else signed(value)
