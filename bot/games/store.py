"""The game service's port to the records database: running games written in the background and read back after a
restart (ports and adapters: the service sees :class:`GameStore`; :class:`RecordsGames` is the database's adapter).
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from bot.games.finished import setup_fields
from bot.games.match import Match, initial_for
from bot.records import FinishedGame, GameSetup, RecordsStore, RunningGame, RunningWriter
from engine import VARIANTS, IllegalMoveError, Mark

__all__ = ["GameStore", "RecordsGames", "Saved", "StoredGame"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StoredGame:
    """What is stored about one game id in one channel: the game still running (as the bot last committed it), or the
    game that ended (players and options; ``over``), or neither; ``elsewhere`` when the game is stored (running or
    ended) in another channel, whose game it is: a press in this channel may not touch it."""

    running: Match | None = None
    finished: Match | None = None
    elsewhere: bool = False


@dataclass(frozen=True, slots=True)
class Saved:
    """A running game as stored, and when it was last written (UTC; its turn's deadline runs from then at the
    latest)."""

    game: Match
    updated_at: datetime.datetime


class GameStore(Protocol):
    """Where the service keeps running games. Writes never wait; reads raise
    :class:`~bot.records.RecordsUnavailableError` when the database cannot be reached."""

    def save(self, game: Match) -> None:
        """Queue ``game``'s newest state (a running game)."""

    def drop(self, game: Match) -> None:
        """Queue the removal of ``game``'s running row (it ended, or never reached Discord)."""

    async def stored(self, game_id: str, channel_id: int) -> StoredGame:
        """What is stored about ``game_id`` in ``channel_id`` (a game of another channel is none, and ``elsewhere``)."""

    async def in_channel(self, channel_id: int) -> Match | None:
        """The newest game stored as running in ``channel_id``, if any."""

    async def running_games(self) -> tuple[Saved, ...]:
        """Every game stored as running and not recorded as finished."""


class RecordsGames:
    """:class:`GameStore` over the records database: running games through a :class:`RunningWriter`, finished games
    read from the ``games`` table."""

    def __init__(self, records: RecordsStore, writer: RunningWriter) -> None:
        self.records = records
        self.running = writer.store
        self.writer = writer

    def save(self, game: Match) -> None:
        """Queue ``game``'s newest state."""
        self.writer.put(to_running(game))

    def drop(self, game: Match) -> None:
        """Queue the removal of ``game``'s running row."""
        self.writer.drop(game.game_id)

    async def stored(self, game_id: str, channel_id: int) -> StoredGame:
        """The running row and the finished record of ``game_id``, when they belong to ``channel_id``; ``elsewhere``
        when either belongs to another channel."""
        running = (await self.running.stored(game_id)).running
        finished = await self.records.game(game_id)
        channels = {row.channel_id for row in (running, finished) if row is not None}
        return StoredGame(
            from_running(running) if running is not None and running.channel_id == channel_id else None,
            from_finished(finished) if finished is not None and finished.channel_id == channel_id else None,
            elsewhere=bool(channels - {channel_id}),
        )

    async def in_channel(self, channel_id: int) -> Match | None:
        """The newest running game of ``channel_id`` that is not recorded as finished."""
        running = await self.running.in_channel(channel_id)
        return None if running is None else from_running(running)

    async def running_games(self) -> tuple[Saved, ...]:
        """Every game stored as running and not recorded as finished (rows this bot cannot play are skipped)."""
        rows = await self.running.unfinished()
        return tuple(Saved(game, row.updated_at) for row in rows if (game := from_running(row)) is not None)


def to_running(game: Match) -> RunningGame:
    """The row of running game ``game`` (updated now)."""
    return RunningGame(
        **setup_fields(game),
        mode=game.mode,
        moves=game.moves,
        states_evaluated=game.ai_states,
        verified=game.verified,
        updated_at=datetime.datetime.now(datetime.UTC),
        variant=game.variant,
    )


def _replayed(game_id: str, moves: tuple[int, ...], variant: str) -> Match | None:
    rules = VARIANTS.get(variant)
    if rules is None:
        log.error("stored game %s is of a variant this bot does not play: %r", game_id, variant)
        return None
    try:
        state = rules.replay(moves)
    except IllegalMoveError:
        log.error("stored game %s has moves that are not a legal %s game: %s", game_id, variant, moves)
        return None
    return Match(game_id, 0, None, None, moves=moves, state=state, variant=variant)


def _setup(row: GameSetup) -> dict[str, Any]:
    """The ``Match`` fields of a stored game's players and options (a game between people gets the defaults)."""
    return {
        "game_id": row.game_id,
        "channel_id": row.channel_id,
        "guild_id": row.guild_id,
        "x_id": row.x_user_id,
        "o_id": row.o_user_id,
        "level": row.level or 8,
        "algorithm": row.algorithm or "alpha-beta",
    }


def from_running(row: RunningGame) -> Match | None:
    """The running game a row stores (None for a row of a variant this bot does not play or with an impossible
    position)."""
    base = _replayed(row.game_id, row.moves, row.variant)
    if base is None:
        return None
    return Match(
        **_setup(row),
        mode=row.mode,
        moves=row.moves,
        state=base.state,
        ai_states=row.states_evaluated,
        verified=row.verified,
        variant=row.variant,
    )


def from_finished(record: FinishedGame) -> Match:
    """The ended game a record keeps (players, options, moves; its board mode is not recorded: buttons)."""
    base = _replayed(record.game_id, record.moves, record.variant)
    return Match(
        **_setup(record),
        moves=record.moves,
        state=base.state if base is not None else initial_for(record.variant),
        status="over",
        end_reason=record.end_reason,
        resigned=None if record.end_reason != "resigned" or record.result is None else Mark(record.result).other,
        ai_states=record.states_evaluated,
        variant=record.variant,
    )
