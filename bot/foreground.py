"""Background work gives way to interactions still waiting for their first callback.

The event loop runs both: answering presses, which a player waits on, and work nobody waits on at that moment (a
slow variant's bot move committed and edited onto its board, the running games written to the database). asyncio
runs whatever is ready in arrival order, so a press that arrives behind a burst of background work waits for all
of it. :class:`Foreground` gives the loop a two-level priority: background work calls :meth:`Foreground.give_way`
before each of its steps, which waits while any interaction is in the foreground (received and not yet
answered), and lets the waiting steps go one per loop iteration once none is, so a press arriving meanwhile waits
for at most one step. Background work is never starved: a step waits at most ``max_wait`` seconds.

Measured with ``benchmarks/ultimate_load.py --games 20 --three 8 --think 0.1`` (one 20 s phase each, three pairs
side by side): the 3x3 presses' p99 with the ultimate games was 16.7, 13.0 and 16.8 ms, against 22.1, 14.3 and
18.6 ms without this; the ultimate games' press-to-bot-move time stayed at a p50 of 1.31-1.32 s.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Callable
from typing import Final

__all__ = ["MAX_WAIT", "STALE_AFTER", "Foreground", "no_wait"]

MAX_WAIT: Final = 0.1
"""The longest a background step waits for the foreground to empty, seconds."""
STALE_AFTER: Final = 3.0
"""Seconds after which an interaction without a first callback no longer counts as foreground (Discord's own
deadline for the first callback: one not answered by then never will be)."""


async def no_wait() -> None:
    """A ``give_way`` that never waits (tests, and callers with no foreground to protect)."""


class Foreground:
    """The interactions received and not yet answered, and a bounded wait for background work until there are none.

    :meth:`enter` when an interaction arrives (its snowflake id), :meth:`leave` when its first callback is sent.
    :meth:`give_way` is awaited by background work before each step. ``clock`` is monotonic seconds.

    Raises:
        ValueError: ``max_wait`` or ``stale_after`` is not positive.
    """

    def __init__(
        self,
        *,
        max_wait: float = MAX_WAIT,
        stale_after: float = STALE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_wait <= 0 or stale_after <= 0:
            raise ValueError(f"max_wait and stale_after must be positive, not {max_wait!r} and {stale_after!r}")
        self.max_wait = max_wait
        self.stale_after = stale_after
        self.clock = clock
        self._open: dict[int, float] = {}
        self._waiters: collections.deque[asyncio.Future[None]] = collections.deque()
        self._releasing = False

    @property
    def pending(self) -> int:
        """Interactions in the foreground (stale ones included until the next :meth:`give_way` drops them)."""
        return len(self._open)

    @property
    def waiting(self) -> int:
        """Background steps waiting to go."""
        return len(self._waiters)

    def enter(self, interaction_id: int) -> None:
        """Interaction ``interaction_id`` arrived: background work waits until it is answered."""
        self._open[interaction_id] = self.clock()

    def leave(self, interaction_id: int) -> None:
        """Interaction ``interaction_id`` is being answered (or will never be); unknown ids are ignored."""
        if self._open.pop(interaction_id, None) is not None and not self._open:
            self._release_soon()

    async def give_way(self) -> None:
        """Return when no interaction is in the foreground and the background steps waiting before this one have
        gone (one per loop iteration), or after ``max_wait`` seconds, whichever is first."""
        self._drop_stale()
        if not self._open and not self.waiting:
            return
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[None] = loop.create_future()
        self._waiters.append(waiter)
        timer = loop.call_later(self.max_wait, _release, waiter)
        try:
            await waiter
        finally:
            timer.cancel()
            with contextlib.suppress(ValueError):  # timed out or cancelled: still queued
                self._waiters.remove(waiter)
            if not self._open:
                self._release_soon()

    def _drop_stale(self) -> None:
        if not self._open:
            return
        limit = self.clock() - self.stale_after
        stale = [key for key, arrived in self._open.items() if arrived < limit]
        for key in stale:
            self.leave(key)

    def _release_soon(self) -> None:
        """Let the next waiting step go on the next loop iteration (so I/O that is ready is read in between)."""
        if self._waiters and not self._releasing:
            self._releasing = True
            asyncio.get_running_loop().call_soon(self._release_next)

    def _release_next(self) -> None:
        self._releasing = False
        if self._open:
            return
        while self._waiters:
            if _release(self._waiters.popleft()):
                return


def _release(waiter: asyncio.Future[None]) -> bool:
    """Let ``waiter`` go; False if it already went (timed out, or its task was cancelled)."""
    if waiter.done():
        return False
    waiter.set_result(None)
    return True
