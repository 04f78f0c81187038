"""3x3 tic-tac-toe as a :class:`~engine.variants.Variant`: cells numbered 1-9 like a phone keypad, the exact solver's
values, and the bot's top level searched with the counted alpha-beta or plain minimax the player picks."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine import levels
from engine.games.calibrated import Calibrated
from engine.hints import Hint, tictactoe_hint
from engine.minimax.search import ALGORITHM_CONFIGS, search
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, GameValue, Layout, Mark
from engine.review import PlyReview, review
from engine.tictactoe import rules
from engine.tictactoe.solver import value_for
from engine.variants import N_

__all__ = ["QUICK_MS", "SLOW_EMPTY_CELLS", "SLOW_MS", "THREE_BY_THREE", "ThreeByThree"]

SLOW_EMPTY_CELLS = 7
"""Plain minimax on 3x3 with at least this many empty cells evaluates tens of thousands of states or more
(549,945 from the empty board): tens of milliseconds to ~0.2 s."""
SLOW_MS = 300.0
"""The longest plain minimax (or a hint's minimax count) takes on 3x3, from the empty board, ms (about 0.2 s)."""
QUICK_MS = 1.0
"""The longest any other 3x3 search takes, ms (alpha-beta, the solver, a level's shallow search)."""


class ThreeByThree(Calibrated):
    """Classic tic-tac-toe (:mod:`engine.tictactoe.rules`)."""

    name = "3x3"
    title = N_("3x3")
    description = N_("Classic tic-tac-toe: three in a row on 3x3")
    code = ""
    width = height = 3
    algorithms: tuple[Algorithm, ...] = ("alpha-beta", "minimax")

    def __init__(self) -> None:
        self.game = rules

    def explains(self, cells: Sequence[int]) -> bool:
        """Always: the bot's own alpha-beta and plain minimax, replayed state by state (:mod:`engine.tree.record`)."""
        return True

    def steps_through(self, cells: Sequence[int]) -> bool:
        """Always: the bot's alpha-beta, walked node by node."""
        return True

    def heading(self) -> str:
        """The classic game goes unnamed."""
        return N_("**Tic-tac-toe** · {x} vs {o}")

    def layout(self) -> Layout:
        return Layout("grid", 3, 3)

    def mark(self, state: rules.State, cell: int) -> Mark | None:
        return state[cell]

    def winning_line(self, state: rules.State) -> frozenset[int]:
        return rules.winning_cells(state)

    def value(self, state: rules.State, mark: Mark) -> GameValue:
        return value_for(state, mark)

    def cell_label(self, cell: int) -> str:
        """The cell's number, 1-9 row by row."""
        return str(cell + 1)

    def text_grid(self, state: rules.State) -> str:
        """A boxed keypad: each cell's mark, or its number while it is empty."""

        def row(r: int) -> str:
            return "│".join(f" {m.value if (m := state[3 * r + c]) else 3 * r + c + 1} " for c in range(3))

        return f"\n{'┼'.join(['───'] * 3)}\n".join(row(r) for r in range(3))

    def answer_ms(self, state: rules.State, level: int, algorithm: Algorithm) -> float:
        slow = level == TOP_LEVEL and algorithm == "minimax" and len(rules.actions(state)) >= SLOW_EMPTY_CELLS
        return SLOW_MS if slow else QUICK_MS

    def play(
        self,
        state: rules.State,
        level: int = TOP_LEVEL,
        *,
        algorithm: Algorithm = "alpha-beta",
        budget_ms: float | None = None,
        rng: random.Random | None = None,
    ) -> EngineMove:
        """Level 8: the counted ``algorithm`` (:func:`engine.minimax.search.search`), a random choice among the best
        moves; levels 1-7: :func:`engine.levels.choose_move`."""
        rng = rng if rng is not None else random.Random()
        if level != TOP_LEVEL:
            return levels.choose_move(self.name, state, level, rng=rng)
        found = search(state, config=ALGORITHM_CONFIGS[algorithm], rng=rng)
        mover = rules.player(state)
        value = value_for(state, mover)
        return EngineMove(found.move, found.states, value, found.elapsed_ms, algorithm=algorithm, mark=mover)

    def counts_reproducible(self, algorithm: Algorithm) -> bool:
        """Always: both searches start afresh on every call, and the random choice among the best moves comes after
        the count (:func:`engine.minimax.search.search`)."""
        return True

    def hint_ms(self, state: rules.State) -> float:
        """A hint counts plain minimax's states too (:func:`engine.hints.tictactoe_hint`)."""
        return SLOW_MS if len(rules.actions(state)) >= SLOW_EMPTY_CELLS else QUICK_MS

    def hint_state(self, state: Any) -> Hint:
        return tictactoe_hint(state)

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        return review(moves)


THREE_BY_THREE = ThreeByThree()
