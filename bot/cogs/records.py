"""The record commands, a cog of their own: ``/ttt stats``, ``/ttt leaderboard`` and ``/ttt review`` read the records
store, answer in the interaction's language, and say privately when the records database cannot be reached.

A discord.py extension (``bot.load_extension("bot.cogs.records")``, after ``bot.cogs.ttt``): its commands join the
``/ttt`` group of :class:`~bot.cogs.ttt.GameCommands` when the cog loads, so the synced ``/ttt`` is one group.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TTTBot
from bot.cogs.ttt import VARIANT_CHOICES, GameCommands, command_failed
from bot.games.ids import typed_game_id
from bot.games.levels import beatable_side
from bot.games.service import GameService
from bot.i18n import N_
from bot.i18n.lang import lang
from bot.i18n.translator import C_
from bot.records import PuzzleStore, Rating, RecordsStore, RecordsUnavailableError, RecordWriter
from bot.records.fresh import FreshRecords
from bot.text.common import in_code
from bot.text.grid import DEFAULT_VARIANT
from bot.text.records import (
    Beatable,
    bot_record_text,
    bot_records_text,
    leaderboard_text,
    rating_text,
    short_variant_name,
    stats_text,
)
from bot.text.review import review_text
from bot.ui.puzzles import puzzle_line
from bot.ui.replies import NO_PINGS, defer, private
from engine import VARIANTS
from engine.puzzles import PUZZLE_VARIANTS

__all__ = ["RECORDS_DOWN", "RecordCommands", "setup"]


Interaction = discord.Interaction[TTTBot]
RECORDS_DOWN = N_("The records database is unavailable right now — games go on and are recorded later. Try again soon.")
REVIEW_RUNNING = N_("This game is still running — `/ttt hint` shows every free cell's outcome instead.")
REVIEW_UNKNOWN = N_("No finished game has the id `{game_id}` — the id is shown under a game's final board.")
REVIEW_NONE = N_("No game has finished in this channel yet — finish one, or give a game id.")
REVIEW_ELSEWHERE = N_("Game `{game_id}` was played in another server or conversation — review it there.")


class RecordCommands(commands.Cog):
    """The record-reading commands. Each defers first: a database can take longer than Discord's 3 s.

    Its application commands are ``/ttt`` subcommands: :meth:`cog_load` adds them to the ``/ttt`` group of the
    loaded :class:`~bot.cogs.ttt.GameCommands` cog (bound to this cog), :meth:`cog_unload` takes them out again.
    """

    def __init__(
        self,
        client: discord.Client,
        service: GameService,
        records: RecordsStore,
        writer: RecordWriter,
        puzzles: PuzzleStore | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.records = records
        self.writer = writer
        self.fresh = FreshRecords(records, writer)
        self.puzzles = puzzles or PuzzleStore(records)
        self._names: list[str] = []

    async def cog_load(self) -> None:
        """Add the commands to ``/ttt``.

        Raises:
            RuntimeError: the ``GameCommands`` cog (``bot.cogs.ttt``) is not loaded.
        """
        ttt = self._ttt()
        if ttt is None:
            raise RuntimeError("load the bot.cogs.ttt extension before bot.cogs.records")
        subcommands = [c for c in self.get_app_commands() if isinstance(c, app_commands.Command)]
        ttt.add_subcommands(subcommands)
        self._names = [command.name for command in subcommands]

    async def cog_unload(self) -> None:
        """Take the commands out of ``/ttt``."""
        ttt = self._ttt()
        if ttt is not None:
            ttt.remove_subcommands(self._names)

    def _ttt(self) -> GameCommands | None:
        cog = self.client.get_cog("GameCommands") if isinstance(self.client, commands.bot.BotBase) else None
        return cog if isinstance(cog, GameCommands) else None

    async def cog_app_command_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        """Log and apologise for an error, as every ``/ttt`` command does."""
        await command_failed(interaction, error)

    # ---- commands -------------------------------------------------------------------------------

    @app_commands.command(
        name=C_("command name", "stats"), description=N_("Wins, draws and losses against the bot and against people")
    )
    @app_commands.describe(
        user=N_("Whose record to show (default: yours; the bot: its record per level)"),
        variant=N_("Only the games of this variant (default: all of them)"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def stats_command(
        self, interaction: Interaction, user: discord.User | None = None, variant: str | None = None
    ) -> None:
        """/ttt stats: a player's wins, draws and losses and ratings from the records database (the bot's, per variant
        and level)."""
        await self.stats(interaction, user or interaction.user, variant)

    @app_commands.command(
        name=C_("command name", "leaderboard"), description=N_("The top 10 ratings against the bot and against people")
    )
    @app_commands.describe(
        scope=N_("The players of this server, or of every server"),
        variant=N_("The game rated (default: 3x3)"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def leaderboard_command(
        self, interaction: Interaction, scope: Literal["server", "global"] = "server", variant: str = DEFAULT_VARIANT
    ) -> None:
        """/ttt leaderboard: the top 10 ratings, as /ttt help explains (outside a server, every server's players)."""
        await self.leaderboard(interaction, everywhere=scope == "global", variant=variant)

    @app_commands.command(
        name=C_("command name", "rating"), description=N_("A player's rating, games and best level beaten in a game")
    )
    @app_commands.describe(
        user=N_("Whose rating to show (default: yours)"), variant=N_("The game rated (default: 3x3)")
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rating_command(
        self, interaction: Interaction, user: discord.User | None = None, variant: str = DEFAULT_VARIANT
    ) -> None:
        """/ttt rating: a player's Glicko-2 ratings in ``variant`` against the bot and against people."""
        await self.rating(interaction, user or interaction.user, variant)

    @app_commands.command(
        name=C_("command name", "review"),
        description=N_("A finished game move by move: best moves, mistakes, blunders"),
    )
    @app_commands.describe(game=N_("The game's id, shown when it ended (default: this channel's last finished game)"))
    async def review_command(self, interaction: Interaction, game: str | None = None) -> None:
        """/ttt review: a finished game's every ply labelled and valued, privately (read from the records)."""
        await self.review(interaction, (game or "").strip() or None)

    # ---- what they do ---------------------------------------------------------------------------

    async def stats(self, interaction: Interaction, target: discord.abc.User, variant: str | None = None) -> None:
        """``target``'s W/D/L against the bot and against people (in ``variant``'s games, or all) and their ratings
        against the bot (``variant``'s, or every variant's they played); the bot's own record per variant and level
        (per level in ``variant``)."""
        tr = lang(str(interaction.locale))
        await defer(interaction)
        name = target.mention if variant is None else f"{target.mention} · {short_variant_name(variant, tr)}"
        try:
            if self.client.user is not None and target.id == self.client.user.id and variant is None:
                records = await self.fresh.bot_records()
                text = bot_records_text(name, records, tr, await self._beatable(records))
            elif self.client.user is not None and target.id == self.client.user.id:
                shown = variant or DEFAULT_VARIANT
                record = (await self.fresh.bot_records(shown))[shown]
                text = bot_record_text(name, shown, record, tr, await self._beatable([shown]))
            else:
                stats = await self.fresh.user_stats(target.id, variant=variant)
                text = stats_text(name, stats, tr, await self._bot_ratings(target.id, variant))
        except RecordsUnavailableError:
            return await private(interaction, tr(RECORDS_DOWN))
        await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)

    async def _beatable(self, variants: Iterable[str]) -> Beatable:
        """The bot's record per level on the side that loses with perfect play, for each of ``variants`` that has one
        (:func:`bot.games.levels.beatable_side`: on a first-player win, the games it played second)."""
        found = {}
        for shown in variants:
            if (side := beatable_side(shown)) is not None:
                found[shown] = (side, (await self.fresh.bot_records(shown, side=side.value))[shown])
        return found

    async def _bot_ratings(self, user_id: int, variant: str | None) -> dict[str, Rating]:
        """``user_id``'s ratings against the bot: ``variant``'s, or (``None``) every variant's they played, else
        3x3's starting rating."""
        found = {v: (await self.fresh.ratings(user_id, v))["bot"] for v in ([variant] if variant else VARIANTS)}
        if variant is not None:
            return found
        return {v: r for v, r in found.items() if r.games} or {DEFAULT_VARIANT: found[DEFAULT_VARIANT]}

    async def rating(self, interaction: Interaction, target: discord.abc.User, variant: str) -> None:
        """``target``'s ratings in ``variant`` (the starting rating before a rated game)."""
        tr = lang(str(interaction.locale))
        await defer(interaction)
        try:
            ratings = await self.fresh.ratings(target.id, variant)
            puzzles = await self.puzzles.player(target.id, variant) if variant in PUZZLE_VARIANTS else None
        except RecordsUnavailableError:
            return await private(interaction, tr(RECORDS_DOWN))
        name = f"{target.mention} · {short_variant_name(variant, tr)}"
        text = rating_text(name, variant, ratings, tr) + ("" if puzzles is None else "\n" + puzzle_line(puzzles, tr))
        await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)

    async def leaderboard(self, interaction: Interaction, *, everywhere: bool, variant: str = DEFAULT_VARIANT) -> None:
        """The top 10 ratings in ``variant`` of this server's players, or of every server's (``everywhere``, and
        always outside a server)."""
        tr = lang(str(interaction.locale))
        everywhere = everywhere or interaction.guild_id is None
        await defer(interaction)
        try:
            board = await self.records.leaderboard(None if everywhere else interaction.guild_id, variant=variant)
        except RecordsUnavailableError:
            return await private(interaction, tr(RECORDS_DOWN))
        text = leaderboard_text(board, variant, everywhere=everywhere, tr=tr)
        await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)

    async def review(self, interaction: Interaction, typed: str | None) -> None:
        """A stored game move by move, privately: that of the id ``typed`` (:func:`bot.games.ids.typed_game_id`), or
        the channel's last finished game.

        Refused, privately and with the reason: a game still running, an unknown id (or a text no id can be: no query
        is made), a game from another server or conversation, a channel without a finished game, an unreachable
        database.
        """
        tr = lang(str(interaction.locale))
        game_id = typed_game_id(typed) if typed else None
        if typed and game_id is None:
            return await private(interaction, tr(REVIEW_UNKNOWN, game_id=in_code(typed)))
        running = self.service.current(interaction.channel_id or 0)
        if running is not None and game_id == running.game_id:
            return await private(interaction, tr(REVIEW_RUNNING))
        await defer(interaction, ephemeral=True)
        try:
            channel_id = interaction.channel_id or 0
            stored = await (self.fresh.game(game_id) if game_id else self.fresh.last_game(channel_id))
        except RecordsUnavailableError:
            return await private(interaction, tr(RECORDS_DOWN))
        if stored is None:
            if game_id:
                return await private(interaction, tr(REVIEW_UNKNOWN, game_id=in_code(game_id)))
            return await private(interaction, tr(REVIEW_RUNNING if running is not None else REVIEW_NONE))
        if stored.guild_id != interaction.guild_id:
            return await private(interaction, tr(REVIEW_ELSEWHERE, game_id=stored.game_id))
        plies = await self.service.ai.review(stored.variant, stored.moves)
        await private(interaction, review_text(stored, plies, tr))


async def setup(bot: TTTBot) -> None:
    """discord.py's extension entry point (``bot.load_extension("bot.cogs.records")``, after ``bot.cogs.ttt``).

    The cog is added with ``override=True``: discord.py adds the root of each of a cog's commands to the tree, and
    the root of these is ``/ttt``, the group already there (it is put back as it is; nothing is replaced).
    """
    await bot.add_cog(RecordCommands(bot, bot.games, bot.records, bot.writer), override=True)
