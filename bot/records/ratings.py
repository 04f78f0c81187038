"""Players' ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) through the ``glicko2`` package,
one rating per user, variant and pool, updated by every finished game in the transaction that records it.

- **Pool ``bot``**: games against the bot. The opponent is the level played, with its frozen rating from the
  game's ladder (:meth:`engine.Variant.rating`) and the small fixed deviation :data:`LEVEL_DEVIATION`.
- **Pool ``people``**: games between people, both players updated from their ratings before the game.
- Each game is a rating period of its own, as on lichess. A win scores 1, a draw 0.5, a loss 0; a resignation is
  a loss, and so is a game abandoned on a player's turn (a time-out). A game abandoned on the bot's turn (it gave
  up), declined or expired is not rated.

Repeated wins against a low level gain less and less: Glicko-2's expected score against it approaches 1.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from typing import Final, Literal

import glicko2
from sqlalchemy import select, tuple_
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.records.games import FinishedGame, Rating
from bot.records.schema import ratings
from bot.vocabulary import Side
from engine import variant as variant_named

__all__ = [
    "LEVEL_DEVIATION",
    "STARTING",
    "Pool",
    "Score",
    "level_rating",
    "rate_games",
    "rated",
    "replay",
    "scores",
]

Pool = Literal["bot", "people"]

LEVEL_DEVIATION: Final = 30.0
"""The rating deviation given to every level (its rating is measured and frozen, so it is nearly certain)."""


STARTING: Final = Rating()
"""A player with no rated game: Glickman's defaults (1500 ± 350, volatility 0.06)."""


@dataclass(frozen=True, slots=True)
class Score:
    """What one finished game means for one player's rating: ``score`` 1, 0.5 or 0 against an opponent rated
    ``opponent`` (another player's ``user_id`` in the people pool, else ``None`` and a level's rating)."""

    user_id: int
    pool: Pool
    score: float
    level: int | None = None
    opponent: int | None = None


def level_rating(variant: str, level: int) -> float:
    """The frozen rating of ``level`` (1-8) in ``variant`` (:meth:`engine.Variant.rating`).

    Raises:
        UnknownVariantError, ValueError: an unknown variant or level.
    """
    try:
        return variant_named(variant).rating(level)
    except KeyError:
        raise ValueError(f"{variant} has no level {level!r}") from None


def scores(game: FinishedGame) -> tuple[Score, ...]:
    """Each person's score in ``game`` (none when the game is not rated: declined, expired, or abandoned on the bot's
    turn)."""
    loser = _loser(game)
    if loser is None and game.result != "draw":
        return ()

    def score(side: Side) -> float:
        return 0.5 if loser is None else 0.0 if side == loser else 1.0

    if game.bot_side is not None:
        side: Side = "O" if game.bot_side == "X" else "X"
        user = game.x_user_id if side == "X" else game.o_user_id
        assert user is not None  # a FinishedGame against the bot names the person
        return (Score(user, "bot", score(side), level=game.level),)
    x, o = game.x_user_id, game.o_user_id
    assert x is not None and o is not None  # a FinishedGame between people names both
    return Score(x, "people", score("X"), opponent=o), Score(o, "people", score("O"), opponent=x)


def _loser(game: FinishedGame) -> Side | None:
    """The side that lost ``game``: the other side of a win or a resignation, the side to move in an abandoned game
    (a person's time-out; ``None`` when it was the bot's turn, or for any other end)."""
    if game.end_reason in ("win", "resigned") and game.result in ("X", "O"):
        return "O" if game.result == "X" else "X"
    if game.end_reason == "abandoned":
        to_move: Side = "X" if len(game.moves) % 2 == 0 else "O"
        return None if to_move == game.bot_side else to_move
    return None


def rated(player: Rating, opponent: float, opponent_deviation: float, score: float, level: int | None) -> Rating:
    """``player``'s rating after one game scoring ``score`` (1, 0.5, 0) against an opponent rated ``opponent`` with
    ``opponent_deviation``; a win against ``level`` may raise the best level beaten."""
    updated = glicko2.Player(rating=player.rating, rd=player.deviation, vol=player.volatility)
    updated.update_player([opponent], [opponent_deviation], [score])
    best = player.best_level
    if level is not None and score == 1.0 and (best is None or level > best):
        best = level
    return Rating(float(updated.rating), float(updated.rd), float(updated.vol), player.games + 1, best)


