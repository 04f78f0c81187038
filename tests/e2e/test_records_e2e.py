"""Durable records end to end, with the real bot process: stats survive SIGKILL and a restart, a database that
goes away mid-game loses and double-counts nothing, and two shard processes share one PostgreSQL database."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.games.levels import rating_of
from bot.records.url import database_url
from testing.boards import button_labelled
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import answered, private_text, public_message, start_game, ttt, updated_message
from tests.pg_server import PostgresServer

from .conftest import E2E_TOKEN, BotStarter, make_users

pytestmark = [pytest.mark.asyncio]

RECORD = re.compile(r"vs the bot: (\d+) W · (\d+) D · (\d+) L")


async def resign_a_game(fake: FakeDiscord, channel: str, user: dict[str, object], guild: str | None = None) -> None:
    """Start a game against the bot and resign it with the board's button: a counted loss."""
    board = await start_game(fake, channel, user, guild_id=guild)
    resign = button_labelled(board, "Resign")
    assert resign is not None
    rec = await fake.press_button(guild or fake.default_guild_id, channel, user, board["id"], resign["custom_id"])
    assert "resigned" in (await updated_message(fake, rec))["content"]


async def stats_line(fake: FakeDiscord, rec: InteractionRecord) -> tuple[int, int, int]:
    """The W/D/L against the bot that ``/ttt stats`` showed (a deferred public answer, then edited)."""
    message = await public_message(fake, rec)
    found = RECORD.search(message["content"])
    assert found is not None, message["content"]
    return int(found[1]), int(found[2]), int(found[3])


async def count_rows(url: str) -> int:
    engine = create_async_engine(database_url(url))
    try:
        async with engine.connect() as connection:
            return int((await connection.execute(text("SELECT count(*) FROM games"))).scalar_one())
    finally:
        await engine.dispose()


async def test_stats_survive_sigkill_and_a_restart(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (kim,) = make_users(fake, "kim")
        bot = await start_bot(fake)
        for _ in range(2):
            await resign_a_game(fake, channel, kim)
        assert await stats_line(fake, await ttt(fake, channel, kim, "stats")) == (0, 0, 2)
        await bot.kill()  # SIGKILL: no clean shutdown, records already written must stay
        again = await start_bot(fake)
        assert await stats_line(fake, await ttt(fake, channel, kim, "stats")) == (0, 0, 2)
        asked = await fake.slash_command(None, channel, kim, subcommand="stats", options={"user": fake.bot_user})
        mine = await public_message(fake, asked)
        assert f"3x3, level 8 ({rating_of('3x3', 8)}, unbeatable): beaten 0 times in 2 games" in mine["content"]
        await again.kill()  # before the fake goes: a live client would hold its shutdown up


async def test_the_database_goes_away_mid_game_and_comes_back(
    start_bot: BotStarter, postgres_server: PostgresServer
) -> None:
    url = await asyncio.to_thread(postgres_server.create_database)
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (lou,) = make_users(fake, "lou")
        bot = await start_bot(fake, DATABASE_URL=url)
        await resign_a_game(fake, channel, lou)
        await asyncio.to_thread(postgres_server.stop)
        try:
            await resign_a_game(fake, channel, lou)  # games go on while the database is down
            await resign_a_game(fake, channel, lou)
            down = await private_text(await ttt(fake, channel, lou, "stats"), timeout=20)
            assert "records database is unavailable" in down
        finally:
            await asyncio.to_thread(postgres_server.start)
        deadline = time.monotonic() + 30
        while await count_rows(url) < 3:  # the writer retries with backoff, capped
            assert time.monotonic() < deadline, "the games played during the outage were never written"
            await asyncio.sleep(0.5)
        assert await stats_line(fake, await ttt(fake, channel, lou, "stats")) == (0, 0, 3)
        assert await count_rows(url) == 3
        await bot.kill()


async def test_two_shard_processes_share_one_postgresql(start_bot: BotStarter, postgres_server: PostgresServer) -> None:
    url = await asyncio.to_thread(postgres_server.create_database)
    async with FakeDiscord(token=E2E_TOKEN, channels=1, guild_shard=(0, 2)) as fake:
        guilds = {0: fake.default_guild_id, 1: fake.add_guild("second", channels=1, shard=(1, 2))}
        # one after the other, as Discord's identify rate limit would have it (concurrent migrations of one
        # database are covered in tests/records)
        bots = [
            await start_bot(fake, DISCORD_SHARD_COUNT="2", DISCORD_SHARD_IDS=str(s), DATABASE_URL=url) for s in (0, 1)
        ]
        (ana,) = make_users(fake, "ana", guild_id=guilds[0])
        fake.add_member(guilds[1], ana)
        for shard, guild in guilds.items():
            channel = fake.channels(guild)[0]
            await resign_a_game(fake, channel, ana, guild)
            assert [r.shard for r in fake.records if r.guild_id == guild] == [(shard, 2)] * 2
        for shard, guild in guilds.items():
            rec = await fake.slash_command(guild, fake.channels(guild)[0], ana, subcommand="stats")
            assert rec.shard == (shard, 2)
            assert await stats_line(fake, rec) == (0, 0, 2), f"process of shard {shard}"
            rec = await fake.slash_command(
                guild, fake.channels(guild)[0], ana, subcommand="leaderboard", options={"scope": "global"}
            )
            board = (await public_message(fake, rec))["content"]
            assert "Nobody yet: a rating is listed after 5 games" in board, board  # two resignations each
        await answered(await fake.slash_command(guilds[0], fake.channels(guilds[0])[0], ana, subcommand="help"))
        assert await count_rows(url) == 2
        await asyncio.gather(*(bot.kill() for bot in bots))


async def test_stats_rating_and_review_right_after_a_game_include_it(start_bot: BotStarter, tmp_path: Path) -> None:
    """The game that just ended is still in the writer's queue (another process holds the SQLite write lock):
    /ttt stats, /ttt rating and /ttt review include it all the same, at once."""
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        channel = fake.channels()[0]
        (kim,) = make_users(fake, "kim")
        bot = await start_bot(fake)
        await resign_a_game(fake, channel, kim)
        url = f"sqlite:///{tmp_path / 'ttt.sqlite3'}"
        deadline = time.monotonic() + 10
        while await count_rows(url) < 1:  # the first game is written
            assert time.monotonic() < deadline, "the first game was never written"
            await asyncio.sleep(0.1)
        holder = sqlite3.connect(tmp_path / "ttt.sqlite3", isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # readers go on (WAL); the bot's writes wait
        try:
            await resign_a_game(fake, channel, kim)
            started = time.monotonic()
            assert await stats_line(fake, await ttt(fake, channel, kim, "stats")) == (0, 0, 2)
            rating = await public_message(fake, await ttt(fake, channel, kim, "rating"))
            assert re.search(r"vs the bot: \d+ ± \d+ · 2 games", rating["content"]), rating["content"]
            review = await private_text(await ttt(fake, channel, kim, "review"))
            assert "resigned" in review.lower() or "Review of game" in review, review
            assert time.monotonic() - started < 6.0  # no wait for the stuck write (its busy timeout is 10 s)
            assert holder.execute("SELECT count(*) FROM games").fetchone() == (1,)  # still unwritten
        finally:
            holder.execute("COMMIT")
            holder.close()
        await bot.kill()
