"""Background saving of finished games: callers never wait for the database, and outages are ridden out.

:class:`RecordWriter` keeps a bounded queue in memory and saves games in the order submitted. While the
database is unavailable it retries the oldest game with exponential backoff, capped (the schedule of
"Exponential Backoff And Jitter", AWS Architecture Blog, 2015, without the jitter: one writer per process).
A game whose save succeeded but whose acknowledgement was lost is saved again harmlessly: the store
ignores a game id it already has, so nothing is counted twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from bot.records._tasks import stop, wait_written
from bot.records.errors import RecordsUnavailableError
from bot.records.games import FinishedGame
from bot.records.store import RecordsStore

__all__ = ["DEFAULT_MAX_PENDING", "UNWRITTEN_WAIT_SECONDS", "RecordWriter"]

log = logging.getLogger(__name__)

BATCH = 200
"""At most this many queued games go into one transaction."""

DEFAULT_MAX_PENDING = 10_000
"""Games kept in memory while the database is away: about 460 bytes each (measured with tracemalloc), so at
most about 5 MB."""

UNWRITTEN_WAIT_SECONDS = 0.5
"""How long a read of the unwritten games waits for a save attempt in flight (usually a few ms)."""


class RecordWriter:
    """Saves submitted games to ``store`` from one background task.

    ``max_pending`` bounds the games waiting in memory (queued plus the one being saved); beyond it a
    submitted game is dropped with an error in the log. After a failed save the writer waits
    ``retry_initial`` seconds, doubling after each further failure up to ``retry_max`` seconds, and
    logs a warning for each failure (one line, password hidden).
    """

    def __init__(
        self,
        store: RecordsStore,
        *,
        max_pending: int = DEFAULT_MAX_PENDING,
        retry_initial: float = 0.5,
        retry_max: float = 60.0,
    ) -> None:
        if max_pending < 1 or retry_initial <= 0 or retry_max < retry_initial:
            raise ValueError(
                f"need max_pending >= 1 and 0 < retry_initial <= retry_max, not {max_pending!r}, "
                f"{retry_initial!r}, {retry_max!r}"
            )
        self.store = store
        self.max_pending = max_pending
        self.retry_initial = retry_initial
        self.retry_max = retry_max
        self._queue: asyncio.Queue[FinishedGame] = asyncio.Queue()
        self._saving: list[FinishedGame] = []
        self._unwritten: dict[str, FinishedGame] = {}
        self._turn = asyncio.Lock()  # held by each save attempt, and by a reader of the unwritten games
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closed = False

    @property
    def pending(self) -> int:
        """Games submitted and not yet written (including the one being saved)."""
        return self._queue.qsize() + len(self._saving)

    def start(self) -> None:
        """Start the background task (call from a running event loop, once)."""
        if self._task is not None:
            raise RuntimeError("the record writer is already started")
        self._task = asyncio.get_running_loop().create_task(self._run(), name="record-writer")

    def submit(self, game: FinishedGame) -> bool:
        """Queue ``game`` for saving without waiting; returns False when it was dropped because
        ``max_pending`` games are waiting already or the writer is closed (an error is logged)."""
        if self._closed:
            log.error("game records: game %s finished after the record writer closed; it is not recorded", game.game_id)
            return False
        if self.pending >= self.max_pending:
            log.error(
                "game records: %d games are waiting for the database already; game %s is dropped",
                self.pending,
                game.game_id,
            )
            return False
        self._queue.put_nowait(game)
        self._unwritten.setdefault(game.game_id, game)
        return True

    @contextlib.asynccontextmanager
    async def unwritten(self, wait: float = UNWRITTEN_WAIT_SECONDS) -> AsyncIterator[tuple[FinishedGame, ...]]:
        """The games submitted and not written yet, in order, with the writer paused between transactions: inside
        the block none of them is in the database and no other game is written, so a read there sees exactly the
        database without them. A save attempt in flight is waited for up to ``wait`` seconds; one that takes longer
        (a database lock held elsewhere) is not paused, and its games may then be written during the block (a read
        that must count them once excludes their ids)."""
        try:
            await asyncio.wait_for(self._turn.acquire(), wait)
        except TimeoutError:
            yield tuple(self._unwritten.values())
            return
        try:
            yield tuple(self._unwritten.values())
        finally:
            self._turn.release()

    async def flush(self, timeout: float | None = None) -> bool:
        """Wait up to ``timeout`` seconds (None: no limit) until every submitted game is written; a writer
        waiting to retry tries again at once. Returns True when nothing is left waiting."""
        return await wait_written(self.pending, self._task, self._wake, self._queue.join, timeout)

    async def close(self, timeout: float = 10.0) -> int:
        """Stop accepting games, try for up to ``timeout`` seconds to write those waiting, then stop the task.
        Returns the number of games left unwritten (each one logged as an error)."""
        self._closed = True
        await self.flush(timeout)
        await stop(self._task)
        lost = self._saving + [self._queue.get_nowait() for _ in range(self._queue.qsize())]
        if lost:
            log.error(
                "game records: %d finished games could not be written: %s",
                len(lost),
                ", ".join(game.game_id for game in lost),
            )
        self._saving = []
        self._unwritten.clear()
        return len(lost)

    async def _run(self) -> None:
        while True:
            self._saving = [await self._queue.get()]
            while len(self._saving) < BATCH and not self._queue.empty():
                self._saving.append(self._queue.get_nowait())
            await self._save(self._saving)  # on cancellation (close) the batch stays in _saving, to be reported
            for _ in self._saving:
                self._queue.task_done()
            self._saving = []

    async def _save(self, batch: list[FinishedGame]) -> None:
        """Write ``batch`` in one transaction, retrying with backoff while the database is unavailable; a batch
        the database refuses is written game by game, so one bad row costs only itself."""
        delay = self.retry_initial
        failures = 0
        while True:
            try:
                async with self._turn:
                    await self.store.save_many(batch)
                    for game in batch:
                        self._unwritten.pop(game.game_id, None)
            except RecordsUnavailableError as exc:
                failures += 1
                log.warning(
                    "game records: %d games not saved yet (%s); %d waiting; next try in %.2f s",
                    len(batch),
                    exc,
                    self.pending,
                    delay,
                )
                await self._sleep(delay)
                delay = min(delay * 2, self.retry_max)
                continue
            except Exception:
                if len(batch) > 1:
                    for game in batch:
                        await self._save([game])
                    return
                log.exception("game records: game %s was refused by the database and is dropped", batch[0].game_id)
                self._unwritten.pop(batch[0].game_id, None)
                return
            if failures:
                log.info("game records: %d games saved after %d failed tries", len(batch), failures)
            return

    async def _sleep(self, seconds: float) -> None:
        self._wake.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._wake.wait(), seconds)
