"""The bot as a user-installed app (scenario m, for a later issue): games in DMs and group DMs.

There the bot is not a member of the channel (a group DM, or another person's DM): Discord refuses its channel
REST calls (403/50001), so everything must go through interaction responses, followups and edits of the
interaction's own messages. The fake also refuses ``/ttt`` there unless the synced command allows user installs
(``integration_types``) and the DM contexts (``contexts``), as a Discord client would not offer it.
"""

from __future__ import annotations

from typing import Any

import pytest

from testing.boards import EMPTY, board_of, button_labelled, free_cells, to_move, winner
from testing.fake_discord import FakeDiscord
from testing.players import press, public_message, updated_message

from .conftest import BotProcess

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
