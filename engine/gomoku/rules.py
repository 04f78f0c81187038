"""Gomoku: 15 x 15, X (black) first, five or more in a row wins (freestyle: an overline wins too); a full board is a
draw.

Source: the rules as OpenSpiel's ``gomoku`` plays them (the tests compare both over random playouts at every ply).

**Cells** are OpenSpiel's actions: ``15 * row + column``, row 0 the top row as OpenSpiel prints the board, column 0
the left. **Names** are the usual notation of Gomoku and Go boards: a column letter ``a``-``o`` and a row number
``1``-``15`` counted from the bottom, so ``h8`` is the centre (cell 112), ``a15`` cell 0 and ``o1`` cell 224.

**Bits.** A :class:`GomokuState` holds one bitboard per side, cell (``row``, ``column``) at bit ``16 * row +
column``: each row has a 16th, always-empty bit so that lines never wrap (as Connect Four's column sentinels).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.coordinates import cell_name, parse_cell
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError
from engine.protocol import Mark

__all__ = ["CELLS", "GOMOKU", "SIZE", "STRIDE", "Gomoku", "GomokuState", "bit", "has_five"]

SIZE = 15
CELLS = SIZE * SIZE
STRIDE = SIZE + 1
"""Bits per row: 15 cells and the empty sentinel."""
_SHIFTS = (1, STRIDE, STRIDE + 1, STRIDE - 1)  # horizontal, vertical, both diagonals


def bit(cell: int) -> int:
    """The bitboard bit of ``cell`` (0-224)."""
    return 1 << (cell + cell // SIZE)


def has_five(stones: int) -> bool:
    """True when the bitboard ``stones`` holds five (or more) in a row in any direction."""
    for shift in _SHIFTS:
        two = stones & (stones >> shift)
        four = two & (two >> (2 * shift))
        if four & (stones >> (4 * shift)):
            return True
    return False


@dataclass(frozen=True, slots=True)
class GomokuState:
    """A position: ``x`` and ``o`` are bitboards (see the module's docstring), X moving first.

    Build states with :meth:`Gomoku.initial_state` and :meth:`Gomoku.result`, which check legality.
    """

    x: int = 0
    o: int = 0

    @property
    def stones(self) -> int:
        """The number of stones on the board (the ply count)."""
        return (self.x | self.o).bit_count()

    def cells(self, mark: Mark) -> list[int]:
        """The cells (0-224, ascending) that ``mark`` holds."""
        board = self.x if mark is Mark.X else self.o
        return [cell for cell in range(CELLS) if board & bit(cell)]


class Gomoku:
    """Gomoku as an :class:`engine.protocol.Game` whose actions are cells (0-224, OpenSpiel's numbering).

    Attributes:
        width: 15 columns.
        height: 15 rows.
        cells: 225.
    """

    width = SIZE
    height = SIZE
    cells = CELLS

    def __repr__(self) -> str:
        return "Gomoku()"

    def initial_state(self) -> GomokuState:
        """S0: the empty board, X to move."""
        return GomokuState()

    def player(self, state: GomokuState) -> Mark:
        """TO-MOVE: X when both sides have as many stones, else O."""
        return Mark.X if state.x.bit_count() == state.o.bit_count() else Mark.O

    def actions(self, state: GomokuState) -> tuple[int, ...]:
        """ACTIONS: the empty cells, ascending, or ``()`` when the game is over."""
        if self.terminal(state):
            return ()
        occupied = state.x | state.o
        return tuple(cell for cell in range(CELLS) if not occupied & bit(cell))

    def result(self, state: GomokuState, action: int) -> GomokuState:
        """RESULT: the state after the player to move puts a stone on cell ``action`` (0-224).

        Raises:
            CellOutOfRangeError: ``action`` is not an int in 0-224.
            GameOverError: the game has already ended.
            CellOccupiedError: the cell holds a stone.
        """
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < CELLS:
            raise CellOutOfRangeError(f"cell {action!r} is off the board: choose 0-{CELLS - 1}")
        if self.terminal(state):
            raise GameOverError("the game is over: no more moves can be played")
        stone = bit(action)
        if (state.x | state.o) & stone:
            raise CellOccupiedError(f"cell {self.cell_name(action)} is taken")
        if self.player(state) is Mark.X:
            return GomokuState(state.x | stone, state.o)
        return GomokuState(state.x, state.o | stone)

    def terminal(self, state: GomokuState) -> bool:
        """IS-TERMINAL: a side has five in a row, or the board is full."""
        return self.winner(state) is not None or state.stones == CELLS

    def utility(self, state: GomokuState) -> int:
        """UTILITY for MAX (X): +1 X won, -1 O won, 0 otherwise."""
        won = self.winner(state)
        return 0 if won is None else 1 if won is Mark.X else -1

    def winner(self, state: GomokuState) -> Mark | None:
        """The mark with five in a row, or ``None``."""
        if has_five(state.x):
            return Mark.X
        if has_five(state.o):
            return Mark.O
        return None

    def cell_name(self, cell: int) -> str:
        """The usual name of ``cell`` (0-224): ``"h8"`` for the centre, rows counted from the bottom."""
        return cell_name(cell, SIZE, from_bottom=True, height=SIZE)

    def parse_cell(self, text: str) -> int:
        """The cell (0-224) that ``text`` names: ``"h8"`` (rows from the bottom) or a number 1-225 row by row from
        the top left (:func:`engine.coordinates.parse_cell`).

        Raises:
            CellOutOfRangeError: neither form, or off the board (whatever the text).
        """
        return parse_cell(text, SIZE, SIZE, from_bottom=True)

    def format_board(self, state: GomokuState) -> str:
        """The board as 15 rows, top (row 15) first, of ``X``, ``O`` and ``.`` joined by ``/``."""
        rows = []
        for row in range(SIZE):
            chars = []
            for column in range(SIZE):
                stone = bit(row * SIZE + column)
                chars.append("X" if state.x & stone else "O" if state.o & stone else ".")
            rows.append("".join(chars))
        return "/".join(rows)

    def play(self, moves: str | list[int] | tuple[int, ...]) -> GomokuState:
        """The state after ``moves`` from the empty board: cells, or names separated by spaces (``"h8 h9 i8"``).

        Raises:
            IllegalMoveError: (or a subclass) a move that cannot be played where it comes.
        """
        cells = [self.parse_cell(name) for name in moves.split()] if isinstance(moves, str) else list(moves)
        state = self.initial_state()
        for cell in cells:
            state = self.result(state, cell)
        return state


GOMOKU = Gomoku()
"""The game: 15 x 15, five or more in a row; a first-player win (Allis, van den Herik and Huntjens 1993)."""
