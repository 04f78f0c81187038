"""Background edits of the bot's messages: coalesced per message, skipped when no longer wanted, a failure
logged and not raised, and bounded at shutdown; where the bot's channel edits are refused (a user install), sent
through a fresh interaction whose ``@original`` is the message, or dropped with one warning."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
import pytest

from bot.ui.edits import BackgroundEdits
from bot.ui.originals import REFUSAL_MEMORY, Originals
from tests.bot.ui.fakes import FakeClient, FakeInteraction, http_error


def edits(client: FakeClient) -> BackgroundEdits:
    return BackgroundEdits(client)  # type: ignore[arg-type]


async def test_edits_of_one_message_are_coalesced_to_the_newest() -> None:
    client = FakeClient()
    queue = edits(client)
    for text in ("first", "second", "third"):
        queue.edit(1, 5, 100, content=text, view=None)
    queue.edit(1, 5, 200, content="other", view=None)
    assert len(queue) == 2  # one task per message
    await queue.close()
    assert [(e.message_id, e.kwargs["content"]) for e in client.edits] == [(100, "third"), (200, "other")]
    assert len(queue) == 0


async def test_an_edit_no_longer_wanted_is_skipped() -> None:
    client = FakeClient()
    queue = edits(client)
    wanted = True
    queue.edit(1, 5, 100, content="moved", view=None, wanted=lambda: wanted)
    wanted = False  # a press made the message the board again before the edit went out
    await queue.close()
    assert client.edits == []


async def test_a_failed_edit_is_logged_and_the_next_still_sent(caplog: pytest.LogCaptureFixture) -> None:
    client = FakeClient(failing={100: http_error(404, 10008)})
    queue = edits(client)
    queue.edit(1, 5, 100, content="a", view=None)
    queue.edit(1, 5, 101, content="b", view=None)
    with caplog.at_level(logging.WARNING, logger="bot.ui.edits"):
        await queue.close()
    assert [e.message_id for e in client.edits] == [100, 101]
    assert any("could not edit message 100" in r.getMessage() for r in caplog.records)


async def test_close_cancels_edits_that_outlast_the_timeout() -> None:
    release = asyncio.Event()

    class Stuck(FakeClient):
        def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Any:
            class _Message:
                def __init__(self, message_id: int) -> None:
                    pass

                async def edit(self, **kwargs: Any) -> None:
                    await release.wait()

            return type("Channel", (), {"get_partial_message": staticmethod(_Message)})

    queue = edits(Stuck())
    queue.edit(1, 5, 100, content="never", view=None)
    await queue.close(timeout=0.01)
    assert len(queue) == 0 and not release.is_set()


def refusing(*message_ids: int) -> FakeClient:
    """A client whose channel edits of ``message_ids`` are refused as in a group DM the bot is not in."""
    return FakeClient(failing={m: http_error(403, 50001) for m in message_ids})


def lapsed(client: FakeClient, pressed: FakeInteraction) -> BackgroundEdits:
    """Edits whose originals keep ``pressed`` (from a guild the app is not installed in) for message 100, after its
    channel's refusal has lapsed while the token is still fresh: the next edit tries the channel first."""
    now = [0.0]
    queue = BackgroundEdits(client, Originals(lambda: now[0]))  # type: ignore[arg-type]
    queue.originals.remember(100, pressed)  # type: ignore[arg-type]
    now[0] += REFUSAL_MEMORY + 1
    assert not queue.originals.refused(pressed.channel_id) and queue.originals.fresh(100) is pressed
    return queue


async def test_a_refused_channel_edit_goes_through_the_fresh_interaction_and_the_channel_is_remembered() -> None:
    client = refusing(100)
    pressed = FakeInteraction(pressed=100, installed=False)
    queue = lapsed(client, pressed)
    queue.edit(1, 5, 100, content="bot moved", view=None)
    await queue.close()
    queue.edit(1, 5, 100, content="bot moved again", view=None)
    await queue.close()
    assert [e.message_id for e in client.edits] == [100], "a channel known to refuse was asked again"
    assert [kwargs["content"] for kwargs in pressed.named("edit_original_response")] == ["bot moved", "bot moved again"]


async def test_where_the_app_is_installed_a_refused_edit_is_dropped_and_later_presses_carry_the_edits() -> None:
    client = refusing(100, 100)
    queue = edits(client)
    queue.originals.remember(100, FakeInteraction(pressed=100))  # type: ignore[arg-type]  # not kept: installed
    queue.edit(1, 5, 100, content="bot moved", view=None)
    await queue.close()
    pressed = FakeInteraction(pressed=100)
    queue.originals.remember(100, pressed)  # type: ignore[arg-type]  # kept: the channel refused an edit
    queue.edit(1, 5, 100, content="bot moved again", view=None)
    await queue.close()
    assert [e.message_id for e in client.edits] == [100], "a channel known to refuse was asked again"
    assert [kwargs["content"] for kwargs in pressed.named("edit_original_response")] == ["bot moved again"]


