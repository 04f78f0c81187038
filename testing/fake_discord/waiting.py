"""Waiting without polling: futures that the fake re-checks on every change of its state or of a message."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(eq=False)
class Waiter:
    predicate: Callable[..., bool]
    future: asyncio.Future[Any]


class Waiters:
    """The waits of one fake: on its state (any change) and on messages (by channel, or ``None``: every channel).

    ``messages`` is the fake's live message store (channel id -> message id -> message), searched first so that a
    message already there is found at once.
    """

    def __init__(self, messages: dict[str, dict[str, dict[str, Any]]]) -> None:
        self._messages = messages
        self._message_waiters: dict[str | None, list[Waiter]] = {}
        self._state_waiters: list[Waiter] = []

    async def wait_for(self, predicate: Callable[[], bool], timeout: float) -> None:
        """Wait until ``predicate()`` is true (asyncio.TimeoutError after ``timeout`` seconds)."""
        if predicate():
            return
        waiter = Waiter(predicate, asyncio.get_running_loop().create_future())
        self._state_waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter.future, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._state_waiters.remove(waiter)

    async def wait_for_message(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float, channel_id: str | None
    ) -> dict[str, Any]:
        """The first message (existing, created or edited) matching ``predicate``, in ``channel_id`` if given."""
        key = None if channel_id is None else str(channel_id)
        channels = [self._messages.get(key, {})] if key else list(self._messages.values())
        for msg in (m for ch in channels for m in ch.values()):
            if predicate(msg):
                return msg
        waiter = Waiter(predicate, asyncio.get_running_loop().create_future())
        self._message_waiters.setdefault(key, []).append(waiter)
        try:
            message: dict[str, Any] = await asyncio.wait_for(waiter.future, timeout)
            return message
        finally:
            with contextlib.suppress(ValueError):
                self._message_waiters[key].remove(waiter)

    def notify(self, message: dict[str, Any] | None = None) -> None:
        """Re-check the waits: those on ``message``'s channel and on every channel, then those on the state."""
        if message is not None:
            for key in (message["channel_id"], None):
                waiters = self._message_waiters.get(key)
                if waiters:
                    self._check(waiters, message)
        if self._state_waiters:
            self._check(self._state_waiters)

    def cancel(self) -> None:
        """Cancel every pending wait (the fake stopped)."""
        for waiters in [*self._message_waiters.values(), self._state_waiters]:
            for w in waiters:
                w.future.cancel()
        self._message_waiters.clear()
        self._state_waiters.clear()

    @staticmethod
    def _check(waiters: list[Waiter], *args: Any) -> None:
        for w in list(waiters):
            if w.future.done():
                waiters.remove(w)
                continue
            try:
                hit = w.predicate(*args)
            except Exception as exc:  # surface predicate bugs to the waiting test
                w.future.set_exception(exc)
                waiters.remove(w)
                continue
            if hit:
                w.future.set_result(args[0] if args else None)
                waiters.remove(w)
