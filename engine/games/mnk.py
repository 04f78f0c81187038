"""4x4 and 5x5 four in a row as :class:`~engine.variants.Variant` s: the exact solver and opening book
(:mod:`engine.mnk.play`) for values, hints and reviews, and the levels of :mod:`engine.levels`."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engine import levels
from engine.games.calibrated import Calibrated
from engine.mnk import play as mnk_play
from engine.mnk.book import book_for
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.tactics import tactical_cell
from engine.protocol import TOP_LEVEL, EngineMove, Mark
from engine.tree.mnk import TREE_EMPTY_CELLS
from engine.variants import N_, MoveValues

__all__ = ["FIVE_BY_FIVE", "FOUR_BY_FOUR", "MnkVariant"]


class MnkVariant(Calibrated):
    """An m,n,k game (``rules``: :class:`engine.mnk.rules.TicTacToe`) whose hints start at ``hint_marks`` marks (5x5:
    4, the opening book's plies; before that the exact analysis runs for minutes)."""

    def __init__(
        self, name: str, title: str, description: str, code: str, rules: TicTacToe, hint_marks: int = 0
    ) -> None:
        self.name, self.title, self.description, self.code = name, title, description, code
        self.width, self.height = rules.h, rules.v
        self.game: TicTacToe = rules
        self._hint_marks = hint_marks

    def mark(self, state: MnkState, cell: int) -> Mark | None:
        return Mark.X if state.x >> cell & 1 else Mark.O if state.o >> cell & 1 else None

    def winning_line(self, state: MnkState) -> frozenset[int]:
        return self.game.winning_cells(state)

    def capped_move(self, state: MnkState, level: int, cap_ms: float, rng: random.Random) -> EngineMove:
        """Level 8's exact search (book, else the solver) stops itself at ``cap_ms``, then plays level 7's move
        (:func:`engine.levels.choose_move`); the other levels are shallow and ignore it."""
        return levels.choose_move(self.name, state, level, rng=rng, cap_ms=cap_ms)

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

    def explains(self, cells: Sequence[int]) -> bool:
        """When at most :data:`engine.tree.mnk.TREE_EMPTY_CELLS` cells are empty: a fresh exact search, drawn."""
        return self.cells - len(cells) <= TREE_EMPTY_CELLS


FOUR_BY_FOUR = MnkVariant("4x4", N_("4x4, four in a row"), N_("Four in a row on a 4x4 board"), "4", TIC_TAC_TOE_4X4)
FIVE_BY_FIVE = MnkVariant(
    "5x5", N_("5x5, four in a row"), N_("Four in a row on a 5x5 board"), "5", TIC_TAC_TOE_5X5, hint_marks=4
)
