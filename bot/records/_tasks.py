"""The background writers' shared steps (:mod:`bot.records.writer`, :mod:`bot.records.running_writer`): waiting
until what is queued is written, and stopping the writer's task."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

__all__ = ["stop", "wait_written"]


async def wait_written(
    pending: int,
    task: asyncio.Task[None] | None,
    wake: asyncio.Event,
    written: Callable[[], Awaitable[object]],
    timeout: float | None,
) -> bool:
    """Wait up to ``timeout`` seconds (None: no limit) for ``written()`` (what is set or joined once the queue is
    empty), after waking a writer that waits to retry. True at once when nothing is ``pending``; False when the
    writer's ``task`` is not running or the time ran out."""
    if pending == 0:
        return True
    if task is None or task.done():
        return False
    wake.set()
    try:
        await asyncio.wait_for(written(), timeout)
    except TimeoutError:
        return False
    return True


async def stop(task: asyncio.Task[None] | None) -> None:
    """Cancel the writer's ``task`` (if any) and wait until it has ended."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
