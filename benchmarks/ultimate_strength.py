"""Strength of the bot's ultimate level 8, played through ``engine serve``: against OpenSpiel's MCTSBot and random play.

Run from the repository root::

    python -m benchmarks.ultimate_strength mcts --games 100 --budget-ms 1000 --wall-clock 1 --out ultimate.jsonl
    python -m benchmarks.ultimate_strength mcts --games 20 --budget-ms 1000 --simulations 1000 --out sims.jsonl
    python -m benchmarks.ultimate_strength random --games 200 --budget-ms 50 --out random.jsonl
    python -m benchmarks.ultimate_strength summary ultimate.jsonl

Our side is ``python -m engine serve`` (``benchmarks/harness/engine_serve.py``, one process per game), asked
``{"variant": "ultimate", "moves": [...], "budget_ms": B, "level": L}`` (``--level``, default 8): the function the
bot and ``engine serve`` play with (:func:`engine.levels.choose_move`), at the bot's budget.

The opponent ``mcts`` is OpenSpiel's C++ ``pyspiel.MCTSBot`` (the same algorithm as the Python
``open_spiel.python.algorithms.mcts.MCTSBot``, much faster): random rollouts (``RandomRolloutEvaluator(1, seed)``),
UCT constant 2, solver on, and either ``--simulations`` per decision or, with ``--wall-clock S``, S seconds of
wall clock per decision (``max_wall_clock_time``; its simulation cap is then 10^8, never reached). OpenSpiel plays
a free move (any open board) in two decisions, the board and then the cell, and gets its budget for each.

Games come in pairs: each pair opens with the same 2 random plies (seeded by ``--openings`` and the pair's number),
then our side plays X in one game and O in the other. Games run one at a time (``--procs``, default 1): two games at
once on two cores share the machine with each other and with everything else, and both sides are timed by the wall
clock. A match refuses to start when the load average of the last minute is above :data:`IDLE_LOAD` (another
program is using the cores) unless ``--busy`` is given; each game records the load average when it ended, and the
summary gives their range.
Each game is one JSON line appended to ``--out`` as soon as it ends (result, and per move of ours: the engine's
``elapsed_ms``, the round trip, the states and whether the answer carried a proved value); a run skips the games
already in ``--out``, so a run cut short can be resumed, and the summary covers every game in the file. The
summary gives W/D/L for our side, the score (a draw is half a point) with its 95% Wilson interval, the same by colour,
the time per decision of both sides (ours: the engine's and the round trip; MCTSBot's: its whole move, one or two
decisions), states per second and the share of our moves played with a proved value. Fewer than :data:`CLAIM_GAMES`
games are marked as not enough for a claim.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import pyspiel

from benchmarks.harness.engine_serve import EngineServe
from engine.protocol import Mark
from engine.ultimate.rules import BIT_OF_CELL, CELL_OF_BIT, UltimateTicTacToe

OPENING_PLIES = 2
IDLE_LOAD = 1.0
"""The highest one-minute load average a match starts under without ``--busy``."""
CLAIM_GAMES = 200
"""The fewest games the summary takes a score from as a claim."""


def _play_openspiel(spiel_state: Any, cell: int) -> None:
    board, inner = divmod(BIT_OF_CELL[cell], 9)
    legal = spiel_state.legal_actions()
    if spiel_state.action_to_string(spiel_state.current_player(), legal[0]).startswith("Choose"):
        spiel_state.apply_action(board)
    spiel_state.apply_action(inner)


Task = tuple[str, int, int, float, float, int, int]
"""(opponent, game index, simulations, budget in ms, wall clock in s, our level, the openings' seed)."""


def play_game(task: Task) -> dict[str, Any]:
    """Play game ``index`` against ``opponent`` ("mcts" or "random"); return its JSON-ready record."""
    with EngineServe() as engine:
        engine.ask({"variant": "ultimate", "moves": [41], "budget_ms": 10, "level": 8})  # imports, before the game
        return _play(engine, task)


def _play(engine: EngineServe, task: Task) -> dict[str, Any]:
    opponent, index, simulations, budget_ms, wall_clock, level, openings = task
    pair, ours_is_o = divmod(index, 2)
    ours = Mark.O if ours_is_o else Mark.X
    game = UltimateTicTacToe()
    state = game.initial_state()
    spiel_game = pyspiel.load_game("ultimate_tic_tac_toe")
    spiel_state = spiel_game.new_initial_state()
    opening = random.Random(openings + pair)
    rng = random.Random(index)
    bot = None
    if opponent == "mcts":
        evaluator = pyspiel.RandomRolloutEvaluator(1, 5000 + index)
        if wall_clock > 0:
            bot = pyspiel.MCTSBot(
                spiel_game, evaluator, 2.0, 10**8, 2000, True, 5000 + index, False,
                pyspiel.ChildSelectionPolicy.UCT, wall_clock,
            )  # fmt: skip
        else:
            bot = pyspiel.MCTSBot(spiel_game, evaluator, 2.0, simulations, 200, True, 5000 + index, False)
    moves: list[int] = []
    ours_stats: list[tuple[float, float, int, bool]] = []
    theirs_ms: list[float] = []
    while not state.is_over:
        if len(moves) < OPENING_PLIES:
            cell = opening.choice(game.actions(state))
        elif game.player(state) is ours:
            request = {"variant": "ultimate", "moves": [m + 1 for m in moves], "budget_ms": budget_ms, "level": level}
            answer, round_trip_ms = engine.ask(request)
            cell = answer["move"] - 1
            ours_stats.append(
                (answer["elapsed_ms"], round(round_trip_ms, 1), answer["states"], answer["value"] is not None)
            )
        elif bot is None:
            cell = rng.choice(game.actions(state))
        else:
            board = -1
            asked = time.perf_counter()
            while True:  # one or two decisions: the board (when free), then the cell
                action = bot.step(spiel_state)
                text = spiel_state.action_to_string(spiel_state.current_player(), action)
                if text.startswith("Choose"):
                    board = action
                    spiel_state.apply_action(action)
                    continue
                board = int(text.split(":")[0].split()[-1])
                spiel_state.apply_action(action)
                break
            theirs_ms.append(round((time.perf_counter() - asked) * 1000.0, 1))
            cell = CELL_OF_BIT[9 * board + action]
            moves.append(cell)
            state = game.result(state, cell)
            continue
        moves.append(cell)
        state = game.result(state, cell)
        _play_openspiel(spiel_state, cell)
    assert spiel_state.is_terminal(), f"OpenSpiel's game goes on after {moves}"
    outcome = "draw" if state.winner is None else "win" if state.winner is ours else "loss"
    return {
        "index": index,
        "ours": ours.value,
        "outcome": outcome,
        "moves": moves,
        "ours_stats": ours_stats,
        "theirs_ms": theirs_ms,
        "load": round(os.getloadavg()[0], 2),
    }


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (Wilson 1927) for a proportion ``successes / n``, at 95% by default."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def summary(records: list[dict[str, Any]]) -> str:
    """Markdown lines: W/D/L, score with its Wilson interval, per colour, depth, states/s and times."""
    n = len(records)
    count = {k: sum(r["outcome"] == k for r in records) for k in ("win", "draw", "loss")}
    score = count["win"] + 0.5 * count["draw"]
    low, high = wilson(score, n)
    wins_low, wins_high = wilson(count["win"], n)
    lines = [
        "| games | W | D | L | score | 95% Wilson (score) | win rate | 95% Wilson (wins) |",
        "|---|---|---|---|---|---|---|---|",
        f"| {n} | {count['win']} | {count['draw']} | {count['loss']} | {score / n:.1%} | {low:.1%}-{high:.1%} "
        f"| {count['win'] / n:.1%} | {wins_low:.1%}-{wins_high:.1%} |",
        "",
    ]
    if n < CLAIM_GAMES:
        lines.append(f"- {n} games: fewer than {CLAIM_GAMES}, not enough for a claim")
    loads = [r["load"] for r in records if "load" in r]
    if loads:
        lines.append(f"- load average (1 min) when the games ended: {min(loads):.2f}-{max(loads):.2f}")
    for mark in ("X", "O"):
        side = [r for r in records if r["ours"] == mark]
        if not side:
            continue
        tally = {k: sum(r["outcome"] == k for r in side) for k in ("win", "draw", "loss")}
        points = tally["win"] + 0.5 * tally["draw"]
        side_low, side_high = wilson(points, len(side))
        lines.append(
            f"- as {mark}: "
            + ", ".join(f"{k} {v}" for k, v in tally.items())
            + f"; score {points / len(side):.1%} (95% Wilson {side_low:.1%}-{side_high:.1%})"
        )
    stats = [s for r in records for s in r["ours_stats"]]  # (elapsed ms, round trip ms, states, proved)
    unproved = [s for s in stats if not s[3]]
    if stats:
        lines.append(
            f"- our moves: {len(stats)}; played with a proved value {sum(s[3] for s in stats) / len(stats):.1%}; "
            f"{sum(s[2] for s in stats) / (sum(s[0] for s in stats) / 1000.0):,.0f} states/s over all of them"
        )
    for label, moves in (("all our moves", stats), ("unproved moves", unproved)):
        if moves:
            parts = []
            for name, column in (("engine's time", 0), ("round trip", 1)):
                times = sorted(s[column] for s in moves)
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
                parts.append(
                    f"{name} p50 {statistics.median(times):.0f} ms, p95 {p95:.0f} ms, worst {times[-1]:.0f} ms"
                )
            lines.append(f"- {label} ({len(moves)}): " + "; ".join(parts))
    theirs = sorted(t for r in records for t in r.get("theirs_ms", ()))
    if theirs:
        p95 = theirs[min(len(theirs) - 1, int(0.95 * len(theirs)))]
        lines.append(
            f"- the opponent's moves ({len(theirs)}): p50 {statistics.median(theirs):.0f} ms, p95 {p95:.0f} ms, "
            f"worst {theirs[-1]:.0f} ms"
        )
    return "\n".join(lines)


def main() -> None:
    """Run a match (or summarise a results file) as the module docstring shows."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("mcts", "random", "summary"))
    parser.add_argument("file", nargs="?", help="summary: the JSON-lines file to read")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--budget-ms", type=float, default=1000.0)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--wall-clock", type=float, default=0.0, help="MCTSBot's seconds per decision (0: none)")
    parser.add_argument("--level", type=int, default=8, help="our level, 1-8 (default 8)")
    parser.add_argument("--openings", type=int, default=1000, help="the openings' seed (pair p: seed + p)")
    parser.add_argument("--procs", type=int, default=1, help="games at once (default 1: one game at a time)")
    parser.add_argument("--busy", action="store_true", help=f"start even when the load average is above {IDLE_LOAD}")
    parser.add_argument("--out", help="append each game's JSON line to this file")
    args = parser.parse_args()
    if args.mode == "summary":
        records = [json.loads(line) for line in Path(args.file).read_text().splitlines() if line.strip()]
        print(summary(records))
        return
    load = os.getloadavg()[0]
    if load > IDLE_LOAD and not args.busy:
        sys.exit(f"the load average is {load:.2f} (above {IDLE_LOAD}): the machine is not idle; --busy runs anyway")
    print(f"load average (1 min) at the start: {load:.2f}", file=sys.stderr)
    start = time.perf_counter()
    out = Path(args.out) if args.out else None
    records = (
        [json.loads(line) for line in out.read_text().splitlines() if line.strip()] if out and out.exists() else []
    )
    done = {r["index"] for r in records}
    tasks = [
        (args.mode, i, args.simulations, args.budget_ms, args.wall_clock, args.level, args.openings)
        for i in range(args.games)
        if i not in done
    ]
    with multiprocessing.get_context("spawn").Pool(args.procs) as pool:
        for record in pool.imap_unordered(play_game, tasks):
            records.append(record)
            if out:
                with out.open("a") as sink:
                    sink.write(json.dumps(record) + "\n")
            print(f"game {record['index']}: ours {record['ours']}, {record['outcome']}", file=sys.stderr, flush=True)
    limit = f"{args.wall_clock:g} s" if args.wall_clock > 0 else f"{args.simulations} simulations"
    opponent = f"MCTSBot({limit} a decision)" if args.mode == "mcts" else "random play"
    print(
        f"level {args.level} through engine serve against {opponent}, {args.budget_ms:.0f} ms a move, "
        f"{len(tasks)} games played in {time.perf_counter() - start:.0f} s, {len(records)} in all:"
    )
    print(summary(records))


if __name__ == "__main__":
    main()
