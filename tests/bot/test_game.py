"""Games on Discord through the /ttt commands and the board's buttons, against test doubles."""

from __future__ import annotations

import asyncio
import re

import discord

from bot import codec, render
from engine import Mark, parse_board
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, Harness, cell_items, custom_ids

AI_LINE = re.compile(r"O played (\d) · alpha-beta evaluated ([\d,]+) states in [\d.,]+ (ms|s)")


async def test_start_against_the_bot_as_x_posts_an_empty_board_with_resign(harness: Harness) -> None:
    interaction = await harness.command("start", ALICE)
    assert interaction.response.kind == "send_message" and not interaction.response.ephemeral
    message = harness.current()
    assert f"❌ <@{ALICE}> vs ⭕ the bot · unbeatable · alpha-beta" in message.content
    assert f"❌ <@{ALICE}> to move (X)." in message.content
    cells = cell_items(message)
    assert [c.item.label for c in cells] == [str(n) for n in range(1, 10)]
    assert all(c.item.style is discord.ButtonStyle.secondary and not c.item.disabled for c in cells)
    assert [c.item.row for c in cells] == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    resign = [i for i in message.view.children if i.item.label == "Resign"]
    assert len(resign) == 1 and resign[0].item.row == 3


async def test_a_press_is_answered_by_one_edit_that_includes_the_bot_reply(harness: Harness) -> None:
    await harness.command("start", ALICE)
    board = harness.current()
    press = await harness.press(board.id, ALICE, cell=4)
    assert press.response.kind == "edit_message"
    assert [c.method for c in harness.world.calls if c.interaction is press] == ["response.edit_message"]
    match = AI_LINE.search(board.content)
    assert match is not None, board.content
    session = harness.cog.sessions.get(CHANNEL)
    assert session.state[4] is Mark.X and session.state[int(match[1]) - 1] is Mark.O
    assert int(match[2].replace(",", "")) == session.last_ai.states == session.ai_states > 0
    ai_cell = cell_items(board)[int(match[1]) - 1].item
    assert ai_cell.emoji.name == "⭕" and ai_cell.style is discord.ButtonStyle.primary and ai_cell.disabled
    x_cell = cell_items(board)[4].item
    assert x_cell.emoji.name == "❌" and x_cell.style is discord.ButtonStyle.danger and x_cell.disabled


async def test_playing_o_gets_the_bots_opening_move_in_the_first_message(harness: Harness) -> None:
    await harness.command("start", ALICE, play_as="O")
    message = harness.current()
    session = harness.cog.sessions.get(CHANNEL)
    assert session.x_id is None and session.o_id == ALICE and session.state.marks == 1
    assert re.search(r"X played \d · alpha-beta evaluated [\d,]+ states", message.content)
    assert f"⭕ <@{ALICE}> to move (O)." in message.content
    assert len([m for m in harness.world.public()]) == 1


async def test_minimax_opening_is_deferred_then_reports_the_full_tree(harness: Harness) -> None:
    interaction = await harness.command("start", ALICE, play_as="O", algorithm="minimax")
    assert interaction.response.kind == "defer"
    assert "X played" in harness.current().content
    assert "minimax evaluated 549,945 states" in harness.current().content


async def test_unbeatable_bot_wins_and_the_board_ends_highlighted_and_disabled(harness: Harness) -> None:
    await harness.command("start", ALICE)
    board = harness.current()
    # Alice plays badly (edges); the unbeatable bot must win.
    for _ in range(5):
        session = harness.cog.sessions.get(CHANNEL)
        if session is None:
            break
        free = [c for c in (1, 3, 5, 7, 0, 2, 6, 8, 4) if session.state[c] is None]
        await harness.press(board.id, ALICE, cell=free[0])
    assert harness.cog.sessions.get(CHANNEL) is None
    assert "⭕ the bot wins!" in board.content
    total = re.search(r"The bot evaluated ([\d,]+) states over (\d) moves", board.content)
    assert total is not None
    code = codec.decode(custom_ids(board)[0])[0]
    line = [c for c in range(9) if code.state[c] is Mark.O]
    cells = cell_items(board)
    assert all(c.item.disabled for c in cells)
    green = [c.cell for c in cells if c.item.style is discord.ButtonStyle.success]
    assert len(green) == 3 and set(green) <= set(line)
    assert [i.item.label for i in board.view.children if i.item.row == 3] == ["Rematch"]
    assert harness.cog.stats.get(ALICE).vs_bot.losses == 1


