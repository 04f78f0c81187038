"""The bot: an ``AutoShardedBot`` with default (non-privileged) intents that never pings anyone."""

from __future__ import annotations

import gc
import logging
from concurrent.futures import Executor
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.ai import AI, fast_executor, search_executor
from bot.config import Settings
from bot.loop_lag import LoopLagMonitor
from bot.views import DYNAMIC_ITEMS, apologise

__all__ = ["TTTBot", "TTTTree", "run_bot", "use_endpoints"]

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.cogs.ttt",)


def use_endpoints(api_base: str, gateway_url: str) -> None:
    """Point discord.py at another REST API base and gateway (a proxy, or a fake Discord in tests).

    Call before login. A sharded client without a fixed shard count asks ``GET /gateway/bot`` on the
    API base for its gateway URL; with ``DISCORD_SHARD_COUNT`` set it connects to ``gateway_url``.
    """
    discord.http.Route.BASE = api_base.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


class TTTTree(app_commands.CommandTree["TTTBot"]):
    """A command tree that apologises for errors no cog handled."""

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        """Log an unhandled command error with its traceback and apologise privately."""
        command = interaction.command
        if command is not None and command._has_any_error_handlers():
            return
        log.error("application command failed: channel=%s", interaction.channel_id, exc_info=error)
        await apologise(interaction)


class TTTBot(commands.AutoShardedBot):
    """The tic-tac-toe bot: loads the cog, registers the persistent board buttons, syncs the commands."""

    def __init__(
        self, settings: Settings, *, executor: Executor | None = None, slow_executor: Executor | None = None
    ) -> None:
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=TTTTree,
            **shards,
        )
        self.settings = settings
        self.executor = executor or fast_executor()
        self.slow_executor = slow_executor or search_executor()
        self.ai = AI(self.executor, slow_executor=self.slow_executor)
        self.loop_lag = LoopLagMonitor(report_every=settings.lag_report_every)

    async def setup_hook(self) -> None:
        """Load the cog, register the persistent buttons, start the search workers, then sync the commands."""
        self.loop_lag.start()
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.ai.warm_up()
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands to dev guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global application commands (may take a while to appear)", len(synced))
        # Everything loaded so far lives as long as the process: keep it out of the collector's full
        # passes. benchmarks/load.py, 100 games: worst event-loop lag 29 ms -> 7 ms, max latency 56 -> 11 ms.
        gc.freeze()

    async def on_ready(self) -> None:
        """Log who we are and on how many shards."""
        log.info("ready as %s (id %s) on %s shard(s)", self.user, self.user.id if self.user else "?", self.shard_count)

    async def close(self) -> None:
        """Stop the lag monitor, disconnect, and shut the search executors down."""
        await self.loop_lag.stop()
        await super().close()
        self.executor.shutdown(wait=False, cancel_futures=True)
        self.slow_executor.shutdown(wait=False, cancel_futures=True)


async def run_bot(settings: Settings) -> None:
    """Connect and run until closed.

    Raises:
        discord.LoginFailure: Discord rejected the token.
    """
    use_endpoints(settings.api_base, settings.gateway_url)
    async with TTTBot(settings) as bot:
        await bot.start(settings.token)
