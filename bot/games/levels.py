"""The bot's levels as the bot shows them: 1 (weakest) to 8 (the engine at full strength), each with the rating
measured for it in every game (:meth:`engine.Variant.rating`, frozen until the calibration is re-made).

Level 8 is perfect play on a game whose values are exact, where it may be called unbeatable; on the others (ultimate)
it is only the strongest level.
"""

from __future__ import annotations

from functools import cache

from bot.vocabulary import DEFAULT_LEVEL, LEVELS
from engine import TOP_LEVEL, variant

__all__ = ["DEFAULT_LEVEL", "LEVELS", "is_unbeatable", "rating_of", "ratings_of"]


@cache
def ratings_of(name: str) -> dict[int, int]:
    """Every level's frozen rating in game ``name`` (rounded), by level.

    Raises:
        UnknownVariantError: no game has that name.
    """
    game = variant(name)
    return {level: round(game.rating(level)) for level in LEVELS}


def rating_of(name: str, level: int) -> int:
    """``level``'s frozen rating in game ``name``.

    Raises:
        KeyError: no such level; UnknownVariantError: no such game.
    """
    return ratings_of(name)[level]


def is_unbeatable(name: str, level: int) -> bool:
    """True for the top level on a game whose values are exact (3x3, 4x4, 5x5): perfect play, which never loses."""
    return level == TOP_LEVEL and variant(name).exact
