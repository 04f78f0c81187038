"""The bot as a user-installed app: games in DMs and group DMs.

There the bot is not a member of the channel (a group DM, or another person's DM): Discord refuses its channel
REST calls (403/50001), so everything must go through interaction responses, followups and edits of the
interaction's own messages. The fake also refuses ``/ttt`` there unless the synced command allows user installs
(``integration_types``) and the DM contexts (``contexts``), as a Discord client would not offer it.

What the bot shows later, off any interaction (its move on a slow variant, a move made on an ultimate private pad),
is edited in through the freshest interaction whose ``@original`` is the board; once no token is fresh (15 minutes,
shortened here in a fake of its own), the move is still committed and ``/ttt board`` shows it.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from testing.boards import EMPTY, board_of, button_labelled, free_cells, to_move, winner
from testing.fake_discord import FakeDiscord
from testing.players import press, public_message, ttt, updated_message

from . import test_ultimate_e2e as ultimate
from . import test_variants_e2e as variants
from .conftest import BotProcess, BotStarter

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.faults]


def channel_calls(fake: FakeDiscord, channel: str) -> list[str]:
    """The bot's channel REST calls for ``channel`` (not interaction responses)."""
    return [f"{c.method} {c.path} -> {c.status}" for c in fake.rest_log if c.path.startswith(f"/channels/{channel}")]


