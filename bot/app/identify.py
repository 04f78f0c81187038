"""Shard sessions that start in order: one IDENTIFY per ``max_concurrency`` bucket per window, across processes.

Discord allows ``max_concurrency`` IDENTIFYs per 5 seconds, one per bucket ``shard_id % max_concurrency``, counted
over every connection of the bot, whichever process opens it; an IDENTIFY too early is refused with an
INVALID_SESSION (https://discord.com/developers/docs/events/gateway#session-start-limit-object). discord.py paces
the shards of one process only (its default ``before_identify_hook`` sleeps 5 s before each IDENTIFY but the first).

:class:`IdentifyPacer` takes that hook's place. A bucket is held from the moment its IDENTIFY may go until the
window has passed: inside the process by an ``asyncio.Lock``; across processes, when the records are in
PostgreSQL, by a transaction-level advisory lock (``pg_try_advisory_xact_lock``) on a connection kept open for the
window, so a process that dies drops its connection and the lock with it. SQLite means one process: the lock in
the process is all there is.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from sqlalchemy import text

from bot.records import RecordsStore, RecordsUnavailableError

__all__ = ["IDENTIFY_LOCK_KEY", "MARGIN_SECONDS", "POLL_SECONDS", "IdentifyPacer"]

log = logging.getLogger(__name__)

IDENTIFY_LOCK_KEY: Final = 0x7474_6964_0000_0000
"""The advisory lock key of bucket 0 ("ttid"); bucket ``b`` locks ``IDENTIFY_LOCK_KEY + b``."""
MARGIN_SECONDS = 0.5
"""Held past the window, for the IDENTIFYs' different transit times to Discord."""
POLL_SECONDS = 0.1
"""How often a process waiting for another's bucket tries its advisory lock again."""
_TRY_LOCK = text("SELECT pg_try_advisory_xact_lock(:key)")


class IdentifyPacer:
    """Paces IDENTIFYs by Discord's session start limit: ``window`` seconds (Discord: 5; 0 paces nothing) between
    two IDENTIFYs of a bucket, shared through ``store`` when it is PostgreSQL. ``max_concurrency()`` gives the
    bot's limit (``GET /gateway/bot``); it is asked once, and 1 (always safe) is used while it cannot answer."""

    def __init__(
        self, window: float, max_concurrency: Callable[[], Awaitable[int]], store: RecordsStore | None = None
    ) -> None:
        self.window = window
        self._max_concurrency = max_concurrency
        self._limit: int | None = None
        self.store = store if store is not None and store.engine.dialect.name == "postgresql" else None
        self._buckets: dict[int, asyncio.Lock] = {}
        self._holds: set[asyncio.Task[None]] = set()

    @property
    def shared(self) -> bool:
        """True when the buckets are held across processes (PostgreSQL)."""
        return self.store is not None

    async def limit(self) -> int:
        """The bot's ``max_concurrency``, asked once; 1 while Discord cannot be asked."""
        if self._limit is None:
            try:
                self._limit = max(1, await self._max_concurrency())
            except Exception as error:  # any failure to ask: pace as the smallest bot, ask again next time
                log.warning("session start limit unknown (%s): one IDENTIFY per window", type(error).__name__)
                return 1
        return self._limit

    async def before_identify(self, shard_id: int) -> None:
        """Return when shard ``shard_id`` may IDENTIFY; its bucket stays held for the window from then on."""
        if self.window <= 0:
            return
        bucket = shard_id % await self.limit()
        ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        hold = asyncio.get_running_loop().create_task(self._hold(bucket, ready), name=f"identify-bucket-{bucket}")
        self._holds.add(hold)
        hold.add_done_callback(self._holds.discard)
        try:
            await ready
        except asyncio.CancelledError:
            hold.cancel()
            raise
        log.debug("shard %d may IDENTIFY (bucket %d)", shard_id, bucket)

    async def _hold(self, bucket: int, ready: asyncio.Future[None]) -> None:
        hold_for = self.window + MARGIN_SECONDS
        async with self._buckets.setdefault(bucket, asyncio.Lock()):
            if self.store is None:
                _release(ready)
                await asyncio.sleep(hold_for)
                return
            try:
                async with self.store.connection(write=True) as connection:
                    while not await connection.scalar(_TRY_LOCK, {"key": IDENTIFY_LOCK_KEY + bucket}):
                        await asyncio.sleep(POLL_SECONDS)
                    _release(ready)
                    await asyncio.sleep(hold_for)
            except RecordsUnavailableError as error:
                if ready.done():  # held for the window already; only the end of the transaction failed
                    return
                log.warning("IDENTIFY bucket %d paced in this process only: %s", bucket, error)
                _release(ready)
                await asyncio.sleep(hold_for)

    async def close(self) -> None:
        """Stop holding any bucket (the transactions roll back, their advisory locks go)."""
        holds = list(self._holds)
        for hold in holds:
            hold.cancel()
        await asyncio.gather(*holds, return_exceptions=True)


def _release(ready: asyncio.Future[None]) -> None:
    if not ready.done():
        ready.set_result(None)
