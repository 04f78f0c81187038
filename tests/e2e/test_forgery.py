"""Forged button ids (issue 19): every forgery a modified client can send, against the real bot, in memory and after a
restart. Each is refused privately, saying why, and the board, the records and ``/ttt stats`` stay as they were.

A forged id is planted on the pressed button of the interaction's copy of the board message (``press_custom_id``);
the message Discord stores, and the bot reads back after a restart, keeps the bot's own ids.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from engine import Mark
from engine.minimax.search import search
from engine.tictactoe.rules import initial_state, player, result
from testing.boards import EMPTY, board_of, button_labelled, cell_buttons, finished, free_cells
from testing.fake_discord import FakeDiscord
from testing.players import press, public_message, refusal, start_game, ttt, updated_message

from .conftest import BotProcess, make_users

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.faults]

_LAYOUT = re.compile(
    r"^ttt:(?P<kind>[^:]+):(?P<game>[^:]+):(?P<moves>[^:]*):(?P<opts>[^:]+):(?P<x>[^:]+):(?P<o>[^:]+):(?P<states>[^:]+)$"
)
_FIELDS = ("kind", "game", "moves", "opts", "x", "o", "states")
STATS = re.compile(r"vs the bot: (\d+) W · (\d+) D · (\d+) L")
TOTAL = re.compile(r"The bot evaluated ([\d,]+) states? over")


def forge(custom_id: str, **changes: str) -> str:
    """``custom_id`` of a board button (``ttt:<kind>:<game>:<moves>:<options>:<X>:<O>:<states>``) with fields
    changed."""
    match = _LAYOUT.match(custom_id)
    assert match is not None, f"not a board button id: {custom_id!r} (adapt forge() to the new layout)"
    fields = {name: match[name] for name in _FIELDS} | changes
    return ":".join(["ttt", *(fields[name] for name in _FIELDS)])


def field_of(message: dict[str, Any], name: str) -> str:
    """A field of the message's first board button id."""
    match = _LAYOUT.match(next(iter(cell_buttons(message).values()))["custom_id"])
    assert match is not None
    return match[name]


def states_of(moves: str, bot: Mark) -> int:
    """The states the bot's default alpha-beta evaluates over a game with ``moves``: one search per bot move."""
    state, total = initial_state(), 0
    for cell in moves:
        if player(state) is bot:
            total += search(state).states
        state = result(state, int(cell))
    return total


def database(bot: BotProcess) -> Path:
    return bot.log_path.parent / "ttt.sqlite3"


def recorded(bot: BotProcess) -> list[tuple[Any, ...]]:
    """Every finished game the bot recorded: (id, X, O, moves, result, end, states)."""
    with sqlite3.connect(database(bot)) as connection:
        return connection.execute(
            "SELECT game_id, x_user_id, o_user_id, moves, result, end_reason, states_evaluated FROM games "
            "ORDER BY game_id"
        ).fetchall()


async def written(bot: BotProcess, game_id: str, timeout: float = 10.0) -> tuple[Any, ...]:
    """The record of ``game_id`` once the bot's background writer has stored it (polled: it is another process)."""
    deadline = time.monotonic() + timeout
    while not (rows := [r for r in recorded(bot) if r[0] == game_id]):
        assert time.monotonic() < deadline, f"game {game_id} was never recorded"
        await asyncio.sleep(0.05)
    return rows[0]


async def stats(fake: FakeDiscord, channel: str, user: dict[str, Any]) -> tuple[int, ...]:
    message = await public_message(fake, await ttt(fake, channel, user, "stats"))
    found = STATS.search(message["content"])
    assert found is not None, message["content"]
    return tuple(int(n) for n in found.groups())


def snapshot(fake: FakeDiscord, channel: str, message_id: str) -> tuple[str, Any]:
    message = fake.message(channel, message_id)
    assert message is not None
    return message["content"], message.get("components")


@dataclass
class Played:
    """A game against the bot in its own channel: Alice (X) played the centre and the bot replied."""

    channel: str
    board: dict[str, Any]


async def centre_game(fake: FakeDiscord, alice: dict[str, Any]) -> Played:
    channel = fake.add_channel()
    board = await start_game(fake, channel, alice)
    board = await updated_message(fake, await press(fake, channel, alice, board, 4))
    return Played(channel, board)


EXTRA = "+"
"""A forged ``moves`` field: the board's own moves and its first free cell (the presser's move nobody made); the
press is then on the next free cell."""

