"""Migration 0003 (the variant of finished games) on a database with rows at 0002, and the statistics per variant,
on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import create_async_engine

from bot.records import FinishedGame, Record, RecordsStore, database_url, open_store
from bot.records.migrate import alembic_config
from bot.records.schema import UTCDateTime, metadata
from engine import VARIANTS
from tests.bot.records.conftest import Backend

A, B = 101, 102
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)
GAMES_AT_0002 = sa.table(
    "games",
    *(sa.column(name) for name in ("game_id", "guild_id", "channel_id", "x_user_id", "o_user_id", "bot_side")),
    *(sa.column(name) for name in ("difficulty", "algorithm", "moves", "result", "end_reason", "states_evaluated")),
    sa.column("started_at", UTCDateTime),
    sa.column("ended_at", UTCDateTime),
)


def old_row(game_id: str, moves: str, result: str | None, reason: str) -> dict[str, object]:
    return {
        "game_id": game_id,
        "guild_id": 1,
        "channel_id": 11,
        "x_user_id": A,
        "o_user_id": None,
        "bot_side": "O",
        "difficulty": "unbeatable",
        "algorithm": "alpha-beta",
        "moves": moves,
        "result": result,
        "end_reason": reason,
        "states_evaluated": 300,
        "started_at": T0,
        "ended_at": T0 + timedelta(seconds=30),
    }


def game(
    game_id: str,
    variant: str,
    moves: tuple[int, ...],
    result: str | None,
    level: int = 8,
    reason: str = "win",
    x: int | None = A,
) -> FinishedGame:
    return FinishedGame(
        game_id=game_id,
        channel_id=11,
        guild_id=1,
        x_user_id=x,
        o_user_id=None if x is not None else A,
        bot_side="O" if x is not None else "X",
        level=level,
        algorithm="alpha-beta",
        moves=moves,
        result=result,  # type: ignore[arg-type]
        end_reason=reason,  # type: ignore[arg-type]
        states_evaluated=1234,
        started_at=T0,
        ended_at=T0 + timedelta(minutes=1),
        variant=variant,
    )


async def test_0003_keeps_the_rows_of_a_database_at_0002(backend: Backend) -> None:
    engine = create_async_engine(database_url(backend.url))
    async with engine.begin() as connection:
        await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0002"))
        await connection.execute(
            sa.insert(GAMES_AT_0002),
            [old_row("old1", "40826", "O", "resigned"), old_row("old2", "4", None, "abandoned")],
        )
    await engine.dispose()

    store = await open_store(backend.url)
    try:
        old = await store.game("old1")
        assert old is not None and old.variant == "3x3" and old.moves == (4, 0, 8, 2, 6) and old.result == "O"
        assert (await store.game("old2")) is not None
        assert (await store.bot_record(variant="3x3"))[8] == Record(1, 0, 0)  # unbeatable became level 8
        ultimate = game("u1", "ultimate", tuple(range(0, 81, 2)), None, reason="abandoned")
        assert await store.save(ultimate) and await store.game("u1") == ultimate
        async with store.engine.connect() as connection:
            drift = await connection.run_sync(lambda sync: compare_metadata(MigrationContext.configure(sync), metadata))
            assert drift == [], "migrations 0003-0004 and bot/records/schema.py disagree"
        with pytest.raises(IntegrityError):  # the CHECK constraints survived SQLite's table copy
            async with store.engine.begin() as connection:
                await connection.execute(sa.update(GAMES_AT_0002).values(bot_side="Z"))
    finally:
        await store.close()


async def test_stats_and_leaderboards_take_a_variant(store: RecordsStore) -> None:
    await store.save_many(
        [
            game("a", "3x3", (0, 3, 1, 4, 2), "O", reason="resigned"),
            game("b", "5x5", (12, 0, 6), "draw", reason="draw"),
            game("c", "5x5", (12, 0), "O", reason="resigned"),
            game("d", "4x4", (5, 6, 9), "X", level=2),
            game("e", "ultimate", (40, 36), "O", level=5, reason="resigned"),
        ]
    )
    assert (await store.user_stats(A)).vs_bot == Record(1, 1, 3)
    assert (await store.user_stats(A, variant="5x5")).vs_bot == Record(0, 1, 1)
    assert (await store.user_stats(A, variant="4x4")).vs_bot == Record(1, 0, 0)
    assert (await store.bot_record(variant="5x5"))[8] == Record(1, 1, 0)
    records = await store.bot_records()
    assert list(records) == list(VARIANTS)  # every registered game, in order, played or not
    assert records["5x5"][8] == Record(1, 1, 0) and records["4x4"][2] == Record(0, 0, 1)
    assert records["ultimate"][5] == Record(1, 0, 0) and records["3x3"][8] == Record(1, 0, 0)
    assert {v: (await store.ratings(A, v))["bot"].games for v in records} == dict.fromkeys(VARIANTS, 0) | {
        "3x3": 1,
        "4x4": 1,
        "5x5": 2,
        "ultimate": 1,
    }
    assert (await store.ratings(A, "4x4"))["bot"].best_level == 2


def test_a_finished_game_checks_its_variants_cells() -> None:
    assert game("a", "5x5", (24,), None, reason="abandoned").moves == (24,)
    with pytest.raises(ValueError, match="cells 0-15"):
        game("a", "4x4", (16,), None, reason="abandoned")
    with pytest.raises(ValueError, match="variant"):
        game("a", "6x6", (1,), None, reason="abandoned")


async def test_a_time_out_counts_in_stats_as_it_counts_in_ratings(store: RecordsStore) -> None:
    """A game abandoned on a person's turn is their loss (and the bot's win) everywhere; abandoned on the bot's
    turn, declined or expired, it counts nowhere."""
    people = replace(game("p", "3x3", (4, 0), None, reason="abandoned"), bot_side=None, o_user_id=B, level=None)
    await store.save_many(
        [
            game("t1", "3x3", (4, 0), None, level=3, reason="abandoned"),  # A (X) timed out: A's loss
            game("t2", "5x5", (12,), None, reason="abandoned"),  # the bot's turn: not rated, not counted
            game("t3", "3x3", (), None, level=3, reason="expired"),
            people,  # A (X) timed out against B
        ]
    )
    assert (await store.ratings(A, "3x3"))["bot"].games == 1 and (await store.ratings(A, "5x5"))["bot"].games == 0
    assert (await store.user_stats(A)).vs_bot == Record(0, 0, 1)
    assert (await store.user_stats(A)).vs_people == Record(0, 0, 1)
    assert (await store.user_stats(B)).vs_people == Record(1, 0, 0)
    assert (await store.ratings(B, "3x3"))["people"].games == 1
    assert (await store.bot_record(variant="3x3"))[3] == Record(1, 0, 0)
    assert (await store.bot_records())["5x5"][8] == Record()
