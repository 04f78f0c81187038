"""Every patch of discord.py's internals, in one place, for the one minor version they were written for.

- **The gateway's close code** (:class:`CloseCodeWebSocket`): on a close frame discord.py closes the socket itself
  before reading the close code; when Discord has already dropped the connection, aiohttp then reports 1006
  instead of Discord's code, and a fatal close such as 4004 (authentication failed) is retried as a network error.
  This subclass records the code of the close frame as it arrives and turns a fatal one into
  :class:`discord.ConnectionClosed`, as discord.py intends. Gateway close codes:
  https://discord.com/developers/docs/topics/opcodes-and-status-codes
- **Other endpoints** (:func:`use_endpoints`): the REST base of ``discord.http.Route`` and the gateway URL of
  ``DiscordWebSocket`` (a proxy, or the fake Discord in tests).
- **Observing interactions** (:func:`wrap_interaction_parser`, :func:`install_adapter_hook`): a wrapper around
  the connection state's ``INTERACTION_CREATE`` parser (the arrival) and one around the webhook adapter's
  ``create_interaction_response`` (the first callback), for :mod:`bot.ops.interactions` and the log context.
- **A command's error handlers** (:func:`has_error_handlers`): the private query the command tree's
  ``on_error`` needs.

Each install checks :func:`check_version` first: on another discord.py minor version than
:data:`WRITTEN_FOR` it raises instead of patching code it was not written against (pyproject pins that version).
"""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import discord.gateway
import discord.http
import discord.shard
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket, ReconnectWebSocket
from discord.webhook.async_ import AsyncWebhookAdapter

if TYPE_CHECKING:
    from discord.ext import commands

__all__ = [
    "FATAL_CLOSE_CODES",
    "WRITTEN_FOR",
    "CloseCodeWebSocket",
    "UnsupportedDiscordVersionError",
    "check_version",
    "has_error_handlers",
    "install_adapter_hook",
    "install_gateway",
    "uninstall_adapter_hook",
    "use_endpoints",
    "wrap_interaction_parser",
]

WRITTEN_FOR = (2, 7)
"""The discord.py minor version these patches were written and tested against (pinned in pyproject.toml)."""
FATAL_CLOSE_CODES = frozenset({4004, 4010, 4011, 4012, 4013, 4014})
"""Authentication failed, invalid shard, sharding required, invalid API version, invalid or disallowed intents."""


class UnsupportedDiscordVersionError(RuntimeError):
    """The installed discord.py is not the minor version the patches were written for."""


def check_version(version: str | None = None) -> None:
    """Check that discord.py ``version`` (default: the installed one, ``discord.__version__``) is the minor version
    :data:`WRITTEN_FOR`.

    Raises:
        UnsupportedDiscordVersionError: another minor version: the patches would touch internals they do not know.
    """
    version = discord.__version__ if version is None else version
    major, minor = (int(part) for part in version.split(".")[:2])
    if (major, minor) != WRITTEN_FOR:
        wanted = ".".join(map(str, WRITTEN_FOR))
        raise UnsupportedDiscordVersionError(
            f"bot.app.patches was written for discord.py {wanted}.x, not {version}: check each patch against its "
            f"source, then update WRITTEN_FOR and the pin in pyproject.toml"
        )


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


def install_gateway() -> None:
    """Make discord.py's sharded client connect with :class:`CloseCodeWebSocket`.

    Raises:
        UnsupportedDiscordVersionError: see :func:`check_version`.
    """
    check_version()
    discord.shard.DiscordWebSocket = CloseCodeWebSocket  # type: ignore[misc]


def use_endpoints(api_base: str, gateway_url: str) -> None:
    """Point discord.py at another REST API base and gateway (a proxy, or a fake Discord in tests), and install
    :class:`CloseCodeWebSocket`.

    Call before login. A sharded client without a fixed shard count asks ``GET /gateway/bot`` on the
    API base for its gateway URL; with ``DISCORD_SHARD_COUNT`` set it connects to ``gateway_url``.

    Raises:
        UnsupportedDiscordVersionError: see :func:`check_version`.
    """
    check_version()
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    install_gateway()


def wrap_interaction_parser(
    bot: commands.AutoShardedBot, wrap: Callable[[dict[str, Any], Callable[[], None]], None]
) -> None:
    """Put ``wrap(data, parse)`` in front of ``bot``'s ``INTERACTION_CREATE`` parser, which creates the handlers'
    tasks: ``wrap`` gets the gateway payload and must call ``parse()`` once.

    Raises:
        UnsupportedDiscordVersionError: see :func:`check_version`.
    """
    check_version()
    parsers: dict[str, Callable[[Any], None]] = bot._connection.parsers
    original = parsers["INTERACTION_CREATE"]

    def parse(data: dict[str, Any]) -> None:
        wrap(data, lambda: original(data))

    parsers["INTERACTION_CREATE"] = parse


Callback = Callable[[int, Callable[[], Any]], Awaitable[Any]]
"""``callback(interaction_id, send)``: awaits ``send()`` (an interaction callback request) and returns its result."""
_CALLBACKS: list[Callback] = []
_ORIGINAL = AsyncWebhookAdapter.create_interaction_response


async def _create_interaction_response(
    self: AsyncWebhookAdapter, interaction_id: int, token: str, **kwargs: Any
) -> Any:
    def send() -> Any:
        return _ORIGINAL(self, interaction_id, token, **kwargs)

    if not _CALLBACKS:
        return await send()
    return await _CALLBACKS[-1](interaction_id, send)


def install_adapter_hook(callback: Callback) -> None:
    """Route every interaction callback request of this process through ``callback`` (the last one installed wins).

    Raises:
        UnsupportedDiscordVersionError: see :func:`check_version`.
    """
    check_version()
    _CALLBACKS.append(callback)
    AsyncWebhookAdapter.create_interaction_response = _create_interaction_response  # type: ignore[method-assign]


def uninstall_adapter_hook(callback: Callback) -> None:
    """Undo :func:`install_adapter_hook`."""
    with contextlib.suppress(ValueError):
        _CALLBACKS.remove(callback)
    if not _CALLBACKS:
        AsyncWebhookAdapter.create_interaction_response = _ORIGINAL  # type: ignore[method-assign]


def has_error_handlers(command: app_commands.Command[Any, ..., Any] | app_commands.ContextMenu) -> bool:
    """True when ``command`` (or its cog or group) has an error handler of its own."""
    return command._has_any_error_handlers()