FORGERIES: dict[str, Any] = {
    # (who presses, the button, the forged fields); "me"/"mallory"/"dave" are replaced by user ids
    "fake win": ("alice", 2, {"moves": "0314"}),
    "fake loss for another user": ("alice", 2, {"moves": "0314", "o": "dave"}),
    "taking over another's game": ("mallory", "cell", {"x": "mallory"}),
    "a resign naming another player": ("mallory", "r", {"x": "mallory"}),
    "a bystander's resign": ("mallory", "r", {}),
    "options rewritten": ("alice", "cell", {"opts": "eab"}),
    "a forged states count": ("alice", "cell", {"states": "1ekf"}),
    "a count too large to encode again": ("alice", "cell", {"states": "zzzzzz"}),
    # issue 27: the board's moves and one more of the presser's (the bot's states count is unchanged: only its own
    # searches count), pressing another free cell; after a restart this once resumed a game stuck on the bot's turn
    "an extra move of the presser": ("alice", "cell", {"moves": EXTRA}),
}


@dataclass
class Cast:
    alice: dict[str, Any]
    bob: dict[str, Any]
    carol: dict[str, Any]
    dave: dict[str, Any]
    mallory: dict[str, Any]

    def id(self, name: str) -> str:
        return str(getattr(self, name)["id"])


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def cast(shared_fake: FakeDiscord, shared_bot: BotProcess) -> Cast:
    return Cast(*make_users(shared_fake, "alice", "bob", "carol", "dave", "mallory"))


async def press_forged(fake: FakeDiscord, cast: Cast, played: Played, forgery: str) -> str:
    """Press the forgery ``forgery`` on ``played``'s board; returns the private refusal's text."""
    who, button, changes = FORGERIES[forgery]
    board = played.board
    free = free_cells(board_of(board) or EMPTY)
    if button == "r":
        like = (button_labelled(board, "Resign") or {})["custom_id"]
    else:
        cell = (free[1] if changes.get("moves") == EXTRA else free[0]) if button == "cell" else button
        like = cell_buttons(board)[cell]["custom_id"]
    fields = {name: cast.id(value) if value in ("mallory", "dave") else value for name, value in changes.items()}
    if fields.get("moves") == EXTRA:
        fields["moves"] = field_of(board, "moves") + str(free[0])
    forged = forge(like, **fields)
    rec = await fake.press_custom_id(None, played.channel, getattr(cast, who), board["id"], forged, like=like)
    return await refusal(rec)


async def assert_unchanged(fake: FakeDiscord, played: Played, before: tuple[str, Any]) -> None:
    assert snapshot(fake, played.channel, played.board["id"]) == before, "the board changed"


# ---- in memory --------------------------------------------------------------------------------------------------


async def test_a_forged_accept_from_the_challenger_is_refused(shared_fake: FakeDiscord, cast: Cast) -> None:
    fake, channel = shared_fake, shared_fake.add_channel()
    prompt = await start_game(fake, channel, cast.alice, opponent=cast.bob)
    accept = button_labelled(prompt, "Accept")
    assert accept is not None
    game_id = accept["custom_id"].split(":")[2]
    before = snapshot(fake, channel, prompt["id"])
    forged = f"ttt:a:{game_id}:{cast.id('alice')}"
    rec = await fake.press_custom_id(None, channel, cast.alice, prompt["id"], forged, like=accept["custom_id"])
    text = await refusal(rec)
    assert f"<@{cast.id('bob')}>" in text, text
    assert snapshot(fake, channel, prompt["id"]) == before
    board = await updated_message(
        fake, await fake.press_button(None, channel, cast.bob, prompt["id"], accept["custom_id"])
    )
    assert board_of(board) == EMPTY, "the challenge did not stay open for Bob"


async def test_a_bystanders_forged_decline_is_refused(shared_fake: FakeDiscord, cast: Cast) -> None:
    fake, channel = shared_fake, shared_fake.add_channel()
    prompt = await start_game(fake, channel, cast.alice, opponent=cast.bob)
    decline = button_labelled(prompt, "Decline")
    assert decline is not None
    game_id = decline["custom_id"].split(":")[2]
    before = snapshot(fake, channel, prompt["id"])
    forged = f"ttt:d:{game_id}:{cast.id('carol')}"
    rec = await fake.press_custom_id(None, channel, cast.carol, prompt["id"], forged, like=decline["custom_id"])
    assert f"<@{cast.id('bob')}>" in await refusal(rec)
    assert snapshot(fake, channel, prompt["id"]) == before
    accept = button_labelled(prompt, "Accept")
    assert accept is not None
    board = await updated_message(
        fake, await fake.press_button(None, channel, cast.bob, prompt["id"], accept["custom_id"])
    )
    assert board_of(board) == EMPTY, "the challenge was cancelled"


