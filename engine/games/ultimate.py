"""Ultimate tic-tac-toe as a :class:`~engine.variants.Variant`: nine small boards in one, the next small board set
by the last move, searched by MCTS-Solver under a budget (:mod:`engine.ultimate.play`): values, hints and reviews
are estimates."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from engine.games.calibrated import Calibrated
from engine.hints import Hint, ultimate_hint
from engine.protocol import TOP_LEVEL, Algorithm, Layout, Mark
from engine.review import REVIEW_BUDGET_MS, PlyReview, ultimate_review
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

    def hint_state(self, state: UltimateState) -> Hint:
        return ultimate_hint(state)

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        return ultimate_review(moves)


ULTIMATE = Ultimate()
