"""What held games keep on a bot's heap: tracemalloc snapshots the launcher writes on SIGUSR1, and their difference."""

from __future__ import annotations

import asyncio
import signal
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

from benchmarks.harness.process import BenchmarkError, BotProcess

__all__ = ["snapshot", "snapshot_diff"]


async def snapshot(bots: Sequence[BotProcess], snapshots: Path | None, name: str) -> None:
    """Have each bot write a tracemalloc snapshot ``<its directory>/<name>.snapshot`` (the launcher's SIGUSR1)."""
    if snapshots is None:
        return
    for bot in bots:
        directory = Path(bot.env["TTT_BENCH_SNAPSHOTS"])
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "next").write_text(name)
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGUSR1)
        deadline = time.perf_counter() + 60
        while not (directory / f"{name}.snapshot").exists():
            if time.perf_counter() > deadline:
                raise BenchmarkError(f"{bot.name} wrote no tracemalloc snapshot {name!r}")
            await asyncio.sleep(0.1)


def snapshot_diff(directory: Path, games: int, limit: int = 12) -> list[str]:
    """The lines that grew most between the ``before`` and ``held`` snapshots, in bytes per held game."""
    before = tracemalloc.Snapshot.load(str(directory / "before.snapshot"))
    held = tracemalloc.Snapshot.load(str(directory / "held.snapshot"))
    filters = [tracemalloc.Filter(False, tracemalloc.__file__)]
    stats = held.filter_traces(filters).compare_to(before.filter_traces(filters), "lineno")
    total = sum(stat.size_diff for stat in stats)
    lines = [f"{total / games:,.0f} B per held game in all ({games} games in this process)"]
    for stat in stats[:limit]:
        frame = stat.traceback[0]
        where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
        lines.append(f"{stat.size_diff / games:8,.0f} B/game {stat.count_diff / games:6.2f} blocks/game  {where}")
    return lines
