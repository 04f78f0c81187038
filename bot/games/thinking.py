"""The search behind "How did it think?": recomputed from the moves and drawn in the player's language, in a worker.

:func:`think` runs in a worker (its arguments and result are picklable): it recomputes the search from the moves
(:func:`engine.tree.explain.explain`, deterministic, so the answer after a restart is the one before it) and draws it
with Graphviz and Pillow (:mod:`engine.tree.draw`, :mod:`engine.tree.draw_mcts`): on 3x3 plain minimax's tree beside
alpha-beta's, each with its count; on 4x4 and 5x5 a fresh exact search near the end of a game; on ultimate the
MCTS-Solver's first plies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n.lang import Lang, lang
from engine.protocol import Algorithm
from engine.tree.explain import explain
from engine.tree.mcts import MctsTree
from engine.tree.summary import Summary
from engine.tree.words import ENGLISH, Words

__all__ = ["FILENAME", "Thought", "think", "words_for"]

FILENAME = "search.png"
"""The attachment's file name."""


@dataclass(frozen=True, slots=True)
class Thought:
    """The drawn search (a PNG) and what it did (:class:`~engine.tree.summary.Summary`), for the sentences beside it."""

    png: bytes
    summary: Summary


def words_for(tr: Lang) -> Words:
    """The picture's phrases in ``tr``'s language, its numbers grouped the locale's way and its counted phrases in
    the locale's plural forms (as the sentences beside it, :mod:`bot.text.thinking`)."""
    return ENGLISH.translated(tr, tr.number, lambda share: f"{tr.number(round(share * 100))}%", tr.plural)


def think(
    variant: str, cells: Sequence[int], played: int | None, algorithm: Algorithm, locale: str | None, seed: int = 0
) -> Thought:
    """The search of ``variant`` after ``cells`` (0-based) explaining ``played`` (``None``: its own best move),
    drawn in ``locale``'s language. Runs in a worker: about 0.1-1 s of CPU.

    Raises:
        ValueError: the search cannot be recomputed there (:meth:`engine.Variant.explains`).
        IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
    """
    from engine.tree.draw import render  # Graphviz, loaded by the worker that draws, not by the bot's process
    from engine.tree.draw_mcts import render_mcts

    explained = explain(variant, cells, played, algorithm, seed)
    words = words_for(lang(locale))
    trees = explained.trees
    png = render_mcts(trees, words=words) if isinstance(trees, MctsTree) else render(list(trees), words=words)
    return Thought(png, explained.summary)
