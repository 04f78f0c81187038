"""How each level plays: a five never missed, a four always blocked, forced wins reported, states counted."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameOverError
from engine.gomoku.play import LEVELS, choose, level_move, new_board
from engine.gomoku.rules import GOMOKU
from engine.gomoku.search import Search
from engine.protocol import GameValue, Mark
from tests.engine.gomoku.positions import clustered, five_cells, side_to_move


def positions(seed: int, count: int, *, mine: bool) -> list[tuple[object, set[int]]]:
    """Random positions where the side to move has a five cell (``mine``) or only the opponent has, with those
    cells."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = clustered(rng, rng.randrange(15, 70))
        side = side_to_move(state)
        own, theirs = five_cells(state, side), five_cells(state, 1 - side)
        if mine and own:
            found.append((state, own))
        elif not mine and theirs and not own:
            found.append((state, theirs))
    return found


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_five_is_never_missed(level: int) -> None:
    for state, cells in positions(level, 6, mine=True):
        choice = choose(state, LEVELS[level], random.Random(level))  # type: ignore[arg-type]
        assert choice.cell in cells and choice.forced == "five" and choice.moves == 1


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_a_four_is_always_blocked(level: int) -> None:
    for state, cells in positions(100 + level, 6, mine=False):
        choice = choose(state, LEVELS[level], random.Random(level))  # type: ignore[arg-type]
        assert choice.cell in cells


def test_a_vcf_is_played_and_reported_in_the_winners_moves() -> None:
    state = GOMOKU.play("f5 e5 g5 e8 h5 i4 f8 a1 g8 o1 h8 a15 i6 o15 i7 c13")
    choice = choose(state, LEVELS[8], random.Random(0))
    assert choice.forced == "VCF" and choice.moves == 3 and choice.describe() == "wins by VCF in 3"
    assert GOMOKU.cell_name(choice.cell) in {"i5", "i8"}
    assert choose(state, LEVELS[3], random.Random(0)).forced != "VCF"  # level 3 looks 2 moves deep only
    move = level_move(state, 8, random.Random(0))
    assert move.value == GameValue("win", 5) and move.mark is Mark.X and move.states == choice.states


def test_an_open_three_is_stopped_by_the_top_levels() -> None:
    # O has an open three g8 h8 i8 (nothing at e8, f8, j8, k8): X must play f8 or j8 (or lose to an open four).
    state = GOMOKU.play("h10 g8 c3 h8 m12 i8")
    for level in (6, 7, 8):
        assert GOMOKU.cell_name(choose(state, LEVELS[level], random.Random(0)).cell) in {"f8", "j8", "e8", "k8"}


def test_the_states_are_every_node_of_both_searches() -> None:
    state = GOMOKU.play("h8 h9 i8 g7")
    board = new_board(state)
    choice = choose(state, LEVELS[5], random.Random(0), board)
    assert choice.depth == 3 and choice.states > board.count > 0  # the guard's threat searches counted too
    search = Search(new_board(state), 10)
    search.best(0, 2, [GOMOKU.parse_cell("j8")])
    assert search.states == search.nodes + search.board.count and search.nodes > 10


def test_the_same_seed_plays_the_same_move_and_noise_varies_it() -> None:
    state = GOMOKU.play("h8 i9 h9")
    first = choose(state, LEVELS[1], random.Random(5)).cell
    assert choose(state, LEVELS[1], random.Random(5)).cell == first
    picks = {choose(state, LEVELS[1], random.Random(seed)).cell for seed in range(12)}
    assert len(picks) > 1
    assert len({choose(state, LEVELS[5], random.Random(seed)).cell for seed in range(3)}) == 1  # no noise


def test_a_finished_game_has_no_move() -> None:
    with pytest.raises(GameOverError):
        choose(GOMOKU.play("h8 a1 h9 a2 h10 a3 h11 a4 h12"), LEVELS[1], random.Random(0))
