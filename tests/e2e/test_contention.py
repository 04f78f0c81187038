"""Many people acting on one channel at once, over a 50-150 ms round trip: nobody may be left unanswered.

Scenarios a (50 simultaneous ``/ttt start``), b (30 spectators pressing one board) and d (a slow callback must not
hold up the next person) of the contention issue. ``benchmarks/contention.py`` measures a and b.
"""

from __future__ import annotations

import asyncio

import pytest

from .boards import EMPTY, board_of, free_cells, live_boards
from .conftest import BotProcess, make_users
from .fake_discord import INTERACTION_COMPONENT, FakeDiscord
from .players import assert_in_time, describe, press, private_text, refusal, settle, start_game, updated_message

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.faults]

SLOW_ANSWER = 3.5
"""Seconds the player's press answer takes in scenario d: longer than the 3 s limit, so waiting for it fails."""


async def test_fifty_simultaneous_starts_make_one_board(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    people = make_users(fake, *(f"starter{i}" for i in range(50)))
    records = await asyncio.gather(*(fake.slash_command(None, channel, u, subcommand="start") for u in people))
    await settle(records)
    slowest = assert_in_time(records)
    boards = [m for m in fake.messages(channel, include_ephemeral=False) if board_of(m) is not None]
    assert len(boards) == 1, f"{len(boards)} boards in one channel"
    assert board_of(boards[0]) == EMPTY
    private = [r for r in records if r.ephemeral]
    assert len(private) == 49, [describe(r) for r in records if not r.ephemeral]
    for rec in private:
        await refusal(rec)
    print(f"50 starts: slowest first callback {slowest * 1000:.0f} ms")


async def test_thirty_spectators_pressing_one_board_are_answered(
    shared_fake: FakeDiscord, shared_bot: BotProcess
) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    (player,) = make_users(fake, "player")
    spectators = make_users(fake, *(f"spectator{i}" for i in range(30)))
    board = await start_game(fake, channel, player)
    shown = board_of(board)
    assert shown == EMPTY
    records = await asyncio.gather(*(press(fake, channel, s, board, i % 9) for i, s in enumerate(spectators)))
    await settle(records)
    slowest = assert_in_time(records)
    for rec in records:
        await refusal(rec)
    assert board_of(fake.message(channel, board["id"]) or {}) == shown, "a spectator's press changed the board"
    print(f"30 spectators: slowest first callback {slowest * 1000:.0f} ms")


async def test_a_slow_callback_does_not_hold_up_a_spectator(shared_fake: FakeDiscord, shared_bot: BotProcess) -> None:
    fake = shared_fake
    channel = fake.add_channel()
    player, spectator = make_users(fake, "slowpoke", "onlooker")
    board = await start_game(fake, channel, player)
    fake.inject(
        "POST",
        r"/callback$",
        status=None,
        delay=SLOW_ANSWER,
        interaction=lambda r: r.type == INTERACTION_COMPONENT and r.user["id"] == player["id"],
    )
    move = await press(fake, channel, player, board, 4)
    await asyncio.sleep(0.3)
    now = fake.message(channel, board["id"]) or board
    watch = await press(fake, channel, spectator, now, free_cells(board_of(now) or EMPTY)[0])
    text = await private_text(watch)
    assert watch.latency is not None and watch.latency < 3.0, describe(watch)
    assert "went wrong" not in text
    updated = await updated_message(fake, move)
    assert (board_of(updated) or EMPTY)[4] == "X"
    assert len(live_boards(fake.messages(channel, include_ephemeral=False))) == 1
