"""Where the variants' long searches run: a process pool sized to the cores, with a bounded queue.

A search of a slow variant (up to a second) is admitted before the player's move is committed, so the answer to
that move can say at once what happens next. Admission hands out a :class:`Ticket`:

- while fewer than ``workers + queue_limit`` searches are pending (running or queued), at the level's budget;
- then, up to ``reduced_limit`` more, at :attr:`SearchPool.reduced_budget_ms` (the board says the bot searched
  with a smaller budget because it is busy);
- beyond that, none: the move is refused privately ("busy"), nothing is committed, and nothing is lost.

So the longest a bot's move can wait behind others is bounded by the queue (about ``queue_limit / workers``
full searches plus ``reduced_limit / workers`` short ones), and the interaction that made the move never waits
for any of it.

A worker that dies (killed by the kernel's OOM killer, say) breaks its whole process pool; in production the
executor is a :class:`~bot.games.renewing.RenewingExecutor`, which replaces it. A failed search may be run once
more (:meth:`SearchPool.retry`); what the bot plays when that fails too is decided by :mod:`bot.games.bot_moves`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from bot.games.workers import die_with_parent, run_when_idle

__all__ = ["DEFAULT_BUDGET_MS", "REDUCED_BUDGET_MS", "WORKER_NICENESS", "SearchPool", "Ticket", "variant_executor"]

T = TypeVar("T")

DEFAULT_BUDGET_MS: Final = 1000.0
"""A variant search's budget at the strongest level, ms."""
REDUCED_BUDGET_MS: Final = 150.0
"""The budget of a search admitted while the queue is full, ms."""
WORKER_NICENESS: Final = 10
"""How much lower a search worker's scheduling priority is than the bot's (``os.nice``); on Linux the worker also
runs under ``SCHED_IDLE``, so it gets a core only when nothing of normal priority wants it. A worker searches on the
cores the event loop leaves idle: the answers to presses (a 3x3 move, the player's move on a variant) do not queue
behind a second-long search for the same core (``benchmarks/ultimate_load.py``: with 20 ultimate games next to 4
closed-loop 3x3 channels, the 3x3 presses' p99 was 2.15x their p99 without the games at nice 10 alone, 1.34x with
``SCHED_IDLE`` and the pictures drawn in a process of their own; one run each). A search's budget is wall time, so
a busy machine costs it states searched, not time."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """An admitted search: its budget in ms (``None``: the level's own), and ``reduced`` when it was cut because the
    pool was busy."""

    budget_ms: float | None
    reduced: bool


def variant_executor(workers: int | None = None, niceness: int = WORKER_NICENESS) -> ProcessPoolExecutor:
    """A process pool for the variants' searches: one spawned worker per core (never forked, so a worker never
    inherits the event loop or its sockets), each killed with the bot even when it is killed with SIGKILL
    (:func:`bot.games.workers.die_with_parent`) and running ``niceness`` below the bot's priority."""
    return ProcessPoolExecutor(
        max_workers=workers or os.cpu_count() or 1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), niceness),
    )


def _start_worker(parent_pid: int, niceness: int) -> None:
    """A search worker's initializer: die with the process ``parent_pid``, then run only on idle cores
    (:func:`bot.games.workers.run_when_idle`, ``niceness`` lower where ``SCHED_IDLE`` is missing)."""
    die_with_parent(parent_pid)
    run_when_idle(niceness)


class SearchPool:
    """Admits and runs the variants' searches in ``executor`` (``None``: the loop's default; in production a
    :class:`~bot.games.renewing.RenewingExecutor` of :func:`variant_executor`).

    ``workers`` is the executor's parallelism (the cores); ``queue_limit`` how many full-budget searches may wait
    beyond it; ``reduced_limit`` how many reduced ones beyond that.
    """

    def __init__(
        self,
        executor: Executor | None = None,
        *,
        workers: int | None = None,
        queue_limit: int | None = None,
        reduced_limit: int | None = None,
        reduced_budget_ms: float = REDUCED_BUDGET_MS,
    ) -> None:
        self.executor = executor
        self.workers = workers or os.cpu_count() or 1
        self.queue_limit = 4 * self.workers if queue_limit is None else queue_limit
        self.reduced_limit = 4 * self.workers if reduced_limit is None else reduced_limit
        self.reduced_budget_ms = reduced_budget_ms
        self._pending = 0

    @property
    def pending(self) -> int:
        """Searches admitted and not finished (running or queued)."""
        return self._pending

    def admit(self) -> Ticket | None:
        """Reserve a place for one search, or ``None`` when the pool is full even for a reduced one. Every ticket
        must be given back: by :meth:`run`, or by :meth:`release` when the search is not run after all."""
        full = self.workers + self.queue_limit
        if self._pending < full:
            self._pending += 1
            return Ticket(None, False)
        if self._pending < full + self.reduced_limit:
            self._pending += 1
            return Ticket(self.reduced_budget_ms, True)
        return None

    def release(self, ticket: Ticket) -> None:
        """Give back ``ticket`` unused."""
        self._pending -= 1

    def retry(self, ticket: Ticket) -> Ticket:
        """Reserve a place again for ``ticket``'s search, which failed, to run it once more (by :meth:`run`).
        Never refused: the search was admitted once, so the pending count may pass the limits by the retries."""
        self._pending += 1
        return ticket

    async def run(self, ticket: Ticket, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` in the executor for ``ticket``, which is given back when it ends (or fails).

        Raises:
            whatever ``fn`` raises, and ``concurrent.futures.process.BrokenProcessPool`` when a worker died.
        """
        try:
            return await asyncio.get_running_loop().run_in_executor(self.executor, fn, *args)
        finally:
            self._pending -= 1
