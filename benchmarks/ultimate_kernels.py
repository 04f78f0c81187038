"""The Ultimate tic-tac-toe kernels side by side: the C one against the pure-Python one on the same positions.

Run from the repository root (after ``pip install -e .`` has built ``engine/ultimate/_ultimate_c.c``)::

    python -m benchmarks.ultimate_kernels [--positions 20] [--iterations 2000] [--seed 1]

Each position (random games of 0-55 plies, seeded) is searched by both kernels with the same seed and the same
number of MCTS iterations, which grows the same tree (the script checks the answers are identical), so the work is
the same and the ratio of the times is the ratio of the speeds. It prints both kernels' states per second (tree
descents and rollout plies) and iterations per second, pooled over the positions, with the ratio; then the same for
the proof search (``prove`` at depth 5, nodes per second).
"""

from __future__ import annotations

import argparse
import math
import random
import time

from engine.ultimate import _ultimate_c  # type: ignore[attr-defined]
from engine.ultimate import mcts as ultimate_mcts  # type: ignore[attr-defined]
from engine.ultimate.rules import UltimateState, UltimateTicTacToe
from engine.ultimate.tree import EXPLORATION, MAX_NODES, raw_position


def positions(count: int, seed: int) -> list[UltimateState]:
    """``count`` positions from random games of 0-55 plies that are not over."""
    game, rng = UltimateTicTacToe(), random.Random(seed)
    found: list[UltimateState] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(0, 56)):
            if state.is_over:
                break
            state = game.result(state, rng.choice(game.actions(state)))
        if not state.is_over:
            found.append(state)
    return found


def main() -> None:
    """Time both kernels on the same positions and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    spent = {"c": 0.0, "python": 0.0}
    proof_spent = {"c": 0.0, "python": 0.0}
    states = iterations = proof_nodes = 0
    for i, state in enumerate(positions(args.positions, args.seed)):
        pos = raw_position(state)
        run = (args.iterations, math.inf, 1000 + i, EXPLORATION, MAX_NODES)
        answers = {}
        for name, kernel in (("c", _ultimate_c), ("python", ultimate_mcts)):
            start = time.perf_counter()
            answers[name] = kernel.mcts(*pos, *run)
            spent[name] += time.perf_counter() - start
        c, py = answers["c"], answers["python"]
        assert c[:6] == py[:6] and tuple(c[6]) == py[6] and list(c[7]) == py[7], f"position {i}: the kernels differ"
        states += c[1]
        iterations += c[0]
        proofs = {}
        for name, kernel in (("c", _ultimate_c), ("python", ultimate_mcts)):
            start = time.perf_counter()
            proofs[name] = kernel.prove(*pos, 5, 10**6, math.inf)
            proof_spent[name] += time.perf_counter() - start
        assert tuple(proofs["c"]) == tuple(proofs["python"]), f"position {i}: the proof searches differ"
        proof_nodes += proofs["c"][2]
    print(f"{args.positions} positions, {args.iterations} iterations each, the same trees in both kernels:")
    for name in ("c", "python"):
        print(
            f"- {name}: {states / spent[name]:,.0f} states/s, {iterations / spent[name]:,.0f} iterations/s "
            f"({spent[name]:.2f} s); proof search {proof_nodes / proof_spent[name]:,.0f} nodes/s"
        )
    print(
        f"ratio C / Python: {spent['python'] / spent['c']:.0f}x (states/s), proof search "
        f"{proof_spent['python'] / proof_spent['c']:.0f}x (nodes/s)"
    )


if __name__ == "__main__":
    main()
