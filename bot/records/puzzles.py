"""Puzzle records: players' and puzzles' ratings, attempts and the puzzles being solved, in the records database
(tables of :mod:`bot.records.puzzle_schema`). Every method is a coroutine and raises
:class:`~bot.records.errors.RecordsUnavailableError` when the database cannot be reached.
"""

from __future__ import annotations

import datetime
from dataclasses import replace
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.records.puzzle_schema import daily_tries, puzzle_attempts, puzzle_players, puzzle_ratings, running_puzzles
from bot.records.puzzle_values import PuzzleRating, Run, rate, starting
from bot.records.schema import games
from bot.records.store import RecordsStore

__all__ = ["Attempt", "PuzzleStore"]

Attempt = tuple[PuzzleRating, PuzzleRating | None]
"""A finished attempt: the player's rating before and after (``None``: not rated, a puzzle tried before)."""

_GLICKO = ("rating", "deviation", "volatility", "attempts", "solved")


def _rating(row: Any) -> PuzzleRating:
    return PuzzleRating(*(row[c] for c in _GLICKO))


def _values(rating: PuzzleRating) -> dict[str, Any]:
    return {c: getattr(rating, c) for c in _GLICKO}


class PuzzleStore:
    """The puzzle tables of one :class:`~bot.records.store.RecordsStore`'s database."""

    def __init__(self, records: RecordsStore) -> None:
        self.records = records

    async def player(self, user_id: int, variant: str) -> PuzzleRating:
        """``user_id``'s puzzle rating in ``variant`` (Glickman's defaults before a rated attempt)."""
        async with self.records.connection() as connection:
            return await _player(connection, user_id, variant)

    async def puzzle_ratings(self, variant: str) -> dict[str, PuzzleRating]:
        """The ratings of ``variant``'s puzzles attempted so far, by puzzle id."""
        async with self.records.connection() as connection:
            rows = await connection.execute(select(puzzle_ratings).where(puzzle_ratings.c.variant == variant))
            return {row.puzzle_id: _rating(row._mapping) for row in rows}

    async def attempted(self, user_id: int, variant: str) -> set[str]:
        """The ids of the puzzles of ``variant`` that ``user_id`` has finished an attempt at."""
        statement = select(puzzle_attempts.c.puzzle_id).where(
            puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.variant == variant
        )
        async with self.records.connection() as connection:
            return set((await connection.execute(statement)).scalars())

    async def daily_result(self, user_id: int, guild_id: int | None, day: str, puzzle_id: str) -> bool | None:
        """Whether ``user_id`` solved the daily puzzle ``puzzle_id`` of ``day`` in the server, at their first attempt
        (``None``: no finished attempt)."""
        statement = select(puzzle_attempts.c.solved).where(
            puzzle_attempts.c.user_id == user_id, puzzle_attempts.c.daily == day, _guild(guild_id),
            puzzle_attempts.c.puzzle_id == puzzle_id,
        )  # fmt: skip
        async with self.records.connection() as connection:
            return (await connection.execute(statement.order_by(puzzle_attempts.c.attempt_id).limit(1))).scalar()

    async def daily_solvers(self, guild_id: int | None, day: str, puzzle_id: str) -> int:
        """The players who solved the daily puzzle ``puzzle_id`` of ``day`` in the server at their first attempt
        (each counted once)."""
        where = (puzzle_attempts.c.daily == day, puzzle_attempts.c.puzzle_id == puzzle_id, _guild(guild_id))
        first = select(func.min(puzzle_attempts.c.attempt_id)).where(*where).group_by(puzzle_attempts.c.user_id)
        statement = select(func.count()).where(puzzle_attempts.c.attempt_id.in_(first), puzzle_attempts.c.solved)
        async with self.records.connection() as connection:
            return int((await connection.execute(statement)).scalar() or 0)

    async def finished_moves(self, variant: str) -> list[tuple[int, ...]]:
        """The moves (0-based cells) of every finished game of ``variant`` (not 3x3), oldest first: what
        :func:`engine.puzzles.mining.mine` mines."""
        statement = select(games.c.moves).where(games.c.variant == variant).order_by(games.c.ended_at, games.c.game_id)
        async with self.records.connection() as connection:
            rows = (await connection.execute(statement)).scalars().all()
        return [tuple(int(cell) for cell in text.split(",") if cell) for text in rows]

    async def start(self, run: Run) -> Run | None:
        """Store a new running puzzle (``run.run_id`` is ignored); returns it with its id. A daily puzzle
        (``run.daily``) is the player's one try in its place and day: ``None`` when they had it already (running or
        finished), whatever the timing (the try's key in ``daily_tries`` is written in the same transaction)."""
        values = {
            "user_id": run.user_id, "guild_id": run.guild_id, "variant": run.variant, "puzzle_id": run.puzzle_id,
            "progress": run.progress, "pad": run.pad, "daily": run.daily, "started_at": _now(), "rated": run.rated,
        }  # fmt: skip
        async with self.records.connection(write=True) as connection:
            if run.daily is not None and not await _claim(connection, run):
                return None
            result = await connection.execute(insert(running_puzzles).values(**values))
            (run_id,) = result.inserted_primary_key or (0,)
        return replace(run, run_id=int(run_id))

    async def run(self, run_id: int) -> Run | None:
        """The running puzzle ``run_id``, or ``None`` when it has ended (or never existed)."""
        statement = select(running_puzzles).where(running_puzzles.c.run_id == run_id)
        async with self.records.connection() as connection:
            row = (await connection.execute(statement)).mappings().first()
        if row is None:
            return None
        return Run(row["run_id"], row["user_id"], row["guild_id"], row["variant"], row["puzzle_id"], row["progress"],
                   row["pad"], row["daily"], bool(row["rated"]))  # fmt: skip

    async def advance(self, run: Run) -> None:
        """Store ``run``'s progress, pad and whether it is still rated."""
        statement = update(running_puzzles).where(running_puzzles.c.run_id == run.run_id)
        async with self.records.connection(write=True) as connection:
            await connection.execute(statement.values(progress=run.progress, pad=run.pad, rated=run.rated))

    async def finish(self, run: Run, solved: bool) -> Attempt | None:
        """End ``run`` in one transaction: delete the running row, record the attempt and, on the player's first
        attempt at the puzzle while ``run.rated``, rate player and puzzle. ``None`` when the run had already ended
        (nothing written)."""
        key = {"user_id": run.user_id, "variant": run.variant}
        async with self.records.connection(write=True) as connection:
            gone = await connection.execute(delete(running_puzzles).where(running_puzzles.c.run_id == run.run_id))
            if not gone.rowcount:
                return None
            before = await _player(connection, run.user_id, run.variant)
            earlier = select(puzzle_attempts.c.attempt_id).where(
                puzzle_attempts.c.user_id == run.user_id, puzzle_attempts.c.puzzle_id == run.puzzle_id
            )
            after: PuzzleRating | None = None
            if run.rated and (await connection.execute(earlier.limit(1))).first() is None:
                row = (
                    await connection.execute(select(puzzle_ratings).where(puzzle_ratings.c.puzzle_id == run.puzzle_id))
                ).mappings().first()  # fmt: skip
                puzzle_before = starting(run.puzzle) if row is None else _rating(row)
                after, puzzle_after = rate(before, puzzle_before, solved)
                await _upsert(connection, puzzle_players, key, {**_values(after), "updated_at": _now()})
                await _upsert(
                    connection, puzzle_ratings, {"puzzle_id": run.puzzle_id},
                    {**_values(puzzle_after), "variant": run.variant},
                )  # fmt: skip
            await connection.execute(
                insert(puzzle_attempts).values(
                    **key, guild_id=run.guild_id, puzzle_id=run.puzzle_id, daily=run.daily, solved=solved,
                    rated=after is not None, rating_after=None if after is None else after.rating, finished_at=_now(),
                )
            )  # fmt: skip
        return before, after


