"""How did it think? through the Discord protocol (the fake, a real bot process): the button on the bot's move and the
one under a hint answer privately, in time, with the picture of the search and sentences in the player's language, and
the same after the bot was killed and restarted (the search is recomputed from the stored game)."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import pytest
from PIL import Image

from testing.boards import button_labelled
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import answered, press, start_game, ttt, updated_message

from .conftest import E2E_TOKEN, BotStarter, make_users

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
