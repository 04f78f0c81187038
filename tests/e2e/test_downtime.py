"""After a SIGKILL restart only what the bot committed is the game (issue 27), through the real bot and the fake
Discord: a game whose turn's deadline passed while the bot was down is recorded as abandoned exactly once and its
board shows it when next seen; the Rematch of a finished game and ``/ttt start`` never start a second game in a
channel whose stored game still runs; a game stored while the bot owed its move gets that move."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from testing.boards import EMPTY, board_of, cell_buttons, free_cells
from testing.fake_discord import FakeDiscord
from testing.players import delivered, press, public_message, refusal, start_game, ttt, updated_message

from .conftest import BotProcess, BotStarter, make_users
from .test_forgery import field_of, forge
from .test_ultimate_e2e import bot_moved, start, text_of, version

pytestmark = [pytest.mark.asyncio, pytest.mark.faults]

TIMEOUT = 3.0
"""The bots' turn time-out here (``TTT_TURN_TIMEOUT``), seconds."""


def records(bot: BotProcess) -> list[tuple[str, str, str | None]]:
    """Every finished game the bot recorded: (id, how it ended, result)."""
    with sqlite3.connect(Path(bot.log_path.parent) / "ttt.sqlite3") as connection:
        return connection.execute("SELECT game_id, end_reason, result FROM games ORDER BY game_id").fetchall()


def running_rows(bot: BotProcess) -> list[str]:
    with sqlite3.connect(Path(bot.log_path.parent) / "ttt.sqlite3") as connection:
        return [row[0] for row in connection.execute("SELECT game_id FROM running_games")]


async def until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        await asyncio.sleep(0.05)


async def crash(fake: FakeDiscord, bot: BotProcess) -> None:
    await bot.kill()
    await fake.wait_for_disconnect(10)


def text(message: dict[str, Any] | None) -> str:
    assert message is not None
    return (message.get("content") or "") + text_of(message)


@pytest.mark.parametrize("variant", ["3x3", "4x4", "5x5", "ultimate"])
async def test_a_game_whose_deadline_passed_during_the_downtime_is_abandoned_once(
    start_bot: BotStarter, variant: str
) -> None:
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as fake:
        bot = await start_bot(fake, TTT_TURN_TIMEOUT=str(TIMEOUT))
        channel = fake.channels()[0]
        (alice,) = make_users(fake, "alice")
        rec = await fake.slash_command(None, channel, alice, subcommand="start", options={"variant": variant})
        board = await public_message(fake, rec)
        await until(lambda: len(running_rows(bot)) == 1)
        before = records(bot)
        await crash(fake, bot)
        await asyncio.sleep(TIMEOUT + 0.5)  # the turn's deadline passes while the bot is down
        bot = await start_bot(fake, TTT_TURN_TIMEOUT=str(TIMEOUT))
        await until(lambda: len(records(bot)) == len(before) + 1)
        assert [r[1:] for r in records(bot)] == [("abandoned", None)] and running_rows(bot) == []
        # the board is edited to show the end when it is next seen: a press on it
        pressed = next(b for b in _buttons(board) if not b.get("disabled"))
        rec = await fake.press_button(None, channel, alice, board["id"], pressed["custom_id"])
        assert "over" in await refusal(rec)
        await until(lambda: "abandon" in text(fake.message(channel, board["id"])).lower())
        custom_id = pressed["custom_id"]  # a client that still shows the old board
        await refusal(await fake.press_custom_id(None, channel, alice, board["id"], custom_id, like=custom_id))
        await crash(fake, bot)  # and once more: still recorded once
        bot = await start_bot(fake, TTT_TURN_TIMEOUT=str(TIMEOUT))
        await ttt(fake, channel, alice, "stats")
        assert [r[1:] for r in records(bot)] == [("abandoned", None)]


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    stack = list(message.get("components") or [])
    while stack:
        component = stack.pop(0)
        if component.get("type") == 2:
            found.append(component)
        stack[:0] = component.get("components") or []
    return found


def labelled(message: dict[str, Any], label: str) -> dict[str, Any]:
    found = next((b for b in _buttons(message) if b.get("label") == label), None)
    assert found is not None, f"no {label} button"
    return found