async def _player(connection: AsyncConnection, user_id: int, variant: str) -> PuzzleRating:
    statement = select(puzzle_players).where(puzzle_players.c.user_id == user_id, puzzle_players.c.variant == variant)
    row = (await connection.execute(statement)).mappings().first()
    return PuzzleRating() if row is None else _rating(row)


async def _upsert(connection: AsyncConnection, table: Any, key: dict[str, Any], values: dict[str, Any]) -> None:
    """Update the row of ``table`` with ``key``, or insert it (the caller's transaction serialises writers)."""
    where = [table.c[name] == value for name, value in key.items()]
    done = await connection.execute(update(table).where(*where).values(**values))
    if not done.rowcount:
        await connection.execute(insert(table).values(**key, **values))


async def _claim(connection: AsyncConnection, run: Run) -> bool:
    """Write ``run``'s daily try; ``False`` when the player had it already (the key exists: nothing written)."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    key = {"user_id": run.user_id, "place_id": run.guild_id or 0, "day": run.daily, "puzzle_id": run.puzzle_id}
    statement = dialect.insert(daily_tries).values(**key, started_at=_now()).on_conflict_do_nothing()
    return bool((await connection.execute(statement)).rowcount)


def _guild(guild_id: int | None) -> Any:
    column = puzzle_attempts.c.guild_id
    return column.is_(None) if guild_id is None else column == guild_id


def _now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)
