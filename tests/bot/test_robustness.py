"""Restarts, stale and finished boards, timeouts, challenges and error handling."""

from __future__ import annotations

import asyncio
import logging

import discord
import pytest

from bot import codec, render
from bot.codec import GameCode
from bot.sessions import Session
from engine import Difficulty, Mark, parse_board
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, Harness, World, cell_items, custom_ids


def _user(user_id: int, *, bot: bool = False) -> discord.Object:
    user = discord.Object(id=user_id)
    user.bot = bot  # type: ignore[attr-defined]
    return user


async def test_a_board_resumes_after_a_restart_from_its_custom_id_alone(world: World) -> None:
    before = Harness(world)
    await before.command("start", ALICE)
    board = world.messages[before.cog.sessions.get(CHANNEL).message_id]
    await before.press(board.id, ALICE, cell=4)
    state = before.cog.sessions.get(CHANNEL).state
    ids = custom_ids(board)
    before.cog.sessions.close()

    after = Harness(world)  # a new process: no sessions at all
    assert after.cog.sessions.get(CHANNEL) is None
    free = next(c for c in range(9) if state[c] is None)
    press = await after.press_custom_id(ids[free], ALICE, board.id)
    assert press.response.kind == "edit_message"
    resumed = after.cog.sessions.get(CHANNEL)
    assert resumed.game_id == codec.decode(ids[0])[0].game_id and resumed.message_id == board.id
    assert resumed.state.marks == state.marks + 2 and resumed.state[free] is Mark.X
    assert "O played" in board.content
    after.cog.sessions.close()


async def test_a_text_game_resumes_after_a_restart_from_the_latest_board(world: World) -> None:
    before = Harness(world)
    await before.command("start", ALICE, board="text")
    await before.command("move", ALICE, cell=5)
    state = before.cog.sessions.get(CHANNEL).state
    before.cog.sessions.close()

    after = Harness(world)  # a new process: /ttt move finds the game in the channel's history
    free = next(c for c in range(9) if state[c] is None)
    move = await after.command("move", ALICE, cell=free + 1)
    assert move.response.kind == "send_message" and not move.response.ephemeral
    resumed = after.cog.sessions.get(CHANNEL)
    assert resumed is not None and resumed.state.marks == state.marks + 2
    assert resumed.state[free] is Mark.X
    after.cog.sessions.close()


async def test_a_finished_text_game_is_not_resumed(world: World) -> None:
    before = Harness(world)
    await before.command("start", ALICE, board="text")
    await before.command("resign", ALICE)
    before.cog.sessions.close()

    after = Harness(world)
    move = await after.command("move", ALICE, cell=1)
    assert move.private_texts() == [render.NO_GAME]
    assert after.cog.sessions.get(CHANNEL) is None


async def test_after_a_restart_strangers_cannot_resume_a_game(world: World) -> None:
    code = GameCode("abc123", parse_board("X...O...."), ALICE, None, Difficulty.UNBEATABLE, "alpha-beta", "buttons")
    harness = Harness(world)
    press = await harness.press_custom_id(codec.encode(code, 1), CAROL, 42)
    assert press.private_texts() == [render.NOT_YOUR_GAME]
    assert harness.cog.sessions.get(CHANNEL) is None


async def test_a_press_on_a_finished_board_is_refused(world: World) -> None:
    harness = Harness(world)
    finished = GameCode("abc123", parse_board("XXXOO...."), ALICE, BOB, Difficulty.UNBEATABLE, "alpha-beta", "buttons")
    press = await harness.press_custom_id(codec.encode(finished, 7), BOB, 42)
    assert press.private_texts() == [render.GAME_OVER]
    # an unfinished game whose buttons were disabled (resigned, abandoned) is over too
    resigned = GameCode("abc124", parse_board("X...O...."), ALICE, BOB, Difficulty.UNBEATABLE, "alpha-beta", "buttons")
    press = await harness.press_custom_id(codec.encode(resigned, 1), ALICE, 43, disabled=True)
    assert press.private_texts() == [render.GAME_OVER]
    assert harness.cog.sessions.get(CHANNEL) is None


