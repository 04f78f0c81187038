"""The engine behind the game service: the bot's moves, hints and reviews on every game, searched off the event loop.

The event loop keeps answering interactions and heartbeats while a search runs. Arguments and results
are plain picklable values, so an executor may be a thread pool or a process pool (see
``benchmarks/loop_lag.py``). Moves and hints have separate executors, so a burst of hints never delays
a move.

A game whose variant answers inline (:attr:`engine.variants.Variant.inline`: 3x3) is searched by :meth:`AI.choose`
(alpha-beta in threads, the counted plain minimax in processes); every other game by :meth:`AI.variant_move` in the
search pool (:mod:`bot.games.moves`). Hints and reviews of every game run in the hint executor (:func:`hint`,
:func:`review`).
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

from bot.games.fallback import fallback_move
from bot.games.match import Algorithm, Match
from bot.games.moves import decide, variant_move
from bot.games.pool import SearchPool, Ticket
from bot.games.workers import die_with_parent
from engine import State, levels
from engine.hints import Hint
from engine.protocol import EngineMove
from engine.review import PlyReview
from engine.variants import VARIANTS
from engine.variants import variant as variant_named

__all__ = ["AI", "fast_executor", "hint", "hint_executor", "review", "search_executor"]

log = logging.getLogger(__name__)
_INLINE = next(v for v in VARIANTS.values() if v.inline)  # the game :meth:`AI.choose` searches (3x3)
_R = TypeVar("_R")


def hint(variant: str, moves: tuple[int, ...]) -> Hint:
    """The hint for the player to move after ``moves`` on ``variant`` (:meth:`engine.variants.Variant.hint`). Runs
    in a worker.

    Raises:
        IllegalSequenceError, GameOverError, ValueError: as :meth:`~engine.variants.Variant.hint`.
    """
    return variant_named(variant).hint(moves)


def review(variant: str, moves: tuple[int, ...]) -> tuple[PlyReview, ...]:
    """Every move of a finished ``variant`` game labelled (:meth:`engine.variants.Variant.review`). Runs in a worker.

    Raises:
        IllegalSequenceError: ``moves`` are not a legal game.
    """
    return variant_named(variant).review(moves)


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
    ``on_search(state, algorithm, decision)`` is called after each of the bot's 3x3 moves at level 8 (the metrics).
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
        self.on_search: Callable[[State, Algorithm, EngineMove], None] | None = None

    async def variant_move(self, game: Match, ticket: Ticket) -> EngineMove:
        """The bot's move in ``game`` (a variant that does not answer inline, the bot to move), searched in the pool
        under ``ticket`` (its budget; the ticket is given back when the search ends).

        Raises:
            GameOverError, IllegalSequenceError: ``game`` is over, or its moves are not a legal game.
        """
        seed = self.rng.getrandbits(64)
        return await self.pool.run(ticket, variant_move, game.variant, game.moves, game.level, ticket.budget_ms, seed)

    async def fallback_move(self, game: Match) -> EngineMove:
        """The bot's move in ``game`` when its search failed (:func:`bot.games.fallback.fallback_move`: within
        about 50 ms), computed in this process in the loop's default thread pool, never in the worker pool.

        Raises:
            GameOverError, IllegalSequenceError: ``game`` is over, or its moves are not a legal game.
        """
        seed = self.rng.getrandbits(64)
        return await self._run(None, fallback_move, game.variant, game.moves, game.level, seed)

    async def hint(self, game: Match) -> Hint:
        """The hint for the player to move in ``game``, any variant (:func:`hint`), in the hint executor.

        Raises:
            ValueError: a position before the variant's :attr:`~engine.variants.Variant.hint_from` marks.
            GameOverError: the game is over.
        """
        return await self._run(self.hint_executor, hint, game.variant, game.moves)

    async def review(self, variant: str, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """Every move of a finished ``variant`` game labelled (:func:`review`), in the hint executor.

        Raises:
            IllegalSequenceError: the moves are not a legal game.
        """
        return await self._run(self.hint_executor, review, variant, tuple(moves))

    async def choose(self, state: State, level: int, algorithm: Algorithm) -> EngineMove:
        """The bot's 3x3 move in ``state`` at ``level`` (:func:`bot.games.moves.decide`), searched off the event
        loop; ``on_search`` hears of a level-8 search."""
        seed = self.rng.getrandbits(64)
        executor = self.slow_executor if algorithm == "minimax" and level == levels.TOP else self.executor
        decision = await self._run(executor, decide, state, level, algorithm, seed)
        if self.on_search is not None and level == levels.TOP:
            self.on_search(state, algorithm, decision)
        return decision

    async def warm_up(self) -> None:
        """Run one tiny search in each executor, so a process pool has started a worker before the first game."""
        played = (7, 0, 8, 1)  # 3x3: X on b3 and c3, O on a1 and b1
        nearly_full = _INLINE.replay(played)
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            self.choose(nearly_full, levels.TOP, "alpha-beta"),
            self.choose(nearly_full, levels.TOP, "minimax"),
            loop.run_in_executor(self.hint_executor, hint, _INLINE.name, played),
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
