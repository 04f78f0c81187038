"""The operations HTTP server: ``/metrics`` (Prometheus), ``/livez`` and ``/readyz``, in the bot's event loop.

It runs in the same loop as the bot, on aiohttp (discord.py's own HTTP library), so ``/livez`` answers exactly
while the loop turns: a blocked loop answers nothing and the probe times out.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

__all__ = ["OpsServer"]

log = logging.getLogger(__name__)


class OpsServer:
    """Serves ``registry`` and the health checks on ``host:port``; ``not_ready()`` names what is not ready
    (an empty list: ready)."""

    def __init__(self, registry: CollectorRegistry, not_ready: Callable[[], list[str]], host: str, port: int) -> None:
        self.registry = registry
        self.not_ready = not_ready
        self.host = host
        self.port = port
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/livez", self._livez)
        app.router.add_get("/readyz", self._readyz)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self) -> None:
        """Listen on ``host:port``.

        Raises:
            OSError: the port cannot be bound (in use, or not allowed).
        """
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        log.info("metrics and health checks on http://%s:%d (/metrics, /livez, /readyz)", self.host, self.port)

    async def close(self) -> None:
        """Stop listening."""
        await self._runner.cleanup()

    async def _metrics(self, _request: web.Request) -> web.Response:
        return web.Response(body=generate_latest(self.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _livez(self, _request: web.Request) -> web.Response:
        return web.json_response({"live": True})

    async def _readyz(self, _request: web.Request) -> web.Response:
        missing = self.not_ready()
        if missing:
            return web.json_response({"ready": False, "not_ready": missing}, status=503)
        return web.json_response({"ready": True})
