"""Deadlines per channel: one pending per channel, re-arming replaces it, disarming and closing cancel it, and a
failing expiry is logged. Time is the event loop's, advanced by a zero-second deadline, never a sleep."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.games.timers import Deadlines


class Expiries:
    def __init__(self) -> None:
        self.seen: list[tuple[int, str]] = []
        self.fired = asyncio.Event()

    async def __call__(self, channel_id: int, token: str) -> None:
        self.seen.append((channel_id, token))
        self.fired.set()


async def test_a_deadline_fires_once_with_its_token() -> None:
    expired = Expiries()
    deadlines = Deadlines(0.001, expired)
    deadlines.arm(1, "g1")
    assert 1 in deadlines and len(deadlines) == 1
    await expired.fired.wait()
    assert expired.seen == [(1, "g1")] and 1 not in deadlines


async def test_rearming_replaces_the_pending_deadline() -> None:
    expired = Expiries()
    deadlines = Deadlines(0.001, expired)
    deadlines.arm(1, "old")
    deadlines.arm(1, "new")
    assert len(deadlines) == 1
    await expired.fired.wait()
    assert expired.seen == [(1, "new")]


async def test_disarm_and_close_cancel() -> None:
    expired = Expiries()
    deadlines = Deadlines(60, expired)
    deadlines.arm(1, "a")
    deadlines.arm(2, "b")
    deadlines.disarm(1)
    assert 1 not in deadlines and 2 in deadlines
    deadlines.close()
    assert len(deadlines) == 0 and expired.seen == []


async def test_a_non_positive_duration_disables_deadlines() -> None:
    deadlines = Deadlines(0, Expiries())
    deadlines.arm(1, "g")
    assert len(deadlines) == 0


async def test_a_failing_expiry_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    done = asyncio.Event()

    async def broken(channel_id: int, token: str) -> None:
        done.set()
        raise RuntimeError("boom")

    deadlines = Deadlines(0.001, broken)
    with caplog.at_level(logging.ERROR, logger="bot.games.timers"):
        deadlines.arm(3, "g3")
        await done.wait()
        await deadlines.settled()
    assert any("deadline handler failed" in r.getMessage() and "g3" in r.getMessage() for r in caplog.records)


async def test_an_expiry_that_fired_is_counted_until_it_has_run() -> None:
    release = asyncio.Event()
    ran: list[str] = []

    async def waits(channel_id: int, token: str) -> None:
        await release.wait()  # as an expiry waits for its channel's lock
        ran.append(token)

    deadlines = Deadlines(0.001, waits)
    deadlines.arm(4, "g4")
    assert deadlines.expiring == 0
    while deadlines.expiring == 0:  # the event loop's timer fires after 1 ms
        await asyncio.sleep(0.001)
    assert deadlines.expiring == 1 and 4 not in deadlines and ran == []
    release.set()
    await deadlines.settled()
    assert deadlines.expiring == 0 and ran == ["g4"]
