"""The /ttt cog's one rule of its own: what the bot committed is what players see. When showing a committed answer
fails, the board is edited to show the game and the apology says the action counts (never "unchanged"). And an
ultimate free choice, through the cog: private to its player, the move made on the pad edited into the board."""

from __future__ import annotations

import json
import os
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from pytest import MonkeyPatch

from bot.client import TTTBot
from bot.cogs._presses import SHOWN_LATER
from bot.cogs.ttt import GameCommands
from bot.config import Settings
from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Posted
from bot.games.intents import Actor
from bot.games.match import BoardRef
from bot.games.service import GameService
from bot.i18n.lang import lang
from bot.records import RecordWriter, open_store
from bot.text.board import message_text
from bot.text.common import ERROR
from bot.ui.responder import Responder
from tests.bot.ui.fakes import FakeClient, FakeInteraction

ALICE, BOB, CHANNEL = 10, 20, 1


async def test_a_committed_move_whose_answer_cannot_be_shown_is_shown_on_its_board() -> None:
    service = GameService(AI(ThreadPoolExecutor(1), rng=random.Random(1)), rng=random.Random(2))
    client = FakeClient()
    responder = Responder(client, service)  # type: ignore[arg-type]
    bot: Any = SimpleNamespace(games=service, responder=responder, records=None, writer=None)
    cog = GameCommands(bot)
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


async def test_a_free_choice_and_its_move_go_through_the_private_pad() -> None:
    service = GameService(AI(ThreadPoolExecutor(1), rng=random.Random(1)), rng=random.Random(2))
    client = FakeClient()
    responder = Responder(client, service)  # type: ignore[arg-type]
    service.hooks.on_bot_move = responder.show_bot_move
    bot: Any = SimpleNamespace(games=service, responder=responder, records=None, writer=None)
    cog = GameCommands(bot)
    await service.start(Actor(ALICE, CHANNEL, guild_id=5), game_id="gu", variant="ultimate", level=2)
    service.placed(CHANNEL, "gu", 500, 1)
    on_board = BoardRef("ultimate", "gu", 0, CHANNEL, 5, 500)
    on_pad = BoardRef("ultimate", "gu", 0, CHANNEL, 5, None, pad=True)

    bystander = FakeInteraction(channel_id=CHANNEL)
    bystander.user = SimpleNamespace(id=BOB)
    await cog.choose_board(bystander, on_board, 4)  # type: ignore[arg-type]
    [refusal] = bystander.named("send_message")
    assert refusal["ephemeral"] and refusal["content"] == lang(None)(refusals.NOT_YOUR_GAME)

    pick = FakeInteraction(channel_id=CHANNEL, pressed=500)
    await cog.choose_board(pick, on_board, 4)  # type: ignore[arg-type]
    [pad] = pick.named("followup")  # after a DEFERRED_UPDATE_MESSAGE: the press's @original stays the board
    assert pick.named("defer") and pad["ephemeral"] and pad["view"] is not None
    back = FakeInteraction(channel_id=CHANNEL)
    await cog.choose_board(back, on_pad, None)  # type: ignore[arg-type]
    assert back.named("edit_message") and client.edits == []

    press = FakeInteraction(channel_id=CHANNEL)
    await cog.press_cell(press, on_pad, 40)  # type: ignore[arg-type]
    [confirmed] = press.named("edit_message")
    assert confirmed["view"] is None
    await service.settled()
    await responder.edits.close()
    assert {edit.message_id for edit in client.edits} == {500}, "the move was not shown on the board message"
    committed = service.current(CHANNEL)
    assert committed is not None and committed.moves[0] == 40 and committed.ply == 2
    assert client.edits[-1].kwargs["view"].to_components()[0]["content"] == message_text(committed, tr=lang(None))


SYNCED = Path(__file__).with_name("synced_commands.json")
"""The bulk overwrite the bot sends for its global commands (``PUT /applications/{id}/commands``), as JSON. A change to
the commands on purpose rewrites it: ``TTT_WRITE_SYNCED=1 pytest tests/bot/cogs/test_ttt.py``."""


async def test_the_synced_commands_are_exactly_the_pinned_payload(tmp_path: Path, monkeypatch: MonkeyPatch) -> None:
    records = await open_store(f"sqlite:///{tmp_path / 'records.sqlite3'}")
    pools = [ThreadPoolExecutor(1) for _ in range(3)]
    bot = TTTBot(
        Settings(token="t"), records=records, writer=RecordWriter(records), executor=pools[0], slow_executor=pools[1],
        hints=pools[2],
    )  # fmt: skip
    sent: list[list[dict[str, Any]]] = []

    async def bulk_overwrite(application_id: int, payload: list[dict[str, Any]]) -> list[object]:
        sent.append(payload)
        return []

    monkeypatch.setattr(bot.http, "bulk_upsert_global_commands", bulk_overwrite)
    bot._connection.application_id = 1
    try:
        await bot.setup_hook()
        help_reads = await bot.ttt.synced_payload()
    finally:
        await bot.http.close()
        await bot.ai.shutdown()
        await records.close()
    (payload,) = sent
    body = json.dumps(payload, ensure_ascii=False, indent=1) + "\n"
    if os.environ.get("TTT_WRITE_SYNCED"):
        SYNCED.write_text(body, encoding="utf-8")
    assert [command["name"] for command in payload] == ["ttt"]
    assert body == SYNCED.read_text(encoding="utf-8"), "the synced commands changed (their order, names or texts)"
    assert help_reads == payload[0], "/ttt help does not name the commands as they were synced"