async def resigned_game(fake: FakeDiscord, bot: BotProcess, alice: dict[str, Any]) -> Played:
    played = await centre_game(fake, alice)
    resign = button_labelled(played.board, "Resign")
    assert resign is not None
    rec = await fake.press_button(None, played.channel, alice, played.board["id"], resign["custom_id"])
    ended = Played(played.channel, await updated_message(fake, rec))
    await written(bot, field_of(ended.board, "game"))
    return ended


async def forged_rematch(fake: FakeDiscord, cast: Cast, played: Played) -> None:
    rematch = button_labelled(played.board, "Rematch")
    assert rematch is not None
    messages = len(fake.messages(played.channel, include_ephemeral=False))
    before = snapshot(fake, played.channel, played.board["id"])
    forged = forge(rematch["custom_id"], x=cast.id("dave"), o=cast.id("alice"))  # a new opponent who never agreed
    rec = await fake.press_custom_id(
        None, played.channel, cast.alice, played.board["id"], forged, like=rematch["custom_id"]
    )
    await refusal(rec)
    assert len(fake.messages(played.channel, include_ephemeral=False)) == messages, "a game was started"
    assert snapshot(fake, played.channel, played.board["id"]) == before


async def test_a_rematch_naming_a_new_opponent_is_refused(
    shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast
) -> None:
    await forged_rematch(shared_fake, cast, await resigned_game(shared_fake, shared_bot, cast.alice))


@pytest.mark.parametrize("forgery", list(FORGERIES))
async def test_a_forged_board_in_memory_is_refused(
    shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast, forgery: str
) -> None:
    fake = shared_fake
    played = await centre_game(fake, cast.alice)
    before, rows = snapshot(fake, played.channel, played.board["id"]), recorded(shared_bot)
    await press_forged(fake, cast, played, forgery)
    await assert_unchanged(fake, played, before)
    assert recorded(shared_bot) == rows
    # the game goes on, with the bot's own count
    free = free_cells(board_of(played.board) or EMPTY)[0]
    after = await updated_message(fake, await press(fake, played.channel, cast.alice, played.board, free))
    assert field_of(after, "x") == cast.id("alice") and field_of(after, "opts") == "8ab"
    assert int(field_of(after, "states"), 36) == states_of(field_of(after, "moves"), Mark.O)


async def test_the_states_count_shown_and_stored_is_the_searchs_own(
    shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast
) -> None:
    fake = shared_fake
    played = await centre_game(fake, cast.dave)
    board = played.board
    while not finished(board_of(board) or EMPTY):
        board = await updated_message(
            fake, await press(fake, played.channel, cast.dave, board, free_cells(board_of(board) or EMPTY)[0])
        )
    shown = TOTAL.search(board["content"])
    assert shown is not None, board["content"]
    game_id = field_of(board, "game")
    row = await written(shared_bot, game_id)
    assert int(shown[1].replace(",", "")) == row[6] == states_of(row[3], Mark.O) > 0


# ---- after a restart ---------------------------------------------------------------------------------------------


@dataclass
class Before:
    """Games prepared before the restart, and what the records and stats said then."""

    boards: dict[str, Played] = field(default_factory=dict)
    resigned: Played | None = None
    prompt: tuple[str, dict[str, Any]] | None = None
    rows: list[tuple[Any, ...]] = field(default_factory=list)
    stats: dict[str, tuple[int, ...]] = field(default_factory=dict)
    stats_channel: str = ""


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def restarted(shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast) -> AsyncIterator[Before]:
    fake = shared_fake
    before = Before()
    for forgery in FORGERIES:
        before.boards[forgery] = await centre_game(fake, cast.alice)
    before.resigned = await resigned_game(fake, shared_bot, cast.alice)
    channel = fake.add_channel()
    before.prompt = (channel, await start_game(fake, channel, cast.alice, opponent=cast.bob))
    before.stats_channel = fake.add_channel()
    for name in ("alice", "bob", "dave", "mallory"):
        before.stats[name] = await stats(fake, before.stats_channel, getattr(cast, name))
    await shared_bot.kill()
    await fake.wait_for_disconnect(10)
    before.rows = recorded(shared_bot)
    await shared_bot.start()
    yield before


