"""Load benchmark: N concurrent games against the real bot through the fake Discord, next to the "floor" bot.

For every N (channels, one game each) it starts a fresh fake Discord (``testing/fake_discord/``) in this
process, a fresh records file and a fresh bot subprocess, then:

1. warms up: 4 extra channels play 2 games each (the search workers started, the code paths hot), then every
   one of the N channels plays one whole game, ``--ramp`` channels at a time, so the allocator's high-water mark
   of that traffic is already in the baseline;
2. holds N games mid-game: ``/ttt start`` in every channel (``play_as`` alternating, so the bot opens half of
   them) and one press each, ``--ramp`` channels at a time; the bot's VmRSS after, minus before, divided by N
   is the memory per active game;
3. runs for ``--seconds`` (or ``--moves`` presses in all): in every channel the player presses a random free
   cell (seeded rng) of the current board message as soon as the previous press was answered, and sends
   ``/ttt start`` again when the game is over.

A press is the player's mark and the bot's reply, answered with one message update. Latency is
:attr:`InteractionRecord.latency` (dispatch on the gateway to the first callback request) of the presses of
step 3. CPU is utime + stime from ``/proc/<pid>/stat`` of the bot process and of its live descendants (the
search workers and multiprocessing's resource tracker), found by scanning the parent pid of every
``/proc/<pid>/stat``: this kernel has no ``/proc/<pid>/task/<tid>/children``. Peak RSS is VmHWM from
``/proc/<pid>/status``. The worst event-loop lag comes from the bot's own "event-loop lag" log lines
(``TTT_LAG_REPORT_SECONDS=1``) over step 3. After the bot stops, the rows of its SQLite records file are
counted against the games that ended on a board: every one must be stored.

The floor is ``testing/floor_bot.py`` under the same load: the same N, a message with a 3x3 board of buttons
per channel, each player pressing any button as soon as the previous press was answered. It runs with the
bot's event-loop lag monitor (``LoopLagMonitor``) added, so its loop lag is measured the same way. A saturated closed
loop delays every bot's loop, the floor's too, so the lag target is judged against the floor's lag in the same run.

``--minimal`` also plays our load against ``testing/minimal_bot.py``, the minimal but correct bot the issue
describes (alpha-beta in an executor, a ``DynamicItem``, a per-channel lock, one edit per press, ``/ttt start`` as
an application command, no records), and prints its CPU per press against the floor's and ours against its: how
much of our cost the game itself needs.

    python -m benchmarks.load [--games 1,10,100] [--seconds 10] [--repeat R] [--quick] [--no-raw] [--minimal]
                              [--processes K] [--bot-root DIR ...]
                              [--profile DIR] [--py-spy DIR] [--tracemalloc] [--think SECONDS] [--ramp K]
                              [--bot-log-level INFO] [--inline-search] [--metrics]

``--metrics`` also runs our bot as two shard processes side by side under the same load, at the same time, one with
its Prometheus metrics on (``METRICS_PORT``, scraped every ``--scrape-every`` s, 15 by default, by this process) and one
without (which one alternates between runs), and prints the CPU per press of each and their ratio (issue 20: the
metrics may cost at most 5 %). Run side by side, the two share every drift of this shared machine's speed.

``--bot-root DIR`` (repeatable) also runs the bot of another checkout under the same load, after ours and before the
floor: e.g. ``git worktree add --detach /work/wt-old-22e2851 22e2851`` for an older commit. Only the bot comes from
there (first on its ``PYTHONPATH``, for its search workers too); the driver, the fake Discord and the floor are this
checkout's. A table then gives each checkout's CPU per press, the floor's of the same N, and the ratios.

``--processes K`` also runs our bot as K shard processes (``DISCORD_SHARD_COUNT=K``, one ``DISCORD_SHARD_IDS``
each) under the same load, with the channels spread over one guild per shard (the fake routes a guild's
events by ``(guild_id >> 22) % K``) and one records file shared by all; it reports presses per second and
p99 against one process. ``--think`` gives the players an exponential think time between presses (an open,
realistic load instead of the default closed loop, which saturates the bot at every N >= 10).

It prints a Markdown table (ours vs the floor per N) and one PASS/MISS line per target, judged at N=100; the exit
code is 1 when a target is missed. This machine is shared and its speed drifts by 10-20 % within a minute, so
``--repeat R`` runs each N R times (ours, then the floor, each time) and judges the median of the R ratios. Every
bot runs from a launcher (``python -c``) that calls its real entry point (``bot.__main__.main``, ``floor_bot.main``,
``minimal_bot.main``) after setting the lag monitor's logger to INFO, so our bot can run at LOG_LEVEL=WARNING
(the cheapest setting: no per-move INFO lines; ``--bot-log-level INFO`` measures the default) and still report its
lag.
Diagnostics (their figures are slower than normal): ``--profile DIR`` runs both bots under cProfile and prints
their hottest functions (cProfile sees only the main thread, and coroutines and SQLAlchemy's greenlets blur its
cumulative times); ``--py-spy DIR`` samples each bot's timed phase with py-spy instead (``--gil``: the thread
running Python, whichever it is, at the bots' normal speed) and prints the share of samples per package and the top
functions by own samples; ``--tracemalloc`` traces our bot's allocations and prints, by line of code, what the held
games added to the heap between two snapshots (each after a ``gc.collect()``); ``--inline-search`` gives our bot an
executor that runs each search on the event loop, to price the executor round trip.

This file is the command: its options and their order of runs. The driver, the fake Discord's players, the
measuring and the report are :mod:`benchmarks.harness`, which ``benchmarks/ultimate_load.py`` and
``benchmarks/capacity.py`` share.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.harness import History, Row, RunResult, fmt, print_report, run_floor, run_ours
from benchmarks.harness.ours import SCRAPE_EVERY

__all__ = ["main"]


async def _run_all(args: argparse.Namespace) -> tuple[list[Row], list[RunResult], list[History]]:
    rows: list[Row] = []
    metered: list[RunResult] = []
    history: list[History] = []
    modes = ["dynamic"] if args.no_raw else ["dynamic", "raw"]
    profile_dir = Path(args.profile) if args.profile else None
    snapshots = Path(tempfile.mkdtemp(prefix="ttt-load-tracemalloc-")) if args.tracemalloc else None
    spy_dir = Path(args.py_spy) if args.py_spy else None
    for directory in (profile_dir, spy_dir):
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
    for index, n in enumerate(n for n in args.games for _ in range(args.repeat)):
        started = time.perf_counter()
        common: dict[str, Any] = {"seconds": args.seconds, "moves": args.moves, "seed": args.seed, "think": args.think}
        mine: dict[str, Any] = {"ramp": args.ramp, "log_level": args.bot_log_level, "inline_search": args.inline_search}
        ours = await run_ours(
            n,
            **common,
            **mine,
            profile=profile_dir / f"ours-{n}.prof" if profile_dir else None,
            snapshots=snapshots,
            sampled=spy_dir / f"ours-{n}.txt" if spy_dir else None,
        )
        others = [await run_ours(n, **common, **mine, bot_root=Path(root).resolve()) for root in args.bot_root]
        if args.metrics:
            side_by_side = {"metrics": True, "metered_shard": index % 2, "scrape_every": args.scrape_every}
            metered.append(await run_ours(n, processes=2, **common, **mine, **side_by_side))
        floors = [
            await run_floor(
                n,
                mode=mode,
                **common,
                profile=profile_dir / f"floor-{mode}-{n}.prof" if profile_dir else None,
                sampled=spy_dir / f"floor-{mode}-{n}.txt" if spy_dir else None,
            )
            for mode in modes
        ]
        if args.minimal:
            floors.append(
                await run_ours(
                    n, **common, ramp=args.ramp, minimal=True, sampled=spy_dir / f"minimal-{n}.txt" if spy_dir else None
                )
            )
        scaled = [await run_ours(n, processes=args.processes, **common, **mine)] if args.processes > 1 else []
        rows.append((ours, floors, scaled))
        if others:
            history.append((ours, others, floors[0]))
        print(
            f"N={n}: {ours.moves} presses ({ours.games} games) vs floor {floors[0].moves}; "
            f"/ttt start p99 {ours.pct_start(0.99):.1f} ms; lag since start {fmt(ours.lag_start_ms)} ms; "
            f"{time.perf_counter() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    return rows, metered, history


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the report; returns the exit status (1 when a target is missed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=lambda s: [int(x) for x in s.split(",")], default=[1, 10, 100])
    parser.add_argument("--quick", action="store_true", help="N=1,10 only")
    parser.add_argument("--seconds", type=float, default=10.0, help="timed phase per N and bot (default 10)")
    parser.add_argument("--moves", type=int, default=None, help="stop each timed phase after this many presses")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0, help="mean think time (s) between presses (default 0)")
    parser.add_argument("--ramp", type=int, default=20, help="games started at a time in the hold phase")
    parser.add_argument("--no-raw", action="store_true", help="skip the raw (on_interaction) floor")
    parser.add_argument("--minimal", action="store_true", help="also run testing/minimal_bot.py under our load")
    parser.add_argument("--repeat", type=int, default=1, help="run each N this many times (ours, then the floor)")
    parser.add_argument("--processes", type=int, default=1, help="also run our bot as this many shard processes")
    parser.add_argument("--bot-log-level", default="WARNING", help="our bot's LOG_LEVEL (default WARNING)")
    parser.add_argument("--profile", metavar="DIR", help="run the bots under cProfile, print the hottest functions")
    parser.add_argument("--py-spy", metavar="DIR", help="sample the bots with py-spy (on PATH) in the timed phase")
    parser.add_argument("--tracemalloc", action="store_true", help="diagnostic: what the held games keep, by line")
    parser.add_argument("--inline-search", action="store_true", help="diagnostic: searches on the loop, no pool")
    parser.add_argument("--metrics", action="store_true", help="also run our bot with its metrics on, and compare")
    parser.add_argument("--scrape-every", type=float, default=SCRAPE_EVERY, help="--metrics: seconds between scrapes")
    parser.add_argument(
        "--bot-root",
        action="append",
        default=[],
        metavar="DIR",
        help="also run the bot of this checkout (e.g. a `git worktree add --detach` of an older commit) under the "
        "same load and compare its CPU per press (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games = [1, 10]

    began, load_before = time.perf_counter(), " ".join(Path("/proc/loadavg").read_text().split()[:3])
    rows, metered, history = asyncio.run(_run_all(args))
    load_after = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    pacing = (
        f"each player presses again after an exponential think time of mean {args.think:g} s"
        if args.think
        else "closed loop (each player presses again as soon as answered)"
    )
    print(
        f"### Load: {len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"{args.seconds:g} s per N and bot, {pacing}, bot LOG_LEVEL={args.bot_log_level}; "
        f"load average before: {load_before}; after: {load_after}\n"
    )
    failed = print_report(rows, metered, history)
    print(f"\n(total {time.perf_counter() - began:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
