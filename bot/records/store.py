"""The records store: finished games in SQLite or PostgreSQL through SQLAlchemy's asyncio engine.

:func:`open_store` migrates the database to the newest schema and returns a :class:`RecordsStore`. Every
method is a coroutine; one that cannot reach the database raises :class:`RecordsUnavailableError`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from typing import Any

from sqlalchemy import Delete, delete, event, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from bot.records.errors import RecordsUnavailableError, describe, is_transient, shown_url
from bot.records.games import FinishedGame, GameSetup
from bot.records.migrate import upgrade
from bot.records.ratings import rate_games
from bot.records.schema import games, running_games
from bot.records.stats import StatsQueries
from bot.records.url import database_url, sqlite_path
from engine import variant as variant_named

__all__ = ["DEFAULT_TIMEOUT", "RecordsStore", "open_store", "setup_row", "setup_values"]

log = logging.getLogger(__name__)

DEFAULT_TIMEOUT = 10.0
"""Seconds to wait for a connection, a PostgreSQL statement, or a SQLite lock (its busy timeout)."""


async def open_store(url: str | None = None, *, timeout: float = DEFAULT_TIMEOUT) -> RecordsStore:
    """Connect to the database named by ``url`` (``DATABASE_URL`` text, see :mod:`bot.records.url`), apply any
    pending migration (Alembic ``upgrade head``) and return the store. A SQLite file's folder is created.

    ``timeout`` (seconds) bounds each connection attempt and each PostgreSQL statement, and is SQLite's busy
    timeout (how long a write waits for another connection's lock).

    Raises:
        RecordsUnavailableError: the URL is malformed or unsupported, or the database cannot be reached or
            migrated; the message is one line with the password hidden.
    """
    target = database_url(url)
    shown = shown_url(target)
    path = sqlite_path(target)
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise RecordsUnavailableError(f"cannot open the game records database {shown}: {describe(exc)}") from exc
    engine = _create_engine(target, timeout)
    try:
        async with engine.connect() as connection:
            # on SQLite, take the write lock before Alembic reads the schema version, so that processes
            # starting together migrate one after the other (PostgreSQL: an advisory lock in upgrade())
            await connection.execution_options(**{_WRITE_LOCK: True})
            async with connection.begin():
                before, after = await connection.run_sync(upgrade)
    except Exception as exc:
        await engine.dispose()
        message = f"cannot open the game records database {shown}: {describe(exc, target.password)}"
        raise RecordsUnavailableError(message) from exc
    upgraded = "" if before == after else f" (upgraded from {before or 'an empty database'})"
    log.info("game records: %s at revision %s%s", shown, after, upgraded)
    return RecordsStore(engine)


_WRITE_LOCK = "records_write_lock"


def _create_engine(url: URL, timeout: float) -> AsyncEngine:
    if url.get_backend_name() == "postgresql":
        return create_async_engine(
            url, pool_pre_ping=True, connect_args={"timeout": timeout, "command_timeout": timeout}
        )
    engine = create_async_engine(url, connect_args={"timeout": timeout})
    busy_ms = max(1, round(timeout * 1000))

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        # SQLAlchemy's recipe for real SQLite transactions: the driver stops emitting BEGIN itself
        # (which it skips before DDL) and the "begin" listener below emits it.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={busy_ms}")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Any) -> None:
        immediate = connection.get_execution_options().get(_WRITE_LOCK, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


class RecordsStore(StatsQueries):
    """Finished games in one database. Build it with :func:`open_store`; close it with :meth:`close`.

    ``engine`` is the SQLAlchemy ``AsyncEngine`` underneath (for diagnostics and tests).

    On SQLite the write transactions of one store take turns (first come, first served): SQLite has one write lock
    per file, and a connection waiting for it only polls (its busy timeout), so the record writer's back-to-back
    batches would starve the running-game writer's, and the reverse, until "database is locked". Other processes
    on the same file still wait through the busy timeout; PostgreSQL writes run side by side.
    """

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._write_turn = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._shown = shown_url(engine.url)
        dialect = postgresql if engine.dialect.name == "postgresql" else sqlite
        # One statement for every batch size: SQLAlchemy compiles it once and sends a batch as multi-row
        # VALUES ("insertmanyvalues"); RETURNING names the rows that were new.
        self._insert_new = (
            dialect.insert(games).on_conflict_do_nothing(index_elements=["game_id"]).returning(games.c.game_id)
        )

    def __repr__(self) -> str:
        return f"RecordsStore({self._shown!r})"

    @asynccontextmanager
    async def _connection(self, *, write: bool = False) -> AsyncIterator[AsyncConnection]:
        turn = self._write_turn if write and self._write_turn is not None else nullcontext()
        async with turn:
            try:
                async with self.engine.begin() if write else self.engine.connect() as connection:
                    yield connection
            except Exception as exc:
                if not is_transient(exc):
                    raise
                reason = describe(exc, self.engine.url.password)
                raise RecordsUnavailableError(f"game records database {self._shown} is unavailable: {reason}") from exc

    def connection(self, *, write: bool = False) -> AbstractAsyncContextManager[AsyncConnection]:
        """A connection (a transaction when ``write``) whose failure to reach the database raises
        :class:`RecordsUnavailableError` (for sibling stores such as :class:`bot.records.running.RunningStore` and
        :class:`bot.records.puzzles.PuzzleStore`)."""
        return self._connection(write=write)

    async def save(self, game: FinishedGame) -> bool:
        """Store ``game`` unless a game with its id is stored already (``INSERT ... ON CONFLICT DO NOTHING``), and
        delete its running row (``running_games``) and store its players' new ratings
        (:func:`bot.records.ratings.rate_games`) in the same transaction; returns True when it was newly stored.
        Saving a game again never changes or double-counts it.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
            sqlalchemy.exc.IntegrityError: the database refused the row (never for a valid ``FinishedGame``).
        """
        dialect = postgresql if self.engine.dialect.name == "postgresql" else sqlite
        statement = dialect.insert(games).values(_to_row(game)).on_conflict_do_nothing(index_elements=["game_id"])
        async with self._connection(write=True) as connection:
            result = await connection.execute(statement)
            await connection.execute(_finished_rows([game]))
            if result.rowcount == 1:
                await rate_games(connection, [game])
        return result.rowcount == 1

    async def save_many(self, batch: Sequence[FinishedGame]) -> int:
        """Store every game of ``batch`` not stored already, delete their running rows and store the ratings they
        change, in one transaction (a game's end is never half written: a crash leaves all its writes or none);
        returns how many were newly stored. What :meth:`save` does for one game, at a fraction of the cost per game.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
            sqlalchemy.exc.IntegrityError: the database refused a row (never for a valid ``FinishedGame``).
        """
        if not batch:
            return 0
        rows = [_to_row(game) for game in batch]
        async with self._connection(write=True) as connection:
            result = await connection.execute(self._insert_new, rows)
            new = set(result.scalars().all())
            await connection.execute(_finished_rows(batch))
            await rate_games(connection, [game for game in batch if game.game_id in new])
        return len(new)

    async def game(self, game_id: str) -> FinishedGame | None:
        """The stored game with id ``game_id``, or None.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        async with self._connection() as connection:
            row = (await connection.execute(select(games).where(games.c.game_id == game_id))).first()
        return None if row is None else _from_row(row._mapping)

    async def recent_games(self, channel_id: int, limit: int = 10) -> tuple[FinishedGame, ...]:
        """Up to ``limit`` games stored for ``channel_id``, whatever their end, the latest ``ended_at`` first.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        statement = (
            select(games)
            .where(games.c.channel_id == channel_id)
            .order_by(games.c.ended_at.desc(), games.c.game_id.desc())
            .limit(limit)
        )
        async with self._connection() as connection:
            rows = (await connection.execute(statement)).all()
        return tuple(_from_row(row._mapping) for row in rows)

    async def last_game(self, channel_id: int) -> FinishedGame | None:
        """The game in ``channel_id`` that ended last, or None.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        latest = await self.recent_games(channel_id, limit=1)
        return latest[0] if latest else None

    async def close(self) -> None:
        """Close every pooled connection."""
        await self.engine.dispose()


def setup_row(game: GameSetup) -> dict[str, Any]:
    """The columns of ``game``'s players and options, as the ``games`` and ``running_games`` tables store them."""
    return {
        "game_id": game.game_id,
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
        "x_user_id": game.x_user_id,
        "o_user_id": game.o_user_id,
        "bot_side": game.bot_side,
        "level": game.level,
        "algorithm": game.algorithm,
    }


def setup_values(row: RowMapping) -> dict[str, Any]:
    """A row of the ``games`` or ``running_games`` table as field values (the inverse of :func:`setup_row`, with the
    table's other columns as they are; the difficulty of rows from before the levels is left out: migration 0004
    gave them its level)."""
    values = dict(row)
    del values["difficulty"]
    return values


def _finished_rows(batch: Sequence[FinishedGame]) -> Delete:
    """The deletion of the running rows of the games in ``batch`` (they ended)."""
    return delete(running_games).where(running_games.c.game_id.in_([game.game_id for game in batch]))


def _to_row(game: FinishedGame) -> dict[str, Any]:
    return {
        **setup_row(game),
        "variant": game.variant,
        "moves": variant_named(game.variant).moves_text(game.moves),
        "result": game.result,
        "end_reason": game.end_reason,
        "states_evaluated": game.states_evaluated,
        "started_at": game.started_at,
        "ended_at": game.ended_at,
    }


def _from_row(row: RowMapping) -> FinishedGame:
    values = setup_values(row)
    values["moves"] = variant_named(values["variant"]).moves_from_text(values["moves"])
    return FinishedGame(**values)
