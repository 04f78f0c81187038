"""Every press and look acts on the game the bot holds in the press's channel (issue 45), against the real bot process
and the fake Discord: a genuine "How did it think?" id carried to a message of another channel is refused privately
and changes nothing in the records file, in memory and after a restart, and the real board's game is still recorded
and rated afterwards; a spectator's id written into the X slot of the resumed game's board gets no hint; a private
pad's id pressed on Connect Four's public board is a press on that board, never answered as a pad on it."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from testing.boards import button_labelled
from testing.fake_discord import FakeDiscord
from testing.players import (
    delivered,
    press,
    private_text,
    public_message,
    start_game,
    ttt,
    updated_message,
)

from .conftest import E2E_TOKEN, BotProcess, BotStarter, make_users
from .test_connect_four_e2e import REF, checked, columns, version
from .test_forgery import forge

pytestmark = [pytest.mark.asyncio]

LOOK = "How did it think?"
ELSEWHERE = "This board's game is played in another channel"


def database(bot: BotProcess) -> Path:
    return bot.log_path.parent / "ttt.sqlite3"


def rows(bot: BotProcess) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The records file's running games (with the time of their last write), finished games and ratings."""
    with sqlite3.connect(database(bot)) as connection:
        running = connection.execute(
            "SELECT game_id, channel_id, x_user_id, o_user_id, moves, verified, updated_at FROM running_games "
            "ORDER BY game_id"
        ).fetchall()
        games = connection.execute(
            "SELECT game_id, channel_id, x_user_id, moves, result, end_reason FROM games ORDER BY game_id"
        ).fetchall()
        ratings = connection.execute("SELECT user_id, variant, pool, games FROM ratings ORDER BY user_id").fetchall()
    return running, games, ratings


async def settled_rows(bot: BotProcess, until: Any = None, timeout: float = 10.0) -> Any:
    """:func:`rows` once ``until`` holds for them (the bot writes in the background; polled: it is another process),
    or after a short wait when ``until`` is None."""
    if until is None:
        await asyncio.sleep(1.0)  # well past the running writer's 0.15 s batch window (BATCH_WINDOW)
        return rows(bot)
    deadline = asyncio.get_running_loop().time() + timeout
    while not until(found := rows(bot)):
        assert asyncio.get_running_loop().time() < deadline, found
        await asyncio.sleep(0.05)
    return found


async def test_a_look_from_another_channel_changes_nothing_and_the_game_is_still_recorded(
    start_bot: BotStarter,
) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=2) as fake:
        bot = await start_bot(fake)
        here, there = fake.channels()[:2]
        alice, bob, carol = make_users(fake, "alice-held", "bob-held", "carol-held")
        guild = fake.default_guild_id
        board = await updated_message(fake, await press(fake, here, alice, await start_game(fake, here, alice), 4))
        look = button_labelled(board, LOOK)
        assert look is not None, board
        # a message of the bot in the other channel, which holds no game: Bob's puzzle
        elsewhere = await public_message(fake, await ttt(fake, there, bob, "puzzle", variant="4x4"))
        alices = int(alice["id"])
        before = await settled_rows(bot, lambda found: any(r[2] == alices and "," in r[4] for r in found[0]))
        (game,) = [r for r in before[0] if r[2] == alices]
        assert game[1] == int(here) and game[5] == 1, before

        for restarted in (False, True):
            if restarted:
                await bot.kill()
                await fake.wait_for_disconnect(10)
                await bot.start()
            rec = await fake.press_custom_id(guild, there, alice, elsewhere["id"], look["custom_id"])
            text = await private_text(rec)
            assert text.startswith(ELSEWHERE), text
            assert await settled_rows(bot) == before, "a look from another channel wrote the records"
            await asyncio.sleep(2.0)  # one look every 2 s

        looked = await private_text(await fake.press_button(guild, here, alice, board["id"], look["custom_id"]))
        assert looked.startswith("**How I chose"), looked  # the game resumed by a look, which writes nothing
        assert await settled_rows(bot) == before, "a look wrote the records"
        spy = forge(look["custom_id"], kind="h", x=carol["id"])  # a spectator's id in the X slot, asking for a hint
        spied = await private_text(await fake.press_custom_id(guild, here, carol, board["id"], spy))
        assert spied.startswith("This isn't your game"), spied

        resign = button_labelled(board, "Resign")
        assert resign is not None
        ended = await updated_message(
            fake, await fake.press_button(guild, here, alice, board["id"], resign["custom_id"])
        )
        assert "resigned" in ended["content"], ended["content"]
        running, games, ratings = await settled_rows(bot, lambda found: found[1])
        assert running == [], running
        assert [(g[1], g[5]) for g in games if g[0] == game[0]] == [(int(here), "resigned")], games
        assert [(r[2], r[3]) for r in ratings if r[0] == alices] == [("bot", 1)], ratings


async def test_a_private_pads_id_on_the_public_board_is_a_press_on_the_board(start_bot: BotStarter) -> None:
    """Answered as a pad's, it overwrote the public board with "You played d6" and no buttons until the board's edit
    came; it is a press on the board now, answered with the board."""
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake)
        channel = fake.channels()[0]
        ana, bea = make_users(fake, "ana-held-pad", "bea-held-pad")
        started = await ttt(fake, channel, ana, "start", variant="connect-four", level=1)
        board = checked(await public_message(fake, started))
        await delivered(fake, started)  # the bot knows its board's message
        named = REF.fullmatch(columns(board)[3]["custom_id"])
        assert named is not None
        pad = f"ttt:{named['variant']}p:3:{named['game']}:{named['version']}"  # column 4 on a private pad's button
        refused = await fake.press_custom_id(None, channel, bea, board["id"], pad)
        assert (await private_text(refused)).startswith("This isn't your game")
        assert fake.message(channel, board["id"]) == board
        rec = await fake.press_custom_id(None, channel, ana, board["id"], pad)
        moved = checked(await updated_message(fake, rec))
        assert "You played" not in moved["content"] and version(moved) >= 1, moved["content"]
        assert not [e for e in rec.events if "You played" in str(e.payload.get("content"))], rec.events