@pytest.mark.parametrize("variant", ["3x3", "4x4", "5x5", "ultimate"])
async def test_a_rematch_or_a_start_after_a_restart_never_makes_a_second_game(
    start_bot: BotStarter, variant: str
) -> None:
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as fake:
        bot = await start_bot(fake)
        channel, elsewhere = fake.channels()[0], fake.add_channel()
        alice, bob = make_users(fake, "alice", "bob")
        start = {"variant": variant, "play_as": "X"}
        board = await public_message(
            fake, await fake.slash_command(None, channel, alice, subcommand="start", options=start)
        )
        rec = await fake.press_button(None, channel, alice, board["id"], labelled(board, "Resign")["custom_id"])
        ended = await updated_message(fake, rec)
        running = await public_message(
            fake, await fake.slash_command(None, channel, alice, subcommand="start", options=start)
        )
        await until(lambda: len(running_rows(bot)) == 1 and len(records(bot)) == 1)
        stats = (await public_message(fake, await ttt(fake, elsewhere, alice, "stats")))["content"]
        before, kept = records(bot), fake.message(channel, running["id"])
        await crash(fake, bot)
        bot = await start_bot(fake)
        public = len(fake.messages(channel, include_ephemeral=False))
        rematch = labelled(ended, "Rematch")["custom_id"]
        rec = await fake.press_button(None, channel, alice, ended["id"], rematch)
        assert running["id"] in await refusal(rec)  # a link to the running game's board
        for who, options in ((bob, {}), (alice, {"variant": "4x4"}), (bob, {"opponent": alice})):
            rec = await fake.slash_command(None, channel, who, subcommand="start", options=options)
            assert running["id"] in await refusal(rec)
        assert len(fake.messages(channel, include_ephemeral=False)) == public, "a second game was started"
        assert fake.message(channel, running["id"]) == kept and records(bot) == before
        assert (await public_message(fake, await ttt(fake, elsewhere, alice, "stats")))["content"] == stats
        assert len(running_rows(bot)) == 1
        if variant == "3x3":  # the stored game goes on
            after = await updated_message(fake, await press(fake, channel, alice, running, 4))
            assert (board_of(after) or "")[4] == "X"


async def test_a_game_stored_while_the_bot_owed_its_move_gets_it(start_bot: BotStarter) -> None:
    """The bot opens an ultimate game (X, a 1 s search); it is killed during the search. After the restart the
    stored game, the bot to move, resumes on the first intent and the bot's move appears on its board."""
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as fake:
        bot = await start_bot(fake)
        channel = fake.channels()[0]
        (alice,) = make_users(fake, "alice")
        board = await start(fake, channel, alice, play_as="O")
        await until(lambda: len(running_rows(bot)) == 1, 2.0)
        await crash(fake, bot)
        assert version(fake.message(channel, board["id"]) or {}) == 0, "the bot moved before it was killed"
        await start_bot(fake)
        rec = await ttt(fake, channel, alice, "hint")
        assert "thinking" in await refusal(rec)
        moved = await bot_moved(fake, channel, board["id"], 1)
        assert version(moved) == 1
        await delivered(fake, rec)


async def test_with_nothing_stored_and_no_history_a_board_owing_the_bots_move_gets_it(start_bot: BotStarter) -> None:
    """The database lost and the channel's history unreadable: a 3x3 board adding a move of Alice's proves itself,
    so it resumes with the bot to move; the bot plays its move on the board (no stuck game), and nothing is
    recorded."""
    async with FakeDiscord(token="e2e-dummy-token", channels=1) as fake:
        bot = await start_bot(fake)
        channel = fake.channels()[0]
        (alice,) = make_users(fake, "alice")
        board = await start_game(fake, channel, alice)
        board = await updated_message(fake, await press(fake, channel, alice, board, 0))
        await crash(fake, bot)
        for path in Path(bot.log_path.parent).glob("ttt.sqlite3*"):
            path.unlink()  # the database is lost
        bot = await start_bot(fake)
        free = free_cells(board_of(board) or EMPTY)
        like = cell_buttons(board)[free[1]]["custom_id"]
        forged = forge(like, moves=field_of(board, "moves") + str(free[0]))
        fault = fake.inject("GET", rf"/channels/{channel}/messages$", status=403, times="always")
        try:
            rec = await fake.press_custom_id(None, channel, alice, board["id"], forged, like=like)
            assert "thinking" in await refusal(rec)
            await until(lambda: (board_of(fake.message(channel, board["id"]) or {}) or EMPTY).count("O") == 2)
        finally:
            fake.remove_fault(fault)
        shown = fake.message(channel, board["id"]) or {}
        assert (board_of(shown) or EMPTY)[free[0]] == "X"
        cell = free_cells(board_of(shown) or EMPTY)[0]  # the game goes on from there
        after = await updated_message(fake, await press(fake, channel, alice, shown, cell))
        assert (board_of(after) or EMPTY)[cell] == "X"
        assert records(bot) == []
