"""engine.review: labels on known games, and every ply checked against plain minimax on random games.

Cells are 0-8, row-major from the top-left: 0 1 2 / 3 4 5 / 6 7 8.
"""

from __future__ import annotations

import pickle
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    CellOccupiedError,
    CellOutOfRangeError,
    GameOverError,
    GameValue,
    IllegalMoveError,
    IllegalSequenceError,
    Mark,
    PlyReview,
)
from engine.minimax.search import DEFAULT, PLAIN_MINIMAX, SearchResult, search
from engine.registry import VARIANTS
from engine.review import exact_label, review, summary, ultimate_review
from engine.tictactoe.rules import State, actions, initial_state, parse_board, result, terminal, winner


def test_a_perfect_game_is_best_throughout() -> None:
    plies = review([4, 0, 8, 2, 1, 7, 6, 3, 5])
    assert [p.label for p in plies] == ["best"] * 9
    assert [p.ply for p in plies] == list(range(1, 10))
    assert [p.mover for p in plies] == [Mark.X, Mark.O] * 4 + [Mark.X]
    assert all(
        p.before == GameValue("draw", 9 - i) and p.after == GameValue("draw", 8 - i) for i, p in enumerate(plies)
    )
    assert all(p.cell in p.best_moves for p in plies)
    assert plies[0].best_moves == tuple(range(9))  # every opening draws
    assert plies[1].best_moves == (0, 2, 6, 8)  # against the centre only a corner draws
    assert plies[-1].after == GameValue("draw", 0)


def test_an_edge_reply_to_the_centre_is_a_blunder() -> None:
    opening, reply, punish = review([4, 1, 0])
    assert (opening.label, opening.before, opening.after) == ("best", GameValue("draw", 9), GameValue("draw", 8))
    assert reply.mover is Mark.O and reply.cell == 1
    assert reply.label == "blunder"
    assert reply.before == GameValue("draw", 8)
    assert reply.after.result == "loss"
    assert reply.best_moves == (0, 2, 6, 8)
    assert punish.label == "best" and punish.before == GameValue("win", reply.after.plies)


def test_ignoring_an_immediate_win_for_a_draw_is_a_mistake() -> None:
    # X 0, 1 threatens 2; O plays 3 (making its own threat on 3-4-5) instead of blocking; X blocks 5.
    plies = review([0, 4, 1, 3, 5])
    assert plies[3].label == "blunder"
    missed = plies[4]
    assert missed.mover is Mark.X
    assert missed.before == GameValue("win", 1)
    assert missed.after.result == "draw"
    assert missed.label == "mistake"
    assert missed.best_moves == (2,)


def test_a_fork_instead_of_the_immediate_win_is_slower() -> None:
    # X 0, 1 threatens 2; O does not block; X plays 3, a fork that still wins, two plies later.
    slower = review([0, 4, 1, 5, 3])[4]
    assert slower.before == GameValue("win", 1)
    assert slower.after == GameValue("win", 2)
    assert slower.label == "slower"
    assert slower.best_moves == (2,)


def test_leaving_a_threat_unblocked_in_a_lost_position_is_an_inaccuracy() -> None:
    # O is lost after the edge reply; X 0, 3 threatens 6 and O plays 2: the loss comes at once.
    inaccuracy = review([0, 1, 3, 2])[3]
    assert inaccuracy.before.result == "loss" and inaccuracy.before.plies > 2
    assert inaccuracy.after == GameValue("loss", 1)
    assert inaccuracy.label == "inaccuracy"
    assert 6 in inaccuracy.best_moves


def test_turning_a_win_into_a_loss_is_a_blunder() -> None:
    plies = review([5, 0, 7])
    assert plies[1].label == "blunder"
    assert plies[2].before.result == "win" and plies[2].after.result == "loss"
    assert plies[2].label == "blunder"


def test_the_winning_move_ends_with_plies_zero() -> None:
    last = review([0, 3, 1, 4, 2])[-1]
    assert last.before == GameValue("win", 1) and last.after == GameValue("win", 0)
    assert last.label == "best"


