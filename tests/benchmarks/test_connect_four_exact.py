"""benchmarks/connect_four_exact: Pons's score for the side to move as the engine's value, and the end after a move."""

from __future__ import annotations

import pytest

from benchmarks.connect_four_exact import after_move, pons_value
from engine.protocol import GameValue


@pytest.mark.parametrize(
    ("line", "score", "value"),
    [
        # X (to move, 6 discs) has 1-3 on the bottom row: it wins now with its 4th disc, 22 - 4 = 18.
        ("112233", 18, GameValue("win", 1)),
        # O to move (5 discs) against X's open three on the bottom row (2-4): X wins with its 4th disc at ply 7.
        ("22334", -18, GameValue("loss", 2)),
        # X to move (4 discs) makes that open three and wins with its 4th disc two plies later.
        ("2233", 18, GameValue("win", 3)),
        # O to move (1 disc) loses to X's win with its 21st disc (Pons's -1): 41 discs, 40 plies on.
        ("4", -1, GameValue("loss", 40)),
        # The empty board: X wins with its 21st disc, the last cell but one (Pons 2019: the first player wins).
        ("", 1, GameValue("win", 41)),
    ],
)
def test_pons_score_is_the_value_for_the_side_to_move(line: str, score: int, value: GameValue) -> None:
    assert pons_value(score, len(line)) == value


def test_a_draw_is_the_plies_left_to_fill_the_board() -> None:
    assert pons_value(0, 40) == GameValue("draw", 2)
    assert pons_value(0, 7) == GameValue("draw", 35)


def test_a_move_that_wins_ends_the_game_with_a_win_score() -> None:
    # X plays column 4 (index 3) beside its three on the bottom row: won at 7 discs, 43 - 7.
    assert after_move([0, 0, 1, 1, 2, 2], 3) == ("1122334", 36)
    assert after_move([0, 0, 1, 1, 2, 2], 6) == ("1122337", None)
