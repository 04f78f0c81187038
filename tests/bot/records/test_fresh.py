"""Reading your own writes (bot.records.fresh): what the records answer while the writer still holds games is what
they answer once it has written them, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.records import RecordsStore, RecordWriter
from bot.records.fresh import FreshRecords
from tests.bot.records.test_records import CH1, HISTORY, A, B, C, D

pytestmark = [pytest.mark.asyncio]

TIMED_OUT = replace(HISTORY[0], game_id="t1", end_reason="abandoned", result=None, moves=(4, 0), level=3)
"""A's time-out against the bot (A plays X; X to move): A's loss, the bot's win."""


async def answers(fresh: FreshRecords) -> list[object]:
    return [
        *[await fresh.user_stats(user) for user in (A, B, C, D)],
        await fresh.user_stats(A, variant="3x3"),
        await fresh.bot_records(),
        await fresh.bot_records("3x3"),
        *[await fresh.ratings(user, "3x3") for user in (A, B, C, D)],
        await fresh.last_game(CH1),
        await fresh.game("g05"),
    ]


async def test_the_unwritten_games_count_as_they_will_once_written(store: RecordsStore) -> None:
    earlier, later = HISTORY[:6], [*HISTORY[6:], TIMED_OUT]
    await store.save_many(earlier)
    writer = RecordWriter(store)  # not started: everything submitted stays unwritten
    for game in later:
        assert writer.submit(game)
    fresh = FreshRecords(store, writer)
    before = await answers(fresh)
    assert before[0] != await store.user_stats(A)  # the database alone does not have them yet

    writer.start()
    assert await writer.flush(10.0)
    async with writer.unwritten() as pending:
        assert pending == ()
    assert await answers(fresh) == before
    assert before[0] == await store.user_stats(A)
    await writer.close()


async def test_a_stuck_save_is_not_waited_for(store: RecordsStore) -> None:
    writer = RecordWriter(store)
    assert writer.submit(HISTORY[0])
    fresh = FreshRecords(store, writer)
    async with writer.unwritten():  # as a save attempt blocked on a lock held elsewhere would hold it
        stats = await asyncio.wait_for(fresh.user_stats(A), 5.0)
    assert stats.vs_bot.games == 1
