"""Level 8 of Connect Four against an independent solver on random positions: does every move keep the value?

Positions: random games (uniform random columns, seeded) stopped after 6-36 plies, drawn evenly over that range, the
game not over. On each, level 8's move (:func:`engine.levels.choose_move`, as the bot plays it, the process's kernel
warm from the earlier positions as in the bot's worker) is checked with BitBully (M. Thill, MIT; a test requirement):
the column played must score the best of the position, and a proven value must be BitBully's. Prints the moves that
lost the value, the unproven ones, and the time per move (p50, p95, max) by plies.

Run it niced on a shared machine: ``nice -n 10 python benchmarks/connect_four_exact.py --positions 200``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.connect_four_perfect import scores
from engine.connect_four.book_build import from_pons
from engine.connect_four.rules import CONNECT_FOUR, WIDTH, ConnectFourState
from engine.connect_four.solver import score_value
from engine.levels import choose_move


def positions(count: int, low: int, high: int, seed: int) -> list[tuple[list[int], ConnectFourState]]:
    """``count`` random positions (the columns played, the state), plies spread evenly over ``low``-``high``."""
    rng = random.Random(seed)
    found: list[tuple[list[int], ConnectFourState]] = []
    while len(found) < count:
        plies = low + len(found) % (high - low + 1)
        columns: list[int] = []
        state = CONNECT_FOUR.initial_state()
        while len(columns) < plies and not CONNECT_FOUR.terminal(state):
            column = rng.choice(list(CONNECT_FOUR.actions(state)))
            columns.append(column)
            state = CONNECT_FOUR.result(state, column)
        if len(columns) == plies and not CONNECT_FOUR.terminal(state):
            found.append((columns, state))
    return found


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--low", type=int, default=6)
    parser.add_argument("--high", type=int, default=36)
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: list[tuple[int, float]] = []
    lost = unproven = from_book = 0
    started = time.perf_counter()
    for columns, state in positions(args.positions, args.low, args.high, args.seed):
        theirs = {column: from_pons(score, state.discs) for column, score in scores(columns).items()}
        best = max(theirs.values())
        move = choose_move("connect-four", state, 8, rng=rng)
        column = move.cell % WIDTH
        times.append((state.discs, move.elapsed_ms))
        from_book += move.source == "book"
        kept = theirs[column] == best and (move.value is None or move.value == score_value(best, state.discs))
        if move.value is None:
            unproven += 1
            print(f"unproven: {columns} played {column} ({move.source}, {move.elapsed_ms:.0f} ms)", flush=True)
        if not kept:
            lost += 1
            print(f"LOST VALUE: {columns} played {column}: {theirs} (value {move.value})", flush=True)
    elapsed = [ms for _, ms in times]
    print(
        f"{len(times)} positions of {args.low}-{args.high} plies (seed {args.seed}): {lost} moves lost the value, "
        f"{unproven} unproven, {from_book} from the book; wall {time.perf_counter() - started:.0f} s"
    )
    print(f"ms a move: p50 {percentile(elapsed, 0.5):.1f}, p95 {percentile(elapsed, 0.95):.1f}, max {max(elapsed):.1f}")
    for low in range(args.low, args.high + 1, 6):
        band = [ms for plies, ms in times if low <= plies < low + 6]
        if band:
            print(
                f"  plies {low}-{min(low + 5, args.high)}: {len(band)} positions, median "
                f"{statistics.median(band):.1f} ms, p95 {percentile(band, 0.95):.1f} ms, max {max(band):.1f} ms"
            )


if __name__ == "__main__":
    main()
