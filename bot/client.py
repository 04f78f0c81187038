"""The bot: an ``AutoShardedBot`` that never pings anyone and asks Discord only for the ``guilds`` intent.

Commands and button presses arrive as interactions whatever the intents, and the bot reads its old boards
over REST, so it needs no message events: Discord sends it none of the chat in its servers, and discord.py
keeps no message cache.

It wires the game service, the responder and the ``/ttt`` cog together, registers the persistent
board buttons, answers buttons it no longer knows, and shuts down cleanly on SIGTERM or SIGINT.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from concurrent.futures import Executor
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app.choices import refuse_outside_choices
from bot.app.identify import IdentifyPacer
from bot.app.operations import Operations, log_interactions
from bot.app.patches import has_error_handlers, use_endpoints
from bot.app.reach import reach_discord
from bot.config import Settings
from bot.games import codec
from bot.games.ai import AI, fast_executor, hint_executor, search_executor
from bot.games.answers import BotMoved
from bot.games.finished import finished_game
from bot.games.match import Match
from bot.games.pool import SearchPool, variant_executor
from bot.games.renewing import RenewingExecutor
from bot.games.service import GameService
from bot.games.store import RecordsGames
from bot.games.thinking import can_draw
from bot.i18n.translator import CatalogTranslator
from bot.ops.loop_lag import LoopLagMonitor
from bot.records import RecordsStore, RecordWriter, RunningStore, RunningWriter, open_store
from bot.ui.buttons import DYNAMIC_ITEMS, ComponentHandler
from bot.ui.pictures import Drawer, picture_executor
from bot.ui.puzzles import is_puzzle_id
from bot.ui.replies import apologise
from bot.ui.responder import Responder
from bot.ui.stepper import is_step_id
from engine import VARIANTS

__all__ = ["TTTBot", "TTTTree", "run_bot"]

log = logging.getLogger(__name__)

SHUTDOWN_SIGNALS = (signal.SIGTERM, signal.SIGINT)
RECORDS_FLUSH_SECONDS = 2.0
"""At shutdown, how long queued records (finished games first, then running games) may take to be written (the
whole stop must fit in 5 s)."""


class TTTTree(app_commands.CommandTree["TTTBot"]):
    """A command tree that refuses option values outside their choices and apologises for errors no cog handled."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        """``False`` (answered privately, saying what is allowed) for an option value outside its choices."""
        return not await refuse_outside_choices(interaction)

    async def on_error(self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /) -> None:
        """Log an unhandled command error with its traceback and apologise privately."""
        command = interaction.command
        if command is not None and has_error_handlers(command):
            return
        log.error("application command failed: channel=%s", interaction.channel_id, exc_info=error)
        await apologise(interaction)


class TTTBot(commands.AutoShardedBot):
    """The tic-tac-toe bot. ``ttt`` is what the board's buttons call (:class:`bot.ui.buttons.ComponentHandler`),
    set when the ``bot.cogs.ttt`` extension loads."""

    ttt: ComponentHandler

    def __init__(
        self,
        settings: Settings,
        *,
        records: RecordsStore,
        writer: RecordWriter,
        executor: Executor | None = None,
        slow_executor: Executor | None = None,
        hints: Executor | None = None,
        running: RunningWriter | None = None,
    ) -> None:
        shards: dict[str, Any] = {}
        if settings.shard_count is not None:
            shards["shard_count"] = settings.shard_count
        if settings.shard_ids is not None:
            shards["shard_ids"] = list(settings.shard_ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents(guilds=True),
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=TTTTree,
            **shards,
        )
        self.settings = settings
        self.ai = AI(
            executor or fast_executor(),
            slow_executor=slow_executor or RenewingExecutor(search_executor, "plain-minimax pool"),
            hint_executor=hints or RenewingExecutor(hint_executor, "hint pool"),
            pool=SearchPool(RenewingExecutor(variant_executor, "search pool")) if slow_executor is None else None,
        )
        self.records = records
        self.writer = writer
        self.games = GameService(
            self.ai,
            turn_timeout=settings.turn_timeout,
            challenge_timeout=settings.challenge_timeout,
            on_finished=self._finished,
            on_expired=self._expired,
            on_bot_move=self._bot_moved,
            store=None if running is None else RecordsGames(records, running),
        )
        self.responder = Responder(self, self.games, Drawer(RenewingExecutor(picture_executor, "picture pool")))
        self.loop_lag = LoopLagMonitor(report_every=settings.lag_report_every)
        self.identify = IdentifyPacer(settings.identify_window, self._max_concurrency, records)
        self.ops = Operations.for_settings(self, self, settings)
        if settings.log_format == "json":
            log_interactions(self)

    def _finished(self, game: Match) -> None:
        try:
            record = finished_game(game)
        except ValueError:  # a game the records cannot hold must still end on its board
            log.exception("game %s (%s) not recorded: the records refused it", game.game_id, game.variant)
            return
        self.writer.submit(record)

    def _mine(self, game: Match) -> bool:
        """True when ``game``'s channel is served by this process's shards (a DM by shard 0; Discord's routing)."""
        ids, count = self.settings.shard_ids, self.settings.shard_count
        if ids is None or count is None:
            return True
        return (0 if game.guild_id is None else (game.guild_id >> 22) % count) in ids

    def _expired(self, game: Match) -> None:
        self.responder.show_later(game)

    def _bot_moved(self, answer: BotMoved) -> None:
        self.responder.show_bot_move(answer)

    async def setup_hook(self) -> None:
        """Take over the running games stored before (:meth:`GameService.recover`), add the cogs, register the
        persistent buttons, start the search workers, then sync the commands."""
        self.loop_lag.start()
        if self.ops is not None:
            await self.ops.start()
        await self.games.recover(self._mine)  # before any interaction: the games a previous process stored
        await self.load_extension("bot.cogs.ttt")  # sets self.ttt
        await self.load_extension("bot.cogs.records")  # its commands join /ttt
        await self.load_extension("bot.cogs.puzzles")  # /ttt puzzle joins /ttt
        await self.load_extension("bot.cogs.stepper")  # the "How did it think?" stepper's buttons
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.tree.set_translator(CatalogTranslator())
        await self.ai.warm_up()
        await self.responder.drawer.warm_up()
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands to dev guild %s", len(synced), guild_id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d global application commands (may take a while to appear)", len(synced))
        # Everything loaded so far lives as long as the process: keep it out of the collector's passes.
        gc.freeze()

    async def _max_concurrency(self) -> int:
        return (await self.fetch_session_start_limits()).max_concurrency

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait until Discord's session start limit lets shard ``shard_id`` IDENTIFY, counting this bot's other
        processes when they share PostgreSQL (:class:`bot.app.identify.IdentifyPacer`)."""
        await self.identify.before_identify(shard_id or 0)

    async def on_ready(self) -> None:
        """Log who we are and on how many shards."""
        log.info("ready as %s (id %s) on %s shard(s)", self.user, self.user.id if self.user else "?", self.shard_count)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a press on a button this bot does not know (an old format, a forged id): it is no longer active."""
        if self.ops is not None:
            self.ops.attach(interaction)
        if interaction.type is not discord.InteractionType.component:
            return
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        if not codec.is_ours(custom_id) and not is_puzzle_id(custom_id) and not is_step_id(custom_id):
            await self.ttt.inactive_button(interaction)

    async def close(self) -> None:
        """Stop the deadlines, finish background edits, close the gateway (code 1000), stop the search workers."""
        if self.is_closed():
            return
        self.games.close()
        await self.loop_lag.stop()
        await self.responder.close()
        await super().close()
        await self.identify.close()
        await self.ai.shutdown()
        if self.ops is not None:
            await self.ops.close()


