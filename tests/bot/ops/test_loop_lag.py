from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.ops.loop_lag import LoopLagMonitor


async def test_a_blocked_loop_shows_up_as_lag(caplog: pytest.LogCaptureFixture) -> None:
    monitor = LoopLagMonitor(interval=0.01, report_every=0.05)
    monitor.start()
    await asyncio.sleep(0.03)
    time.sleep(0.12)  # block the event loop, as a search run on it would
    with caplog.at_level(logging.INFO, logger="bot.ops.loop_lag"):
        await asyncio.sleep(0.1)
        await monitor.stop()
    assert monitor.worst >= 0.08
    assert any("event-loop lag: worst" in r.getMessage() and "last" in r.getMessage() for r in caplog.records)
    assert "since start" in caplog.records[-1].getMessage()
