"""How long a Connect Four level 1-7 move takes: p50, p95 and the longest, on the positions of calibration games.

Run from the repository root (after ``benchmarks/levels_calibration.py play connect-four``)::

    python -m benchmarks.connect_four_level_times calib/connect-four.jsonl [--games 40] [--seed 1]

Every position of the file's first ``--games`` games (not over) is asked of every level 1-7 through
:func:`engine.levels.choose_move`, once each, with a seeded random generator. The bot plays these levels inline,
in its interaction callback (:meth:`engine.games.connect_four.ConnectFourVariant.answer_ms` says how long they
may take): the longest move is the figure to compare with it. The load average is printed beside the table: the
times are wall clock on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import os
import random
from pathlib import Path

from engine.connect_four.cells import CELLS_GAME
from engine.levels import TOP, choose_move


def positions(path: Path, games: int) -> list[object]:
    """Every position before a move of the first ``games`` Connect Four games in the JSON-lines file ``path``."""
    found = []
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line]
    records = [r for r in map(json.loads, lines) if r["variant"] == "connect-four"][:games]
    for record in records:
        state = CELLS_GAME.initial_state()
        for cell in record["moves"]:
            found.append(state)
            state = CELLS_GAME.result(state, cell)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_file", type=Path, help="a calibration file (JSON lines)")
    parser.add_argument("--games", type=int, default=40, help="games whose positions are timed (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    found = positions(args.games_file, args.games)
    print(f"{len(found)} positions of {args.games} games; load average {os.getloadavg()[0]:.1f}")
    print("| level | p50 ms | p95 ms | max ms |")
    print("|---|---|---|---|")
    for level in range(1, TOP):
        times = sorted(
            choose_move("connect-four", state, level, rng=random.Random(f"{args.seed}/{level}/{i}")).elapsed_ms
            for i, state in enumerate(found)
        )
        p50, p95 = times[len(times) // 2], times[min(len(times) - 1, int(0.95 * len(times)))]
        print(f"| {level} | {p50:.1f} | {p95:.1f} | {times[-1]:.1f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
