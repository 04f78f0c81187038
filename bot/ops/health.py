"""Readiness: every shard of the process connected, and the records database answering.

The shards' state comes from discord.py's shard events; the database's from a probe (``SELECT 1``) every
``probe_every`` seconds and from the record writer's own writes. The database counts as ready when its last
answer came within ``max_age`` seconds (a minute) and no probe failed since.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Iterable

__all__ = ["DatabaseHealth", "ShardHealth"]

log = logging.getLogger(__name__)


class ShardHealth:
    """Which of the process's shards are connected to the gateway, and how often each reconnected."""

    def __init__(self, on_reconnect: Callable[[int], None] | None = None) -> None:
        self.on_reconnect = on_reconnect
        self._connected: dict[int, bool] = {}
        self._ever: set[int] = set()

    def expect(self, shard_ids: Iterable[int]) -> None:
        """The process runs ``shard_ids``: each is not ready until it connects."""
        for shard_id in shard_ids:
            self._connected.setdefault(shard_id, False)

    def connected(self, shard_id: int) -> None:
        """The shard identified or resumed; a second and later connection counts as a reconnect."""
        if shard_id in self._ever and self.on_reconnect is not None:
            self.on_reconnect(shard_id)
        self._ever.add(shard_id)
        self._connected[shard_id] = True

    def disconnected(self, shard_id: int) -> None:
        """The shard's gateway connection closed (discord.py reconnects it)."""
        self._connected[shard_id] = False

    def state(self) -> dict[int, bool]:
        """Connected or not, by shard id."""
        return dict(self._connected)

    def not_ready(self) -> list[str]:
        """``shard N`` for each shard not connected (``no shard`` before the first is known)."""
        if not self._connected:
            return ["no shard"]
        return [f"shard {shard}" for shard, up in sorted(self._connected.items()) if not up]


class DatabaseHealth:
    """Whether the records database answered recently: ``ping()`` is awaited every ``probe_every`` seconds with a
    ``timeout``; writes report with :meth:`answered` and :meth:`failed`."""

    def __init__(
        self,
        ping: Callable[[], Awaitable[object]],
        *,
        probe_every: float = 15.0,
        max_age: float = 60.0,
        timeout: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.ping = ping
        self.probe_every = probe_every
        self.max_age = max_age
        self.timeout = timeout
        self.clock = clock
        self.last_answer: float | None = None
        self.failing = False

    def answered(self) -> None:
        """The database answered (a probe or a write)."""
        self.last_answer = self.clock()
        self.failing = False

    def failed(self) -> None:
        """A probe or a write failed: not ready until the database answers again."""
        self.failing = True

    @property
    def ready(self) -> bool:
        """True when the database answered within ``max_age`` seconds and nothing failed since."""
        return not self.failing and self.last_answer is not None and self.clock() - self.last_answer <= self.max_age

    async def probe(self) -> bool:
        """Ping the database once; returns whether it answered within the timeout."""
        try:
            async with asyncio.timeout(self.timeout):
                await self.ping()
        except Exception as error:  # any failure to answer is "not ready"; the reason goes to the log
            if not self.failing:
                log.warning("records database did not answer its health probe: %s", type(error).__name__)
            self.failed()
            return False
        self.answered()
        return True

    async def run(self) -> None:
        """Probe now and every ``probe_every`` seconds, until cancelled."""
        while True:
            await self.probe()
            await asyncio.sleep(self.probe_every)
