"""Three processes of one bot on one PostgreSQL, as the StatefulSet in deploy/ runs them: six shards, two per process
(``DISCORD_SHARDS_PER_POD`` with the pod ordinal taken from the host name ``ttt-bot-N``), all started at the same
moment against a fake Discord that allows one IDENTIFY per window (``max_concurrency`` 1).

They take turns through PostgreSQL, so Discord refuses no IDENTIFY; each guild's interactions reach the one process
holding its shard, which answers each exactly once; and when a process is SIGKILLed mid-game, its replacement (the
same pod name) resumes the game from PostgreSQL.
"""

from __future__ import annotations

import asyncio
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.records import database_url
from testing.boards import board_of, free_cell_id
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import delivered, public_message, updated_message
from tests.pg_server import PostgresServer
from tests.prometheus_server import free_port

from .conftest import E2E_TOKEN, BotProcess, make_users

pytestmark = [pytest.mark.asyncio]

SHARDS, PROCESSES, PER_POD = 6, 3, 2
START_SECONDS = 120.0
"""Enough for three start-ups and six IDENTIFYs one window (1 s here) plus margin apart on a loaded machine."""


def answered_commands(port: int) -> float:
    """``ttt_interactions_total{kind="command",result="answered"}`` on the process's /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        exposition = answer.read().decode()
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            if sample.name == "ttt_interactions_total" and sample.labels == {"kind": "command", "result": "answered"}:
                return sample.value
    raise AssertionError("ttt_interactions_total{kind=command,result=answered} is missing")


async def running_moves(url: str, channel: str) -> int:
    """How many moves PostgreSQL holds for the game running in ``channel`` (0: no row)."""
    engine = create_async_engine(database_url(url))
    try:
        async with engine.connect() as connection:
            query = text("SELECT moves FROM running_games WHERE channel_id = :channel")
            moves = (await connection.execute(query, {"channel": int(channel)})).scalar_one_or_none()
            return 0 if not moves else len(str(moves).split(","))
    finally:
        await engine.dispose()


async def press_cell(
    fake: FakeDiscord, guild: str, user: dict[str, Any], message: dict[str, Any], cell: int
) -> InteractionRecord:
    return await fake.press_button(guild, message["channel_id"], user, message["id"], free_cell_id(message, cell))


async def test_three_processes_start_in_turn_serve_each_guild_once_and_a_replacement_resumes_a_game(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = await asyncio.to_thread(postgres_server.create_database)
    async with FakeDiscord(token=E2E_TOKEN, channels=1, guild_shard=(0, SHARDS), max_concurrency=1) as fake:
        guilds = [fake.default_guild_id] + [
            fake.add_guild(f"guild {shard}", channels=1, shard=(shard, SHARDS)) for shard in range(1, SHARDS)
        ]
        (ada,) = make_users(fake, "ada")
        for guild in guilds[1:]:
            fake.add_member(guild, ada)
        ports = [free_port() for _ in range(PROCESSES)]

        def pod(ordinal: int, log_name: str) -> BotProcess:
            env = {
                "HOSTNAME": f"ttt-bot-{ordinal}",
                "DISCORD_SHARD_COUNT": str(SHARDS),
                "DISCORD_SHARDS_PER_POD": str(PER_POD),
                "DATABASE_URL": url,
                "METRICS_PORT": str(ports[ordinal]),
            }
            return BotProcess(fake, tmp_path / log_name, env)

        bots = [pod(ordinal, f"ttt-bot-{ordinal}.log") for ordinal in range(PROCESSES)]
        try:
            await asyncio.gather(*(bot.start(timeout=START_SECONDS) for bot in bots))
            await fake.wait_for(lambda: len(fake.connected_shards()) == SHARDS, START_SECONDS)
            assert sorted(fake.connected_shards()) == [(shard, SHARDS) for shard in range(SHARDS)]
            assert fake.invalid_sessions == [], "an IDENTIFY came too early in its bucket"
            assert fake.identify_count == SHARDS
            await fake.wait_for(lambda: bool(fake.commands()), 10)

            boards = {}
            for shard, guild in enumerate(guilds):
                rec = await fake.slash_command(guild, fake.channels(guild)[0], ada, subcommand="start", options=None)
                boards[shard] = await public_message(fake, rec)
                await delivered(fake, rec)
                assert rec.shard == (shard, SHARDS) and len(rec.callback_statuses) == 1, rec
            for ordinal, port in enumerate(ports):  # each process answered its two guilds' commands, no other
                assert await asyncio.to_thread(answered_commands, port) == PER_POD, f"process {ordinal}"

            # a game on shard 4 (process 2): X in the corner, the bot replies; PostgreSQL has both moves
            guild, board = guilds[4], boards[4]
            moved = await updated_message(fake, await press_cell(fake, guild, ada, board, 0))
            before = board_of(moved) or ""
            assert before.count("X") == 1 and before.count("O") == 1, before
            channel = board["channel_id"]
            for _ in range(100):
                if await running_moves(url, channel) == 2:
                    break
                await asyncio.sleep(0.1)
            assert await running_moves(url, channel) == 2, "the running game never reached PostgreSQL"

            await bots[2].kill()
            await fake.wait_for(lambda: (4, SHARDS) not in fake.connected_shards(), 10)
            replacement = pod(2, "ttt-bot-2-replacement.log")
            bots.append(replacement)
            await replacement.start(timeout=START_SECONDS)
            await fake.wait_for(lambda: len(fake.connected_shards()) == SHARDS, START_SECONDS)

            cell = before.index(".")
            rec = await press_cell(fake, guild, ada, moved, cell)
            after = board_of(await updated_message(fake, rec)) or ""
            assert rec.shard == (4, SHARDS)
            assert all(after[i] == before[i] for i in range(9) if before[i] != "."), (before, after)
            assert after[cell] == "X" and after.count("X") == 2, after
            await delivered(fake, rec)
            assert fake.invalid_sessions == []
            assert fake.violations == [], "a second process answered an interaction, or a request was refused"
        finally:
            for bot in bots:
                await bot.kill()
                bot.close()
