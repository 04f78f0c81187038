"""Edits of the bot's own messages outside any interaction: retiring an old board, showing a time-out,
showing a committed position that an interaction's answer failed to show.

They run as background tasks, off every interaction's path and outside every lock. Edits of one
message are coalesced: only the newest wanted content is sent. Each edit is one discord.py request,
whose own handling of 429 (``retry_after``) and 5xx (a few tries with backoff) bounds the retries.

An edit is a channel edit (``PATCH /channels/{id}/messages/{id}``) where the bot may make one. Where it may not
(installed on a user's account, in a group DM or a server it is not in: Discord answers 403), it goes through the
freshest interaction whose ``@original`` is the message (:class:`~bot.ui.originals.Originals`). With neither, the
edit is dropped and a warning logged once per message: the game is committed, and a press on the board or
``/ttt board`` shows it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.ui.originals import Originals
from bot.ui.pictures import Attachment, Drawer

__all__ = ["BackgroundEdits", "message_kwargs"]

log = logging.getLogger(__name__)

INVALID_WEBHOOK_TOKEN = 50027
"""Discord's error code (with 401) for an interaction token that expired."""
WARNED_MESSAGES = 4096
"""Messages remembered as already warned about (the oldest forgotten first)."""

NO_PINGS = discord.AllowedMentions.none()


def message_kwargs(content: str, view: discord.ui.View | None, *, edit: bool) -> dict[str, Any]:
    """The keyword arguments of a board message's send or edit: a Components V2 ``view`` goes without content (an
    edit clears it, as Discord requires), a classic one with it; mentions never ping."""
    v2 = view is not None and view.has_components_v2()
    kwargs: dict[str, Any] = {"view": view, "allowed_mentions": NO_PINGS}
    if not v2:
        kwargs["content"] = content
    elif edit:
        kwargs["content"] = None
    return kwargs


@dataclass(frozen=True, slots=True)
class _Edit:
    channel_id: int
    guild_id: int | None
    content: str
    view: discord.ui.View | None
    wanted: Callable[[], bool] | None
    files: tuple[Attachment, ...] = ()


class BackgroundEdits:
    """Queue edits of the bot's messages; one task per message with edits pending. ``originals`` holds the
    interactions that can edit a message where the bot's channel edits are refused."""

    def __init__(
        self, client: discord.Client, originals: Originals | None = None, drawer: Drawer | None = None
    ) -> None:
        self._client = client
        self.drawer = drawer if drawer is not None else Drawer()
        self.originals = originals if originals is not None else Originals()
        self._pending: dict[int, _Edit] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._warned: dict[int, None] = {}
        self._answering: dict[int, asyncio.Event] = {}

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
        files: tuple[Attachment, ...] = (),
    ) -> None:
        """Edit message ``message_id`` soon; ``wanted()`` is asked just before sending (False: skip it). ``files``
        replace the message's attachments (an ultimate board's picture, drawn when the edit is sent); a
        Components V2 ``view`` is sent without content."""
        self._pending[message_id] = _Edit(channel_id, guild_id, content, view, wanted, files)
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

    @contextlib.asynccontextmanager
    async def answering(self, message_id: int | None) -> AsyncIterator[None]:
        """Hold the edits of message ``message_id`` while an interaction's answer shows on it (a press's update):
        an edit queued meanwhile (the bot's move on a slow variant, searched in a few milliseconds) is sent after
        that answer, through the interaction it leaves in :attr:`originals` where channel edits are refused."""
        if message_id is None:
            yield
            return
        done = self._answering[message_id] = asyncio.Event()
        try:
            yield
        finally:
            if self._answering.get(message_id) is done:
                del self._answering[message_id]
            done.set()

    async def _run(self, message_id: int) -> None:
        try:
            while (answering := self._answering.get(message_id)) is not None:
                await answering.wait()
            while (edit := self._pending.pop(message_id, None)) is not None:
                if edit.wanted is not None and not edit.wanted():
                    continue
                await self._send(message_id, edit)
        finally:
            self._tasks.pop(message_id, None)

    async def _send(self, message_id: int, edit: _Edit) -> None:
        kwargs = message_kwargs(edit.content, edit.view, edit=True)
        if not self.originals.refused(edit.channel_id):
            channel = self._client.get_partial_messageable(edit.channel_id, guild_id=edit.guild_id)
            try:
                await channel.get_partial_message(message_id).edit(**kwargs, **await self._attachments(edit.files))
                return
            except discord.HTTPException as error:
                if error.status != 403:
                    self._failed(message_id, edit, error)
                    return
                self.originals.refuse(edit.channel_id)
        await self._through_interaction(message_id, edit, kwargs)

    async def _through_interaction(self, message_id: int, edit: _Edit, kwargs: dict[str, Any]) -> None:
        """Edit the message as the ``@original`` of the freshest interaction kept for it, if there is one."""
        interaction = self.originals.fresh(message_id)
        if interaction is None:
            self._unreachable(message_id, edit)
            return
        try:
            await interaction.edit_original_response(**kwargs, **await self._attachments(edit.files))
        except discord.HTTPException as error:
            if error.status == 401 or error.code == INVALID_WEBHOOK_TOKEN:  # the token expired before we thought
                self.originals.forget(message_id)
                self._unreachable(message_id, edit)
            else:
                self._failed(message_id, edit, error)

    async def _attachments(self, files: tuple[Attachment, ...]) -> dict[str, Any]:
        """``attachments=`` for one request: files of its own (a refused channel edit is followed by an
        interaction's edit), pictures drawn by the drawer."""
        return {"attachments": await self.drawer.attachments(files)} if files else {}

    @staticmethod
    def _failed(message_id: int, edit: _Edit, error: discord.HTTPException) -> None:
        log.warning(
            "could not edit message %s in channel %s: %s %s",
            message_id,
            edit.channel_id,
            error.status,
            error.text or "",
        )

    def _unreachable(self, message_id: int, edit: _Edit) -> None:
        """Warn (once per message) that neither a channel edit nor a fresh interaction can edit the message."""
        if message_id in self._warned:
            return
        self._warned[message_id] = None
        if len(self._warned) > WARNED_MESSAGES:
            del self._warned[next(iter(self._warned))]
        log.warning(
            "could not edit message %s in channel %s: the bot may not edit there and no interaction token for it is "
            "fresh; it stays as it was (the game is kept: a press on it or /ttt board shows it)",
            message_id,
            edit.channel_id,
        )
