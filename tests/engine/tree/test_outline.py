"""engine.tree.outline: the search behind a move in brief, for explaining it in words without a picture."""

from __future__ import annotations

from engine.tictactoe.rules import initial_state, result, terminal, winner
from engine.tree.node import SearchTree
from engine.tree.outline import outline
from engine.tree.record import record
from tests.engine.tree.explaining import explain


def test_the_root_moves_carry_the_trees_values_bounds_and_counts_best_first() -> None:
    tree = record((4,), "alpha-beta")
    brief = outline(tree)
    assert (brief.algorithm, brief.width, brief.states, brief.value, brief.move) == ("alpha-beta", 3, 71, 0, 0)
    assert [(c.move, c.mark, c.value, c.bound, c.states) for c in brief.choices] == [
        (0, "O", 0, "", 64),  # the corner draws
        (1, "O", 4, "≥", 7),  # the edge loses at least that fast for O: a cut proved only a bound
    ]
    assert brief.choices[1].skipped == (2, 6, 8, 3, 5, 7) and brief.mirrors == 6
    assert sum(choice.states for choice in brief.choices) == tree.states  # every state under one root move


def test_o_lists_its_lowest_values_first_and_x_its_highest() -> None:
    minimax = explain("3x3", (4,), None, "minimax").trees[0]
    assert [c.value for c in outline(minimax).choices] == [0, 0, 0, 0, 4, 4, 4, 4]
    x_to_move = outline(record((4, 0), "minimax"))  # X after O's corner: X's best first
    values = [c.value for c in x_to_move.choices]
    assert values == sorted(values, reverse=True) and {c.mark for c in x_to_move.choices} == {"X"}


def test_the_line_is_a_legal_game_to_its_end_also_from_a_mirrored_move() -> None:
    for move in (0, 2, 6, 8):  # the corners: only 1 is searched, the others are its mirror images
        tree = record((4,), "alpha-beta", move)
        brief = outline(tree)
        assert brief.line[0] == move and brief.line_ends
        state = initial_state()
        for cell in (4, *brief.line):
            state = result(state, cell)  # raises on an illegal move
        assert terminal(state) and winner(state) is None  # to the end of the game: a draw with best play


def test_a_line_recorded_to_a_depth_says_it_stops_before_the_end() -> None:
    minimax: SearchTree = explain("3x3", (4,), None, "minimax").trees[0]  # recorded two plies deep
    brief = outline(minimax)
    assert brief.line == (0, 1) and not brief.line_ends
