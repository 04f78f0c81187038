"""Capacity of one bot process: how many guilds and active games it holds within Discord's first-callback contract,
and what a shard costs in memory.

Run from the repository root: ``python -m benchmarks.capacity [--games 100,200,400] [--shards 4] [--guilds 200]
[--think 2] [--seconds 20] [--memory-shards 1,4,8] [--guilds-per-shard 50]``.

**Games.** For every N of ``--games`` it starts a fresh fake Discord (``testing/fake_discord/``, REST round trips
of 50-150 ms as in the e2e suite) holding ``--guilds`` guilds spread over ``--shards`` shards, and a fresh bot process
(``python -m bot`` through ``benchmarks/load.py``'s launcher, one SQLite records file) running all of those shards.
It opens N games (one channel each, dealt over the guilds; each player's first press answered), then for ``--seconds``
every player presses a random free cell after an exponential think time of mean ``--think`` seconds (an open load, as
people play), starting a new game when one ends. The contract is Discord's: no first callback later than 3 s, and the
p99 of the presses' first callbacks (dispatch on the gateway to the callback's arrival, measured by the fake) under
100 ms. It prints one row per N and the largest N that kept the contract; it stops at the first N that broke it.

**Memory per shard.** For every S of ``--memory-shards`` it starts the bot with ``DISCORD_SHARD_COUNT=S`` against a
fake holding ``--guilds-per-shard`` guilds per shard (each with a channel and three members), waits until every
shard is ready and the process is quiet, and reads the VmRSS of the bot's main process (its search workers are the
same whatever the shard count). The memory per shard is the least-squares slope of VmRSS over S.

The fake allows one IDENTIFY per 0.2 s per bucket here (Discord: 5 s), so a bot of eight shards starts in seconds.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.harness import (
    LATE,
    LAUNCHER,
    BotProcess,
    Budget,
    OursDriver,
    Player,
    RunResult,
    bot_env,
    descendants,
    gather,
    quantile_ms,
    status_kb,
)
from testing.fake_discord import FakeDiscord

__all__ = ["GamesRow", "MemoryRow", "main", "memory_per_shard", "run_games"]

P99_TARGET_MS = 100.0
IDENTIFY_WINDOW = 0.2
LATENCY = (0.05, 0.15)
"""The fake's REST round trip (seconds), as in the e2e suite."""
OPEN_LIMIT = 20
"""Games opened at once while the N games are set up."""


@dataclass
class GamesRow:
    """One N of the games run."""

    games: int
    guilds: int
    shards: int
    presses: int = 0
    p50_ms: float = math.nan
    p99_ms: float = math.nan
    late: int = 0
    rss_kb: int = 0
    workers_rss_kb: int = 0
    errors: list[str] = field(default_factory=list)

    @property
    def kept(self) -> bool:
        """Whether the contract held: no first callback after 3 s, p99 under 100 ms, no error in the bot's log."""
        return self.late == 0 and self.p99_ms < P99_TARGET_MS and not self.errors and self.presses > 0


@dataclass
class MemoryRow:
    shards: int
    guilds: int
    rss_kb: int


def _fake(guilds: int, shards: int, channels_per_guild: int = 0) -> tuple[FakeDiscord, list[str]]:
    fake = FakeDiscord(
        channels=channels_per_guild, guild_shard=(0, shards), latency=LATENCY, identify_window=IDENTIFY_WINDOW
    )
    ids = [fake.default_guild_id] + [
        fake.add_guild(f"Guild {i}", channels=channels_per_guild, shard=(i % shards, shards)) for i in range(1, guilds)
    ]
    return fake, ids


def _bot(fake: FakeDiscord, shards: int, database: Path, name: str) -> BotProcess:
    extra = {
        "LOG_LEVEL": "WARNING",
        "DATABASE_URL": f"sqlite:///{database}",
        "DISCORD_SHARD_COUNT": str(shards),
        "TTT_TURN_TIMEOUT": "600",
    }
    return BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra), name)


async def _ready(fake: FakeDiscord, bot: BotProcess, shards: int) -> None:
    await bot.start()
    try:
        await fake.wait_for(lambda: len(fake.connected_shards()) == shards and bool(fake.commands()), 120)
    except TimeoutError:
        await bot.stop()
        raise RuntimeError(f"the bot never got its {shards} shards ready:\n{bot.text()[-3000:]}") from None


