"""Exceptions raised by the engine on bad input.

Every exception subclasses :class:`ValueError`, so ``except ValueError`` catches all of them, and
each message quotes the offending input and says what would be accepted instead. Messages number cells and small
boards as people do, from 1 (:func:`shown_cell`), whatever the 0-based index the code passed.
"""

from __future__ import annotations

__all__ = [
    "CellOccupiedError",
    "CellOutOfRangeError",
    "GameOverError",
    "IllegalMoveError",
    "IllegalSequenceError",
    "InvalidBoardError",
    "RequestError",
    "UndrawableGameError",
    "UnknownVariantError",
    "shown_cell",
]


def shown_cell(cell: object) -> str:
    """A 0-based cell as people number it (``4`` -> ``"5"``), for messages; anything else as its ``repr``."""
    return str(cell + 1) if isinstance(cell, int) and not isinstance(cell, bool) else repr(cell)


class IllegalMoveError(ValueError):
    """A move that cannot be played in the given state."""


class CellOutOfRangeError(IllegalMoveError):
    """A cell off the board (0-8 on 3x3, 0-24 on 5x5; people see cells 1-based)."""


class CellOccupiedError(IllegalMoveError):
    """A cell that already holds a mark."""


class GameOverError(IllegalMoveError):
    """A move made after the game has ended."""


class IllegalSequenceError(IllegalMoveError):
    """A list of moves that cannot be played in order from the empty board.

    Raised from the error that the first bad move caused (``__cause__``: out of range, occupied cell
    or game over). Attributes: ``ply`` is that move's number (1-based), ``cell`` the value given.
    """

    def __init__(self, message: str, ply: int, cell: object) -> None:
        super().__init__(message)
        self.ply = ply
        self.cell = cell

    @classmethod
    def at(cls, ply: int, cell: object, cause: Exception) -> IllegalSequenceError:
        """The error for move ``ply`` (1-based) playing 0-based ``cell``, which raised ``cause``."""
        return cls(f"move {ply} (cell {shown_cell(cell)}) cannot be played: {cause}", ply, cell)

    def __reduce__(self) -> tuple[type[IllegalSequenceError], tuple[str, int, object]]:
        """Pickle with all three arguments, so the error crosses a process pool intact."""
        return (type(self), (str(self), self.ply, self.cell))


class InvalidBoardError(ValueError):
    """A board that cannot arise in play: bad characters, wrong length or counts, two winners."""


class UnknownVariantError(ValueError):
    """A variant name the engine does not know (see :data:`engine.registry.VARIANTS`)."""


class RequestError(ValueError):
    """A request to ``python -m engine serve`` that is not valid JSON or lacks a field of the right type."""


class UndrawableGameError(ValueError):
    """A game :func:`engine.register` refuses because no front end can draw its board: a layout
    (:class:`engine.protocol.Layout`) of a kind nobody draws, bigger than 19 x 19 cells, or at odds with the game's own
    width and height. The message names the game and says what would be drawn."""
