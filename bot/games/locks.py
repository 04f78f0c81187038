"""One ``asyncio.Lock`` per channel, kept only while someone holds or waits for it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["ChannelLocks"]


class ChannelLocks:
    """Serialises the decisions about one channel's game.

    A lock exists while it is held or awaited and is dropped after, so the map holds at most one entry
    per channel with work in flight, however many channels the bot has seen.
    """

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        """Hold ``channel_id``'s lock for the body of an ``async with``."""
        entry = self._locks.get(channel_id)
        if entry is None:
            entry = self._locks[channel_id] = (asyncio.Lock(), [0])
        lock, users = entry
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._locks[channel_id]
