"""The engine behind the game service: the bot's moves, hints and reviews on every game, searched off the event loop.

The event loop keeps answering interactions and heartbeats while a search runs. Arguments and results
are plain picklable values, so an executor may be a thread pool or a process pool (see
``benchmarks/loop_lag.py``). Moves and hints have separate executors, so a burst of hints never delays
a move.

The bot's move in every game is :func:`bot.games.moves.bot_move`, run by :meth:`AI.move`: inside the interaction's
callback when the game answers within its budget (:attr:`bot.games.match.Match.inline`; in threads, or in processes
for a longer search such as 3x3's plain minimax), otherwise in the search pool under a ticket. Hints and reviews of
every game run in the hint executor (:func:`hint`, :func:`review`).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import TypeVar

from bot.games.match import Match
from bot.games.moves import Pace, bot_move, fallback_move
from bot.games.pool import SearchPool, Ticket
from bot.games.thinking import Thought, think
from bot.games.workers import die_with_parent
from engine import DEFAULT_VARIANT, TOP_LEVEL, EngineMove, Hint, PlyReview, Variant
from engine import variant as variant_named

__all__ = ["AI", "fast_executor", "hint", "hint_executor", "review", "search_executor"]

log = logging.getLogger(__name__)
_R = TypeVar("_R")


def hint(kind: Variant, moves: tuple[int, ...]) -> Hint:
    """The hint for the player to move after ``moves`` in game ``kind`` (:meth:`engine.Variant.hint`). Runs in a
    worker.

    Raises:
        IllegalSequenceError, GameOverError, ValueError: as :meth:`~engine.Variant.hint`.
    """
    return kind.hint(moves)


def review(kind: Variant, moves: tuple[int, ...]) -> tuple[PlyReview, ...]:
    """Every move of a finished ``variant`` game labelled (:meth:`engine.Variant.review`). Runs in a worker.

    Raises:
        IllegalSequenceError: ``moves`` are not a legal game.
    """
    return kind.review(moves)


def search_executor(workers: int | None = None) -> ProcessPoolExecutor:
    """The executor for slow searches (plain minimax, hints): a process pool, so they never hold the loop's GIL.

    Measured with ``benchmarks/loop_lag.py``: while plain-minimax searches run, worker threads delay
    the event loop by up to ~95-135 ms (the GIL), worker processes by under ~8 ms. Processes are spawned
    (not forked) so they never inherit the running event loop or its sockets, and die with the bot even when it
    is killed with SIGKILL (:func:`bot.games.workers.die_with_parent`).
    """
    workers = workers or min(4, os.cpu_count() or 1)
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(workers, context, initializer=die_with_parent, initargs=(os.getpid(),))


def fast_executor(workers: int = 2) -> ThreadPoolExecutor:
    """The executor for alpha-beta searches (under 1 ms each): threads, cheaper than a process round trip.

    Measured with ``benchmarks/load.py`` at 100 concurrent games: the bot's CPU per move drops from
    ~1.8 to ~1.6 ms and its p99 latency from ~2.2x to ~1.7x the floor's, while ``benchmarks/loop_lag.py``
    shows alpha-beta in threads delaying the loop by under ~10 ms.
    """
    return ThreadPoolExecutor(max_workers=workers, thread_name_prefix="alpha-beta")


def hint_executor() -> ProcessPoolExecutor:
    """The executor for hints: one worker process of its own, so hints queue behind each other, never behind
    or in front of the bot's moves."""
    return search_executor(1)


