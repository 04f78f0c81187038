"""End to end, a game played by column: ``/ttt start variant:connect-four`` against the real bot process and the fake
Discord (which checks every body against Discord's OpenAPI spec and its message rules when ``DISCORD_API_SPEC`` names
it), played to its end by the column buttons, every press answered within 3 s; a hint, a review and a rematch; a full
column's button disabled and a forged press on it refused privately; a stale press refused; the game resumed after
the bot process was killed and started again; level 8 from its opening book in the press's answer, then from the
worker pool; a text board played with /ttt move; and the bot's record as the second player in /ttt stats."""

from __future__ import annotations

import asyncio
import copy
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from bot.cogs.ttt import HINT_COOLDOWN_SECONDS
from bot.games.codec import REF_TEMPLATE
from bot.text.discs import DISC, LAST_DISC, WON, column_heading
from engine import Mark
from engine.connect_four.cells import bit_of
from engine.connect_four.rules import ConnectFourState
from engine.games.connect_four import CONNECT_FOUR_VARIANT
from testing.fake_discord import FakeDiscord
from testing.players import CB_UPDATE, answered, describe, private_text, public_message, refusal, ttt, updated_message

from .conftest import E2E_TOKEN, BotProcess, BotStarter, make_users
from .test_downtime import crash, until
from .test_variants_e2e import buttons, over, text_of

pytestmark = [pytest.mark.asyncio]

NAME = CONNECT_FOUR_VARIANT.name
REF = re.compile(REF_TEMPLATE)


def columns(board: dict[str, Any]) -> list[dict[str, Any]]:
    """The column buttons of a board, left to right."""
    return [b for b in buttons(board) if (m := REF.fullmatch(b["custom_id"])) and m["kind"].isdigit()]


def version(board: dict[str, Any]) -> int:
    """The moves the board shows (every button names the same version)."""
    found = {int(m["version"]) for b in buttons(board) if (m := REF.fullmatch(b["custom_id"]))}
    assert len(found) == 1, found
    return found.pop()


def checked(board: dict[str, Any]) -> dict[str, Any]:
    """``board``, once it is a classic message with the grid of discs, 7 column buttons in rows of 4 and 3 and a
    control row, every id a reference within Discord's 100 characters."""
    rows = board["components"]
    assert [len(row["components"]) for row in rows] in ([4, 3, 1], [4, 3, 2]), rows
    assert [b["label"] for b in columns(board)] == list("1234567")
    assert all(REF.fullmatch(b["custom_id"]) and len(b["custom_id"]) <= 100 for b in buttons(board))
    assert column_heading(CONNECT_FOUR_VARIANT) in board["content"] and len(board["content"]) <= 2000
    return board


def position(board: dict[str, Any]) -> ConnectFourState:
    """The position the grid of discs in ``board``'s text shows (the last disc a square)."""
    grid = board["content"].split(column_heading(CONNECT_FOUR_VARIANT) + "\n", 1)[1].splitlines()[:6]
    x = o = 0
    for row, line in enumerate(grid):
        for column, disc in enumerate(line):
            bit = bit_of(row * 7 + column)
            x |= bit if disc in (DISC[Mark.X], LAST_DISC[Mark.X]) else 0
            o |= bit if disc in (DISC[Mark.O], LAST_DISC[Mark.O]) else 0
    return ConnectFourState(x, o)


def player(state: ConnectFourState, rng: random.Random) -> int:
    """The person's column (0-based): the engine's level-5 move, but no four of theirs before 14 discs, so that a
    game lasts long enough for a restart and a hint."""
    rules = CONNECT_FOUR_VARIANT.game
    chosen = CONNECT_FOUR_VARIANT.play(state, 5, rng=rng).cell
    if state.discs < 14 and rules.terminal(rules.result(state, chosen)):
        quiet = [cell for cell in rules.actions(state) if not rules.terminal(rules.result(state, cell))]
        chosen = rng.choice(quiet or [chosen])
    return chosen % 7


def stored_versions(bot: BotProcess) -> list[int]:
    """The versions (moves) of the running games the bot stored."""
    with sqlite3.connect(Path(bot.log_path.parent) / "ttt.sqlite3") as connection:
        return [row[0] for row in connection.execute("SELECT version FROM running_games")]


async def press(fake: FakeDiscord, channel: str, user: dict[str, Any], board: dict[str, Any], column: int) -> Any:
    """Press column ``column`` (0-based) of ``board``: the board as the press updated it (within 3 s)."""
    rec = await fake.press_button(None, channel, user, board["id"], columns(board)[column]["custom_id"])
    return checked(await updated_message(fake, rec))


