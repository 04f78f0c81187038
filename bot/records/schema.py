"""The records schema as SQLAlchemy Core tables; migrations in ``migrations/versions`` build the same schema."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Float,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    SmallInteger,
    String,
    Table,
    Text,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator

from engine import DEFAULT_VARIANT

__all__ = ["UTCDateTime", "games", "metadata", "ratings", "running_games"]


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware datetime stored in UTC, also on SQLite, which keeps no offset (read back as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"a naive datetime cannot be stored: {value!r}")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = MetaData()


def _setup_columns() -> list[Column[object]]:
    """New columns for a game's players and options (:class:`bot.records.games.GameSetup` but its id), in the
    order both tables keep them."""
    return [
        Column("guild_id", BigInteger, nullable=True),
        Column("channel_id", BigInteger, nullable=False),
        Column("x_user_id", BigInteger, nullable=True),
        Column("o_user_id", BigInteger, nullable=True),
        Column("bot_side", String(1), nullable=True),
        Column("difficulty", String(16), nullable=True),
        Column("algorithm", String(16), nullable=True),
    ]


games = Table(
    "games",
    metadata,
    Column("game_id", String(64), nullable=False),
    *_setup_columns(),
    Column("moves", Text, nullable=False),
    Column("result", String(4), nullable=True),
    Column("end_reason", String(16), nullable=False),
    Column("states_evaluated", BigInteger, nullable=False),
    Column("started_at", UTCDateTime, nullable=False),
    Column("ended_at", UTCDateTime, nullable=False),
    Column("variant", String(16), nullable=False, server_default=text(f"'{DEFAULT_VARIANT}'")),
    Column("level", SmallInteger, nullable=True),
    PrimaryKeyConstraint("game_id", name="pk_games"),
    CheckConstraint("bot_side IN ('X', 'O')", name="ck_games_bot_side"),
    CheckConstraint("difficulty IN ('easy', 'medium', 'unbeatable')", name="ck_games_difficulty"),
    CheckConstraint("algorithm IN ('alpha-beta', 'minimax')", name="ck_games_algorithm"),
    CheckConstraint("result IN ('X', 'O', 'draw')", name="ck_games_result"),
    CheckConstraint(
        "end_reason IN ('win', 'draw', 'resigned', 'abandoned', 'declined', 'expired')", name="ck_games_end_reason"
    ),
    CheckConstraint("states_evaluated >= 0", name="ck_games_states_evaluated"),
    Index("ix_games_x_user_id", "x_user_id"),
    Index("ix_games_o_user_id", "o_user_id"),
    Index("ix_games_guild_id", "guild_id"),
    Index("ix_games_channel_id_ended_at", "channel_id", "ended_at"),
    Index("ix_games_variant", "variant"),
    Index("ix_games_variant_level", "variant", "level"),
)
"""One row per finished game. ``variant`` names the board (``'3x3'``, ``'4x4'``, ``'5x5'``, ``'ultimate'``; rows from
before migration 0003 are ``'3x3'``). ``level`` is the bot's level (1-8; ``NULL`` between people); ``difficulty`` is
only set on rows from before migration 0004, which mapped it to a level. ``moves`` holds the cells in play order, by the
board's size (:meth:`engine.variants.Variant.moves_text`): up to 10 cells (3x3) as digits (``"4083"``), a larger
board's as comma-separated numbers (``"12,0,80"``)."""

running_games = Table(
    "running_games",
    metadata,
    Column("game_id", String(64), nullable=False),
    Column("variant", String(16), nullable=False, server_default=text(f"'{DEFAULT_VARIANT}'")),
    *_setup_columns(),
    Column("mode", String(16), nullable=False),
    Column("moves", Text, nullable=False),
    Column("version", BigInteger, nullable=False),
    Column("states_evaluated", BigInteger, nullable=False),
    Column("verified", Boolean, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("level", SmallInteger, nullable=True),
    PrimaryKeyConstraint("game_id", name="pk_running_games"),
    CheckConstraint("bot_side IN ('X', 'O')", name="ck_running_games_bot_side"),
    CheckConstraint("mode IN ('buttons', 'text')", name="ck_running_games_mode"),
    CheckConstraint("version >= 0", name="ck_running_games_version"),
    CheckConstraint("states_evaluated >= 0", name="ck_running_games_states_evaluated"),
    Index("ix_running_games_channel_id", "channel_id"),
)
"""One row per game still running, rewritten as it goes (the background writer coalesces a game's writes).

``variant`` names the board (``'3x3'`` for tic-tac-toe); ``moves`` holds the cells in play order as
comma-separated numbers (``"4,0,8"``), so boards with more than ten cells fit; ``version`` is the number of moves,
so an id that carries a game id and a version names one position. ``verified`` is false for a game resumed from a
board the bot could not check against a stored game: its end is never recorded. The row is deleted when the game
ends (the finished game goes to ``games``).
"""

ratings = Table(
    "ratings",
    metadata,
    Column("user_id", BigInteger, nullable=False),
    Column("variant", String(16), nullable=False),
    Column("pool", String(8), nullable=False),
    Column("rating", Float, nullable=False),
    Column("deviation", Float, nullable=False),
    Column("volatility", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("best_level", SmallInteger, nullable=True),
    Column("updated_at", UTCDateTime, nullable=False),
    PrimaryKeyConstraint("user_id", "variant", "pool", name="pk_ratings"),
    CheckConstraint("pool IN ('bot', 'people')", name="ck_ratings_pool"),
    CheckConstraint("deviation > 0", name="ck_ratings_deviation"),
    CheckConstraint("games >= 0", name="ck_ratings_games"),
    CheckConstraint("best_level BETWEEN 1 AND 8", name="ck_ratings_best_level"),
    Index("ix_ratings_variant_pool_rating", "variant", "pool", "rating"),
)
"""One Glicko-2 rating per user, variant and pool (``'bot'``: games against the bot's levels; ``'people'``: games
between people), with its deviation and volatility (Glickman's sigma), the rated games and the best level beaten
(``NULL`` until a win against the bot). A row is written with the game that changed it, in one transaction."""
