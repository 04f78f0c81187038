"""The variants' search pool: admission with a bounded queue (full budget, then reduced, then none), and every
ticket given back whatever the search does."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot.games.pool import SearchPool, Ticket


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


def test_a_retry_is_never_refused() -> None:
    pool = SearchPool(None, workers=1, queue_limit=0, reduced_limit=0)
    ticket = pool.admit()
    assert ticket is not None and pool.admit() is None
    assert pool.retry(ticket) == ticket and pool.pending == 2
