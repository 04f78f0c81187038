"""Fixtures of the game service's tests: an AI whose searches run in threads, and the running games stored in a real
SQLite file."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.games.ai import AI
from bot.games.store import RecordsGames
from bot.records import RunningStore, RunningWriter, open_store


@pytest.fixture
def ai() -> AI:
    """The bot's AI, searching in two threads, seeded."""
    return AI(ThreadPoolExecutor(2), rng=random.Random(1))


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[RecordsGames]:
    """The running games in a real SQLite file (the records tests run the same store on PostgreSQL too)."""
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    writer = RunningWriter(RunningStore(records))
    writer.start()
    yield RecordsGames(records, writer)
    await writer.close(timeout=5)
    await records.close()
