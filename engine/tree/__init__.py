"""The search behind a move as a tree: :func:`engine.tree.record.record` replays the 3x3 search and keeps every state
it evaluates (:class:`engine.tree.node.Node`, JSON in ``docs/engine.md``); :mod:`engine.tree.draw` draws it with
Graphviz and Pillow, and is imported only when a picture is asked for, so the rest stays standard library only.

This package is a face of the engine for the bot (``tests/bot/test_layout.py``); it re-exports what the bot uses:

- the trees: :class:`SearchTree` (minimax's, node by node) and :class:`MctsTree` (MCTS's, root moves sampled);
- stepping through a search: :func:`walk` goes through its :class:`Step` s, which a :class:`Cursor` moves along;
- telling a search in words: :class:`Summary` (its counts), :class:`Outline` and its :class:`Choice` (the root
  moves), :class:`Brief` (the search in brief, picklable), :class:`Words` (the phrases; :data:`ENGLISH` is the
  default) and :func:`signed` (a value with its sign).
"""

from engine.tree.explain import Brief
from engine.tree.mcts import MctsTree
from engine.tree.node import SearchTree
from engine.tree.outline import Choice, Outline
from engine.tree.step import Cursor, Step, walk
from engine.tree.summary import Summary
from engine.tree.words import ENGLISH, Words, signed

__all__ = [
    "ENGLISH",
    "Brief",
    "Choice",
    "Cursor",
    "MctsTree",
    "Outline",
    "SearchTree",
    "Step",
    "Summary",
    "Words",
    "signed",
    "walk",
]
