"""The responder sends replies where they go and keeps the service's board bookkeeping, through a fake
interaction: private replies in each state of the interaction, new boards and the old ones they retire, an
answer whose fate is unknown, an answer that failed, and a background edit of an expired challenge."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import discord
import pytest

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Challenged, Chosen, Posted, Refusal, Shown
from bot.games.intents import Actor
from bot.games.match import Match, initial_for
from bot.games.service import GameService, Player
from bot.i18n.lang import lang
from bot.text.board import expired_text, message_text, moved_text
from bot.text.common import ERROR
from bot.ui.present import PRIVATE, Reply
from bot.ui.replies import NO_PINGS, answer_unknown, apologise, defer, private
from bot.ui.responder import Responder
from tests.bot.ui.fakes import FakeClient, FakeInteraction, http_error

ALICE, BOB = 10, 20
CHANNEL = 1


@pytest.fixture
def service() -> GameService:
    return GameService(AI(ThreadPoolExecutor(1), rng=random.Random(1)), challenge_timeout=60, rng=random.Random(2))


@pytest.fixture
def client() -> FakeClient:
    return FakeClient()


@pytest.fixture
def responder(client: FakeClient, service: GameService) -> Responder:
    return Responder(client, service)  # type: ignore[arg-type]


def actor(user: int = ALICE) -> Actor:
    return Actor(user, CHANNEL, guild_id=5)


def as_interaction(fake: FakeInteraction) -> Any:
    return fake


async def test_a_private_reply_before_any_answer_is_an_ephemeral_message() -> None:
    fake = FakeInteraction()
    await private(as_interaction(fake), "hello")
    assert fake.named("send_message") == [
        {"content": "hello", "ephemeral": True, "allowed_mentions": NO_PINGS, "files": discord.utils.MISSING}
    ]


async def test_a_private_reply_after_a_private_defer_replaces_the_thinking_message() -> None:
    fake = FakeInteraction()
    await defer(as_interaction(fake), ephemeral=True)
    await private(as_interaction(fake), "hello")
    assert [call.name for call in fake.calls] == ["defer", "edit_original_response"]
    assert fake.named("edit_original_response")[0]["content"] == "hello"


async def test_a_private_reply_after_a_public_defer_deletes_the_placeholder_and_follows_up_privately() -> None:
    fake = FakeInteraction()
    await defer(as_interaction(fake))
    await private(as_interaction(fake), "hello")
    assert [call.name for call in fake.calls] == ["defer", "delete_original_response", "followup"]
    assert fake.named("followup")[0]["ephemeral"] is True


async def test_a_private_reply_carries_its_files() -> None:
    fake = FakeInteraction()
    file = discord.File(io.BytesIO(b"png"), filename="board.png")
    await private(as_interaction(fake), "hello", files=(file,))
    assert fake.named("send_message")[0]["files"] == [file]


async def test_a_refusal_is_sent_privately_in_the_interactions_language(responder: Responder) -> None:
    fake = FakeInteraction(locale="de")
    await responder.deliver(as_interaction(fake), Refusal(refusals.NOT_YOUR_TURN, {"player": Player(BOB)}))
    sent = fake.named("send_message")
    assert len(sent) == 1 and sent[0]["ephemeral"] is True
    assert sent[0]["content"] == lang("de")(refusals.NOT_YOUR_TURN, player=f"<@{BOB}>")


@pytest.mark.parametrize(
    "error", [http_error(400, 40060), http_error(502), TimeoutError()], ids=["40060", "502", "timeout"]
)
async def test_a_refusal_that_may_have_arrived_counts_as_delivered_quietly(
    responder: Responder, error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    fake = FakeInteraction()
    fake.failing["send_message"] = error
    await responder.deliver(as_interaction(fake), Refusal(refusals.NOT_YOUR_TURN, {"player": Player(BOB)}))
    assert [r.levelname for r in caplog.records if r.name == "bot.ui.responder"] == ["WARNING"]
    assert all(r.exc_info is None for r in caplog.records), "a lost answer was logged with a traceback"
    assert fake.extras["result"] == "refused" and len(fake.named("send_message")) == 1


async def test_a_refusal_that_certainly_failed_still_raises(responder: Responder) -> None:
    fake = FakeInteraction()
    fake.failing["send_message"] = http_error(404, 10062)  # an unknown interaction: it never arrived
    with pytest.raises(discord.HTTPException):
        await responder.deliver(as_interaction(fake), Refusal(refusals.NOT_YOUR_TURN, {"player": Player(BOB)}))


async def test_a_new_board_is_placed_and_the_old_one_retired(
    responder: Responder, service: GameService, client: FakeClient
) -> None:
    first = await service.start(actor(), game_id="g1")
    assert isinstance(first, Posted)
    start = FakeInteraction()
    await responder.deliver(as_interaction(start), first)
    board = service.current(CHANNEL)
    assert board is not None and board.message_id == start.message_id
    assert start.named("send_message")[0]["content"] == message_text(first.game, tr=lang("en-US"))

    again = await service.repost(actor())
    assert isinstance(again, Posted) and again.retired == start.message_id
    repost = FakeInteraction()
    await responder.deliver(as_interaction(repost), again)
    await responder.edits.close()
    current = service.current(CHANNEL)
    assert current is not None and current.message_id == repost.message_id
    assert [(edit.message_id, edit.kwargs["view"]) for edit in client.edits] == [(start.message_id, None)]
    assert client.edits[0].kwargs["content"] == moved_text(current.jump_url, lang(None))


async def test_a_press_updates_the_pressed_message(responder: Responder, service: GameService) -> None:
    challenge = await service.start(actor(), game_id="g2", opponent=BOB)
    assert isinstance(challenge, Challenged)
    await responder.deliver(as_interaction(FakeInteraction()), challenge)
    accepted = await service.answer(actor(BOB), "g2", accept=True)
    assert isinstance(accepted, Shown)
    press = FakeInteraction()
    await responder.deliver(as_interaction(press), accepted)
    [update] = press.named("edit_message")
    assert update["content"] == message_text(accepted.game, tr=lang("en-US")) and update["view"] is not None


async def test_an_update_that_may_have_arrived_is_treated_as_applied(responder: Responder, client: FakeClient) -> None:
    assert answer_unknown(http_error(503)) and answer_unknown(http_error(400, 40060)) and answer_unknown(OSError())
    assert not answer_unknown(http_error(404, 10008))
    game = await _on_board(responder)
    press = FakeInteraction()
    press.failing["edit_message"] = http_error(503)
    await responder.deliver(as_interaction(press), Shown(game))
    await responder.edits.close()
    assert client.edits == []


async def test_an_update_that_certainly_failed_is_shown_by_editing_the_board(
    responder: Responder, client: FakeClient
) -> None:
    game = await _on_board(responder)
    press = FakeInteraction()
    press.failing["edit_message"] = http_error(404, 10062)
    await responder.deliver(as_interaction(press), Shown(game))
    await responder.edits.close()
    assert [edit.message_id for edit in client.edits] == [game.message_id]
    assert client.edits[0].kwargs["content"] == message_text(game, tr=lang("en-US"))


async def test_a_post_whose_answer_is_lost_is_looked_up(responder: Responder, service: GameService) -> None:
    first = await service.start(actor(), game_id="g3")
    assert isinstance(first, Posted)
    start = FakeInteraction()
    start.failing["send_message"] = http_error(500)
    start.message_id = 4242  # what GET @original finds: the message did arrive
    await responder.deliver(as_interaction(start), first)
    for task in list(responder._lookups):
        await task
    board = service.current(CHANNEL)
    assert board is not None and board.message_id == 4242


async def test_a_look_up_cut_short_by_the_bot_closing_is_not_an_error(
    responder: Responder, service: GameService, client: FakeClient
) -> None:
    first = await service.start(actor(), game_id="g5")
    assert isinstance(first, Posted)
    start = FakeInteraction()
    start.failing["send_message"] = http_error(500)
    start.failing["original_response"] = RuntimeError("Session is closed")
    client.closed = True
    await responder.deliver(as_interaction(start), first)
    for task in list(responder._lookups):
        await task  # no error: the bot is closing
    again = FakeInteraction()
    again.failing["send_message"] = http_error(500)
    again.failing["original_response"] = RuntimeError("Session is closed")
    client.closed = False
    await responder.deliver(as_interaction(again), first)
    with pytest.raises(RuntimeError):  # while the bot runs, it is a bug, not a shutdown
        for task in list(responder._lookups):
            await task


async def test_a_post_that_failed_leaves_the_channel_free(responder: Responder, service: GameService) -> None:
    first = await service.start(actor(), game_id="g4")
    assert isinstance(first, Posted)
    start = FakeInteraction()
    start.failing["send_message"] = http_error(403, 50013)
    await responder.deliver(as_interaction(start), first)
    assert service.current(CHANNEL) is None


async def test_an_expired_challenge_is_shown_in_the_background(responder: Responder, client: FakeClient) -> None:
    game = await _on_board(responder)
    responder.show_later(game.end("expired"))
    await responder.edits.close()
    assert [(edit.message_id, edit.kwargs["view"]) for edit in client.edits] == [(game.message_id, None)]
    assert client.edits[0].kwargs["content"] == expired_text(60, lang(None))


async def test_a_reply_goes_where_its_target_says(responder: Responder) -> None:
    fake = FakeInteraction()
    await responder.send(as_interaction(fake), Reply("just you", PRIVATE))
    assert fake.named("send_message")[0]["ephemeral"] is True


async def test_an_apology_is_private_even_after_an_answer() -> None:
    fake = FakeInteraction(locale="fr")
    await defer(as_interaction(fake))
    await apologise(as_interaction(fake))
    assert fake.named("followup") == [
        {"content": lang("fr")(ERROR), "ephemeral": True, "allowed_mentions": NO_PINGS, "files": discord.utils.MISSING}
    ]


async def _on_board(responder: Responder, *, installed: bool = True) -> Any:
    """A game against the bot whose board was posted (``installed``: the app is installed in the guild)."""
    posted = await responder.service.start(actor(), game_id="gb")
    assert isinstance(posted, Posted)
    start = FakeInteraction(installed=installed)
    await responder.deliver(as_interaction(start), posted)
    game = responder.service.current(CHANNEL)
    assert game is not None and game.message_id == start.message_id
    return game


async def test_a_private_pad_is_an_ephemeral_followup_then_updated_and_the_board_is_never_touched(
    responder: Responder, client: FakeClient
) -> None:
    board = Match(
        "gp", CHANNEL, ALICE, None, guild_id=5, message_id=500, variant="ultimate", state=initial_for("ultimate")
    )
    on_board = FakeInteraction(pressed=500, installed=False)
    await responder.deliver(as_interaction(on_board), Chosen(board, 4, on_pad=False))
    assert [call.name for call in on_board.calls] == ["defer", "followup"]
    assert on_board.named("defer") == [{"ephemeral": False, "thinking": False}]  # DEFERRED_UPDATE_MESSAGE
    [sent] = on_board.named("followup")
    assert sent["ephemeral"] is True and "d4-f6" in sent["content"] and sent["view"].to_components()
    assert responder.edits.originals.fresh(500) is on_board, "the press's @original is the board"
    on_pad = FakeInteraction()
    await responder.deliver(as_interaction(on_pad), Chosen(board, None, on_pad=True))
    [update] = on_pad.named("edit_message")
    assert update["view"] is not None and on_pad.named("send_message") == []
    await responder.edits.close()
    assert client.edits == [], "a choice edited the board"


async def test_a_move_on_the_private_pad_is_confirmed_there_and_edited_into_the_board(
    responder: Responder, client: FakeClient
) -> None:
    board = Match(
        "gp", CHANNEL, ALICE, BOB, guild_id=5, message_id=500, variant="ultimate", state=initial_for("ultimate")
    )
    played = board.play(40)
    press = FakeInteraction()
    press.failing["edit_message"] = http_error(503)  # the confirmation may be lost: the move still shows
    await responder.deliver(as_interaction(press), Shown(played, pad=True))
    [update] = press.named("edit_message")
    assert update["view"] is None and "e5" in update["content"]
    await responder.edits.close()
    assert [edit.message_id for edit in client.edits] == [500]
    assert [f.filename for f in client.edits[0].kwargs["attachments"]] == ["ultimate.png"]


async def test_a_move_on_the_pad_edits_a_board_the_bot_may_not_edit_through_the_press_that_opened_the_pad(
    responder: Responder, client: FakeClient
) -> None:
    board = Match("gq", CHANNEL, ALICE, BOB, message_id=500, variant="ultimate", state=initial_for("ultimate"))
    opened = FakeInteraction(pressed=500, private=True)  # a group DM: the bot is not a member
    await responder.deliver(as_interaction(opened), Chosen(board, 4, on_pad=False))
    on_pad = FakeInteraction(pressed=opened.message_id or 777, private=True)
    await responder.deliver(as_interaction(on_pad), Shown(board.play(40), pad=True))
    await responder.edits.close()
    assert client.edits == [], "a channel edit was tried where Discord refuses it"
    [edited] = opened.named("edit_original_response")
    assert [f.filename for f in edited["attachments"]] == ["ultimate.png"] and edited["content"] is None


async def test_a_press_answered_on_its_board_and_a_posted_board_are_remembered(
    responder: Responder, service: GameService
) -> None:
    game = await _on_board(responder, installed=False)
    assert responder.edits.originals.fresh(game.message_id) is not None, "the command that posted the board"
    press = FakeInteraction(pressed=game.message_id, installed=False)
    answer = await service.press(actor(), game, 4, history=None)
    await responder.deliver(as_interaction(press), answer)
    assert press.named("edit_message") and responder.edits.originals.fresh(game.message_id) is press
    refused = FakeInteraction(pressed=game.message_id, installed=False)
    await responder.deliver(as_interaction(refused), Refusal(refusals.NOT_YOUR_TURN))
    assert responder.edits.originals.fresh(game.message_id) is press, "an ephemeral answer's @original is not the board"


async def test_a_board_posted_after_a_private_defer_is_not_remembered(responder: Responder) -> None:
    posted = await responder.service.start(actor(), game_id="gd")
    assert isinstance(posted, Posted)
    start = FakeInteraction(installed=False)
    await defer(as_interaction(start), ephemeral=True)
    await responder.deliver(as_interaction(start), posted)
    assert start.message_id is not None and responder.edits.originals.fresh(start.message_id) is None


async def test_a_pad_is_still_sent_when_the_deferral_may_be_lost_and_the_board_is_not_claimed(
    responder: Responder,
) -> None:
    board = Match(
        "gr", CHANNEL, ALICE, None, guild_id=5, message_id=500, variant="ultimate", state=initial_for("ultimate")
    )
    on_board = FakeInteraction(pressed=500, installed=False)
    on_board.failing["defer"] = http_error(503)
    await responder.deliver(as_interaction(on_board), Chosen(board, 4, on_pad=False))
    assert [call.name for call in on_board.calls] == ["defer", "followup"]
    assert responder.edits.originals.fresh(500) is None, "an acknowledgement that may not exist was relied on"
