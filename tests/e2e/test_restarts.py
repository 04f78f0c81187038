"""Games survive a crash: the bot is killed (SIGKILL) and a new process serves the same channels (scenario j).

The module prepares every game first, restarts the bot once, then checks each command and press against the new
process: ``/ttt move`` on a button board whose cell 1 is taken, ``/ttt hint``, ``/ttt board`` and ``/ttt resign``
resume their games, and an older board whose retire edit failed can never override the newer one.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import pytest_asyncio

from testing.boards import EMPTY, board_of, free_cells
from testing.fake_discord import FakeDiscord
from testing.players import (
    current_board,
    delivered,
    press,
    private_text,
    public_message,
    refusal,
    start_game,
    ttt,
    updated_message,
)

from .conftest import BotProcess, make_users

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.faults]


@dataclass
class Game:
    """A game set up before the restart: its channel, board message and the board it showed."""

    channel: str
    message_id: str
    board: str


@dataclass
class Before:
    """Everything prepared before the restart."""

    alice: dict[str, Any]
    games: dict[str, Game] = field(default_factory=dict)
    older: Game | None = None  # the board whose retire edit failed
    newer: Game | None = None  # the board posted by /ttt board, with one more move


async def one_move(fake: FakeDiscord, alice: dict[str, Any], cell: int) -> Game:
    """A new channel with a button game against the bot in which Alice played ``cell`` and the bot replied."""
    channel = fake.add_channel()
    board = await start_game(fake, channel, alice)
    rec = await press(fake, channel, alice, board, cell)
    moved = await updated_message(fake, rec)
    await delivered(fake, rec)
    return Game(channel, moved["id"], board_of(moved) or EMPTY)


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def restarted(shared_fake: FakeDiscord, shared_bot: BotProcess) -> AsyncIterator[Before]:
    fake = shared_fake
    (alice,) = make_users(fake, "alice")
    before = Before(alice)
    before.games["move"] = await one_move(fake, alice, 0)  # cell 1 taken: its button is disabled
    for command in ("hint", "board", "resign"):
        before.games[command] = await one_move(fake, alice, 4)

    older = await one_move(fake, alice, 4)
    fault = fake.inject("PATCH", rf"/messages/{older.message_id}$", status=503, times="always")
    rec = await ttt(fake, older.channel, alice, "board")
    newer = await public_message(fake, rec)
    await delivered(fake, rec, grace=0.5)
    rec = await press(fake, older.channel, alice, newer, free_cells(older.board)[0])
    newer = await updated_message(fake, rec)
    await delivered(fake, rec)
    before.older, before.newer = older, Game(older.channel, newer["id"], board_of(newer) or EMPTY)
    assert current_board(fake, older.channel, older.message_id) == older.board, "the retire edit was not refused"

    await shared_bot.kill()
    await fake.wait_for_disconnect(10)
    await shared_bot.start()
    try:
        yield before
    finally:
        fake.remove_fault(fault)


async def test_move_resumes_a_button_board_whose_cell_1_is_taken(shared_fake: FakeDiscord, restarted: Before) -> None:
    fake, game = shared_fake, restarted.games["move"]
    assert game.board[0] == "X"
    cell = free_cells(game.board)[0]
    posted = await public_message(fake, await ttt(fake, game.channel, restarted.alice, "move", cell=cell + 1))
    shown = board_of(posted) or EMPTY
    assert all(shown[i] == game.board[i] for i in range(9) if game.board[i] != "."), (game.board, shown)
    assert shown[cell] == "X", shown


@pytest.mark.parametrize("command", ["hint", "board", "resign"])
async def test_commands_resume_the_game_after_a_restart(
    shared_fake: FakeDiscord, restarted: Before, command: str
) -> None:
    fake, game = shared_fake, restarted.games[command]
    rec = await ttt(fake, game.channel, restarted.alice, command)
    if command == "hint":
        text = await private_text(rec)
        assert "Hint" in text, text
        return
    posted = await public_message(fake, rec)
    if command == "board":
        assert board_of(posted) == game.board
    else:
        assert "resigned" in posted["content"], posted["content"]


async def test_an_older_board_never_overrides_the_newer_one(shared_fake: FakeDiscord, restarted: Before) -> None:
    fake, older, newer = shared_fake, restarted.older, restarted.newer
    assert older is not None and newer is not None
    stale = fake.message(older.channel, older.message_id)
    assert stale is not None and stale["content"] and board_of(stale) == older.board
    cell = free_cells(newer.board)[0]  # free on both boards, so only the board's age can refuse it
    rec = await press(fake, older.channel, restarted.alice, stale, cell)
    await refusal(rec)
    assert current_board(fake, newer.channel, newer.message_id) == newer.board, "the newer position changed"
    assert current_board(fake, older.channel, older.message_id) == older.board, "the older board was played"
