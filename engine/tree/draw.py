"""The searched tree as a picture: Graphviz lays it out (``dot``), Pillow draws the small boards.

What it shows, so that it reads on a phone: the root and the first ply as boards; below them, one more ply as small
boxes for the moves worth looking at (the principal variation and every node where alpha-beta cut); deeper levels as
counts. The principal variation is orange; each pruned branch is a grey dashed box with the moves left unsearched
and the bound that cut it (AIMA §5.3). Several trees (minimax and alpha-beta) are drawn side by side, each with its
count of states.

Needs the ``graphviz`` package and Graphviz's ``dot`` program (Debian's ``graphviz``), and Pillow; the command line
imports this module only when a picture is asked for.
"""

from __future__ import annotations

import base64
import io
import re
import tempfile
from collections.abc import Sequence
from html import escape
from pathlib import Path

import graphviz
from PIL import Image

from engine.coordinates import cell_name
from engine.tree.boards import board_png
from engine.tree.node import Node, SearchTree
from engine.tree.words import ENGLISH, Words, principal_path, signed

__all__ = ["FONT", "GREY", "PV", "board_label", "finish", "render"]

PV = "#e66a00"
GREY = "#9a9aa6"
FONT = "DejaVu Sans"


def render(trees: Sequence[SearchTree], fmt: str = "png", *, depth: int = 2, words: Words = ENGLISH) -> bytes:
    """The picture of ``trees`` side by side as PNG or SVG bytes (``fmt``: ``"png"`` or ``"svg"``), each drawn to
    ``depth`` plies below the root (deeper plies become counts), its phrases in ``words``.

    Raises:
        ValueError: ``fmt`` is neither ``"png"`` nor ``"svg"``, or ``trees`` is empty.
        graphviz.ExecutableNotFound: Graphviz's ``dot`` is not installed.
    """
    if fmt not in ("png", "svg") or not trees:
        raise ValueError(f"a picture is png or svg of at least one tree, not {fmt!r} of {len(trees)}")
    with tempfile.TemporaryDirectory(prefix="ttt-tree-") as folder:
        graph = graphviz.Digraph(format=fmt, engine="dot")
        graph.attr(rankdir="LR", nodesep="0.1", ranksep="0.35", bgcolor="white", fontname=FONT, dpi="96")
        graph.attr(ordering="out", labelloc="b", fontsize="11", label=words.legend.replace("\n", "\\n") + "\\n")
        graph.attr("node", fontname=FONT, fontsize="11", shape="plain")
        graph.attr("edge", color=GREY, arrowsize="0.5", penwidth="1.2")
        for index, tree in reversed(list(enumerate(trees))):  # dot lays a left-to-right rank out bottom up
            with graph.subgraph(name=f"cluster_{index}") as cluster:
                _Drawing(cluster, tree, Path(folder), f"t{index}", depth, words).draw()
        return finish(graph, fmt, Path(folder))


def finish(graph: graphviz.Digraph, fmt: str, folder: Path) -> bytes:
    """Lay ``graph`` out and draw it: an SVG carries its board images (drawn in ``folder``) inside it, a PNG is
    reduced to a palette."""
    picture: bytes = graph.pipe(format=fmt)
    if fmt == "svg":
        return _inline_images(picture, folder)
    return _palette(picture)


def _palette(png: bytes) -> bytes:
    """The PNG with at most 128 colours: a quarter of the bytes, for a quick upload, and no visible loss."""
    out = io.BytesIO()
    Image.open(io.BytesIO(png)).convert("RGB").quantize(128, Image.Quantize.FASTOCTREE).save(out, "PNG")
    return out.getvalue()


