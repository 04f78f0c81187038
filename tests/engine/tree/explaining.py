"""The explanation of a move by a game's name, as the tests ask for it: :meth:`engine.Variant.explain` and
:meth:`engine.Variant.stepped` of the registered game."""

from __future__ import annotations

from collections.abc import Sequence

from engine import variant
from engine.protocol import Algorithm
from engine.tree.explain import Explanation
from engine.tree.node import SearchTree


def explain(name: str, cells: Sequence[int], played: int | None, algorithm: Algorithm, seed: int = 0) -> Explanation:
    """``variant(name).explain(cells, played, algorithm, seed)``: the picture the bot shows."""
    return variant(name).explain(cells, played, algorithm, seed)


def stepped(name: str, cells: Sequence[int], played: int | None) -> SearchTree:
    """``variant(name).stepped(cells, played)``: the tree the bot's stepper walks."""
    return variant(name).stepped(cells, played)