async def test_text_mode_shows_a_grid_and_is_played_with_move(harness: Harness) -> None:
    await harness.command("start", ALICE, board="text")
    first = harness.current()
    assert "```" in first.content and " 1 │ 2 │ 3" in first.content
    assert not cell_items(first)
    move = await harness.command("move", ALICE, cell=5)
    assert move.response.kind == "send_message" and not move.response.ephemeral
    second = harness.current()
    assert second.id != first.id and " X " in second.content and "O played" in second.content
    assert first.content.startswith("This board moved: https://discord.com/channels/")
    assert first.view is None


async def test_move_with_buttons_posts_the_board_below_and_retires_the_old_one(harness: Harness) -> None:
    await harness.command("start", ALICE)
    old = harness.current()
    await harness.command("move", ALICE, cell=1)
    new = harness.current()
    assert new.id != old.id and harness.cog.sessions.get(CHANNEL).state[0] is Mark.X
    assert old.content.startswith("This board moved") and all(i.item.disabled for i in old.view.children)
    stale = await harness.press(old.id, ALICE, cell=8)
    assert stale.private_texts()[0].startswith(render.STALE_BOARD)
    assert harness.cog.sessions.get(CHANNEL).state.marks == 2


async def test_move_refusals(harness: Harness) -> None:
    nothing = await harness.command("move", ALICE, cell=1)
    assert nothing.private_texts() == [render.NO_GAME]
    await harness.command("start", ALICE)
    await harness.command("move", ALICE, cell=5)
    taken = await harness.command("move", ALICE, cell=5)
    assert taken.private_texts() == [render.CELL_TAKEN]
    stranger = await harness.command("move", CAROL, cell=1)
    assert stranger.private_texts() == [render.NOT_YOUR_GAME]


