"""The protocol every game in the engine implements (AIMA's six game functions) and the words the games share.

Source: Russell & Norvig, *Artificial Intelligence: A Modern Approach*, 4th ed., §5.1: a game is
S0 (``initial_state``), TO-MOVE (``player``), ACTIONS, RESULT, IS-TERMINAL (``terminal``) and UTILITY.
Every game here is a two-player, zero-sum, perfect-information game in which X moves first and is MAX.
Actions are cell indices, 0-based and row by row over the whole board (people see them 1-based).

The searches (:mod:`engine.minimax.reference` and the fast kernels) take any object with these methods: a class
instance (``TicTacToe(4, 4, 4)``) or a module (:mod:`engine.tictactoe.rules`, the 3x3 game) both qualify.

Every game declares how its board is laid out as a :class:`Layout`, reports a position's value as a
:class:`GameValue`, plays at one of the :data:`LEVELS` and offers searches named by :data:`Algorithm`; they live
here, below the games, so no game imports another.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal, Protocol, TypeVar, get_args

__all__ = [
    "LAYOUT_KINDS",
    "LEVELS",
    "MAX_SIDE",
    "TOP_LEVEL",
    "Algorithm",
    "EngineMove",
    "Game",
    "GameValue",
    "Kernel",
    "Layout",
    "LayoutKind",
    "LevelSpec",
    "Mark",
    "Pieces",
    "PuzzleKit",
    "PuzzleLine",
    "Source",
    "StateT",
    "ValueKind",
]


class Mark(enum.Enum):
    """A player's mark. X moves first and is MAX (AIMA's convention)."""

    X = "X"
    O = "O"  # noqa: E741

    @property
    def other(self) -> Mark:
        """The opponent's mark."""
        return Mark.O if self is Mark.X else Mark.X


StateT = TypeVar("StateT", bound=Hashable)

Algorithm = Literal["minimax", "alpha-beta"]
"""A search a player can choose: plain minimax or alpha-beta (AIMA §5.2 and §5.3)."""


class Game(Protocol[StateT]):
    """A game as AIMA §5.1 defines it. States are immutable and hashable; actions are cell indices."""

    def initial_state(self) -> StateT:
        """S0: the position before any move."""
        ...

    def player(self, state: StateT) -> Mark:
        """TO-MOVE: the mark whose turn it is in ``state``."""
        ...

    def actions(self, state: StateT) -> Sequence[int]:
        """ACTIONS: the legal moves in ``state``, in the game's natural order; empty when it is over."""
        ...

    def result(self, state: StateT, action: int) -> StateT:
        """RESULT: the state after the player to move plays ``action``.

        Raises:
            IllegalMoveError: (or a subclass) ``action`` is not legal in ``state``.
        """
        ...

    def terminal(self, state: StateT) -> bool:
        """IS-TERMINAL: the game is over (won, or no move left)."""
        ...

    def utility(self, state: StateT) -> int:
        """UTILITY for MAX (X): +1 when X has won, -1 when O has, 0 otherwise."""
        ...


ValueKind = Literal["win", "draw", "loss"]
"""What a position is worth to one side with best play: a win, a draw or a loss."""


@dataclass(frozen=True, slots=True)
class GameValue:
    """A position's game-theoretic value for one side, with best play from both sides.

    Attributes:
        result: ``"win"``, ``"draw"`` or ``"loss"`` for that side.
        plies: plies from the position to the end of the game: the fastest forced win, the slowest
            loss, or the plies left to fill the board for a draw. 0 when the game is over.
    """

    result: ValueKind
    plies: int


