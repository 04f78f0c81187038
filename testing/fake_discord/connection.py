"""One gateway websocket and the session it carries (sequence numbers, replay buffer for RESUME), with the
per-connection stream compression of ``?compress=``."""

from __future__ import annotations

import asyncio
import collections
import importlib
import logging
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from testing.fake_discord.protocol import OP_DISPATCH, dumps

log = logging.getLogger(__name__)


def make_compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    """Per-connection stream compressor for ``?compress=``: each message is flushed so it decodes on its own.

    Raises ValueError for an unsupported kind. discord.py asks for ``zstd-stream`` only when ``zstandard`` or
    Python 3.14's ``compression.zstd`` is importable, otherwise ``zlib-stream``.
    """
    if kind is None:
        return None
    if kind == "zlib-stream":
        zobj = zlib.compressobj()
        return lambda data: zobj.compress(data) + zobj.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        try:
            zstd: Any = importlib.import_module("compression.zstd")  # Python >= 3.14
        except ImportError:
            try:
                zstandard: Any = importlib.import_module("zstandard")
            except ImportError:
                raise ValueError("zstd-stream requested but no zstd module is installed") from None
            zcobj = zstandard.ZstdCompressor().compressobj()
            return lambda data: zcobj.compress(data) + zcobj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
        zc = zstd.ZstdCompressor()
        return lambda data: zc.compress(data, zstd.ZstdCompressor.FLUSH_BLOCK)
    raise ValueError(f"unsupported gateway compression {kind!r}")


@dataclass(eq=False)
class Session:
    id: str
    shard: tuple[int, int]
    intents: int = 0
    seq: int = 0
    replay: collections.deque[tuple[int, str]] = field(default_factory=lambda: collections.deque(maxlen=5000))
    conn: Connection | None = None


class Connection:
    """One gateway websocket, written by a single task so frames (and the shared zlib stream) stay in order."""

    def __init__(self, ws: web.WebSocketResponse, compressor: Callable[[bytes], bytes] | None, order: int) -> None:
        self.ws = ws
        self.compressor = compressor
        self.session: Session | None = None
        self.ready = False
        self.dead = False
        self.order = order
        self.closed_by_server: int | None = None
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write_loop())

    @property
    def alive(self) -> bool:
        return not (self.dead or self.ws.closed)

    def post(self, raw: str) -> bool:
        """Queue one already-serialised gateway message."""
        if not self.alive:
            return False
        self._queue.put_nowait(raw)
        return True

    def send(self, payload: dict[str, Any]) -> bool:
        return self.post(dumps(payload))

    def dispatch(self, event: str, data: Any, *, raw_data: str | None = None) -> bool:
        """Queue a sequenced DISPATCH, serialised now so later store changes don't leak into it."""
        assert self.session is not None
        self.session.seq += 1
        body = dumps(data) if raw_data is None else raw_data
        raw = f'{{"op":{OP_DISPATCH},"t":"{event}","s":{self.session.seq},"d":{body}}}'
        self.session.replay.append((self.session.seq, raw))
        return self.post(raw)

    async def _write_loop(self) -> None:
        while True:
            raw = await self._queue.get()
            try:
                if self.compressor is not None:
                    await self.ws.send_bytes(self.compressor(raw.encode()))
                else:
                    await self.ws.send_str(raw)
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway send failed: %s", exc)
                self.dead = True
                return

    def stop_writer(self) -> None:
        self.dead = True
        self._writer.cancel()
