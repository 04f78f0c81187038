"""Ultimate tic-tac-toe as a :class:`~engine.variants.Variant`: nine small boards in one, the next small board set
by the last move, searched by MCTS-Solver under a budget (:mod:`engine.ultimate.play`): values, hints and reviews
are estimates.

Every level is the MCTS-Solver (:func:`engine.ultimate.play.choose_move`, :data:`ULTIMATE_LEVELS`). Levels 1-7 search a
budget of iterations (one rollout each), so they play the same with the same seed on any machine; the weaker ones also
add noise to the expected scores of the most searched moves. Level 8 searches until its time budget is spent
(:func:`engine.levels.time_cap`) or the result is proved; a position with a single legal move answers at once
(:func:`engine.ultimate.tree.search`). No level is perfect on ultimate."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from engine.games.calibrated import Calibrated
from engine.hints import Hint, ultimate_hint
from engine.levels import spec_at, time_cap
from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, Kernel, Layout, LevelSpec, Mark
from engine.review import REVIEW_BUDGET_MS, PlyReview, ultimate_review
from engine.tree.explain import Sampled
from engine.tree.mcts import TREE_ITERATIONS, record_mcts
from engine.tree.summary import summarise_mcts
from engine.ultimate import tree as ultimate_tree
from engine.ultimate.play import choose_move
from engine.ultimate.puzzles import UltimatePuzzles
from engine.ultimate.rules import BoardStatus, UltimateState, UltimateTicTacToe
from engine.variants import N_

__all__ = ["ULTIMATE", "ULTIMATE_LEVELS", "Ultimate"]

ULTIMATE_LEVELS = (
    LevelSpec(noise=0.2, iterations=50),
    LevelSpec(noise=0.1, iterations=200),
    LevelSpec(noise=0.05, iterations=600),
    LevelSpec(iterations=2_000),
    LevelSpec(iterations=6_000),
    LevelSpec(iterations=20_000),
    LevelSpec(iterations=60_000),
    LevelSpec(timed=True),
)
"""Levels 1-8: MCTS iterations, and noise in expected score (0-1); level 8 searches for its time budget."""

_RESULTS: dict[BoardStatus, Mark | Literal["draw"] | None] = {
    BoardStatus.X: Mark.X,
    BoardStatus.O: Mark.O,
    BoardStatus.DRAWN: "draw",
    BoardStatus.OPEN: None,
}


class Ultimate(Calibrated):
    """Ultimate tic-tac-toe (:class:`engine.ultimate.rules.UltimateTicTacToe`)."""

    name = "ultimate"
    title = N_("ultimate")
    description = N_("Nine small boards in one: win three of them in a row")
    code = "u"
    width = height = 9
    block = 3
    exact = False
    review_budget_ms = REVIEW_BUDGET_MS

    def __init__(self) -> None:
        self.game = UltimateTicTacToe()

    def puzzles(self) -> UltimatePuzzles:
        return UltimatePuzzles()

    def explains(self, cells: Sequence[int]) -> bool:
        """Always: a fresh seeded MCTS-Solver's first plies (:mod:`engine.tree.mcts`)."""
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
    ) -> Sampled:
        """A fresh MCTS-Solver's first plies (:func:`engine.tree.mcts.record_mcts`, ``iterations`` default
        :data:`~engine.tree.mcts.TREE_ITERATIONS`, with ``seed``: deterministic), the move ``played`` summarised
        with its visits (its own count, not the bot's: the bot's search runs for a time budget). ``algorithm``,
        ``compare`` and ``depth`` do not apply: there is one search and no window.

        Raises:
            ValueError: ``iterations`` is less than 1.
        """
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        tree = record_mcts(tuple(cells), TREE_ITERATIONS if iterations is None else iterations, seed)
        return Sampled(tree, summarise_mcts(tree, played), self.width)

    def short_title(self) -> str:
        return self.title

    def search_name(self, algorithm: Algorithm, level: int = TOP_LEVEL) -> str:
        """Every level is an MCTS-Solver (:func:`engine.ultimate.play.choose_move`)."""
        return N_("MCTS")

    def layout(self) -> Layout:
        return Layout("blocks", 9, 9, block=3)

    def mark(self, state: UltimateState, cell: int) -> Mark | None:
        return state[cell]

    def forced_block(self, state: UltimateState) -> int | None:
        return state.forced_board

    def open_blocks(self, state: UltimateState) -> tuple[int, ...]:
        return state.playable_boards

    def block_result(self, state: UltimateState, block: int) -> Mark | Literal["draw"] | None:
        return _RESULTS[state.board_status(block)]

    def level_specs(self) -> tuple[LevelSpec, ...]:
        return ULTIMATE_LEVELS

    def level_move(
        self, state: UltimateState, level: int, *, rng: random.Random, budget_ms: float | None = None
    ) -> EngineMove:
        """The level's MCTS-Solver: levels 1-7 their iterations, capped by ``budget_ms`` (wall-clock ms) when given;
        level 8 for ``budget_ms`` or :data:`engine.levels.TOP_BUDGET_MS`, or until it proves the result."""
        spec = spec_at(ULTIMATE_LEVELS, level)
        decision = choose_move(state, time_cap(spec, budget_ms), spec.noise, rng, iterations=spec.iterations)
        return decision.as_move(self.game.player(state))

    def kernel(self) -> Kernel:
        """The MCTS-Solver's (:data:`engine.ultimate.tree.NATIVE`)."""
        return "C" if ultimate_tree.NATIVE else "Python"

    def hint_state(self, state: UltimateState) -> Hint:
        return ultimate_hint(state)

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        return ultimate_review(moves)


ULTIMATE = Ultimate()
