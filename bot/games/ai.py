"""The engine behind the game service: every search runs in an executor, off the event loop.

The event loop keeps answering interactions and heartbeats while a search runs. Arguments and results
are plain picklable values, so an executor may be a thread pool or a process pool (see
``benchmarks/loop_lag.py``). Moves and hints have separate executors, so a burst of hints never delays
a move.
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
from bot.games.game import Algorithm, BotMove, Game
from bot.games.hints import EstimatedHint, EstimatedReviewedMove, ExactHint, ExactReviewedMove
from bot.games.pool import SearchPool, Ticket
from bot.games.variant_ai import variant_move
from bot.games.variant_analysis import variant_hint, variant_review
from bot.games.workers import die_with_parent
from engine import (
    Analysis,
    Decision,
    Difficulty,
    PlyReview,
    SearchConfig,
    State,
    analyse,
    choose_move,
    levels,
    review,
)
from engine.search import ALGORITHM_CONFIGS

__all__ = [
    "AI",
    "SLOW_EMPTY_CELLS",
    "config_for",
    "decide",
    "fast_executor",
    "hint",
    "hint_executor",
    "is_slow",
    "search_executor",
]

log = logging.getLogger(__name__)
_R = TypeVar("_R")

SLOW_EMPTY_CELLS = 7
"""Plain minimax with at least this many empty cells may take tens of milliseconds to ~0.2 s."""


def config_for(algorithm: Algorithm) -> SearchConfig:
    """The search configuration behind an ``algorithm`` option."""
    return ALGORITHM_CONFIGS[algorithm]


def is_slow(state: State, algorithm: Algorithm) -> bool:
    """True when a search (or a hint, which always runs plain minimax) may be slow enough to defer first."""
    return algorithm == "minimax" and 9 - state.marks >= SLOW_EMPTY_CELLS


def decide(state: State, level: int, algorithm: Algorithm, seed: int | None = None) -> Decision | BotMove:
    """Choose the bot's 3x3 move at ``level`` (runs in a worker): level 8 is the perfect search with ``algorithm``
    (a :class:`~engine.Decision`), levels 1-7 the level's depth-limited alpha-beta (:func:`engine.levels.choose_move`,
    a :class:`BotMove`).

    Raises:
        ValueError: ``level`` is not 1-8.
        GameOverError: the game in ``state`` is over.
    """
    rng = random.Random(seed)
    if level == levels.TOP:
        return choose_move(state, Difficulty.UNBEATABLE, rng=rng, config=config_for(algorithm))
    chosen = levels.choose_move("3x3", state, level, rng=rng)
    return BotMove(chosen.cell, chosen.states, chosen.elapsed_ms)


def hint(state: State) -> Analysis:
    """Analyse every move for the player to move, with alpha-beta and plain minimax counts (runs in a worker)."""
    return analyse(state)


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
        self.on_search: Callable[[State, Algorithm, Decision], None] | None = None

    async def variant_move(self, game: Game, ticket: Ticket) -> BotMove:
        """The bot's move in ``game`` (a variant other than 3x3, the bot to move), searched in the pool under
        ``ticket`` (its budget; the ticket is given back when the search ends).

        Raises:
            GameOverError, IllegalSequenceError: ``game`` is over, or its moves are not a legal game.
        """
        seed = self.rng.getrandbits(64)
        return await self.pool.run(ticket, variant_move, game.variant, game.moves, game.level, ticket.budget_ms, seed)

    async def fallback_move(self, game: Game) -> BotMove:
        """The bot's move in ``game`` when its search failed (:func:`bot.games.fallback.fallback_move`: within
        about 50 ms), computed in this process in the loop's default thread pool, never in the worker pool.

        Raises:
            GameOverError, IllegalSequenceError: ``game`` is over, or its moves are not a legal game.
        """
        seed = self.rng.getrandbits(64)
        return await self._run(None, fallback_move, game.variant, game.moves, game.level, seed)

    async def variant_hint(self, game: Game) -> ExactHint | EstimatedHint:
        """The hint for the player to move in ``game`` (a variant other than 3x3), in the hint executor.

        Raises:
            ValueError: a 5x5 position before :data:`bot.games.variant_analysis.EXACT_FROM_MARKS` marks.
        """
        return await self._run(self.hint_executor, variant_hint, game.variant, game.moves)

    async def variant_review(
        self, variant: str, moves: Sequence[int]
    ) -> tuple[ExactReviewedMove, ...] | tuple[EstimatedReviewedMove, ...]:
        """Every move of a finished ``variant`` game labelled (:func:`bot.games.variant_analysis.variant_review`), in
        the hint executor.

        Raises:
            IllegalSequenceError: the moves are not a legal game.
        """
        return await self._run(self.hint_executor, variant_review, variant, tuple(moves))

    async def choose(self, state: State, level: int, algorithm: Algorithm) -> Decision | BotMove:
        """The bot's 3x3 move in ``state`` at ``level`` (:func:`decide`), searched off the event loop."""
        seed = self.rng.getrandbits(64)
        executor = self.slow_executor if algorithm == "minimax" and level == levels.TOP else self.executor
        decision = await self._run(executor, decide, state, level, algorithm, seed)
        if self.on_search is not None and isinstance(decision, Decision):
            self.on_search(state, algorithm, decision)
        return decision

    async def warm_up(self) -> None:
        """Run one tiny search in each executor, so a process pool has started a worker before the first game."""
        nearly_full = State(0b110000000, 0b000000011)
        loop = asyncio.get_running_loop()
        await asyncio.gather(
            self.choose(nearly_full, levels.TOP, "alpha-beta"),
            self.choose(nearly_full, levels.TOP, "minimax"),
            loop.run_in_executor(self.hint_executor, hint, nearly_full),
        )

    async def analyse(self, state: State) -> Analysis:
        """A hint for the player to move (it runs plain minimax too), searched off the event loop."""
        return await self._run(self.hint_executor, hint, state)

    async def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """:func:`engine.review` of a game's moves, off the event loop (in the hint executor).

        Raises:
            IllegalMoveError: the moves are not a legal game.
        """
        return await self._run(self.hint_executor, review, tuple(moves))

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
