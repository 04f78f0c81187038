"""The games the engine plays, each an object that answers for itself.

A variant is what a player picks (``/ttt start variant:``). As python-chess's ``Board`` subclasses and OpenSpiel's
game objects do, each is an instance of a subclass of :class:`Variant` whose methods answer every question a caller
would otherwise ask of the game's name or dig out of its states: the mark on a cell, the winning line, where the next
move may go, how cells are named and parsed, the board as text, the time its bot's move takes, how each level plays
it, its hint, review and exact value, whether its search can be drawn. The rules are an AIMA game
(:class:`engine.protocol.Game`): the textbook searches in :mod:`engine.minimax.reference` run on any of them.

The registry that lists them by name is :mod:`engine.registry`. A game handed to a search worker is pickled by value
unless its class says otherwise (the built-in games pickle by name)."""

from __future__ import annotations

import abc
import math
import random
import time
from collections.abc import Sequence
from typing import Any, Literal

from engine.coordinates import cell_name, parse_cell, text_grid, typed_ranges
from engine.errors import IllegalMoveError, IllegalSequenceError
from engine.hints import Hint, HintMove
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, Game, GameValue, Mark
from engine.review import PlyReview, exact_review

__all__ = ["DEFAULT_VARIANT", "MoveValues", "Variant"]

DEFAULT_VARIANT = "3x3"
"""The game played when none is chosen (``/ttt start``, the console, a record without a game)."""

MoveValues = tuple[tuple[tuple[int, GameValue], ...], int]
"""``(values, states)``: every legal move with its exact value for the player to move, and the states evaluated."""

_EXPECTED = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def N_(message: str) -> str:
    """Mark ``message`` as a translatable message id (the bot's catalogs translate it)."""
    return message


