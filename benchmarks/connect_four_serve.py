"""How long ``engine serve`` takes for Connect Four's level 8 over whole games from the empty board.

Run from the repository root (needs the test extra: BitBully plays the strong opponent and checks every move)::

    nice -n 10 python -m benchmarks.connect_four_serve --games 6 --budget-ms 3000

One ``python -m engine serve`` process (``benchmarks/harness/engine_serve.py``) answers every move of level 8, as X
and as O, in whole games against two opponents: uniform random play, and a strong one that plays BitBully's best
column (ties at random) except for a random column with probability ``--noise``. Each bot move is asked in columns,
as people play the game, ``{"variant": "connect-four", "columns": [4, 4, ...], "budget_ms": B, "level": 8}``, and
answered as a column 1-7; the first request of the process is timed like the others (a fresh process: imports, the
book's first read, the solver's table). It prints, over all the bot's moves, the engine's ``elapsed_ms`` and the
round trip (p50, p95, longest), by ply band too, the share of moves from the book, the answers not proven in the
budget (level 7's fallback), and the moves that lost part of the position's exact value by BitBully's scores (0
expected), and the games' results.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

import bitbully

from benchmarks.harness.engine_serve import EngineServe
from benchmarks.ultimate_serve_time import percentile
from engine.connect_four.book_build import scores_of
from engine.connect_four.rules import CONNECT_FOUR, ConnectFourState

__all__ = ["opponent_column"]

GAME = "connect-four"


def opponent_column(solver: Any, moves: list[int], state: ConnectFourState, noise: float, rng: random.Random) -> int:
    """The opponent's column: with probability ``noise`` a random one, else one of BitBully's best (``noise`` 1:
    uniform random play)."""
    legal = CONNECT_FOUR.actions(state)
    if noise >= 1 or rng.random() < noise:
        return rng.choice(legal)
    scores = scores_of(solver, moves, state.discs)
    best = max(scores[column] for column in legal)
    return rng.choice([column for column in legal if scores[column] == best])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per side and opponent")
    parser.add_argument("--budget-ms", type=float, default=3000.0)
    parser.add_argument("--noise", type=float, default=0.1, help="the strong opponent's share of random moves")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng, solver = random.Random(args.seed), bitbully.BitBully()
    elapsed: list[float] = []
    trips: list[float] = []
    by_band: dict[str, list[float]] = {}
    sources: Counter[str] = Counter()
    results: Counter[str] = Counter()
    unproven = lost = 0
    first_ms = None
    started = time.perf_counter()
    with EngineServe() as engine:
        for bot_is_x in (True, False):
            for name, noise in (("random", 1.0), (f"BitBully best, {args.noise:.0%} random", args.noise)):
                for _ in range(args.games):
                    moves: list[int] = []
                    state = CONNECT_FOUR.initial_state()
                    while not CONNECT_FOUR.terminal(state):
                        if (state.discs % 2 == 0) == bot_is_x:
                            columns = [move + 1 for move in moves]
                            request = {"variant": GAME, "columns": columns, "budget_ms": args.budget_ms, "level": 8}
                            answer, trip = engine.ask(request)
                            first_ms = trip if first_ms is None else first_ms
                            column = answer["move"] - 1
                            scores = scores_of(solver, moves, state.discs)
                            lost += scores[column] != max(scores)
                            unproven += not answer["proven"]
                            sources[answer["source"]] += 1
                            elapsed.append(answer["elapsed_ms"])
                            trips.append(trip)
                            band = "0-11" if state.discs <= 11 else "12-15" if state.discs <= 15 else "16-41"
                            by_band.setdefault(band, []).append(trip)
                        else:
                            column = opponent_column(solver, moves, state, noise, rng)
                        moves.append(column)
                        state = CONNECT_FOUR.result(state, column)
                    won = CONNECT_FOUR.winner(state)
                    side = "X" if bot_is_x else "O"
                    outcome = "draw" if won is None else "won" if won.value == side else "lost"
                    results[f"as {side} vs {name}: {outcome}"] += 1
    total = len(trips)
    print(f"engine serve, level 8, budget {args.budget_ms:.0f} ms: {total} bot moves in {sum(results.values())} games")
    for label, values in (("elapsed_ms", elapsed), ("round trip", trips)):
        print(
            f"  {label}: p50 {percentile(values, 0.5):.0f} ms, p95 {percentile(values, 0.95):.0f} ms, "
            f"longest {max(values):.0f} ms"
        )
    for band, values in sorted(by_band.items(), key=lambda item: int(item[0].split("-")[0])):
        p95, longest = percentile(values, 0.95), max(values)
        print(
            f"  round trip, {band} discs before the move: {len(values)} moves, "
            f"p95 {p95:.0f} ms, longest {longest:.0f} ms"
        )
    print(f"  first request of the process: {first_ms:.0f} ms round trip")
    book = sources["book"]
    print(f"  from the book: {book}/{total} ({book / total:.0%}); unproven (level 7's fallback): {unproven}")
    print(f"  moves that lost exact value (BitBully): {lost}")
    for line, count in sorted(results.items()):
        print(f"  {line} {count}")
    print(f"  wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
