"""The built-in games' ratings: their levels' calibration (:func:`engine.levels.ladder`)."""

from __future__ import annotations

from typing import Any

from engine import levels
from engine.variants import Variant, variant

__all__ = ["Calibrated"]


class Calibrated(Variant):
    """A built-in game: registered when :mod:`engine` is imported, and its levels calibrated in matches
    (:file:`engine/levels.json`)."""

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled by name: a search worker gets the game its own :mod:`engine` registered."""
        return variant, (self.name,)

    def rating(self, level: int) -> float:
        """The level's fitted Elo rating (:func:`engine.levels.ladder`).

        Raises:
            KeyError: ``level`` is not 1-8.
        """
        for step in levels.ladder(self.name):
            if step.level == level:
                return float(step.rating)
        raise KeyError(level)
