"""Reading your own writes: the records as the players know them, the database plus the finished games the
:class:`~bot.records.writer.RecordWriter` still holds. ``/ttt stats``, ``/ttt rating`` and ``/ttt review`` asked
right after a game's end include it, however many games wait before it (a long queue after an outage, a database
busy with another process's writes).

Each read takes the writer's unwritten games with the writer paused between transactions
(:meth:`RecordWriter.unwritten`), so none of them is in the database while it is read (W/D/L also leave their ids
out of the query: exact even when a stuck save could not be paused), and adds them as the writer will: W/D/L as
the ratings count them (:func:`bot.records.ratings.scores`), ratings replayed in order
(:func:`bot.records.ratings.replay`).
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.records.games import FinishedGame, Rating, Record, UserStats
from bot.records.ratings import Pool, replay, scores
from bot.records.store import RecordsStore
from bot.records.writer import RecordWriter
from bot.vocabulary import LEVELS

__all__ = ["FreshRecords"]

_POOLS: tuple[Pool, ...] = ("bot", "people")


class FreshRecords:
    """The reads of ``store`` that must include the games ``writer`` has not written yet."""

    def __init__(self, store: RecordsStore, writer: RecordWriter) -> None:
        self.store = store
        self.writer = writer

    async def user_stats(self, user_id: int, variant: str | None = None) -> UserStats:
        """``user_id``'s W/D/L everywhere (:meth:`RecordsStore.user_stats`), unwritten games included.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        async with self.writer.unwritten() as pending:
            stored = await self.store.user_stats(user_id, variant=variant, excluding=_ids(pending))
        found = {"bot": stored.vs_bot, "people": stored.vs_people}
        for game in _of(pending, variant):
            for score in scores(game):
                if score.user_id == user_id:
                    found[score.pool] = _add(found[score.pool], score.score)
        return UserStats(vs_bot=found["bot"], vs_people=found["people"])

    async def bot_records(self, variant: str | None = None, side: str | None = None) -> dict[str, dict[int, Record]]:
        """The bot's record per variant and level (:meth:`RecordsStore.bot_records`; only ``variant``'s, when
        given; only the games it played as ``side``, ``"X"`` or ``"O"``, when given), unwritten games included.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        async with self.writer.unwritten() as pending:
            if variant is None and side is None:
                records = await self.store.bot_records(excluding=_ids(pending))
            elif variant is None:
                raise ValueError("a side's record is read one variant at a time")
            else:
                found = await self.store.bot_record(variant=variant, excluding=_ids(pending), side=side)
                records = {variant: found}
        for game in _of(pending, variant):
            if side is not None and game.bot_side != side:
                continue
            for score in scores(game):
                if score.pool == "bot" and score.level in LEVELS and game.variant in records:
                    levels = records[game.variant]
                    levels[score.level] = _add(levels[score.level], 1.0 - score.score)
        return records

    async def ratings(self, user_id: int, variant: str) -> dict[str, Rating]:
        """``user_id``'s ratings in ``variant`` (:meth:`RecordsStore.ratings`), unwritten games rated in order.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        async with self.writer.unwritten() as pending:
            games = list(_of(pending, variant))
            people = sorted({s.user_id for game in games for s in scores(game)} | {user_id})
            stored = {person: await self.store.ratings(person, variant) for person in people}
        current = {(p, variant, pool): stored[p][pool] for p in people for pool in _POOLS}
        replay(current, games)
        return {pool: current[user_id, variant, pool] for pool in _POOLS}

    async def game(self, game_id: str) -> FinishedGame | None:
        """The finished game ``game_id``, written or not (``None``: no such game).

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        async with self.writer.unwritten() as pending:
            held = next((game for game in pending if game.game_id == game_id), None)
            return held or await self.store.game(game_id)

    async def last_game(self, channel_id: int) -> FinishedGame | None:
        """The game that ended last in ``channel_id``, written or not.

        Raises:
            RecordsUnavailableError: the database cannot be reached.
        """
        async with self.writer.unwritten() as pending:
            held = [game for game in pending if game.channel_id == channel_id]
            stored = await self.store.last_game(channel_id)
        candidates = [*held, *([stored] if stored else [])]
        return max(candidates, key=lambda game: (game.ended_at, game.game_id), default=None)


def _ids(games: Iterable[FinishedGame]) -> list[str]:
    return [game.game_id for game in games]


def _of(games: Iterable[FinishedGame], variant: str | None) -> Iterable[FinishedGame]:
    return (game for game in games if variant is None or game.variant == variant)


def _add(record: Record, score: float) -> Record:
    """``record`` with one more game scoring ``score`` (1 a win, 0.5 a draw, 0 a loss)."""
    if score == 1.0:
        return Record(record.wins + 1, record.draws, record.losses)
    if score == 0.5:
        return Record(record.wins, record.draws + 1, record.losses)
    return Record(record.wins, record.draws, record.losses + 1)