async def test_two_people_alternate_and_only_the_player_to_move_may_press(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    prompt = harness.current()
    await harness.click(prompt.id, "Accept", BOB)
    board = harness.current()
    assert board.id == prompt.id and "to move (X)" in board.content
    out_of_turn = await harness.press(board.id, BOB, cell=0)
    assert out_of_turn.private_texts() == [render.NOT_YOUR_TURN]
    stranger = await harness.press(board.id, CAROL, cell=0)
    assert stranger.private_texts() == [render.NOT_YOUR_GAME]
    for user, cell in ((ALICE, 0), (BOB, 3), (ALICE, 1), (BOB, 4), (ALICE, 2)):
        await harness.press(board.id, user, cell=cell)
    assert f"❌ <@{ALICE}> wins!" in board.content
    assert "The bot evaluated" not in board.content
    assert harness.cog.stats.get(ALICE).vs_people.wins == 1
    assert harness.cog.stats.get(BOB).vs_people.losses == 1
    assert [c.cell for c in cell_items(board) if c.item.style is discord.ButtonStyle.success] == [0, 1, 2]


async def test_concurrent_presses_apply_exactly_one_move(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    await harness.click(harness.current().id, "Accept", BOB)
    board = harness.current()
    ids = custom_ids(board)  # both presses come from the same rendering of the board
    first, second = await asyncio.gather(
        harness.press_custom_id(ids[0], ALICE, board.id), harness.press_custom_id(ids[8], ALICE, board.id)
    )
    session = harness.cog.sessions.get(CHANNEL)
    assert session.state.marks == 1
    assert sorted([first.response.kind, second.response.kind]) == ["edit_message", "send_message"]
    loser = first if first.response.kind == "send_message" else second
    assert loser.private_texts() == [render.BOARD_CHANGED]


async def test_concurrent_presses_by_both_players(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    await harness.click(harness.current().id, "Accept", BOB)
    board = harness.current()
    ids = custom_ids(board)
    results = await asyncio.gather(
        harness.press_custom_id(ids[0], BOB, board.id), harness.press_custom_id(ids[8], ALICE, board.id)
    )
    assert harness.cog.sessions.get(CHANNEL).state == parse_board("........X")
    assert results[0].private_texts() == [render.NOT_YOUR_TURN]


async def test_a_second_start_gets_a_jump_link(harness: Harness) -> None:
    await harness.command("start", ALICE)
    session = harness.cog.sessions.get(CHANNEL)
    again = await harness.command("start", BOB)
    (text,) = again.private_texts()
    assert f"https://discord.com/channels/{session.guild_id}/{CHANNEL}/{session.message_id}" in text
    assert harness.cog.sessions.get(CHANNEL).game_id == session.game_id


async def test_other_channels_are_independent(harness: Harness) -> None:
    await harness.command("start", ALICE)
    await harness.command("start", BOB, channel_id=CHANNEL + 1)
    assert harness.cog.sessions.get(CHANNEL + 1).x_id == BOB
    assert harness.cog.sessions.get(CHANNEL).x_id == ALICE


async def test_options_are_kept_and_random_side_is_either(harness: Harness) -> None:
    await harness.command("start", ALICE, difficulty="easy", algorithm="minimax", board="text", play_as="random")
    session = harness.cog.sessions.get(CHANNEL)
    assert (session.difficulty.value, session.algorithm, session.mode) == ("easy", "minimax", "text")
    assert session.mark_of(ALICE) in (Mark.X, Mark.O)
    assert "easy · minimax" in harness.current().content


async def test_resign_button_ends_the_game_and_offers_a_rematch_with_sides_swapped(harness: Harness) -> None:
    await harness.command("start", ALICE)
    board = harness.current()
    await harness.press(board.id, ALICE, label="Resign")
    assert f"<@{ALICE}> resigned — ⭕ the bot wins." in board.content
    assert harness.cog.sessions.get(CHANNEL) is None
    assert all(c.item.disabled for c in cell_items(board))
    assert harness.cog.stats.get(ALICE).vs_bot.losses == 1
    rematch = await harness.press(board.id, ALICE, label="Rematch")
    assert rematch.response.kind == "send_message"
    session = harness.cog.sessions.get(CHANNEL)
    assert session.o_id == ALICE and session.x_id is None and session.state.marks == 1
    busy = await harness.press(board.id, ALICE, label="Rematch")
    assert "already running" in busy.private_texts()[0]


async def test_resign_command_posts_the_final_board(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    await harness.click(harness.current().id, "Accept", BOB)
    old = harness.current()
    stranger = await harness.command("resign", CAROL)
    assert stranger.private_texts() == [render.NOT_YOUR_GAME]
    resign = await harness.command("resign", BOB)
    assert resign.response.kind == "send_message"
    final = harness.world.messages[resign.response_message_id]
    assert f"<@{BOB}> resigned — ❌ <@{ALICE}> wins." in final.content
    assert old.content.startswith("This board moved")
    assert harness.cog.stats.get(ALICE).vs_people.wins == 1


async def test_board_command_reposts_and_the_old_board_is_stale(harness: Harness) -> None:
    await harness.command("start", ALICE)
    old = harness.current()
    repost = await harness.command("board", CAROL)
    new = harness.current()
    assert repost.response.kind == "send_message" and new.id != old.id
    assert old.content == render.moved_text(harness.cog.sessions.get(CHANNEL).jump_url)
    assert all(i.item.disabled for i in old.view.children)
    # Discord would not deliver a press on a disabled button, but a press on the old message's id is stale anyway.
    enabled_id = codec.encode(harness.cog.sessions.get(CHANNEL).code, 0)
    stale = await harness.press_custom_id(enabled_id, ALICE, old.id)
    assert stale.private_texts()[0].startswith(render.STALE_BOARD)
    press = await harness.press(new.id, ALICE, cell=0)
    assert press.response.kind == "edit_message"


async def test_hint_lists_every_free_cell_and_both_state_counts(harness: Harness) -> None:
    await harness.command("start", ALICE)
    hint = await harness.command("hint", ALICE)
    assert hint.response.kind == "defer" and hint.response.ephemeral  # nine empty cells: plain minimax is slow
    text = harness.world.messages[hint.response_message_id].content
    assert text.count(" draw in 9 plies") == 9
    assert "alpha-beta evaluates" in text and "plain minimax evaluates 549,945." in text
    await harness.press(harness.current().id, ALICE, cell=1)
    hint = await harness.command("hint", ALICE)
    text = hint.private_texts()[0]
    cells = re.findall(r"`(\d)` (win|draw|loss) in (\d+) pl", text)
    assert len(cells) == 7
    assert "★" in text


async def test_hint_is_for_the_player_to_move_only(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    await harness.click(harness.current().id, "Accept", BOB)
    assert (await harness.command("hint", BOB)).private_texts() == [render.NOT_YOUR_TURN]
    assert (await harness.command("hint", CAROL)).private_texts() == [render.NOT_YOUR_GAME]


async def test_stats_and_help(harness: Harness) -> None:
    await harness.command("start", ALICE)
    await harness.press(harness.current().id, ALICE, label="Resign")
    stats = await harness.command("stats", BOB, user=_user(ALICE))
    assert stats.response.content == f"**<@{ALICE}>**\nvs the bot: 0 W · 0 D · 1 L\nvs people: 0 W · 0 D · 0 L"
    mine = await harness.command("stats", BOB)
    assert "vs the bot: 0 W · 0 D · 0 L" in mine.response.content
    help_ = await harness.command("help", BOB)
    assert help_.response.ephemeral
    for phrase in ("three in a row", " 7 │ 8 │ 9", "Minimax", "Alpha-beta", "prunes", "549,945"):
        assert phrase in help_.response.content


def _user(user_id: int, *, bot: bool = False) -> discord.Object:
    user = discord.Object(id=user_id)
    user.bot = bot  # type: ignore[attr-defined]
    return user
