"""Connect Four registered for the bot's tests the way an outside game is (:func:`engine.register`), for as long as
the engine does not register it itself: its levels need a calibrated row in engine/levels.json first, so until then
the tests give it a nominal ladder (100 points a level) in memory. Once the engine registers it, both steps are
no-ops and the tests run against the real registration."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from engine import Variant, levels, register
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from engine.variants import _REGISTRY

__all__ = ["NAME", "connect_four", "provide"]

NAME = CONNECT_FOUR_VARIANT.name


def _nominal_ladder() -> dict[str, object]:
    rows = [
        {"level": level, "rating": 1000 + 100 * level, "low": 900 + 100 * level, "high": 1100 + 100 * level, "games": 0}
        for level in range(1, 9)
    ]
    return {"anchor": {"player": "nominal", "rating": 1500.0}, "games": 0, "levels": rows}


def provide(game: Variant = CONNECT_FOUR_VARIANT) -> tuple[bool, bool]:
    """Register Connect Four (``game``), with a nominal ladder where engine/levels.json has no row for it, unless the
    engine registered it already; returns whether each was added here (the ladder, the registration)."""
    rated = NAME not in levels.table()["variants"]
    if rated:
        levels.table()["variants"][NAME] = _nominal_ladder()
    registered = NAME not in _REGISTRY
    if registered:
        register(game)
    return rated, registered


@contextmanager
def connect_four() -> Iterator[str]:
    """Connect Four registered while the block runs (its name is yielded), then the registry as it was."""
    rated, registered = provide()
    try:
        yield NAME
    finally:
        if registered:
            del _REGISTRY[NAME]
        if rated:
            del levels.table()["variants"][NAME]
