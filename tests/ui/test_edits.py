"""Background edits of the bot's messages: coalesced per message, skipped when no longer wanted, a failure
logged and not raised, and bounded at shutdown."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from bot.ui.edits import BackgroundEdits
from tests.ui.fakes import FakeClient, http_error


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
    client = FakeClient(failing={100: http_error(403, 50001)})
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