async def test_connect_four_is_played_to_its_end_and_resumes_after_a_restart(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake)
        channel = fake.channels()[0]
        (ana,) = make_users(fake, "ana-c4")

        (group,) = [c for c in fake.commands() if c["name"] == "ttt"]
        start_options = next(o for o in group["options"] if o["name"] == "start")["options"]
        choices = next(o for o in start_options if o["name"] == "variant")["choices"]
        offered = next(c for c in choices if c["value"] == NAME)
        assert offered["name"] == "Connect Four" and offered["name_localizations"]["fr"] == "Puissance 4"

        rng, restarted, hinted, hinted_at = random.Random(4), False, False, None
        for _ in range(3):  # a game that ends before 12 discs is followed by another, until both happened
            board = checked(await public_message(fake, await ttt(fake, channel, ana, "start", variant=NAME, level=2)))
            assert f"{DISC[Mark.X]} <@{ana['id']}> vs {DISC[Mark.O]}" in board["content"], board["content"]
            if hinted_at is None:
                opening = await private_text(await ttt(fake, channel, ana, "hint"))  # from the opening book, at once
                assert "`4` win in 41 plies ★" in opening, opening
                hinted_at = time.monotonic()
            while not over(board):
                ply = version(board)
                if not restarted and ply >= 6:
                    await until(lambda bot=bot, ply=ply: stored_versions(bot) == [ply])  # the newest moves are stored
                    await crash(fake, bot)
                    bot, restarted = await start_bot(fake), True
                if not hinted and ply >= 12:
                    await asyncio.sleep(max(0.0, hinted_at + HINT_COOLDOWN_SECONDS + 0.2 - time.monotonic()))
                    hint = await private_text(await ttt(fake, channel, ana, "hint"), timeout=30.0)
                    assert "Hint for" in hint and re.search(r"`[1-7]`", hint), hint
                    hinted = True
                state = position(board)
                assert state.discs == ply
                free = [i for i, b in enumerate(columns(board)) if not b.get("disabled")]
                assert [CONNECT_FOUR_VARIANT.move_at(state, column) % 7 for column in free] == free
                stale = copy.deepcopy(board)  # the fake edits its stored message in place
                board = await press(fake, channel, ana, board, player(state, rng))
                assert version(board) == ply + 2 or over(board), (ply, version(board))
                assert "O played " in text_of(board) or over(board)
                if version(board) == 2:  # a press on a board the bot has moved past is refused privately
                    late = await fake.press_custom_id(None, channel, ana, board["id"], _id(stale, 0))
                    assert "The board changed" in await refusal(late)
            if restarted and hinted:
                break
        assert restarted and hinted
        text = text_of(board)
        assert re.search(r"wins!|It's a draw\.", text), text
        assert ("wins!" not in text) or text.count(WON) >= 4
        assert all(b.get("disabled") for b in columns(board))
        game_id = re.search(r"Game `([0-9a-z]+)`", text)
        assert game_id is not None, text

        review = await private_text(await ttt(fake, channel, ana, "review"), timeout=120.0)
        assert f"Review of game `{game_id[1]}`" in review, review

        rematch = next(b for b in buttons(board) if b.get("label") == "Rematch")
        rec = await answered(await fake.press_button(None, channel, ana, board["id"], rematch["custom_id"]))
        assert not rec.ephemeral and rec.message_id != board["id"]
        again = fake.message(channel, rec.message_id or "") or {}
        await fake.wait_for(lambda: version(fake.message(channel, again["id"]) or again) == 1, 10.0)
        again = checked(fake.message(channel, again["id"]) or again)  # the bot (level 2) opens as X
        assert f"{DISC[Mark.O]} <@{ana['id']}>" in again["content"], again["content"]
        resigned = await fake.press_button(
            None, channel, ana, again["id"], next(b for b in buttons(again) if b.get("label") == "Resign")["custom_id"]
        )
        assert "resigned" in text_of(await updated_message(fake, resigned))

        asked = await fake.slash_command(None, channel, ana, subcommand="stats", options={"user": fake.bot_user})
        record = (await public_message(fake, asked))["content"]
        line = re.search(r"Connect Four, level 2 \(\d+\): beaten (\d+) times? in (\d+) games?(.*)", record)
        assert line is not None, record
        beaten = re.fullmatch(r" · playing O: beaten (\d+) times? in (\d+) games?", line[3])  # people playing first
        assert beaten is not None and beaten[1] == line[1] and int(beaten[2]) == int(line[2]) - 1, record


def _id(board: dict[str, Any], column: int) -> str:
    return str(columns(board)[column]["custom_id"])


