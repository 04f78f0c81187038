"""The executor that replaces itself when it breaks: once per breakage however many tasks saw it, the broken one
shut down without waiting, a task submitted to a broken one run in its replacement, other failures replacing
nothing; and the variants' search pool over it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from bot.games.pool import SearchPool
from bot.games.renewing import RenewingExecutor


class Stalled(Executor):
    """An executor whose tasks wait until the test fails or ends them, and which notes how it is shut down;
    ``broken`` makes it refuse new tasks, as a broken process pool does."""

    def __init__(self, *, broken: bool = False) -> None:
        self.futures: list[Future[Any]] = []
        self.shutdowns: list[tuple[bool, bool]] = []
        self.broken = broken

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        if self.broken:
            raise BrokenProcessPool("a worker died before")
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

    renewing = RenewingExecutor(factory)
    pool = SearchPool(renewing, workers=1, queue_limit=2, reduced_limit=0)
    broken = renewing.current
    assert isinstance(broken, Stalled)
    tickets = [pool.admit() for _ in range(3)]
    searches = [asyncio.ensure_future(pool.run(ticket, int, 1)) for ticket in tickets if ticket is not None]
    while len(broken.futures) < 3:
        await asyncio.sleep(0)
    for future in broken.futures:  # what a dead worker does to every search in its pool
        future.set_exception(BrokenProcessPool("a worker died"))
    outcomes = await asyncio.gather(*searches, return_exceptions=True)
    assert all(isinstance(outcome, BrokenProcessPool) for outcome in outcomes)
    assert renewing.replaced == 1 and len(made) == 2 and renewing.current is made[1]
    assert broken.shutdowns == [(False, True)]  # shut down without waiting for it
    ticket = pool.admit()
    assert ticket is not None and await pool.run(ticket, int, 7) == 7 and pool.pending == 0
    renewing.shutdown()


def test_a_task_given_to_a_pool_already_broken_runs_in_its_replacement() -> None:
    made: list[Executor] = []

    def factory() -> Executor:
        made.append(Stalled(broken=True) if not made else ThreadPoolExecutor(1))
        return made[-1]

    renewing = RenewingExecutor(factory, "hint pool")
    assert renewing.submit(int, 5).result(timeout=10) == 5
    assert renewing.replaced == 1 and renewing.current is made[1]
    renewing.shutdown()


async def test_other_failures_replace_nothing() -> None:
    made: list[Stalled] = []

    def factory() -> Executor:
        made.append(Stalled())
        return made[-1]

    renewing = RenewingExecutor(factory)
    running = asyncio.get_running_loop().run_in_executor(renewing, int, 1)
    made[0].futures[0].set_exception(ValueError("not a broken pool"))
    with pytest.raises(ValueError):
        await running
    cancelled = renewing.submit(int, 2)
    cancelled.cancel()
    assert renewing.replaced == 0 and len(made) == 1 and made[0].shutdowns == []
