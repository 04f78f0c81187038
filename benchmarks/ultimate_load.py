"""Ultimate under load over the fake Discord: N ultimate games against the real bot at once, next to 3x3 games.

The Discord version of ``benchmarks/variant_searches.py`` (which drives the game service alone). One fresh fake
Discord (``testing/fake_discord/``, in this process, every REST answer delayed by a 50-150 ms round trip), one
records file and one bot process started by the harness as ``benchmarks/load.py`` starts it (its launcher and
environment; with ``--bot-root DIR`` another checkout's bot). After a warm-up (a 3x3 game per channel, one ultimate
move, so the search workers are up), it runs phases of ``--seconds`` each, ``--repeat`` times:

1. **3x3 alone**: ``--three`` channels of 3x3 games (``/ttt start``, then random free cells), each pressing again as
   soon as its answer came back (or after an exponential ``--think`` time), as in ``load.py``;
2. **3x3 with ultimate**: the same, while ``--games`` ultimate games run against the bot (``level:8``,
   a 1,000 ms search budget, ``board:buttons``, the player X). Each player presses through the pad: on a free
   choice it first chooses an open small board (``benchmarks/harness/ultimate.py``), then presses a random
   free cell, and presses again as soon as the bot's move is on the board.

The bot's move is on the board when the fake applies the edit of the board message whose buttons carry a version
(the ply, in every ultimate ``custom_id``) two past the one pressed (:func:`shows_bot_move`); the time is taken when
the fake applies that edit, and the press's time when the fake dispatched it. It prints every interaction's first
callback later than 3 s (none allowed), the ultimate presses' answer time and press-to-bot's-move time (p50, p99),
the searches at full and at reduced budget (the board's text says when the budget was cut), the presses refused as
busy, and the 3x3 presses' p99 first-callback latency alone and with the ultimate load, with their ratio, pooled
over the phases and for each pair of adjacent phases.

The contract it checks, one PASS/MISS line each under "The contract" (exit status 1 on a miss): no interaction's
first callback later than 3 s (Discord's deadline) or never, counted over the whole run and shown for the phases with
the ultimate games too, and the 3x3 presses' first-callback p99 with the ultimate games under
:data:`THREE_P99_LIMIT_MS`. A callback Discord refuses as too late (or none) stops that player's channel, not the
run: the phases go on, and the report counts every late callback and the players stopped.

    python -m benchmarks.ultimate_load [--games 20] [--three 4] [--seconds 30] [--repeat 1] [--think 0]
                                       [--seed 1] [--bot-root DIR] [--no-validate]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import statistics
import sys
import tempfile
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

from benchmarks.harness.launcher import LAUNCHER, ROOT, bot_env
from benchmarks.harness.phase import sample_shares, timed_phase
from benchmarks.harness.players import Budget, OursDriver, Player
from benchmarks.harness.process import BenchmarkError, BotProcess, launch
from benchmarks.harness.results import LATE, RunResult, quantile_ms
from benchmarks.harness.ultimate import MOVE_TIMEOUT, UltimatePlayer, UltimateStats
from testing.fake_discord import FakeDiscord, InteractionRecord

ROUND_TRIP = (0.05, 0.15)
"""The fake's REST round trip, seconds (uniform)."""
THREE_P99_LIMIT_MS = 100.0
"""The 3x3 presses' first-callback p99 with the ultimate load must stay under this, ms."""

# ---------------------------------------------------------------------------------------------- the run


@dataclass
class Phase:
    """One timed phase: the 3x3 presses (and the bot's CPU and loop lag), and the ultimate players' figures."""

    loaded: bool
    three: RunResult
    ultimate: UltimateStats
    records: range = range(0)
    """The indexes in the fake's records of the interactions dispatched during the phase."""
    stopped: list[str] = field(default_factory=list)
    """Why players stopped in this phase (a callback refused as too late, or none): their channels play no more."""


async def until_refused(job: Coroutine[Any, Any, None], player: object, phase: Phase, broken: set[int]) -> None:
    """Run one player's ``job``; a refused or missing callback stops that player, not the run, so that every late
    callback of the phase is counted."""
    try:
        await job
    except BenchmarkError as error:
        broken.add(id(player))
        phase.stopped.append(str(error))


