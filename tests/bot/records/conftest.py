"""Fixtures of the records tests: every backend test runs on a SQLite file and on the session's PostgreSQL server."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.records import RecordsStore, open_store
from tests.pg_server import PostgresServer


@dataclass
class Backend:
    """A database for one test and a way to make it unavailable for a while."""

    name: str
    url: str
    password: str | None
    outage: Callable[[], AbstractAsyncContextManager[None]]


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if request.param == "sqlite":
        path = tmp_path / "records.sqlite3"

        @asynccontextmanager
        async def locked() -> AsyncIterator[None]:
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN EXCLUSIVE")
            try:
                yield
            finally:
                holder.execute("COMMIT")
                holder.close()

        return Backend("sqlite", f"sqlite:///{path}", None, locked)

    server: PostgresServer = request.getfixturevalue("postgres_server")

    @asynccontextmanager
    async def stopped() -> AsyncIterator[None]:
        await asyncio.to_thread(server.stop)
        try:
            yield
        finally:
            await asyncio.to_thread(server.start)

    return Backend("postgresql", server.create_database(), server.password, stopped)


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[RecordsStore]:
    # a short SQLite busy timeout makes a locked write fail fast; PostgreSQL refuses connections at once anyway
    store = await open_store(backend.url, timeout=0.1 if backend.name == "sqlite" else 5.0)
    yield store
    await store.close()