async def rate_games(
    connection: AsyncConnection,
    finished: Iterable[FinishedGame],
    *,
    level_rating: Callable[[str, int], float] = level_rating,
) -> int:
    """Update the ratings of every person in ``finished`` (games just stored, in the order they ended) inside
    ``connection``'s open transaction; returns the rating rows written.

    Each game is still a rating period of its own, in order, but a batch costs one read and one write of the ratings
    table, whatever its size: the record writer's transaction (and the database's write lock) then lasts a few round
    trips to the database instead of two per game.

    Raises:
        sqlalchemy.exc.SQLAlchemyError: the database refused a statement (the caller's transaction rolls back).
    """
    games = [(game, found) for game in finished if (found := scores(game))]
    keys = sorted({(s.user_id, game.variant, s.pool) for game, found in games for s in found})
    if not keys:
        return 0
    current = await _current(connection, keys)
    written = replay(current, [game for game, _ in games], level_rating=level_rating)
    now = datetime.datetime.now(datetime.UTC)
    rows = [{**_key_row(key), **asdict(current[key]), "updated_at": now} for key in sorted(written)]
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    upsert = dialect.insert(ratings)
    changed = ["rating", "deviation", "volatility", "games", "best_level", "updated_at"]
    statement = upsert.on_conflict_do_update(
        index_elements=["user_id", "variant", "pool"], set_={name: upsert.excluded[name] for name in changed}
    )
    await connection.execute(statement, rows)
    return len(rows)


_Key = tuple[int, str, Pool]
"""A rating's row: ``(user_id, variant, pool)``."""


def replay(
    current: dict[_Key, Rating],
    finished: Iterable[FinishedGame],
    *,
    level_rating: Callable[[str, int], float] = level_rating,
) -> set[_Key]:
    """Rate ``finished`` (in the order they ended) on ``current``, the ratings by ``(user_id, variant, pool)``
    (updated in place; a missing one starts at :data:`STARTING`); returns the keys changed. Each game is a rating
    period of its own (Glickman 2012)."""
    written: set[_Key] = set()
    for game in finished:
        found = scores(game)
        before = {s.user_id: current.get((s.user_id, game.variant, s.pool), STARTING) for s in found}
        for s in found:
            if s.opponent is None:
                assert s.level is not None
                opponent, deviation = level_rating(game.variant, s.level), LEVEL_DEVIATION
            else:
                opponent, deviation = before[s.opponent].rating, before[s.opponent].deviation
            key = (s.user_id, game.variant, s.pool)
            current[key] = rated(before[s.user_id], opponent, deviation, s.score, s.level)
            written.add(key)
    return written


def _key_row(key: _Key) -> dict[str, object]:
    return dict(zip(("user_id", "variant", "pool"), key, strict=True))


async def _current(connection: AsyncConnection, keys: list[_Key]) -> dict[_Key, Rating]:
    """The ratings of ``keys`` (sorted) as stored (:data:`STARTING` for a missing one), locked until the transaction
    ends. On PostgreSQL the missing rows are first inserted at the starting rating (``ON CONFLICT DO NOTHING`` waits
    for another transaction inserting them), so two processes rating one player's games at once update one after the
    other instead of both starting from 1500; rows are inserted and locked in key order, so two batches never wait
    for each other in a circle. SQLite's writers already hold the database's write lock here (the games' rows were
    inserted first)."""
    key = tuple_(ratings.c.user_id, ratings.c.variant, ratings.c.pool)
    statement = (
        select(ratings.c.user_id, ratings.c.variant, ratings.c.pool, *_RATING_COLUMNS)
        .where(key.in_(keys))
        .order_by(ratings.c.user_id, ratings.c.variant, ratings.c.pool)
    )
    if connection.dialect.name == "postgresql":
        start = {**asdict(STARTING), "updated_at": datetime.datetime.now(datetime.UTC)}
        insert = postgresql.insert(ratings).on_conflict_do_nothing()
        await connection.execute(insert, [{**_key_row(k), **start} for k in keys])
        statement = statement.with_for_update()
    found = {(row[0], row[1], row[2]): Rating(*row[3:]) for row in await connection.execute(statement)}
    return {k: found.get(k, STARTING) for k in keys}


_RATING_COLUMNS = (ratings.c.rating, ratings.c.deviation, ratings.c.volatility, ratings.c.games, ratings.c.best_level)
