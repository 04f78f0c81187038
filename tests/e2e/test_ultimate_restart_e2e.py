"""End to end: an ultimate game survives a restart of the bot (SIGTERM writes the running game; a new process resumes
it from the board's game id and version), and a forged version is refused after the restart."""

from __future__ import annotations

import random
import signal

import pytest

from testing.fake_discord import FakeDiscord

from .conftest import BotStarter, make_users
from .test_ultimate_e2e import REF, answered, buttons, over, play_one, start, version

pytestmark = [pytest.mark.asyncio, pytest.mark.faults]


async def test_an_ultimate_game_resumes_after_a_restart(start_bot: BotStarter) -> None:
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as server:
        bot = await start_bot(server)
        channel = server.channels()[0]
        (alice,) = make_users(server, "alice-restart")
        rng = random.Random(11)
        board = await start(server, channel, alice, difficulty="easy")
        for _ in range(3):
            board, _ = await play_one(server, channel, alice, board, rng)
        ply = version(board)
        await bot.signal(signal.SIGTERM)
        assert await bot.wait_exit(15.0) == 0
        await start_bot(server)
        game = REF.fullmatch(buttons(board)[0]["custom_id"])
        assert game is not None
        forged = f"ttt:u:40:{game['game']}:{ply + 2}"  # a version never played
        rec = await answered(await server.press_custom_id(None, channel, alice, board["id"], forged))
        assert rec.ephemeral
        board = server.message(channel, board["id"]) or {}
        assert version(board) == ply
        board, _ = await play_one(server, channel, alice, board, rng)
        assert version(board) == ply + 2 or over(board)
