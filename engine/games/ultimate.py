"""Ultimate tic-tac-toe as a :class:`~engine.variants.Variant`: nine small boards in one, the next small board set
by the last move, searched by MCTS-Solver under a budget (:mod:`engine.ultimate.play`): values, hints and reviews
are estimates."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.games.calibrated import Calibrated
from engine.hints import Hint, ultimate_hint
from engine.protocol import Algorithm, Layout, Mark
from engine.review import REVIEW_BUDGET_MS, PlyReview, ultimate_review
from engine.tree.explain import Sampled
from engine.tree.mcts import TREE_ITERATIONS, record_mcts
from engine.tree.summary import summarise_mcts
from engine.ultimate.rules import BoardStatus, UltimateState, UltimateTicTacToe
from engine.variants import N_

__all__ = ["ULTIMATE", "Ultimate"]

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

    def hint_state(self, state: UltimateState) -> Hint:
        return ultimate_hint(state)

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        return ultimate_review(moves)


ULTIMATE = Ultimate()
