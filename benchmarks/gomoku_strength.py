"""Strength of the Gomoku engine's level 8 (1 s a move) against OpenSpiel's MCTSBot given the same second.

Run from the repository root (niced: the machine is shared)::

    nice python -m benchmarks.gomoku_strength --games 10 --wall-clock 1 --out gomoku.jsonl
    python -m benchmarks.gomoku_strength --summary gomoku.jsonl

Our side is :func:`engine.gomoku.play.choose` at ``--level`` (default 8: iterative deepening within 1 s a move),
in this process (Gomoku is not a game of the bot yet, so there is no ``engine serve`` request for it).

The opponent is OpenSpiel's C++ ``pyspiel.MCTSBot`` on ``pyspiel.load_game("gomoku")`` (whose actions are our
cells): random rollouts (``RandomRolloutEvaluator(1, seed)``), UCT constant 2, solver on, ``--wall-clock`` seconds
of wall clock per decision (its simulation cap 10^8, never reached), as in ``benchmarks/ultimate_strength.py``.

Games come in colour-balanced pairs, one game at a time: each pair opens with ``OPENING_PLIES`` random stones in the
centre's 7 x 7 (seeded by ``--openings`` and the pair's number), then our side plays X in one game and O in the
other. Each game is one JSON line appended to ``--out`` as it ends (result, moves, and per move of ours: elapsed ms,
states, and the forced win it reported if any); a run skips the games already in ``--out``. The summary gives W/D/L,
the score (a draw half a point) with its 95% Wilson interval, per colour, time per move (p50/p95/worst) and states
per second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

from benchmarks.ultimate_strength import wilson
from engine.gomoku.play import LEVELS, choose
from engine.gomoku.rules import GOMOKU, SIZE
from engine.protocol import Mark

OPENING_PLIES = 3
_CENTRE_SQUARE = [row * SIZE + column for row in range(4, 11) for column in range(4, 11)]


def play_game(index: int, wall_clock: float, level: int, openings: int) -> dict[str, Any]:
    """Game ``index`` (pair ``index // 2``; ours X when even) against MCTSBot; its JSON-ready record."""
    pair, ours_is_o = divmod(index, 2)
    ours = Mark.O if ours_is_o else Mark.X
    spiel_game = pyspiel.load_game("gomoku")
    spiel_state = spiel_game.new_initial_state()
    evaluator = pyspiel.RandomRolloutEvaluator(1, 5000 + index)
    bot = pyspiel.MCTSBot(
        spiel_game, evaluator, 2.0, 10**8, 2000, True, 5000 + index, False,
        pyspiel.ChildSelectionPolicy.UCT, wall_clock,
    )  # fmt: skip
    opening = random.Random(openings + pair)
    rng = random.Random(index)
    state = GOMOKU.initial_state()
    moves: list[int] = []
    stats: list[tuple[float, int, str]] = []
    while not GOMOKU.terminal(state):
        if len(moves) < OPENING_PLIES:
            cell = opening.choice([c for c in _CENTRE_SQUARE if c not in moves])
        elif GOMOKU.player(state) is ours:
            choice = choose(state, LEVELS[level], rng)
            cell = choice.cell
            stats.append((round(choice.elapsed_ms, 1), choice.states, choice.describe()))
        else:
            cell = bot.step(spiel_state)
        moves.append(cell)
        state = GOMOKU.result(state, cell)
        spiel_state.apply_action(cell)
    assert spiel_state.is_terminal(), f"OpenSpiel's game goes on after {moves}"
    won = GOMOKU.winner(state)
    outcome = "draw" if won is None else "win" if won is ours else "loss"
    return {"index": index, "ours": ours.value, "outcome": outcome, "moves": moves, "ours_stats": stats}


def summary(records: list[dict[str, Any]]) -> str:
    """Markdown lines: W/D/L, score with its Wilson interval, per colour, times and states per second."""
    n = len(records)
    count = {k: sum(r["outcome"] == k for r in records) for k in ("win", "draw", "loss")}
    score = count["win"] + 0.5 * count["draw"]
    low, high = wilson(score, n)
    lines = [
        "| games | W | D | L | score | 95% Wilson (score) |",
        "|---|---|---|---|---|---|",
        f"| {n} | {count['win']} | {count['draw']} | {count['loss']} | {score / max(n, 1):.1%} | "
        f"{low:.1%}-{high:.1%} |",
        "",
    ]
    for mark in ("X", "O"):
        side = [r for r in records if r["ours"] == mark]
        lines.append(
            f"- as {mark}: " + ", ".join(f"{k} {sum(r['outcome'] == k for r in side)}" for k in ("win", "draw", "loss"))
        )
    stats = [s for r in records for s in r["ours_stats"]]  # (elapsed ms, states, forced win)
    if stats:
        times = sorted(s[0] for s in stats)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        rate = sum(s[1] for s in stats) / (sum(times) / 1000.0)
        lines.append(
            f"- our moves: {len(stats)}; time p50 {statistics.median(times):.0f} ms, p95 {p95:.0f} ms, worst "
            f"{times[-1]:.0f} ms; {rate:,.0f} states/s; {sum(bool(s[2]) for s in stats)} reported a forced win"
        )
    return "\n".join(lines)


def main() -> None:
    """Run a match (or summarise a results file) as the module docstring shows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--wall-clock", type=float, default=1.0, help="MCTSBot's seconds per decision")
    parser.add_argument("--level", type=int, default=8, help="our level, 1-8 (default 8)")
    parser.add_argument("--openings", type=int, default=4700, help="the openings' seed (pair p: seed + p)")
    parser.add_argument("--out", help="append each game's JSON line to this file")
    parser.add_argument("--summary", help="only summarise this JSON-lines file")
    args = parser.parse_args()
    if args.summary:
        lines = Path(args.summary).read_text().splitlines()
        print(summary([json.loads(line) for line in lines if line.strip()]))
        return
    start = time.perf_counter()
    out = Path(args.out) if args.out else None
    records = (
        [json.loads(line) for line in out.read_text().splitlines() if line.strip()] if out and out.exists() else []
    )
    done = {r["index"] for r in records}
    played = 0
    for index in range(args.games):
        if index in done:
            continue
        record = play_game(index, args.wall_clock, args.level, args.openings)
        records.append(record)
        played += 1
        if out:
            with out.open("a") as sink:
                sink.write(json.dumps(record) + "\n")
        print(f"game {index}: ours {record['ours']}, {record['outcome']}", file=sys.stderr, flush=True)
    print(
        f"level {args.level} against MCTSBot({args.wall_clock:g} s a decision), {played} games played in "
        f"{time.perf_counter() - start:.0f} s, {len(records)} in all:"
    )
    print(summary(records))


if __name__ == "__main__":
    main()
