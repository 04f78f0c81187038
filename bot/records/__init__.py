"""Durable game records: finished games in SQLite or PostgreSQL, W/D/L stats, leaderboards, channel history.

Discord-free. At start-up ``store = await open_store(os.environ.get("DATABASE_URL"))`` migrates the database
(raising :class:`RecordsUnavailableError` with a one-line message when it cannot), then a
:class:`RecordWriter` saves finished games in the background::

    writer = RecordWriter(store)
    writer.start()
    writer.submit(FinishedGame(...))    # never waits
    stats = await store.user_stats(user_id, guild_id)
    ...
    await writer.close(timeout=10)      # at shutdown: write what is queued
    await store.close()
"""

from __future__ import annotations

from bot.records import puzzle_schema  # noqa: F401  (its tables join the schema that migrations are checked against)
from bot.records.errors import RecordsUnavailableError
from bot.records.games import FinishedGame, GameSetup, Leaderboard, RatedRow, Rating, Record, UserStats
from bot.records.puzzles import PuzzleStore
from bot.records.running import RunningGame, RunningStore, Stored
from bot.records.running_writer import RunningWriter
from bot.records.store import RecordsStore, open_store
from bot.records.url import DEFAULT_SQLITE_PATH, database_url
from bot.records.writer import RecordWriter
from bot.vocabulary import LEVEL_OF_DIFFICULTY, LEVELS, Algorithm, EndReason, Result, Side

__all__ = [
    "DEFAULT_SQLITE_PATH",
    "LEVELS",
    "LEVEL_OF_DIFFICULTY",
    "Algorithm",
    "EndReason",
    "FinishedGame",
    "GameSetup",
    "Leaderboard",
    "PuzzleStore",
    "RatedRow",
    "Rating",
    "Record",
    "RecordWriter",
    "RecordsStore",
    "RecordsUnavailableError",
    "Result",
    "RunningGame",
    "RunningStore",
    "RunningWriter",
    "Side",
    "Stored",
    "UserStats",
    "database_url",
    "open_store",
]
