"""Per-channel locks: one holder at a time per channel, channels independent, and no entry left behind."""

from __future__ import annotations

import asyncio

from bot.games.locks import ChannelLocks


async def test_one_holder_at_a_time_per_channel_and_channels_are_independent() -> None:
    locks = ChannelLocks()
    order: list[str] = []
    inside = asyncio.Event()
    release = asyncio.Event()

    async def first() -> None:
        async with locks.hold(1):
            order.append("first in")
            inside.set()
            await release.wait()
            order.append("first out")

    async def second() -> None:
        async with locks.hold(1):
            order.append("second in")

    holder = asyncio.ensure_future(first())
    await inside.wait()
    waiter = asyncio.ensure_future(second())
    async with locks.hold(2):  # another channel is not held up
        order.append("other channel")
    await asyncio.sleep(0)
    assert order == ["first in", "other channel"] and not waiter.done()
    release.set()
    await asyncio.gather(holder, waiter)
    assert order == ["first in", "other channel", "first out", "second in"]


async def test_a_lock_is_dropped_when_nobody_holds_or_waits_for_it() -> None:
    locks = ChannelLocks()
    async with locks.hold(1):
        assert len(locks) == 1
    assert len(locks) == 0
    try:
        async with locks.hold(2):
            raise ValueError("the body failed")
    except ValueError:
        pass
    assert len(locks) == 0