async def test_a_user_installed_context_never_tries_the_channel() -> None:
    client = FakeClient()
    queue = edits(client)
    pressed = FakeInteraction(pressed=100, private=True)
    queue.originals.remember(100, pressed)  # type: ignore[arg-type]
    queue.edit(1, None, 100, content="bot moved", view=None)
    await queue.close()
    assert client.edits == [] and len(pressed.named("edit_original_response")) == 1


async def test_where_the_bot_may_edit_the_channel_edit_is_used() -> None:
    client = FakeClient()
    queue = edits(client)
    pressed = FakeInteraction(pressed=100)
    queue.originals.remember(100, pressed)  # type: ignore[arg-type]
    queue.edit(1, 5, 100, content="bot moved", view=None)
    await queue.close()
    assert [e.message_id for e in client.edits] == [100] and pressed.named("edit_original_response") == []


async def test_another_failure_of_the_channel_edit_is_not_retried_through_an_interaction() -> None:
    client = FakeClient(failing={100: http_error(500)})
    pressed = FakeInteraction(pressed=100, installed=False)
    queue = lapsed(client, pressed)
    queue.edit(1, 5, 100, content="bot moved", view=None)
    await queue.close()
    assert pressed.named("edit_original_response") == [] and not queue.originals.refused(1)


async def test_without_a_fresh_token_the_edit_is_dropped_with_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    client = refusing(100, 100)
    queue = edits(client)
    with caplog.at_level(logging.WARNING, logger="bot.ui.edits"):
        queue.edit(1, 5, 100, content="bot moved", view=None)
        await queue.close()
        queue.edit(1, 5, 100, content="timed out", view=None)
        await queue.close()
    warnings = [r.getMessage() for r in caplog.records if "message 100" in r.getMessage()]
    assert len(warnings) == 1 and "no interaction token" in warnings[0], warnings


async def test_an_expired_token_is_forgotten_and_warned_about_once(caplog: pytest.LogCaptureFixture) -> None:
    client = FakeClient()
    queue = edits(client)
    pressed = FakeInteraction(pressed=100, private=True)
    pressed.failing["edit_original_response"] = http_error(401, 50027)
    queue.originals.remember(100, pressed)  # type: ignore[arg-type]
    with caplog.at_level(logging.WARNING, logger="bot.ui.edits"):
        queue.edit(1, None, 100, content="bot moved", view=None)
        await queue.close()
        queue.edit(1, None, 100, content="bot moved again", view=None)
        await queue.close()
    assert queue.originals.fresh(100) is None and len(pressed.named("edit_original_response")) == 1
    assert len([r for r in caplog.records if "message 100" in r.getMessage()]) == 1
    assert pressed.token not in caplog.text


async def test_a_picture_is_sent_whole_through_the_interaction_after_the_refused_channel_edit_read_it() -> None:
    class Reading(FakeClient):  # discord.py reads the upload to its end, then closes its own handle on it
        def get_partial_messageable(self, channel_id: int, *, guild_id: int | None = None) -> Any:
            class _Message:
                def __init__(self, message_id: int) -> None:
                    pass

                async def edit(self, **kwargs: Any) -> None:
                    for file in kwargs["attachments"]:
                        file.fp.read()
                        file.close()
                    raise http_error(403, 50001)

            return type("Channel", (), {"get_partial_message": staticmethod(_Message)})

    pressed = FakeInteraction(pressed=100, installed=False)
    queue = lapsed(Reading(), pressed)
    picture = discord.File(io.BytesIO(b"\x89PNG picture"), filename="ultimate.png")
    queue.edit(1, 5, 100, content="bot moved", view=None, files=(picture,))
    await queue.close()
    [sent] = pressed.named("edit_original_response")
    [file] = sent["attachments"]
    assert file.filename == "ultimate.png" and file.fp.read() == b"\x89PNG picture"


async def test_an_edit_queued_while_an_answer_shows_on_the_message_waits_for_it() -> None:
    client = FakeClient()
    queue = edits(client)
    pressed = FakeInteraction(pressed=100, private=True)
    async with queue.answering(100):
        queue.edit(1, None, 100, content="bot moved", view=None)  # searched faster than the press was answered
        await asyncio.sleep(0.01)
        assert client.edits == [] and pressed.named("edit_original_response") == []
        queue.originals.remember(100, pressed)  # type: ignore[arg-type]  # the press's answer is on the message
    await queue.close()
    assert client.edits == [], "the user-installed channel was asked before the press's answer marked it"
    assert [kwargs["content"] for kwargs in pressed.named("edit_original_response")] == ["bot moved"]