@pytest.mark.parametrize("forgery", list(FORGERIES))
async def test_a_forged_board_after_a_restart_is_refused(
    shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast, restarted: Before, forgery: str
) -> None:
    fake, played = shared_fake, restarted.boards[forgery]
    before = snapshot(fake, played.channel, played.board["id"])
    text = await press_forged(fake, cast, played, forgery)
    if FORGERIES[forgery][2].get("moves") == EXTRA:  # a link to the board that shows the saved game
        assert "never saved" in text and f"/{played.channel}/{played.board['id']}" in text, text
    await assert_unchanged(fake, played, before)
    assert recorded(shared_bot) == restarted.rows
    free = free_cells(board_of(played.board) or EMPTY)[0]
    after = await updated_message(fake, await press(fake, played.channel, cast.alice, played.board, free))
    assert field_of(after, "x") == cast.id("alice") and field_of(after, "opts") == "8ab"
    assert int(field_of(after, "states"), 36) == states_of(field_of(after, "moves"), Mark.O)


async def test_forged_answers_after_a_restart_are_refused(
    shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast, restarted: Before
) -> None:
    fake = shared_fake
    assert restarted.prompt is not None and restarted.resigned is not None
    channel, prompt = restarted.prompt
    accept = button_labelled(prompt, "Accept")
    assert accept is not None
    forged = f"ttt:a:{accept['custom_id'].split(':')[2]}:{cast.id('alice')}"
    rec = await fake.press_custom_id(None, channel, cast.alice, prompt["id"], forged, like=accept["custom_id"])
    assert "no longer open" in await refusal(rec)
    await forged_rematch(fake, cast, restarted.resigned)
    assert recorded(shared_bot) == restarted.rows


async def test_stats_are_unchanged_by_every_forgery(shared_fake: FakeDiscord, cast: Cast, restarted: Before) -> None:
    for name, counts in restarted.stats.items():
        assert await stats(shared_fake, restarted.stats_channel, getattr(cast, name)) == counts, name
    mine = await public_message(
        shared_fake,
        await shared_fake.slash_command(
            None, restarted.stats_channel, cast.alice, subcommand="stats", options={"user": shared_fake.bot_user}
        ),
    )
    assert re.search(r"3x3, level 8 \(\d+, unbeatable\): beaten 0 times in \d+ game", mine["content"]), mine["content"]


async def test_with_the_database_lost_a_dm_board_is_resumed_only_as_it_proves_and_never_recorded(
    shared_fake: FakeDiscord, shared_bot: BotProcess, cast: Cast, restarted: Before
) -> None:
    fake = shared_fake
    erin = fake.make_user(300_000_000_000_000_901, "erin")
    dm = fake.add_dm_channel(erin)
    board = await public_message(fake, await fake.slash_command(None, dm, erin, subcommand="start", install="user"))
    board = await updated_message(fake, await press(fake, dm, erin, board, 4))
    await shared_bot.kill()
    await fake.wait_for_disconnect(10)
    for path in database(shared_bot).parent.glob("ttt.sqlite3*"):
        path.unlink()  # the database is lost
    await shared_bot.start()
    played = Played(dm, board)
    cell = cell_buttons(board)[2]["custom_id"]
    for changes in ({"moves": "0314"}, {"states": "zzzzzz"}, {"opts": "eab", "states": "1"}):
        rec = await fake.press_custom_id(None, dm, erin, board["id"], forge(cell, **changes), like=cell)
        assert "can't check this board" in await refusal(rec), changes
    before = snapshot(fake, dm, board["id"])
    await assert_unchanged(fake, played, before)
    while not finished(board_of(board) or EMPTY):  # the board as the bot left it proves itself: it plays on
        cell = free_cells(board_of(board) or EMPTY)[0]
        board = await updated_message(fake, await press(fake, dm, erin, board, cell))
        assert int(field_of(board, "states"), 36) == states_of(field_of(board, "moves"), Mark.O)
    assert recorded(shared_bot) == [], "a game resumed from an unverified board was recorded"
