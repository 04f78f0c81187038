"""Exceptions raised by the engine on bad input.

Every exception subclasses :class:`ValueError`, so ``except ValueError`` catches all of them, and
each message quotes the offending input with ``!r`` and says what would be accepted instead.
"""

from __future__ import annotations

__all__ = [
    "CellOccupiedError",
    "CellOutOfRangeError",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBoardError",
]


class IllegalMoveError(ValueError):
    """A move that cannot be played in the given state."""


class CellOutOfRangeError(IllegalMoveError):
    """A cell outside 0-8 (people see cells as 1-9)."""


class CellOccupiedError(IllegalMoveError):
    """A cell that already holds a mark."""


class GameOverError(IllegalMoveError):
    """A move made after the game has ended."""


class InvalidBoardError(ValueError):
    """A board that cannot arise in play: bad characters, wrong length or counts, two winners."""
