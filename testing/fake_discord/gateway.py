"""The gateway: websocket connections, IDENTIFY (with the session start limit) and RESUME, shards, and
dispatching events."""

from __future__ import annotations

import contextlib
import json
import logging
import secrets
import time
from typing import Any

from aiohttp import WSMsgType, web

from testing.fake_discord.connection import Connection, Session, make_compressor
from testing.fake_discord.protocol import (
    OP_HEARTBEAT,
    OP_HEARTBEAT_ACK,
    OP_HELLO,
    OP_IDENTIFY,
    OP_INVALID_SESSION,
    OP_REQUEST_MEMBERS,
    OP_RESUME,
    json_response,
)
from testing.fake_discord.records import GatewayClose, InvalidSession

log = logging.getLogger(__name__)


class Gateway:
    """The part of :class:`FakeDiscord` that serves ``/gateway`` and the gateway's REST discovery routes."""

    @property
    def connected(self) -> bool:
        """Whether a gateway client is connected and has identified or resumed."""
        return any(c.ready and c.alive for c in self._connections)

    async def wait_for_ready(self, timeout: float = 10.0, *, count: int = 1) -> None:
        """Wait until a client is connected and ready, and at least ``count`` IDENTIFYs happened in total."""
        await self.wait_for(lambda: self.identify_count >= count and self.connected, timeout)

    async def wait_for_disconnect(self, timeout: float = 10.0) -> None:
        await self.wait_for(lambda: not self.connected, timeout)

    def _target(self, guild_id: str | None) -> Connection | None:
        """The most recently identified ready connection whose shard owns ``guild_id`` (``None``, a DM: shard 0)."""
        for conn in reversed(self._connections):
            if conn.ready and conn.alive and conn.session is not None:
                shard_id, count = conn.session.shard
                if self.shard_of(guild_id, count) == shard_id:
                    return conn
        return None

    def connected_shards(self) -> list[tuple[int, int]]:
        """``(shard_id, shard_count)`` of every ready gateway connection, in connection order."""
        return [c.session.shard for c in self._connections if c.ready and c.alive and c.session is not None]

    async def close_gateway(self, code: int = 4000, reason: str = "", *, shard_id: int | None = None) -> int:
        """Close every ready gateway connection (or only those of ``shard_id``) with ``code``, as Discord does
        (e.g. 4004 "Authentication failed.", 4009 "Session timed out."); returns how many were closed."""
        targets = [
            c
            for c in self._connections
            if c.alive and c.session is not None and (shard_id is None or c.session.shard[0] == shard_id)
        ]
        for conn in targets:
            conn.closed_by_server = code
            await conn.ws.close(code=code, message=reason.encode()[:120])
        return len(targets)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        if self._stopping:
            raise web.HTTPServiceUnavailable(text="fake discord shutting down")
        ws = web.WebSocketResponse(max_msg_size=0, compress=False, timeout=2.0)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        try:
            if request.query.get("encoding", "json") != "json":
                raise ValueError("only encoding=json is supported")
            compressor = make_compressor(request.query.get("compress"))
        except ValueError as exc:
            log.error("refusing gateway connection %s: %s", dict(request.query), exc)
            await ws.close(code=4002, message=str(exc).encode()[:120])
            return ws
        self._conn_counter += 1
        conn = Connection(ws, compressor, self._conn_counter)
        self._connections.append(conn)
        try:
            conn.send({"op": OP_HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    if msg.type is WSMsgType.ERROR:
                        break
                    continue
                try:
                    frame = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"decode error")
                    break
                await self._gateway_op(conn, frame)
        except Exception:
            log.exception("gateway connection failed")
        finally:
            conn.ready = False
            conn.stop_writer()
            self._connections.remove(conn)
            shard = conn.session.shard if conn.session is not None else None
            if conn.closed_by_server is not None:
                self.gateway_closes.append(GatewayClose(conn.closed_by_server, "server", shard, time.perf_counter()))
            else:
                self.gateway_closes.append(GatewayClose(ws.close_code, "client", shard, time.perf_counter()))
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            self._notify()
            with contextlib.suppress(Exception):
                await ws.close()
        return ws

    async def _gateway_op(self, conn: Connection, frame: dict[str, Any]) -> None:
        op, d = frame.get("op"), frame.get("d")
        if op == OP_HEARTBEAT:
            conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            await self._identify(conn, d or {})
        elif op == OP_RESUME:
            await self._resume(conn, d or {})
        elif op == OP_REQUEST_MEMBERS and conn.session is not None:
            gid = str((d or {}).get("guild_id"))
            if gid in self.guilds:
                conn.dispatch(
                    "GUILD_MEMBERS_CHUNK",
                    {
                        "guild_id": gid,
                        "members": list(self.guilds[gid]["members"].values()),
                        "chunk_index": 0,
                        "chunk_count": 1,
                        "not_found": [],
                        "nonce": (d or {}).get("nonce"),
                    },
                )
        else:
            log.debug("ignoring gateway op %s", op)

    async def _identify(self, conn: Connection, d: dict[str, Any]) -> None:
        if self.token is not None and d.get("token") != self.token:
            conn.closed_by_server = 4004
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identifies.append({k: v for k, v in d.items() if k != "token"})
        shard_id, count = d.get("shard") or [0, 1]
        if not 0 <= int(shard_id) < int(count):
            conn.closed_by_server = 4010
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        shard = (int(shard_id), int(count))
        bucket, now = shard[0] % self.max_concurrency, time.monotonic()
        last = self._last_identify.get(bucket)
        if last is not None and now - last < self.identify_window:
            self._invalid_session(conn, "identify too early", shard)
            return
        self._last_identify[bucket] = now
        session = Session(id=secrets.token_hex(16), shard=shard, intents=int(d.get("intents") or 0), conn=conn)
        self._sessions[session.id] = session
        conn.session = session
        gids = [g for g in self.guilds if self.shard_of(g, session.shard[1]) == session.shard[0]]
        conn.dispatch(
            "READY",
            {
                "v": 10,
                "user": {**self.bot_user, "verified": True, "mfa_enabled": False},
                "session_type": "normal",
                "guilds": [{"id": g, "unavailable": True} for g in gids],
                "session_id": session.id,
                "resume_gateway_url": self.gateway_url,
                "shard": list(session.shard),
                "application": {"id": self.application_id, "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "_trace": ["fake-discord"],
            },
        )
        for gid in gids:
            conn.dispatch("GUILD_CREATE", self._guild_payload(gid))
        conn.ready = True
        self.identify_count += 1
        self._notify()

    async def _resume(self, conn: Connection, d: dict[str, Any]) -> None:
        session = self._sessions.get(str(d.get("session_id")))
        if session is None or (self.token is not None and d.get("token") != self.token):
            self._invalid_session(conn, "unknown session", None)
            return
        if session.conn is not None and session.conn is not conn:
            session.conn.ready = False
        session.conn, conn.session = conn, session
        seq = int(d.get("seq") or 0)
        for s, raw in list(session.replay):
            if s > seq:
                conn.post(raw)
        conn.dispatch("RESUMED", {"_trace": ["fake-discord"]})
        conn.ready = True
        self._notify()

    def _invalid_session(self, conn: Connection, reason: str, shard: tuple[int, int] | None) -> None:
        log.info("INVALID_SESSION (%s) for shard %s", reason, shard)
        self.invalid_sessions.append(InvalidSession(reason, shard, time.perf_counter()))
        conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
        self._notify()

    def dispatch_event(self, event: str, data: Any, guild_id: str | None = None) -> bool:
        """Queue an arbitrary DISPATCH event to the client responsible for ``guild_id``."""
        conn = self._target(str(guild_id or self.default_guild_id))
        return conn is not None and conn.dispatch(event, data)

    async def _get_gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def _get_gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.recommended_shards,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": self.max_concurrency,
                },
            }
        )
