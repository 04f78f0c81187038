"""The variants' search pool: admission with a bounded queue (full budget, then reduced, then none), every
ticket given back whatever the search does, and a broken pool replaced once per breakage."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.games.pool import WORKER_NICENESS, SearchPool, Ticket, variant_executor


def test_admission_gives_full_then_reduced_then_no_tickets() -> None:
    pool = SearchPool(None, workers=2, queue_limit=1, reduced_limit=2, reduced_budget_ms=80)
    tickets = [pool.admit() for _ in range(6)]
    assert tickets[:3] == [Ticket(None, False)] * 3
    assert tickets[3:5] == [Ticket(80, True)] * 2
    assert tickets[5] is None and pool.pending == 5
    first = tickets[0]
    assert first is not None
    pool.release(first)
    assert pool.pending == 4 and pool.admit() == Ticket(80, True)


def test_the_default_limits_follow_the_workers() -> None:
    pool = SearchPool(None, workers=3)
    assert (pool.queue_limit, pool.reduced_limit) == (12, 12)
    assert sum(pool.admit() == Ticket(None, False) for _ in range(15)) == 15
    assert pool.admit() is not None and pool.admit() is not None and pool.pending == 17


async def test_a_ticket_is_given_back_when_its_search_ends_or_fails() -> None:
    executor = ThreadPoolExecutor(1)
    pool = SearchPool(executor, workers=1, queue_limit=0, reduced_limit=0)
    gate = threading.Event()
    ticket = pool.admit()
    assert ticket is not None and pool.admit() is None
    running = asyncio.ensure_future(pool.run(ticket, lambda: gate.wait(5) and 42))
    await asyncio.sleep(0)
    assert pool.pending == 1
    gate.set()
    assert await running == 42 and pool.pending == 0

    def fail() -> None:
        raise RuntimeError("worker died")

    ticket = pool.admit()
    assert ticket is not None
    with pytest.raises(RuntimeError):
        await pool.run(ticket, fail)
    assert pool.pending == 0
    executor.shutdown()


class Stalled(Executor):
    """An executor whose searches wait until the test fails or ends them, and which notes how it is shut down."""

    def __init__(self) -> None:
        self.futures: list[Future[Any]] = []
        self.shutdowns: list[tuple[bool, bool]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.futures.append(future)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self.shutdowns.append((wait, cancel_futures))


async def test_a_broken_pool_is_replaced_once_however_many_searches_saw_it() -> None:
    made: list[Executor] = []

    def factory() -> Executor:
        made.append(Stalled() if not made else ThreadPoolExecutor(1))
        return made[-1]

    pool = SearchPool(factory=factory, workers=1, queue_limit=2, reduced_limit=0)
    broken = pool.executor
    assert isinstance(broken, Stalled)
    tickets = [pool.admit() for _ in range(3)]
    searches = [asyncio.ensure_future(pool.run(ticket, int, 1)) for ticket in tickets if ticket is not None]
    while len(broken.futures) < 3:
        await asyncio.sleep(0)
    for future in broken.futures:  # what a dead worker does to every search in its pool
        future.set_exception(BrokenProcessPool("a worker died"))
    outcomes = await asyncio.gather(*searches, return_exceptions=True)
    assert all(isinstance(outcome, BrokenProcessPool) for outcome in outcomes)
    assert pool.replaced == 1 and len(made) == 2 and pool.executor is made[1]
    assert broken.shutdowns == [(False, True)]  # shut down without waiting for it
    ticket = pool.admit()
    assert ticket is not None and await pool.run(ticket, int, 7) == 7 and pool.pending == 0
    made[1].shutdown()


async def test_without_a_factory_a_broken_pool_stays_and_other_failures_replace_nothing() -> None:
    stalled = Stalled()
    pool = SearchPool(stalled, workers=1)
    ticket = pool.admit()
    assert ticket is not None
    running = asyncio.ensure_future(pool.run(ticket, int, 1))
    while not stalled.futures:
        await asyncio.sleep(0)
    stalled.futures[0].set_exception(BrokenProcessPool("a worker died"))
    with pytest.raises(BrokenProcessPool):
        await running
    assert pool.executor is stalled and pool.replaced == 0 and stalled.shutdowns == []
    made: list[Stalled] = []

    def factory() -> Executor:
        made.append(Stalled())
        return made[-1]

    pool = SearchPool(factory=factory, workers=1)
    ticket = pool.admit()
    assert ticket is not None
    running = asyncio.ensure_future(pool.run(ticket, int, 1))
    while not made[0].futures:
        await asyncio.sleep(0)
    made[0].futures[0].set_exception(ValueError("not a broken pool"))
    with pytest.raises(ValueError):
        await running
    assert pool.replaced == 0 and len(made) == 1


def test_a_retry_is_never_refused() -> None:
    pool = SearchPool(None, workers=1, queue_limit=0, reduced_limit=0)
    ticket = pool.admit()
    assert ticket is not None and pool.admit() is None
    assert pool.retry(ticket) == ticket and pool.pending == 2


def test_the_variant_workers_run_at_a_lower_priority_than_the_bot() -> None:
    executor = variant_executor(1, niceness=WORKER_NICENESS)
    try:
        assert executor.submit(os.nice, 0).result(timeout=60) == os.nice(0) + WORKER_NICENESS
    finally:
        executor.shutdown()
