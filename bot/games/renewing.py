"""An executor that replaces itself when it breaks: a process pool whose worker died (killed by the kernel's OOM
killer, say) fails every task in it with ``BrokenProcessPool``, and would fail every later one too.

:class:`RenewingExecutor` hands each task to the executor its ``factory`` made. When a task fails because that
executor is broken, a fresh one is made (once per breakage, however many tasks saw it) and the broken one is shut
down without waiting for it. The task that failed still fails; running it again is the caller's choice (the bot's
move is retried by :mod:`bot.games.bot_moves`). The bot's three process pools (plain minimax on 3x3, hints and
reviews, the variants' searches) are each one of these.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future
from typing import Any, TypeVar

__all__ = ["RenewingExecutor"]

T = TypeVar("T")
log = logging.getLogger(__name__)


class RenewingExecutor(Executor):
    """Runs tasks in ``factory()``'s executor, replaced by a fresh ``factory()`` when it breaks.

    ``name`` names it in the log. ``replaced`` counts the executors replaced so far; ``current`` is the one in use.
    A task submitted to an executor that is already broken is submitted once more to its replacement.
    """

    def __init__(self, factory: Callable[[], Executor], name: str = "pool") -> None:
        self.factory = factory
        self.name = name
        self.current = factory()
        self.replaced = 0
        self._lock = threading.Lock()  # a breakage is seen in the pool's own threads as well as in the loop's

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """Submit ``fn(*args, **kwargs)`` to the current executor (to a fresh one if it is already broken)."""
        executor = self.current
        try:
            future = executor.submit(fn, *args, **kwargs)
        except BrokenExecutor:
            self.renew(executor)
            executor = self.current
            future = executor.submit(fn, *args, **kwargs)
        future.add_done_callback(lambda done: self._check(executor, done))
        return future

    def renew(self, broken: Executor) -> None:
        """Replace ``broken`` by a fresh executor, unless it was replaced already, and shut it down without
        waiting for it."""
        with self._lock:
            if broken is not self.current:
                return
            self.current = self.factory()
            self.replaced += 1
        log.warning("%s broken (a worker died): replaced by a fresh one (%d so far)", self.name, self.replaced)
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Shut the current executor down."""
        self.current.shutdown(wait=wait, cancel_futures=cancel_futures)

    def _check(self, executor: Executor, done: Future[Any]) -> None:
        if not done.cancelled() and isinstance(done.exception(), BrokenExecutor):
            self.renew(executor)
