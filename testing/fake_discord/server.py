"""The fake's HTTP server: its routes, start and stop, and the addresses and environment that point a bot at it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Self

from aiohttp import web

from testing.fake_discord.protocol import API_PREFIX, SHUTDOWN_SECONDS

log = logging.getLogger(__name__)


class Server:
    """The part of :class:`FakeDiscord` that runs the aiohttp application on 127.0.0.1."""

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Bind 127.0.0.1 on ``port`` (0 = a random free port) and serve."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        routes: list[tuple[str, str, Callable[..., Any]]] = [
            ("GET", "/users/@me", self._get_me),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway_bot),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            ("POST", "/webhooks/{app_id}/{token}", self._create_followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/channels/{channel_id}/messages", self._list_channel_messages),
            ("POST", "/channels/{channel_id}/messages", self._create_channel_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._channel_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._channel_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._channel_message),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, API_PREFIX + path, self._wrap(handler, path))
        app.router.add_get("/attachments/{attachment_id}/{filename}", self._serve_attachment)
        app.router.add_route("*", "/{tail:.*}", self._unknown)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=SHUTDOWN_SECONDS)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        log.info("fake discord listening on %s", self.base_url)

    async def stop(self) -> None:
        """Refuse new gateway connections, close every open one, stop the server, and cancel pending waits. (A
        client told 1001 reconnects at once; its new connection would hold the server's shutdown open.)"""
        self._stopping = True
        for conn in self._connections:
            conn.closed_by_server = 1001
        await asyncio.gather(
            *(c.ws.close(code=1001, message=b"fake discord shutting down") for c in self._connections),
            return_exceptions=True,
        )
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        self._waiters.cancel()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Value for ``discord.http.Route.BASE`` / ``DISCORD_API_BASE``."""
        return self.base_url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """Value for ``DiscordWebSocket.DEFAULT_GATEWAY`` / ``DISCORD_GATEWAY_URL``."""
        return f"ws://127.0.0.1:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables that point a bot subprocess at this fake."""
        return {
            "DISCORD_TOKEN": self.token or "fake-token",
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_IDENTIFY_WINDOW_SECONDS": f"{self.identify_window:g}",
        }
