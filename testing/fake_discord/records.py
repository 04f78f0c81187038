"""What the fake records and raises: an injected interaction and the responses it got, the rules the bot broke,
the REST calls and gateway closes it saw, and the errors it answers or raises."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import Any, Literal

from aiohttp import web

from testing.fake_discord.protocol import CONTEXT_GUILD, FLAG_EPHEMERAL, json_response


class FakeDiscordError(Exception):
    """Raised by injection helpers for an action a real Discord client could not perform."""


class ApiError(Exception):
    """An error answered to the bot as Discord's JSON error body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: list[str] | None = None,
        tree: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors or []
        self.tree = tree  # Discord's nested ``errors`` object (see form_errors), instead of a flat list

    def response(self) -> web.Response:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.tree:
            body["errors"] = self.tree
        elif self.errors:
            body["errors"] = {"_errors": [{"code": "INVALID", "message": e} for e in self.errors]}
        return json_response(body, self.status)


BODY_RULES = frozenset({"openapi_schema", "invalid_message", "invalid_commands", "invalid_attachments"})
"""Violations of a request body's shape: the e2e conftest fails any test whose bot sent one."""


@dataclass
class Violation:
    """A Discord rule the bot broke; the request was refused with ``status``/``code``."""

    rule: str
    detail: str
    route: str
    status: int
    code: int
    interaction_id: str | None = None

    def __str__(self) -> str:
        return f"{self.rule} ({self.status}/{self.code}) at {self.route}: {self.detail}"

    @property
    def invalid_body(self) -> bool:
        """Whether the request's body broke Discord's specification or its message rules (see BODY_RULES)."""
        return self.rule in BODY_RULES


@dataclass
class CallbackEvent:
    """One accepted response to an interaction: the callback, a followup, or an edit/delete of one."""

    kind: str  # callback | followup | edit_original | delete_original | edit_message | delete_message
    at: float  # time.perf_counter()
    payload: dict[str, Any]
    message_id: str | None
    callback_type: int | None = None


@dataclass
class RestCall:
    """One REST request as the fake answered it (``status`` 0: the connection was dropped instead)."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. "/channels/1/messages/2"
    status: int
    arrived: float  # time.perf_counter()
    answered: float


@dataclass
class GatewayClose:
    """A closed gateway connection: who closed it, with which code, and the shard it had identified as."""

    code: int | None
    by: Literal["client", "server"]
    shard: tuple[int, int] | None
    at: float


@dataclass(frozen=True)
class InvalidSession:
    """An INVALID_SESSION (op 9) the fake sent: ``reason`` is ``"identify too early"`` (a second IDENTIFY in its
    ``max_concurrency`` bucket within :attr:`FakeDiscord.identify_window` seconds) or ``"unknown session"`` (a RESUME
    it cannot resume); ``shard`` is ``(shard_id, shard_count)`` when known."""

    reason: str
    shard: tuple[int, int] | None
    at: float


class InteractionRecord:
    """An injected interaction; ``await record`` waits (5 s) for the first callback attempt and returns the record."""

    def __init__(self, payload: dict[str, Any], raw: str, component_message_id: str | None = None) -> None:
        self._raw = raw
        self._interaction: dict[str, Any] | None = None
        self.id: str = payload["id"]
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.guild_id: str | None = payload.get("guild_id")
        self.channel_id: str = payload["channel_id"]
        self.user: dict[str, Any] = payload["member"]["user"] if "member" in payload else payload["user"]
        self.component_message_id = component_message_id
        self.dispatched_at = 0.0
        self.first_callback_at: float | None = None
        self.acknowledged = False
        self.callback_type: int | None = None
        self.flags = 0
        self.payload: dict[str, Any] = {}
        self.message_id: str | None = None  # the @original message
        self.message_ids: set[str] = set()  # @original and followups
        self.events: list[CallbackEvent] = []
        self.error: ApiError | None = None  # set when the first callback attempt was refused
        self.callback_statuses: list[int] = []  # the HTTP status of every callback POST (0: connection dropped)
        self.answer_lost = False  # the callback was applied but its HTTP answer failed (an injected fault)
        self.context: int = payload.get("context", CONTEXT_GUILD)
        self.shard: tuple[int, int] | None = None  # (shard_id, shard_count) of the connection it was dispatched to
        self._first: asyncio.Future[InteractionRecord] = asyncio.get_running_loop().create_future()
        self._waiters: list[tuple[Callable[[CallbackEvent], bool], asyncio.Future[CallbackEvent]]] = []

    def __repr__(self) -> str:
        return f"<InteractionRecord id={self.id} type={self.type} callback={self.callback_type} latency={self.latency}>"

    @property
    def interaction(self) -> dict[str, Any]:
        """The INTERACTION_CREATE payload exactly as dispatched (a snapshot, parsed on first access)."""
        if self._interaction is None:
            self._interaction = json.loads(self._raw)
        return self._interaction

    @property
    def latency(self) -> float | None:
        """Seconds from dispatch to the first callback attempt (accepted or refused)."""
        return None if self.first_callback_at is None else self.first_callback_at - self.dispatched_at

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def content(self) -> str | None:
        return self.payload.get("content")

    @property
    def components(self) -> list[dict[str, Any]] | None:
        return self.payload.get("components")

    @property
    def followups(self) -> list[CallbackEvent]:
        """Every accepted event after the first callback (followups, edits, deletes)."""
        return self.events[1:]

    def __await__(self) -> Generator[Any, None, InteractionRecord]:
        return self.wait().__await__()

    async def wait(self, timeout: float = 5.0) -> InteractionRecord:
        """Wait for the first callback attempt; ``self.error`` is set if it was refused."""
        return await asyncio.wait_for(asyncio.shield(self._first), timeout)

    async def wait_for_event(
        self, predicate: Callable[[CallbackEvent], bool] | None = None, timeout: float = 5.0
    ) -> CallbackEvent:
        """Wait for an accepted event (already recorded or future) matching ``predicate``."""
        pred = predicate or (lambda _e: True)
        for event in self.events:
            if pred(event):
                return event
        fut: asyncio.Future[CallbackEvent] = asyncio.get_running_loop().create_future()
        self._waiters.append((pred, fut))
        try:
            return await asyncio.wait_for(fut, timeout)
        finally:
            with contextlib.suppress(ValueError):
                self._waiters.remove((pred, fut))

    def _attempted(self, at: float) -> None:
        if self.first_callback_at is None:
            self.first_callback_at = at

    def _resolve_first(self) -> None:
        if not self._first.done():
            self._first.set_result(self)

    def _add_event(self, event: CallbackEvent) -> None:
        self.events.append(event)
        for pred, fut in list(self._waiters):
            if not fut.done() and pred(event):
                fut.set_result(event)
