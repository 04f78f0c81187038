"""The records' statistics: a user's wins, draws and losses and ratings, the bot's own record per level, the
leaderboards by rating."""

from __future__ import annotations

from collections.abc import Collection
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from sqlalchemy import ColumnElement, and_, bindparam, case, func, or_, select, true
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.sql.elements import BindParameter

from bot.records.games import Leaderboard, RatedRow, Rating, Record, UserStats
from bot.records.schema import games, ratings
from bot.vocabulary import LEVELS
from engine import DEFAULT_VARIANT, VARIANTS

__all__ = ["LEADERBOARD_MAX_DEVIATION", "LEADERBOARD_MIN_GAMES", "StatsQueries"]


class _Connects(Protocol):
    def connection(self, *, write: bool = False) -> AbstractAsyncContextManager[AsyncConnection]: ...


def _count(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


def _digit_variants() -> list[str]:
    """The games whose records store their moves as digits: at most 10 cells (:meth:`engine.Variant.moves_text`), read
    from the registry when a query runs."""
    return [name for name, kind in VARIANTS.items() if kind.cells <= 10]


_DIGITS: BindParameter[list[str]] = bindparam("digit_variants", callable_=_digit_variants, expanding=True)
_PLIES = case(
    (games.c.variant.in_(_DIGITS), func.length(games.c.moves)),
    (games.c.moves == "", 0),
    else_=func.length(games.c.moves) - func.length(func.replace(games.c.moves, ",", "")) + 1,
)
_TO_MOVE = case((_PLIES % 2 == 0, "X"), else_="O")
"""The side to move when the game ended (``moves``: a small board's cells as digits, any other's comma-separated)."""
_LOSER = case(
    (and_(games.c.end_reason.in_(("win", "resigned")), games.c.result == "X"), "O"),
    (and_(games.c.end_reason.in_(("win", "resigned")), games.c.result == "O"), "X"),
    (and_(games.c.end_reason == "abandoned", or_(games.c.bot_side.is_(None), games.c.bot_side != _TO_MOVE)), _TO_MOVE),
)
"""The side that lost, as the ratings count it (:func:`bot.records.ratings._loser`): the other side of a win or a
resignation, the side to move in a game abandoned on a person's turn (a time-out); NULL otherwise."""
_DREW = games.c.end_reason == "draw"
_COUNTED = or_(_DREW, _LOSER.is_not(None))
"""Games that count as a win, a draw or a loss: exactly the rated ones."""


def _in_scope(guild_id: int | None) -> ColumnElement[bool]:
    return true() if guild_id is None else games.c.guild_id == guild_id


def _of_variant(variant: str | None) -> ColumnElement[bool]:
    return true() if variant is None else games.c.variant == variant


def _not_in(excluding: Collection[str]) -> ColumnElement[bool]:
    return true() if not excluding else games.c.game_id.not_in(list(excluding))


class StatsQueries:
    """The statistics queries of :class:`bot.records.store.RecordsStore` (mixed into it)."""

    async def user_stats(
        self: _Connects,
        user_id: int,
        guild_id: int | None = None,
        variant: str | None = None,
        excluding: Collection[str] = (),
    ) -> UserStats:
        """``user_id``'s wins, draws and losses against the bot and against people, in guild ``guild_id`` or
        everywhere (``None``, direct messages included), in ``variant``'s games or all of them (``None``). The
        rated games count: a win, a draw, a resignation (the side that resigned loses) and a time-out (the side that
        let its time run out loses). Games whose id is in ``excluding`` are left out.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        side = case((games.c.x_user_id == user_id, "X"), else_="O")
        lost = side == _LOSER
        won = and_(_LOSER.is_not(None), side != _LOSER)
        drew = _DREW
        vs_bot = games.c.bot_side.is_not(None)
        vs_people = games.c.bot_side.is_(None)
        statement = select(
            *(_count(and_(kind, outcome)) for kind in (vs_bot, vs_people) for outcome in (won, drew, lost))
        ).where(
            or_(games.c.x_user_id == user_id, games.c.o_user_id == user_id),
            _COUNTED,
            _in_scope(guild_id),
            _of_variant(variant),
            _not_in(excluding),
        )
        async with self.connection() as connection:
            counts = (await connection.execute(statement)).one()
        return UserStats(vs_bot=Record(*map(int, counts[:3])), vs_people=Record(*map(int, counts[3:])))

    async def bot_record(
        self: _Connects,
        guild_id: int | None = None,
        variant: str | None = None,
        excluding: Collection[str] = (),
        side: str | None = None,
    ) -> dict[int, Record]:
        """The bot's own wins, draws and losses (its point of view) at each level, in guild ``guild_id`` or
        everywhere (``None``), in ``variant``'s games or all of them (``None``), as ``side`` (``"X"``, ``"O"``) or
        either (``None``); every level 1-8 is present, in order. Games whose id is in ``excluding`` are left out.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        per_level = await _per_level(self, guild_id, variant, excluding, side)
        found = {level: record for (_, level), record in per_level.items()}
        return {level: found.get(level, Record()) for level in LEVELS}

    async def bot_records(
        self: _Connects, guild_id: int | None = None, excluding: Collection[str] = ()
    ) -> dict[str, dict[int, Record]]:
        """The bot's own record per variant and level (e.g. ultimate, level 8: beaten 3 times in 1,204 games), in
        guild ``guild_id`` or everywhere (``None``): every variant of :data:`engine.VARIANTS` in its order, every level
        in each, in one query. Games whose id is in ``excluding`` are left out.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        found = await _per_level(self, guild_id, None, excluding)
        return {variant: {level: found.get((variant, level), Record()) for level in LEVELS} for variant in VARIANTS}

    async def leaderboard(
        self: _Connects, guild_id: int | None, limit: int = 10, variant: str = DEFAULT_VARIANT
    ) -> Leaderboard:
        """The top ``limit`` ratings in ``variant`` against the bot and between people, of the players with a game
        in guild ``guild_id`` (every player: ``None``), best first (then the lower deviation, then the lower user
        id). As on chess sites, a rating is listed only after :data:`LEADERBOARD_MIN_GAMES` rated games and while
        its deviation is at most :data:`LEADERBOARD_MAX_DEVIATION`.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """

        def table(pool: str) -> Any:
            statement = (
                select(*_RATING_COLUMNS)
                .where(
                    ratings.c.variant == variant,
                    ratings.c.pool == pool,
                    ratings.c.games >= LEADERBOARD_MIN_GAMES,
                    ratings.c.deviation <= LEADERBOARD_MAX_DEVIATION,
                )
                .order_by(ratings.c.rating.desc(), ratings.c.deviation.asc(), ratings.c.user_id.asc())
                .limit(limit)
            )
            if guild_id is None:
                return statement
            played_here = select(games.c.game_id).where(
                games.c.guild_id == guild_id,
                or_(games.c.x_user_id == ratings.c.user_id, games.c.o_user_id == ratings.c.user_id),
            )
            return statement.where(played_here.exists())

        async with self.connection() as connection:
            found = [(await connection.execute(table(pool))).all() for pool in ("bot", "people")]
        vs_bot, vs_people = (tuple(RatedRow(int(r[0]), _rating(r[1:])) for r in rows) for rows in found)
        return Leaderboard(vs_bot=vs_bot, vs_people=vs_people)

    async def ratings(self: _Connects, user_id: int, variant: str) -> dict[str, Rating]:
        """``user_id``'s ratings in ``variant``, against the bot (``"bot"``) and against people (``"people"``); a pool
        without a rated game has the starting rating (1500 ± 350).

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        statement = select(ratings.c.pool, *_RATING_COLUMNS[1:]).where(
            ratings.c.user_id == user_id, ratings.c.variant == variant
        )
        async with self.connection() as connection:
            rows = (await connection.execute(statement)).all()
        found = {row[0]: _rating(row[1:]) for row in rows}
        return {pool: found.get(pool, Rating()) for pool in ("bot", "people")}


LEADERBOARD_MIN_GAMES = 5
"""Rated games a player needs before the leaderboard lists their rating."""
LEADERBOARD_MAX_DEVIATION = 200.0
"""The largest rating deviation the leaderboard lists (a rating not yet settled, or left unplayed, is not)."""

_RATING_COLUMNS = (
    ratings.c.user_id,
    ratings.c.rating,
    ratings.c.deviation,
    ratings.c.volatility,
    ratings.c.games,
    ratings.c.best_level,
)


def _rating(row: Any) -> Rating:
    rating, deviation, volatility, played, best = row
    return Rating(float(rating), float(deviation), float(volatility), int(played), best)


async def _per_level(
    store: _Connects,
    guild_id: int | None,
    variant: str | None,
    excluding: Collection[str] = (),
    side: str | None = None,
) -> dict[tuple[str, int], Record]:
    """The bot's record per (variant, level) in guild ``guild_id`` (``None``: everywhere) and ``variant`` (``None``:
    all), as ``side`` (``None``: either)."""
    lost = games.c.bot_side == _LOSER
    won = and_(_LOSER.is_not(None), games.c.bot_side != _LOSER)
    statement = (
        select(games.c.variant, games.c.level, _count(won), _count(_DREW), _count(lost))
        .where(
            games.c.bot_side.is_not(None) if side is None else games.c.bot_side == side,
            _COUNTED,
            _in_scope(guild_id),
            _of_variant(variant),
            _not_in(excluding),
        )
        .group_by(games.c.variant, games.c.level)
    )
    async with store.connection() as connection:
        rows = (await connection.execute(statement)).all()
    return {(row[0], int(row[1])): Record(int(row[2]), int(row[3]), int(row[4])) for row in rows if row[1] is not None}
