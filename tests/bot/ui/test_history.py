"""Reading a channel's boards back after a restart (board_of, recent_boards), and settle(): the service is
asked again with the history only when it asks for it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games import codec
from bot.games.answers import Answer, NeedsHistory, Refusal, Shown
from bot.games.codec import encoder, ref_encoder
from bot.games.match import BoardRef, Match, initial_for
from bot.games.service import History
from bot.ui.history import HISTORY_LIMIT, board_of, recent_boards, settle
from tests.bot.ui.fakes import http_error

ME, ALICE = 1, 10
CHANNEL = 7


def message(message_id: int, *custom_ids: str, author: int = ME) -> Any:
    row = SimpleNamespace(children=[SimpleNamespace(custom_id=custom_id) for custom_id in custom_ids])
    return SimpleNamespace(
        id=message_id,
        author=SimpleNamespace(id=author),
        channel=SimpleNamespace(id=CHANNEL),
        guild=SimpleNamespace(id=5),
        components=[row],
    )


def game(*cells: int) -> Match:
    board = Match("0a1b2c", CHANNEL, ALICE, None, guild_id=5)
    for cell in cells:
        board = board.play(cell)
    return board


def test_a_board_message_gives_back_its_game_on_that_message() -> None:
    playing = game(4, 0)
    found = board_of(message(300, *(codec.encode(playing, cell) for cell in range(9)), codec.encode(playing, "r")))
    assert found is not None and found.moves == playing.moves and found.message_id == 300 and not found.over


def test_a_board_with_rematch_shows_a_game_that_is_over() -> None:
    playing = game(4)
    found = board_of(message(301, codec.encode(playing, "n")))
    assert found is not None and found.over and found.end_reason == "abandoned"


def test_the_variants_boards_are_read_back_too_ultimate_as_its_reference() -> None:
    four = Match("4x4g", CHANNEL, ALICE, None, guild_id=5, variant="4x4", state=initial_for("4x4")).play(5)
    found = board_of(message(304, encoder(four)(0), encoder(four)("r")))
    assert isinstance(found, Match) and found.variant == "4x4" and found.moves == (5,) and found.message_id == 304
    ultimate = Match("ug", CHANNEL, ALICE, None, guild_id=5, variant="ultimate", state=initial_for("ultimate")).play(40)
    make = ref_encoder(ultimate)
    assert board_of(message(305, make(30), make("r"))) == BoardRef("ultimate", "ug", 1, CHANNEL, 5, 305)
    assert board_of(message(306, make(30), make("n"))) == BoardRef("ultimate", "ug", 1, CHANNEL, 5, 306, over=True)


def test_a_message_without_our_buttons_is_no_board() -> None:
    assert board_of(message(302, "someone-else:1", "")) is None
    assert board_of(message(303)) is None


class Channel:
    def __init__(self, messages: list[Any], error: Exception | None = None) -> None:
        self.messages = messages
        self.error = error
        self.limit: int | None = None

    async def history(self, *, limit: int) -> AsyncIterator[Any]:
        self.limit = limit
        if self.error is not None:
            raise self.error
        for item in self.messages:
            yield item


def client(channel: Channel, user_id: int | None = ME) -> Any:
    return SimpleNamespace(
        user=None if user_id is None else SimpleNamespace(id=user_id),
        get_partial_messageable=lambda channel_id, guild_id=None: channel,
    )


async def test_recent_boards_are_the_bots_own_boards_newest_first() -> None:
    newer, older = game(4, 0), game(4)
    channel = Channel(
        [
            message(500, codec.encode(newer, 1)),
            message(499, "chat"),
            message(498, codec.encode(newer, 1), author=ALICE),  # a copy posted by someone else: not ours
            message(497, codec.encode(older, 1)),
        ]
    )
    history = await recent_boards(client(channel), CHANNEL, 5)
    assert history.readable and [board.message_id for board in history.boards] == [500, 497]
    assert channel.limit == HISTORY_LIMIT


async def test_an_unreadable_history_is_marked_so() -> None:
    assert not (await recent_boards(client(Channel([], http_error(403, 50001))), CHANNEL, 5)).readable
    assert not (await recent_boards(client(Channel([]), user_id=None), CHANNEL, 5)).readable


async def test_settle_reads_the_history_only_when_the_service_asks() -> None:
    asked: list[History | None] = []
    reads = 0
    shown = Shown(game(4))

    async def read() -> History:
        nonlocal reads
        reads += 1
        return History((game(4).at(9),))

    async def forgetful(history: History | None) -> Answer:
        asked.append(history)
        return NeedsHistory() if history is None else shown

    assert await settle(forgetful, read) is shown
    assert reads == 1 and asked[0] is None and asked[1] is not None

    async def knows(history: History | None) -> Answer:
        return Refusal("no")

    reads = 0
    assert isinstance(await settle(knows, read), Refusal) and reads == 0


async def test_settle_refuses_a_service_that_asks_twice() -> None:
    async def always(history: History | None) -> Answer:
        return NeedsHistory()

    async def read() -> History:
        return History()

    with pytest.raises(RuntimeError, match="twice"):
        await settle(always, read)
