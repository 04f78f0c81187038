"""discord.py's gateway client, keeping the close code that Discord sent.

On a close frame discord.py closes the socket itself before reading the close code; when Discord has
already dropped the connection, aiohttp then reports 1006 instead of Discord's code, and a fatal close
such as 4004 (authentication failed) is retried as a network error. This subclass records the code of
the close frame as it arrives and turns a fatal one into :class:`discord.ConnectionClosed`, as
discord.py intends. Gateway close codes: https://discord.com/developers/docs/topics/opcodes-and-status-codes
"""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import discord.shard
from discord.gateway import DiscordWebSocket, ReconnectWebSocket

__all__ = ["FATAL_CLOSE_CODES", "CloseCodeWebSocket", "install"]

FATAL_CLOSE_CODES = frozenset({4004, 4010, 4011, 4012, 4013, 4014})
"""Authentication failed, invalid shard, sharding required, invalid API version, invalid or disallowed intents."""


class _RecordingSocket:
    """An aiohttp client websocket that remembers the code of the close frame it received."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._socket = socket
        self.close_frame: int | None = None

    async def receive(self, timeout: float | None = None) -> aiohttp.WSMessage:
        message = await self._socket.receive(timeout=timeout)
        if message.type is aiohttp.WSMsgType.CLOSE and isinstance(message.data, int):
            self.close_frame = message.data
        return message

    def __getattr__(self, name: str) -> Any:
        return getattr(self._socket, name)


class CloseCodeWebSocket(DiscordWebSocket):
    """discord.py's ``DiscordWebSocket`` that stops, instead of reconnecting, after a fatal close frame."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse, **kwargs: Any) -> None:
        super().__init__(_RecordingSocket(socket), **kwargs)  # type: ignore[arg-type]

    async def poll_event(self) -> None:
        """discord.py's loop step; a reconnect after a fatal close frame becomes ``ConnectionClosed``.

        Raises:
            discord.ConnectionClosed: Discord closed the gateway with a code that forbids reconnecting.
        """
        try:
            await super().poll_event()
        except ReconnectWebSocket:
            code = self.socket.close_frame  # type: ignore[attr-defined]
            if code in FATAL_CLOSE_CODES:
                raise discord.ConnectionClosed(self.socket, shard_id=self.shard_id, code=code) from None
            raise


def install() -> None:
    """Make discord.py's sharded client connect with :class:`CloseCodeWebSocket`."""
    discord.shard.DiscordWebSocket = CloseCodeWebSocket  # type: ignore[misc]
