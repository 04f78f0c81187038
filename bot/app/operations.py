"""Attach the metrics and health checks to a running bot, observing it from outside its handlers.

:class:`Operations` wraps discord.py's interaction parser and interaction-callback adapter
(:mod:`bot.ops.interactions`, through :mod:`bot.app.patches`), listens to the shard events, chains the game
service's start and finish callbacks, wraps the records store's batch write, and sets the search and loop-lag
hooks. Nothing of this is installed when ``METRICS_PORT`` is unset.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from discord.ext import commands
from sqlalchemy import text

from bot.app import patches
from bot.config import ConfigError
from bot.ops.health import DatabaseHealth, ShardHealth
from bot.ops.interactions import InteractionTracker
from bot.ops.logs import interaction_context
from bot.ops.metrics import Metrics, Readings
from bot.ops.server import OpsServer
from bot.records import RecordsUnavailableError

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.games.ai import AI
    from bot.games.match import Match
    from bot.games.service import GameService
    from bot.ops.loop_lag import LoopLagMonitor
    from bot.records import FinishedGame, RecordsStore, RecordWriter
    from engine import EngineMove

__all__ = ["Operations", "Served", "log_interactions"]


class Served(Protocol):
    """The parts of the running bot the operations observe and hook (the client, :class:`bot.client.TTTBot`, holds
    them): the game service, the AI, the records store and its writer, the event loop's lag monitor."""

    games: GameService
    ai: AI
    records: RecordsStore
    writer: RecordWriter
    loop_lag: LoopLagMonitor


log = logging.getLogger(__name__)


def log_interactions(bot: commands.AutoShardedBot) -> None:
    """Give every interaction handler of ``bot`` its log context (shard, guild, channel), set where discord.py
    parses the gateway's ``INTERACTION_CREATE`` and creates the handler's task."""

    def wrap(data: dict[str, Any], parse: Callable[[], None]) -> None:
        guild = data.get("guild_id")
        count = bot.shard_count or 1
        shard = (int(guild) >> 22) % count if guild else 0
        interaction_context(shard, guild, data.get("channel_id"), parse)

    patches.wrap_interaction_parser(bot, wrap)


