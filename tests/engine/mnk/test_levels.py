"""engine.mnk.levels: what every level sees at once, the weaker levels' shallow search and level 8's pressing
choice among equally good moves."""

from __future__ import annotations

import random

import pytest

from engine.errors import GameOverError
from engine.mnk.levels import at_once, perfect_move, press, searched_move, seen_at_once
from engine.mnk.rules import TIC_TAC_TOE_4X4, TicTacToe

THREE = TicTacToe(3, 3, 3)


def test_a_win_in_one_is_seen_before_a_block_and_a_block_only_when_noticed() -> None:
    both = THREE.play([0, 3, 1, 4])  # X to move: c1 wins; O threatens c2
    wins, threats, free = at_once(THREE, both)
    assert (wins, threats, free.bit_count()) == (1 << 2, 1 << 5, 5)
    assert seen_at_once(THREE, both, 0.0, random.Random(0)) == (2, 5)
    block = THREE.play([0, 3, 8, 4])  # X to move, no win; O threatens c2
    assert seen_at_once(THREE, block, 1.0, random.Random(0)) == (5, 5)
    assert seen_at_once(THREE, block, 0.0, random.Random(0)) is None  # never noticed: the search chooses
    assert searched_move(THREE, block, 1, 0.0, 1.0, random.Random(0)).cell == 5


def test_press_plays_the_fastest_win_and_a_single_move_without_a_search() -> None:
    position = THREE.play([0, 3, 1, 4])
    assert press(THREE, position, (6, 7), 3, random.Random(0)) == (2, 0)
    assert press(THREE, THREE.play([4]), (0,), 3, random.Random(0)) == (0, 0)
    move, states = press(THREE, THREE.initial_state(), tuple(range(9)), 3, random.Random(0))
    assert move == 4 and states > 0  # the centre presses hardest


def test_level_8_wins_at_once_without_a_search_and_refuses_a_finished_game() -> None:
    won = perfect_move(TIC_TAC_TOE_4X4, TIC_TAC_TOE_4X4.play([0, 4, 1, 5, 2, 6]), 1, random.Random(0))
    assert (won.cell, won.states, won.value is not None and won.value.result) == (3, 0, "win")
    over = THREE.play([0, 3, 1, 4, 2])
    for level_move in (lambda: perfect_move(THREE, over, 3, random.Random(0)),
                       lambda: searched_move(THREE, over, 2, 0.0, 1.0, random.Random(0))):  # fmt: skip
        with pytest.raises(GameOverError):
            level_move()
