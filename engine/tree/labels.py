"""What the searched tree's picture says, as data: :func:`panels` turns recorded trees into boxes of text lines (the
root and the first ply as boards, one or more plies as small boxes), before any drawing, so the words can be checked
against the numbers without Graphviz and reused by any other view of the tree.

Every box speaks :class:`engine.tree.words.Words`' one convention (values X's, plies from the root); a node whose
children are not all searched says why in its own box (the cut's skipped moves and the alpha or beta that allowed it,
the threat rule, the table), and the root says which moves were mirror images. Side by side, the panels follow one
principal line: the pruned search's, mapped onto the played move when the drawn one is its mirror image.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from engine.coordinates import cell_name
from engine.minimax.search import stabiliser
from engine.tree.node import Node, SearchTree
from engine.tree.savings import Saving, savings
from engine.tree.words import ENGLISH, Words, is_exact, principal_path

__all__ = [
    "Box",
    "Held",
    "Panel",
    "cell_label",
    "cut_held",
    "cut_notes",
    "panels",
    "saving_lines",
    "searched",
    "shared_line",
    "tags",
]

Held = tuple[int, int, int] | None
"""The best value one side already has elsewhere on the path (X's value, the cell that gives it, its ply), or
``None`` while it has nothing yet."""


@dataclass(frozen=True, slots=True)
class Box:
    """One box of the picture.

    Attributes:
        name: unique within the picture; ``parent``: the box it hangs from (``None`` for the root).
        lines: its text, first line first; ``notes``: grey lines below (a cut's skipped moves and why).
        node: the node shown (``None`` for the mirror images' note).
        style: ``"root"`` and ``"board"`` (drawn with a board), ``"small"``, ``"note"`` (the mirror images) or
            ``"savings"`` (what each idea saved: :func:`saving_lines`).
        pv: on the principal line; ``depth``: plies below the root.
        x, o, last: the board drawn (0-based cells), for ``"root"`` and ``"board"``.
    """

    name: str
    parent: str | None
    lines: tuple[str, ...]
    notes: tuple[str, ...] = ()
    node: Node | None = None
    style: str = "small"
    pv: bool = False
    depth: int = 0
    x: frozenset[int] = frozenset()
    o: frozenset[int] = frozenset()
    last: int | None = None


@dataclass(frozen=True, slots=True)
class Panel:
    """One tree's boxes, its title (``"alpha-beta: 71 states"``) and the principal line drawn (0-based cells)."""

    tree: SearchTree
    title: str
    boxes: tuple[Box, ...]
    line: tuple[int, ...]


def panels(trees: Sequence[SearchTree], depth: int = 2, words: Words = ENGLISH, *, saved: bool = False) -> list[Panel]:
    """The boxes of ``trees`` drawn side by side, each to ``depth`` plies below the root (deeper plies are counts).
    ``saved``: the bot's 3x3 alpha-beta panel also gets a note of what each idea saved in its position
    (:func:`saving_lines`; about 0.04 s with the C kernel, plain minimax's count taken from a minimax tree beside it).

    Raises:
        ValueError: ``trees`` is empty.
    """
    if not trees:
        raise ValueError("a picture needs at least one tree")
    lines = shared_line(trees)
    out = [_Panel(tree, line, depth, words).build() for tree, line in zip(trees, lines, strict=True)]
    bot = next((p for p in out if p.tree.width == 3 and p.tree.algorithm == "alpha-beta"), None)
    if saved and bot is not None and bot.tree.root_window == "shared":
        known = next((t.states for t in trees if t.algorithm == "minimax"), None)
        rungs = savings(bot.tree.cells, minimax_states=known)
        note = Box(f"b{len(bot.boxes)}", bot.boxes[0].name, saving_lines(rungs, words), style="savings")
        out[out.index(bot)] = replace(bot, boxes=(*bot.boxes, note))
    return out


def saving_lines(rungs: Sequence[Saving], words: Words = ENGLISH) -> tuple[str, ...]:
    """What each idea saved (:func:`engine.tree.savings.savings`), a title and one line per rung, with the change
    from the line above (a minus sign when it saved states, ``+`` when it cost): ``"+ transposition table: 1,067
    (+N)"``."""
    names = {"minimax": words.step_minimax, "alpha-beta": words.step_alpha_beta, "scores": words.step_scores,
             "ordering": words.step_ordering, "window": words.step_window, "table": words.step_table,
             "symmetry": words.step_symmetry, "threats": words.step_threats}  # fmt: skip
    lines = [words.saved_title]
    for index, rung in enumerate(rungs):
        count = words.number(rung.states)
        if index == 0:
            lines.append(f"{names[rung.step]}: {count}")
            continue
        change = ("\N{MINUS SIGN}" if rung.saved > 0 else "+") + words.number(abs(rung.saved))
        lines.append(words.saved_line.format(step=names[rung.step], count=count, change=change))
    return tuple(lines)


def shared_line(trees: Sequence[SearchTree]) -> list[tuple[int, int, list[Node]]]:
    """Per tree, the move played, the root move drawn and its principal line: the pruned (alpha-beta) tree's played
    move and line, and in the others the same cells, turned by the symmetry that maps the drawn move onto the played
    one when the played move was a mirror image (not searched). A tree without that line keeps its own."""
    reference = next((t for t in trees if t.algorithm == "alpha-beta"), trees[0])
    drawn = reference.same_as.get(reference.move, reference.move)
    cells = [node.move for node in principal_path(reference.root, drawn)]
    perm = tuple(range(reference.width**2))
    if drawn != reference.move:
        x, o = _mask(reference.cells[0::2]), _mask(reference.cells[1::2])
        perm = next(p for p in stabiliser(x, o) if p[drawn] == reference.move)
    out: list[tuple[int, int, list[Node]]] = []
    for tree in trees:
        if tree is reference:
            out.append((tree.move, drawn, principal_path(tree.root, drawn)))
            continue
        moves = [perm[c] for c in cells if c is not None] if not tree.same_as else [c for c in cells if c is not None]
        path, node = [], tree.root
        for move in moves:
            child = next((c for c in node.children if c.move == move and is_exact(c)), None)
            if child is None:
                break
            path.append(child)
            node = child
        if not path or reference.move not in tree.best_moves:
            own = tree.same_as.get(tree.move, tree.move)
            out.append((tree.move, own, principal_path(tree.root, own)))
        else:
            out.append((reference.move, moves[0], path))
    return out


def cut_held(node: Node, held: dict[str, Held]) -> Held:
    """At a cut ``node``, what the other side already had elsewhere that its value reached (the textbook alpha or
    beta), or ``None`` when the cut came from the position's own bound (the table's, or the best result still
    possible)."""
    if node.mark == "O":  # X to move: its value reached O's best elsewhere (β)
        found = held["O"]
        return found if found is not None and node.value >= found[0] else None
    found = held["X"]
    return found if found is not None and node.value <= found[0] else None


def searched(
    node: Node, side: str, depth: int, held: dict[str, Held], *, count: bool = True
) -> list[tuple[Node, dict[str, Held]]]:
    """``node``'s children in search order, each with what each side already held elsewhere when it was searched
    (``side`` moves at ``node``, ``depth`` plies below the root; ``count``: the earlier children bound the later ones,
    as everywhere but at a root searched with fresh windows). Only exact values count: a bound is not a line."""
    out, best = [], held[side]
    for child in node.children:
        out.append((child, {**held, side: best}))
        better = best is None or (child.value > best[0] if side == "X" else child.value < best[0])
        if count and better and is_exact(child) and child.move is not None:
            best = (child.value, child.move, depth + 1)
    return out


def tags(node: Node, words: Words = ENGLISH) -> list[str]:
    """Why ``node`` has fewer children than moves, apart from a cut: the table, or the threat rule that valued it."""
    side = "O" if node.mark == "X" else "X"  # to move at the node
    out = [words.table] if node.kind == "table" else []
    rule = {"forced block": words.must_block, "double threat": words.two_threats, "win now": words.wins_next,
            "last cell": words.last_cell, "out of reach": words.out_of_reach}  # fmt: skip
    if node.rule == "out of reach" and node.bound == "lower":  # the worst still possible is too good for side
        out.append(words.out_of_reach_good.format(side=side, other="O" if side == "X" else "X"))
    elif node.rule is not None:
        out.append(rule[node.rule].format(side=side))
    return out


def cut_notes(node: Node, held: dict[str, Held], words: Words, label: Callable[[int], str]) -> tuple[str, ...]:
    """At a cut, its two notes: the moves not searched (named by ``label``) and the alpha or beta that allowed it
    (:func:`cut_held`); ``()`` elsewhere."""
    if node.kind != "cut":
        return ()
    side = "O" if node.mark == "X" else "X"
    cells = ", ".join(label(cell) for cell in node.skipped)
    found = cut_held(node, held)
    if found is None:
        reason = words.cut_reason(side, None, window=node.beta if side == "X" else node.alpha)
    else:
        value, cell, ply = found
        reason = words.cut_reason(side, value, f"{'O' if side == 'X' else 'X'} {label(cell)}", ply)
    return ("✂ " + words.not_searched.format(cells=cells), reason)


def cell_label(cell: int, width: int) -> str:
    """A cell as the board names it: 1-9 on 3x3, else its coordinate (``b3``)."""
    return str(cell + 1) if width == 3 else cell_name(cell, width)


def _mask(cells: Sequence[int]) -> int:
    mask = 0
    for cell in cells:
        mask |= 1 << cell
    return mask


class _Panel:
    def __init__(self, tree: SearchTree, line: tuple[int, int, list[Node]], depth: int, words: Words) -> None:
        self.tree, self.depth, self.words = tree, depth, words
        self.played, self.drawn, path = line
        self.pv = {id(node) for node in path}
        self.line = tuple(node.move for node in path if node.move is not None)
        self.boxes: list[Box] = []
        self.x, self.o = frozenset(tree.cells[0::2]), frozenset(tree.cells[1::2])
        self.side = "X" if len(tree.cells) % 2 == 0 else "O"

    def name(self) -> str:
        return f"b{len(self.boxes)}"

    def build(self) -> Panel:
        tree, w = self.tree, self.words
        root = self.name()
        plays = (
            w.plays.format(move=self.label(self.played))
            if self.drawn == self.played
            else w.plays_mirror.format(move=self.label(self.played), searched=self.label(self.drawn))
        )
        lines = (w.to_move.format(side=self.side, value=w.value_text(tree.root)), plays)
        self.boxes.append(Box(root, None, lines, node=tree.root, style="root", pv=True, x=self.x, o=self.o))
        held: dict[str, Held] = {"X": None, "O": None}
        shared = tree.root_window == "shared"
        for child, above in searched(tree.root, self.side, 0, held, count=shared):
            self.node(root, child, 1, above)
        if tree.same_as:
            mirrored = ", ".join(f"{self.label(c)} = {self.label(o)}" for c, o in sorted(tree.same_as.items()))
            self.boxes.append(Box(self.name(), root, (w.mirrors, mirrored), style="note"))
        title = w.count(w.title, tree.states, algorithm=tree.algorithm)
        return Panel(tree, title, tuple(self.boxes), self.line)

    def node(self, parent: str, node: Node, depth: int, held: dict[str, Held]) -> None:
        assert node.move is not None
        w, me = self.words, self.name()
        side = "O" if node.mark == "X" else "X"  # to move at the node
        head = f"{node.mark} {self.label(node.move)}: {w.value_text(node)}"
        on_pv = id(node) in self.pv
        if depth == 1:
            lines = [head, w.count(w.states, node.size() + 1)]
        else:
            lines = [head]
            below = node.size()
            if below:
                cuts = sum(1 for n in node.walk() if n.kind == "cut") - (node.kind == "cut")
                lines.append(w.count(w.below, below) + (f", ✂ {cuts}" if cuts else ""))
        lines += tags(node, w)
        x, o = (self.x | {node.move}, self.o) if node.mark == "X" else (self.x, self.o | {node.move})
        notes = cut_notes(node, held, w, self.label)
        style = "board" if depth == 1 else "small"
        box = Box(me, parent, tuple(lines), notes, node, style, on_pv, depth, x, o, node.move)
        self.boxes.append(box)
        expand = depth < self.depth and (
            depth > 1 or on_pv or node.kind == "cut" or any(c.kind == "cut" for c in node.children)
        )
        if expand:
            for child, above in searched(node, side, depth, held):
                self.node(me, child, depth + 1, above)

    def label(self, cell: int) -> str:
        return cell_label(cell, self.tree.width)
