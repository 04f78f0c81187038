"""Connect Four as a game of cells, the way every game meets the bot: a move is the cell its disc falls to.

The cells are numbered as on every board of the bot, row by row from the top left: cell ``0`` is the top of the
first column (a1), cell ``41`` the bottom of the last (g6). A move is the lowest empty cell of a column (its disc
falls there), so the records, the board and the reviews all name where the disc landed. The rules themselves are
:class:`engine.connect_four.rules.ConnectFour` (actions are columns, as OpenSpiel plays them); this class only
translates, and its states are the same :class:`~engine.connect_four.rules.ConnectFourState`.
"""

from __future__ import annotations

from engine.connect_four.rules import CONNECT_FOUR, HEIGHT, STRIDE, WIDTH, ConnectFourState, column_mask
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, IllegalMoveError, shown_cell
from engine.protocol import Mark

__all__ = ["CELLS_GAME", "ConnectFourCells", "FloatingDiscError", "bit_of", "cell_of", "landing_cells"]

CELLS = WIDTH * HEIGHT


class FloatingDiscError(IllegalMoveError):
    """A move on an empty cell that is not the lowest empty cell of its column: the disc would float."""


def bit_of(cell: int) -> int:
    """The bitboard bit (:mod:`engine.connect_four.rules`) of 0-based ``cell`` (row by row from the top left)."""
    row, column = divmod(cell, WIDTH)
    return 1 << (column * STRIDE + HEIGHT - 1 - row)


def cell_of(bit_index: int) -> int:
    """The 0-based cell of bitboard bit number ``bit_index`` (a cell's bit, not a sentinel's)."""
    column, row = divmod(bit_index, STRIDE)
    return (HEIGHT - 1 - row) * WIDTH + column


def landing_cells(state: ConnectFourState) -> tuple[int | None, ...]:
    """The cell the next disc of each column falls to, left to right (``None``: the column is full)."""
    occupied = state.x | state.o
    cells: list[int | None] = []
    for column in range(WIDTH):
        height = (occupied & column_mask(column)).bit_count()
        cells.append(None if height == HEIGHT else (HEIGHT - 1 - height) * WIDTH + column)
    return tuple(cells)


class ConnectFourCells:
    """Connect Four as an :class:`engine.protocol.Game` whose actions are cells (0-41): the cell a column's next disc
    falls to. ``width`` 7, ``height`` 6, ``cells`` 42."""

    width = WIDTH
    height = HEIGHT
    cells = CELLS

    def __repr__(self) -> str:
        return "ConnectFourCells()"

    def initial_state(self) -> ConnectFourState:
        """S0: the empty board, X to move."""
        return CONNECT_FOUR.initial_state()

    def player(self, state: ConnectFourState) -> Mark:
        """TO-MOVE: X when both sides have as many discs, else O."""
        return CONNECT_FOUR.player(state)

    def actions(self, state: ConnectFourState) -> tuple[int, ...]:
        """ACTIONS: the cell each column that is not full would fill, left to right; ``()`` once the game is over."""
        if CONNECT_FOUR.terminal(state):
            return ()
        return tuple(cell for cell in landing_cells(state) if cell is not None)

    def result(self, state: ConnectFourState, action: int) -> ConnectFourState:
        """RESULT: the state after the player to move drops a disc that falls to cell ``action``.

        Raises (the messages number cells 1-42, as people do):
            CellOutOfRangeError: ``action`` is not an int in 0-41.
            GameOverError: the game has already ended.
            CellOccupiedError: the cell holds a disc (its column may be full).
            FloatingDiscError: the cell is empty but not the lowest empty cell of its column.
        """
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < CELLS:
            raise CellOutOfRangeError(f"cell {shown_cell(action)} is off the board: choose 1-{CELLS}")
        if CONNECT_FOUR.terminal(state):
            raise GameOverError("the game is over: no more moves can be played")
        column = action % WIDTH
        if (state.x | state.o) & bit_of(action):
            raise CellOccupiedError(f"cell {action + 1} holds a disc (column {column + 1})")
        if (landing := landing_cells(state)[column]) != action:
            raise FloatingDiscError(
                f"a disc dropped in column {column + 1} falls to cell {shown_cell(landing)}, not cell {action + 1}"
            )
        return CONNECT_FOUR.result(state, column)

    def terminal(self, state: ConnectFourState) -> bool:
        """IS-TERMINAL: a side has four in a row, or the board is full."""
        return CONNECT_FOUR.terminal(state)

    def utility(self, state: ConnectFourState) -> int:
        """UTILITY for MAX (X): +1 X won, -1 O won, 0 otherwise."""
        return CONNECT_FOUR.utility(state)


CELLS_GAME = ConnectFourCells()
"""The rules the bot plays (:class:`ConnectFourCells`)."""
