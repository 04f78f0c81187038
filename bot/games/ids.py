"""Game ids: Discord snowflakes written in base 36."""

from __future__ import annotations

import secrets
import time

__all__ = ["DISCORD_EPOCH_MS", "new_game_id", "to_base36"]

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Discord snowflakes count milliseconds from 2015-01-01T00:00:00Z (bits 22 and up)."""
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def new_game_id(snowflake: int | None = None) -> str:
    """A game id: a snowflake written in base 36 (at most 13 characters).

    On Discord the snowflake is the id of the interaction that started the game, which is unique and
    carries the start time; without one (the console) a snowflake is made from the clock and 22 random bits.
    """
    if snowflake is None:
        snowflake = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | secrets.randbits(22)
    return to_base36(snowflake)


def to_base36(number: int) -> str:
    """A non-negative integer in lower-case base 36 (``int(text, 36)`` reads it back)."""
    digits = []
    while True:
        number, digit = divmod(number, 36)
        digits.append(_BASE36[digit])
        if number == 0:
            return "".join(reversed(digits))
