"""A game written outside the engine and registered through ``TTT_GAMES`` (:mod:`tests.e2e.outside_game`: three in a
row on a 4 x 3 board) is played end to end with no change to ``bot/``: listed in ``/ttt start variant:``, started,
pressed, answered by the bot at two levels, hinted, reviewed, recorded, rated, and resumed after the bot process was
killed and started again."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.records.ratings import LEVEL_DEVIATION, STARTING, rated
from testing.fake_discord import FakeDiscord
from testing.players import private_text, public_message, ttt

from .conftest import E2E_TOKEN, BotProcess, BotStarter, make_users
from .outside_game import THREE_BY_FOUR
from .test_downtime import crash, until
from .test_variants_e2e import MOVE_WAIT, answered, buttons, free_cells, over, text_of

pytestmark = [pytest.mark.asyncio]

GAMES = {"TTT_GAMES": "tests.e2e.outside_game:THREE_BY_FOUR"}
"""The bot's environment: the outside game to register at start-up. This process never registers it: the test
reads the boards' ids itself, so nothing here depends on the registry."""
CB_DEFERRED_UPDATE, CB_UPDATE = 6, 7
SHOWN = re.compile(r"vs the bot: (\d+) ± (\d+) · (\d+) games?")
CARRIED = re.compile(r"ttt:(?P<kind>\d{1,2}|[rn]):[0-9a-z]+:(?P<moves>[0-9a-z]*):")


def moves_of(message: dict[str, Any]) -> tuple[int, ...]:
    """The moves every button of a board carries (base-36 digits, 0-based cells)."""
    found = {m["moves"] for b in buttons(message) if (m := CARRIED.match(b["custom_id"]))}
    assert len(found) == 1, found
    return tuple(int(digit, 36) for digit in found.pop())


def stored_versions(bot: BotProcess) -> list[int]:
    """The versions (moves) of the running games the bot stored."""
    with sqlite3.connect(Path(bot.log_path.parent) / "ttt.sqlite3") as connection:
        return [row[0] for row in connection.execute("SELECT version FROM running_games")]


def rating_of(level: int) -> int:
    return round(THREE_BY_FOUR.rating(level))


async def bot_moved(fake: FakeDiscord, channel: str, message_id: str, ply: int) -> dict[str, Any]:
    """The board once it shows ``ply`` moves or more, or the end."""

    def ready() -> bool:
        message = fake.message(channel, message_id) or {}
        return over(message) or len(moves_of(message)) >= ply

    await fake.wait_for(ready, MOVE_WAIT)
    message = fake.message(channel, message_id)
    assert message is not None
    return message


def best_cell_id(board: dict[str, Any]) -> str:
    """The custom_id of a best free cell of ``board`` for the player to move (the game's own exact hint)."""
    best = {move.cell for move in THREE_BY_FOUR.hint(moves_of(board)).best}
    return next(cid for cid in free_cells(board) if int((CARRIED.match(cid) or {"kind": -1})["kind"]) in best)


async def press_and_wait(
    fake: FakeDiscord, channel: str, user: dict[str, Any], board: dict[str, Any]
) -> dict[str, Any]:
    """Press a best cell: the first callback shows the move and the bot thinking; then the bot's move arrives."""
    ply = len(moves_of(board))
    rec = await answered(await fake.press_button(None, channel, user, board["id"], best_cell_id(board)))
    assert rec.callback_type in (CB_UPDATE, CB_DEFERRED_UPDATE) and not rec.ephemeral  # deferred: after a restart
    if rec.payload and not over(rec.payload):
        assert "thinking" in text_of(rec.payload) and not free_cells(rec.payload)
    return await bot_moved(fake, channel, board["id"], ply + 2)


