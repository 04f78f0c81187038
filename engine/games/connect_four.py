"""Connect Four as a :class:`~engine.variants.Variant`: seven columns of six cells, a disc falls to the lowest empty
cell of its column, four in a row wins (:mod:`engine.connect_four`).

A move is the cell the disc falls to (:mod:`engine.connect_four.cells`), so the board, the records and the reviews
name where it landed; people name it by its column, 1-7 (or a-g) from the left, and the board shows a button per
column (:meth:`ConnectFourVariant.columns`). Values are exact (the solver), and level 8 plays perfectly.

Levels 1-7 (:data:`CONNECT_FOUR_LEVELS`) take a win in one, block a single immediate threat (the weakest two not
always), else search to a depth with noise (:func:`engine.connect_four.horizon.horizon_move`); level 8 plays a move
that keeps the exact value, the nearest the centre (:func:`engine.connect_four.play.level_move`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from engine.connect_four import play as c4_play
from engine.connect_four import solver as c4_solver
from engine.connect_four.cells import CELLS_GAME, ConnectFourCells, bit_of, cell_of, landing_cells
from engine.connect_four.puzzles import ConnectFourPuzzles
from engine.connect_four.rules import CONNECT_FOUR, HEIGHT, WIDTH, ConnectFourState, winning_cells
from engine.coordinates import typed_ranges
from engine.games.calibrated import Calibrated
from engine.levels import spec_at
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, GameValue, Kernel, Layout, LevelSpec, Mark
from engine.review import PlyReview, exact_review
from engine.variants import N_, MoveValues

__all__ = ["CONNECT_FOUR_LEVELS", "CONNECT_FOUR_VARIANT", "ConnectFourVariant"]

CONNECT_FOUR_LEVELS = (  # measured: depth 3 with noise 8 rated below depth 2 with noise 8 (docs/levels.md)
    LevelSpec(1, 128.0, sees=0.75),
    LevelSpec(1, 32.0, sees=0.9),
    LevelSpec(2, 32.0),
    LevelSpec(3, 8.0),
    LevelSpec(2, 2.0),
    LevelSpec(5, 2.0),
    LevelSpec(7),
    LevelSpec(),
)
"""Levels 1-8: alpha-beta to ``depth`` plies with ``noise`` evaluation points, perfect play at 8."""

_QUICK_MS = 300.0
"""The longest a weaker level's move takes (a depth-limited search in Python), ms, with room to spare: the bot answers
it at once (level 7, the slowest, measured in docs/levels.md)."""
_BOOK_MS = 5.0
"""The longest level 8's move takes where the opening book has the position, ms: the book's first read (about 3 ms,
once per process) and a lookup."""


HINT_FROM = 11
"""The discs from which every position's exact analysis (a hint, a review's values) takes seconds, not minutes;
before them only the positions the opening book answers have hints (:func:`engine.connect_four.play.book_scores`)."""


class ConnectFourVariant(Calibrated):
    """Connect Four (7 x 6, gravity, four in a row): exact values from the solver, levels 1-8 of
    :mod:`engine.levels`."""

    name = "connect-four"
    title = N_("Connect Four")
    description = N_("Drop discs in 7 columns: four in a row wins")
    code = "c"
    width = WIDTH
    height = HEIGHT

    def __init__(self) -> None:
        self.game: ConnectFourCells = CELLS_GAME

    def heading(self) -> str:
        return N_("**Connect Four** · {x} vs {o}")

    def short_title(self) -> str:
        return N_("Connect Four")

    def puzzles(self) -> ConnectFourPuzzles:
        return ConnectFourPuzzles()

    # -- the position ---------------------------------------------------------------------------------------------

    def layout(self) -> Layout:
        return Layout("columns", WIDTH, HEIGHT, pieces="discs")

    def mark(self, state: ConnectFourState, cell: int) -> Mark | None:
        bit = bit_of(cell)
        return Mark.X if state.x & bit else Mark.O if state.o & bit else None

    def winning_line(self, state: ConnectFourState) -> frozenset[int]:
        won = winning_cells(state.x) | winning_cells(state.o)
        return frozenset(cell_of(i) for i in range(won.bit_length()) if won >> i & 1)

    def solved_value(self) -> GameValue:
        """A win for X in 41 plies, starting in the centre column (Allis 1988; Tromp 1995, John's Connect Four
        Playground): the bot at level 8 never loses as X, and loses as O to a perfect first player."""
        return GameValue("win", 41)

    def columns(self, state: ConnectFourState) -> tuple[int | None, ...]:
        return landing_cells(state)

    # -- cells as people name them --------------------------------------------------------------------------------

    def cell_label(self, cell: int) -> str:
        """A move is named by its column, 1-7 from the left."""
        return str(cell % WIDTH + 1)

    def parse_cell(self, text: str) -> int:
        """The top cell of the column ``text`` names (``"1"``-``"7"`` or ``"a"``-``"g"``); a move there drops a disc in
        that column (:meth:`move_at`).

        Raises:
            CellOutOfRangeError: ``text`` names no column; the message says what it accepts.
        """
        return CONNECT_FOUR.parse_column(text)

    def typed_ranges(self) -> tuple[str, str]:
        """The columns' numbers, then their letters: ``("1-7", "a-g")``."""
        return typed_ranges(WIDTH, HEIGHT, by_column=True)

    def text_grid(self, state: ConnectFourState) -> str:
        """The board as monospace lines: the column numbers, then the rows from the top, ``·`` an empty cell."""
        rows = [" ".join(str(column + 1) for column in range(WIDTH))]
        for row in range(HEIGHT):
            marks = (self.mark(state, row * WIDTH + column) for column in range(WIDTH))
            rows.append(" ".join(m.value if m else "·" for m in marks))
        return "\n".join(rows)

    # -- the bot's moves ------------------------------------------------------------------------------------------

    def answer_ms(self, state: ConnectFourState, level: int, algorithm: Algorithm) -> float:
        """The weaker levels answer at once, and so does level 8 where the opening book has the position (a lookup);
        elsewhere level 8 may solve for seconds (it runs in the bot's worker pool)."""
        if level != TOP_LEVEL:
            return _QUICK_MS
        return _BOOK_MS if c4_play.book_move(state) is not None else math.inf

    def level_specs(self) -> tuple[LevelSpec, ...]:
        return CONNECT_FOUR_LEVELS

    def level_move(
        self, state: ConnectFourState, level: int, *, rng: random.Random, budget_ms: float | None = None
    ) -> EngineMove:
        """The level's move (:func:`engine.connect_four.play.level_move`); level 8's solver runs for its cap, or
        ``budget_ms`` when that is longer, else it is cut short."""
        spec = spec_at(CONNECT_FOUR_LEVELS, level)
        return c4_play.level_move(state, spec.depth, spec.noise, spec.sees, rng, budget_ms)

    def kernel(self) -> Kernel:
        """The exact solver's (:data:`engine.connect_four.solver.NATIVE`)."""
        return "C" if c4_solver.NATIVE else "Python"

    def capped_move(self, state: ConnectFourState, level: int, cap_ms: float, rng: random.Random) -> EngineMove:
        """Level 8's solver stops itself at ``cap_ms``, then plays level 7's move
        (:func:`engine.connect_four.play.perfect_move`); the other levels are shallow and ignore it."""
        spec = spec_at(CONNECT_FOUR_LEVELS, level)
        return c4_play.level_move(state, spec.depth, spec.noise, spec.sees, rng, cap_ms=cap_ms)

    def quick_move(self, state: ConnectFourState, level: int, rng: random.Random, budget_ms: float) -> EngineMove:
        """Level 8's book move where the opening book has the position (at once), else level 7's depth-limited search
        (the solver may take seconds); the level itself below 8."""
        if level == TOP_LEVEL and c4_play.book_move(state) is not None:
            return self.play(state, level, rng=rng)
        return self.play(state, min(level, TOP_LEVEL - 1), rng=rng)

    # -- hints and reviews ----------------------------------------------------------------------------------------

    def hint_marks(self, state: ConnectFourState) -> int:
        """0 where the book answers (:func:`engine.connect_four.play.book_scores`) or from :data:`HINT_FROM` discs on,
        else :data:`HINT_FROM`: an early position off the book would take minutes."""
        if state.discs >= HINT_FROM or c4_play.book_scores(state) is not None:
            return 0
        return HINT_FROM

    def move_values(self, state: ConnectFourState) -> MoveValues:
        found = c4_play.analyse(state)
        cells = landing_cells(state)
        values = tuple((cells[column], found.values[column]) for column in sorted(found.values))
        return values, found.states  # type: ignore[return-value]

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """Every move from the first ply after which every position is answered by the book or has at least
        :data:`HINT_FROM` discs (a game against level 8: every move), valued exactly
        (:func:`engine.review.exact_review`).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game (raised before any search).
        """
        self.replay(moves)
        state, start = self.game.initial_state(), 0
        for ply, cell in enumerate(moves[:HINT_FROM]):
            if self.hint_marks(state):
                start = ply + 1
            state = self.game.result(state, cell)
        return exact_review(self.game, moves, self.move_values, start)


CONNECT_FOUR_VARIANT = ConnectFourVariant()
"""Connect Four, as the bot plays it."""
