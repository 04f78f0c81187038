"""Presses and commands the bot must refuse privately, and in time, instead of failing the interaction.

Scenarios k (forged and unmatched custom_ids) and l (``/ttt hint`` twice quickly) of the issue.
"""

from __future__ import annotations

import pytest

from testing.boards import EMPTY, board_of, button_labelled, with_players
from testing.fake_discord import FakeDiscord
from testing.players import answered, press, private_text, public_message, refusal, start_game, ttt, updated_message

from .conftest import BotProcess, make_users

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.faults]


async def test_a_forged_resign_is_refused_and_the_game_goes_on(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    alice, carol, dave = make_users(fake, "alice", "carol", "dave")
    board = await start_game(fake, channel, alice)
    resign = button_labelled(board, "Resign")
    assert resign is not None
    forged = with_players(resign["custom_id"], carol["id"], dave["id"])
    rec = await fake.press_custom_id(None, channel, carol, board["id"], forged, like=resign["custom_id"])
    text = await refusal(rec)
    assert "resign" not in text.lower() or "can't" in text.lower(), text
    assert board_of(fake.message(channel, board["id"]) or {}) == EMPTY
    assert "resigned" not in (fake.message(channel, board["id"]) or {}).get("content", "")

    after = await updated_message(fake, await press(fake, channel, alice, board, 4))
    assert (board_of(after) or EMPTY)[4] == "X", "the game did not go on after the forged press"


@pytest.mark.parametrize("custom_id", ["ttt:zz:whatever", "foo"])
async def test_an_unmatched_custom_id_is_no_longer_active(
    shared_fake: FakeDiscord, shared_bot: BotProcess, custom_id: str
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    board = await start_game(fake, channel, alice)
    rec = await fake.press_custom_id(None, channel, alice, board["id"], custom_id)
    text = await private_text(rec)
    assert "no longer active" in text, text
    assert board_of(fake.message(channel, board["id"]) or {}) == EMPTY


async def test_a_second_hint_at_once_gets_a_cooldown(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    board = await start_game(fake, channel, alice)
    await updated_message(fake, await press(fake, channel, alice, board, 0))
    first = await ttt(fake, channel, alice, "hint")
    await first.wait()  # the bot took the first hint (its cooldown began) before the second arrives
    second = await ttt(fake, channel, alice, "hint")
    await answered(first)
    assert "Hint" in await private_text(first)
    text = (await refusal(second)).lower()
    assert "cooldown" in text or "try again in" in text, text


@pytest.mark.parametrize(
    ("sub", "options", "allowed"),
    [
        ("puzzle", {"variant": "3x3"}, "4x4, 5x5, ultimate"),
        ("puzzle", {"variant": "9x9", "daily": True}, "4x4, 5x5, ultimate"),
        ("stats", {"user": "<bot>", "variant": "9x9"}, "3x3, 4x4, 5x5, ultimate"),
        ("start", {"level": 12}, "1, 2, 3, 4, 5, 6, 7, 8"),
        ("leaderboard", {"scope": "galaxy"}, "server, global"),
    ],
)
async def test_an_option_outside_its_choices_is_refused_saying_what_is_allowed(
    shared_fake: FakeDiscord, shared_bot: BotProcess, sub: str, options: dict[str, object], allowed: str
) -> None:
    """A modified client can send any value; the bot answers privately with the choices, and logs no ERROR."""
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    options = {k: fake.bot_user if v == "<bot>" else v for k, v in options.items()}
    errors_before = shared_bot.log_text().count(" ERROR ")
    text = await refusal(await ttt(fake, channel, alice, sub, forged=True, **options))
    name, value = next((k, v) for k, v in options.items() if k not in ("user", "daily"))
    assert f"`{value}`" in text and name in text and allowed in text, text
    assert fake.messages(channel, include_ephemeral=False) == [], "nothing is posted in the channel"
    assert shared_bot.log_text().count(" ERROR ") == errors_before, shared_bot.log_tail(20)


async def test_odd_input_is_refused_privately_in_the_players_language_and_logs_no_error(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    """Issue 45: ``/ttt move cell:²`` (a digit to ``str.isdigit()``, not to ``int()``) on Connect Four and
    ``/ttt start variant:ultimate algorithm:minimax`` (a 55-digit estimate) each answered "something went wrong" with
    a traceback in the log."""
    fake = shared_fake
    channel = fake.add_channel()
    (greta,) = make_users(fake, "greta")
    greta["locale"] = "de"
    log_before = shared_bot.log_text()
    too_slow = await refusal(await ttt(fake, channel, greta, "start", variant="ultimate", algorithm="minimax"))
    assert "Reines Minimax wird bei ultimate nicht rechtzeitig" in too_slow and "etwa 2,8 × 10⁵⁴ Zustände" in too_slow
    await start_game(fake, channel, greta, variant="connect-four", level=1, board="text")
    for typed in ("²", "①", "0"):
        text = await refusal(await ttt(fake, channel, greta, "move", cell=typed))
        assert text == f"{typed} ist kein Zug auf diesem Spielfeld: wähle 1-7 oder a-g.", text
    moved = await public_message(fake, await ttt(fake, channel, greta, "move", cell="\uff44"))  # a full-width d
    grid = moved["content"].split("```\n", 1)[1].split("\n```", 1)[0].splitlines()
    assert grid[-1][6] == "X", grid  # the disc fell to the bottom of column 4, under the heading's "4"
    logged = shared_bot.log_text()[len(log_before) :]
    assert " ERROR " not in logged and "Traceback" not in logged, logged[-3000:]
