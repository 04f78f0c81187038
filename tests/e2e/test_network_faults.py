"""Discord's network failures, injected into the fake, must not break a channel's game.

Scenarios c (the old board's retire edit rate limited or failing), e (a press applied but its answer lost),
f (``/ttt start`` applied but its answer lost) and g (``/ttt move`` applied but its answer lost) of the issue.
"Applied but lost" is Discord's 502 after it acted on the request: discord.py's webhook adapter retries the
callback after 1 s and gets 400/40060 "Interaction has already been acknowledged.", while players already see
the result.
"""

from __future__ import annotations

import pytest

from testing.boards import EMPTY, board_of, free_cells, is_live, live_boards
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import (
    current_board,
    describe,
    is_command,
    is_press,
    press,
    public_message,
    refusal,
    start_game,
    ttt,
    updated_message,
    wait_quietly,
)

from .conftest import BotProcess, make_users

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.faults]

RATE_LIMIT = 4.0
RETRIED = 5.0
"""Seconds to wait for discord.py's retry of a lost answer (it sleeps 1 s) and the bot's handling of it."""


async def retried(fake: FakeDiscord, rec: InteractionRecord) -> None:
    """Wait until discord.py retried the callback whose answer was lost, and the bot handled the outcome."""
    await wait_quietly(fake.wait_for(lambda: len(rec.callback_statuses) >= 2, RETRIED), RETRIED)
    assert rec.callback_statuses[:2] == [502, 400], describe(rec)


def public_boards(fake: FakeDiscord, channel: str) -> list[dict[str, object]]:
    return [m for m in fake.messages(channel, include_ephemeral=False) if board_of(m) is not None]


@pytest.mark.parametrize(("status", "times"), [(429, 1), (500, "always")], ids=["rate-limited-4s", "500-on-every-try"])
async def test_press_on_a_reposted_board_while_the_old_board_edit_fails(
    shared_fake: FakeDiscord, shared_bot: BotProcess, status: int, times: int | str
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    old = await start_game(fake, channel, alice)
    await updated_message(fake, await press(fake, channel, alice, old, 4))
    fault = fake.inject("PATCH", rf"/messages/{old['id']}$", status=status, retry_after=RATE_LIMIT, times=times)  # type: ignore[arg-type]
    try:
        new = await public_message(fake, await ttt(fake, channel, alice, "board"))
        assert new["id"] != old["id"] and board_of(new) == current_board(fake, channel, old["id"])
        cell = free_cells(board_of(new) or EMPTY)[0]
        after = await updated_message(fake, await press(fake, channel, alice, new, cell))
        assert (board_of(after) or EMPTY)[cell] == "X", "the press on the new board was not applied"
        if status == 429:  # once the rate limit is over, the old board says it moved
            retired = fake.wait_for_message(
                lambda m: m["id"] == old["id"] and not is_live(m), RATE_LIMIT + 4, channel_id=channel
            )
            assert await wait_quietly(retired, RATE_LIMIT + 4), "the old board is still live"
    finally:
        fake.remove_fault(fault)


async def test_a_move_whose_answer_was_lost_stands(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    board = await start_game(fake, channel, alice)
    fake.inject("POST", r"/callback$", status=502, applied=True, interaction=lambda r: is_press(r) and r.user == alice)
    lost = await press(fake, channel, alice, board, 4)
    await lost
    await retried(fake, lost)
    seen = current_board(fake, channel, board["id"])
    assert seen[4] == "X" and seen.count("O") == 1, f"players see {seen}"

    cell = free_cells(seen)[0]
    nxt = await press(fake, channel, alice, fake.message(channel, board["id"]) or board, cell)
    after = await updated_message(fake, nxt)
    shown = board_of(after) or EMPTY
    assert shown[4] == "X" and shown[cell] == "X", f"the next press was not applied: {shown}"

    repost = await public_message(fake, await ttt(fake, channel, alice, "board"))
    assert board_of(repost) == shown, "/ttt board lost a move"


async def test_a_start_whose_answer_was_lost_still_holds_the_channel(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    alice, bob = make_users(fake, "alice", "bob")
    fake.inject(
        "POST",
        r"/callback$",
        status=502,
        applied=True,
        interaction=lambda r: is_command(r, "start") and r.user == alice,
    )
    rec = await ttt(fake, channel, alice, "start")
    first = await public_message(fake, rec)
    await retried(fake, rec)
    assert board_of(first) == EMPTY

    second = await ttt(fake, channel, bob, "start")
    await refusal(second)
    assert [m["id"] for m in public_boards(fake, channel)] == [first["id"]], "a second game started in the channel"


async def test_a_text_move_whose_answer_was_lost_retires_the_old_board(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    old = await start_game(fake, channel, alice, board="text")
    assert board_of(old) == EMPTY and is_live(old)
    fake.inject(
        "POST", r"/callback$", status=502, applied=True, interaction=lambda r: is_command(r, "move") and r.user == alice
    )
    rec = await ttt(fake, channel, alice, "move", cell=5)
    new = await public_message(fake, rec)
    shown = board_of(new) or EMPTY
    assert shown[4] == "X" and shown.count("O") == 1, shown
    await retried(fake, rec)

    retired = fake.wait_for_message(lambda m: m["id"] == old["id"] and not is_live(m), RETRIED, channel_id=channel)
    assert await wait_quietly(retired, RETRIED), "the old board is still live after its move was posted"
    bot_cell = shown.index("O")
    taken = await ttt(fake, channel, alice, "move", cell=bot_cell + 1)
    await refusal(taken)
    assert [m["id"] for m in live_boards(fake.messages(channel, include_ephemeral=False))] == [new["id"]]
    assert current_board(fake, channel, new["id"]) == shown


async def test_a_private_refusal_whose_answer_was_lost_counts_as_delivered_quietly(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    """``/ttt move`` on a taken cell, refused privately; Discord applies the refusal but answers 502, discord.py
    retries and gets 40060: no ERROR in the log, no traceback, no second (apology) answer."""
    fake = shared_fake
    channel = fake.add_channel()
    (alice,) = make_users(fake, "alice")
    board = await updated_message(fake, await press(fake, channel, alice, await start_game(fake, channel, alice), 4))
    taken = (board_of(board) or EMPTY).index("O")
    logged = len(shared_bot.log_text())
    fake.inject(
        "POST", r"/callback$", status=502, applied=True, interaction=lambda r: is_command(r, "move") and r.user == alice
    )
    rec = await ttt(fake, channel, alice, "move", cell=taken + 1)
    assert "taken" in await refusal(rec)
    await retried(fake, rec)
    await wait_quietly(fake.wait_for(lambda: len(rec.callback_statuses) > 2, 1.0), 1.0)  # a second answer, if any
    log = shared_bot.log_text()[logged:]
    assert rec.callback_statuses == [502, 400] and not rec.followups, describe(rec)
    assert "ERROR" not in log and "Traceback" not in log, log
    assert "treating it as delivered" in log, log
