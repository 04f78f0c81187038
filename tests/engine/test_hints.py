"""engine.hints: one hint type for every game, exact on the solved games and an estimate on ultimate."""

from __future__ import annotations

import pytest

from engine import GameOverError, Mark
from engine.analysis import analyse
from engine.hints import HINT_BUDGET_MS, Hint, mnk_hint, tictactoe_hint, ultimate_hint
from engine.mnk import play as mnk_play
from engine.mnk.rules import TIC_TAC_TOE_4X4
from engine.protocol import GameValue
from engine.registry import VARIANTS
from engine.tictactoe.rules import parse_board


def test_a_3x3_hint_is_the_exact_analysis_with_both_algorithms_counts() -> None:
    state = parse_board("X...O....")
    hint = tictactoe_hint(state)
    analysis = analyse(state)
    assert hint.exact and hint.to_move is Mark.X and hint.depth is None and hint.budget_ms is None
    assert [(m.cell, m.value) for m in hint.moves] == [(m.cell, GameValue(m.outcome, m.plies)) for m in analysis.moves]
    assert (hint.alpha_beta_states, hint.minimax_states) == (analysis.alpha_beta_states, analysis.minimax_states)
    assert {m.cell for m in hint.best} == {m.cell for m in analysis.best}
    assert all(m.expected == {"win": 1.0, "draw": 0.5, "loss": 0.0}[m.value.result] for m in hint.moves if m.value)


def test_a_3x3_hint_of_a_finished_game_is_refused() -> None:
    with pytest.raises(GameOverError):
        tictactoe_hint(parse_board("XXXOO...."))


def test_a_4x4_hint_values_every_free_cell_as_the_exact_search_does() -> None:
    state = VARIANTS["4x4"].replay((5, 0, 6))
    hint = mnk_hint(TIC_TAC_TOE_4X4)(state)  # type: ignore[arg-type]
    assert hint.exact and hint.to_move is Mark.O and hint.states > 0 and hint.minimax_states is None
    assert tuple((m.cell, m.value) for m in hint.moves) == mnk_play.analyse(TIC_TAC_TOE_4X4, state).values  # type: ignore[arg-type]


def test_an_ultimate_hint_is_the_searchs_best_moves_an_estimate() -> None:
    state = VARIANTS["ultimate"].replay((40,))
    hint = ultimate_hint(state, budget_ms=50.0)  # type: ignore[arg-type]
    assert isinstance(hint, Hint) and not hint.exact and hint.budget_ms == 50.0 and hint.to_move is Mark.O
    assert 1 <= len(hint.moves) <= 3 and hint.best == hint.moves[:1] and (hint.depth or 0) >= 1
    assert {m.cell for m in hint.moves} <= set(VARIANTS["ultimate"].game.actions(state))
    assert all(0.0 < m.expected < 1.0 and m.value is None for m in hint.moves)  # nothing is proven at ply 1
    assert HINT_BUDGET_MS == 1000.0
