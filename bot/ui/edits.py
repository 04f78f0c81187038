"""Edits of the bot's own messages outside any interaction: retiring an old board, showing a time-out,
showing a committed position that an interaction's answer failed to show.

They run as background tasks, off every interaction's path and outside every lock. Edits of one
message are coalesced: only the newest wanted content is sent. Each edit is one discord.py request,
whose own handling of 429 (``retry_after``) and 5xx (a few tries with backoff) bounds the retries.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

__all__ = ["BackgroundEdits"]

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


@dataclass(frozen=True, slots=True)
class _Edit:
    channel_id: int
    guild_id: int | None
    content: str
    view: discord.ui.View | None
    wanted: Callable[[], bool] | None


class BackgroundEdits:
    """Queue edits of the bot's messages; one task per message with edits pending."""

    def __init__(self, client: discord.Client) -> None:
        self._client = client
        self._pending: dict[int, _Edit] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    def __len__(self) -> int:
        return len(self._tasks)

    def edit(
        self,
        channel_id: int,
        guild_id: int | None,
        message_id: int,
        *,
        content: str,
        view: discord.ui.View | None,
        wanted: Callable[[], bool] | None = None,
    ) -> None:
        """Edit message ``message_id`` soon; ``wanted()`` is asked just before sending (False: skip it)."""
        self._pending[message_id] = _Edit(channel_id, guild_id, content, view, wanted)
        if message_id not in self._tasks:
            task = asyncio.get_running_loop().create_task(self._run(message_id), name=f"ttt-edit-{message_id}")
            self._tasks[message_id] = task

    async def close(self, timeout: float = 2.0) -> None:
        """Give pending edits up to ``timeout`` seconds, then cancel what is left (at shutdown)."""
        tasks = list(self._tasks.values())
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=timeout)
            for task in late:
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.gather(*late, return_exceptions=True)

    async def _run(self, message_id: int) -> None:
        try:
            while (edit := self._pending.pop(message_id, None)) is not None:
                if edit.wanted is not None and not edit.wanted():
                    continue
                await self._send(message_id, edit)
        finally:
            self._tasks.pop(message_id, None)

    async def _send(self, message_id: int, edit: _Edit) -> None:
        channel = self._client.get_partial_messageable(edit.channel_id, guild_id=edit.guild_id)
        kwargs: dict[str, Any] = {"content": edit.content, "view": edit.view, "allowed_mentions": NO_PINGS}
        try:
            await channel.get_partial_message(message_id).edit(**kwargs)
        except discord.HTTPException as error:
            log.warning(
                "could not edit message %s in channel %s: %s %s",
                message_id,
                edit.channel_id,
                error.status,
                error.text or "",
            )
