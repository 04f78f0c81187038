"""Readiness of the shards and the records database."""

from __future__ import annotations

import asyncio

import pytest

from bot.ops.health import DatabaseHealth, ShardHealth


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_shards_are_ready_once_each_connected_and_a_second_connection_is_a_reconnect() -> None:
    reconnects: list[int] = []
    shards = ShardHealth(on_reconnect=reconnects.append)
    assert shards.not_ready() == ["no shard"]
    shards.expect([0, 1])
    assert shards.not_ready() == ["shard 0", "shard 1"]
    shards.connected(0)
    shards.connected(1)
    assert shards.not_ready() == [] and reconnects == []
    shards.disconnected(1)
    assert shards.not_ready() == ["shard 1"] and shards.state() == {0: True, 1: False}
    shards.connected(1)
    assert shards.not_ready() == [] and reconnects == [1]


async def test_the_database_is_ready_while_it_answered_within_a_minute() -> None:
    clock = Clock()
    answers: list[bool] = [True, False, True]

    async def ping() -> None:
        if not answers.pop(0):
            raise ConnectionRefusedError

    health = DatabaseHealth(ping, max_age=60, clock=clock)
    assert not health.ready  # never answered yet
    assert await health.probe() and health.ready
    clock.now += 61
    assert not health.ready  # too long ago
    assert not await health.probe() and not health.ready
    health.answered()  # a write went through
    assert health.ready
    health.failed()
    assert not health.ready
    assert await health.probe() and health.ready


async def test_a_probe_that_hangs_counts_as_failed_after_its_timeout() -> None:
    async def ping() -> None:
        await asyncio.sleep(10)

    health = DatabaseHealth(ping, timeout=0.01)
    health.answered()
    assert not await health.probe()
    assert not health.ready


@pytest.mark.parametrize("every", [0.01])
async def test_run_probes_repeatedly(every: float) -> None:
    probed = asyncio.Event()
    count = 0

    async def ping() -> None:
        nonlocal count
        count += 1
        if count == 3:
            probed.set()

    health = DatabaseHealth(ping, probe_every=every)
    task = asyncio.create_task(health.run())
    await asyncio.wait_for(probed.wait(), 5)
    task.cancel()
    assert health.ready
