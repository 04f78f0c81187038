"""engine.tree.mnk: a fresh exact 4x4 and 5x5 search recorded node for node.

For random positions with at most TREE_EMPTY_CELLS empty cells: the node count is the states count of the same search
run by a fresh PyKernel and by the C kernel (empty tables); every cut is justified by its window; the values recomputed
from the leaves give every node's value and the root's, which is the position's exact value.
"""

from __future__ import annotations

import html
import random

import pytest

from engine import variant
from engine.errors import GameOverError
from engine.mnk.play import analyse
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.mnk.solver import INF, NATIVE, move_value, new_kernel
from engine.protocol import Mark
from engine.tree.mnk import TREE_EMPTY_CELLS, record_mnk, root_order
from tests.engine.tree.explaining import explain
from tests.engine.tree.test_record import nodes_with_side, recomputed

GAMES = (TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5)


def positions(game: TicTacToe, count: int, seed: int) -> list[tuple[tuple[int, ...], MnkState]]:
    """``count`` random unfinished positions of ``game`` with 3 to TREE_EMPTY_CELLS empty cells."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        empty, state, cells = rng.randint(3, TREE_EMPTY_CELLS), game.initial_state(), []
        while game.cells - state.marks > empty and not game.terminal(state):
            cell = rng.choice(game.actions(state))
            state, cells = game.result(state, cell), [*cells, cell]
        if not game.terminal(state):
            found.append((tuple(cells), state))
    return found


def fresh_count(game: TicTacToe, state: MnkState, *, native: bool) -> tuple[int, list[tuple[int, int]]]:
    """The states and root scores of the solver's search from an empty table, with the recorder's root window."""
    kernel = new_kernel(game, native=native)
    x = game.player(state) is Mark.X
    me, opp = (state.x, state.o) if x else (state.o, state.x)
    best, scores = -INF, []
    for cell in root_order(game, me, opp):
        score = move_value(kernel, game, me, opp, cell, best - 1 if best > -INF else -INF, INF)
        scores.append((cell, score))
        best = max(best, score)
    return kernel.count, scores


@pytest.mark.parametrize("game", GAMES, ids=("4x4", "5x5"))
def test_the_tree_counts_the_states_of_a_fresh_search_by_either_kernel(game: TicTacToe) -> None:
    large = 0
    for cells, state in positions(game, 40, 1):
        tree = record_mnk(game, cells)
        count, scores = fresh_count(game, state, native=False)
        assert tree.states == tree.root.size() == count, cells
        best = max(score for _, score in scores)
        assert tree.best_moves == tuple(cell for cell, score in scores if score == best)
        if NATIVE:
            assert fresh_count(game, state, native=True) == (count, scores)
        large += tree.states > 50
    assert large >= 5  # not only positions settled at once


@pytest.mark.parametrize("game", GAMES, ids=("4x4", "5x5"))
def test_every_cut_is_justified_and_the_leaves_give_the_exact_value(game: TicTacToe) -> None:
    cuts = 0
    for cells, state in positions(game, 40, 2):
        tree = record_mnk(game, cells)
        root_side = "X" if len(cells) % 2 == 0 else "O"
        for node, side, depth in nodes_with_side(tree.root, root_side):
            free = game.cells - len(cells) - depth
            if node.kind == "cut":
                cuts += 1
                if side == "X":
                    assert node.beta is not None and node.value >= node.beta
                else:
                    assert node.alpha is not None and node.value <= node.alpha
                assert len(node.children) + len(node.skipped) == free
                assert not {c.move for c in node.children} & set(node.skipped)
            elif node.rule == "out of reach":  # a bound outside the window, with no child
                assert not node.children and node.bound in ("lower", "upper")
                if (node.bound == "lower") == (side == "X"):  # X's value at least this, at or above beta
                    assert node.beta is not None and node.value >= node.beta
                else:
                    assert node.alpha is not None and node.value <= node.alpha
            elif node.kind == "node" and node.rule is None:
                assert len(node.children) == free and not node.skipped
            elif node.kind in ("terminal", "table") or node.rule in ("win now", "last cell", "double threat"):
                assert not node.children
        assert recomputed(tree.root, root_side) == tree.root.value
        exact = {cell: value for cell, value in analyse(game, state).values}
        values = {child.move: child.value for child in tree.root.children}
        for move in tree.best_moves:
            assert values[move] == tree.root.value
            sign = 1 if root_side == "X" else -1
            assert exact[move] == max(exact.values(), key=_rank)
            assert _units(exact[move]) == sign * tree.root.value
    assert cuts > 20


def _rank(value: object) -> tuple[int, int]:
    result, plies = value.result, value.plies  # type: ignore[attr-defined]
    return (2, -plies) if result == "win" else (1, 0) if result == "draw" else (0, plies)


def _units(value: object) -> int:
    """A GameValue for the side to move as the tree's units for that side (10 - plies for a win)."""
    result, plies = value.result, value.plies  # type: ignore[attr-defined]
    return 10 - plies if result == "win" else -(10 - plies) if result == "loss" else 0


def test_too_many_empty_cells_a_finished_game_and_a_wrong_move_are_refused() -> None:
    with pytest.raises(ValueError, match=r"10 empty cells after 6 moves.*play at least 7 cells"):
        record_mnk(TIC_TAC_TOE_4X4, (0, 1, 2, 3, 4, 5))
    with pytest.raises(GameOverError):
        record_mnk(TIC_TAC_TOE_4X4, (0, 4, 1, 5, 2, 6, 3))
    must_block = (0, 4, 1, 5, 2, 9, 15)  # O to move must take 4 (0-based 3)
    assert record_mnk(TIC_TAC_TOE_4X4, must_block).best_moves == (3,)
    with pytest.raises(ValueError, match=r"cell 8 is not one of the best moves \[4\]"):
        record_mnk(TIC_TAC_TOE_4X4, must_block, 7)


def test_the_game_says_where_its_search_can_be_drawn_and_explain_says_it_is_fresh() -> None:
    four, five = variant("4x4"), variant("5x5")
    assert not four.explains(range(6)) and four.explains(range(7))
    assert not five.explains(range(15)) and five.explains(range(16))
    assert variant("3x3").explains(()) and variant("ultimate").explains(())
    explained = explain("4x4", (0, 1, 2, 3, 4, 5, 6), None, "alpha-beta")
    (tree,) = explained.trees  # type: ignore[misc]
    assert explained.summary.fresh and explained.summary.states == tree.states
    assert explained == explain("4x4", (0, 1, 2, 3, 4, 5, 6), None, "alpha-beta")  # deterministic
    assert explained.summary.move in explained.summary.best_moves


def test_a_cut_near_the_end_is_explained_by_the_bound_it_reached() -> None:
    pytest.importorskip("graphviz")
    from engine.tree.draw import render

    cells = tuple(cell - 1 for cell in (6, 2, 12, 4, 1, 3, 5, 15, 10, 16))  # 6 empty cells
    svg = html.unescape(render([record_mnk(TIC_TAC_TOE_4X4, cells)], "svg").decode())
    # O d2: X cannot win before ply 5 (mate distance), so the first win at ply 5 ends the search there
    assert "β = +5: known before searching this position (X cannot win before ply 5)" in svg
    assert "O d2: +5 (X wins at ply 5)" in svg
