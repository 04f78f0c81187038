"""Deadlines per channel (a turn to play, a challenge to answer) as event-loop timer handles."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

__all__ = ["Deadlines"]

log = logging.getLogger(__name__)


class Deadlines:
    """At most one pending deadline per channel; when one passes, ``expire(channel_id, token)`` runs as a task.

    ``token`` is whatever the caller armed the deadline with (a game id), so the callback can check that
    the game it was armed for is still the one running. A ``TimerHandle`` re-armed per move is far
    cheaper than a sleeping task per game.
    """

    def __init__(self, seconds: float, expire: Callable[[int, str], Awaitable[None]]) -> None:
        self.seconds = seconds
        self._expire = expire
        self._handles: dict[int, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._handles)

    def __contains__(self, channel_id: object) -> bool:
        """True when ``channel_id`` has a deadline pending (one that fired is no longer pending)."""
        return channel_id in self._handles

    @property
    def expiring(self) -> int:
        """How many deadlines fired and are still running their expiry (waiting for a channel's lock, say)."""
        return len(self._running)

    async def settled(self) -> None:
        """Wait until every expiry of a deadline that has fired has run (tests, shutdown)."""
        while self._running:
            await asyncio.gather(*self._running, return_exceptions=True)

    def arm(self, channel_id: int, token: str, *, left: float | None = None) -> None:
        """(Re)start ``channel_id``'s deadline, ``seconds`` from now (``left`` seconds when given: the rest of a
        deadline that started earlier); a non-positive ``seconds`` disables it."""
        self.disarm(channel_id)
        if self.seconds > 0:
            loop = asyncio.get_running_loop()
            delay = self.seconds if left is None else max(0.0, left)
            self._handles[channel_id] = loop.call_later(delay, self._fire, channel_id, token)

    def disarm(self, channel_id: int) -> None:
        """Cancel ``channel_id``'s deadline, if any."""
        handle = self._handles.pop(channel_id, None)
        if handle is not None:
            handle.cancel()

    def close(self) -> None:
        """Cancel every deadline and every expiry still running (at shutdown)."""
        for channel_id in list(self._handles):
            self.disarm(channel_id)
        for task in self._running:
            task.cancel()

    def _fire(self, channel_id: int, token: str) -> None:
        self._handles.pop(channel_id, None)
        task = asyncio.get_running_loop().create_task(self._run(channel_id, token), name=f"ttt-deadline-{token}")
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def _run(self, channel_id: int, token: str) -> None:
        try:
            await self._expire(channel_id, token)
        except Exception:
            log.exception("deadline handler failed: channel=%s game=%s", channel_id, token)
