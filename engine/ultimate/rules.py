"""Ultimate tic-tac-toe under the standard rules (the same as OpenSpiel's ``ultimate_tic_tac_toe``).

Nine small 3x3 boards sit in a 3x3 grid. A move in cell c of a small board sends the opponent to small
board c. A small board that is won or full is closed; a player sent to a closed board may play in any
open one. Three small boards won in a line win the game; all boards closed without such a line is a
draw (no tiebreak).

Cells are 0-based on the whole 9x9 grid, row by row (people see 1-81, or a column letter a-i and a row
number 1-9 with a1 at the top left: grid row r and column c, both 1-based, is cell 9(r-1)+c). Small
boards are numbered 0-8 row by row, and so are the cells inside one.

Internally each side's marks are one 81-bit integer in *board-major* order (bit 9b+i is cell i of small
board b), so a small board is ``(marks >> 9*b) & 511`` and a win is one lookup in :data:`WON9`.
:class:`UltimateTicTacToe` implements :class:`engine.protocol.Game` (AIMA §5.1) on :class:`UltimateState`.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from engine import coordinates
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, IllegalMoveError, shown_cell
from engine.protocol import Mark

__all__ = [
    "BIT_OF_CELL",
    "CELL_OF_BIT",
    "WON9",
    "BoardStatus",
    "UltimateState",
    "UltimateTicTacToe",
    "WrongBoardError",
    "cell_name",
    "parse_cell",
    "place",
]

CELLS = 81
FULL9 = 0x1FF
LINES3 = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINE_MASKS = tuple(sum(1 << i for i in line) for line in LINES3)
#: ``WON9[m]`` is True when the 9-bit mask ``m`` of one side's cells on a 3x3 board holds a line.
WON9: tuple[bool, ...] = tuple(any(m & line == line for line in LINE_MASKS) for m in range(512))
#: Grid cell (0-80, row by row) to internal bit (9*board + cell in board), and back.
BIT_OF_CELL: tuple[int, ...] = tuple(9 * (3 * (g // 27) + (g % 9) // 3) + 3 * ((g // 9) % 3) + g % 3 for g in range(81))
CELL_OF_BIT: tuple[int, ...] = tuple(sorted(range(81), key=BIT_OF_CELL.__getitem__))

_ONGOING, _X_WON, _O_WON, _DRAWN = 0, 1, 2, 3


class WrongBoardError(IllegalMoveError):
    """A move outside the small board that the player was sent to."""


class BoardStatus(enum.Enum):
    """The status of one small board."""

    OPEN = "open"
    X = "X"
    O = "O"  # noqa: E741
    DRAWN = "drawn"


@dataclass(frozen=True, slots=True)
class UltimateState:
    """A position. Build it with :meth:`UltimateTicTacToe.initial_state` and ``result``, which check legality.

    Attributes:
        x, o: each side's marks, 81-bit, board-major (bit 9b+i: cell i of small board b).
        x_boards, o_boards: 9-bit masks of the small boards each side has won.
        closed: 9-bit mask of the closed small boards (won or full).
        forced: the small board (0-8) the player to move must play in, or -1 for any open board.
        last_move: the last move's grid cell (0-80), or -1 before the first move.
        outcome: 0 while the game goes on, 1 when X has won, 2 when O has, 3 for a draw.
    """

    x: int = 0
    o: int = 0
    x_boards: int = 0
    o_boards: int = 0
    closed: int = 0
    forced: int = -1
    last_move: int = -1
    outcome: int = _ONGOING

    @property
    def to_move(self) -> Mark | None:
        """The mark whose turn it is, or ``None`` when the game is over."""
        if self.outcome != _ONGOING:
            return None
        return Mark.X if self.x.bit_count() == self.o.bit_count() else Mark.O

    @property
    def winner(self) -> Mark | None:
        """The winner, or ``None`` while the game goes on or after a draw."""
        return Mark.X if self.outcome == _X_WON else Mark.O if self.outcome == _O_WON else None

    @property
    def is_draw(self) -> bool:
        """All small boards are closed and nobody has three in a line."""
        return self.outcome == _DRAWN

    @property
    def is_over(self) -> bool:
        """The game has ended (won or drawn)."""
        return self.outcome != _ONGOING

    @property
    def forced_board(self) -> int | None:
        """The small board (0-8) the player to move must play in; ``None`` for any open board or game over."""
        return None if self.outcome != _ONGOING or self.forced < 0 else self.forced

    @property
    def playable_boards(self) -> tuple[int, ...]:
        """The small boards (0-8) the player to move may play in; empty when the game is over."""
        if self.outcome != _ONGOING:
            return ()
        if self.forced >= 0:
            return (self.forced,)
        return tuple(b for b in range(9) if not self.closed >> b & 1)

    def board_status(self, board: int) -> BoardStatus:
        """The status of small board ``board`` (0-8).

        Raises:
            IndexError: ``board`` is not in 0-8.
        """
        if not 0 <= board <= 8:
            raise IndexError(f"small board {board!r} is out of range 0-8")
        if self.x_boards >> board & 1:
            return BoardStatus.X
        if self.o_boards >> board & 1:
            return BoardStatus.O
        return BoardStatus.DRAWN if self.closed >> board & 1 else BoardStatus.OPEN

    @property
    def board_statuses(self) -> tuple[BoardStatus, ...]:
        """The nine small boards' statuses, board 0 (top left) to 8 (bottom right)."""
        return tuple(self.board_status(b) for b in range(9))

    def __getitem__(self, cell: int) -> Mark | None:
        """The mark in grid ``cell`` (0-80), or ``None`` when it is empty.

        Raises:
            IndexError: ``cell`` is not in 0-80.
        """
        if not 0 <= cell < CELLS:
            raise IndexError(f"cell {cell!r} is out of range 0-80")
        bit = 1 << BIT_OF_CELL[cell]
        return Mark.X if self.x & bit else Mark.O if self.o & bit else None

    def __str__(self) -> str:
        """Nine rows of nine characters (``X``, ``O``, ``.``), small boards separated by spaces."""
        rows = []
        for r in range(9):
            chars = [(m.value if (m := self[9 * r + c]) else ".") for c in range(9)]
            rows.append(" ".join("".join(chars[i : i + 3]) for i in (0, 3, 6)))
        return "\n".join(rows)


