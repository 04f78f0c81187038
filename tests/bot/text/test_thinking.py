"""bot.text.thinking: the sentences beside the picture of the search."""

from __future__ import annotations

from bot.i18n.lang import lang
from bot.text.thinking import thinking_text
from tests.engine.tree.explaining import explain


def label(cell: int) -> str:
    return str(cell + 1)


def test_a_bot_move_says_both_counts_the_cuts_and_the_outcome() -> None:
    text = thinking_text(explain("3x3", (4,), 0, "alpha-beta").summary, lang(None), label, played=0)
    assert text.startswith("**How I chose 1:**")
    assert "Alpha-beta evaluated 71 states; plain minimax would evaluate 55,504." in text
    assert "It cut 5 branches (grey): 18 moves were never searched" in text
    assert "6 positions came from the transposition table" in text and "draw" in text


def test_a_weaker_levels_move_is_told_apart_from_the_searchs() -> None:
    text = thinking_text(explain("3x3", (4,), 1, "alpha-beta").summary, lang(None), label, played=1)
    assert "**How I chose 2:**" in text and "The search's own choice is 1" in text


def test_a_hint_and_ultimate_in_other_languages() -> None:
    hint = thinking_text(explain("3x3", (4,), None, "minimax").summary, lang("fr"), label, played=None)
    assert hint.startswith("**Comment la recherche voit cette position** (meilleur coup 1)") and "alpha-bêta" in hint
    mcts = thinking_text(explain("ultimate", (40,), None, "alpha-beta").summary, lang("ja"), label, played=None)
    assert "モンテカルロ木探索" in mcts and "20,000" in mcts


def test_an_ultimate_move_the_fresh_search_ranks_lower_is_not_called_a_weaker_level() -> None:
    summary = explain("ultimate", (40,), 48, "alpha-beta", seed=3).summary  # not its best move
    assert summary.move == 48 and summary.best_moves[0] != 48
    text = thinking_text(summary, lang(None), label, played=48)
    assert "This fresh search prefers" in text and "weaker moves" not in text


def test_a_4x4_move_near_the_end_is_told_as_a_fresh_searchs_count() -> None:
    cells = (0, 1, 2, 3, 4, 5, 6)
    summary = explain("4x4", cells, None, "alpha-beta").summary
    text = thinking_text(summary, lang(None), label, played=summary.move)
    assert f"Alpha-beta evaluated {summary.states:,} states in a fresh search of this position" in text, text
    assert "plain minimax" not in text and "mirror images" not in text
    if summary.table:
        assert f"{summary.table} positions came from the transposition table (seen earlier in this search)." in text
    german = thinking_text(summary, lang("de"), label, played=summary.move)
    assert "in einer frischen Suche dieser Stellung mit leerer Transpositionstabelle" in german, german
