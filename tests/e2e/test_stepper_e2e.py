"""The "How did it think?" stepper through the Discord protocol (the fake, a real bot process): Step through under the
private picture opens the search privately at its first state, Next, Into, Out, Back and Next cut move it in place,
in the player's language; a forged board is refused, and after a restart the stepper says how to get it back."""

from __future__ import annotations

import re
from typing import Any

import pytest

from testing.boards import button_labelled
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import answered, press, private_text, start_game, updated_message

from .conftest import E2E_TOKEN, BotStarter, make_users
from .test_thinking_e2e import think_button, thinking

pytestmark = [pytest.mark.asyncio]

CB_MESSAGE = 4
HEADER = re.compile(r"^\*\*(?:Step|Schritt) (\d+) (?:of|von) 71\*\* · alpha-beta: 71 (?:states|Zustände)")


async def opened(fake: FakeDiscord, rec: InteractionRecord) -> dict[str, Any]:
    """The private stepper a Step through press sent, as a new ephemeral message."""
    await answered(rec)
    assert rec.callback_type == CB_MESSAGE and rec.ephemeral, rec
    message = fake.message(rec.channel_id, rec.message_id or "")
    assert message is not None, rec
    return message


def step_of(message: dict[str, Any]) -> int:
    match = HEADER.match(str(message["content"]))
    assert match, message["content"]
    return int(match.group(1))


def walked(message: dict[str, Any]) -> str:
    """The walk's lines in a stepper message (its code block)."""
    return str(message["content"]).split("```")[1]


def button(message: dict[str, Any], label: str) -> dict[str, Any]:
    found = button_labelled(message, label)
    assert found is not None, [b.get("label") for row in message.get("components", []) for b in row["components"]]
    return found


async def test_step_through_walks_the_bots_search_privately(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=2) as fake:
        bot = await start_bot(fake)
        channel, other = fake.channels()[:2]
        alice, bruno = make_users(fake, "alice", "bruno")
        bruno["locale"] = "de"
        guild = fake.default_guild_id
        moved = await updated_message(
            fake, await press(fake, channel, alice, await start_game(fake, channel, alice), 4)
        )
        rec = await fake.press_button(guild, channel, alice, moved["id"], think_button(moved))
        await thinking(fake, rec)
        answer = fake.message(
            channel, (await rec.wait_for_event(lambda e: e.kind == "edit_original", 20.0)).message_id or ""
        )
        assert answer is not None

        stepper = await opened(
            fake,
            await fake.press_button(guild, channel, alice, answer["id"], button(answer, "Step through")["custom_id"]),
        )
        assert step_of(stepper) == 1 and "O 1  \N{GREEK SMALL LETTER ALPHA} -∞  β +∞" in stepper["content"]
        assert button(stepper, "Back").get("disabled") and button(stepper, "Out").get("disabled")

        async def move(label: str) -> dict[str, Any]:
            pressed = await fake.press_button(guild, channel, alice, stepper["id"], button(stepper, label)["custom_id"])
            return await updated_message(fake, pressed)

        stepper = await move("Next")
        assert step_of(stepper) == 2 and "X 3" in stepper["content"]
        stepper = await move("Into")
        assert step_of(stepper) == 3
        stepper = await move("Out")
        assert step_of(stepper) == 2
        stepper = await move("Back")
        assert step_of(stepper) == 1
        stepper = await move("Next cut")
        assert step_of(stepper) == 21  # X 9 under O 1: X already has a draw with 3 (docs/engine.md)
        while "✂" not in walked(stepper):  # its reason comes once its searched replies came back
            stepper = await move("Next")
        assert "\N{GREEK SMALL LETTER ALPHA} = 0 (draw): X already has it elsewhere (X 3 at ply 2)" in walked(stepper)

        next_id = button(stepper, "Next")["custom_id"]
        forged = re.sub(r"^(tsx:\w+:)4", r"\g<1>0", next_id)  # X's first move was 4: a modified client
        assert forged != next_id
        refused = await fake.press_custom_id(guild, channel, alice, stepper["id"], forged, like=next_id)
        assert "no search of mine to show on this board" in await private_text(refused)

        german = await updated_message(fake, await press(fake, other, bruno, await start_game(fake, other, bruno), 4))
        rec = await fake.press_button(guild, other, bruno, german["id"], think_button(german, "de"))
        await thinking(fake, rec)
        answer = fake.message(
            other, (await rec.wait_for_event(lambda e: e.kind == "edit_original", 20.0)).message_id or ""
        )
        assert answer is not None
        schritt = await opened(
            fake,
            await fake.press_button(
                guild, other, bruno, answer["id"], button(answer, "Schritt für Schritt")["custom_id"]
            ),
        )
        assert step_of(schritt) == 1 and button(schritt, "Weiter") and button(schritt, "Nächster Schnitt")

        await bot.kill()  # nothing is kept per stepper: after a restart it says how to get it back
        await fake.wait_for_disconnect(10)
        await bot.start()
        stale = await fake.press_button(guild, channel, alice, stepper["id"], button(stepper, "Back")["custom_id"])
        assert "press How did it think? again" in await private_text(stale)
