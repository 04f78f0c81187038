"""Connect Four: 7 columns, 6 rows, gravity, four in a row; a full board is a draw.

Source: the rules as OpenSpiel's ``connect_four`` plays them (the tests compare both over random playouts); the
bitboard is the one the published Connect Four solvers use (Tromp, "John's Connect Four Playground"; Pons,
"Solving Connect 4: how to build a perfect AI", 2019): one bit per cell, column by column, each column ``HEIGHT + 1``
bits from the bottom up, the top bit of every column an always-empty sentinel so that lines never wrap.

**Bits.** Cell (``row``, ``column``), row 0 at the bottom, is bit ``column * 7 + row``.
**Actions** are columns 0-6, left to right; people see them as 1-7 or a-g.
A :class:`ConnectFourState` holds one bitboard per side.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.coordinates import parse_cell
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, IllegalMoveError
from engine.protocol import Mark

__all__ = [
    "BOARD",
    "BOTTOM",
    "CELLS",
    "CONNECT_FOUR",
    "HEIGHT",
    "WIDTH",
    "ColumnFullError",
    "ConnectFour",
    "ConnectFourState",
    "column_mask",
    "has_four",
    "winning_cells",
]

WIDTH = 7
HEIGHT = 6
STRIDE = HEIGHT + 1
"""Bits per column: ``HEIGHT`` cells and the sentinel above them."""
CELLS = WIDTH * HEIGHT
BOTTOM = sum(1 << (column * STRIDE) for column in range(WIDTH))
"""The bottom cell of every column."""
BOARD = BOTTOM * ((1 << HEIGHT) - 1)
"""Every cell of the board (no sentinel)."""


def column_mask(column: int) -> int:
    """The ``HEIGHT`` cells of ``column`` (0-6)."""
    return ((1 << HEIGHT) - 1) << (column * STRIDE)


def has_four(discs: int) -> bool:
    """True when ``discs`` (a bitboard) holds four in a row: vertical, horizontal or either diagonal."""
    for shift in (1, STRIDE, STRIDE - 1, STRIDE + 1):  # vertical, horizontal, down-right, up-right
        pairs = discs & (discs >> shift)
        if pairs & (pairs >> (2 * shift)):
            return True
    return False


def winning_cells(discs: int) -> int:
    """The mask of every cell of ``discs`` that lies on a four in a row."""
    cells = 0
    for shift in (1, STRIDE, STRIDE - 1, STRIDE + 1):
        pairs = discs & (discs >> shift)
        starts = pairs & (pairs >> (2 * shift))
        for step in range(4):
            cells |= starts << (step * shift)
    return cells


class ColumnFullError(CellOccupiedError):
    """A move in a column that already holds ``HEIGHT`` discs."""


@dataclass(frozen=True, slots=True)
class ConnectFourState:
    """A position: ``x`` and ``o`` are bitboards (see the module's docstring), X moving first.

    Build states with :meth:`ConnectFour.initial_state` and :meth:`ConnectFour.result`, which check legality.
    """

    x: int = 0
    o: int = 0

    @property
    def discs(self) -> int:
        """The number of discs on the board (the ply count)."""
        return (self.x | self.o).bit_count()


class ConnectFour:
    """Connect Four as an :class:`engine.protocol.Game` whose actions are columns (0-6).

    Attributes:
        width: 7 columns.
        height: 6 rows.
        cells: 42.
    """

    width = WIDTH
    height = HEIGHT
    cells = CELLS

    def __repr__(self) -> str:
        return "ConnectFour()"

    # The game protocol (AIMA §5.1).

    def initial_state(self) -> ConnectFourState:
        """S0: the empty board, X to move."""
        return ConnectFourState()

    def player(self, state: ConnectFourState) -> Mark:
        """TO-MOVE: X when both sides have as many discs, else O."""
        return Mark.X if state.x.bit_count() == state.o.bit_count() else Mark.O

    def actions(self, state: ConnectFourState) -> tuple[int, ...]:
        """ACTIONS: the columns (0-6) that are not full, left to right, or ``()`` when the game is over."""
        if self.terminal(state):
            return ()
        occupied = state.x | state.o
        return tuple(column for column in range(WIDTH) if not occupied >> (column * STRIDE + HEIGHT - 1) & 1)

    def result(self, state: ConnectFourState, action: int) -> ConnectFourState:
        """RESULT: the state after the player to move drops a disc in column ``action`` (0-6).

        Raises:
            CellOutOfRangeError: ``action`` is not an int in 0-6.
            GameOverError: the game has already ended.
            ColumnFullError: the column holds six discs.
        """
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < WIDTH:
            raise CellOutOfRangeError(f"column {action!r} is off the board: choose 0-6 (shown as 1-7 or a-g)")
        if self.terminal(state):
            raise GameOverError("the game is over: no more moves can be played")
        occupied = state.x | state.o
        disc = (occupied + (1 << (action * STRIDE))) & column_mask(action)
        if not disc:
            raise ColumnFullError(f"column {action + 1} ({self.column_name(action)}) is full")
        if self.player(state) is Mark.X:
            return ConnectFourState(state.x | disc, state.o)
        return ConnectFourState(state.x, state.o | disc)

    def terminal(self, state: ConnectFourState) -> bool:
        """IS-TERMINAL: a side has four in a row, or the board is full."""
        return self.winner(state) is not None or (state.x | state.o) == BOARD

    def utility(self, state: ConnectFourState) -> int:
        """UTILITY for MAX (X): +1 X won, -1 O won, 0 otherwise."""
        won = self.winner(state)
        return 0 if won is None else 1 if won is Mark.X else -1

    # Beyond the protocol.

    def winner(self, state: ConnectFourState) -> Mark | None:
        """The mark with four in a row, or ``None``."""
        if has_four(state.x):
            return Mark.X
        if has_four(state.o):
            return Mark.O
        return None

    def column_name(self, column: int) -> str:
        """The letter people see for ``column`` (0-6): ``"a"`` to ``"g"``."""
        return chr(ord("a") + column)

    def parse_column(self, text: str) -> int:
        """The 0-based column for ``"1"``-``"7"`` or ``"a"``-``"g"``, as people type them
        (:func:`engine.coordinates.parse_cell`).

        Raises:
            CellOutOfRangeError: neither form (whatever the text).
        """
        return parse_cell(text, WIDTH, HEIGHT, by_column=True)

    def format_board(self, state: ConnectFourState) -> str:
        """The board as six rows, top first, of ``X``, ``O`` and ``.`` joined by ``/``."""
        rows = []
        for row in reversed(range(HEIGHT)):
            chars = []
            for column in range(WIDTH):
                bit = 1 << (column * STRIDE + row)
                chars.append("X" if state.x & bit else "O" if state.o & bit else ".")
            rows.append("".join(chars))
        return "/".join(rows)

    def play(self, columns: str | list[int] | tuple[int, ...]) -> ConnectFourState:
        """The state after ``columns`` are played in order from the empty board: 0-based ints, or a string of
        the digits 1-7 as the Connect Four literature writes games (``"4453"``).

        Raises:
            IllegalMoveError: (or a subclass) a move that cannot be played where it comes.
        """
        if isinstance(columns, str):
            if not all("1" <= ch <= "7" for ch in columns):
                raise IllegalMoveError(f"moves {columns!r}: give the digits 1-7 only")
            columns = [int(ch) - 1 for ch in columns]
        state = self.initial_state()
        for column in columns:
            state = self.result(state, column)
        return state


CONNECT_FOUR = ConnectFour()
"""The game: 7x6, four in a row; a first-player win with perfect play, in 41 plies (Allis 1988; Tromp 1995)."""
