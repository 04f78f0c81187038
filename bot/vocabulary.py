"""The game's vocabulary, shared by the game service and the records: sides, results, how a game ended, how a
board is shown, the bot's levels and algorithms.

Standard library and the engine only: it stands below both :mod:`bot.records` and :mod:`bot.games`.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

from engine import LEVELS as ENGINE_LEVELS
from engine import TOP_LEVEL, Algorithm

__all__ = [
    "ALGORITHMS",
    "COUNTED_END_REASONS",
    "DEFAULT_LEVEL",
    "END_REASONS",
    "LEVELS",
    "LEVEL_OF_DIFFICULTY",
    "RESULTS",
    "SIDES",
    "Algorithm",
    "EndReason",
    "Mode",
    "Result",
    "Side",
]

Side = Literal["X", "O"]
Result = Literal["X", "O", "draw"]
EndReason = Literal["win", "draw", "resigned", "abandoned", "declined", "expired"]
"""How a game ended."""
Mode = Literal["buttons", "text"]
"""How a board is shown: buttons, or text played with /ttt move."""

SIDES: Final[tuple[Side, ...]] = get_args(Side)
RESULTS: Final[tuple[Result, ...]] = get_args(Result)
END_REASONS: Final[tuple[EndReason, ...]] = get_args(EndReason)
COUNTED_END_REASONS: Final[tuple[EndReason, ...]] = ("win", "draw", "resigned")
"""Games that ended this way count as a win, draw or loss; so does a game abandoned on a person's turn (a time-out,
their loss); the others are stored but not counted."""
LEVELS: Final[tuple[int, ...]] = tuple(ENGINE_LEVELS)
"""The bot's levels, 1 (weakest) to 8 (the engine at full strength): :data:`engine.LEVELS`."""
DEFAULT_LEVEL: Final = TOP_LEVEL
"""The level a game is played at when none is chosen (the engine at full strength)."""
LEVEL_OF_DIFFICULTY: Final[dict[str, int]] = {"easy": 2, "medium": 5, "unbeatable": 8}
"""The level a difficulty of an older board or row is played and counted at (migration 0004 maps rows the same)."""
ALGORITHMS: Final[tuple[Algorithm, ...]] = get_args(Algorithm)
