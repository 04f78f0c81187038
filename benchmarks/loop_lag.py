"""Event-loop lag while engine searches run in a thread pool vs a process pool.

A heartbeat task asks to wake every ``--tick`` ms and records how late it wakes (the lag a gateway
heartbeat or an interaction would see). Meanwhile ``--searches`` searches from the empty board go
through ``loop.run_in_executor`` exactly as ``bot.games.ai`` sends them (``bot.games.moves.bot_move``). "inline" runs
them on the loop itself, to show what an executor saves.

    python -m benchmarks.loop_lag [--searches 20] [--workers 4] [--tick 1]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from concurrent.futures import Executor, ThreadPoolExecutor

from bot.games.ai import search_executor
from bot.games.match import Algorithm
from bot.games.moves import bot_move
from engine import DEFAULT_VARIANT, variant

THREE = variant(DEFAULT_VARIANT)


async def _heartbeat(tick: float, lags: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(tick)
        lags.append(time.perf_counter() - started - tick)


async def _measure(executor: Executor | None, algorithm: Algorithm, searches: int, tick: float) -> tuple[float, ...]:
    loop = asyncio.get_running_loop()
    lags: list[float] = []
    stop = asyncio.Event()
    beat = asyncio.create_task(_heartbeat(tick, lags, stop))
    await asyncio.sleep(tick * 3)
    lags.clear()
    started = time.perf_counter()
    if executor is None:
        for seed in range(searches):
            bot_move(THREE, (), 8, algorithm, None, seed)
            await asyncio.sleep(0)
    else:
        args = (THREE, (), 8, algorithm, None)
        jobs = [loop.run_in_executor(executor, bot_move, *args, seed) for seed in range(searches)]
        await asyncio.gather(*jobs)
    wall = time.perf_counter() - started
    stop.set()
    await beat
    lags.sort()
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))] if lags else 0.0
    return wall, statistics.fmean(lags) if lags else 0.0, p99, lags[-1] if lags else 0.0


async def main(searches: int, workers: int, tick_ms: float) -> None:
    tick = tick_ms / 1000
    threads = ThreadPoolExecutor(max_workers=workers)
    processes = search_executor(workers)  # what the bot uses
    loop = asyncio.get_running_loop()
    # Warm up: start the workers and import the engine in each process before measuring.
    await asyncio.gather(*(loop.run_in_executor(processes, bot_move, THREE, (), 2, "alpha-beta", None, i)
                           for i in range(workers * 2)))  # fmt: skip
    print(f"{searches} searches from the empty board, {workers} workers, heartbeat every {tick_ms:g} ms")
    print(f"{'algorithm':<11} {'executor':<9} {'wall s':>8} {'mean lag ms':>12} {'p99 lag ms':>11} {'max lag ms':>11}")
    for algorithm in ("alpha-beta", "minimax"):
        for name, executor in (("inline", None), ("threads", threads), ("processes", processes)):
            wall, mean, p99, worst = await _measure(executor, algorithm, searches, tick)  # type: ignore[arg-type]
            print(f"{algorithm:<11} {name:<9} {wall:>8.3f} {mean * 1e3:>12.2f} {p99 * 1e3:>11.2f} {worst * 1e3:>11.2f}")
    threads.shutdown()
    processes.shutdown()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--searches", type=int, default=20)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--tick", type=float, default=1.0, help="heartbeat interval in ms")
    args = parser.parse_args()
    asyncio.run(main(args.searches, args.workers, args.tick))