async def test_a_dm_game_is_played_to_the_end(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    alice = fake.make_user(300_000_000_000_000_001, "alice")
    dm = fake.add_dm_channel(alice)
    rec = await fake.slash_command(None, dm, alice, subcommand="start", install="user")
    assert rec.interaction["context"] == 1 and rec.interaction["authorizing_integration_owners"] == {"1": alice["id"]}
    board = await public_message(fake, rec)
    shown = board_of(board) or EMPTY
    while winner(shown) is None and "." in shown:
        assert to_move(shown) == "X", shown
        board = await updated_message(fake, await press(fake, dm, alice, board, free_cells(shown)[0]))
        shown = board_of(board) or EMPTY
    assert "wins" in board["content"] or "draw" in board["content"], board["content"]
    assert winner(shown) != "X", "the unbeatable bot lost"
    assert channel_calls(fake, dm) == [], "a DM game must use interaction responses only"


async def test_a_group_dm_challenge_is_accepted_and_played(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    alice, bob, carol = (fake.make_user(300_000_000_000_000_010 + i, n) for i, n in enumerate(("al", "bo", "ca")))
    group = fake.add_group_dm([alice, bob, carol], name="game night")
    rec = await fake.slash_command(None, group, alice, subcommand="start", options={"opponent": bob})
    assert rec.interaction["context"] == 2
    prompt = await public_message(fake, rec)
    accept = button_labelled(prompt, "Accept")
    assert accept is not None, prompt["components"]
    board = await updated_message(fake, await fake.press_button(None, group, bob, prompt["id"], accept["custom_id"]))
    players: dict[str, dict[str, Any]] = {"X": alice, "O": bob}
    for cell in (0, 4, 1, 8, 2):  # X takes the top row
        shown = board_of(board) or EMPTY
        board = await updated_message(fake, await press(fake, group, players[to_move(shown)], board, cell))
    assert board_of(board) == "XXX.O...O"
    assert f"<@{alice['id']}> wins" in board["content"], board["content"]
    assert channel_calls(fake, group) == [] and fake.violations == []


def group_of(fake: FakeDiscord, *names: str) -> tuple[str, list[dict[str, Any]]]:
    """A group DM of new users named ``names`` (the bot is not in it)."""
    base = 300_000_000_000_000_100 + 10 * len(fake.users)
    users = [fake.make_user(base + i, name) for i, name in enumerate(names)]
    return fake.add_group_dm(users, name="-".join(names)), users


def webhook_edits(fake: FakeDiscord, message_id: str) -> int:
    """How many accepted edits of ``message_id`` went through an interaction token after the first callback."""
    return sum(
        1
        for rec in fake.records
        for event in rec.followups
        if event.kind in ("edit_original", "edit_message") and event.message_id == message_id
    )


async def test_the_bots_move_on_4x4_appears_in_a_group_dm_it_is_not_in(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    group, (alice, _) = group_of(fake, "al4", "bo4")
    board = await variants.start(fake, group, alice, variant="4x4", play_as="X", level=2)
    for _ in range(2):
        ply = len(variants.moves_of(board))
        cell = variants.free_cells(board)[0]
        rec = await variants.answered(await fake.press_button(None, group, alice, board["id"], cell))
        assert rec.callback_type == variants.CB_UPDATE and "thinking" in variants.text_of(rec.payload)
        board = await variants.bot_moved(fake, group, board["id"], ply + 2)
        assert len(variants.moves_of(board)) == ply + 2 and "thinking" not in variants.text_of(board)
    assert webhook_edits(fake, board["id"]) == 2, "the bot's moves were not edited in through an interaction"
    assert channel_calls(fake, group) == [] and fake.violations == []


async def test_an_ultimate_move_on_the_private_pad_updates_the_public_board_in_a_group_dm(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    group, (alice, bob) = group_of(fake, "alu", "bou")
    options = {"variant": "ultimate", "opponent": bob, "play_as": "X"}
    rec = await fake.slash_command(None, group, alice, subcommand="start", options=options)
    prompt = await public_message(fake, rec)
    accept = button_labelled(prompt, "Accept")
    assert accept is not None, prompt["components"]
    board = await updated_message(fake, await fake.press_button(None, group, bob, prompt["id"], accept["custom_id"]))
    assert ultimate.version(board) == 0
    pad = await ultimate.open_pad(fake, group, alice, board, ultimate.pressable(board, "pick")[4])
    pad = await ultimate.on_pad(fake, group, alice, pad, ultimate.pressable(pad, "cell")[4])  # e5
    assert "You played e5" in pad["content"]
    board = await ultimate.bot_moved(fake, group, board["id"], 1)
    text = ultimate.text_of(board)
    assert ultimate.version(board) == 1 and f"<@{bob['id']}> to move" in text and "small board d4-f6" in text, text
    assert ultimate.pressable(board, "cell") and not ultimate.pressable(board, "pick"), "O must play in e5's board"
    assert channel_calls(fake, group) == [] and fake.violations == []


@pytest.mark.asyncio(loop_scope="function")  # a bot of its own (start_bot), not the module's
async def test_with_no_fresh_token_the_move_is_kept_and_board_shows_it(start_bot: BotStarter) -> None:
    async with FakeDiscord(token_lifetime=0.0) as fake:  # every token expired by the time it could edit the board
        bot = await start_bot(fake, LOG_LEVEL="DEBUG")  # discord.py logs webhook URLs at DEBUG: redacted
        group, (alice, _) = group_of(fake, "alx", "box")
        board = await variants.start(fake, group, alice, variant="4x4", play_as="X", level=2)
        cell = variants.free_cells(board)[0]
        rec = await variants.answered(await fake.press_button(None, group, alice, board["id"], cell))
        assert "thinking" in variants.text_of(rec.payload)
        await fake.wait_for(lambda: any(v.rule == "expired_token" for v in fake.violations), variants.MOVE_WAIT)
        assert "thinking" in variants.text_of(fake.message(group, board["id"]) or {})  # the edit was refused
        shown = await public_message(fake, await ttt(fake, group, alice, "board"))
        assert len(variants.moves_of(shown)) == 2 and "thinking" not in variants.text_of(shown)
        warning = f"could not edit message {board['id']}"
        for _ in range(100):  # the bot logs after reading the 401: poll its log a little
            if warning in bot.log_text():
                break
            await asyncio.sleep(0.05)
        log = bot.log_text()
        assert log.count(warning) == 1, "warn once per message"
        assert "/webhooks/" in log and [r.token for r in fake.records if r.token in log] == []
        assert [v.rule for v in fake.violations] == ["expired_token"], "the refused token was used again"
        assert channel_calls(fake, group) == []
