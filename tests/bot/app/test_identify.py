"""The IDENTIFY pacer: a bucket held by one process (one store on PostgreSQL) keeps another's IDENTIFY waiting, other
buckets go at once, and a SQLite bot paces its own shards only."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app.identify import IdentifyPacer
from bot.records import RecordsStore, open_store
from tests.pg_server import PostgresServer

pytestmark = pytest.mark.asyncio

WINDOW = 0.3
"""Seconds a bucket is held (plus the pacer's margin); short, so the waits below stay short."""


@pytest.fixture
async def postgres_stores(postgres_server: PostgresServer) -> AsyncIterator[tuple[RecordsStore, RecordsStore]]:
    """Two stores (two engines, as two processes have) on one fresh PostgreSQL database."""
    url = postgres_server.create_database()
    first, second = await open_store(url), await open_store(url)
    yield first, second
    await first.close()
    await second.close()


async def test_processes_on_one_postgresql_take_turns_per_bucket(
    postgres_stores: tuple[RecordsStore, RecordsStore],
) -> None:
    async def two() -> int:
        return 2

    one, other = (IdentifyPacer(WINDOW, two, store) for store in postgres_stores)
    assert one.shared and other.shared
    try:
        await asyncio.wait_for(one.before_identify(0), 5)  # bucket 0 is held by the first process now
        waiting = asyncio.create_task(other.before_identify(2))  # 2 % 2: bucket 0 too
        await asyncio.wait_for(other.before_identify(1), 5)  # bucket 1 is free
        await asyncio.sleep(WINDOW / 3)
        assert not waiting.done(), "the second process identified inside the first one's window"
        await asyncio.wait_for(waiting, 5)  # and goes once the window has passed
    finally:
        await one.close()
        await other.close()


async def test_a_process_that_stops_lets_go_of_its_bucket(postgres_stores: tuple[RecordsStore, RecordsStore]) -> None:
    async def one_bucket() -> int:
        return 1

    holder, other = (IdentifyPacer(60.0, one_bucket, store) for store in postgres_stores)
    await asyncio.wait_for(holder.before_identify(0), 5)
    waiting = asyncio.create_task(other.before_identify(1))
    await asyncio.sleep(0.3)
    assert not waiting.done()
    await holder.close()  # a closing bot (or a dead one's dropped connection) ends the transaction and its lock
    await asyncio.wait_for(waiting, 5)
    await other.close()


async def test_on_sqlite_the_process_paces_its_own_shards(tmp_path: Path) -> None:
    store = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    asked = 0

    async def limit() -> int:
        nonlocal asked
        asked += 1
        return 1

    pacer = IdentifyPacer(WINDOW, limit, store)
    try:
        assert not pacer.shared
        await asyncio.wait_for(pacer.before_identify(0), 5)
        second = asyncio.create_task(pacer.before_identify(1))
        await asyncio.sleep(WINDOW / 3)
        assert not second.done()
        await asyncio.wait_for(second, 5)
        assert asked == 1, "the session start limit is asked once"
    finally:
        await pacer.close()
        await store.close()


async def test_an_unknown_limit_paces_as_one_bucket_and_a_zero_window_not_at_all() -> None:
    async def failing() -> int:
        raise OSError("Discord unreachable")

    pacer = IdentifyPacer(WINDOW, failing)
    assert await pacer.limit() == 1
    await asyncio.wait_for(pacer.before_identify(3), 5)
    blocked = asyncio.create_task(pacer.before_identify(4))
    await asyncio.sleep(WINDOW / 3)
    assert not blocked.done()
    blocked.cancel()
    await pacer.close()

    unpaced = IdentifyPacer(0.0, failing)
    for shard in range(3):
        await asyncio.wait_for(unpaced.before_identify(shard), 1)
