"""The searched tree as a picture: Graphviz lays it out (``dot``), Pillow draws the small boards.

What it shows, so that it reads on a phone: the root and the first ply as boards; below them, one more ply as small
boxes for the moves worth looking at (the principal variation and every node where alpha-beta cut); deeper levels as
counts. The principal variation is orange; a node where the search cut carries, in its own box and in grey, the
moves left unsearched and the alpha or beta that allowed it (AIMA §5.3). Several trees (minimax and alpha-beta) are
drawn side by side, each with its count of states. What the boxes say is :mod:`engine.tree.labels`' data.

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

from engine.tree.boards import board_png
from engine.tree.labels import Box, Panel, panels
from engine.tree.node import SearchTree
from engine.tree.words import ENGLISH, Words

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
        drawn = panels(trees, depth, words, saved=True)
        for index, panel in reversed(list(enumerate(drawn))):  # dot lays a left-to-right rank out bottom up
            with graph.subgraph(name=f"cluster_{index}") as cluster:
                _Drawing(cluster, panel, Path(folder), f"t{index}").draw()
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
    """Draws one :class:`engine.tree.labels.Panel`: its boxes as Graphviz nodes, a cut's reason inside its own box."""

    def __init__(self, graph: graphviz.Digraph, panel: Panel, folder: Path, prefix: str) -> None:
        self.graph, self.panel, self.folder, self.prefix = graph, panel, folder, prefix
        self.width = panel.tree.width

    def draw(self) -> None:
        title = self.panel.title
        self.graph.attr(
            label=f"<<B>{escape(title)}</B>>", labelloc="t", fontsize="15", color="#d0d0da", style="rounded"
        )
        for box in self.panel.boxes:
            name = f"{self.prefix}_{box.name}"
            if box.style in ("root", "board"):
                image = self.board(name, box)
                notes = [f"<FONT COLOR='{GREY}'>{escape(note)}</FONT>" for note in box.notes]
                self.graph.node(name, board_label(image, [*box.lines, *notes], bold=box.pv))
            elif box.style == "note":
                text = "<BR/>".join(escape(line) for line in box.lines)
                self.graph.node(name, f"<<FONT COLOR='{GREY}'>{text}</FONT>>")
            elif box.style == "savings":
                text = "<BR ALIGN='LEFT'/>".join([f"<B>{escape(box.lines[0])}</B>", *map(escape, box.lines[1:])])
                self.graph.node(name, f"<{text}<BR ALIGN='LEFT'/>>", shape="box", style="rounded,dotted",
                                color=GREY, fontsize="10", margin="0.08,0.05")  # fmt: skip
            else:
                lines = [f"<B>{escape(box.lines[0])}</B>", *(escape(line) for line in box.lines[1:])]
                lines += [f"<FONT COLOR='{GREY}'>{escape(note)}</FONT>" for note in box.notes]
                style = "dashed,rounded" if box.notes else "rounded"
                self.graph.node(name, f"<{'<BR/>'.join(lines)}>", shape="box", style=style,
                                color=PV if box.pv else "#55556a", fontsize="10", margin="0.06,0.03")  # fmt: skip
            if box.parent is not None:
                parent = f"{self.prefix}_{box.parent}"
                if box.style in ("note", "savings"):
                    self.graph.edge(parent, name, style="dotted", arrowhead="none")
                elif box.pv:
                    self.graph.edge(parent, name, color=PV, penwidth="2.6")
                else:
                    self.graph.edge(parent, name)

    def board(self, name: str, box: Box) -> str:
        px = 104 if box.style == "root" else 72
        path = self.folder / f"{name}.png"
        return str(board_png(path, box.x, box.o, box.last, width=self.width, px=px))


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
