"""N concurrent 3x3 games against our bot (or the minimal bot, or another checkout's) in fresh bot processes."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import socket
import sqlite3
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import aiohttp

from benchmarks.harness.launcher import LAUNCHER, MINIMAL_BOT, ROOT, bot_env, checkout_name
from benchmarks.harness.memory import snapshot, snapshot_diff
from benchmarks.harness.phase import timed_phase
from benchmarks.harness.players import WARM_CHANNELS, WARM_GAMES, Budget, OursDriver, Player, gather
from benchmarks.harness.process import BotProcess, launch
from benchmarks.harness.procfs import status_kb
from benchmarks.harness.results import RunResult, collect, with_profile
from testing.fake_discord import FakeDiscord

__all__ = ["SCRAPE_EVERY", "run_ours"]

SCRAPE_EVERY = 15.0
"""Seconds between two scrapes of ``/metrics`` with ``--metrics`` (Prometheus's default ``scrape_interval``);
``--scrape-every`` changes it."""


async def run_ours(
    n: int,
    *,
    processes: int = 1,
    seconds: float = 10.0,
    moves: int | None = None,
    seed: int = 1,
    think: float = 0.0,
    ramp: int = 20,
    log_level: str = "WARNING",
    profile: Path | None = None,
    inline_search: bool = False,
    snapshots: Path | None = None,
    sampled: Path | None = None,
    minimal: bool = False,
    metrics: bool = False,
    metered_shard: int = 0,
    scrape_every: float = SCRAPE_EVERY,
    bot_root: Path = ROOT,
) -> RunResult:
    """Drive ``n`` concurrent games against ``processes`` fresh bot processes (see the module docstring).

    ``bot_root`` is the checkout whose bot runs (another commit's worktree with ``--bot-root``); the driver, the fake
    Discord and the floor are always this checkout's.

    With ``processes`` > 1 each process runs one shard (``DISCORD_SHARD_COUNT``/``DISCORD_SHARD_IDS``), the
    channels are spread over one guild per shard, and all of them write to one SQLite records file. ``minimal``
    plays the same games against ``testing/minimal_bot.py`` instead, which keeps no records. ``metrics`` turns
    the Prometheus metrics of shard process ``metered_shard`` on (of every process when there is one) and scrapes
    them every ``scrape_every`` s meanwhile.
    """
    label = "minimal" if minimal else "ours" + (f" ({processes} processes)" if processes > 1 else "")
    label += f" @ {checkout_name(bot_root)}" if bot_root != ROOT else ""
    label += " (inline search)" if inline_search else ""
    label += " (metrics)" if metrics else ""
    metrics_ports: list[int] = []
    result = RunResult(label, n)
    with tempfile.TemporaryDirectory(prefix="ttt-load-records-") as records_dir:
        database = Path(records_dir) / "records.sqlite3"
        fake = FakeDiscord(channels=0, guild_shard=(0, processes) if processes > 1 else None)
        async with fake:
            guilds = [fake.default_guild_id] + [
                fake.add_guild(f"Guild {shard}", shard=(shard, processes)) for shard in range(1, processes)
            ]
            channels = _spread(fake, guilds, WARM_CHANNELS + n)
            every = [Player(fake, guild, channel, index, seed) for index, (guild, channel) in enumerate(channels)]
            warm, players = every[:WARM_CHANNELS], every[WARM_CHANNELS:]
            bots = []
            for shard in range(processes):
                extra = {"LOG_LEVEL": log_level, "TTT_TURN_TIMEOUT": "600", "DATABASE_URL": f"sqlite:///{database}"}
                if processes > 1:
                    extra |= {"DISCORD_SHARD_COUNT": str(processes), "DISCORD_SHARD_IDS": str(shard)}
                if profile is not None:
                    extra["TTT_BENCH_PROFILE"] = str(profile.with_suffix(f".{shard}.prof") if shard else profile)
                if inline_search:
                    extra["TTT_BENCH_INLINE_SEARCH"] = "1"
                if snapshots is not None:
                    extra["TTT_BENCH_SNAPSHOTS"] = str(snapshots / f"ours-{n}-{shard}")
                if minimal:
                    extra["TTT_BENCH_REFERENCE"] = str(MINIMAL_BOT)
                if metrics and (processes == 1 or shard == metered_shard):
                    result.metered_shard = shard
                    metrics_ports.append(_free_port())
                    extra["METRICS_PORT"] = str(metrics_ports[-1])
                bots.append(
                    BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra, bot_root), f"{label} #{shard}")
                )
            await launch(bots, fake, commands=True)
            scraper = asyncio.ensure_future(_scrape(metrics_ports, result, scrape_every)) if metrics_ports else None
            try:
                driver = OursDriver(fake, result)
                await gather(driver.play_games(p, WARM_GAMES) for p in warm)
                # One whole game in every channel, started as the held games will be: the allocator's high-water
                # mark of that traffic is then in the baseline, and the held games add only what they keep.
                await gather((driver.play_games(p, 1) for p in players), limit=ramp)
                await asyncio.sleep(1.0)
                result.rss_before_kb = sum(status_kb(bot.pid, "VmRSS") for bot in bots)
                await snapshot(bots, snapshots, "before")
                await gather((driver.open_game(p) for p in players), limit=ramp)
                await asyncio.sleep(1.0)
                result.rss_held_kb = sum(status_kb(bot.pid, "VmRSS") for bot in bots)
                await snapshot(bots, snapshots, "held")

                driver.timed = True
                budget = Budget(moves, seconds, think)
                await timed_phase(result, bots, budget, lambda b: (driver.play(p, b) for p in players), sampled)
            finally:
                if scraper is not None:
                    scraper.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await scraper
                for bot in bots:
                    await bot.stop()
            collect(result, fake, bots)
            result.moves_by_guild = collections.Counter({g: result.moves_by_guild[g] for g in guilds})
            if not minimal:
                result.finished = sum(_finished_boards(player) for player in every)
        result.stored = _stored_games(database)
    if snapshots is not None and not minimal:
        result.memory_top = snapshot_diff(snapshots / f"ours-{n}-0", n // processes)
    return with_profile(result, profile)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _scrape(ports: Sequence[int], result: RunResult, scrape_every: float) -> None:
    """GET ``/metrics`` of every port every ``scrape_every`` s, as Prometheus would, until cancelled."""
    async with aiohttp.ClientSession() as session:
        while True:
            for port in ports:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as answer:
                        body = await answer.read()
                        if answer.status != 200 or b"ttt_interactions_total" not in body:
                            result.errors.append(f"/metrics on port {port} answered {answer.status}")
                except aiohttp.ClientError as error:
                    result.errors.append(f"/metrics on port {port}: {error}")
            await asyncio.sleep(scrape_every)


def _spread(fake: FakeDiscord, guilds: Sequence[str], count: int) -> list[tuple[str, str]]:
    """``count`` new channels, ``(guild_id, channel_id)``, dealt round-robin over ``guilds``."""
    return [(guilds[i % len(guilds)], fake.add_channel(guilds[i % len(guilds)])) for i in range(count)]


def _finished_boards(player: Player) -> int:
    """How many of the boards ``player`` started ended (no free cell left): finished games the bot must store."""
    return sum(1 for message_id in player.boards if not player.free_cells(message_id))


def _stored_games(database: Path) -> int:
    """Rows in the records file's ``games`` table (0 when the file was never created)."""
    if not database.exists():
        return 0
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])
