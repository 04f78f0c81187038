"""How long ``engine serve`` thinks about an ultimate move at level 8: time per move at each budget.

Run from the repository root (``--root`` runs another checkout's engine, e.g. main's, to compare)::

    python -m benchmarks.ultimate_serve_time --positions 30 --budgets 1000 3000
    python -m benchmarks.ultimate_serve_time --positions 30 --budgets 1000 3000 --root /work/main

The positions are random games of 2 to 40 plies (seeded by ``--seed``), each asked once per budget as
``{"variant": "ultimate", "moves": [...], "budget_ms": B, "level": 8}`` of one ``python -m engine serve`` process
(``benchmarks/harness/engine_serve.py``). Per budget it prints, over the answers without a proved value (the
unproven positions), the engine's own ``elapsed_ms`` and the round trip (p50, p95, worst) as a share of the budget
too, the states searched (p50), and how many answers were proved.
"""

from __future__ import annotations

import argparse
import random
import statistics
from pathlib import Path

from benchmarks.harness.engine_serve import ROOT, EngineServe
from engine.ultimate.rules import UltimateTicTacToe

__all__ = ["percentile", "positions"]


def positions(count: int, seed: int) -> list[list[int]]:
    """``count`` random games of 2 to 40 plies that are not over, as 0-based cells."""
    game, rng = UltimateTicTacToe(), random.Random(seed)
    found: list[list[int]] = []
    while len(found) < count:
        state, moves = game.initial_state(), []
        for _ in range(rng.randint(2, 40)):
            cell = rng.choice(game.actions(state))
            moves.append(cell)
            state = game.result(state, cell)
            if state.is_over:
                break
        if not state.is_over:
            found.append(moves)
    return found


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in [0, 1]) of non-empty ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--budgets", type=float, nargs="+", default=[1000.0, 3000.0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose engine to run")
    args = parser.parse_args()
    games = positions(args.positions, args.seed)
    print(f"engine serve from {args.root}, level 8, {len(games)} positions")
    with EngineServe(args.root) as engine:
        engine.ask({"variant": "ultimate", "moves": [41], "budget_ms": 10, "level": 8})  # imports, outside the timing
        for budget in args.budgets:
            elapsed, trips, states, proved = [], [], [], 0
            for moves in games:
                answer, trip = engine.ask(
                    {"variant": "ultimate", "moves": [m + 1 for m in moves], "budget_ms": budget, "level": 8}
                )
                if answer["value"] is not None:
                    proved += 1
                    continue
                elapsed.append(answer["elapsed_ms"])
                trips.append(trip)
                states.append(answer["states"])
            if not elapsed:
                print(f"budget {budget:.0f} ms: every answer was proved ({proved})")
                continue
            line = ", ".join(
                f"{name} p50 {percentile(xs, 0.5):.0f} ms ({percentile(xs, 0.5) / budget:.0%}), "
                f"p95 {percentile(xs, 0.95):.0f} ms, worst {max(xs):.0f} ms"
                for name, xs in (("elapsed", elapsed), ("round trip", trips))
            )
            print(
                f"budget {budget:.0f} ms: {len(elapsed)} unproven answers: {line}; "
                f"states p50 {statistics.median(states):,.0f}; {proved} proved"
            )


if __name__ == "__main__":
    main()
