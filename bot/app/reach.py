"""Waiting for Discord to be reachable before logging in: a machine without network, or whose DNS cannot resolve
Discord's name, gets one log line per try and tries again with growing waits, as discord.py does for the gateway
once connected (without the jitter: one process tries). A token Discord rejects is not this: it is an answer.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable

import aiohttp
import yarl

__all__ = ["MAX_WAIT_SECONDS", "reach_discord"]

log = logging.getLogger(__name__)

MAX_WAIT_SECONDS = 60.0
"""The longest wait between two tries."""
_TRY_SECONDS = 10.0
"""How long one try may take (a DNS lookup or a TCP connection that hangs)."""
_TICK_SECONDS = 0.1


async def reach_discord(api_base: str, first_wait: float, *, stopped: Callable[[], bool]) -> bool:
    """Wait until ``GET {api_base}/gateway`` gets any HTTP answer; returns ``True`` then, ``False`` when ``stopped()``
    became true first (a shutdown). Each failed try logs one WARNING line naming the host, the reason and the wait,
    which doubles from ``first_wait`` seconds up to :data:`MAX_WAIT_SECONDS`."""
    url = yarl.URL(api_base.rstrip("/") + "/gateway")
    wait = first_wait
    timeout = aiohttp.ClientTimeout(total=_TRY_SECONDS)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        while not stopped():
            try:
                async with session.get(url) as response:
                    await response.read()
                return True
            except (aiohttp.ClientConnectionError, TimeoutError) as exc:
                log.warning("cannot reach Discord at %s (%s); next try in %.1f s", url.authority, _reason(exc), wait)
            if not await _sleep(wait, stopped):
                break
            wait = min(wait * 2, MAX_WAIT_SECONDS)
    return False


def _reason(exc: BaseException) -> str:
    cause = getattr(exc, "os_error", None)
    if isinstance(exc, aiohttp.ClientConnectorDNSError) or isinstance(cause, socket.gaierror):
        return f"its name does not resolve: {cause.strerror if isinstance(cause, OSError) else exc}"
    if isinstance(cause, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, TimeoutError):
        return f"no answer within {_TRY_SECONDS:.0f} s"
    return (cause.strerror if isinstance(cause, OSError) and cause.strerror else None) or type(exc).__name__


async def _sleep(seconds: float, stopped: Callable[[], bool]) -> bool:
    """Sleep ``seconds``, waking early when ``stopped()``; ``False`` then."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while (left := deadline - loop.time()) > 0:
        if stopped():
            return False
        await asyncio.sleep(min(left, _TICK_SECONDS))
    return not stopped()
