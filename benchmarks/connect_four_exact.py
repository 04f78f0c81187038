"""Level 8 of Connect Four against an independent solver on random positions: does every move keep the value?

Positions: random games (uniform random columns, seeded) stopped after 6-36 plies, drawn evenly over that range, the
game not over. On each, level 8's move (:func:`engine.levels.choose_move`, as the bot plays it, the process's kernel
warm from the earlier positions as in the bot's worker) is checked with BitBully (M. Thill, MIT; a test requirement):
the column played must score the best of the position, and a proven value must be BitBully's. Prints the moves that
lost the value, the unproven ones, and the time per move (p50, p95, max) by plies.

With ``--pons PATH`` the reference is instead Pascal Pons's ``c4solver`` (github.com/PascalPons/connect4, built by the
user, see docs/connect-four.md), run once over every position and every position after level 8's move: the move keeps
the value when the score after it (negated: the opponent is to move there) equals the position's score.

Run it niced on a shared machine: ``nice -n 10 python benchmarks/connect_four_exact.py --positions 200``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.connect_four_perfect import scores
from engine.connect_four.book_build import from_pons
from engine.connect_four.rules import CELLS, CONNECT_FOUR, WIDTH, ConnectFourState
from engine.connect_four.solver import score_value
from engine.levels import choose_move
from engine.protocol import GameValue


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


def pons_value(score: int, discs: int) -> GameValue:
    """The value, for the side to move, of a position of ``discs`` discs that Pons's solver scores ``score`` (positive:
    the side to move wins with 22 minus its discs at the win; negative: it loses so; 0: a draw)."""
    return score_value(from_pons(score, discs), discs)


def pons_scores(binary: str, lines: list[str]) -> dict[str, int]:
    """Pons's score for the side to move in each position (a line of 1-based columns), by one run of ``binary``.

    Raises:
        RuntimeError: the binary refused a position (one already won, or an illegal move) or failed.
    """
    done = subprocess.run([binary], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True)
    found = {line: int(score) for line, score in (row.split()[:2] for row in done.stdout.splitlines() if row)}
    missing = [line for line in lines if line not in found]
    if missing:
        raise RuntimeError(f"{binary} scored none of {missing[:3]}...: {done.stderr.strip()[-300:]}")
    return found


def after_move(columns: list[int], column: int) -> tuple[str, int | None]:
    """The line of 1-based columns after ``column`` is played, and its score on the solver's scale for the player who
    played it when the game is then over (a win completed at ``n`` discs is ``43 - n``; a full board 0), else None."""
    state = CONNECT_FOUR.initial_state()
    for played in [*columns, column]:
        state = CONNECT_FOUR.result(state, played)
    line = "".join(str(played + 1) for played in [*columns, column])
    if not CONNECT_FOUR.terminal(state):
        return line, None
    return line, (0 if CONNECT_FOUR.winner(state) is None else CELLS + 1 - state.discs)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--low", type=int, default=6)
    parser.add_argument("--high", type=int, default=36)
    parser.add_argument("--seed", type=int, default=48)
    parser.add_argument("--pons", metavar="PATH", help="Pons's c4solver binary as the reference instead of BitBully")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times: list[tuple[int, float]] = []
    lost = unproven = from_book = 0
    started = time.perf_counter()
    chosen = []
    for columns, state in positions(args.positions, args.low, args.high, args.seed):
        move = choose_move("connect-four", state, 8, rng=rng)
        times.append((state.discs, move.elapsed_ms))
        from_book += move.source == "book"
        chosen.append((columns, state, move))
        if move.value is None:
            unproven += 1
            print(
                f"unproven: {columns} played {move.cell % WIDTH} ({move.source}, {move.elapsed_ms:.0f} ms)", flush=True
            )
    lines = ["".join(str(column + 1) for column in columns) for columns, _, _ in chosen]
    after = [after_move(columns, move.cell % WIDTH) for columns, _, move in chosen]
    if args.pons:
        theirs = pons_scores(args.pons, lines + [line for line, over in after if over is None])
    for (columns, state, move), line, (child, over) in zip(chosen, lines, after, strict=True):
        column = move.cell % WIDTH
        if args.pons:
            best = from_pons(theirs[line], state.discs)
            played = over if over is not None else -from_pons(theirs[child], state.discs + 1)
            shown = f"Pons scores {theirs[line]}, after the move {theirs.get(child)}"
        else:
            every = {col: from_pons(score, state.discs) for col, score in scores(columns).items()}
            best, played, shown = max(every.values()), every[column], str(every)
        kept = played == best and (move.value is None or move.value == score_value(best, state.discs))
        if not kept:
            lost += 1
            print(f"LOST VALUE: {columns} played {column}: {shown} (value {move.value})", flush=True)
    elapsed = [ms for _, ms in times]
    print(
        f"{len(times)} positions of {args.low}-{args.high} plies (seed {args.seed}, against "
        f"{'Pons' if args.pons else 'BitBully'}): {lost} moves lost the value, "
        f"{unproven} unproven, {from_book} from the book; wall {time.perf_counter() - started:.0f} s, "
        f"load average {os.getloadavg()[0]:.1f}"
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
