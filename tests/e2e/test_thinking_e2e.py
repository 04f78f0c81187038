"""How did it think? through the Discord protocol (the fake, a real bot process): the button on the bot's move and the
one under a hint answer privately, in time, with the picture of the search and sentences in the player's language, and
the same after the bot was killed and restarted (the search is recomputed from the stored game); without Graphviz, the
same search in words."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

from engine import variant
from testing.boards import button_labelled, rows
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import answered, press, start_game, ttt, updated_message
from testing.programs import path_without

from .conftest import E2E_TOKEN, BotStarter, make_users
from .test_variants_e2e import bot_moved, moves_of, over

pytestmark = [pytest.mark.asyncio]

CB_DEFERRED_MESSAGE = 5
FLAG_EPHEMERAL = 1 << 6
LABEL = {"en-US": "How did it think?", "de": "Wie hat er gedacht?"}


async def thinking(fake: FakeDiscord, rec: InteractionRecord) -> tuple[str, bytes]:
    """The private answer to a "How did it think?" press: deferred privately within 3 s, then its text and picture."""
    await answered(rec)
    assert rec.callback_type == CB_DEFERRED_MESSAGE and rec.ephemeral, rec
    event = await rec.wait_for_event(lambda e: e.kind == "edit_original", 20.0)
    message = fake.message(rec.channel_id, event.message_id or rec.message_id or "")
    assert message is not None and message["flags"] & FLAG_EPHEMERAL
    (attachment,) = message["attachments"]
    _, png = fake.files[attachment["id"]]
    return str(message["content"]), png


def think_button(message: dict[str, Any], locale: str = "en-US") -> str:
    button = button_labelled(message, LABEL[locale])
    assert button is not None, [b.get("label") for row in message.get("components", []) for b in row["components"]]
    return str(button["custom_id"])


async def test_the_bots_move_and_a_hint_explain_their_search_also_after_a_restart(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=2) as fake:
        bot = await start_bot(fake)
        channel, other = fake.channels()[:2]
        alice, bruno = make_users(fake, "alice", "bruno")
        bruno["locale"] = "de"
        board = await start_game(fake, channel, alice)
        assert button_labelled(board, LABEL["en-US"]) is None  # the bot has not moved yet
        moved = await updated_message(fake, await press(fake, channel, alice, board, 4))

        guild = fake.default_guild_id
        text, png = await thinking(
            fake, await fake.press_button(guild, channel, alice, moved["id"], think_button(moved))
        )
        assert text.startswith("**How I chose") and "Alpha-beta evaluated 71 states" in text, text
        assert "plain minimax would evaluate 55,504" in text and "It cut 5 branches" in text, text
        picture = Image.open(io.BytesIO(png))
        assert picture.format == "PNG" and picture.width > 400
        again = await fake.press_button(guild, channel, alice, moved["id"], think_button(moved))
        assert "try again in" in await public_or_private(fake, await answered(again))  # one look every 2 s
        await asyncio.sleep(2.0)

        hint = await answered(await ttt(fake, channel, alice, "hint"))
        if hint.callback_type == CB_DEFERRED_MESSAGE:
            await hint.wait_for_event(lambda e: e.kind == "edit_original", 20.0)
        hinted = fake.message(channel, hint.message_id or "")
        assert hinted is not None and hinted["flags"] & FLAG_EPHEMERAL
        rec = await fake.press_button(guild, channel, alice, hinted["id"], think_button(hinted))
        hint_text, _ = await thinking(fake, rec)
        assert hint_text.startswith("**How the search sees this position**"), hint_text
        await asyncio.sleep(2.0)

        german = await start_game(fake, other, bruno)
        german = await updated_message(fake, await press(fake, other, bruno, german, 0))
        german_text, _ = await thinking(
            fake, await fake.press_button(guild, other, bruno, german["id"], think_button(german, "de"))
        )
        assert "Die Alpha-Beta-Suche bewertete" in german_text, german_text

        await bot.kill()
        await fake.wait_for_disconnect(10)
        await bot.start()
        again, png_again = await thinking(
            fake, await fake.press_button(guild, channel, alice, moved["id"], think_button(moved))
        )
        assert again == text and png_again == png  # recomputed from the stored game: the same search, the same picture
        stranger = make_users(fake, "carla")[0]
        refused = await fake.press_button(guild, channel, stranger, moved["id"], think_button(moved))
        await answered(refused)
        assert (await public_or_private(fake, refused)).startswith("This isn't your game")


async def public_or_private(fake: FakeDiscord, rec: InteractionRecord) -> str:
    """The text of a private answer, after a private deferral or not."""
    if rec.callback_type == CB_DEFERRED_MESSAGE:
        event = await rec.wait_for_event(lambda e: e.kind == "edit_original", 20.0)
        message = fake.message(rec.channel_id, event.message_id or "")
        return str((message or {}).get("content") or "")
    return rec.content or ""


async def test_a_4x4_board_explains_the_bots_move_near_the_end_with_a_fresh_search(start_bot: BotStarter) -> None:
    """On 4x4 the button appears once at most 9 cells were empty before the bot's move, and its picture and text are
    a fresh exact search's (the bot's own search keeps its table between moves)."""
    four = variant("4x4")
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake)
        channel = fake.channels()[0]
        (alice,) = make_users(fake, "alice")
        guild = fake.default_guild_id
        board = await start_game(fake, channel, alice, variant="4x4", play_as="X")
        while button_labelled(board, LABEL["en-US"]) is None:
            moves = moves_of(board)
            assert not over(board) and not four.explains(moves[:-1]), moves  # offered as soon as it can explain
            cell = four.play(four.replay(moves)).cell  # alice plays perfectly: the game goes on to the end
            (button,) = [b for b in rows(board)[cell // 4][cell % 4 : cell % 4 + 1] if not b.get("disabled")]
            await answered(await fake.press_button(guild, channel, alice, board["id"], button["custom_id"]))
            board = await bot_moved(fake, channel, board["id"], len(moves) + 2)
        moves = moves_of(board)
        assert len(moves) == 8 and four.explains(moves[:-1])
        pressed = await fake.press_button(guild, channel, alice, board["id"], think_button(board))
        text, png = await thinking(fake, pressed)
        assert text.startswith(f"**How I chose {four.cell_label(moves[-1])}:**"), text
        assert "in a fresh search of this position, from an empty transposition table" in text, text
        assert "plain minimax" not in text
        picture = Image.open(io.BytesIO(png))
        assert picture.format == "PNG" and picture.width > 300


async def test_without_graphviz_the_bot_warns_once_and_explains_in_words(start_bot: BotStarter) -> None:
    """A machine without Graphviz's dot (the bot's PATH lacks it): one WARNING at start-up, and "How did it think?"
    answers privately with the search in words (best move, value, counts, line, alternatives), with no picture and no
    failure; on ultimate the MCTS statistics likewise."""
    async with FakeDiscord(token=E2E_TOKEN, channels=2) as fake:
        bot = await start_bot(fake, PATH=path_without("dot"))
        channel, other = fake.channels()[:2]
        (alice,) = make_users(fake, "alice")
        guild = fake.default_guild_id
        warned = [line for line in bot.log_text().splitlines() if "Graphviz" in line]
        assert len(warned) == 1 and "WARNING" in warned[0] and "apt-get install graphviz" in warned[0], warned
        board = await start_game(fake, channel, alice)
        moved = await updated_message(fake, await press(fake, channel, alice, board, 4))
        rec = await fake.press_button(guild, channel, alice, moved["id"], think_button(moved))
        await answered(rec)
        assert rec.callback_type == CB_DEFERRED_MESSAGE and rec.ephemeral, rec
        event = await rec.wait_for_event(lambda e: e.kind == "edit_original", 20.0)
        message = fake.message(rec.channel_id, event.message_id or rec.message_id or "")
        assert message is not None and message["flags"] & FLAG_EPHEMERAL and not message.get("attachments")
        text = str(message["content"])
        assert text.startswith("**How I chose") and "Alpha-beta evaluated 71 states" in text, text
        assert "The first moves it weighed" in text and "The line both sides play: O " in text, text
        assert "No picture: Graphviz's `dot` is not installed" in text and "orange" not in text, text

        await start_game(fake, other, alice, variant="ultimate", play_as="X")
        hint = await answered(await ttt(fake, other, alice, "hint"))  # "How did it think?" under it: the MCTS search
        if hint.callback_type == CB_DEFERRED_MESSAGE:
            await hint.wait_for_event(lambda e: e.kind == "edit_original", 20.0)
        hinted = fake.message(other, hint.message_id or "")
        assert hinted is not None and hinted["flags"] & FLAG_EPHEMERAL
        await asyncio.sleep(2.0)  # one look every 2 s
        pressed = await fake.press_button(guild, other, alice, hinted["id"], think_button(hinted))
        await answered(pressed)
        event = await pressed.wait_for_event(lambda e: e.kind == "edit_original", 30.0)
        words = fake.message(other, event.message_id or pressed.message_id or "")
        assert words is not None and not words.get("attachments")
        assert "Monte Carlo tree search played" in str(words["content"]), words["content"]
        assert "The moves it tried most:" in str(words["content"]) and "win rate" in str(words["content"])
        assert "Traceback" not in bot.log_text()
