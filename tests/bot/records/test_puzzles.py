"""The puzzle records (bot.records.puzzles) on SQLite and PostgreSQL: runs, attempts, ratings, the daily solvers."""

from __future__ import annotations

import asyncio
import datetime

import pytest
from alembic import command
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from bot.records import PuzzleStore, RecordsStore, database_url, open_store
from bot.records.migrate import alembic_config
from bot.records.puzzle_schema import puzzle_attempts, running_puzzles
from bot.records.puzzle_values import PuzzleRating, Run, rate, starting
from engine.puzzles import load
from tests.bot.records.conftest import Backend

pytestmark = [pytest.mark.asyncio]

KIM, LEE, GUILD = 11, 22, 900


async def test_a_run_is_stored_advanced_and_ended_once(store: RecordsStore) -> None:
    puzzles = PuzzleStore(store)
    puzzle = load("5x5")[300]
    run = await puzzles.start(Run(0, KIM, GUILD, "5x5", puzzle.id))
    assert run.run_id > 0 and await puzzles.run(run.run_id) == run
    moved = Run(run.run_id, KIM, GUILD, "5x5", puzzle.id, progress=2, pad=-1)
    await puzzles.advance(moved)
    assert await puzzles.run(run.run_id) == moved
    attempt = await puzzles.finish(moved, solved=True)
    assert attempt is not None
    before, after = attempt
    expected, puzzle_after = rate(PuzzleRating(), starting(puzzle), True)
    assert before == PuzzleRating() and after == expected
    assert await puzzles.finish(moved, solved=False) is None  # already over: nothing more is written
    assert await puzzles.run(run.run_id) is None
    assert await puzzles.player(KIM, "5x5") == expected
    assert (await puzzles.puzzle_ratings("5x5"))[puzzle.id] == puzzle_after
    assert await puzzles.attempted(KIM, "5x5") == {puzzle.id}
    assert await puzzles.player(KIM, "4x4") == PuzzleRating()  # one rating per variant


async def test_only_the_first_attempt_at_a_puzzle_is_rated(store: RecordsStore) -> None:
    puzzles = PuzzleStore(store)
    puzzle = load("4x4")[100]
    first = await puzzles.finish(await puzzles.start(Run(0, KIM, GUILD, "4x4", puzzle.id)), solved=False)
    second = await puzzles.finish(await puzzles.start(Run(0, KIM, GUILD, "4x4", puzzle.id)), solved=True)
    assert first is not None and first[1] is not None and first[1].rating < 1500
    assert second is not None and second[1] is None
    assert (await puzzles.player(KIM, "4x4")).attempts == 1


async def test_the_daily_solvers_are_counted_per_server_and_day(store: RecordsStore) -> None:
    puzzles = PuzzleStore(store)
    puzzle = load("ultimate")[400]
    day = "2026-11-26"
    for user, solved in ((KIM, True), (LEE, False)):
        await puzzles.finish(await puzzles.start(Run(0, user, GUILD, "ultimate", puzzle.id, daily=day)), solved)
    assert await puzzles.daily_solvers(GUILD, day, puzzle.id) == 1
    assert await puzzles.daily_solvers(GUILD + 1, day, puzzle.id) == 0
    assert await puzzles.daily_solvers(GUILD, "2026-11-27", puzzle.id) == 0
    assert await puzzles.daily_result(KIM, GUILD, day, puzzle.id) is True
    assert await puzzles.daily_result(LEE, GUILD, day, puzzle.id) is False
    assert await puzzles.daily_result(KIM, None, day, puzzle.id) is None
    assert await puzzles.daily_result(KIM, GUILD, day, load("4x4")[0].id) is None  # each game has its daily