LEVELS = range(1, 9)
"""The bot's levels on every game, 1 (weakest) to 8 (strongest): each game says how each plays
(:meth:`engine.Variant.level_specs`, :meth:`engine.Variant.level_move`)."""
TOP_LEVEL = 8
"""The strongest level, the default."""


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """How one level of a game searches, as the game declares it (:meth:`engine.Variant.level_specs`); each game
    reads the fields that fit its searches.

    Attributes:
        depth: plies of a depth-limited search, or ``None`` for the game's full-strength player.
        noise: the standard deviation of the Gaussian added to each root move's score before the pick, in the
            search's own units (evaluation points, or an expected score 0-1 for MCTS); 0: the best move, ties drawn
            at random.
        iterations: the budget of MCTS iterations (one rollout each) of one move's search.
        timed: no iteration budget; the search runs until its time budget is spent or the result is proved.
        sees: the probability (0-1) that the level notices a single immediate threat of the opponent (one move from
            winning) and blocks it before searching.
    """

    depth: int | None = None
    noise: float = 0.0
    iterations: int | None = None
    timed: bool = False
    sees: float = 1.0

    @property
    def search(self) -> str:
        """The level's search in words, e.g. ``"alpha-beta to depth 2, noise 16"``."""
        if self.timed:
            text = "MCTS for its whole time budget"
        elif self.iterations is not None:
            text = f"MCTS of {self.iterations:,} iterations"
        elif self.depth is None:
            return "perfect play"
        else:
            text = f"alpha-beta to depth {self.depth}"
        text = f"{text}, noise {self.noise:g}" if self.noise else text
        return f"{text}, blocks {self.sees:.0%}" if self.sees < 1 else text


Kernel = Literal["C", "Python"]
"""The kernel a game's search runs in this process: the C extension, or its pure-Python twin
(:meth:`engine.Variant.kernel`)."""
Source = Literal["search", "book", "cut short"]
"""Where a move came from: a search that finished, an opening book, or a search cut short at its time cap (the move
is the best found, its value unproven)."""


@dataclass(frozen=True, slots=True)
class EngineMove:
    """A move chosen by an engine, on any game: the one move record from the search to the board.

    Attributes:
        cell: the cell played, 0-based row by row over the whole board (0-8, 0-15, 0-24, 0-80).
        states: states evaluated (nodes visited) for this answer, every search it ran counted: 0 for a move read
            from an opening book (nothing searched); for a search cut short, the states of the search that was cut
            and of the fallback that chose the move.
        value: the position's exact value for the mover where it is proven (a solved game's search or book, or a
            search that proved it: ultimate's "win in N", "loss in N", "draw"), else ``None`` (the best found).
        elapsed_ms: wall-clock milliseconds spent choosing.
        source: ``"search"``, ``"book"`` for a move read from an opening book, or ``"cut short"`` for a search
            stopped at its time cap before it proved a value (the move then is a fallback's, ``value`` ``None``).
        depth: the depth of the search in plies where it is not exact: a level's depth-limited alpha-beta, or
            the deepest node an MCTS tree reached (ultimate); ``None`` for an exact search.
        expected: for an unsolved game, the mover's expected score (0-1, a draw 1/2) after the move, exactly
            1, 1/2 or 0 when proven (:mod:`engine.ultimate.scale`); ``None`` for a solved game.
        algorithm: the search that chose it (3x3 at full strength: the player's option; otherwise alpha-beta).
        budget_ms: the time budget the search had, ms (``None``: an exact or depth-limited search, no budget).
        reduced: true when the search had a smaller budget than its level's (the bot's search pool was busy).
        book_states: for a book move, the states the offline solve evaluated when it proved the entry, where the
            book keeps that count (4x4, 5x5); ``None`` otherwise. Work done before the game, not for this answer.
        mark: the side that moved (keyword only).
    """

    cell: int
    states: int
    value: GameValue | None
    elapsed_ms: float
    source: Source = "search"
    depth: int | None = None
    expected: float | None = None
    algorithm: Algorithm = "alpha-beta"
    budget_ms: float | None = None
    reduced: bool = False
    book_states: int | None = None
    mark: Mark = field(kw_only=True)

    @property
    def book(self) -> bool:
        """True for a move read from an opening book."""
        return self.source == "book"

    @property
    def cut_short(self) -> bool:
        """True for a move of a search stopped at its time cap before it proved a value (the best found)."""
        return self.source == "cut short"


