"""The search behind "How did it think?": recomputed from the moves and drawn in the player's language, in a worker.

:func:`think` runs in a worker (its arguments and result are picklable): it asks the game for the search behind the
move (:meth:`engine.Variant.explain`, deterministic, so the answer after a restart is the one before it) and has the
explanation draw itself with Graphviz and Pillow (:meth:`engine.tree.explain.Explanation.draw`). Without Graphviz's
``dot`` (:func:`can_draw`) there is no picture: the thought carries the search in brief
(:meth:`~engine.tree.explain.Explanation.outline`) for an answer in words instead.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from bot.i18n.lang import Lang, lang
from engine import Algorithm
from engine import variant as variant_named
from engine.tree import ENGLISH, Brief, Summary, Words

__all__ = ["FILENAME", "Thought", "can_draw", "think", "words_for"]

FILENAME = "search.png"
"""The attachment's file name."""


@dataclass(frozen=True, slots=True)
class Thought:
    """The drawn search (a PNG; ``None`` where Graphviz is missing), what it did
    (:class:`~engine.tree.summary.Summary`), for the sentences beside it, and the search in brief
    (:class:`~engine.tree.explain.Brief`: it tells itself), for the words that replace a missing picture."""

    png: bytes | None
    summary: Summary
    brief: Brief


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
        ValueError: the search cannot be recomputed there (:meth:`engine.Variant.explains`), or ``variant`` is not
            registered.
        IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
    """
    from graphviz import ExecutableNotFound  # Graphviz, loaded by the worker that draws, not by the bot's process

    explained = variant_named(variant).explain(cells, played, algorithm, seed)
    try:
        png: bytes | None = explained.draw(words_for(lang(locale)))
    except ExecutableNotFound:
        png = None
    return Thought(png, explained.summary, explained.outline())
