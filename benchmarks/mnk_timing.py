"""Benchmark: time per move of the perfect m,n,k player (4x4 and 5x5) over a sample of reachable positions.

Run from the repository root with ``python -m benchmarks.mnk_timing [--games N] [--pure-python]``.

The sample is every position at which the bot was asked for a move in ``N`` seeded games per pairing: the
bot as X and as O against a uniformly random player, and the bot against itself (its random choice among
equally good moves varies the games). Each ``engine.mnk.play.choose_move`` call is timed in this one process,
book moves included. It prints, per game, the p50, p95 and worst time per move (all moves, and search moves
alone), the states per second of the searches, and PASS/MISS against the targets: p95 <= 1 s, worst <= 2 s.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

P95_TARGET_MS = 1_000.0
WORST_TARGET_MS = 2_000.0


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (``fraction`` in 0-1)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing (default 100)")
    parser.add_argument("--pure-python", action="store_true", help="use the pure-Python kernel")
    args = parser.parse_args()
    if args.pure_python:
        os.environ["TTT_ENGINE_PURE_PYTHON"] = "1"
    from engine.mnk.play import choose_move
    from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5
    from engine.mnk.solver import NATIVE

    print(f"kernel: {'C' if NATIVE else 'pure Python'}; {args.games} games per pairing; seed 17")
    failed = False
    for name, game in (("4x4", TIC_TAC_TOE_4X4), ("5x5", TIC_TAC_TOE_5X5)):
        rng = random.Random(17)
        all_ms: list[float] = []
        search_ms: list[float] = []
        states = 0
        search_seconds = 0.0
        worst_position = ""
        started = time.perf_counter()
        for pairing in ("bot-x", "bot-o", "self"):
            for _ in range(args.games):
                state = game.initial_state()
                while not game.terminal(state):
                    bot_turn = pairing == "self" or (state.marks % 2 == 0) == (pairing == "bot-x")
                    if not bot_turn:
                        state = game.result(state, rng.choice(game.actions(state)))
                        continue
                    decision = choose_move(game, state, rng)
                    all_ms.append(decision.elapsed_ms)
                    if decision.source == "search":
                        search_ms.append(decision.elapsed_ms)
                        states += decision.states
                        search_seconds += decision.elapsed_ms / 1000
                        if decision.elapsed_ms >= max(search_ms):
                            worst_position = game.format_board(state)
                    state = game.result(state, decision.move)
        p50, p95, worst = (percentile(all_ms, 0.5), percentile(all_ms, 0.95), max(all_ms))
        print(f"\n## {name}: {len(all_ms)} moves ({len(search_ms)} by search) in {time.perf_counter() - started:.0f} s")
        print("| moves | p50 | p95 | worst | mean |")
        print("|---|---:|---:|---:|---:|")
        print(f"| all | {p50:.1f} ms | {p95:.1f} ms | {worst:.1f} ms | {statistics.fmean(all_ms):.1f} ms |")
        if search_ms:
            print(
                f"| search | {percentile(search_ms, 0.5):.1f} ms | {percentile(search_ms, 0.95):.1f} ms "
                f"| {max(search_ms):.1f} ms | {statistics.fmean(search_ms):.1f} ms |"
            )
            print(f"\nstates/s over the searches: {states / max(search_seconds, 1e-9):,.0f}; slowest: {worst_position}")
        ok = p95 <= P95_TARGET_MS and worst <= WORST_TARGET_MS
        failed |= not ok
        verdict = "PASS" if ok else "MISS"
        print(f"{verdict}: p95 {p95:.0f} ms <= {P95_TARGET_MS:.0f}, worst {worst:.0f} ms <= {WORST_TARGET_MS:.0f}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
