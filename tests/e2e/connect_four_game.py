"""``TTT_GAMES=tests.e2e.connect_four_game``: the bot process registers Connect Four as an outside game at start-up
(:func:`tests.connect_four.provide`), until the engine registers it itself; then importing this module changes
nothing.

A built-in game is pickled by name for the bot's search workers, whose own :mod:`engine` registers it; this one is
registered only where this module is imported, so it is pickled as a call to :func:`registered`, which imports this
module in the worker (registering it there too)."""

from __future__ import annotations

from engine import Variant, variant
from engine.games.connect_four import ConnectFourVariant
from tests.connect_four import NAME, provide

__all__ = ["ConnectFourHere", "registered"]


def registered() -> Variant:
    """The game as this process registered it (a search worker unpickling one imports this module first)."""
    return variant(NAME)


class ConnectFourHere(ConnectFourVariant):
    """Connect Four, pickled as :func:`registered` rather than by the engine's name lookup."""

    def __reduce__(self) -> tuple[object, tuple[()]]:  # type: ignore[override]
        return registered, ()


provide(ConnectFourHere())