async def run_games(games: int, *, guilds: int, shards: int, think: float, seconds: float) -> GamesRow:
    """N = ``games`` active games over ``guilds`` guilds and ``shards`` shards of one process (module docstring)."""
    row = GamesRow(games, guilds, shards)
    with tempfile.TemporaryDirectory(prefix="ttt-capacity-") as folder:
        fake, ids = _fake(guilds, shards)
        async with fake:
            dealt = [ids[i % len(ids)] for i in range(games)]
            players = [Player(fake, guild, fake.add_channel(guild), i, 1) for i, guild in enumerate(dealt)]
            for player in players:
                fake.add_member(player.guild_id, player.user)
            bot = _bot(fake, shards, Path(folder) / "records.sqlite3", f"capacity {games}")
            await _ready(fake, bot, shards)
            try:
                result = RunResult("ours", games)
                driver = OursDriver(fake, result)
                await gather((driver.open_game(p) for p in players), limit=OPEN_LIMIT)
                driver.timed = True
                await gather(driver.play(p, Budget(None, seconds, think)) for p in players)
                row.rss_kb = status_kb(bot.pid, "VmRSS")
                row.workers_rss_kb = sum(status_kb(pid, "VmRSS") for pid in descendants(bot.pid))
            finally:
                await bot.stop()
            row.presses = len(result.latencies)
            row.p50_ms, row.p99_ms = quantile_ms(result.latencies, 0.5), quantile_ms(result.latencies, 0.99)
            row.late = sum(1 for r in fake.records if r.latency is None or r.latency > LATE)
            row.errors = bot.errors() + [str(v) for v in fake.violations]
    return row


async def memory_per_shard(shard_counts: list[int], guilds_per_shard: int) -> list[MemoryRow]:
    """VmRSS of the bot's main process with each shard count of ``shard_counts`` (module docstring)."""
    rows = []
    for shards in shard_counts:
        with tempfile.TemporaryDirectory(prefix="ttt-capacity-") as folder:
            fake, ids = _fake(shards * guilds_per_shard, shards, channels_per_guild=1)
            for index, guild in enumerate(ids):
                for member in range(3):
                    fake.add_member(guild, fake.make_user(50_000 + index * 3 + member, f"member{index}-{member}"))
            async with fake:
                bot = _bot(fake, shards, Path(folder) / "records.sqlite3", f"memory {shards}")
                await _ready(fake, bot, shards)
                try:
                    await asyncio.sleep(3.0)  # the GUILD_CREATEs parsed, start-up garbage collected
                    rows.append(MemoryRow(shards, len(ids), status_kb(bot.pid, "VmRSS")))
                finally:
                    await bot.stop()
    return rows


def slope_kb(rows: list[MemoryRow]) -> float:
    """The least-squares slope of VmRSS (KB) over the shard count."""
    if len(rows) < 2:
        return math.nan
    return statistics.linear_regression([r.shards for r in rows], [r.rss_kb for r in rows]).slope


def main(argv: list[str] | None = None) -> int:
    """Run both measurements and print their tables; exit status 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="100,200,400", help="comma-separated numbers of active games")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--guilds", type=int, default=200)
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds between a player's presses")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--memory-shards", default="1,4,8")
    parser.add_argument("--guilds-per-shard", type=int, default=50)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(f"# {platform.python_version()}, {os.cpu_count()} CPUs (shared), {platform.platform()}")
    print(f"\n## Active games: one process, {args.shards} shards, {args.guilds} guilds, think {args.think:g} s")
    print("| games | presses | p50 ms | p99 ms | later than 3 s | bot VmRSS MB | its workers' MB | contract |")
    print("|---:|---:|---:|---:|---:|---:|---:|---|")
    best = 0
    for games in (int(n) for n in args.games.split(",")):
        row = asyncio.run(
            run_games(games, guilds=args.guilds, shards=args.shards, think=args.think, seconds=args.seconds)
        )
        verdict = "kept" if row.kept else "broken" + (f" ({row.errors[0][:80]})" if row.errors else "")
        print(
            f"| {games} | {row.presses} | {row.p50_ms:.1f} | {row.p99_ms:.1f} | {row.late} | "
            f"{row.rss_kb / 1024:.0f} | {row.workers_rss_kb / 1024:.0f} | {verdict} |",
            flush=True,
        )
        if not row.kept:
            break
        best = games
    print(f"\nLargest N within the contract: {best} active games ({args.guilds} guilds, {args.shards} shards)")

    shard_counts = [int(n) for n in args.memory_shards.split(",")]
    rows = asyncio.run(memory_per_shard(shard_counts, args.guilds_per_shard))
    print(f"\n## Memory: {args.guilds_per_shard} guilds per shard (1 channel, 3 members each)")
    print("| shards | guilds | bot VmRSS MB |")
    print("|---:|---:|---:|")
    for memory in rows:
        print(f"| {memory.shards} | {memory.guilds} | {memory.rss_kb / 1024:.1f} |")
    print(f"\nMemory per shard (slope, with its guilds): {slope_kb(rows) / 1024:.2f} MB")
    print(f"\n(run took {time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
