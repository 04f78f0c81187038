"""Event-loop lag: how late the loop wakes a task that asked to sleep for a fixed interval.

A search that ran on the event loop instead of in the executor shows up here at once, so the bot
logs the worst lag of each reporting period; the load benchmark reads those lines.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

log = logging.getLogger(__name__)


class LoopLagMonitor:
    """Samples the lag every ``interval`` seconds and logs the worst one every ``report_every`` seconds."""

    def __init__(self, interval: float = 0.05, report_every: float = 60.0) -> None:
        self.interval = interval
        self.report_every = report_every
        self.worst = 0.0
        """Worst lag seen since start, in seconds."""
        self.on_sample: Callable[[float], None] | None = None
        """Called with every sample (seconds), e.g. to feed a histogram."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sampling on the running loop (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag-monitor")

    async def stop(self) -> None:
        """Stop sampling and log the final figure."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
            self._task = None
        log.info("event-loop lag: worst %.1f ms since start", self.worst * 1000)

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        period_worst = 0.0
        period_start = loop.time()
        while True:
            before = loop.time()
            await asyncio.sleep(self.interval)
            lag = max(0.0, loop.time() - before - self.interval)
            if self.on_sample is not None:
                self.on_sample(lag)
            period_worst = max(period_worst, lag)
            self.worst = max(self.worst, lag)
            if loop.time() - period_start >= self.report_every:
                log.info(
                    "event-loop lag: worst %.1f ms in the last %.0f s (%.1f ms since start)",
                    period_worst * 1000,
                    self.report_every,
                    self.worst * 1000,
                )
                period_worst = 0.0
                period_start = loop.time()
