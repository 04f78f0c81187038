"""Two bot processes share the shards (DISCORD_SHARD_COUNT=2, DISCORD_SHARD_IDS=0 / 1): each guild's interactions
reach only the process that holds its shard, and both answer."""

from __future__ import annotations

import pytest

from testing.boards import EMPTY, board_of
from testing.fake_discord import FakeDiscord
from testing.players import public_message

from .conftest import E2E_TOKEN, BotStarter, make_users

pytestmark = [pytest.mark.asyncio]


async def test_two_processes_each_serve_their_shard(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1, guild_shard=(0, 2)) as fake:
        guilds = {0: fake.default_guild_id, 1: fake.add_guild("second", channels=1, shard=(1, 2))}
        bots = {shard: await start_bot(fake, DISCORD_SHARD_COUNT="2", DISCORD_SHARD_IDS=str(shard)) for shard in (0, 1)}
        assert sorted(fake.connected_shards()) == [(0, 2), (1, 2)]
        for shard, guild in guilds.items():
            assert [i["shard"] for i in fake.identifies if i["shard"][0] == shard] == [[shard, 2]]
            (user,) = make_users(fake, f"player{shard}", guild_id=guild)
            rec = await fake.slash_command(guild, fake.channels(guild)[0], user, subcommand="start")
            assert rec.shard == (shard, 2), f"guild {guild} was dispatched to shard {rec.shard}"
            assert board_of(await public_message(fake, rec)) == EMPTY
        assert [bot.proc.returncode for bot in bots.values() if bot.proc is not None] == [None, None]