async def run(args: argparse.Namespace) -> tuple[list[Phase], FakeDiscord, set[str]]:
    """Warm up, then ``args.repeat`` times a phase of 3x3 alone and one with the ultimate games; returns the phases,
    the fake (its records) and the ultimate games' channels."""
    with tempfile.TemporaryDirectory(prefix="ttt-ultimate-load-") as records:
        extra = {"LOG_LEVEL": "WARNING", "TTT_TURN_TIMEOUT": "600", "DATABASE_URL": f"sqlite:///{records}/r.sqlite3"}
        spec: Literal[False] | None = False if args.no_validate else None
        fake = FakeDiscord(channels=0, latency=ROUND_TRIP, seed=args.seed, spec=spec)
        async with fake:
            guild = fake.default_guild_id
            threes = [Player(fake, guild, fake.add_channel(guild), i, args.seed) for i in range(args.three)]
            ultimates = [UltimatePlayer(fake, guild, fake.add_channel(guild), i, args.seed) for i in range(args.games)]
            warm = UltimatePlayer(fake, guild, fake.add_channel(guild), args.games, args.seed)
            bot = BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra, args.bot_root), "ours")
            await launch([bot], fake, commands=True)
            phases: list[Phase] = []
            broken: set[int] = set()
            try:
                untimed = OursDriver(fake, RunResult("warm-up", args.three))
                await asyncio.gather(*(untimed.play_games(p, 1) for p in threes))
                await warm.start()
                await warm.move(UltimateStats())
                for _ in range(args.repeat):
                    for loaded in (False, True):
                        phase = Phase(loaded, RunResult("3x3" + (" with ultimate" if loaded else ""), args.three),
                                      UltimateStats())  # fmt: skip
                        driver = OursDriver(fake, phase.three)
                        driver.timed = True

                        def plays(budget: Budget, phase: Phase = phase, driver: OursDriver = driver) -> list[Any]:
                            jobs: list[tuple[object, Coroutine[Any, Any, None]]] = [
                                (p, driver.play(p, budget)) for p in threes if id(p) not in broken
                            ]
                            if phase.loaded:
                                jobs += [(u, u.play(phase.ultimate, budget.deadline)) for u in ultimates
                                         if id(u) not in broken]  # fmt: skip
                            return [until_refused(job, player, phase, broken) for player, job in jobs]

                        budget = Budget(None, args.seconds, args.think)
                        name = f"bot-{'loaded' if loaded else 'alone'}-{len(phases)}.txt"
                        spy = args.py_spy / name if args.py_spy else None
                        first = len(fake.records)
                        await timed_phase(phase.three, [bot], budget, plays, spy)
                        phase.records = range(first, len(fake.records))
                        phases.append(phase)
            finally:
                await bot.stop()
            if bot.errors():
                print("\n".join(["bot errors:", *bot.errors()[:40]]), file=sys.stderr)
    return phases, fake, {u.channel_id for u in ultimates}


def pair_ratios(phases: list[Phase]) -> list[float]:
    """The 3x3 p99 ratio of each loaded phase to the phase alone just before it. The machine's speed drifts from
    minute to minute; a pair, run back to back, shares most of that drift, while the pooled ratio does not."""
    ratios = []
    for alone, loaded in itertools.pairwise(phases):
        if not alone.loaded and loaded.loaded and alone.three.latencies and loaded.three.latencies:
            ratios.append(quantile_ms(loaded.three.latencies, 0.99) / quantile_ms(alone.three.latencies, 0.99))
    return ratios


def late_count(records: Sequence[InteractionRecord]) -> tuple[int, int]:
    """(first callbacks later than :data:`LATE`, or never; of those, never answered) among ``records``."""
    never = sum(1 for r in records if r.latency is None)
    return never + sum(1 for r in records if r.latency is not None and r.latency > LATE), never


def _ms(values: list[float], q: float) -> str:
    return f"{quantile_ms(values, q):.0f}" if values else "n/a"


