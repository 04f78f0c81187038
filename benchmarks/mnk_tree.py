"""Benchmark: the size of a recorded fresh 4x4 and 5x5 search (:func:`engine.tree.mnk.record_mnk`, pure Python) and
the time to record and draw it, by empty cells: the figures behind :data:`engine.tree.mnk.TREE_EMPTY_CELLS`.

Run from the repository root with ``python -m benchmarks.mnk_tree [--positions N] [--empty 7,8,9,10,11,12]
[--seed S]`` (about 30 s with the defaults; drawing needs Graphviz). Positions are random playouts (seeded), not over,
stopped at the given number of empty cells. For each game and count it prints the median and largest states, the
median and longest recording time, and the longest time to draw the largest tree as a PNG.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, TicTacToe
from engine.tree.mnk import record_mnk


def position(game: TicTacToe, rng: random.Random, empty: int) -> tuple[int, ...]:
    """The cells of a random unfinished game of ``game`` with ``empty`` empty cells."""
    while True:
        state, cells = game.initial_state(), []
        while game.cells - state.marks > empty and not game.terminal(state):
            cell = rng.choice(game.actions(state))
            state, cells = game.result(state, cell), [*cells, cell]
        if not game.terminal(state):
            return tuple(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--empty", default="7,8,9,10,11,12")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from engine.tree.draw import render

    rng = random.Random(args.seed)
    for game in (TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5):
        for empty in map(int, args.empty.split(",")):
            states, seconds, trees = [], [], []
            for _ in range(args.positions):
                cells = position(game, rng, empty)
                started = time.perf_counter()
                tree = record_mnk(game, cells, most_empty=empty)
                seconds.append(time.perf_counter() - started)
                states.append(tree.states)
                trees.append(tree)
            largest = max(trees, key=lambda tree: tree.states)
            started = time.perf_counter()
            png = render([largest])
            drawn = time.perf_counter() - started
            print(
                f"{game.h}x{game.v}, {empty} empty: states median {statistics.median(states):,.0f}, largest "
                f"{max(states):,}; record median {statistics.median(seconds):.3f} s, longest {max(seconds):.3f} s; "
                f"draw the largest {drawn:.2f} s ({len(png):,} bytes)",
                flush=True,
            )


if __name__ == "__main__":
    main()
