"""The /ttt cog's one rule of its own: what the bot committed is what players see. When showing a committed answer
fails, the board is edited to show the game and the apology says the action counts (never "unchanged")."""

from __future__ import annotations

import random
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

from bot.cogs._presses import SHOWN_LATER
from bot.cogs.ttt import TicTacToe
from bot.games import Actor, GameService, Posted
from bot.games.ai import AI
from bot.i18n.lang import lang
from bot.text.board import message_text
from bot.text.common import ERROR
from bot.ui.responder import Responder
from tests.ui.fakes import FakeClient, FakeInteraction

ALICE, CHANNEL = 10, 1


async def test_a_committed_move_whose_answer_cannot_be_shown_is_shown_on_its_board() -> None:
    service = GameService(AI(ThreadPoolExecutor(1), rng=random.Random(1)), rng=random.Random(2))
    client = FakeClient()
    responder = Responder(client, service)  # type: ignore[arg-type]
    bot: Any = SimpleNamespace(games=service, responder=responder, records=None, writer=None)
    cog = TicTacToe(bot)
    actor = Actor(ALICE, CHANNEL, guild_id=5)
    started = await service.start(actor, game_id="g1")
    service.placed(CHANNEL, "g1", 500, 1)
    board = service.current(CHANNEL)
    assert board is not None and isinstance(started, Posted)

    press = FakeInteraction(channel_id=CHANNEL)
    press.failing["edit_message"] = RuntimeError("the reply could not be built")
    await cog._run(press, lambda _: service.press(actor, board, 4))  # type: ignore[arg-type]
    await responder.edits.close()

    committed = service.current(CHANNEL)
    assert committed is not None and committed.moves[0] == 4 and committed.ply == 2
    said = [call.kwargs.get("content") for call in press.calls if call.name == "send_message"]
    assert said == [lang("en-US")(SHOWN_LATER)] and lang("en-US")(ERROR) not in said
    assert [edit.message_id for edit in client.edits] == [500], "the board was not edited to show the move"
    assert client.edits[0].kwargs["content"] == message_text(committed, tr=lang(None))
