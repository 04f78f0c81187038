"""The fake Discord, composed of its parts: each part (a mixin of its own module) serves one concern of the same
state, which lives here."""

from __future__ import annotations

import collections
import random
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from aiohttp import web

from testing.fake_discord.app_commands import AppCommands
from testing.fake_discord.bodies import Bodies
from testing.fake_discord.callbacks import Callbacks
from testing.fake_discord.connection import Connection, Session
from testing.fake_discord.faults import Fault, Network
from testing.fake_discord.gateway import Gateway
from testing.fake_discord.injection import Injection
from testing.fake_discord.messages import MessageStore
from testing.fake_discord.protocol import IDENTIFY_WINDOW_SECONDS
from testing.fake_discord.records import GatewayClose, InteractionRecord, InvalidSession, RestCall, Violation
from testing.fake_discord.resources import Resources
from testing.fake_discord.rest import RestPlumbing
from testing.fake_discord.server import Server
from testing.fake_discord.spec import SpecValidator, spec_or_none
from testing.fake_discord.waiting import Waiters
from testing.fake_discord.world import World


class FakeDiscord(
    Server, Gateway, RestPlumbing, Network, Bodies, Callbacks, Resources, AppCommands, Injection, MessageStore, World
):
    """Fake Discord REST v10 + gateway on 127.0.0.1 with a coherent message store and rule enforcement.

    Starting sessions follows Discord's session start limit: ``GET /gateway/bot`` reports ``max_concurrency``, and an
    IDENTIFY less than ``identify_window`` seconds (Discord: 5) after the previous accepted IDENTIFY of its bucket
    (``shard_id % max_concurrency``), on any connection, gets an INVALID_SESSION (``d: false``), recorded in
    :attr:`invalid_sessions`. Without ``identify_window`` the class default :attr:`default_identify_window` applies;
    :meth:`env` passes the window to a bot as ``DISCORD_IDENTIFY_WINDOW_SECONDS``.

    ``latency`` is the range (seconds) of the uniformly drawn round trip added to every REST answer, and
    ``callback_latency`` the range for interaction callbacks only (``None``: the same as ``latency``); both can be
    changed at run time. Without ``latency`` the class default :attr:`default_latency` applies (the e2e suite's
    conftest sets it). ``seed`` seeds the draws.
    """

    default_latency: ClassVar[tuple[float, float]] = (0.0, 0.0)
    default_identify_window: ClassVar[float] = IDENTIFY_WINDOW_SECONDS
    observers: ClassVar[list[Callable[[FakeDiscord], None]]] = []
    """Called with every new fake (the e2e conftest uses it to fail a test whose fakes refused a body)."""

    def __init__(
        self,
        *,
        token: str | None = None,
        port: int = 0,
        bot_name: str = "TicTacToe",
        guild_name: str = "Test Guild",
        channels: int = 3,
        ack_deadline: float = 3.0,
        token_lifetime: float = 900.0,
        heartbeat_interval_ms: int = 41_250,
        message_events: bool = False,
        allow_unregistered_commands: bool = False,
        latency: tuple[float, float] | None = None,
        callback_latency: tuple[float, float] | None = None,
        seed: int | None = 0,
        guild_shard: tuple[int, int] | None = None,
        spec: SpecValidator | Literal[False] | None = None,
        max_concurrency: int = 1,
        identify_window: float | None = None,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency!r}")
        self.max_concurrency = max_concurrency
        self.identify_window = type(self).default_identify_window if identify_window is None else identify_window
        self.invalid_sessions: list[InvalidSession] = []
        self._last_identify: dict[int, float] = {}  # bucket -> time.monotonic() of its last accepted IDENTIFY
        self.latency = latency if latency is not None else type(self).default_latency
        self.callback_latency = callback_latency
        self.rng = random.Random(seed)
        self.spec: SpecValidator | None = (
            None if spec is False or (spec is None and spec_or_none() is None) else spec or SpecValidator.shared()
        )  # no specification in this clone: bodies go unchecked (the test run says so)
        self.faults: list[Fault] = []
        self.rest_log: list[RestCall] = []
        self.in_flight = 0  # REST requests received and not yet answered
        self.gateway_closes: list[GatewayClose] = []
        self.recommended_shards = 1
        self.private_channels: dict[str, dict[str, Any]] = {}
        self._private_members: dict[str, set[str]] = {}
        self._bot_in_private: set[str] = set()
        self.token = token
        self.port = port
        self.ack_deadline = ack_deadline
        self.token_lifetime = token_lifetime  # s an interaction token works for webhooks (Discord: 15 minutes)
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.message_events = message_events
        self.allow_unregistered_commands = allow_unregistered_commands
        self._last_snowflake = 0
        self.users: dict[str, dict[str, Any]] = {}
        self.application_id = self._snowflake()
        self.bot_user = self.make_user(self.application_id, bot_name, bot=True)
        self.guilds: dict[str, dict[str, Any]] = {}
        self._channel_guild: dict[str, str] = {}
        self._messages: dict[str, dict[str, dict[str, Any]]] = {}
        self.files: dict[str, tuple[dict[str, Any], bytes]] = {}  # attachment id -> (attachment, bytes)
        self._ephemeral_owner: dict[str, str] = {}
        self._commands: dict[str | None, list[dict[str, Any]]] = {}
        self.records: list[InteractionRecord] = []
        self._records_by_id: dict[str, InteractionRecord] = {}
        self._records_by_token: dict[str, InteractionRecord] = {}
        self.violations: list[Violation] = []
        self.unknown_routes: list[str] = []
        self.route_hits: collections.Counter[str] = collections.Counter()
        self.identify_count = 0
        self.identifies: list[dict[str, Any]] = []
        self.gateway_queries: list[dict[str, str]] = []
        self._sessions: dict[str, Session] = {}
        self._connections: list[Connection] = []
        self._conn_counter = 0
        self._stopping = False
        self._waiters = Waiters(self._messages)
        self._runner: web.AppRunner | None = None
        self.default_guild_id = self.add_guild(guild_name, channels=channels, shard=guild_shard)
        for observer in type(self).observers:
            observer(self)

    @property
    def max_first_callback_latency(self) -> float:
        return max((r.latency for r in self.records if r.latency is not None), default=0.0)

    async def wait_for(self, predicate: Callable[[], bool], timeout: float = 5.0) -> None:
        """Wait until ``predicate()`` is true; re-checked on every state change (no polling)."""
        await self._waiters.wait_for(predicate, timeout)

    async def wait_for_message(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 5.0, *, channel_id: str | None = None
    ) -> dict[str, Any]:
        """Return the first message (existing, created or edited) matching ``predicate``.

        With ``channel_id`` only that channel's changes are checked, which keeps hundreds of concurrent waiters cheap.
        """
        return await self._waiters.wait_for_message(predicate, timeout, channel_id)

    def _notify(self, message: dict[str, Any] | None = None) -> None:
        self._waiters.notify(message)