async def run_bot(settings: Settings) -> None:
    """Open the records database (migrating it), wait until Discord can be reached (one line per try), connect,
    and run until closed; SIGTERM and SIGINT close the bot cleanly, writing the records still queued.

    Raises:
        RecordsUnavailableError: the records database cannot be reached at start-up.
        discord.LoginFailure: Discord rejected the token.
        discord.ConnectionClosed: the gateway closed the connection for good (e.g. 4004).
    """
    use_endpoints(settings.api_base, settings.gateway_url)
    records = await open_store(settings.database_url)
    log.info("search kernels: %s", ", ".join(f"{name} {game.kernel()}" for name, game in VARIANTS.items()))
    if not can_draw():
        log.warning(
            'Graphviz\'s dot is not installed: "How did it think?" answers in words, without the picture of the '
            "search (Debian: apt-get install graphviz)"
        )
    log.info("Ctrl-C (or SIGTERM) stops the bot cleanly")
    writer = RecordWriter(records)
    writer.start()
    running = RunningWriter(RunningStore(records))
    running.start()
    try:
        async with TTTBot(settings, records=records, writer=writer, running=running) as bot:
            loop = asyncio.get_running_loop()
            for signum in SHUTDOWN_SIGNALS:
                loop.add_signal_handler(signum, _close_soon, bot, signum)
            if await reach_discord(settings.api_base, settings.connect_retry, stopped=bot.is_closed):
                await bot.start(settings.token)
    finally:
        # finished games first: their records are permanent, while a running row only serves a restart (and the
        # running writer keeps taking its turns meanwhile); both share the one budget
        clock = asyncio.get_running_loop()
        deadline = clock.time() + RECORDS_FLUSH_SECONDS
        await writer.close(timeout=RECORDS_FLUSH_SECONDS)
        await running.close(timeout=max(0.0, deadline - clock.time()))
        await records.close()


def _close_soon(bot: TTTBot, signum: int) -> None:
    log.info("received %s: shutting down", signal.Signals(signum).name)
    task = asyncio.get_running_loop().create_task(bot.close(), name="ttt-shutdown")
    _SHUTDOWN.add(task)
    task.add_done_callback(_SHUTDOWN.discard)


_SHUTDOWN: set[asyncio.Task[None]] = set()