class Variant(abc.ABC):
    """One game the engine plays. Subclasses set the class attributes and implement :meth:`mark` and :meth:`play`;
    every other method has a default that fits a plain board of cells.

    Attributes:
        name: the name players pick, e.g. ``"4x4"``; the key of the registry and of the records.
        title, description: the game's name and one-line description as people read them (gettext message ids).
        code: the game's code in a board button's ``custom_id`` (1-2 lowercase letters or digits; 3x3, whose
            format came first, has none).
        width, height: the board in cells (ultimate: the whole 9 x 9 grid).
        block: the side of the small boards when the board is a grid of them (ultimate: 3), else 0: such a board is
            drawn as a picture and played with a pad of one small board's buttons.
        game: the rules (:class:`engine.protocol.Game`).
        exact: true when the game's values are exact (its hints, reviews and perfect level), false for estimates.
        algorithms: the searches a player may pick for the bot's move at the top level, the default first.
        review_budget_ms: an estimated review's search budget per move, ms (``None``: an exact review). An
            estimated hint says its own budget (:attr:`engine.Hint.budget_ms`).
    """

    name: str
    title: str
    description: str
    code: str
    width: int
    height: int
    block: int = 0
    exact: bool = True
    algorithms: tuple[Algorithm, ...] = ("alpha-beta",)
    review_budget_ms: float | None = None
    game: Game[Any]

    def heading(self) -> str:
        """A board message's first line (a gettext message id with ``{variant}``, ``{x}`` and ``{o}``)."""
        return N_("**Tic-tac-toe {variant}** · {x} vs {o}")

    def short_title(self) -> str:
        """The game as records and ratings name it (a message id; by default its name, e.g. ``"4x4"``)."""
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

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

    def explains(self, cells: Sequence[int]) -> bool:
        """True when :func:`engine.tree.explain.explain` can recompute and draw the search after 0-based ``cells``."""
        return False

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

    # -- the bot's moves ------------------------------------------------------------------------------------------

    def answer_ms(self, state: Any, level: int, algorithm: Algorithm) -> float:
        """An upper bound of the wall time, ms, of :meth:`play` at ``level`` with ``algorithm`` in ``state``
        (``math.inf``: none below a second; the bot then searches in its worker pool)."""
        return math.inf

    @abc.abstractmethod
    def play(
        self,
        state: Any,
        level: int = TOP_LEVEL,
        *,
        algorithm: Algorithm = "alpha-beta",
        budget_ms: float | None = None,
        rng: random.Random | None = None,
    ) -> EngineMove:
        """The move of ``level`` (1-8, 8 the strongest) in ``state``; ``algorithm`` is the top level's search (one of
        :attr:`algorithms`), ``budget_ms`` caps a search that runs under a time budget, ``rng`` breaks ties and draws
        any noise (seeded: reproducible).

        Raises:
            ValueError: ``level`` is not 1-8.
            GameOverError: the game in ``state`` is over.
        """

    def capped_move(self, state: Any, level: int, cap_ms: float, rng: random.Random) -> EngineMove | None:
        """The move of ``level`` in ``state`` by a search that stops itself at ``cap_ms`` (wall clock), then cut short
        (``value`` ``None``), its ``states`` every search's for it; ``None`` (nothing searched) where the game's search
        cannot stop itself. Raises :class:`~engine.errors.GameOverError` when the game is over."""
        return None

    def quick_move(self, state: Any, level: int, rng: random.Random, budget_ms: float) -> EngineMove:
        """A cheap move for when the bot's search failed: bounded by ``budget_ms`` and safe to run in the bot's own
        process (by default :meth:`play` under that budget).

        Raises:
            GameOverError: the game in ``state`` is over.
        """
        return self.play(state, level, budget_ms=budget_ms, rng=rng)

    def rating(self, level: int) -> float:
        """The rating measured for ``level`` (1-8) on this game (Elo, one scale per game).

        Raises:
            KeyError: no rating for ``level``.
        """
        raise KeyError(level)

    # -- hints and reviews ----------------------------------------------------------------------------------------

    def move_values(self, state: Any) -> MoveValues:
        """Every legal move's exact value for the player to move, and the states evaluated (exact games).

        Raises:
            GameOverError: the game is over.
            ValueError: the game has no exact values (it answers :meth:`hint_state` and :meth:`review` itself).
        """
        raise ValueError(f"{self.name}: no exact values")

    def hint_from(self) -> int:
        """The marks on the board from which a hint (and a review's labels) is fast; before them it is refused."""
        return 0

    def hint_marks(self, state: Any) -> int:
        """:meth:`hint_from` for the position ``state``: the marks from which a hint there is fast, 0 when it is fast
        now (a position an opening book answers); a hint before them is refused. By default :meth:`hint_from`."""
        return self.hint_from()

    def hint_ms(self, state: Any) -> float:
        """An upper bound of the wall time of :meth:`hint` in ``state``, ms (``math.inf``: none below a second)."""
        return math.inf

    def hint(self, moves: Sequence[int]) -> Hint:
        """The hint for the player to move after ``moves`` (0-based cells from the initial state): by default every
        legal move with its exact value (:meth:`move_values`).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game.
            GameOverError: the game is over.
            ValueError: fewer than :meth:`hint_marks` moves were played (its message says how many it needs).
        """
        state = self.replay(moves)
        if len(moves) < (marks := self.hint_marks(state)):
            raise ValueError(f"{self.name}: no hint in this position before {marks} marks")
        return self.hint_state(state)

    def hint_state(self, state: Any) -> Hint:
        """:meth:`hint` of a position given as a state."""
        started = time.perf_counter()
        values, states = self.move_values(state)
        moves = tuple(HintMove(cell, value, _EXPECTED[value.result]) for cell, value in values)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return Hint(self.game.player(state), moves, exact=True, states=states, elapsed_ms=elapsed_ms)

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """Every move of a game (0-based cells from the initial state) valued and labelled, one :class:`PlyReview`
        per move from ply :meth:`hint_from` + 1 on: by default by :meth:`move_values` (:mod:`engine.review`).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game (raised before any search).
        """
        return exact_review(self.game, moves, self.move_values, self.hint_from())

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
