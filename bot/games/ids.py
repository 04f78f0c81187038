"""Game ids: Discord snowflakes written in base 36, and read back from what people type."""

from __future__ import annotations

import re
import secrets
import time

from engine import folded

__all__ = ["DISCORD_EPOCH_MS", "new_game_id", "to_base36", "typed_game_id"]

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Discord snowflakes count milliseconds from 2015-01-01T00:00:00Z (bits 22 and up)."""
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
_TYPED_ID = re.compile(r"[0-9a-z]{1,64}", re.ASCII)
"""An id as the records may hold one: base-36 digits (the first ids were 6 hex digits), at most the column's 64."""


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


def typed_game_id(text: str) -> str | None:
    """The game id ``text`` names as someone typed it (``/ttt review game:``), read as a typed move is
    (:func:`engine.coordinates.folded`: spaces around it and its case ignored, full-width forms as ASCII); ``None``
    for any text no game id can be (other characters, more than 64), so that it never reaches a database query."""
    read = folded(text)
    return read if _TYPED_ID.fullmatch(read) else None
