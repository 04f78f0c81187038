"""The questions a game answers about its board: how it is laid out, the position (marks, the winner and the line that
decided, small boards, columns), how people name its cells, and how the records store its moves."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any, Literal

from engine.coordinates import cell_name, parse_cell, text_grid, typed_ranges
from engine.errors import IllegalMoveError, IllegalSequenceError
from engine.protocol import Game, GameValue, Layout, LayoutKind, Mark

__all__ = ["BoardQuestions"]


class BoardQuestions(abc.ABC):
    """The board's part of :class:`engine.Variant`: every method has a default that fits a plain board of cells but
    :meth:`mark`."""

    name: str
    width: int
    height: int
    block: int = 0
    game: Game[Any]

    def layout(self) -> Layout:
        """How the board is laid out (:class:`engine.protocol.Layout`). By default: small boards where :attr:`block` is
        set, columns of discs where :meth:`columns` answers, else a grid of marks; the built-in games declare theirs."""
        by_column = bool(self.columns(self.game.initial_state()))
        kind: LayoutKind = "blocks" if self.block else "columns" if by_column else "grid"
        return Layout(kind, self.width, self.height, self.block, "discs" if by_column else "marks")

    @property
    def cells(self) -> int:
        """How many cells the whole board has (9, 16, 25, 81)."""
        return self.width * self.height

    # -- the position ---------------------------------------------------------------------------------------------

    def replay(self, cells: Sequence[int]) -> Any:
        """The state after playing 0-based ``cells`` in order from the initial state.

        Raises:
            IllegalSequenceError: a cell cannot be played where it stands (the message numbers cells 1-based);
                ``ply`` is its 1-based place and ``__cause__`` the rules' own error (out of range, occupied...).
        """
        state = self.game.initial_state()
        for ply, cell in enumerate(cells, start=1):
            try:
                state = self.game.result(state, cell)
            except IllegalMoveError as err:
                raise IllegalSequenceError.at(ply, cell, err) from err
        return state

    @abc.abstractmethod
    def mark(self, state: Any, cell: int) -> Mark | None:
        """The mark on 0-based ``cell`` in ``state``, or ``None`` when it is empty."""

    def winner(self, state: Any) -> Mark | Literal["draw"] | None:
        """``Mark.X`` or ``Mark.O`` when that side has won, ``"draw"`` when the game ended drawn, else ``None``."""
        if not self.game.terminal(state):
            return None
        utility = self.game.utility(state)
        return Mark.X if utility > 0 else Mark.O if utility < 0 else "draw"

    def winning_line(self, state: Any) -> frozenset[int]:
        """The cells of the line that won the game (empty when none did, or the game shows none)."""
        return frozenset()

    def forced_block(self, state: Any) -> int | None:
        """The small board (0-based, row by row) the next move must go to, or ``None`` when it may go anywhere."""
        return None

    def open_blocks(self, state: Any) -> tuple[int, ...]:
        """The small boards the next move may go to (none on a board without small boards)."""
        return ()

    def block_result(self, state: Any, block: int) -> Mark | Literal["draw"] | None:
        """Who won small board ``block`` (``"draw"``: full without a line), or ``None`` while it is open."""
        return None

    def block_cells(self, block: int) -> tuple[int, ...]:
        """The cells (0-based, row by row over the whole board) of small board ``block`` (0-based, row by row), in
        the small board's own order."""
        side, across = self.block, self.width // self.block
        top, left = side * (block // across), side * (block % across)
        return tuple(self.width * (top + i // side) + left + i % side for i in range(side * side))

    def block_name(self, block: int) -> str:
        """A small board by the cells it covers: on ultimate ``0`` → ``"a1-c3"``, ``4`` → ``"d4-f6"``."""
        cells = self.block_cells(block)
        return f"{self.cell_name(cells[0])}-{self.cell_name(cells[-1])}"

    def block_of(self, cell: int) -> int:
        """The small board holding ``cell``."""
        across = self.width // self.block
        return (cell // self.width) // self.block * across + (cell % self.width) // self.block

    def columns(self, state: Any) -> tuple[int | None, ...]:
        """On a game played by column (gravity: a disc falls to the lowest empty cell of the column it is dropped in),
        the cell the next disc of each column would fill, left to right (``None``: the column is full); ``()`` on a
        game played by cell, the default. A board of such a game shows a button per column, not per cell."""
        return ()

    def move_at(self, state: Any, cell: int) -> int:
        """The move that a press or a typed move naming 0-based ``cell`` plays: ``cell`` itself, except on a game played
        by column (:meth:`columns`), where any cell of a column stands for the cell its next disc falls to (a full
        column, or a cell off the board: ``cell`` itself, which the rules refuse)."""
        columns = self.columns(state)
        if not columns or not 0 <= cell < self.cells:
            return cell
        landing = columns[cell % self.width]
        return cell if landing is None else landing

    def solved_value(self) -> GameValue | None:
        """The initial position's exact value for X (who moves first) where the game is solved and it is known, else
        ``None`` (the default). Perfect play never loses on a game drawn with best play; where the first player wins, it
        never loses as that player only: the second loses to a perfect first player."""
        return None

    def value(self, state: Any, mark: Mark) -> GameValue | None:
        """The position's exact value for ``mark`` where it takes microseconds (so a whole game can be checked in a
        callback), else ``None``."""
        return None

    def deciding_line(self, state: Any) -> tuple[frozenset[int], Mark | None]:
        """The line that decided the game and the side that won it: ``(cells, winner)``. The line is whoever's made
        it: in a game where completing a line loses (misère), its pieces are the loser's, and a front end paints it as
        a loss. By default :meth:`winning_line` and :meth:`winner` (``None`` while no side has won)."""
        won = self.winner(state)
        return self.winning_line(state), won if isinstance(won, Mark) else None

    # -- cells as people name them --------------------------------------------------------------------------------

    def cell_name(self, cell: int) -> str:
        """The coordinate of 0-based ``cell``, e.g. ``"b3"`` (a1 the top left)."""
        return cell_name(cell, self.width)

    def cell_label(self, cell: int) -> str:
        """How the board and its texts name 0-based ``cell`` (by default its coordinate)."""
        return self.cell_name(cell)

    def parse_cell(self, text: str) -> int:
        """The 0-based cell ``text`` names: a coordinate (``"b3"``) or a 1-based number (``"7"``).

        Raises:
            CellOutOfRangeError: ``text`` names no cell of this board; the message says what it accepts.
        """
        return parse_cell(text, self.width, self.height)

    def typed_ranges(self) -> tuple[str, str]:
        """What :meth:`parse_cell` reads, as two ranges of names, the board's own (:meth:`cell_label`) first: 3x3
        ``("1-9", "a1-c3")``, 4x4 ``("a1-d4", "1-16")``."""
        numbers, names = typed_ranges(self.width, self.height)
        return (numbers, names) if self.cell_label(0) != self.cell_name(0) else (names, numbers)

    def text_grid(self, state: Any) -> str:
        """The board as monospace lines: column letters, row numbers, ``·`` for an empty cell and lines between
        small boards."""
        marks = [self.mark(state, cell) for cell in range(self.cells)]
        return text_grid([m.value if m else "·" for m in marks], self.width, self.block or self.width)

    # -- the records ----------------------------------------------------------------------------------------------

    def moves_text(self, moves: Sequence[int]) -> str:
        """``moves`` as the records store them: one digit per cell on a board of at most 10 cells (3x3: ``"0412"``),
        else the cells separated by commas (``"0,15,3"``). :meth:`moves_from_text` reads either back."""
        return "".join(map(str, moves)) if self.cells <= 10 else ",".join(map(str, moves))

    def moves_from_text(self, text: str) -> tuple[int, ...]:
        """The moves stored as :meth:`moves_text` wrote them for a board of this size.

        Raises:
            ValueError: ``text`` is not digits (separated by commas on a board of more than 10 cells).
        """
        if not text:
            return ()
        return tuple(int(c) for c in text) if self.cells <= 10 else tuple(int(c) for c in text.split(","))
