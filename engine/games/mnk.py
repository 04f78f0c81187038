"""4x4 and 5x5 four in a row as :class:`~engine.variants.Variant` s: the exact solver and opening book
(:mod:`engine.mnk.play`) for values, hints and reviews, and levels 1-8 played as :mod:`engine.mnk.levels` says, each
game with its own table (:data:`FOUR_BY_FOUR_LEVELS`, :data:`FIVE_BY_FIVE_LEVELS`)."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import replace

from engine.games.calibrated import Calibrated
from engine.levels import spec_at
from engine.mnk import levels as mnk_levels
from engine.mnk import play as mnk_play
from engine.mnk import solver as mnk_solver
from engine.mnk.book import book_for
from engine.mnk.puzzles import MnkPuzzles
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.tactics import tactical_cell
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, Kernel, Layout, LevelSpec, Mark
from engine.tree.explain import Explained, best_or_played
from engine.tree.mnk import TREE_EMPTY_CELLS, record_at_once, record_mnk
from engine.tree.summary import summarise
from engine.variants import N_, MoveValues

__all__ = ["FIVE_BY_FIVE", "FIVE_BY_FIVE_LEVELS", "FOUR_BY_FOUR", "FOUR_BY_FOUR_LEVELS", "MnkVariant"]

FOUR_BY_FOUR_LEVELS = (  # measured: on 4x4 a one-ply search without noise presses hardest; deeper ones play safe
    LevelSpec(1, 256.0, sees=0.8),
    LevelSpec(1, 128.0, sees=0.93),
    LevelSpec(1, 64.0),
    LevelSpec(1, 32.0),
    LevelSpec(1, 16.0),
    LevelSpec(1, 8.0),
    LevelSpec(1, 4.0),
    LevelSpec(),
)
"""4x4's levels 1-8: alpha-beta to ``depth`` plies with ``noise`` evaluation points, perfect play at 8."""
FIVE_BY_FIVE_LEVELS = (  # measured: on 5x5 each ply of depth wins games against the same references
    LevelSpec(1, 256.0, sees=0.8),
    LevelSpec(1, 64.0, sees=0.93),
    LevelSpec(1, 32.0),
    LevelSpec(2, 32.0),
    LevelSpec(2, 16.0),
    LevelSpec(3, 4.0),
    LevelSpec(3),
    LevelSpec(),
)
"""5x5's levels 1-8, as :data:`FOUR_BY_FOUR_LEVELS`."""


