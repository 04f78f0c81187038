"""The search behind "How did it think?": recomputed from the moves and drawn in the player's language, in a worker.

:func:`think` runs in a worker (its arguments and result are picklable): it recomputes the search from the moves
(:func:`engine.tree.explain.explain`, deterministic, so the answer after a restart is the one before it) and draws it
with Graphviz and Pillow (:mod:`engine.tree.draw`, :mod:`engine.tree.draw_mcts`): on 3x3 plain minimax's tree beside
alpha-beta's, each with its count; on 4x4 and 5x5 a fresh exact search near the end of a game; on ultimate the
MCTS-Solver's first plies. Without Graphviz's ``dot`` (:func:`can_draw`) there is no picture: the thought carries the
search's :class:`~engine.tree.outline.Outline` (or ultimate's MCTS tree) for an answer in words instead.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n.lang import Lang, lang
from engine.protocol import Algorithm
from engine.tree.explain import explain
from engine.tree.mcts import MctsTree
from engine.tree.node import SearchTree
from engine.tree.outline import Outline, outline
from engine.tree.summary import Summary
from engine.tree.words import ENGLISH, Words

__all__ = ["FILENAME", "Thought", "can_draw", "think", "words_for"]

FILENAME = "search.png"
"""The attachment's file name."""


@dataclass(frozen=True, slots=True)
class Thought:
    """The drawn search (a PNG; ``None`` where Graphviz is missing), what it did
    (:class:`~engine.tree.summary.Summary`), for the sentences beside it, and the search in brief (the outline of the
    tree summarised, or ultimate's MCTS tree), for the words that replace a missing picture."""

    png: bytes | None
    summary: Summary
    brief: Outline | MctsTree


def can_draw() -> bool:
    """Graphviz's ``dot``, which lays out the pictures, is on the ``PATH`` (where the ``graphviz`` package looks)."""
    return shutil.which("dot") is not None


def words_for(tr: Lang) -> Words:
    """The picture's phrases in ``tr``'s language, its numbers grouped the locale's way and its counted phrases in
    the locale's plural forms (as the sentences beside it, :mod:`bot.text.thinking`)."""
    return ENGLISH.translated(tr, tr.number, lambda share: f"{tr.number(round(share * 100))}%", tr.plural)


def think(
    variant: str, cells: Sequence[int], played: int | None, algorithm: Algorithm, locale: str | None, seed: int = 0
) -> Thought:
    """The search of ``variant`` after ``cells`` (0-based) explaining ``played`` (``None``: its own best move),
    drawn in ``locale``'s language, or not drawn (``png`` ``None``) without Graphviz's ``dot``. Runs in a worker:
    about 0.1-1 s of CPU.

    Raises:
        ValueError: the search cannot be recomputed there (:meth:`engine.Variant.explains`).
        IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
    """
    from graphviz import ExecutableNotFound  # Graphviz, loaded by the worker that draws, not by the bot's process

    from engine.tree.draw import render
    from engine.tree.draw_mcts import render_mcts

    explained = explain(variant, cells, played, algorithm, seed)
    words = words_for(lang(locale))
    trees = explained.trees
    brief = trees if isinstance(trees, MctsTree) else outline(_summarised(trees, explained.summary.algorithm))
    try:
        png = render_mcts(trees, words=words) if isinstance(trees, MctsTree) else render(list(trees), words=words)
    except ExecutableNotFound:
        png = None
    return Thought(png, explained.summary, brief)


def _summarised(trees: Sequence[SearchTree], algorithm: str) -> SearchTree:
    """The tree the summary describes: the one of the search asked for (3x3 draws minimax's beside alpha-beta's)."""
    return next(tree for tree in reversed(trees) if tree.algorithm == algorithm)
