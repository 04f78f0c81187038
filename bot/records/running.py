"""Running games in the records database, so a board pressed after a restart is checked against what the bot stored.

:class:`RunningGame` is one game as it stands (its players, options, moves and the bot's states count);
:class:`RunningStore` writes and reads them next to the finished games of a :class:`~bot.records.RecordsStore`.
Writes go through :class:`bot.records.running_writer.RunningWriter`, in the background.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import RowMapping

from bot.records.games import (
    ALGORITHMS,
    DIFFICULTIES,
    MAX_GAME_ID_LENGTH,
    MAX_SNOWFLAKE,
    SIDES,
    Algorithm,
    Difficulty,
    Mode,
    Side,
)
from bot.records.schema import games, running_games
from bot.records.store import RecordsStore

__all__ = ["MODES", "Mode", "RunningGame", "RunningStore", "Stored"]

MODES: Final[tuple[Mode, ...]] = ("buttons", "text")
MAX_CELL: Final = 255
"""The largest cell number stored (variants with bigger boards than 3x3 fit)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunningGame:
    """One running game as the bot committed it, keyed by ``game_id``.

    Ids are Discord snowflakes; ``None`` is the bot (a user id) or a direct message (``guild_id``). ``moves``
    are cell numbers (0 and up) in play order and ``version`` is their count. ``states_evaluated`` is the
    bot's own total over the game (states, from its searches). ``verified`` is False for a game resumed from
    a board that nothing stored vouched for. ``updated_at`` is timezone-aware (UTC).

    Raises:
        ValueError: a field is out of range or contradicts another (quoted with ``!r``).
    """

    game_id: str
    channel_id: int
    guild_id: int | None
    x_user_id: int | None
    o_user_id: int | None
    bot_side: Side | None
    difficulty: Difficulty | None
    algorithm: Algorithm | None
    mode: Mode
    moves: tuple[int, ...]
    states_evaluated: int
    verified: bool
    updated_at: datetime
    variant: str = "3x3"

    def __post_init__(self) -> None:
        if not isinstance(self.game_id, str) or not 0 < len(self.game_id) <= MAX_GAME_ID_LENGTH:
            raise ValueError(f"game_id must be 1 to {MAX_GAME_ID_LENGTH} characters, not {self.game_id!r}")
        if not isinstance(self.variant, str) or not 0 < len(self.variant) <= 16:
            raise ValueError(f"variant must be 1 to 16 characters, not {self.variant!r}")
        for name in ("channel_id", "guild_id", "x_user_id", "o_user_id"):
            value = getattr(self, name)
            if value is None and name != "channel_id":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SNOWFLAKE:
                raise ValueError(f"{name} must be an int from 0 to 2**63 - 1, not {value!r}")
        if self.bot_side is not None and self.bot_side not in SIDES:
            raise ValueError(f"bot_side must be 'X', 'O' or None, not {self.bot_side!r}")
        if (self.bot_side is None) != (self.x_user_id is not None and self.o_user_id is not None):
            raise ValueError(f"game {self.game_id!r}: bot_side {self.bot_side!r} does not match its players")
        if self.x_user_id is not None and self.x_user_id == self.o_user_id:
            raise ValueError(f"game {self.game_id!r}: user {self.x_user_id} cannot play both sides")
        if self.difficulty is not None and self.difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {DIFFICULTIES}, not {self.difficulty!r}")
        if self.algorithm is not None and self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, not {self.algorithm!r}")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")
        cells = tuple(self.moves)
        if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_CELL for c in cells):
            raise ValueError(f"moves must be cells 0-{MAX_CELL}, not {cells!r}")
        if len(set(cells)) != len(cells):
            raise ValueError(f"moves must be distinct cells, not {cells!r}")
        object.__setattr__(self, "moves", cells)
        states = self.states_evaluated
        if isinstance(states, bool) or not isinstance(states, int) or not 0 <= states <= MAX_SNOWFLAKE:
            raise ValueError(f"states_evaluated must be an int from 0 to 2**63 - 1, not {states!r}")
        if not isinstance(self.updated_at, datetime) or self.updated_at.utcoffset() is None:
            raise ValueError(f"updated_at must be a timezone-aware datetime, not {self.updated_at!r}")
        object.__setattr__(self, "updated_at", self.updated_at.astimezone(UTC))

    @property
    def version(self) -> int:
        """The number of moves played: two writes of one game compare by it (the larger is newer)."""
        return len(self.moves)