class MnkVariant(Calibrated):
    """An m,n,k game (``rules``: :class:`engine.mnk.rules.TicTacToe`) whose hints start at ``hint_marks`` marks (5x5:
    4, the opening book's plies; before that the exact analysis runs for minutes), with levels 1-8 ``specs`` and
    level 8 choosing among equally good moves by alpha-beta to ``tie_break_depth`` plies (the depth whose search,
    without noise, won the most games against the references: docs/levels.md)."""

    def __init__(
        self,
        name: str,
        title: str,
        description: str,
        code: str,
        rules: TicTacToe,
        specs: tuple[LevelSpec, ...],
        tie_break_depth: int,
        hint_marks: int = 0,
        puzzle_plies: tuple[int, tuple[int, int]] | None = None,
    ) -> None:
        self.name, self.title, self.description, self.code = name, title, description, code
        self.width, self.height = rules.h, rules.v
        self.game: TicTacToe = rules
        self._hint_marks = hint_marks
        self._specs, self._tie_break_depth = specs, tie_break_depth
        self._puzzle_plies = puzzle_plies

    def layout(self) -> Layout:
        return Layout("grid", self.width, self.height)

    def mark(self, state: MnkState, cell: int) -> Mark | None:
        return Mark.X if state.x >> cell & 1 else Mark.O if state.o >> cell & 1 else None

    def winning_line(self, state: MnkState) -> frozenset[int]:
        return self.game.winning_cells(state)

    def level_specs(self) -> tuple[LevelSpec, ...]:
        return self._specs

    def level_move(
        self, state: MnkState, level: int, *, rng: random.Random, budget_ms: float | None = None
    ) -> EngineMove:
        """Levels 1-7: a shallow search (:func:`engine.mnk.levels.searched_move`); 8: perfect play, the most
        pressing of the best moves (:func:`engine.mnk.levels.perfect_move`). No level runs under ``budget_ms``."""
        spec = spec_at(self._specs, level)
        if spec.depth is None:
            return mnk_levels.perfect_move(self.game, state, self._tie_break_depth, rng)
        return mnk_levels.searched_move(self.game, state, spec.depth, spec.noise, spec.sees, rng)

    def kernel(self) -> Kernel:
        """The exact solver's (:data:`engine.mnk.solver.NATIVE`)."""
        return "C" if mnk_solver.NATIVE else "Python"

    def capped_move(self, state: MnkState, level: int, cap_ms: float, rng: random.Random) -> EngineMove:
        """Level 8's exact search (book, else the solver) stops itself at ``cap_ms``, then plays level 7's move with
        both searches' states, cut short; the other levels are shallow and ignore the cap."""
        spec = spec_at(self._specs, level)
        if spec.depth is not None:
            return mnk_levels.searched_move(self.game, state, spec.depth, spec.noise, spec.sees, rng)
        move = mnk_levels.perfect_move(self.game, state, self._tie_break_depth, rng, cap_ms)
        if not move.cut_short:
            return move
        fallback = self.level_move(state, TOP_LEVEL - 1, rng=rng)
        elapsed_ms = move.elapsed_ms + fallback.elapsed_ms
        return replace(fallback, states=move.states + fallback.states, elapsed_ms=elapsed_ms, source="cut short")

    def quick_move(self, state: MnkState, level: int, rng: random.Random, budget_ms: float) -> EngineMove:
        """Levels 1-7 as :meth:`play` (at most 3 plies: cheap). Level 8 never runs the exact solver here (it may take
        seconds on 5x5 outside the book, and its C kernel is what may have killed a worker): the book's move where the
        position is in it, else a one-ply tactical choice (:func:`engine.mnk.tactics.tactical_cell`)."""
        if level != TOP_LEVEL:
            return self.play(state, level, rng=rng)
        started = time.perf_counter()
        game, mover = self.game, self.game.player(state)
        book = book_for(game)
        entry = book.lookup(state) if book is not None and not game.terminal(state) else None
        if entry is not None:
            cell, score, states = entry
            value = mnk_play.game_value(score, game.cells, state.marks)
            elapsed_ms = (time.perf_counter() - started) * 1000.0
            return EngineMove(cell, 0, value, elapsed_ms, source="book", book_states=states, mark=mover)
        cell, states = tactical_cell(game, state, rng)
        return EngineMove(cell, states, None, (time.perf_counter() - started) * 1000.0, mark=mover)

    def move_values(self, state: MnkState) -> MoveValues:
        found = mnk_play.analyse(self.game, state)
        return found.values, found.states

    def hint_from(self) -> int:
        return self._hint_marks

    def puzzles(self) -> MnkPuzzles | None:
        """The kit of ``puzzle_plies`` (first ply examined, self-play's opening plies), or ``None`` without them."""
        if self._puzzle_plies is None:
            return None
        return MnkPuzzles(self.game, *self._puzzle_plies)

    def explains(self, cells: Sequence[int]) -> bool:
        """When at most :data:`engine.tree.mnk.TREE_EMPTY_CELLS` cells are empty: a fresh exact search, drawn."""
        return self.cells - len(cells) <= TREE_EMPTY_CELLS

    def steps_through(self, cells: Sequence[int]) -> bool:
        """Where the search is drawn (:meth:`explains`): the same exact alpha-beta, walked node by node."""
        return self.explains(cells)

    def explain(
        self,
        cells: Sequence[int],
        played: int | None = None,
        algorithm: Algorithm = "alpha-beta",
        seed: int = 0,
        *,
        compare: bool | None = None,
        depth: int = 2,
        iterations: int | None = None,
    ) -> Explained:
        """A win in one as the bot plays it: at once, nothing else searched (:func:`engine.tree.mnk.record_at_once`);
        else a fresh exact alpha-beta search from an empty table (:func:`engine.tree.mnk.record_mnk`: its count is
        its own, not the bot's, whose table keeps what earlier moves stored), explaining ``played`` where it is one
        of the best moves.

        Raises:
            ValueError: ``algorithm`` is not alpha-beta or ``compare`` is true (one search, nothing to compare), or
                more than :data:`engine.tree.mnk.TREE_EMPTY_CELLS` cells are empty.
        """
        if algorithm != "alpha-beta" or compare:
            raise ValueError(f"{self.name} records alpha-beta alone (no minimax, nothing to compare)")
        cells = tuple(cells)
        at_once = record_at_once(self.game, cells, played) if self.explains(cells) else None  # else record_mnk refuses
        tree = at_once or best_or_played(lambda move: record_mnk(self.game, cells, move), played)
        return Explained((tree,), summarise(tree, fresh=at_once is None))


FOUR_BY_FOUR = MnkVariant(
    "4x4",
    N_("4x4, four in a row"),
    N_("Four in a row on a 4x4 board"),
    "4",
    TIC_TAC_TOE_4X4,
    FOUR_BY_FOUR_LEVELS,
    1,
    puzzle_plies=(5, (0, 5)),
)
FIVE_BY_FIVE = MnkVariant(
    "5x5",
    N_("5x5, four in a row"),
    N_("Four in a row on a 5x5 board"),
    "5",
    TIC_TAC_TOE_5X5,
    FIVE_BY_FIVE_LEVELS,
    3,
    hint_marks=4,
    puzzle_plies=(7, (1, 6)),
)
