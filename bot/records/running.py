"""Running games in the records database, so a board pressed after a restart is checked against what the bot stored.

:class:`RunningGame` is one game as it stands (its players, options, moves and the bot's states count);
:class:`RunningStore` writes and reads them next to the finished games of a :class:`~bot.records.RecordsStore`.
Writes go through :class:`bot.records.running_writer.RunningWriter`, in the background.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import RowMapping

from bot.records.games import GameSetup, check_id, utc
from bot.records.schema import games, running_games
from bot.records.store import RecordsStore, setup_row, setup_values
from bot.vocabulary import Mode
from engine import DEFAULT_VARIANT

__all__ = ["MODES", "Mode", "RunningGame", "RunningStore", "Stored"]

MODES: Final[tuple[Mode, ...]] = ("buttons", "text")
MAX_CELL: Final = 255
"""The largest cell number stored (variants with bigger boards than 3x3 fit)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunningGame(GameSetup):
    """One running game as the bot committed it, keyed by ``game_id``; its players and options are those of
    :class:`~bot.records.games.GameSetup` (a game against the bot names neither user on the bot's side).

    ``moves`` are cell numbers (0 and up) in play order and ``version`` is their count. ``states_evaluated`` is the
    bot's own total over the game (states, from its searches). ``verified`` is False for a game resumed from
    a board that nothing stored vouched for. ``updated_at`` is timezone-aware (UTC).

    Raises:
        ValueError: a field is out of range or contradicts another (quoted with ``!r``).
    """

    mode: Mode
    moves: tuple[int, ...]
    states_evaluated: int
    verified: bool
    updated_at: datetime
    variant: str = DEFAULT_VARIANT

    def __post_init__(self) -> None:
        self._check_setup()
        if not isinstance(self.variant, str) or not 0 < len(self.variant) <= 16:
            raise ValueError(f"variant must be 1 to 16 characters, not {self.variant!r}")
        if (self.bot_side is None) != (self.x_user_id is not None and self.o_user_id is not None):
            raise ValueError(f"game {self.game_id!r}: bot_side {self.bot_side!r} does not match its players")
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")
        cells = tuple(self.moves)
        if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= MAX_CELL for c in cells):
            raise ValueError(f"moves must be cells 0-{MAX_CELL}, not {cells!r}")
        if len(set(cells)) != len(cells):
            raise ValueError(f"moves must be distinct cells, not {cells!r}")
        object.__setattr__(self, "moves", cells)
        check_id("states_evaluated", self.states_evaluated, required=True)
        object.__setattr__(self, "updated_at", utc("updated_at", self.updated_at))

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

    async def unfinished(self) -> list[RunningGame]:
        """Every running game not recorded as finished (read at start-up, to take over what a previous process left)."""
        finished = select(games.c.game_id).where(games.c.game_id == running_games.c.game_id).exists()
        async with self.records.connection() as connection:
            rows = (await connection.execute(select(running_games).where(~finished))).all()
        return [_from_row(row._mapping) for row in rows]

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
        **setup_row(game),
        "variant": game.variant,
        "mode": game.mode,
        "moves": ",".join(map(str, game.moves)),
        "version": game.version,
        "states_evaluated": game.states_evaluated,
        "verified": game.verified,
        "updated_at": game.updated_at,
    }


def _from_row(row: RowMapping) -> RunningGame:
    values = setup_values(row)
    del values["version"]
    values["moves"] = tuple(int(cell) for cell in values["moves"].split(",") if cell)
    values["verified"] = bool(values["verified"])
    return RunningGame(**values)
