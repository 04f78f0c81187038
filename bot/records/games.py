"""The values the records store takes and returns: finished games, win/draw/loss records, leaderboard rows.
The game's vocabulary they use (sides, end reasons, levels...) is :mod:`bot.vocabulary`'s.

All are frozen dataclasses. :class:`FinishedGame` checks its own fields, so a game that reaches the database
is one the schema accepts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from bot.vocabulary import (
    ALGORITHMS,
    COUNTED_END_REASONS,
    END_REASONS,
    LEVELS,
    RESULTS,
    SIDES,
    Algorithm,
    EndReason,
    Result,
    Side,
)
from engine import DEFAULT_VARIANT, VARIANTS

__all__ = [
    "MAX_SNOWFLAKE",
    "FinishedGame",
    "GameSetup",
    "Leaderboard",
    "RatedRow",
    "Rating",
    "Record",
    "UserStats",
]

MAX_SNOWFLAKE: Final = 2**63 - 1
"""The largest id stored (a signed 64-bit ``BIGINT``). A Discord snowflake keeps its millisecond timestamp
(since 2015-01-01) in the top 42 bits, so its top bit stays 0, and the id fits, until the year 2084."""
MAX_GAME_ID_LENGTH: Final = 64


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSetup:
    """What a finished game and a running game both keep: the game's id, where it is played, who plays each side
    and the bot's options.

    Ids are Discord snowflakes (0 to 2**63 - 1); ``None`` stands for the bot (a user id), or a direct message
    (``guild_id``). ``bot_side`` is the mark the bot played, or ``None`` in a game between two people, where
    ``level`` (1-8, :data:`LEVELS`) and ``algorithm`` may be ``None`` too. Subclasses check these fields with
    :meth:`_check_setup`.
    """

    game_id: str
    channel_id: int
    guild_id: int | None
    x_user_id: int | None
    o_user_id: int | None
    bot_side: Side | None
    level: int | None
    algorithm: Algorithm | None

    def _check_setup(self) -> None:
        if not isinstance(self.game_id, str) or not 0 < len(self.game_id) <= MAX_GAME_ID_LENGTH:
            raise ValueError(f"game_id must be 1 to {MAX_GAME_ID_LENGTH} characters, not {self.game_id!r}")
        check_id("channel_id", self.channel_id, required=True)
        for name in ("guild_id", "x_user_id", "o_user_id"):
            check_id(name, getattr(self, name), required=False)
        if self.bot_side is not None and self.bot_side not in SIDES:
            raise ValueError(f"bot_side must be 'X', 'O' or None, not {self.bot_side!r}")
        if self.x_user_id is not None and self.x_user_id == self.o_user_id:
            raise ValueError(f"game {self.game_id!r}: user {self.x_user_id} cannot play both sides")
        if self.level is not None and (isinstance(self.level, bool) or self.level not in LEVELS):
            raise ValueError(f"level must be one of {LEVELS}, not {self.level!r}")
        if self.algorithm is not None and self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, not {self.algorithm!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class FinishedGame(GameSetup):
    """One game as it ended, keyed by ``game_id`` (stored once, whatever the number of saves).

    The players and options are those of :class:`GameSetup`; a game against the bot needs its ``level`` and
    ``algorithm``. ``variant`` names the board (a key of :data:`engine.VARIANTS`, :data:`engine.DEFAULT_VARIANT` by
    default) and ``moves`` are its cells (0-based: 0-8, 0-15, 0-24, 0-80) in the order played. ``result`` is the
    winning mark (by three in a row or because the other side resigned), ``"draw"``, or ``None`` for a game ended
    without a result (abandoned, declined, expired). ``states_evaluated`` counts the states the bot's searches
    evaluated over the game. Times are timezone-aware and kept in UTC.

    Raises:
        ValueError: a field is out of range or contradicts another (quoted with ``!r``).
    """

    moves: tuple[int, ...]
    result: Result | None
    end_reason: EndReason
    states_evaluated: int
    started_at: datetime
    ended_at: datetime
    variant: str = DEFAULT_VARIANT

    def __post_init__(self) -> None:
        self._check_setup()
        if self.variant not in VARIANTS:
            raise ValueError(f"variant must be one of {tuple(VARIANTS)}, not {self.variant!r}")
        self._check_sides()
        if self.bot_side is not None and (self.level is None or self.algorithm is None):
            raise ValueError(f"game {self.game_id!r} against the bot needs its level and algorithm")
        self._check_moves()
        self._check_result()
        check_id("states_evaluated", self.states_evaluated, required=True)
        started, ended = utc("started_at", self.started_at), utc("ended_at", self.ended_at)
        if ended < started:
            raise ValueError(f"ended_at {ended.isoformat()} is before started_at {started.isoformat()}")
        object.__setattr__(self, "started_at", started)
        object.__setattr__(self, "ended_at", ended)

    def _check_sides(self) -> None:
        if self.bot_side is None:
            if self.x_user_id is None or self.o_user_id is None:
                raise ValueError(f"game {self.game_id!r} has no bot_side, so both x_user_id and o_user_id are needed")
        else:
            bot_id, user_id = (
                (self.x_user_id, self.o_user_id) if self.bot_side == "X" else (self.o_user_id, self.x_user_id)
            )
            if bot_id is not None or user_id is None:
                raise ValueError(
                    f"game {self.game_id!r}: the bot plays {self.bot_side}, so that side's user id must be None "
                    f"and the other side's set (x_user_id={self.x_user_id!r}, o_user_id={self.o_user_id!r})"
                )

    def _check_moves(self) -> None:
        moves = self.moves
        last = VARIANTS[self.variant].cells - 1
        if isinstance(moves, str) or not isinstance(moves, Sequence):
            raise ValueError(f"moves must be a sequence of cells 0-{last}, not {moves!r}")
        cells = tuple(moves)
        if len(cells) > last + 1 or len(set(cells)) != len(cells):
            raise ValueError(f"moves must be at most {last + 1} distinct cells, not {cells!r}")
        if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= last for c in cells):
            raise ValueError(f"moves must be cells 0-{last}, not {cells!r}")
        object.__setattr__(self, "moves", cells)

    def _check_result(self) -> None:
        reason, result = self.end_reason, self.result
        if reason not in END_REASONS:
            raise ValueError(f"end_reason must be one of {END_REASONS}, not {reason!r}")
        if result is not None and result not in RESULTS:
            raise ValueError(f"result must be one of {RESULTS} or None, not {result!r}")
        expected: tuple[Result | None, ...] = (
            ("X", "O") if reason in ("win", "resigned") else ("draw",) if reason == "draw" else (None,)
        )
        if result not in expected:
            raise ValueError(f"game {self.game_id!r} ended by {reason!r} needs result in {expected}, not {result!r}")

    @property
    def counted(self) -> bool:
        """True when the game counts as a win, draw or loss, as it is rated: it ended by a win, a draw, a resignation
        or a time-out (abandoned on a person's turn)."""
        to_move = "X" if len(self.moves) % 2 == 0 else "O"
        return self.end_reason in COUNTED_END_REASONS or (self.end_reason == "abandoned" and to_move != self.bot_side)

    @property
    def vs_bot(self) -> bool:
        """True when the bot played one side."""
        return self.bot_side is not None


def check_id(name: str, value: int | None, *, required: bool) -> None:
    """An id or a count from 0 to :data:`MAX_SNOWFLAKE` (``None`` too when not ``required``)."""
    if value is None and not required:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SNOWFLAKE:
        raise ValueError(f"{name} must be an int from 0 to 2**63 - 1{'' if required else ' or None'}, not {value!r}")


def utc(name: str, value: datetime) -> datetime:
    """``value`` in UTC.

    Raises:
        ValueError: ``value`` is not a timezone-aware datetime (the message names the field ``name``).
    """
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must be a timezone-aware datetime, not {value!r}")
    return value.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Record:
    """Wins, draws and losses, from one side's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games counted: wins + draws + losses."""
        return self.wins + self.draws + self.losses


@dataclass(frozen=True, slots=True)
class UserStats:
    """One user's records against the bot and against people, from that user's point of view."""

    vs_bot: Record
    vs_people: Record


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's Glicko-2 rating in one variant and pool: ``rating`` and ``deviation`` in rating points,
    ``volatility`` (Glickman's sigma), the rated ``games`` and the best level beaten (``None``: none yet, or the
    people pool). A player with no rated game has Glickman's defaults, 1500 ± 350."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    games: int = 0
    best_level: int | None = None

    def __str__(self) -> str:
        return f"{round(self.rating)} ± {round(self.deviation)}"


@dataclass(frozen=True, slots=True)
class RatedRow:
    """A leaderboard row: a user and their rating."""

    user_id: int
    rating: Rating


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The two leaderboard tables, best first (ranking rules: :meth:`bot.records.RecordsStore.leaderboard`): the
    ratings against the bot and between people."""

    vs_bot: tuple[RatedRow, ...]
    vs_people: tuple[RatedRow, ...]