class UltimateTicTacToe:
    """The game's rules as AIMA's six functions (:class:`engine.protocol.Game`) over :class:`UltimateState`."""

    name = "ultimate"
    cells = CELLS

    def initial_state(self) -> UltimateState:
        """S0: the empty grid; X moves first, anywhere."""
        return UltimateState()

    def player(self, state: UltimateState) -> Mark:
        """TO-MOVE: the mark whose turn it is (X when the game is over after O's move, as AIMA does)."""
        return Mark.X if state.x.bit_count() == state.o.bit_count() else Mark.O

    def actions(self, state: UltimateState) -> tuple[int, ...]:
        """ACTIONS: legal grid cells (0-80) in ascending order; empty when the game is over."""
        if state.outcome != _ONGOING:
            return ()
        empty = ~(state.x | state.o)
        bits = [9 * b + i for b in state.playable_boards for i in range(9) if empty >> (9 * b + i) & 1]
        return tuple(sorted(CELL_OF_BIT[bit] for bit in bits))

    def result(self, state: UltimateState, action: int) -> UltimateState:
        """RESULT: the state after the player to move marks grid cell ``action`` (0-80).

        Raises:
            GameOverError: the game is over.
            CellOutOfRangeError: ``action`` is not an int in 0-80.
            CellOccupiedError: the cell holds a mark.
            WrongBoardError: the cell is not in the small board the player was sent to (or is in a closed one).
        """
        if state.outcome != _ONGOING:
            raise GameOverError(f"the game is over: cell {shown_cell(action)} cannot be played")
        if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < CELLS:
            raise CellOutOfRangeError(f"cell {shown_cell(action)} is off the board: choose 1-81")
        bit = BIT_OF_CELL[action]
        board = bit // 9
        if (state.x | state.o) >> bit & 1:
            raise CellOccupiedError(f"cell {action + 1} ({cell_name(action)}) is already taken")
        if state.closed >> board & 1:
            raise WrongBoardError(
                f"cell {action + 1} ({cell_name(action)}) is in small board {board + 1}, which is closed"
            )
        if state.forced >= 0 and board != state.forced:
            raise WrongBoardError(
                f"cell {action + 1} ({cell_name(action)}) is in small board {board + 1}: the move must be in board "
                f"{state.forced + 1}"
            )
        x_moves = self.player(state) is Mark.X
        mine, theirs = (state.x, state.o) if x_moves else (state.o, state.x)
        won_mine = state.x_boards if x_moves else state.o_boards
        mine, won_mine, closed, forced = place(mine, theirs, won_mine, state.closed, bit)
        outcome = _ONGOING
        if WON9[won_mine]:
            outcome = _X_WON if x_moves else _O_WON
        elif closed == FULL9:
            outcome = _DRAWN
        x, o = (mine, theirs) if x_moves else (theirs, mine)
        x_boards, o_boards = (won_mine, state.o_boards) if x_moves else (state.x_boards, won_mine)
        return UltimateState(x, o, x_boards, o_boards, closed, forced, action, outcome)

    def terminal(self, state: UltimateState) -> bool:
        """IS-TERMINAL: a side has three small boards in a line, or every small board is closed."""
        return state.outcome != _ONGOING

    def utility(self, state: UltimateState) -> int:
        """UTILITY for MAX (X): +1 when X has won, -1 when O has, 0 otherwise."""
        return 1 if state.outcome == _X_WON else -1 if state.outcome == _O_WON else 0

    def winner(self, state: UltimateState) -> Mark | None:
        """The winner, or ``None`` (game going on, or drawn)."""
        return state.winner

    def play(self, moves: list[int] | tuple[int, ...]) -> UltimateState:
        """The state after ``moves`` (grid cells, 0-based) from the empty grid.

        Raises:
            IllegalMoveError: (a subclass) the first move that cannot be played, as :meth:`result` raises it.
        """
        state = self.initial_state()
        for move in moves:
            state = self.result(state, move)
        return state