async def test_a_game_that_ended_in_this_process_stays_over(harness: Harness) -> None:
    await harness.command("start", ALICE)
    board = harness.current()
    ids = custom_ids(board)
    await harness.press(board.id, ALICE, label="Resign")
    press = await harness.press_custom_id(ids[0], ALICE, board.id)  # even if Discord delivered it
    assert press.private_texts() == [render.GAME_OVER]
    assert harness.cog.sessions.get(CHANNEL) is None


async def test_an_old_game_cannot_overwrite_the_running_one(harness: Harness) -> None:
    old = GameCode("abc123", parse_board("X...O...."), ALICE, None, Difficulty.UNBEATABLE, "alpha-beta", "buttons")
    await harness.command("start", ALICE)
    running = harness.cog.sessions.get(CHANNEL)
    press = await harness.press_custom_id(codec.encode(old, 1), ALICE, 42)
    assert press.private_texts()[0].startswith(render.STALE_BOARD)
    assert harness.cog.sessions.get(CHANNEL) == running


async def test_a_board_id_behind_the_game_is_stale(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    await harness.click(harness.current().id, "Accept", BOB)
    board = harness.current()
    old_ids = custom_ids(board)
    await harness.press(board.id, ALICE, cell=0)
    press = await harness.press_custom_id(old_ids[4], BOB, board.id)  # rendered before Alice's move
    assert press.private_texts() == [render.BOARD_CHANGED]
    assert harness.cog.sessions.get(CHANNEL).state == parse_board("X........")


async def test_inactivity_abandons_the_game_and_edits_the_board(world: World) -> None:
    harness = Harness(world, turn_timeout=0.05)
    await harness.command("start", ALICE)
    board = harness.current()
    await harness.press(board.id, ALICE, cell=4)
    await asyncio.sleep(0.02)
    assert harness.cog.sessions.get(CHANNEL) is not None  # the move restarted the timer
    await asyncio.sleep(0.1)
    assert harness.cog.sessions.get(CHANNEL) is None
    assert "Game abandoned" in board.content
    assert all(c.item.disabled for c in cell_items(board))
    edits = [c for c in world.calls if c.method == "message.edit"]
    assert len(edits) == 1
    assert harness.cog.stats.get(ALICE).vs_bot.games == 0
    again = await harness.command("start", BOB)  # the channel is free
    assert again.response.kind == "send_message"
    harness.cog.sessions.close()


async def test_challenge_accept_starts_the_game_on_the_prompt(harness: Harness) -> None:
    start = await harness.command("start", ALICE, opponent=_user(BOB), play_as="O")
    assert not start.response.ephemeral
    prompt = harness.current()
    assert f"<@{BOB}>, <@{ALICE}> challenges you" in prompt.content and "❌ X (first)" in prompt.content
    busy = await harness.command("start", CAROL)
    assert "challenge is waiting" in busy.private_texts()[0]
    stranger = await harness.click(prompt.id, "Accept", CAROL)
    assert stranger.private_texts() == [
        f"Only <@{BOB}> can answer this challenge — start your own game with /ttt start"
    ]
    challenger = await harness.click(prompt.id, "Accept", ALICE)
    assert challenger.response.ephemeral
    assert harness.cog.sessions.get(CHANNEL).status == "challenge"
    await harness.click(prompt.id, "Accept", BOB)
    session = harness.cog.sessions.get(CHANNEL)
    assert session.status == "playing" and session.x_id == BOB and session.o_id == ALICE
    assert f"❌ <@{BOB}> to move (X)." in prompt.content and len(cell_items(prompt)) == 9


async def test_challenge_decline_frees_the_channel(harness: Harness) -> None:
    await harness.command("start", ALICE, opponent=_user(BOB))
    prompt = harness.current()
    await harness.click(prompt.id, "Decline", BOB)
    assert prompt.content == f"<@{BOB}> declined the challenge." and prompt.view is None
    assert harness.cog.sessions.get(CHANNEL) is None


async def test_challenge_expires(world: World) -> None:
    harness = Harness(world, challenge_timeout=0.05)
    await harness.command("start", ALICE, opponent=_user(BOB))
    prompt = harness.current()
    await asyncio.sleep(0.15)
    assert harness.cog.sessions.get(CHANNEL) is None
    assert prompt.content.startswith("The challenge expired") and prompt.view is None


async def test_a_challenge_answered_after_a_restart_gets_a_reply(world: World) -> None:
    before = Harness(world)
    await before.command("start", ALICE, opponent=_user(BOB))
    prompt = before.current()
    ids = custom_ids(prompt)
    assert [codec_id.split(":")[:2] for codec_id in ids] == [["ttt", "a"], ["ttt", "d"]]
    before.cog.sessions.close()
    await before.cog.cog_unload()

    after = Harness(world)  # a new process: the challenge is gone, its buttons still answer
    for custom_id in ids:
        press = await after.press_custom_id(custom_id, BOB, prompt.id)
        assert press.private_texts() == ["This challenge is no longer open"]
    stranger = await after.press_custom_id(ids[0], CAROL, prompt.id)
    assert stranger.private_texts()[0].startswith(f"Only <@{BOB}> can answer")
    assert after.cog.sessions.get(CHANNEL) is None


async def test_an_answered_challenge_does_not_expire(world: World) -> None:
    harness = Harness(world, challenge_timeout=0.05)
    await harness.command("start", ALICE, opponent=_user(BOB))
    prompt = harness.current()
    await harness.click(prompt.id, "Accept", BOB)
    await asyncio.sleep(0.15)
    assert harness.cog.sessions.get(CHANNEL).status == "playing" and "expired" not in prompt.content
    assert not [c for c in world.calls if c.method == "message.edit"]
    harness.cog.sessions.close()


@pytest.mark.parametrize(("opponent", "phrase"), [(_user(ALICE), "yourself"), (_user(BOB, bot=True), "Bots can't")])
async def test_challenging_yourself_or_a_bot_is_refused(
    harness: Harness, opponent: discord.Object, phrase: str
) -> None:
    refused = await harness.command("start", ALICE, opponent=opponent)
    assert refused.response.ephemeral and phrase in refused.response.content
    assert harness.cog.sessions.get(CHANNEL) is None


async def test_a_failing_edit_is_logged_apologised_for_and_leaves_the_game_unchanged(
    harness: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await harness.command("start", ALICE)
    board = harness.current()
    before = harness.cog.sessions.get(CHANNEL)
    harness.world.fail_next_edit = True
    with caplog.at_level(logging.ERROR):
        press = await harness.press(board.id, ALICE, cell=4)
    assert press.private_texts() == [render.ERROR]
    assert harness.cog.sessions.get(CHANNEL) == before
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.exc_info is not None and "simulated failure" in str(record.exc_info[1])
    assert str(CHANNEL) in record.getMessage()
    retry = await harness.press(board.id, ALICE, cell=4)  # the lock was released
    assert retry.response.kind == "edit_message"


async def test_an_error_after_deferring_apologises_with_a_followup(
    harness: Harness, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object) -> None:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(harness.cog.ai, "choose", broken)
    await harness.command("start", ALICE, algorithm="minimax")
    with caplog.at_level(logging.ERROR):
        press = await harness.press(harness.current().id, ALICE, cell=0)  # 8 empty cells: deferred first
    assert press.response.kind == "defer"
    assert press.followup.sent[0]["content"] == render.ERROR and press.followup.sent[0]["ephemeral"]
    assert harness.cog.sessions.get(CHANNEL).state.marks == 0
    assert any("engine exploded" in str(r.exc_info[1]) for r in caplog.records if r.exc_info)


async def test_command_errors_are_logged_and_apologised_for(harness: Harness, caplog: pytest.LogCaptureFixture) -> None:
    interaction = harness.interaction(ALICE)
    error = discord.app_commands.CommandInvokeError(_start_command(), ValueError("boom"))
    with caplog.at_level(logging.ERROR):
        await harness.cog.cog_app_command_error(interaction, error)
    assert interaction.private_texts() == [render.ERROR]
    (record,) = caplog.records
    assert isinstance(record.exc_info[1], ValueError)
    answered = harness.interaction(BOB)
    await answered.response.send_message("partial", ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
    await harness.cog.cog_app_command_error(answered, error)
    assert answered.private_texts() == ["partial", render.ERROR]


async def test_session_from_code_round_trips() -> None:
    session = Session("0a1b2c", CHANNEL, ALICE, None, state=parse_board("X...O...."), guild_id=GUILD, message_id=5)
    assert Session.from_code(session.code, CHANNEL, GUILD, 5) == session


def _start_command() -> discord.app_commands.Command:
    from bot.cogs.ttt import TicTacToe

    return TicTacToe.start  # type: ignore[return-value]
