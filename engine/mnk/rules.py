"""m,n,k games: ``k`` in a row on a board ``h`` cells wide and ``v`` cells high, as one class with parameters.

Source: Russell & Norvig, *AIMA* 4th ed., §5.1, and aima-python's ``TicTacToe(h=3, v=3, k=3)``: a bigger
board is new parameters, not a copy. The variants the bot plays are :data:`TIC_TAC_TOE_4X4`
(``TicTacToe(4, 4, 4)``) and :data:`TIC_TAC_TOE_5X5` (``TicTacToe(5, 5, 4)``), both draws with best play
(Uiterwijk 2019; Lustenberger 1967).

Cells are 0-based row by row (cell ``i`` is row ``i // h``, column ``i % h``); people see them 1-based
(1-16, 1-25) or as coordinates, a column letter and a row number with ``a1`` at the top left
(a1-d4, a1-e5). A :class:`MnkState` is a pair of bit masks, one per side, bit ``i`` for cell ``i``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from engine.coordinates import parse_cell
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, shown_cell
from engine.protocol import Mark

__all__ = ["TIC_TAC_TOE_4X4", "TIC_TAC_TOE_5X5", "MnkState", "TicTacToe"]

_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))  # (row step, column step): right, down, down-right, down-left


@dataclass(frozen=True, slots=True)
class MnkState:
    """A position: ``x`` and ``o`` are masks, bit ``i`` set when cell ``i`` holds that mark.

    Build states with :meth:`TicTacToe.initial_state` and :meth:`TicTacToe.result`, which check legality.
    """

    x: int = 0
    o: int = 0

    @property
    def marks(self) -> int:
        """The number of marks on the board (the ply count)."""
        return (self.x | self.o).bit_count()


class TicTacToe:
    """``k`` in a row on an ``h`` x ``v`` board (AIMA's ``TicTacToe(h, v, k)``), an :class:`engine.protocol.Game`.

    Attributes:
        h: the board's width (columns), 1-26.
        v: the board's height (rows), 1-26.
        k: marks in a row (horizontal, vertical or diagonal) that win.
        cells: ``h * v``.
        lines: every winning line as a mask, each ``k`` cells long.
        lines_through: ``lines_through[cell]`` are the masks of the lines that contain ``cell``.
        full: the mask of every cell.

    Raises:
        ValueError: a size outside 1-26, or ``k`` longer than both sides.
    """

    def __init__(self, h: int, v: int, k: int) -> None:
        if not (1 <= h <= 26 and 1 <= v <= 26 and 1 <= k <= max(h, v)):
            raise ValueError(f"TicTacToe({h!r}, {v!r}, {k!r}): sizes must be 1-26 and k at most the longer side")
        self.h, self.v, self.k = h, v, k
        self.cells = h * v
        self.full = (1 << self.cells) - 1
        lines = []
        for row in range(v):
            for col in range(h):
                for dr, dc in _DIRECTIONS:
                    end_r, end_c = row + dr * (k - 1), col + dc * (k - 1)
                    if 0 <= end_r < v and 0 <= end_c < h:
                        lines.append(sum(1 << ((row + dr * i) * h + col + dc * i) for i in range(k)))
        self.lines: tuple[int, ...] = tuple(lines)
        self.lines_through: tuple[tuple[int, ...], ...] = tuple(
            tuple(line for line in self.lines if line >> cell & 1) for cell in range(self.cells)
        )

    def __repr__(self) -> str:
        return f"TicTacToe({self.h}, {self.v}, {self.k})"

    # The game protocol (AIMA §5.1).

    def initial_state(self) -> MnkState:
        """S0: the empty board, X to move."""
        return MnkState()

    def player(self, state: MnkState) -> Mark:
        """TO-MOVE: X when both sides have as many marks, else O."""
        return Mark.X if state.x.bit_count() == state.o.bit_count() else Mark.O

    def actions(self, state: MnkState) -> tuple[int, ...]:
        """ACTIONS: the empty cells in natural order (0-based), or ``()`` when the game is over."""
        if self.terminal(state):
            return ()
        occupied = state.x | state.o
        return tuple(cell for cell in range(self.cells) if not occupied >> cell & 1)

    def result(self, state: MnkState, action: int) -> MnkState:
        """RESULT: the state after the player to move marks cell ``action`` (0-based).

        Raises:
            CellOutOfRangeError: ``action`` is not an int in ``0 .. cells - 1``.
            GameOverError: the game has already ended.
            CellOccupiedError: the cell already holds a mark.
        """
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < self.cells:
            raise CellOutOfRangeError(f"cell {shown_cell(action)} is off the board: choose 1-{self.cells}")
        if self.terminal(state):
            raise GameOverError("the game is over: no more moves can be played")
        bit = 1 << action
        if (state.x | state.o) & bit:
            owner = "X" if state.x & bit else "O"
            raise CellOccupiedError(f"cell {action + 1} ({self.coordinate(action)}) is already taken by {owner}")
        if self.player(state) is Mark.X:
            return MnkState(state.x | bit, state.o)
        return MnkState(state.x, state.o | bit)

    def terminal(self, state: MnkState) -> bool:
        """IS-TERMINAL: a side has ``k`` in a row, or the board is full."""
        return self.winner(state) is not None or (state.x | state.o) == self.full

    def utility(self, state: MnkState) -> int:
        """UTILITY for MAX (X): +1 X won, -1 O won, 0 otherwise."""
        won = self.winner(state)
        return 0 if won is None else 1 if won is Mark.X else -1

    # Beyond the protocol.

    def has_line(self, mask: int) -> bool:
        """True when ``mask`` holds a complete line of ``k``."""
        return any(mask & line == line for line in self.lines)

    def winner(self, state: MnkState) -> Mark | None:
        """The mark with ``k`` in a row, or ``None``."""
        if self.has_line(state.x):
            return Mark.X
        if self.has_line(state.o):
            return Mark.O
        return None

    def winning_cells(self, state: MnkState) -> frozenset[int]:
        """Every cell (0-based) on a completed line."""
        return frozenset(
            cell
            for line in self.lines
            if state.x & line == line or state.o & line == line
            for cell in range(self.cells)
            if line >> cell & 1
        )

    def coordinate(self, cell: int) -> str:
        """The coordinate people see for ``cell`` (0-based): ``"a1"`` is the top left, ``"d4"`` cell 15 on 4x4."""
        row, col = divmod(cell, self.h)
        return f"{chr(ord('a') + col)}{row + 1}"

    def parse_cell(self, text: str) -> int:
        """The 0-based cell for a coordinate (``"b3"``) or a 1-based number (``"7"``), as people type them
        (:func:`engine.coordinates.parse_cell`).

        Raises:
            CellOutOfRangeError: neither form, or off the board (whatever the text).
        """
        return parse_cell(text, self.h, self.v)

    def format_board(self, state: MnkState) -> str:
        """The board as ``v`` rows of ``X``, ``O`` and ``.`` joined by ``/`` (e.g. ``"X.../..../..../...O"``)."""
        rows = []
        for row in range(self.v):
            chars = []
            for col in range(self.h):
                bit = 1 << (row * self.h + col)
                chars.append("X" if state.x & bit else "O" if state.o & bit else ".")
            rows.append("".join(chars))
        return "/".join(rows)

    def play(self, cells: list[int] | tuple[int, ...]) -> MnkState:
        """The state after ``cells`` (0-based) are played in order from the empty board.

        Raises:
            IllegalMoveError: (a subclass) a move that cannot be played where it comes.
        """
        state = self.initial_state()
        for cell in cells:
            state = self.result(state, cell)
        return state

    @cached_property
    def symmetries(self) -> tuple[tuple[int, ...], ...]:
        """The board's symmetries as cell permutations (``perm[cell]`` is the image); index 0 is the identity.

        8 (the dihedral group D4) on a square board, 4 on an oblong one.
        """
        h, v = self.h, self.v
        perms: list[tuple[int, ...]] = []
        for transpose in (False, True):
            if transpose and h != v:
                continue
            for flip_r in (False, True):
                for flip_c in (False, True):
                    perm = []
                    for cell in range(self.cells):
                        r, c = divmod(cell, h)
                        if transpose:
                            r, c = c, r
                        r = v - 1 - r if flip_r else r
                        c = h - 1 - c if flip_c else c
                        perm.append(r * h + c)
                    perms.append(tuple(perm))
        return tuple(perms)


TIC_TAC_TOE_4X4 = TicTacToe(4, 4, 4)
"""4x4, four in a row: a draw with best play (Uiterwijk 2019)."""

TIC_TAC_TOE_5X5 = TicTacToe(5, 5, 4)
"""5x5, four in a row: a draw with best play (Lustenberger 1967)."""
