"""engine.tree.record: the recorded tree is the search the bot ran, node for node.

For random 3x3 positions: its node count is the count of the fast search, of ``engine serve`` and (in
tests/bot/games/test_moves_tree.py) of the bot's reply; every cut is justified by its recorded window; the values
recomputed from the leaves give every node's value, the root's value and its best moves.
"""

from __future__ import annotations

import json
import random

import pytest

from engine.cli.serve import answer
from engine.minimax.config import ALGORITHM_CONFIGS, TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX
from engine.minimax.search import search
from engine.tictactoe.rules import State, actions, result, terminal
from engine.tree.node import Node
from engine.tree.record import record, record_config

ALGORITHMS = ("alpha-beta", "minimax")


def random_games(count: int, seed: int, algorithm: str) -> list[tuple[int, ...]]:
    """``count`` random unfinished 3x3 games (0-based cells): 0-8 marks for alpha-beta, 2-8 for plain minimax (whose
    trees from fewer marks hold 55,504 states or more)."""
    rng, games = random.Random(seed), []
    least = 0 if algorithm == "alpha-beta" else 2
    while len(games) < count:
        state, cells = State(), []
        for _ in range(rng.randint(least, 8)):
            cell = rng.choice(actions(state))
            state, cells = result(state, cell), [*cells, cell]
            if terminal(state):
                break
        if not terminal(state):
            games.append(tuple(cells))
    return games


def state_after(cells: tuple[int, ...]) -> State:
    state = State()
    for cell in cells:
        state = result(state, cell)
    return state


def nodes_with_side(root: Node, root_side: str) -> list[tuple[Node, str, int]]:
    """Every node below the root with the side to move there and its depth (plies below the root)."""
    found: list[tuple[Node, str, int]] = []
    stack = [(child, "O" if root_side == "X" else "X", 1) for child in root.children]
    while stack:
        node, side, depth = stack.pop()
        found.append((node, side, depth))
        stack.extend((child, "O" if side == "X" else "X", depth + 1) for child in node.children)
    return found


def recomputed(node: Node, side: str) -> int:
    """The node's value from its leaves: terminal positions, table hits and the double-threat rule keep theirs."""
    if not node.children:
        return node.value
    other = "O" if side == "X" else "X"
    values = [recomputed(child, other) for child in node.children]
    value = max(values) if side == "X" else min(values)
    assert value == node.value, f"node {node.move} ({node.kind}, {node.rule}) recomputes to {value}, not {node.value}"
    return value


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_the_tree_counts_the_states_the_search_and_engine_serve_report(algorithm: str) -> None:
    for cells in random_games(60, 1, algorithm):
        tree = record(cells, algorithm)  # type: ignore[arg-type]
        fast = search(state_after(cells), config=ALGORITHM_CONFIGS[algorithm])  # type: ignore[index]
        served = answer({"variant": "3x3", "moves": [c + 1 for c in cells], "algorithm": algorithm})
        assert tree.states == tree.root.size() == fast.states == served["states"], cells
        assert tree.best_moves == fast.best_moves and served["move"] - 1 in tree.best_moves


def test_every_configuration_is_replayed_exactly() -> None:
    configs = [*ALGORITHM_CONFIGS.values(), TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX]
    for cells in random_games(40, 2, "minimax"):
        for config in configs:
            tree, fast = record_config(state_after(cells), config, cells), search(state_after(cells), config=config)
            assert (tree.states, tree.best_moves, tree.root.value) == (fast.states, fast.best_moves, fast.value)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_cut_is_justified_by_its_window_and_no_other_node_skips_a_child(algorithm: str) -> None:
    cuts = 0
    for cells in random_games(60, 3, algorithm):
        tree = record(cells, algorithm)  # type: ignore[arg-type]
        root_side = "X" if len(cells) % 2 == 0 else "O"
        for node, side, depth in nodes_with_side(tree.root, root_side):
            free = 9 - len(cells) - depth  # the cells free where the node's side moves
            if node.kind == "cut":
                cuts += 1
                assert algorithm == "alpha-beta" and node.skipped
                if side == "X":  # MAX stops once its value reaches beta: MIN above already has something better
                    assert node.beta is not None and max(node.alpha or -99, node.value) >= node.beta
                else:
                    assert node.alpha is not None and min(node.beta or 99, node.value) <= node.alpha
                assert len(node.children) + len(node.skipped) == free
                assert not {c.move for c in node.children} & set(node.skipped)
            elif node.kind == "node" and node.rule is None:
                assert len(node.children) == free and not node.skipped
            elif node.kind in ("terminal", "table"):
                assert not node.children
    assert algorithm == "minimax" or cuts > 100


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_values_recomputed_from_the_leaves_give_the_root_value_and_move(algorithm: str) -> None:
    for cells in random_games(60, 4, algorithm):
        tree = record(cells, algorithm)  # type: ignore[arg-type]
        root_side = "X" if len(cells) % 2 == 0 else "O"
        assert recomputed(tree.root, root_side) == tree.root.value == search(state_after(cells)).value
        by_move = {child.move: child.value for child in tree.root.children}
        by_move |= {cell: by_move[other] for cell, other in tree.same_as.items()}
        assert tree.move in tree.best_moves
        assert [cell for cell in by_move if by_move[cell] == tree.root.value] == sorted(
            tree.best_moves, key=list(by_move).index
        )


def test_minimax_counts_the_seeds_55504_states_after_x_takes_the_centre() -> None:
    assert record([4], "minimax").states == 55_504
    assert record_config(state_after((4,)), TEXTBOOK_MINIMAX, (4,)).states == 55_504
    assert record_config(state_after((3,)), TEXTBOOK_ALPHA_BETA, (3,)).states == 7_641  # seed 000: X on people's 4
    assert record_config(state_after((4,)), TEXTBOOK_ALPHA_BETA, (4,)).states == 6_138
    assert record([4]).states == 71  # the bot's alpha-beta (docs/engine.md walks through this tree)


def test_a_tree_recorded_to_a_depth_counts_the_same_states() -> None:
    for cells in ((), (4,), (0, 4, 8)):
        full, kept = record(cells, "minimax"), record(cells, "minimax", keep=2)
        assert kept.states == full.states and kept.root.value == full.root.value
        assert max(depth for _, _, depth in nodes_with_side(kept.root, "X")) == 2


def test_the_json_has_the_documented_shape_and_one_object_per_state() -> None:
    tree = record([0, 4])
    payload = json.loads(json.dumps(tree.as_json()))
    assert payload["move"] is None and payload["states"] == tree.states and payload["position"] == [1, 5]

    def count(node: dict[str, object]) -> int:
        assert {"move", "value", "alpha", "beta", "kind", "children"} <= set(node)
        assert node["kind"] in ("node", "terminal", "cut", "table")
        return sum(1 + count(child) for child in node["children"])  # type: ignore[attr-defined]

    assert count(payload) == tree.states


def test_a_finished_game_or_a_move_that_is_not_best_is_refused() -> None:
    from engine.errors import GameOverError

    with pytest.raises(GameOverError):
        record([0, 3, 1, 4, 2])
    with pytest.raises(ValueError, match="not one of the best moves"):
        record([4], move=1)
    assert record([4], move=8).move == 8
