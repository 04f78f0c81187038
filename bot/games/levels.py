"""The bot's levels as the bot shows them: 1 (weakest) to 8 (the engine at full strength), each with the rating
measured for it in every game (:meth:`engine.Variant.rating`, frozen until the calibration is re-made).

Level 8 is perfect play on a game whose values are exact, where it may be called unbeatable; on the others (ultimate)
it is only the strongest level.
"""

from __future__ import annotations

from functools import cache

from bot.vocabulary import DEFAULT_LEVEL, LEVELS
from engine import TOP_LEVEL, Mark, variant

__all__ = ["DEFAULT_LEVEL", "LEVELS", "beatable_side", "is_unbeatable", "rating_of", "ratings_of"]


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


def is_unbeatable(name: str, level: int, side: Mark | None = None) -> bool:
    """True for the top level on a game whose values are exact (3x3, 4x4, 5x5): perfect play, which never loses, as
    ``side`` (the bot's mark; ``None``: whichever it plays). On a game solved as a win for one side
    (:meth:`engine.Variant.solved_value`, e.g. a first-player win) only that side is unbeatable."""
    game = variant(name)
    if level != TOP_LEVEL or not game.exact:
        return False
    solved = game.solved_value()
    if solved is None or solved.result == "draw":
        return True
    return side is (Mark.X if solved.result == "win" else Mark.O)


def beatable_side(name: str) -> Mark | None:
    """The side on which perfect play loses in game ``name``: on a game solved as a win for one side
    (:meth:`engine.Variant.solved_value`, e.g. a win for X), the other side (O, the bot beaten by people
    playing first); ``None`` on a game drawn with best play or whose value is not known.

    Raises:
        UnknownVariantError: no game has that name.
    """
    solved = variant(name).solved_value()
    if solved is None or solved.result == "draw":
        return None
    return Mark.O if solved.result == "win" else Mark.X
