"""Tic-tac-toe rules in the AIMA style: ``initial_state``, ``player``, ``actions``, ``result``,
``winner``, ``terminal`` and ``utility``.

Source: Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., §5.1 (a game is
S0, TO-MOVE, ACTIONS, RESULT, IS-TERMINAL and UTILITY).

Cells are numbered 0-8 row-major from the top-left; people see them as 1-9. A :class:`State` is a
pair of 9-bit masks, one per side, so states are immutable, hashable and cheap to copy. The search
works on the same masks directly (see :mod:`engine.tictactoe.bitboard`).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, InvalidBoardError, shown_cell
from engine.protocol import Mark
from engine.tictactoe import bitboard as bb

__all__ = [
    "EMPTY_CHAR",
    "Mark",
    "State",
    "actions",
    "format_board",
    "initial_state",
    "parse_board",
    "player",
    "result",
    "terminal",
    "utility",
    "winner",
    "winning_cells",
    "winning_line",
]

EMPTY_CHAR = "."


@dataclass(frozen=True, slots=True)
class State:
    """A position: ``x`` and ``o`` are 9-bit masks, bit ``i`` set when cell ``i`` holds that mark.

    Construct states with :func:`initial_state`, :func:`result` or :func:`parse_board`, which check
    legality; the constructor itself does not.
    """

    x: int = 0
    o: int = 0

    def __getitem__(self, cell: int) -> Mark | None:
        """The mark in ``cell`` (0-8), or ``None`` when it is empty.

        Raises:
            IndexError: ``cell`` is not in 0-8.
        """
        if not 0 <= cell <= 8:
            raise IndexError(f"cell {cell!r} is out of range 0-8")
        bit = 1 << cell
        if self.x & bit:
            return Mark.X
        if self.o & bit:
            return Mark.O
        return None

    @property
    def marks(self) -> int:
        """The number of marks on the board (the ply count, 0-9)."""
        return bb.POPCOUNT[self.x | self.o]

    def __str__(self) -> str:
        return format_board(self)


def initial_state() -> State:
    """S0: the empty board, X to move."""
    return State()


def player(state: State) -> Mark:
    """TO-MOVE: the mark whose turn it is (X when the counts are equal)."""
    return Mark.X if bb.POPCOUNT[state.x] == bb.POPCOUNT[state.o] else Mark.O


def actions(state: State) -> tuple[int, ...]:
    """ACTIONS: the empty cells in natural order 0-8, or ``()`` when the game is over."""
    if terminal(state):
        return ()
    return bb.FREE_CELLS[state.x | state.o]


def result(state: State, action: int) -> State:
    """RESULT: the state after the player to move marks cell ``action`` (0-8).

    Raises:
        CellOutOfRangeError: ``action`` is not an int in 0-8.
        GameOverError: the game has already ended.
        CellOccupiedError: the cell already holds a mark.
    """
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action <= 8:
        raise CellOutOfRangeError(f"cell {shown_cell(action)} is off the board: choose 1-9")
    if terminal(state):
        raise GameOverError(f"the game is over ({_outcome_text(state)}): no more moves can be played")
    bit = 1 << action
    occupant = state[action]
    if occupant is not None:
        raise CellOccupiedError(f"cell {action + 1} is already taken by {occupant.value}")
    if player(state) is Mark.X:
        return State(state.x | bit, state.o)
    return State(state.x, state.o | bit)


def winner(state: State) -> Mark | None:
    """The mark with three in a row, or ``None``."""
    if bb.WINS[state.x]:
        return Mark.X
    if bb.WINS[state.o]:
        return Mark.O
    return None


def winning_line(state: State) -> tuple[int, int, int] | None:
    """The cells (0-8) of the first completed line, or ``None``."""
    for line in bb.LINES:
        mask = bb.line_mask(line)
        if state.x & mask == mask or state.o & mask == mask:
            return line
    return None


def winning_cells(state: State) -> frozenset[int]:
    """Every cell (0-8) on a completed line: three, or five when one move completed two lines."""
    return frozenset(
        cell
        for line in bb.LINES
        if (mask := bb.line_mask(line)) and (state.x & mask == mask or state.o & mask == mask)
        for cell in line
    )


def terminal(state: State) -> bool:
    """IS-TERMINAL: someone has won or the board is full."""
    return bb.WINS[state.x] or bb.WINS[state.o] or (state.x | state.o) == bb.FULL


def utility(state: State) -> int:
    """UTILITY from X's (MAX's) point of view: +1 X won, -1 O won, 0 otherwise (draw or not over)."""
    if bb.WINS[state.x]:
        return 1
    if bb.WINS[state.o]:
        return -1
    return 0


def parse_board(text: str) -> State:
    """Parse nine characters, row by row, of ``X``, ``O`` and ``.`` (e.g. ``"....X...."``).

    Lower case is accepted and whitespace and ``|``/``/`` separators are ignored, so ``"x.o/...//..."``
    style input from people also works.

    Raises:
        InvalidBoardError: wrong characters or length, impossible counts, both sides winning, or a
            move played after a win.
    """
    if not isinstance(text, str):
        raise InvalidBoardError(f"a board must be a string of nine X/O/. characters, not {text!r}")
    cells = [c for c in text.upper() if not c.isspace() and c not in "|/"]
    if len(cells) != 9:
        raise InvalidBoardError(f"board {text!r} has {len(cells)} cells; give exactly nine of X, O and '.'")
    bad = sorted({c for c in cells if c not in ("X", "O", EMPTY_CHAR)})
    if bad:
        raise InvalidBoardError(f"board {text!r} contains {''.join(bad)!r}; use only X, O and '.' for empty")
    x = sum(1 << i for i, c in enumerate(cells) if c == "X")
    o = sum(1 << i for i, c in enumerate(cells) if c == "O")
    state = State(x, o)
    nx, no = bb.POPCOUNT[x], bb.POPCOUNT[o]
    if nx - no not in (0, 1):
        raise InvalidBoardError(f"board {text!r} has {nx} X and {no} O; X moves first, so X must equal O or O + 1")
    x_won, o_won = bb.WINS[x], bb.WINS[o]
    if x_won and o_won:
        raise InvalidBoardError(f"board {text!r} has both X and O winning; play stops at the first win")
    if x_won and nx != no + 1:
        raise InvalidBoardError(f"board {text!r}: X has won, so O cannot have moved afterwards")
    if o_won and nx != no:
        raise InvalidBoardError(f"board {text!r}: O has won, so X cannot have moved afterwards")
    return state


def format_board(state: State) -> str:
    """The inverse of :func:`parse_board`: nine characters of ``X``, ``O`` and ``.``."""
    return "".join((m.value if (m := state[i]) else EMPTY_CHAR) for i in range(9))


def _outcome_text(state: State) -> str:
    won = winner(state)
    return f"{won.value} won" if won else "draw"
