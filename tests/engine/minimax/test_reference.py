"""The textbook searches of engine.minimax.reference on the 3x3 game: the labs' figures, exactly."""

from __future__ import annotations

import pytest

from engine.errors import GameOverError
from engine.minimax.reference import alpha_beta_search, minimax_search
from engine.tictactoe import rules as game


def play(*cells: int) -> game.State:
    state = game.initial_state()
    for cell in cells:
        state = game.result(state, cell)
    return state


def test_minimax_after_x_takes_the_centre_evaluates_55_504_states() -> None:
    res = minimax_search(game, play(4))
    assert (res.states, res.value) == (55_504, 0)


@pytest.mark.slow
def test_minimax_from_the_empty_board_visits_the_whole_tree_below_the_root() -> None:
    res = minimax_search(game, game.initial_state())
    assert (res.states, res.value, res.move) == (549_945, 0, 0)


@pytest.mark.parametrize(
    ("cells", "states", "move"),
    [((3,), 7_641, 0), ((3, 0, 6), 552, 1), ((3, 0, 6, 1, 8), 27, 2)],
)
def test_alpha_beta_reproduces_the_lab_figures(cells: tuple[int, ...], states: int, move: int) -> None:
    res = alpha_beta_search(game, play(*cells))
    assert (res.states, res.move) == (states, move)


def test_alpha_beta_values_every_root_move_like_minimax() -> None:
    state = play(4, 0)
    assert alpha_beta_search(game, state).values == minimax_search(game, state).values


def test_a_finished_game_has_no_move_to_search() -> None:
    with pytest.raises(GameOverError):
        minimax_search(game, play(0, 3, 1, 4, 2))
    with pytest.raises(GameOverError):
        alpha_beta_search(game, play(0, 3, 1, 4, 2))
