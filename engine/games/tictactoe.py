"""3x3 tic-tac-toe as a :class:`~engine.variants.Variant`: cells numbered 1-9 like a phone keypad, the exact solver's
values, and the bot's top level searched with the counted alpha-beta or plain minimax the player picks.

Its levels (:data:`LEVELS_3X3`) play the 3x3 m,n,k game as 4x4's do (:mod:`engine.mnk.levels`); level 8 as rated
(``engine serve``) is the counted alpha-beta's best moves, the most pressing of them."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from engine.games.calibrated import Calibrated
from engine.hints import Hint, tictactoe_hint
from engine.levels import spec_at
from engine.minimax.search import ALGORITHM_CONFIGS, search
from engine.mnk import levels as mnk_levels
from engine.mnk.rules import MnkState, TicTacToe
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, GameValue, Layout, LevelSpec, Mark
from engine.review import PlyReview, review
from engine.tictactoe import rules
from engine.tictactoe.solver import value_for
from engine.tree.explain import Explained, best_or_played
from engine.tree.record import record
from engine.tree.summary import summarise
from engine.variants import N_

__all__ = ["LEVELS_3X3", "QUICK_MS", "SLOW_EMPTY_CELLS", "SLOW_MS", "THREE_BY_THREE", "TIE_BREAK_DEPTH", "ThreeByThree"]

SLOW_EMPTY_CELLS = 7
"""Plain minimax on 3x3 with at least this many empty cells evaluates tens of thousands of states or more
(549,945 from the empty board): tens of milliseconds to ~0.2 s."""
SLOW_MS = 300.0
"""The longest plain minimax (or a hint's minimax count) takes on 3x3, from the empty board, ms (about 0.2 s)."""
QUICK_MS = 1.0
"""The longest any other 3x3 search takes, ms (alpha-beta, the solver, a level's shallow search)."""

LEVELS_3X3 = (  # measured: a depth-3 search without noise draws with level 8 in every game, so level 7 has noise
    LevelSpec(1, 128.0, sees=0.8),
    LevelSpec(1, 64.0, sees=0.93),
    LevelSpec(2, 64.0),
    LevelSpec(2, 16.0),
    LevelSpec(3, 16.0),
    LevelSpec(2, 4.0),
    LevelSpec(4, 4.0),
    LevelSpec(),
)
"""Levels 1-8: alpha-beta to ``depth`` plies with ``noise`` evaluation points, perfect play at 8."""
TIE_BREAK_DEPTH = 3
"""The depth of the search that chooses among level 8's equally good moves (the depth whose search, without noise,
won the most games against the references: docs/levels.md)."""
_MNK = TicTacToe(3, 3, 3)


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
        """The bot's own search replayed state by state (:func:`engine.tree.record.record`): ``algorithm``'s tree,
        with plain minimax's beside alpha-beta's (recorded to ``depth`` plies, the rest counted) or alpha-beta's
        beside minimax's, each with its count; ``compare=False``: the asked search alone, every state kept. A
        ``played`` move the search would not play (a weaker level's) is explained by the search's own best move."""
        cells = tuple(cells)
        if compare is False:
            tree = best_or_played(lambda move: record(cells, algorithm, move), played)
            return Explained((tree,), summarise(tree), savings=True)
        keep = depth if algorithm == "minimax" and compare is None else None  # states below are counted, not kept
        tree = best_or_played(lambda move: record(cells, algorithm, move, keep=keep), played)
        if algorithm == "minimax":
            other = record(cells, "alpha-beta", tree.move)
            return Explained((tree, other), summarise(tree, other), savings=True)
        minimax = record(cells, "minimax", tree.move, keep=depth)  # the same move: one principal line
        return Explained((minimax, tree), summarise(tree, minimax), savings=True)

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
        moves; levels 1-7: :meth:`level_move`."""
        rng = rng if rng is not None else random.Random()
        if level != TOP_LEVEL:
            return self.level_move(state, level, rng=rng)
        found = search(state, config=ALGORITHM_CONFIGS[algorithm], rng=rng)
        mover = rules.player(state)
        value = value_for(state, mover)
        return EngineMove(found.move, found.states, value, found.elapsed_ms, algorithm=algorithm, mark=mover)

    def level_specs(self) -> tuple[LevelSpec, ...]:
        return LEVELS_3X3

    def level_move(
        self, state: rules.State, level: int, *, rng: random.Random, budget_ms: float | None = None
    ) -> EngineMove:
        """Levels 1-7: a shallow search on the 3x3 m,n,k game (:func:`engine.mnk.levels.searched_move`); 8: the
        counted alpha-beta's best moves, the fastest win or the most pressing of them (:func:`engine.mnk.levels.press`
        to :data:`TIE_BREAK_DEPTH` plies). Every level answers within :data:`QUICK_MS`; ``budget_ms`` is not used."""
        spec = spec_at(LEVELS_3X3, level)
        position = MnkState(state.x, state.o)
        if spec.depth is not None:
            return mnk_levels.searched_move(_MNK, position, spec.depth, spec.noise, spec.sees, rng)
        started = time.perf_counter()
        found = search(state)
        value = value_for(state, rules.player(state))
        move, pressed = mnk_levels.press(_MNK, position, found.best_moves, TIE_BREAK_DEPTH, rng)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(move, found.states + pressed, value, elapsed_ms, "search", mark=_MNK.player(position))

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