def place(mine: int, theirs: int, won: int, closed: int, bit: int) -> tuple[int, int, int, int]:
    """The mover's marks, the mover's won small boards, the closed small boards and the small board the other side is
    sent to (-1: any open one) after the mover plays internal ``bit`` (9*board + cell in board), from the board-major
    masks before it: ``mine`` and ``theirs`` (81 bits), ``won`` and ``closed`` (9 bits). The move is not checked."""
    board = bit // 9
    mine |= 1 << bit
    small = mine >> (9 * board) & FULL9
    if WON9[small]:
        won |= 1 << board
        closed |= 1 << board
    elif (small | theirs >> (9 * board)) & FULL9 == FULL9:
        closed |= 1 << board
    target = bit % 9
    return mine, won, closed, -1 if closed >> target & 1 else target


def cell_name(cell: int) -> str:
    """The coordinate people see for grid ``cell`` (0-80): column a-i, row 1-9, a1 top left (cell 0 is "a1").

    Raises:
        CellOutOfRangeError: ``cell`` is not in 0-80.
    """
    if not 0 <= cell < CELLS:
        raise CellOutOfRangeError(f"cell {cell!r} is out of range: expected 0-80")
    return f"{'abcdefghi'[cell % 9]}{cell // 9 + 1}"


def parse_cell(text: str) -> int:
    """The grid cell (0-80) for a coordinate such as ``"e5"`` or a 1-based number such as ``"41"``
    (:func:`engine.coordinates.parse_cell`).

    Raises:
        CellOutOfRangeError: ``text`` is neither a coordinate a1-i9 nor a number 1-81 (whatever the text).
    """
    return coordinates.parse_cell(text, 9, 9)
