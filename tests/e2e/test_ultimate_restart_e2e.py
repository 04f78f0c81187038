"""End to end, restarts: an ultimate game survives a restart of the bot (SIGTERM writes the running game; a new
process resumes it from the board's game id and version), a private pad opened before a restart still works after
it, and forged ids are refused after a restart on every variant's board (ultimate: a version never played; 4x4 and
5x5: an impossible game, a move taken back, an option rewritten)."""

from __future__ import annotations

import random
import re
import signal

import pytest

from testing.fake_discord import FakeDiscord

from .conftest import BotStarter, make_users
from .test_ultimate_e2e import (
    REF,
    answered,
    bot_moved,
    buttons,
    on_pad,
    open_pad,
    over,
    play_one,
    pressable,
    start,
    version,
)

pytestmark = [pytest.mark.asyncio, pytest.mark.faults]


async def test_an_ultimate_game_resumes_after_a_restart(start_bot: BotStarter) -> None:
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as server:
        bot = await start_bot(server)
        channel = server.channels()[0]
        (alice,) = make_users(server, "alice-restart")
        rng = random.Random(11)
        board = await start(server, channel, alice, level=2)
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


async def test_a_private_pad_opened_before_a_restart_still_plays_after_it(start_bot: BotStarter) -> None:
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as server:
        bot = await start_bot(server)
        channel = server.channels()[0]
        alice, bob = make_users(server, "alice-pad-restart", "bob-pad-restart")
        board = await start(server, channel, alice, level=2)
        pad = await open_pad(server, channel, alice, board, pressable(board, "pick")[6])
        await bot.signal(signal.SIGTERM)
        assert await bot.wait_exit(15.0) == 0
        await start_bot(server)
        forged = await answered(
            await server.press_custom_id(None, channel, bob, board["id"], pressable(pad, "cell")[0])
        )
        assert forged.ephemeral and "isn't your game" in (forged.content or "")
        pad = await on_pad(server, channel, alice, pad, pressable(pad, "back")[0])  # the game resumes: a view only
        assert len(pressable(pad, "pick")) == 9 and server.message(channel, board["id"]) == board
        pad = await on_pad(server, channel, alice, pad, pressable(pad, "pick")[8])
        pad = await on_pad(server, channel, alice, pad, pressable(pad, "cell")[8])
        assert "You played i9" in pad["content"]
        after = await bot_moved(server, channel, board["id"], 2)
        assert version(after) == 2 and "O played" in str(after)


@pytest.mark.parametrize("variant", ["4x4", "5x5"])
async def test_forged_ids_on_a_4x4_or_5x5_board_are_refused_after_a_restart(
    start_bot: BotStarter, variant: str
) -> None:
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as server:
        bot = await start_bot(server)
        channel = server.channels()[0]
        (alice,) = make_users(server, f"alice-restart-{variant}")
        rec = await answered(
            await server.slash_command(
                None, channel, alice, subcommand="start", options={"variant": variant, "play_as": "X"}
            )
        )
        assert rec.message_id is not None
        cells = [b["custom_id"] for b in buttons(server.message(channel, rec.message_id) or {})]
        await answered(await server.press_button(None, channel, alice, rec.message_id, cells[0]))
        await server.wait_for(lambda: "thinking" not in str(server.message(channel, rec.message_id)), 30)
        await bot.signal(signal.SIGTERM)
        assert await bot.wait_exit(15.0) == 0
        await start_bot(server)
        board = server.message(channel, rec.message_id) or {}
        free = [b["custom_id"] for b in buttons(board) if not b.get("disabled") and re.match(r"ttt:\d", b["custom_id"])]
        parts = free[0].split(":")
        played = parts[3]
        forged = [
            ":".join([*parts[:3], played + played[-1], *parts[4:]]),  # a cell twice: no legal game
            ":".join([*parts[:3], played[:1], *parts[4:]]),  # the bot's move taken back
            ":".join([*parts[:4], parts[4][:1] + "e" + parts[4][2:], *parts[5:]]),  # the difficulty rewritten
        ]
        for custom_id in forged:
            refused = await answered(await server.press_custom_id(None, channel, alice, rec.message_id, custom_id))
            assert refused.ephemeral and refused.content, custom_id
        assert server.message(channel, rec.message_id) == board