@dataclass(frozen=True, slots=True)
class Stored:
    """What the database holds about one game id: its running row, if any, and whether it finished."""

    running: RunningGame | None = None
    finished: bool = False


class RunningStore:
    """The ``running_games`` table of ``records``' database. Every method raises
    :class:`~bot.records.RecordsUnavailableError` when the database cannot be reached."""

    def __init__(self, records: RecordsStore) -> None:
        self.records = records
        dialect = postgresql if records.engine.dialect.name == "postgresql" else sqlite
        insert = dialect.insert(running_games)
        columns = [c.name for c in running_games.columns if c.name != "game_id"]
        # one statement for every batch (compiled once); an older version never overwrites a newer one
        self._upsert = insert.on_conflict_do_update(
            index_elements=["game_id"],
            set_={name: insert.excluded[name] for name in columns},
            where=running_games.c.version <= insert.excluded.version,
        )

    async def apply(self, saved: Sequence[RunningGame], dropped: Iterable[str] = ()) -> None:
        """In one transaction: store every game of ``saved`` (a stored row with more moves is kept), and delete
        the rows of the game ids in ``dropped`` (games that ended)."""
        gone = list(dropped)
        async with self.records.connection(write=True) as connection:
            if saved:
                await connection.execute(self._upsert, [_to_row(game) for game in saved])
            if gone:
                await connection.execute(delete(running_games).where(running_games.c.game_id.in_(gone)))

    async def stored(self, game_id: str) -> Stored:
        """The running row of ``game_id`` and whether a finished game with that id is recorded."""
        async with self.records.connection() as connection:
            row = (await connection.execute(select(running_games).where(running_games.c.game_id == game_id))).first()
            done = (await connection.execute(select(games.c.game_id).where(games.c.game_id == game_id))).first()
        return Stored(None if row is None else _from_row(row._mapping), done is not None)

    async def in_channel(self, channel_id: int) -> RunningGame | None:
        """The newest game (largest snowflake id, compared by length then text) still running in ``channel_id``
        and not recorded as finished, or None."""
        finished = select(games.c.game_id).where(games.c.game_id == running_games.c.game_id).exists()
        statement = select(running_games).where(running_games.c.channel_id == channel_id, ~finished)
        async with self.records.connection() as connection:
            rows = (await connection.execute(statement)).all()
        found = [_from_row(row._mapping) for row in rows]
        return max(found, key=lambda g: (len(g.game_id), g.game_id), default=None)


def _to_row(game: RunningGame) -> dict[str, Any]:
    return {
        "game_id": game.game_id,
        "variant": game.variant,
        "guild_id": game.guild_id,
        "channel_id": game.channel_id,
        "x_user_id": game.x_user_id,
        "o_user_id": game.o_user_id,
        "bot_side": game.bot_side,
        "difficulty": game.difficulty,
        "algorithm": game.algorithm,
        "mode": game.mode,
        "moves": ",".join(map(str, game.moves)),
        "version": game.version,
        "states_evaluated": game.states_evaluated,
        "verified": game.verified,
        "updated_at": game.updated_at,
    }


def _from_row(row: RowMapping) -> RunningGame:
    values = dict(row)
    del values["version"]
    values["moves"] = tuple(int(cell) for cell in values["moves"].split(",") if cell)
    values["verified"] = bool(values["verified"])
    return RunningGame(**values)