class Operations:
    """The metrics of ``bot`` (the Discord client) and its ``parts``, ``/livez`` and ``/readyz`` on ``host:port``;
    the database is probed every ``probe_every`` seconds."""

    def __init__(
        self, bot: commands.AutoShardedBot, parts: Served, host: str, port: int, *, probe_every: float = 15.0
    ) -> None:
        self.bot = bot
        self.parts = parts
        self.metrics = Metrics()
        self.tracker = InteractionTracker(self.metrics)
        self.shards = ShardHealth(on_reconnect=lambda shard: self.metrics.reconnects_by(str(shard)).inc())
        self.database = DatabaseHealth(self._ping, probe_every=probe_every)
        self.server = OpsServer(self.metrics.registry, self.not_ready, host, port)
        self._tasks: list[asyncio.Task[None]] = []
        self.metrics.watch(
            Readings(
                games_running=lambda: len(parts.games),
                search_queue=lambda: parts.ai.pending,
                records_queue=lambda: parts.writer.pending,
                gateway_latency=lambda: {shard: info.latency for shard, info in bot.shards.items()},
                shards_connected=self._shard_state,
                database_up=lambda: self.database.ready,
            )
        )
        self._hook()

    @classmethod
    def for_settings(cls, bot: commands.AutoShardedBot, parts: Served, settings: Settings) -> Operations | None:
        """The operations of ``bot`` and its ``parts`` as ``settings`` ask, or ``None`` when ``METRICS_PORT`` is
        unset."""
        if settings.metrics_port is None:
            return None
        port, probe_every = settings.metrics_port, settings.ready_probe_every
        return cls(bot, parts, settings.metrics_host, port, probe_every=probe_every)

    def _hook(self) -> None:
        bot, parts, metrics = self.bot, self.parts, self.metrics
        tracker = self.tracker

        def arrived(data: dict[str, Any], parse: Callable[[], None]) -> None:
            tracker.arrived(data)
            parse()

        patches.wrap_interaction_parser(bot, arrived)
        hooks = parts.games.hooks
        started, finished = hooks.on_started, hooks.on_finished

        def on_started(game: Match) -> None:
            metrics.games_started_by(game.variant).inc()
            if started is not None:
                started(game)

        def on_finished(game: Match) -> None:
            metrics.games_finished_by(game.variant, str(game.end_reason)).inc()
            if finished is not None:
                finished(game)

        hooks.on_started, hooks.on_finished = on_started, on_finished
        hooks.on_search_failed = lambda game, stage: metrics.search_failures_by(game.variant, stage).inc()
        parts.ai.on_search = self._searched
        parts.loop_lag.on_sample = metrics.loop_lag.observe
        save_many = parts.records.save_many

        async def counted_save_many(batch: Sequence[FinishedGame]) -> int:
            try:
                stored = await save_many(batch)
            except Exception as error:
                metrics.records_failures.inc()
                if isinstance(error, RecordsUnavailableError):  # not a row the database refused
                    self.database.failed()
                raise
            metrics.records_written.inc(len(batch))
            metrics.records_last_write.set_to_current_time()
            self.database.answered()
            return stored

        parts.records.save_many = counted_save_many  # type: ignore[method-assign]
        bot.add_listener(self._connected, "on_shard_connect")
        bot.add_listener(self._connected, "on_shard_resumed")
        bot.add_listener(self._disconnected, "on_shard_disconnect")

    def _searched(self, game: Match, decision: EngineMove) -> None:
        labels = (game.variant, game.algorithm)
        self.metrics.search_seconds_by(*labels).observe(decision.elapsed_ms / 1000)
        self.metrics.search_states_by(*labels).observe(decision.states)

    async def _connected(self, shard_id: int) -> None:
        self.metrics.reconnects_by(str(shard_id))  # exported as 0 from the first connection: increase() sees them
        self.shards.connected(shard_id)

    async def _disconnected(self, shard_id: int) -> None:
        self.shards.disconnected(shard_id)

    def _shard_state(self) -> dict[int, bool]:
        expected = self.bot.shard_ids or range(self.bot.shard_count or 0)
        self.shards.expect(expected)
        return self.shards.state()

    def not_ready(self) -> list[str]:
        """What keeps the process from being ready: ``shard N`` for each shard not connected, and ``records
        database`` when it has not answered within a minute. Empty when ready."""
        self._shard_state()
        missing = self.shards.not_ready()
        if not self.database.ready:
            missing.append("records database")
        return missing

    async def _ping(self) -> None:
        async with self.parts.records.engine.connect() as connection:
            await connection.execute(text("SELECT 1"))

    def attach(self, interaction: Any) -> None:
        """The bot's ``on_interaction``: keep the interaction to read the result its handler notes."""
        self.tracker.attach(interaction)

    async def start(self) -> None:
        """Listen, and start the probe and the interaction deadline.

        Raises:
            ConfigError: the port cannot be bound (in use, or not allowed).
        """
        try:
            await self.server.start()
        except OSError as error:
            where = f"{self.server.host}:{self.server.port}"
            reason = os.strerror(error.errno) if error.errno else str(error)
            raise ConfigError(f"METRICS_HOST and METRICS_PORT: cannot listen on {where} ({reason})") from None
        patches.install_adapter_hook(self.tracker.callback)
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self.tracker.run(), name="ops-interaction-deadlines"),
            loop.create_task(self.database.run(), name="ops-database-probe"),
        ]

    async def close(self) -> None:
        """Stop listening and stop the background tasks."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []
        patches.uninstall_adapter_hook(self.tracker.callback)
        await self.server.close()
