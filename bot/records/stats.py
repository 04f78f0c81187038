"""The records' statistics: a user's wins, draws and losses, the bot's own record, the leaderboards, each for one
variant or all of them (``variant=None``)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from sqlalchemy import ColumnElement, String, and_, case, func, literal, or_, select, true, union_all
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.records.games import (
    COUNTED_END_REASONS,
    DIFFICULTIES,
    VARIANT_CELLS,
    Difficulty,
    Leaderboard,
    Record,
    UserStats,
    VsBotRow,
    VsPeopleRow,
)
from bot.records.schema import games

__all__ = ["StatsQueries"]


class _Connects(Protocol):
    def connection(self, *, write: bool = False) -> AbstractAsyncContextManager[AsyncConnection]: ...


def _count(condition: ColumnElement[bool]) -> ColumnElement[int]:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


_COUNTED = games.c.end_reason.in_(COUNTED_END_REASONS)
_DECIDED = ("X", "O")


def _in_scope(guild_id: int | None) -> ColumnElement[bool]:
    return true() if guild_id is None else games.c.guild_id == guild_id


def _of_variant(variant: str | None) -> ColumnElement[bool]:
    return true() if variant is None else games.c.variant == variant


class StatsQueries:
    """The statistics queries of :class:`bot.records.store.RecordsStore` (mixed into it)."""

    async def user_stats(
        self: _Connects, user_id: int, guild_id: int | None = None, variant: str | None = None
    ) -> UserStats:
        """``user_id``'s wins, draws and losses against the bot and against people, in guild ``guild_id`` or
        everywhere (``None``, direct messages included), in ``variant``'s games or all of them (``None``). Only
        games ended by a win, a draw or a resignation count; the side that resigned loses.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        side = case((games.c.x_user_id == user_id, "X"), else_="O")
        won = games.c.result == side
        lost = and_(games.c.result.in_(_DECIDED), games.c.result != side)
        drew = games.c.result == "draw"
        vs_bot = games.c.bot_side.is_not(None)
        vs_people = games.c.bot_side.is_(None)
        statement = select(
            *(_count(and_(kind, outcome)) for kind in (vs_bot, vs_people) for outcome in (won, drew, lost))
        ).where(
            or_(games.c.x_user_id == user_id, games.c.o_user_id == user_id),
            _COUNTED,
            _in_scope(guild_id),
            _of_variant(variant),
        )
        async with self.connection() as connection:
            counts = (await connection.execute(statement)).one()
        return UserStats(vs_bot=Record(*map(int, counts[:3])), vs_people=Record(*map(int, counts[3:])))

    async def bot_record(
        self: _Connects, guild_id: int | None = None, variant: str | None = None
    ) -> dict[Difficulty, Record]:
        """The bot's own wins, draws and losses (its point of view) at each difficulty, in guild ``guild_id`` or
        everywhere (``None``), in ``variant``'s games or all of them (``None``); every difficulty is present, in
        the order easy, medium, unbeatable.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        won = games.c.result == games.c.bot_side
        lost = and_(games.c.result.in_(_DECIDED), games.c.result != games.c.bot_side)
        statement = (
            select(games.c.difficulty, _count(won), _count(games.c.result == "draw"), _count(lost))
            .where(games.c.bot_side.is_not(None), _COUNTED, _in_scope(guild_id), _of_variant(variant))
            .group_by(games.c.difficulty)
        )
        async with self.connection() as connection:
            rows = (await connection.execute(statement)).all()
        found = {Difficulty(row[0]): Record(int(row[1]), int(row[2]), int(row[3])) for row in rows}
        return {difficulty: found.get(difficulty, Record()) for difficulty in DIFFICULTIES}

    async def bot_records(self: _Connects, guild_id: int | None = None) -> dict[str, dict[Difficulty, Record]]:
        """The bot's own record per variant and difficulty (e.g. 5x5, unbeatable: 0 losses in 312 games), in guild
        ``guild_id`` or everywhere (``None``): every variant of :data:`VARIANT_CELLS` in its order, every difficulty
        in each, in one query.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        won = games.c.result == games.c.bot_side
        lost = and_(games.c.result.in_(_DECIDED), games.c.result != games.c.bot_side)
        statement = (
            select(games.c.variant, games.c.difficulty, _count(won), _count(games.c.result == "draw"), _count(lost))
            .where(games.c.bot_side.is_not(None), _COUNTED, _in_scope(guild_id))
            .group_by(games.c.variant, games.c.difficulty)
        )
        async with self.connection() as connection:
            rows = (await connection.execute(statement)).all()
        found = {(row[0], Difficulty(row[1])): Record(int(row[2]), int(row[3]), int(row[4])) for row in rows}
        return {
            variant: {difficulty: found.get((variant, difficulty), Record()) for difficulty in DIFFICULTIES}
            for variant in VARIANT_CELLS
        }

    async def leaderboard(
        self: _Connects, guild_id: int | None, limit: int = 10, variant: str | None = None
    ) -> Leaderboard:
        """The top ``limit`` players of guild ``guild_id`` (or of every game, ``None``) in two tables, over
        ``variant``'s games or all of them (``None``).

        Against the bot, where nobody can beat the unbeatable level: most draws at unbeatable, then fewest
        losses at unbeatable, then most games against the bot (any difficulty), then the lower user id.
        Against people: most wins, then fewest losses, then the lower user id. A table lists only users with
        at least one counted game of its kind (won, drawn, or ended by a resignation).

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """

        def seats(user: Any, side: str) -> Any:
            return select(
                user.label("user_id"),
                literal(side, String(1)).label("side"),
                games.c.result,
                games.c.bot_side,
                games.c.difficulty,
            ).where(user.is_not(None), _COUNTED, _in_scope(guild_id), _of_variant(variant))

        seat = union_all(seats(games.c.x_user_id, "X"), seats(games.c.o_user_id, "O")).subquery("seat")
        won = seat.c.result == seat.c.side
        drew = seat.c.result == "draw"
        lost = and_(seat.c.result.in_(_DECIDED), seat.c.result != seat.c.side)
        unbeatable = seat.c.difficulty == Difficulty.UNBEATABLE.value
        hard_draws = _count(and_(unbeatable, drew)).label("hard_draws")
        hard_losses = _count(and_(unbeatable, lost)).label("hard_losses")
        played = func.count().label("played")
        vs_bot = (
            select(
                seat.c.user_id,
                _count(won),
                _count(drew),
                _count(lost),
                _count(and_(unbeatable, won)),
                hard_draws,
                hard_losses,
                played,
            )
            .where(seat.c.bot_side.is_not(None))
            .group_by(seat.c.user_id)
            .order_by(hard_draws.desc(), hard_losses.asc(), played.desc(), seat.c.user_id.asc())
            .limit(limit)
        )
        wins = _count(won).label("wins")
        losses = _count(lost).label("losses")
        vs_people = (
            select(seat.c.user_id, wins, _count(drew), losses)
            .where(seat.c.bot_side.is_(None))
            .group_by(seat.c.user_id)
            .order_by(wins.desc(), losses.asc(), seat.c.user_id.asc())
            .limit(limit)
        )
        async with self.connection() as connection:
            bot_rows = (await connection.execute(vs_bot)).all()
            people_rows = (await connection.execute(vs_people)).all()
        return Leaderboard(
            vs_bot=tuple(
                VsBotRow(int(r[0]), Record(int(r[1]), int(r[2]), int(r[3])), Record(int(r[4]), int(r[5]), int(r[6])))
                for r in bot_rows
            ),
            vs_people=tuple(VsPeopleRow(int(r[0]), Record(int(r[1]), int(r[2]), int(r[3]))) for r in people_rows),
        )
