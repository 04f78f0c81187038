"""Benchmark: the CPU the Prometheus metrics add to one press, measured in-process without Discord.

Run from the repository root: ``python -m benchmarks.metrics_cost [--presses N] [--presses-per-second R]``.
It runs, N times, what :mod:`bot.ops` does for one button press: the arrival (:meth:`InteractionTracker.arrived`),
keeping the interaction (:meth:`~InteractionTracker.attach`), the first callback through the wrapped webhook
adapter's path (:meth:`~InteractionTracker.callback` around an awaitable that returns at once), the search's two
histograms, against the same loop with the callback awaited directly. Interleaved in one run (off, on, off, on...)
and judged on the median, since this machine is shared. It adds the share of a press of the work that does not
come per press: the loop-lag histogram (20 samples a second) and one scrape (``generate_latest``) every
``--scrape-every`` seconds, at ``--presses-per-second`` (one process's load: about 700 here, docs/performance.md).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from types import SimpleNamespace
from typing import Any

from prometheus_client import generate_latest

from bot.ops.interactions import InteractionTracker
from bot.ops.metrics import Metrics

BUTTON = 3


async def _sent() -> str:
    return "ok"


def _parsed(data: dict[str, Any]) -> None:
    """Stands for discord.py's own parser of ``INTERACTION_CREATE``."""


async def without_metrics(presses: int) -> float:
    """Process time (s) of ``presses`` arrivals parsed and callbacks awaited directly."""
    started = time.process_time()
    for interaction_id in range(presses):
        _parsed({"id": interaction_id, "type": BUTTON})
        await _sent()
    return time.process_time() - started


async def with_metrics(presses: int, metrics: Metrics, tracker: InteractionTracker, first_id: int) -> float:
    """Process time (s) of ``presses`` presses through the tracker and the search histograms."""
    seconds, states = metrics.search_seconds_by, metrics.search_states_by

    def parse(
        data: dict[str, Any],
    ) -> None:  # as bot.app.operations.Operations
        tracker.arrived(data)
        _parsed(data)

    async def respond(interaction_id: int) -> Any:  # as bot.app.patches._create_interaction_response
        def send() -> Any:
            return _sent()

        return await tracker.callback(interaction_id, send)

    started = time.process_time()
    for interaction_id in range(first_id, first_id + presses):
        parse({"id": interaction_id, "type": BUTTON})
        interaction: Any = SimpleNamespace(id=interaction_id, extras={})
        tracker.attach(interaction)
        await respond(interaction_id)
        seconds("3x3", "alpha-beta").observe(0.00012)
        states("3x3", "alpha-beta").observe(71)
    return time.process_time() - started


def periodic_us(metrics: Metrics, scrape_every: float, presses_per_second: float) -> tuple[float, float]:
    """The loop-lag samples' and the scrapes' CPU per press (us)."""
    rounds = 2000
    started = time.process_time()
    for _ in range(rounds):
        metrics.loop_lag.observe(0.0005)
    lag_us = (time.process_time() - started) / rounds * 1e6 * 20 / presses_per_second
    started = time.process_time()
    for _ in range(20):
        generate_latest(metrics.registry)
    scrape_us = (time.process_time() - started) / 20 * 1e6 / (scrape_every * presses_per_second)
    return lag_us, scrape_us


async def run(presses: int, rounds: int, scrape_every: float, presses_per_second: float) -> None:
    metrics = Metrics()
    tracker = InteractionTracker(metrics)
    off, on = [], []
    for round_ in range(rounds):
        off.append(await without_metrics(presses) / presses * 1e6)
        on.append(await with_metrics(presses, metrics, tracker, round_ * presses) / presses * 1e6)
    lag_us, scrape_us = periodic_us(metrics, scrape_every, presses_per_second)
    per_press = statistics.median(on) - statistics.median(off)
    total = per_press + lag_us + scrape_us
    print(f"per press: {statistics.median(on):.2f} us with the metrics' hooks, {statistics.median(off):.2f} us without")
    print(f"  the hooks: {per_press:.2f} us (median of {rounds} rounds of {presses:,} presses)")
    print(f"  loop-lag histogram: {lag_us:.2f} us; a scrape every {scrape_every:g} s: {scrape_us:.2f} us")
    print(f"metrics' CPU per press at {presses_per_second:g} presses/s: {total:.1f} us")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--presses", type=int, default=20_000, help="presses per round (default 20,000)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--scrape-every", type=float, default=15.0, help="seconds between scrapes (default 15)")
    parser.add_argument("--presses-per-second", type=float, default=700.0, help="one process's load (default 700)")
    args = parser.parse_args(argv)
    asyncio.run(run(args.presses, args.rounds, args.scrape_every, args.presses_per_second))
    return 0


if __name__ == "__main__":
    sys.exit(main())
