"""Property tests (hypothesis) for the rules and the search on random legal games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import CellOccupiedError, GameOverError
from engine.minimax.search import SearchConfig, search
from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import (
    Mark,
    State,
    actions,
    format_board,
    initial_state,
    parse_board,
    player,
    result,
    terminal,
    winner,
)

# A game is drawn as a list of indices into the current list of legal moves, so every draw is legal.
move_picks = st.lists(st.integers(min_value=0, max_value=8), max_size=9)


def play_picks(picks: list[int]) -> State:
    state = initial_state()
    for pick in picks:
        legal = actions(state)
        if not legal:
            break
        state = result(state, legal[pick % len(legal)])
    return state


def cells(mask: int) -> set[int]:
    return {c for c in range(9) if mask >> c & 1}


def transform(state: State, perm: tuple[int, ...]) -> State:
    """``state`` with every cell moved by the permutation ``perm``."""
    return State(sum(1 << perm[c] for c in cells(state.x)), sum(1 << perm[c] for c in cells(state.o)))


def rotate(cell: int) -> int:
    r, c = divmod(cell, 3)
    return c * 3 + (2 - r)


def mirror(cell: int) -> int:
    r, c = divmod(cell, 3)
    return r * 3 + (2 - c)


ROTATE = tuple(rotate(c) for c in range(9))
MIRROR = tuple(mirror(c) for c in range(9))
TRANSPOSE = tuple((c % 3) * 3 + c // 3 for c in range(9))


@given(move_picks)
def test_result_adds_one_mark_of_the_player_to_move(picks: list[int]) -> None:
    state = play_picks(picks)
    for cell in actions(state):
        child = result(state, cell)
        mover = player(state)
        mine, theirs = (state.x, state.o) if mover is Mark.X else (state.o, state.x)
        new_mine, new_theirs = (child.x, child.o) if mover is Mark.X else (child.o, child.x)
        assert new_theirs == theirs
        assert new_mine == mine | (1 << cell) and new_mine != mine
        assert child.marks == state.marks + 1
        assert child[cell] is mover
        assert player(child) is mover.other


@given(move_picks)
def test_actions_are_the_empty_cells_unless_terminal(picks: list[int]) -> None:
    state = play_picks(picks)
    empty = tuple(c for c in range(9) if state[c] is None)
    assert actions(state) == (() if terminal(state) else empty)
    assert state.x & state.o == 0


@given(move_picks)
def test_terminal_iff_winner_or_full(picks: list[int]) -> None:
    state = play_picks(picks)
    assert terminal(state) == (winner(state) is not None or state.marks == 9)
    if len(picks) >= 9:  # a game of nine picks always runs to the end
        assert terminal(state)


@given(move_picks)
def test_parse_format_round_trip(picks: list[int]) -> None:
    state = play_picks(picks)
    assert parse_board(format_board(state)) == state
    assert format_board(parse_board(format_board(state))) == format_board(state)


@given(move_picks)
def test_result_raises_on_every_occupied_cell(picks: list[int]) -> None:
    state = play_picks(picks)
    for cell in range(9):
        if state[cell] is None:
            continue
        with pytest.raises(GameOverError if terminal(state) else CellOccupiedError):
            result(state, cell)


@settings(max_examples=150, deadline=None)
@given(move_picks, st.sampled_from([ROTATE, MIRROR, TRANSPOSE]), st.booleans(), st.sampled_from(["plain", "depth"]))
def test_search_values_are_symmetry_invariant(
    picks: list[int], perm: tuple[int, ...], transposition: bool, scoring: str
) -> None:
    state = play_picks(picks)
    if terminal(state):
        return
    cfg = SearchConfig(scoring=scoring, transposition=transposition)  # type: ignore[arg-type]
    here = search(state, config=cfg)
    there = search(transform(state, perm), config=cfg)
    assert here.value == there.value
    assert {perm[c] for c in here.best_moves} == set(there.best_moves)


@given(move_picks)
def test_transform_helpers_agree_with_the_engines_symmetry_table(picks: list[int]) -> None:
    state = play_picks(picks)
    images = {transform(state, perm) for perm in bb.SYMMETRIES}
    mine = set()
    s = state
    for _ in range(4):
        mine.add(s)
        mine.add(transform(s, MIRROR))
        s = transform(s, ROTATE)
    assert images == mine
