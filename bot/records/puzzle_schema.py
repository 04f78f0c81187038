"""The puzzle tables (migrations 0005-0007), on the records' :data:`bot.records.schema.metadata`."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    true,
)

from bot.records.schema import UTCDateTime, metadata

__all__ = ["daily_tries", "puzzle_attempts", "puzzle_players", "puzzle_ratings", "running_puzzles"]


def _glicko_columns() -> list[Column[object]]:
    return [
        Column("rating", Float, nullable=False),
        Column("deviation", Float, nullable=False),
        Column("volatility", Float, nullable=False),
        Column("attempts", Integer, nullable=False),
        Column("solved", Integer, nullable=False),
    ]


puzzle_players = Table(
    "puzzle_players",
    metadata,
    Column("user_id", BigInteger, primary_key=True),
    Column("variant", String(16), primary_key=True),
    *_glicko_columns(),
    Column("updated_at", UTCDateTime, nullable=False),
    CheckConstraint("deviation > 0", name="ck_puzzle_players_deviation"),
)
"""A player's Glicko-2 puzzle rating per variant, with the rated attempts and how many were solved."""

puzzle_ratings = Table(
    "puzzle_ratings",
    metadata,
    Column("puzzle_id", String(40), primary_key=True),
    Column("variant", String(16), nullable=False),
    *_glicko_columns(),
    CheckConstraint("deviation > 0", name="ck_puzzle_ratings_deviation"),
)
"""A puzzle's Glicko-2 rating once it has been attempted (before: its starting rating from the shipped set)."""

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("attempt_id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", BigInteger, nullable=False),
    Column("guild_id", BigInteger, nullable=True),
    Column("variant", String(16), nullable=False),
    Column("puzzle_id", String(40), nullable=False),
    Column("daily", String(10), nullable=True),
    Column("solved", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("rating_after", Float, nullable=True),
    Column("finished_at", UTCDateTime, nullable=False),
    Index("ix_puzzle_attempts_user_puzzle", "user_id", "puzzle_id"),
    Index("ix_puzzle_attempts_daily", "guild_id", "daily", "puzzle_id"),
)
"""Every finished attempt: ``daily`` is the day (``YYYY-MM-DD``, UTC) of a daily puzzle, else ``NULL``; only a
player's first attempt at a puzzle is ``rated``, and ``rating_after`` is then the player's new rating."""

running_puzzles = Table(
    "running_puzzles",
    metadata,
    Column("run_id", Integer, primary_key=True, autoincrement=True),
    Column("user_id", BigInteger, nullable=False),
    Column("guild_id", BigInteger, nullable=True),
    Column("variant", String(16), nullable=False),
    Column("puzzle_id", String(40), nullable=False),
    Column("progress", SmallInteger, nullable=False),
    Column("pad", SmallInteger, nullable=False),
    Column("daily", String(10), nullable=True),
    Column("started_at", UTCDateTime, nullable=False),
    Column("rated", Boolean, nullable=False, server_default=true()),
)
"""A puzzle being solved: ``progress`` counts the plies of its line already played, ``pad`` is the small board an
ultimate solver opened on its pad (-1: none), ``rated`` is false once the solver played a slower win (migration
0007). The row goes when the attempt ends (to ``puzzle_attempts``)."""

daily_tries = Table(
    "daily_tries",
    metadata,
    Column("user_id", BigInteger, primary_key=True),
    Column("place_id", BigInteger, primary_key=True),
    Column("day", String(10), primary_key=True),
    Column("puzzle_id", String(40), primary_key=True),
    Column("started_at", UTCDateTime, nullable=False),
)
"""A player's one try at a daily puzzle (migration 0006): the key makes a second try impossible, whenever it is
asked; ``place_id`` is the server's id, 0 outside a server (a daily puzzle is the same in every DM)."""
