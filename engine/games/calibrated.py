"""The built-in games' ratings: their levels' calibration (:func:`engine.levels.ladder`)."""

from __future__ import annotations

import random
from typing import Any

from engine import levels
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove
from engine.registry import variant
from engine.variants import Variant

__all__ = ["Calibrated"]


class Calibrated(Variant):
    """A built-in game: registered when :mod:`engine` is imported, and its levels calibrated in matches
    (:file:`engine/levels.json`)."""

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled by name: a search worker gets the game its own :mod:`engine` registered."""
        return variant, (self.name,)

    def play(
        self,
        state: Any,
        level: int = TOP_LEVEL,
        *,
        algorithm: Algorithm = "alpha-beta",
        budget_ms: float | None = None,
        rng: random.Random | None = None,
    ) -> EngineMove:
        """The level's move as :func:`engine.levels.choose_move` plays it: on 4x4 and 5x5 a shallow search below level
        8 and perfect play at 8 (book or solver); on ultimate each level's MCTS-Solver, capped by ``budget_ms``."""
        return levels.choose_move(self.name, state, level, rng=rng, budget_ms=budget_ms)

    def rating(self, level: int) -> float:
        """The level's fitted Elo rating (:func:`engine.levels.ladder`).

        Raises:
            KeyError: ``level`` is not 1-8.
        """
        for step in levels.ladder(self.name):
            if step.level == level:
                return float(step.rating)
        raise KeyError(level)