class _Drawing:
    def __init__(
        self, graph: graphviz.Digraph, tree: SearchTree, folder: Path, prefix: str, depth: int, words: Words
    ) -> None:
        self.graph, self.tree, self.folder, self.prefix, self.depth = graph, tree, folder, prefix, depth
        self.words = words
        self.marks = len(tree.cells)
        self.side = "X" if self.marks % 2 == 0 else "O"
        self.x = frozenset(tree.cells[0::2])
        self.o = frozenset(tree.cells[1::2])
        played = tree.same_as.get(tree.move, tree.move)
        self.pv = {id(node) for node in principal_path(tree.root, played)}
        self.count = 0

    def name(self) -> str:
        self.count += 1
        return f"{self.prefix}_{self.count}"

    def draw(self) -> None:
        tree = self.tree
        w = self.words
        title = w.title.format(algorithm=tree.algorithm, count=w.number(tree.states))
        self.graph.attr(
            label=f"<<B>{escape(title)}</B>>", labelloc="t", fontsize="15", color="#d0d0da", style="rounded"
        )
        root = self.name()
        image = self.board(self.x, self.o, None, 104)
        lines = [
            w.to_move.format(side=self.side, value=w.value(tree.root.value)),
            w.plays.format(move=self.label(tree.move)),
        ]
        self.graph.node(root, board_label(image, lines, bold=True))
        for child in reversed(tree.root.children):  # reversed: the first searched is drawn at the top
            self.first_ply(root, child)
        if tree.same_as:
            mirrored = ", ".join(f"{self.label(c)} = {self.label(o)}" for c, o in sorted(tree.same_as.items()))
            note = self.name()
            text = f"{escape(w.mirrors)}<BR/>{escape(mirrored)}"
            self.graph.node(note, f"<<FONT COLOR='{GREY}'>{text}</FONT>>")
            self.graph.edge(root, note, style="dotted", arrowhead="none")

    def first_ply(self, parent: str, node: Node) -> None:
        assert node.move is not None
        me = self.name()
        mark_x = node.mark == "X"
        image = self.board(
            self.x | {node.move} if mark_x else self.x, self.o | {node.move} if not mark_x else self.o, node.move, 72
        )
        lines = [
            f"{node.mark} {self.label(node.move)}: {self.value_text(node, 1)}",
            self.words.states.format(count=self.words.number(node.size() + 1)),
        ]
        lines += self.tags(node)
        on_pv = id(node) in self.pv
        self.graph.node(me, board_label(image, lines, bold=on_pv))
        self.edge(parent, me, node)
        if self.depth >= 2 and (on_pv or node.kind == "cut" or any(c.kind == "cut" for c in node.children)):
            for child in reversed(node.children):
                self.small(me, child, 2)
        self.skipped(me, node, 1)

    def small(self, parent: str, node: Node, depth: int) -> None:
        assert node.move is not None
        me = self.name()
        lines = [f"<B>{node.mark} {self.label(node.move)}</B>: {escape(self.value_text(node, depth))}"]
        below = node.size()
        if below:
            cuts = sum(1 for n in node.walk() if n.kind == "cut") - (node.kind == "cut")
            text = self.words.below.format(count=self.words.number(below)) + (f", ✂ {cuts}" if cuts else "")
            lines.append(escape(text))
        lines += [escape(tag) for tag in self.tags(node)]
        colour = PV if id(node) in self.pv else "#55556a"
        label = "<BR/>".join(lines)
        self.graph.node(me, f"<{label}>", shape="box", style="rounded", color=colour, fontsize="10", margin="0.06,0.03")
        self.edge(parent, me, node)
        if depth < self.depth:
            for child in reversed(node.children):
                self.small(me, child, depth + 1)
        self.skipped(me, node, depth)

    def skipped(self, parent: str, node: Node, depth: int) -> None:
        if node.kind != "cut":
            return
        box = self.name()
        cells = ", ".join(self.label(cell) for cell in node.skipped)
        side = "O" if node.mark == "X" else "X"
        empty = self.tree.width * self.tree.width - self.marks  # the units count as if from 9 - empty marks on 3x3
        reason = self.words.cut_reason(node, side, 9 - empty)
        text = f"&#9986; {escape(self.words.not_searched.format(cells=cells))}<BR/>{escape(reason)}"
        label = f"<<FONT COLOR='{GREY}'>{text}</FONT>>"
        self.graph.node(box, label, shape="box", style="dashed,rounded", color=GREY, fontsize="10", margin="0.06,0.03")
        self.graph.edge(parent, box, style="dashed")

    def edge(self, parent: str, child: str, node: Node) -> None:
        if id(node) in self.pv:
            self.graph.edge(parent, child, color=PV, penwidth="2.6")
        else:
            self.graph.edge(parent, child)

    def value_text(self, node: Node, depth: int) -> str:
        text = f"{signed(node.value)} ({self.words.value(node.value, depth)})"
        if node.kind == "cut":  # a bound: MAX stopped at its value or more, MIN at its value or less
            return f"{'≥' if node.mark == 'O' else '≤'} {text}"
        if node.bound in ("lower", "upper"):  # a bound from the table or out of reach: the side to move's
            at_least = (node.bound == "lower") == (node.mark == "O")
            return f"{'≥' if at_least else '≤'} {text}"
        return text

    def tags(self, node: Node) -> list[str]:
        side = "X" if node.mark == "O" else "O"  # to move at the node
        w = self.words
        tags = [w.table] if node.kind == "table" else []
        rule = {"forced block": w.must_block, "double threat": w.two_threats, "win now": w.wins_next}
        if node.rule in rule:
            tags.append(rule[node.rule].format(side=side))
        return tags

    def label(self, cell: int) -> str:  # as the board names it: 1-9 on 3x3, else its coordinate (b3)
        return str(cell + 1) if self.tree.width == 3 else cell_name(cell, self.tree.width)

    def board(self, x: frozenset[int], o: frozenset[int], last: int | None, px: int) -> str:
        path = self.folder / f"{self.name()}.png"
        return str(board_png(path, x, o, last, width=self.tree.width, px=px))


def board_label(image: str, lines: list[str], *, bold: bool) -> str:
    """A Graphviz HTML label: the board picture at ``image`` above ``lines`` (escaped unless they start with
    ``<``), framed in orange when ``bold``."""
    colour = PV if bold else "#55556a"
    text = "<BR/>".join(line if line.startswith("<") else escape(line) for line in lines)
    return (
        f"<<TABLE BORDER='{2 if bold else 1}' COLOR='{colour}' CELLBORDER='0' CELLSPACING='0' CELLPADDING='3'>"
        f"<TR><TD><IMG SRC='{escape(image)}'/></TD></TR><TR><TD>{text}</TD></TR></TABLE>>"
    )


def _inline_images(svg: bytes, folder: Path) -> bytes:
    """Replace the SVG's links to the board files (deleted with ``folder``) by the PNGs themselves (data URIs)."""

    def inline(match: re.Match[bytes]) -> bytes:
        path = Path(match.group(2).decode())
        if path.parent != folder:
            return match.group(0)
        data = base64.b64encode(path.read_bytes())
        return match.group(1) + b"data:image/png;base64," + data + b'"'

    return re.sub(rb'(xlink:href=")([^"]+)"', inline, svg)
