"""Ultimate's search as a picture: the board, every root move the MCTS-Solver weighed (visits, win rate, proof),
and the most visited line below the best one. Graphviz lays it out, Pillow draws the board (as :mod:`engine.tree.draw`,
whose helpers it shares); imported only when a picture is asked for.
"""

from __future__ import annotations

import tempfile
from html import escape
from pathlib import Path

import graphviz

from engine.coordinates import cell_name
from engine.tree.boards import board_png
from engine.tree.draw import FONT, GREY, PV, board_label, finish
from engine.tree.mcts import MctsTree
from engine.tree.words import ENGLISH, Words
from engine.ultimate.tree import RootMove

__all__ = ["SHOWN", "render_mcts"]

SHOWN = 7
"""The most visited root moves drawn one by one; the rest are one box with their count and visits."""


def render_mcts(tree: MctsTree, fmt: str = "png", *, words: Words = ENGLISH) -> bytes:
    """The picture of ``tree`` as PNG or SVG bytes, its phrases in ``words``.

    Raises:
        ValueError: ``fmt`` is neither ``"png"`` nor ``"svg"``.
        graphviz.ExecutableNotFound: Graphviz's ``dot`` is not installed.
    """
    if fmt not in ("png", "svg"):
        raise ValueError(f"a picture is png or svg, not {fmt!r}")
    side = "X" if len(tree.cells) % 2 == 0 else "O"
    with tempfile.TemporaryDirectory(prefix="ttt-mcts-") as folder:
        graph = graphviz.Digraph(format=fmt, engine="dot")
        graph.attr(rankdir="LR", nodesep="0.1", ranksep="0.35", bgcolor="white", fontname=FONT, dpi="96")
        graph.attr(ordering="out", labelloc="b", fontsize="10", label=words.mcts_legend.replace("\n", "\\n") + "\\n")
        graph.attr("node", fontname=FONT, fontsize="11", shape="plain")
        graph.attr("edge", color=GREY, arrowsize="0.5", penwidth="1.2")
        image = board_png(
            Path(folder) / "root.png",
            frozenset(tree.cells[0::2]),
            frozenset(tree.cells[1::2]),
            tree.cells[-1] if tree.cells else None,
            width=9,
            px=216,
        )
        lines = [
            f"<B>{escape(words.count(words.mcts_title, tree.iterations))}</B>",
            words.count(words.states, tree.states),
            words.mcts_plays.format(side=side, move=cell_name(tree.move, 9)),
        ]
        graph.node("root", board_label(str(image), lines, bold=True))
        shown = tree.moves[:SHOWN]
        rest = tree.moves[SHOWN:]
        for index, move in enumerate(shown):
            name = f"m{index}"
            best = index == 0
            graph.node(
                name,
                _move_label(side, move, words),
                shape="box",
                style="rounded",
                color=PV if best else "#55556a",
                penwidth="2" if best else "1",
                fontsize="10",
                margin="0.06,0.03",
            )
            graph.edge("root", name, **({"color": PV, "penwidth": "2.6"} if best else {}))
        if rest:
            visits = sum(m.visits for m in rest)
            graph.node(
                "rest",
                f"<<FONT COLOR='{GREY}'>{escape(words.count(words.more_moves, len(rest)))}<BR/>"
                f"{escape(words.count(words.visits, visits))}</FONT>>",
                shape="box",
                style="dashed,rounded",
                color=GREY,
                fontsize="10",
            )
            graph.edge("root", "rest", style="dashed")
        previous, mark = "m0", side
        for step, cell in enumerate(tree.pv[1:5], start=1):
            mark = "O" if mark == "X" else "X"
            name = f"pv{step}"
            graph.node(
                name,
                f"<{mark} {escape(cell_name(cell, 9))}>",
                shape="box",
                style="rounded",
                color=PV,
                fontsize="10",
                margin="0.06,0.03",
            )
            graph.edge(previous, name, color=PV, penwidth="2")
            previous = name
        return finish(graph, fmt, Path(folder))


def _move_label(side: str, move: RootMove, words: Words) -> str:
    head = f"<B>{side} {escape(cell_name(move.move, 9))}</B>"
    visits = escape(words.count(words.visits, move.visits))
    if move.proof is not None:
        return f"<{head}: {escape(words.proof(move.proof, move.plies))}<BR/>{visits}>"
    return f"<{head}: {escape(words.win_rate.format(rate=words.percent(move.mean)))}<BR/>{visits}>"