async def test_a_full_columns_button_is_disabled_and_a_forged_press_on_it_refused(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake)
        channel = fake.channels()[0]
        ana, bea = make_users(fake, "ana-c4-full", "bea-c4-full")
        prompt = await public_message(fake, await ttt(fake, channel, ana, "start", variant=NAME, opponent=bea))
        accept = next(b for b in buttons(prompt) if b.get("label") == "Accept")
        board = await updated_message(
            fake, await fake.press_button(None, channel, bea, prompt["id"], accept["custom_id"])
        )
        board = checked(board)
        for ply in range(6):  # column 4 filled, alternately
            board = await press(fake, channel, ana if ply % 2 == 0 else bea, board, 3)
        assert columns(board)[3].get("disabled") and not columns(board)[0].get("disabled")
        named = REF.fullmatch(_id(board, 0))
        assert named is not None
        forged = f"ttt:{named['variant']}:3:{named['game']}:{version(board)}"  # column 4's top cell: a modified client
        assert forged == _id(board, 3)
        rec = await answered(await fake.press_custom_id(None, channel, ana, board["id"], forged))
        assert rec.ephemeral and "That column is full" in (rec.content or ""), rec.content
        moved = await ttt(fake, channel, ana, "move", cell="4")
        assert "That column is full" in await refusal(moved)
        wrong = await refusal(await ttt(fake, channel, ana, "move", cell="9"))
        assert "9 is not a move on this board: choose 1-7, or a-g." in wrong, wrong
        posted = await public_message(fake, await ttt(fake, channel, ana, "move", cell="a"))
        assert version(checked(posted)) == 7 and columns(posted)[0]["custom_id"].split(":")[2] == "28"  # a5


async def test_level_8_answers_from_its_opening_book_at_once(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake)
        channel = fake.channels()[0]
        (ana,) = make_users(fake, "ana-c4-level8")
        board = checked(await public_message(fake, await ttt(fake, channel, ana, "start", variant=NAME)))
        rng, message_id = random.Random(8), board["id"]
        for ply in (0, 2, 4):
            rec = await answered(
                await fake.press_button(None, channel, ana, message_id, _id(board, player(position(board), rng)))
            )
            board = checked(rec.payload)  # the press is answered with the book's reply on the board: no search
            assert rec.callback_type == CB_UPDATE and board, describe(rec)
            assert version(board) == ply + 2 and "read from its opening book" in text_of(board), text_of(board)
            assert "thinking" not in text_of(board) and not all(b.get("disabled") for b in columns(board))
        while position(board).discs < 20 and not over(board):  # past the book: the solver, in the worker pool
            ply = version(board)
            rec = await answered(
                await fake.press_button(None, channel, ana, message_id, _id(board, player(position(board), rng)))
            )
            shown = checked(rec.payload)
            if "thinking" not in text_of(shown):  # still the book's reply, in the press's answer
                assert over(shown) or version(shown) == ply + 2, text_of(shown)
                board = shown
                continue
            assert version(shown) == ply + 1, text_of(shown)
            assert all(b.get("disabled") for b in columns(shown))  # no press while the bot searches
            await fake.wait_for(lambda at=ply + 2: version(fake.message(channel, message_id) or {}) >= at, 30)
            board = checked(fake.message(channel, message_id) or {})
            assert "O played" in text_of(board) and "read from its opening book" not in text_of(board), text_of(board)
            break
        else:
            pytest.fail(f"no move off the opening book by {position(board).discs} discs")
        resign = next(b for b in buttons(board) if b.get("label") == "Resign")
        ended = await updated_message(
            fake, await fake.press_button(None, channel, ana, board["id"], resign["custom_id"])
        )
        assert "resigned" in text_of(ended)


async def test_a_text_board_is_played_with_ttt_move(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake)
        channel = fake.channels()[0]
        (ana,) = make_users(fake, "ana-c4-text")
        board = await public_message(fake, await ttt(fake, channel, ana, "start", variant=NAME, level=1, board="text"))
        assert "```\n1 2 3 4 5 6 7\n" in board["content"] and "Play with `/ttt move cell:<1-7>`." in board["content"]
        assert [b.get("label") for b in buttons(board)] == ["Resign"]  # no column buttons on a text board
        for typed in ("4", "d"):
            board = await public_message(fake, await ttt(fake, channel, ana, "move", cell=typed))
        grid = board["content"].split("```\n", 1)[1].split("\n```", 1)[0].splitlines()
        column_4 = [row[6] for row in grid[1:]]  # under the "4" of the heading
        assert len(grid) == 7 and column_4.count("X") == 2 and column_4[-1] == "X", grid  # "4" and "d": column 4
        assert board["content"].count("O played") == 1
