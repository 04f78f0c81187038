"""engine.tree.explain: the search behind a move recomputed from the moves, the same every time."""

from __future__ import annotations

import pytest

from engine.errors import GameOverError
from engine.tree.node import SearchTree
from tests.engine.tree.explaining import explain


def test_a_3x3_move_is_explained_by_alpha_beta_beside_minimax_with_both_counts() -> None:
    explained = explain("3x3", (4,), 8, "alpha-beta")
    minimax, alpha_beta = explained.trees  # type: ignore[misc]
    assert isinstance(alpha_beta, SearchTree) and (minimax.states, alpha_beta.states) == (55_504, 71)
    summary = explained.summary
    assert (summary.move, summary.states, summary.other_states) == (8, 71, 55_504)
    assert (summary.cuts, summary.skipped, summary.table, summary.mirrors) == (5, 18, 6, 6)
    assert explain("3x3", (4,), 8, "alpha-beta") == explained  # recomputed after a restart: the same


def test_a_move_the_search_would_not_play_is_explained_by_the_searchs_own() -> None:
    summary = explain("3x3", (4,), 1, "alpha-beta").summary  # an edge loses: a weaker level's move
    assert summary.move == 0 and 1 not in summary.best_moves


def test_minimax_counts_every_state_without_keeping_them() -> None:
    summary = explain("3x3", (), None, "minimax").summary
    assert (summary.states, summary.other_states, summary.move) == (549_945, 231, 0)


def test_ultimate_explains_the_played_moves_visits_and_refuses_other_games() -> None:
    explained = explain("ultimate", (40,), 30, "alpha-beta", seed=3)
    assert explained == explain("ultimate", (40,), 30, "alpha-beta", seed=3)
    assert explained.summary.move == 30 and explained.summary.iterations == 20_000
    with pytest.raises(ValueError, match="cannot be recomputed"):
        explain("connect-four", (), None, "alpha-beta")  # a registered game that explains no move
    with pytest.raises(ValueError, match="16 empty cells after 0 moves"):
        explain("4x4", (), None, "alpha-beta")
    with pytest.raises(GameOverError):
        explain("3x3", (0, 3, 1, 4, 2), None, "alpha-beta")


def test_the_stepped_tree_is_the_alpha_beta_search_explained() -> None:
    from tests.engine.tree.explaining import stepped

    tree = stepped("3x3", (4,), 8)
    assert (tree.algorithm, tree.states, tree.move) == ("alpha-beta", 71, 8)
    assert stepped("3x3", (4,), 1).move == 0  # a move the search would not play: its own best move
    assert (
        stepped("4x4", (0, 1, 2, 3, 4, 5, 6), None).states
        == explain("4x4", (0, 1, 2, 3, 4, 5, 6), None, "alpha-beta").summary.states
    )
    with pytest.raises(ValueError, match="cannot be stepped"):
        stepped("ultimate", (40,), None)


def test_a_4x4_win_in_one_is_explained_as_played_at_once_with_nothing_else_searched() -> None:
    """Issue 48: the bot plays a 4x4 win in one before any search (:func:`engine.levels` says so); its explanation
    showed a fresh search spending 298 of 307 states on other moves before the winning one."""
    cells = (0, 4, 1, 5, 10, 6, 15)  # O a2 b2 c2 to move: O wins at d2
    explained = explain("4x4", cells, 7, "alpha-beta")
    summary = explained.summary
    assert (summary.move, summary.best_moves, summary.at_once) == (7, (7,), True)
    assert summary.states == 1 and summary.cuts == summary.skipped == 0  # the winning move alone, nothing below it
    (tree,) = explained.trees  # type: ignore[misc]
    assert [node.move for node in tree.root.children] == [7] and tree.root.rule == "win now"
    assert not explain("4x4", (*cells, 2), None, "alpha-beta").summary.at_once  # X must block: a search