LayoutKind = Literal["grid", "columns", "blocks"]
"""How a board is laid out: ``"grid"`` a grid of cells played cell by cell (3x3, 4x4, 5x5), ``"columns"`` a grid
played by column, a disc falling to the lowest empty cell (Connect Four), ``"blocks"`` a board of small boards
(ultimate)."""
LAYOUT_KINDS: Final[tuple[LayoutKind, ...]] = get_args(LayoutKind)
Pieces = Literal["marks", "discs"]
"""What the players put on the board: marks (X and O) or discs (the first player's red, the second's yellow)."""
MAX_SIDE: Final = 19
"""The widest and highest board drawn, in cells (a Go board: columns a-s, rows 1-19)."""


@dataclass(frozen=True, slots=True)
class Layout:
    """How a game's board is laid out, as the game declares it (:meth:`engine.Variant.layout`), so that a front end
    chooses how to draw it from this alone, never from the game's name or its width.

    Attributes:
        kind: the kind of layout (:data:`LayoutKind`).
        width, height: the board in cells, 1 to :data:`MAX_SIDE` each (ultimate: the whole 9 x 9 grid).
        block: the side of the small boards of a ``"blocks"`` layout (ultimate: 3), else 0.
        pieces: marks or discs (:data:`Pieces`).
    """

    kind: LayoutKind
    width: int
    height: int
    block: int = 0
    pieces: Pieces = "marks"


@dataclass(frozen=True, slots=True)
class PuzzleLine:
    """A proved puzzle line: the solver's ``solution`` (N moves) and the defender's ``replies`` (N - 1), 0-based
    cells."""

    solution: tuple[int, ...]
    replies: tuple[int, ...]


class PuzzleKit(Protocol):
    """What a game tells :mod:`engine.puzzles` about its puzzles (``Variant.puzzles()``); moves are 0-based cells
    from the empty board, and a kit keeps its prover's tables between calls (make one per miner).

    Attributes:
        first_ply: positions with fewer moves than this are not examined (forced short wins start later).
        opening: self-play opens with a random number of random moves in this range (inclusive).
        long_build: the set takes long to build (``make puzzles`` starts it first).
    """

    first_ply: int
    opening: tuple[int, int]
    long_build: bool

    def key(self, moves: Sequence[int]) -> Hashable:
        """The symmetry class of the position after ``moves`` (equal for positions equal under the board's
        symmetries)."""
        ...

    def prove(self, moves: Sequence[int]) -> PuzzleLine | None:
        """The puzzle line after ``moves`` (the fastest forced win, one winning move at every solver turn, the
        defender holding out longest), or ``None``: no puzzle. Raises IllegalMoveError (a subclass) on a bad move."""
        ...

    def features(self, moves: Sequence[int], line: PuzzleLine) -> tuple[int, int, tuple[str, ...]]:
        """``(branching, plausible, themes)``: the legal moves at the start, the other moves that look good there,
        and the themes of :mod:`engine.puzzles.grading`."""
        ...

    def hidden(self, moves: Sequence[int], line: PuzzleLine) -> int:
        """Rating points for how hidden a win in one is (0 for longer wins, or where the game has no such rule)."""
        ...

    def threatened(self, moves: Sequence[int], cell: int) -> bool:
        """True when the opponent of the side to move would win the game at once on ``cell``."""
        ...

    def slower_win(self, moves: Sequence[int], cell: int, wins_in: range) -> int | None:
        """The first k of ``wins_in`` such that ``cell`` (legal, not ending the game) played after ``moves`` forces
        a win within k of the mover's moves; ``None`` when none does (or the proof exceeds the game's budget)."""
        ...

    def self_play_move(self, state: Any, rng: random.Random, noise: float) -> int:
        """A quick, noisy move for the self-play games puzzles are mined from; deterministic given ``rng``."""
        ...
