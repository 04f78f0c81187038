"""The state counts from the student labs (the seeds), reproduced by the textbook configurations.

People number cells 1-9; the engine uses 0-8. In seed 000's game X (the person) plays 4, 7 and 9,
and the alpha-beta AI (O) answers 1, 2 and 3 after evaluating 7,641, 552 and 27 states.
"""

from __future__ import annotations

import pytest

from engine.minimax.search import TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX, search
from engine.tictactoe.rules import Mark, State, initial_state, parse_board, player, result


def from_people(x: tuple[int, ...], o: tuple[int, ...]) -> State:
    """A position from people's cell numbers (1-9)."""
    return State(sum(1 << (c - 1) for c in x), sum(1 << (c - 1) for c in o))


def test_plain_minimax_after_x_takes_the_centre() -> None:
    state = result(initial_state(), 4)
    res = search(state, config=TEXTBOOK_MINIMAX)
    assert res.states == 55_504
    assert res.move == 0  # people's cell 1
    assert res.value == 0
    assert res.config.algorithm == "minimax"


def test_plain_minimax_from_the_empty_board() -> None:
    res = search(initial_state(), config=TEXTBOOK_MINIMAX)
    assert res.states == 549_945  # the 549,946 nodes of the game tree less the root
    assert res.move == 0
    assert res.value == 0


@pytest.mark.parametrize(
    ("x", "o", "states", "people_move"),
    [
        ((4,), (), 7_641, 1),
        ((4, 7), (1,), 552, 2),
        ((4, 7, 9), (1, 2), 27, 3),
    ],
)
def test_alpha_beta_in_seed_000s_game(x: tuple[int, ...], o: tuple[int, ...], states: int, people_move: int) -> None:
    state = from_people(x, o)
    assert player(state) is Mark.O
    res = search(state, config=TEXTBOOK_ALPHA_BETA)
    assert res.states == states
    assert res.move + 1 == people_move


def test_seed_000s_game_is_one_line_of_play() -> None:
    """The three positions follow each other: each is the previous one plus O's reply and X's move."""
    state = from_people((4,), ())
    for human in (7, 9):
        state = result(state, search(state, config=TEXTBOOK_ALPHA_BETA).move)
        state = result(state, human - 1)
    assert state == parse_board("OO.X..X.X")
