"""The bot's levels as the bot shows them: 1 (weakest) to 8 (the engine at full strength), each with the rating the
engine's ladder measured for it in every game (:func:`engine.levels.ladder`, frozen until the table is re-made).

Level 8 is perfect play on the solved games (3x3, 4x4 and 5x5), where it may be called unbeatable; on ultimate,
which is unsolved, it is only the strongest level.
"""

from __future__ import annotations

from functools import cache
from typing import Final

from bot.vocabulary import LEVELS
from engine.levels import ladder
from engine.variants import VARIANTS

__all__ = ["DEFAULT_LEVEL", "LEVELS", "is_unbeatable", "rating_of", "ratings_of"]

DEFAULT_LEVEL: Final = 8
"""The level a game is played at when none is chosen (the engine at full strength)."""


@cache
def ratings_of(variant: str) -> dict[int, int]:
    """Every level's frozen rating in ``variant`` (rounded), by level.

    Raises:
        KeyError: no variant has that name.
    """
    return {step.level: round(step.rating) for step in ladder(variant)}


def rating_of(variant: str, level: int) -> int:
    """``level``'s frozen rating in ``variant``.

    Raises:
        KeyError: no such variant or level.
    """
    return ratings_of(variant)[level]


def is_unbeatable(variant: str, level: int) -> bool:
    """True for level 8 on a solved game (3x3, 4x4, 5x5): perfect play, which never loses."""
    return level == max(LEVELS) and VARIANTS[variant].solved