class AI:
    """Runs engine searches off the event loop: alpha-beta in ``executor``, plain minimax in ``slow_executor``,
    hints in ``hint_executor``, and the variants' searches in ``pool`` (a :class:`SearchPool`; by default over
    ``slow_executor``; give it :func:`bot.games.pool.variant_executor`, a process per core, in production).

    ``None`` for any executor means the loop's default thread pool. :meth:`shutdown` stops them all.
    ``pending`` counts the searches submitted and not done (the pool's own in :attr:`SearchPool.pending`);
    ``on_search(game, decision)`` is called after each of the bot's top-level moves searched inline (the
    metrics).
    """

    def __init__(
        self,
        executor: Executor | None = None,
        rng: random.Random | None = None,
        *,
        slow_executor: Executor | None = None,
        hint_executor: Executor | None = None,
        pool: SearchPool | None = None,
    ) -> None:
        self.executor = executor
        self.slow_executor = slow_executor or executor
        self.hint_executor = hint_executor or self.slow_executor
        self.pool = pool or SearchPool(self.slow_executor)
        self.rng = rng or random.Random()
        self.pending = 0
        self.on_search: Callable[[Match, EngineMove], None] | None = None

    async def move(self, game: Match, ticket: Ticket | None = None) -> EngineMove:
        """The bot's move in ``game`` (the bot to move; :func:`bot.games.moves.bot_move`): with ``ticket``, searched in
        the pool under its budget (the ticket is given back when the search ends); without, searched now, in a
        thread, or in a process unless its :attr:`~bot.games.match.Match.pace` is quick.
        ``on_search`` hears of every top-level move searched without a ticket.

        Raises:
            GameOverError, IllegalSequenceError: ``game`` is over, or its moves are not a legal game.
        """
        seed = self.rng.getrandbits(64)
        args = (game.kind, game.moves, game.level, game.algorithm)
        if ticket is not None:
            return await self.pool.run(ticket, bot_move, *args, ticket.budget_ms, seed)
        slow = game.pace is not Pace.QUICK
        executor = self.slow_executor if slow else self.executor
        decision = await self._run(executor, bot_move, *args, None, seed, game.state)
        if self.on_search is not None and game.level == TOP_LEVEL:
            self.on_search(game, decision)
        return decision

    async def fallback_move(self, game: Match) -> EngineMove:
        """The bot's move in ``game`` when its search failed (:func:`bot.games.moves.fallback_move`: within about
        50 ms), computed in this process in the loop's default thread pool, never in the worker pool.

        Raises:
            GameOverError, IllegalSequenceError: ``game`` is over, or its moves are not a legal game.
        """
        seed = self.rng.getrandbits(64)
        return await self._run(None, fallback_move, game.kind, game.moves, game.level, seed)

    async def hint(self, game: Match) -> Hint:
        """The hint for the player to move in ``game``, any variant (:func:`hint`), in the hint executor.

        Raises:
            ValueError: a position before the variant's :meth:`~engine.Variant.hint_from` marks.
            GameOverError: the game is over.
        """
        return await self._run(self.hint_executor, hint, game.kind, game.moves)

    async def think(self, game: Match, cells: Sequence[int], played: int | None, locale: str | None) -> Thought:
        """How the search behind ``played`` in ``game`` after ``cells`` thought, drawn in ``locale``'s language
        (:func:`bot.games.thinking.think`), in the hint executor. Ultimate's search is seeded by the game and the
        position, so it is the same every time it is asked.

        Raises:
            ValueError: the variant's search cannot be recomputed.
        """
        seed = int(game.game_id, 36) * 100 + len(cells)
        return await self._run(
            self.hint_executor, think, game.variant, tuple(cells), played, game.algorithm, locale, seed
        )

    async def review(self, variant: str, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """Every move of a finished ``variant`` game labelled (:func:`review`), in the hint executor.

        Raises:
            IllegalSequenceError: the moves are not a legal game.
        """
        return await self._run(self.hint_executor, review, variant_named(variant), tuple(moves))

    async def warm_up(self) -> None:
        """Run one tiny search in each executor, so a process pool has started a worker before the first game."""
        kind, played, seed = variant_named(DEFAULT_VARIANT), (7, 0, 8, 1), 0  # a nearly full board: quick searches
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            loop.run_in_executor(self.executor, bot_move, kind, played, TOP_LEVEL, "alpha-beta", None, seed),
            loop.run_in_executor(self.slow_executor, bot_move, kind, played, TOP_LEVEL, "minimax", None, seed),
            loop.run_in_executor(self.hint_executor, hint, kind, played),
        )

    async def _run(self, executor: Executor | None, function: Callable[..., _R], *args: object) -> _R:
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, function, *args)
        finally:
            self.pending -= 1

    async def shutdown(self) -> None:
        """Stop every executor and wait for its workers to exit (in a thread, so the loop keeps running)."""
        found = (self.executor, self.slow_executor, self.hint_executor, self.pool.executor)
        executors = {id(e): e for e in found if e is not None}
        for executor in executors.values():
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