def report(
    args: argparse.Namespace, phases: list[Phase], fake: FakeDiscord, ultimate: set[str], loads: tuple[str, str]
) -> int:
    """Print the figures and a PASS/MISS line per target; returns the exit status (1 when a target is missed)."""
    quiet = [lat for p in phases if not p.loaded for lat in p.three.latencies]
    loaded = [lat for p in phases if p.loaded for lat in p.three.latencies]
    ult = UltimateStats()
    for name in (f.name for f in fields(UltimateStats)):  # the loaded phases' figures, added up
        setattr(ult, name, sum((getattr(p.ultimate, name) for p in phases if p.loaded), getattr(ult, name)))
    late, never = late_count(fake.records)
    during = [fake.records[i] for p in phases if p.loaded for i in p.records]
    late_during, _ = late_count(during)
    late_ultimate, _ = late_count([r for r in fake.records if r.channel_id in ultimate])
    ratio = quantile_ms(loaded, 0.99) / quantile_ms(quiet, 0.99)
    pairs = pair_ratios(phases)
    print(
        f"### Ultimate under load: {len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"{args.games} ultimate games (level 8, up to 1,000 ms) and {args.three} 3x3 channels, "
        f"{ROUND_TRIP[0] * 1000:.0f}-{ROUND_TRIP[1] * 1000:.0f} ms round trips, {args.repeat} x ({args.seconds:g} s "
        f"3x3 alone + {args.seconds:g} s with ultimate); load average before: {loads[0]}; after: {loads[1]}\n"
    )
    print(f"ultimate: {ult.moves} moves, {ult.games} games finished; answer to a press (first callback) p50 "
          f"{_ms(ult.answers, 0.5)} ms, p99 {_ms(ult.answers, 0.99)} ms over {len(ult.answers)} presses")  # fmt: skip
    print(f"ultimate: press to the bot's move on the board: p50 {_ms(ult.to_bot, 0.5)} ms, p99 "
          f"{_ms(ult.to_bot, 0.99)} ms, max {_ms(ult.to_bot, 1.0)} ms over {len(ult.to_bot)} moves; "
          f"{ult.lost} never shown within {MOVE_TIMEOUT:.0f} s")  # fmt: skip
    print(f"ultimate: searches at full budget {ult.full}, at reduced budget {ult.reduced}; presses refused as busy "
          f"{ult.busy}; other refusals {len(ult.refused)} {ult.refused[:3]}")  # fmt: skip
    for phase in phases:
        res = phase.three
        print(f"{res.bot}: {res.moves} presses, p50 {res.pct(0.5):.1f} ms, p99 {res.pct(0.99):.1f} ms; bot CPU "
              f"{res.cpu_main:.1f} s main + {res.cpu_children:.1f} s workers (driver and fake {res.cpu_driver:.1f} s); "
              f"worst loop lag {'n/a' if res.lag_ms is None else f'{res.lag_ms:.0f}'} ms")  # fmt: skip
        if res.samples:
            print(f"  py-spy samples of the bot's main process ({res.samples}):")
            print("\n".join("    " + line for line in sample_shares(res.samples)))
    print(f"3x3 p99 first callback with the ultimate load {quantile_ms(loaded, 0.99):.1f} ms ({len(loaded)} presses), "
          f"without {quantile_ms(quiet, 0.99):.1f} ms ({len(quiet)} presses): {ratio:.2f}x")  # fmt: skip
    if len(pairs) > 1:
        print(f"  each pair of adjacent phases (alone, then with ultimate, 2 x {args.seconds:g} s): "
              f"{', '.join(f'{r:.2f}x' for r in pairs)}; median {statistics.median(pairs):.2f}x")  # fmt: skip
    three_p99 = quantile_ms(loaded, 0.99)
    checks = [
        (
            late == 0,
            f"first callbacks later than {LATE:g} s (or never): {late} of {len(fake.records)} interactions in the "
            f"whole run ({never} never answered; {late_ultimate} in the ultimate games' channels, "
            f"{late - late_ultimate} in the 3x3 channels); {late_during} of {len(during)} in the phases with the "
            f"ultimate games",
        ),
        (
            three_p99 < THREE_P99_LIMIT_MS,
            f"3x3 presses' first-callback p99 with {args.games} ultimate games: {three_p99:.1f} ms "
            f"(limit {THREE_P99_LIMIT_MS:.0f} ms; {len(loaded)} presses)",
        ),
    ]
    cores = len(os.sched_getaffinity(0))
    print(f"\n#### The contract: {args.games} ultimate games at up to 1 s a move on {cores} cores")
    for passed, line in checks:
        print(f"{'PASS' if passed else 'MISS'}: {line}")
    stopped = [line for p in phases for line in p.stopped]
    if stopped:
        print(f"{len(stopped)} players stopped after a refused or missing callback; the first: {stopped[0]}")
    if fake.violations:
        print(f"{len(fake.violations)} bodies the fake refused, the first: {fake.violations[0]}")
    return 0 if all(passed for passed, _ in checks) else 1


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its report; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="ultimate games at once (default 20)")
    parser.add_argument("--three", type=int, default=4, help="3x3 channels (default 4)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds per phase (default 30)")
    parser.add_argument("--repeat", type=int, default=1, help="pairs of phases (3x3 alone, with ultimate)")
    parser.add_argument("--think", type=float, default=0.0, help="3x3 players' mean think time, s (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-validate",
        action="store_true",
        help="the fake does not check bodies against Discord's OpenAPI spec (a cost of the driver's, not the bot's)",
    )
    parser.add_argument("--py-spy", type=Path, metavar="DIR", help="sample the bot's main process in each phase")
    parser.add_argument("--bot-root", type=lambda s: Path(s).resolve(), default=ROOT, metavar="DIR",
                        help="the checkout whose bot runs (default: this one)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.py_spy:
        args.py_spy.mkdir(parents=True, exist_ok=True)
    before = Path("/proc/loadavg").read_text().split()[:3]
    phases, fake, ultimate = asyncio.run(run(args))
    after = Path("/proc/loadavg").read_text().split()[:3]
    return report(args, phases, fake, ultimate, (" ".join(before), " ".join(after)))


if __name__ == "__main__":
    sys.exit(main())
