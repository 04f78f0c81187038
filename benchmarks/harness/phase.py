"""The timed phase: the players play while the bots' CPU, wall time and event-loop lag are measured (and, on
request, py-spy samples the bot)."""

from __future__ import annotations

import asyncio
import collections
import gc
import re
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.harness.players import Budget, gather
from benchmarks.harness.process import BotProcess
from benchmarks.harness.procfs import cpu_seconds, status_kb
from benchmarks.harness.results import RunResult

__all__ = ["sample_shares", "timed_phase"]


async def timed_phase(
    result: RunResult,
    bots: Sequence[BotProcess],
    budget: Budget,
    plays: Callable[[Budget], Iterable[Coroutine[Any, Any, None]]],
    sampled: Path | None = None,
) -> None:
    """Play ``budget`` out with every player, recording CPU, wall time and the bots' worst loop lag meanwhile
    (and, with ``sampled``, py-spy samples of the first bot process into that file)."""
    pids = [bot.pid for bot in bots]
    # This process is the fake Discord: a full collection of its heap (every interaction recorded so far) would
    # stall every answer for up to ~200 ms, a pause of the benchmark, not of the bot.
    gc.collect()
    gc.disable()
    cpu_before, driver_before = {pid: cpu_seconds(pid) for pid in pids}, time.process_time()
    started = time.perf_counter()
    try:
        sampler = await start_sampling(pids[0], budget, sampled) if sampled is not None else None
        await gather(plays(budget))
    finally:
        gc.enable()
    ended = time.perf_counter()
    if sampler is not None:
        await sampler.wait()
        result.samples = str(sampled)
    measure(result, pids, cpu_before, driver_before, ended - started)
    lags = []
    for bot in bots:
        await bot.wait_for_lag_line(ended)
        lags.append(bot.lag_ms(started, time.perf_counter()))
    result.lag_ms = max((lag for lag in lags if lag is not None), default=None)


def measure(
    result: RunResult,
    pids: Sequence[int],
    cpu_before: dict[int, dict[int, float]],
    driver_before: float,
    elapsed: float,
) -> None:
    """CPU (the bot processes, their descendants, this process) and peak RSS at the end of the timed phase."""
    result.elapsed = elapsed
    result.cpu_driver = time.process_time() - driver_before
    for pid in pids:
        before, after = cpu_before[pid], cpu_seconds(pid)
        result.cpu_main += after[pid] - before.get(pid, 0.0)
        result.cpu_children += sum(t - before.get(p, 0.0) for p, t in after.items() if p != pid)
        result.cpu_by_process.append(sum(t - before.get(p, 0.0) for p, t in after.items()))
        result.children += len(after) - 1
        result.hwm_main_kb += status_kb(pid, "VmHWM")
        result.hwm_children_kb += [status_kb(p, "VmHWM") for p in after if p != pid]
    result.hwm_children_kb.sort(reverse=True)


async def start_sampling(pid: int, budget: Budget, path: Path) -> asyncio.subprocess.Process:
    """``py-spy record --gil`` of ``pid`` (the thread holding the GIL: where Python spends CPU) until the budget's
    deadline, as raw stacks."""
    seconds = max(1, int(budget.deadline - time.perf_counter()) - 1)
    command = [
        "py-spy",
        "record",
        "-p",
        str(pid),
        "-d",
        str(seconds),
        "-r",
        "200",
        "-f",
        "raw",
        "-o",
        str(path),
        "--gil",
    ]
    return await asyncio.create_subprocess_exec(
        *command, "--nonblocking", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )


IDLE_FRAMES = ("concurrent/futures/thread.py:81)", "aiosqlite/core.py:59)")
"""Leaf frames of threads waiting for work (a thread pool's queue, aiosqlite's queue): not CPU."""


def sample_shares(path: str, limit: int = 12) -> list[str]:
    """The share of py-spy samples (``-f raw`` stacks) by package or module of the leaf frame, then the top
    functions by own samples: what the process spent its CPU on."""
    packages: collections.Counter[str] = collections.Counter()
    functions: collections.Counter[str] = collections.Counter()
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        leaf = stack.rsplit(";", 1)[-1]
        if not count.isdigit() or leaf.endswith(IDLE_FRAMES):
            continue
        where = leaf[leaf.find("(") + 1 : leaf.rfind(":")]
        packages[where.split("/", 1)[0] if "/" in where else where] += int(count)
        functions[re.sub(r":\d+\)$", ")", leaf)] += int(count)
    total = sum(packages.values()) or 1
    lines = [f"{100 * n / total:5.1f}%  {name}" for name, n in packages.most_common(limit)]
    lines.append(f"top functions by own samples ({total} samples):")
    lines += [f"{100 * n / total:5.1f}%  {name}" for name, n in functions.most_common(limit)]
    return lines