async def test_the_help_and_a_challenge_speak_of_an_outside_game(start_bot: BotStarter) -> None:
    """/ttt help gives the game its paragraph (title, description, how a move is made, level 8) from its answers, in the
    reader's language with the command names Discord shows them (German: /ttt zug feld:); a challenge names it."""
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake, **GAMES)
        channel = fake.channels()[0]
        ana, ben = make_users(fake, "ana", "ben")

        shown = await private_text(await ttt(fake, channel, ana, "help"))
        assert f"{THREE_BY_FOUR.title}\n{THREE_BY_FOUR.description}\n" in shown, shown
        assert "or type `/ttt move cell:` and a cell from a1 (top left) to d3." in shown, shown
        ana["locale"] = "de"
        german = await private_text(await ttt(fake, channel, ana, "help"))
        assert "`/ttt zug feld:` und ein Feld von a1 (oben links) bis d3" in german, german
        assert "Stufe 8 spielt perfekt und verliert nie." in german.split(THREE_BY_FOUR.title)[1], german

        prompt = await public_message(fake, await ttt(fake, channel, ben, "start", variant="3x4", opponent=ana))
        assert f"**{THREE_BY_FOUR.title}** ({THREE_BY_FOUR.description})" in prompt["content"], prompt["content"]
        assert "tic-tac-toe" not in prompt["content"], prompt["content"]


async def test_an_outside_game_is_played_end_to_end_and_survives_a_restart(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake, **GAMES)
        channel = fake.channels()[0]
        (ana,) = make_users(fake, "ana")

        (group,) = [c for c in fake.commands() if c["name"] == "ttt"]
        start_options = next(o for o in group["options"] if o["name"] == "start")["options"]
        choices = next(o for o in start_options if o["name"] == "variant")["choices"]
        assert {"name": "3x4, three in a row", "value": "3x4"} in [
            {k: c[k] for k in ("name", "value")} for c in choices
        ]

        board = await public_message(fake, await ttt(fake, channel, ana, "start", variant="3x4", level=2, play_as="X"))
        assert [len(row["components"]) for row in board["components"]] == [4, 4, 4, 1]
        assert [b.get("label") for b in buttons(board)[:4]] == ["a1", "b1", "c1", "d1"]
        assert "**Tic-tac-toe 3x4, three in a row**" in board["content"], board["content"]
        assert f"level 2 ({rating_of(2)})" in board["content"], board["content"]

        hint = await private_text(await ttt(fake, channel, ana, "hint"))
        assert "win" in hint, hint  # the first player wins three in a row on 4 x 3 with best play

        bot_moves = []  # the bot's move lines on the boards on the way (the final board ends on Ana's move)
        while not over(board):
            board = await press_and_wait(fake, channel, ana, board)
            bot_moves += re.findall(r"O played [a-d][1-3] · alpha-beta evaluated", text_of(board))
        text = text_of(board)
        assert f"<@{ana['id']}> wins" in text and bot_moves, text
        won = [b for b in buttons(board) if b.get("style") == 3]  # the winning line, green
        assert len(won) >= 3
        game_id = re.search(r"Game `([0-9a-z]+)`", text)
        assert game_id is not None, text

        review = await private_text(await ttt(fake, channel, ana, "review"))
        assert f"Review of game `{game_id[1]}`" in review and review.count("\n`") >= len(moves_of(board)) - 1

        after_win = rated(STARTING, rating_of(2), LEVEL_DEVIATION, 1.0, 2)
        rating = await public_message(fake, await ttt(fake, channel, ana, "rating", variant="3x4"))
        found = SHOWN.search(rating["content"])
        assert found is not None and (int(found[1]), int(found[3])) == (round(after_win.rating), 1), rating["content"]
        stats = await public_message(fake, await ttt(fake, channel, ana, "stats"))
        assert f"rating vs the bot, 3x4: {found[1]} ± {found[2]} · 1 game" in stats["content"], stats["content"]

        board = await public_message(fake, await ttt(fake, channel, ana, "start", variant="3x4", play_as="O"))
        board = await bot_moved(fake, channel, board["id"], 1)  # level 8 opens: its move arrives in the background
        assert re.search(r"X played [a-d][1-3] · negamax evaluated", text_of(board)), text_of(board)  # its own name
        board = await press_and_wait(fake, channel, ana, board)
        played = moves_of(board)
        await until(lambda: stored_versions(bot) == [len(played)])  # the running game's newest moves are stored
        await crash(fake, bot)
        await start_bot(fake, **GAMES)
        board = await press_and_wait(fake, channel, ana, board)  # the stored game resumes, the bot answers
        assert moves_of(board)[: len(played)] == played and len(moves_of(board)) >= len(played) + 1
