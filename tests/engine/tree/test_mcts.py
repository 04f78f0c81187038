"""engine.tree.mcts and draw_mcts: ultimate's MCTS-Solver first plies, the same tree every time they are recomputed."""

from __future__ import annotations

import html
import io

from PIL import Image

from engine.tree.draw_mcts import render_mcts
from engine.tree.mcts import record_mcts

# A random game (seed 0, as in tests/engine/cli/test_serve.py) stopped where O, to move, has a proven win in 5 plies.
WON_IN_5 = (49, 75, 64, 50, 70, 32, 15, 29, 8, 6, 10, 41, 35, 7, 4, 21, 55, 13, 59, 17, 53, 71, 52, 68, 33, 19,
            77, 60, 9, 45, 73, 57, 18, 27, 1, 22, 58)  # fmt: skip


def test_the_same_position_seed_and_iterations_give_the_same_tree() -> None:
    first, again = record_mcts([40, 30], 3_000, seed=5), record_mcts([40, 30], 3_000, seed=5)
    assert first == again
    assert first.iterations == sum(move.visits for move in first.moves) == 3_000
    assert first.pv[0] == first.move == max(first.moves, key=lambda m: m.visits).move


def test_a_proven_win_is_the_move_and_shows_in_the_json_and_the_picture() -> None:
    tree = record_mcts(WON_IN_5, 2_000)
    assert (tree.moves[0].proof, tree.moves[0].plies) == ("win", 5)
    payload = tree.as_json()
    assert payload["move"] is None and payload["played"] == tree.move + 1
    assert payload["children"][0]["proof"] == "win" and payload["children"][0]["value"] == 1.0
    assert len(payload["children"]) == len(tree.moves)
    svg = html.unescape(render_mcts(tree, "svg").decode())
    assert "proven win at ply 5" in svg and f"MCTS: {tree.iterations:,} iterations" in svg
    png = Image.open(io.BytesIO(render_mcts(tree, "png")))
    assert png.format == "PNG" and png.width > 300