def test_states_are_the_default_searchs_count() -> None:
    for ply in review([4, 0, 8, 2, 6]):
        assert ply.states == search(ply.state, config=DEFAULT).states
        assert ply.states > 0


def test_summary_lists_each_sides_errors_by_ply() -> None:
    sides = summary(review([0, 4, 1, 3, 5, 2]))
    assert list(sides) == [Mark.X, Mark.O]
    x, o = sides[Mark.X], sides[Mark.O]
    assert (x.moves, x.best, x.mistakes, x.blunders, x.slower, x.inaccuracies) == (3, 2, (5,), (), (), ())
    assert (o.moves, o.best, o.mistakes, o.blunders, o.slower, o.inaccuracies) == (3, 2, (), (4,), (), ())


def test_summary_of_nothing() -> None:
    assert review([]) == ()
    sides = summary([])
    assert all(s.moves == s.best == 0 and s.blunders == s.mistakes == () for s in sides.values())


@pytest.mark.parametrize(
    ("moves", "ply", "cause"),
    [
        ([4, 4], 2, CellOccupiedError),
        ([4, 9], 2, CellOutOfRangeError),
        ([-1], 1, CellOutOfRangeError),
        ([4, "0"], 2, CellOutOfRangeError),
        ([4, True], 2, CellOutOfRangeError),
        ([0, 3, 1, 4, 2, 5], 6, GameOverError),
    ],
)
def test_illegal_sequences_name_the_bad_move(moves: list[int], ply: int, cause: type[IllegalMoveError]) -> None:
    with pytest.raises(IllegalSequenceError) as info:
        review(moves)
    assert isinstance(info.value, IllegalMoveError) and isinstance(info.value, ValueError)
    assert info.value.ply == ply and info.value.cell == moves[ply - 1]
    assert isinstance(info.value.__cause__, cause)
    bad = moves[ply - 1]
    shown = repr(bad) if isinstance(bad, bool | str) else str(bad + 1)  # cells as people number them
    assert str(info.value).startswith(f"move {ply} (cell {shown}) cannot be played: ")
    copy = pickle.loads(pickle.dumps(info.value))
    assert (type(copy), str(copy), copy.ply, copy.cell) == (IllegalSequenceError, str(info.value), ply, moves[ply - 1])


# --- every ply against plain minimax, on random legal games ------------------------------------------


@cache
def minimax(state: State) -> SearchResult:
    """Plain minimax (no pruning, no table, depth-aware scores), once per position."""
    return search(state, config=PLAIN_MINIMAX)


def mover_outcome(state: State, mover: Mark) -> GameValue:
    """``state``'s value for ``mover``, from plain minimax (or the rules when the game is over)."""
    if terminal(state):
        won = winner(state)
        return GameValue("draw" if won is None else "win" if won is mover else "loss", 0)
    value = minimax(state).value  # X's point of view: ±(10 - plies from state), 0 for a draw
    if mover is Mark.O:
        value = -value
    if value == 0:
        return GameValue("draw", 9 - state.marks)
    return GameValue("win" if value > 0 else "loss", 10 - abs(value))


def expected_label(before: GameValue, after: GameValue) -> str:
    rank = {"loss": 0, "draw": 1, "win": 2}
    assert rank[after.result] <= rank[before.result]
    if after.result == before.result:
        if after.plies == before.plies - 1:
            return "best"
        return "slower" if after.result == "win" else "inaccuracy"
    return "blunder" if after.result == "loss" else "mistake"


games = st.lists(st.integers(min_value=0, max_value=8), max_size=9).map(
    lambda picks: _play(picks)  # a pick indexes the list of legal moves, so every game is legal
)


def _play(picks: list[int]) -> list[int]:
    state, moves = initial_state(), []
    for pick in picks:
        legal = actions(state)
        if not legal:
            break
        moves.append(legal[pick % len(legal)])
        state = result(state, moves[-1])
    return moves


