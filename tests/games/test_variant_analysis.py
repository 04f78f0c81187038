"""Hints and reviews on 4x4, 5x5 (exact) and ultimate (an estimate of a search under a budget)."""

from __future__ import annotations

import pytest

from bot.games import hints
from bot.games.hints import EstimatedHint, ExactHint
from bot.games.variant_analysis import exact_from, variant_hint, variant_review
from engine import Mark
from engine.mnk import play as mnk_play
from engine.ultimate.play import REVIEW_THRESHOLDS
from engine.variants import VARIANTS


def test_a_4x4_hint_values_every_free_cell_exactly() -> None:
    moves = (5, 0, 6)
    hint = variant_hint("4x4", moves)
    assert isinstance(hint, ExactHint) and hint.states > 0
    free = set(range(16)) - set(moves)
    assert {cell for cell, _ in hint.values} == free
    game = VARIANTS["4x4"].game
    assert hint.values == mnk_play.analyse(game, VARIANTS["4x4"].replay(moves)).values  # type: ignore[arg-type]


def test_a_5x5_hint_waits_for_the_fourth_mark() -> None:
    assert exact_from("5x5") == 4 and exact_from("4x4") == 0
    with pytest.raises(ValueError, match="4 marks"):
        variant_hint("5x5", (12, 0, 6))
    hint = variant_hint("5x5", (12, 0, 6, 18))
    assert isinstance(hint, ExactHint) and len(hint.values) == 21


def test_an_ultimate_hint_is_the_searchs_three_best_moves() -> None:
    hint = variant_hint("ultimate", (40,))
    assert isinstance(hint, EstimatedHint) and hint.budget_ms == hints.HINT_BUDGET_MS
    assert 1 <= len(hint.best) <= 3 and hint.depth >= 1 and hint.states > 0
    legal = set(VARIANTS["ultimate"].game.actions(VARIANTS["ultimate"].replay((40,))))
    assert {move.cell for move in hint.best} <= legal
    assert all(0.0 < m.expected < 1.0 and m.proven is None for m in hint.best)  # nothing is proven at ply 1


def test_a_4x4_review_labels_a_thrown_away_draw_a_blunder() -> None:
    # X a1, O b2, X a2, O b3, X a3, O b4 (O ignores the threat on a4), X a4: the column a1-a4
    moves = (0, 5, 4, 9, 8, 13, 12)
    assert VARIANTS["4x4"].replay(moves) is not None and VARIANTS["4x4"].winner(VARIANTS["4x4"].replay(moves)) is Mark.X
    rows = variant_review("4x4", moves)
    assert [row.ply for row in rows] == list(range(1, 8))
    assert rows[0].label == "best" and rows[0].before.result == "draw"
    losing = [row for row in rows if row.mark is Mark.O and row.label == "blunder"]
    assert losing, rows  # somewhere O let X's line through
    assert all(row.cell in row.best or row.label != "best" for row in rows)
    assert rows[-1].label == "best" and rows[-1].after.result == "win"


def test_an_ultimate_review_labels_moves_with_the_engines_thresholds() -> None:
    assert tuple(round(100 * loss) for _, loss in REVIEW_THRESHOLDS) == (
        hints.BLUNDER_POINTS,
        hints.MISTAKE_POINTS,
        hints.INACCURACY_POINTS,
    )
    rows = variant_review("ultimate", (40, 30, 10))
    assert [(row.ply, row.cell) for row in rows] == [(1, 40), (2, 30), (3, 10)]
    for row in rows:
        assert row.loss == row.best_score - row.score >= 0 and row.states > 0
        # the engine labels by the unrounded loss, the row gives it in whole percentage points
        expected = next((name for name, loss in REVIEW_THRESHOLDS if row.loss >= round(100 * loss)), None)
        borderline = any(abs(row.loss - 100 * loss) <= 1 for _, loss in REVIEW_THRESHOLDS)
        assert row.label == expected or row.label == "blunder" or borderline
