"""Background saving of running games: the newest state of each game, written in batches off every interaction.

A game's writes are coalesced: only its newest state waits in memory, so a burst of moves costs one row write.
A batch stays open for :data:`BATCH_WINDOW` after its first write, so the moves of other games made meanwhile share
its transaction; a transaction costs the event loop far more than a row. A crash (SIGKILL, power loss) loses what
was still waiting: at most the moves committed in the window and about one database round trip before the batch
was written. Outages are ridden out with the same capped exponential backoff as :class:`~bot.records.RecordWriter`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.records._tasks import stop, wait_written
from bot.records.errors import RecordsUnavailableError
from bot.records.running import RunningGame, RunningStore

__all__ = ["RunningWriter"]

log = logging.getLogger(__name__)

_DROP = None

BATCH_WINDOW = 0.15
"""Seconds a batch stays open after its first write, so that moves made meanwhile share its transaction. With 100
3x3 games pressing as fast as answered (``benchmarks/load.py --games 100``), a 50 ms window used about 15 % more CPU
per press than batches held open about 150 ms (median of 6 runs by turns; 1.02-1.26x)."""


class RunningWriter:
    """Saves the newest state of each submitted running game to ``store`` from one background task.

    :meth:`put` and :meth:`drop` never wait. A batch is written ``window`` seconds after its first write (0: at
    once; :meth:`flush` and :meth:`close` do not wait for it). After a failed write the writer waits
    ``retry_initial`` seconds, doubling up to ``retry_max``; a write waiting in memory is replaced by a newer one of
    the same game.

    Raises:
        ValueError: ``retry_initial`` is not positive, ``retry_max`` is below it, or ``window`` is negative.
    """

    def __init__(
        self,
        store: RunningStore,
        *,
        retry_initial: float = 0.5,
        retry_max: float = 60.0,
        window: float = BATCH_WINDOW,
    ) -> None:
        if retry_initial <= 0 or retry_max < retry_initial or window < 0:
            raise ValueError(
                f"need 0 < retry_initial <= retry_max and window >= 0, not {retry_initial!r}, {retry_max!r}, {window!r}"
            )
        self.store = store
        self.window = window
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self._pending: dict[str, RunningGame | None] = {}
        self._saving: dict[str, RunningGame | None] = {}
        self._work = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def pending(self) -> int:
        """Games whose newest state is not written yet (including those being written)."""
        return len(self._pending.keys() | self._saving.keys())

    def start(self) -> None:
        """Start the background task (call from a running event loop, once)."""
        if self._task is not None:
            raise RuntimeError("the running-game writer is already started")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="running-game-writer")

    def put(self, game: RunningGame) -> None:
        """Queue ``game``'s newest state (replacing an older one still waiting)."""
        self._queue(game.game_id, game)

    def drop(self, game_id: str) -> None:
        """Queue the deletion of ``game_id``'s row (the game ended)."""
        self._queue(game_id, _DROP)

    def _queue(self, game_id: str, value: RunningGame | None) -> None:
        if self._closed:
            log.warning("running games: game %s changed after the writer closed; not saved", game_id)
            return
        self._pending[game_id] = value
        self._idle.clear()
        self._work.set()

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: no limit) until everything queued is written; a writer waiting to
        retry tries again at once. Returns True when nothing is left waiting."""
        return await wait_written(self.pending, self._task, self._wake, self._idle.wait, timeout)

    async def close(self, timeout: float = 10.0) -> int:
        """Stop accepting writes, try for up to ``timeout`` seconds to write those waiting, then stop the task.
        Returns how many games were left unwritten (logged)."""
        self._closed = True
        await self.flush(timeout)
        await stop(self._task)
        lost = self.pending
        if lost:
            log.warning("running games: the newest state of %d games was not written", lost)
        return lost

    async def _run(self) -> None:
        while True:
            await self._work.wait()
            self._work.clear()
            if self.window:
                await self._sleep(self.window)  # later moves join this batch; flush() and close() cut it short
            if not self._pending:
                continue
            self._saving, self._pending = self._pending, {}
            await self._save(self._saving)
            self._saving = {}
            if not self._pending:
                self._idle.set()

    async def _save(self, batch: dict[str, RunningGame | None]) -> None:
        saved = [game for game in batch.values() if game is not None]
        dropped = [game_id for game_id, game in batch.items() if game is None]
        delay = self.retry_initial
        while True:
            try:
                await self.store.apply(saved, dropped)
                return
            except RecordsUnavailableError as exc:
                log.warning("running games: %d not saved yet (%s); next try in %.2f s", len(batch), exc, delay)
            except Exception:
                log.exception("running games: the database refused a batch of %d; it is dropped", len(batch))
                return
            await self._sleep(delay)
            delay = min(delay * 2, self.retry_max)
            # a newer state queued meanwhile replaces the one in this batch
            newer = {game_id: self._pending.pop(game_id) for game_id in list(batch) if game_id in self._pending}
            batch.update(newer)
            saved = [game for game in batch.values() if game is not None]
            dropped = [game_id for game_id, game in batch.items() if game is None]

    async def _sleep(self, seconds: float) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