@settings(max_examples=400, deadline=None)
@given(games)
def test_every_ply_matches_plain_minimax(moves: list[int]) -> None:
    plies = review(moves)
    assert [p.cell for p in plies] == moves
    state = initial_state()
    for number, ply in enumerate(plies, start=1):
        assert isinstance(ply, PlyReview)
        assert (ply.ply, ply.state, ply.mover) == (number, state, Mark.X if number % 2 else Mark.O)
        after = result(state, ply.cell)
        assert ply.before == mover_outcome(state, ply.mover)
        assert ply.after == mover_outcome(after, ply.mover)
        assert set(ply.best_moves) == set(minimax(state).best_moves)
        assert list(ply.best_moves) == sorted(ply.best_moves)
        assert ply.label == expected_label(ply.before, ply.after)
        assert (ply.label == "best") == (ply.cell in ply.best_moves)
        assert ply.states == search(state, config=DEFAULT).states
        state = after


@settings(max_examples=200, deadline=None)
@given(games)
def test_summary_accounts_for_every_ply(moves: list[int]) -> None:
    plies = review(moves)
    sides = summary(plies)
    for mark, side in sides.items():
        mine = [p for p in plies if p.mover is mark]
        assert side.mark is mark and side.moves == len(mine)
        assert side.best == sum(p.label == "best" for p in mine)
        assert side.blunders == tuple(p.ply for p in mine if p.label == "blunder")
        assert side.mistakes == tuple(p.ply for p in mine if p.label == "mistake")
        assert side.slower == tuple(p.ply for p in mine if p.label == "slower")
        assert side.inaccuracies == tuple(p.ply for p in mine if p.label == "inaccuracy")
        assert side.best + len(side.blunders + side.mistakes + side.slower + side.inaccuracies) == side.moves


def test_a_game_that_ends_early_can_be_reviewed() -> None:
    plies = review([0, 3, 1, 4, 2])
    assert terminal(parse_board("XXXOO...."))
    assert len(plies) == 5 and plies[-1].mover is Mark.X


def test_a_4x4_review_labels_a_thrown_away_draw_a_blunder_with_the_3x3_rules() -> None:
    # X a1, O b2, X a2, O b3, X a3, O b4 (O ignores the threat on a4), X a4: the column a1-a4
    moves = (0, 5, 4, 9, 8, 13, 12)
    rows = VARIANTS["4x4"].review(moves)
    assert [row.ply for row in rows] == list(range(1, 8)) and all(row.exact for row in rows)
    assert rows[0].label == "best" and rows[0].values[0].result == "draw"
    assert [row for row in rows if row.mover is Mark.O and row.label == "blunder"]  # O let X's line through
    assert all((row.cell in row.best_moves) == (row.label == "best") for row in rows)
    assert rows[-1].label == "best" and rows[-1].values[1] == GameValue("win", 0)  # the winning move ends it
    assert all(row.label == exact_label(*row.values) for row in rows)
    assert summary(rows)[Mark.O].blunders


def test_a_5x5_review_starts_where_the_exact_analysis_is_fast() -> None:
    rows = VARIANTS["5x5"].review((12, 0, 6, 18, 7))
    assert [row.ply for row in rows] == [5] and rows[0].states > 0


def test_an_ultimate_review_is_an_estimate_labelled_by_the_engines_thresholds() -> None:
    rows = ultimate_review((40, 30, 10), budget_ms=30.0)
    assert [(row.ply, row.mover, row.cell) for row in rows] == [(1, Mark.X, 40), (2, Mark.O, 30), (3, Mark.X, 10)]
    for row in rows:
        assert not row.exact and row.before is None and row.depth is not None and row.states > 0
        assert row.score is not None and row.best_score is not None and row.loss == row.best_score - row.score >= 0
        assert row.label in ("best", "inaccuracy", "mistake", "blunder") and len(row.best_moves) == 1
        with pytest.raises(ValueError, match="estimate"):
            row.values  # noqa: B018


def test_every_review_refuses_an_illegal_game_before_searching() -> None:
    for name in VARIANTS:
        with pytest.raises(IllegalSequenceError):
            VARIANTS[name].review((4, 4))
