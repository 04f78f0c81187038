"""How an ``engine serve`` request names its moves, and how its answer and its errors name them back.

A request names its moves in one of three ways, and the answer (the move, the legal moves) and every error use the
same one:

- ``"moves": [13, 7]``: cells numbered 1-based, row by row over the whole board (on a game played by column, the
  cells the discs fell to, as the records keep them);
- ``"columns": [4, 4, 5]``: columns numbered 1-based from the left, on a game played by column
  (:meth:`engine.Variant.columns`);
- ``"moves": ["c3", "b2"]``: the game's own notation, read by :meth:`engine.Variant.parse_cell` (a coordinate, or on
  a game played by column a column ``"4"`` or ``"d"``) and written back by :meth:`engine.Variant.cell_label`.

The numberings ask the game (its :class:`engine.Variant` methods) and never name one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engine.errors import (
    CellOccupiedError,
    CellOutOfRangeError,
    GameOverError,
    IllegalMoveError,
    IllegalSequenceError,
    RequestError,
)
from engine.variants import Variant

__all__ = ["Numbering", "read_request"]

Move = int | str
"""A move as a request names it: a 1-based cell or column, or a name in the game's notation."""

_GAME_OVER = "the game is over: no more moves can be played"


@dataclass(frozen=True)
class Numbering:
    """One way of naming moves on one game.

    Attributes:
        game: the variant the request is about.
        form: ``"cells"`` (1-based cells), ``"columns"`` (1-based columns) or ``"notation"`` (the game's names).
    """

    game: Variant
    form: Literal["cells", "columns", "notation"]

    def replay(self, moves: list[Move]) -> Any:
        """The state after ``moves``, named in this numbering, from the initial state.

        Raises:
            IllegalSequenceError: a move cannot be played where it stands; the message names it as the request did
                (``move 2 (column 4) cannot be played: column 4 is full``), ``__cause__`` is the error whose class
                says why (out of range, occupied, game over, the rules' own).
        """
        if self.form == "cells":  # the rules' messages number cells 1-based already
            return self.game.replay([int(move) - 1 for move in moves])
        state = self.game.game.initial_state()
        for ply, move in enumerate(moves, start=1):
            try:
                state = self._play(state, move)
            except _Refused as refused:
                message = f"move {ply} ({self._called(move)}) cannot be played: {refused}"
                raise IllegalSequenceError(message, ply, move) from refused.cause
        return state

    def show(self, cell: int) -> Move:
        """0-based ``cell`` as this numbering names it: ``5`` (cells), ``4`` (its column) or ``"e1"`` (notation)."""
        if self.form == "cells":
            return cell + 1
        if self.form == "columns":
            return cell % self.game.width + 1
        return self.game.cell_label(cell)

    def legal(self, state: Any) -> list[Move]:
        """The moves the player to move may make in ``state``, named in this numbering, in the rules' order (columns:
        left to right); ``[]`` once the game is over."""
        if self.game.game.terminal(state):
            return []
        if self.form == "columns":
            return [column + 1 for column, cell in enumerate(self.game.columns(state)) if cell is not None]
        return [self.show(cell) for cell in self.game.game.actions(state)]

    def _called(self, move: Move) -> str:
        return f"column {move}" if self.form == "columns" else str(move)

    def _play(self, state: Any, move: Move) -> Any:
        """The state after ``move``; :class:`_Refused` with the reason, in the request's terms, when it is illegal."""
        if self.form == "columns":
            landings = self.game.columns(state)
            if not 1 <= int(move) <= len(landings):
                raise _Refused(CellOutOfRangeError(f"column {move} is off the board: choose 1-{len(landings)}"))
            if self.game.game.terminal(state):
                raise _Refused(GameOverError(_GAME_OVER))
            if (cell := landings[int(move) - 1]) is None:
                raise _Refused(CellOccupiedError(f"column {move} is full"))
        else:
            try:
                cell = self.game.move_at(state, self.game.parse_cell(str(move)))
            except CellOutOfRangeError as err:  # its message quotes the name as the request wrote it
                raise _Refused(err) from err
        try:
            return self.game.game.result(state, cell)
        except IllegalMoveError as err:
            raise _Refused(err, self._reason(state, move, cell)) from err

    def _reason(self, state: Any, move: Move, cell: int) -> str | None:
        """Why the rules refused ``move`` (``cell``), in the request's terms where the game can say it, else
        ``None`` (the rules' own message is kept)."""
        if self.game.game.terminal(state):
            return _GAME_OVER
        if (mark := self.game.mark(state, cell)) is not None:
            return f"column {move} is full" if self.game.columns(state) else f"{move} is already taken by {mark.value}"
        if self.game.block and self.game.block_result(state, block := self.game.block_of(cell)) is not None:
            return f"{move} is in {self.game.block_name(block)}, a small board already decided"
        forced = self.game.forced_block(state)
        if forced is not None and self.game.block_of(cell) != forced:
            return f"{move} is outside {self.game.block_name(forced)}, the small board this move must go to"
        return None


class _Refused(Exception):
    """A move refused: ``str()`` is the reason as the request names moves, ``cause`` the error whose class says why."""

    def __init__(self, cause: IllegalMoveError, reason: str | None = None) -> None:
        super().__init__(reason or str(cause))
        self.cause = cause


def read_request(game: Variant, request: Mapping[str, Any]) -> tuple[Numbering, list[Move]]:
    """The numbering ``request`` uses and its moves, checked for type (not yet for legality).

    Raises:
        RequestError: both ``moves`` and ``columns``; ``columns`` on a game played by cell; a list that is not all
            whole numbers (cells, columns) or all strings (notation).
    """
    if "columns" in request:
        if "moves" in request:
            raise RequestError('a request names its moves as "moves" or as "columns", not both')
        if not game.columns(game.game.initial_state()):
            raise RequestError(f'{game.name} is played by cell, not by column: send "moves"')
        columns = request["columns"]
        if not isinstance(columns, list) or not all(_whole(c) for c in columns):
            raise RequestError(f"columns must be a list of 1-based column numbers, not {columns!r}")
        return Numbering(game, "columns"), columns
    moves = request.get("moves", [])
    if isinstance(moves, list) and all(_whole(m) for m in moves):
        return Numbering(game, "cells"), moves
    if isinstance(moves, list) and all(isinstance(m, str) for m in moves):
        return Numbering(game, "notation"), moves
    raise RequestError(
        f"moves must be a list of 1-based cell numbers or of names such as {game.cell_label(0)!r}, not {moves!r}"
    )


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