async def test_a_daily_puzzle_is_claimed_once_per_player_server_and_day(store: RecordsStore) -> None:
    puzzles = PuzzleStore(store)
    puzzle = load("4x4")[10]
    day = "2026-11-27"
    first = await puzzles.start(Run(0, KIM, GUILD, "4x4", puzzle.id, daily=day))
    assert first is not None and first.run_id > 0
    assert await puzzles.start(Run(0, KIM, GUILD, "4x4", puzzle.id, daily=day)) is None  # running: no second try
    await puzzles.finish(first, solved=False)
    assert await puzzles.start(Run(0, KIM, GUILD, "4x4", puzzle.id, daily=day)) is None  # finished: still none
    assert await puzzles.daily_result(KIM, GUILD, day, puzzle.id) is False
    others = [  # another server, a DM, another day, another player
        Run(0, KIM, GUILD + 1, "4x4", puzzle.id, daily=day),
        Run(0, KIM, None, "4x4", puzzle.id, daily=day),
        Run(0, KIM, GUILD, "4x4", puzzle.id, daily="2026-11-28"),
        Run(0, LEE, GUILD, "4x4", puzzle.id, daily=day),
    ]
    for other in others:
        assert await puzzles.start(other) is not None, other
    assert await puzzles.start(Run(0, KIM, None, "4x4", puzzle.id, daily=day)) is None  # DMs count as one place
    assert await puzzles.start(Run(0, KIM, GUILD, "4x4", puzzle.id)) is not None  # the same puzzle, not as daily


async def test_simultaneous_daily_requests_open_one_run(store: RecordsStore) -> None:
    puzzle = load("5x5")[20]
    runs = await asyncio.gather(
        *(PuzzleStore(store).start(Run(0, KIM, GUILD, "5x5", puzzle.id, daily="2026-11-27")) for _ in range(6)),
        return_exceptions=True,
    )
    assert not [r for r in runs if isinstance(r, BaseException)], runs
    assert len([r for r in runs if r is not None]) == 1, runs


async def test_the_daily_result_and_solvers_count_each_players_first_attempt(store: RecordsStore) -> None:
    """Attempts recorded before the one-try rule (migration 0006): a failed try, then a solved one."""
    puzzles = PuzzleStore(store)
    puzzle = load("4x4")[30]
    day = "2026-11-26"
    async with store.connection(write=True) as connection:
        for solved in (False, True, True):
            await connection.execute(
                insert(puzzle_attempts).values(
                    user_id=KIM, guild_id=GUILD, variant="4x4", puzzle_id=puzzle.id, daily=day, solved=solved,
                    rated=False, finished_at=datetime.datetime.now(datetime.UTC),
                )
            )  # fmt: skip
    assert await puzzles.daily_result(KIM, GUILD, day, puzzle.id) is False  # the first attempt, in order
    assert await puzzles.daily_solvers(GUILD, day, puzzle.id) == 0


async def test_0006_counts_the_daily_tries_made_before_it(backend: Backend) -> None:
    """A database at 0005 with a finished daily attempt and a running daily puzzle: after 0006 both are the
    players' one try of that day."""
    engine = create_async_engine(database_url(backend.url))
    now = datetime.datetime.now(datetime.UTC)
    puzzle = load("4x4")[40]
    async with engine.begin() as connection:
        await connection.run_sync(lambda sync: command.upgrade(alembic_config(sync), "0005"))
        common = {"variant": "4x4", "puzzle_id": puzzle.id, "daily": "2026-11-27"}
        await connection.execute(insert(puzzle_attempts).values(
            user_id=KIM, guild_id=GUILD, solved=True, rated=True, finished_at=now, **common))  # fmt: skip
        await connection.execute(insert(running_puzzles).values(
            user_id=LEE, guild_id=None, progress=0, pad=-1, started_at=now, **common))  # fmt: skip
    await engine.dispose()
    store = await open_store(backend.url)
    try:
        for user, place in ((KIM, GUILD), (LEE, None)):
            assert await PuzzleStore(store).start(Run(0, user, place, "4x4", puzzle.id, daily="2026-11-27")) is None
        assert await PuzzleStore(store).start(Run(0, LEE, GUILD, "4x4", puzzle.id, daily="2026-11-27")) is not None
    finally:
        await store.close()
