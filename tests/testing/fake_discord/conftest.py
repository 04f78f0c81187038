"""Fixtures of the fake's tests: a fake answering at once, an authorized HTTP session, no discord.py errors."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import aiohttp
import pytest
import pytest_asyncio

from testing.fake_discord import FakeDiscord
from tests.testing.fake_discord.helpers import TOKEN


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A fake answering at once and accepting IDENTIFYs back to back: these tests check the protocol; the network
    tests (test_faults) set latencies, and the session start limit has tests of its own."""
    async with FakeDiscord(token=TOKEN, latency=(0.0, 0.0), identify_window=0.0) as f:
        yield f


@pytest.fixture
def no_client_errors(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """Fail the test if discord.py logged an error (e.g. an exception swallowed in a command handler)."""
    caplog.set_level(logging.WARNING, logger="discord")
    yield
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR and r.name.startswith("discord")]
    assert errors == []


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
        yield session
