"""The built-in games' levels: each declares its levels (:meth:`~engine.Variant.level_specs`) and plays them
(:meth:`~engine.Variant.level_move`), and its ratings are read from the committed calibration under its name
(:func:`engine.levels.ladder`)."""

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
    (:file:`engine/levels.json`). A subclass implements :meth:`level_specs` and :meth:`level_move`."""

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
        """The level's move as its calibration played it (:meth:`level_move`), capped by ``budget_ms`` where the
        game searches under a budget."""
        return self.level_move(state, level, rng=rng if rng is not None else random.Random(), budget_ms=budget_ms)

    def rating(self, level: int) -> float:
        """The level's fitted Elo rating (:func:`engine.levels.ladder`).

        Raises:
            KeyError: ``level`` is not 1-8.
        """
        for step in levels.ladder(self.name):
            if step.level == level:
                return float(step.rating)
        raise KeyError(level)
