"""``/ttt puzzle [variant] [daily]``: find the only winning move, on a board of buttons, rated with Glicko-2.

A discord.py extension (``bot.load_extension("bot.cogs.puzzles")``, after ``bot.cogs.ttt``): its command joins the
``/ttt`` group. It only translates: the command and the presses go to the puzzle service
(:class:`bot.puzzles.service.PuzzleService`, which decides and stores), and its answers are shown with
:mod:`bot.ui.puzzles`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.ttt import GameCommands, command_failed
from bot.i18n import N_
from bot.i18n.lang import lang
from bot.i18n.translator import C_
from bot.puzzles.service import PuzzleAnswer, PuzzleRefusal, PuzzleService
from bot.records import PuzzleStore, RecordsStore
from bot.ui import puzzles as view
from bot.ui.replies import NO_PINGS, defer, private
from engine import variant as variant_named
from engine.puzzles import PUZZLE_VARIANTS

__all__ = ["PuzzleButton", "PuzzleCommands", "setup"]

log = logging.getLogger(__name__)

PUZZLE_CHOICES = [app_commands.Choice(name=variant_named(name).title, value=name) for name in PUZZLE_VARIANTS]


class PuzzleButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=view.ID_TEMPLATE):
    """A press on a puzzle's button: the run, the ply it was drawn at and the key (cell, ``b<board>``, ``k``)."""

    def __init__(self, run_id: int, ply: int, key: str) -> None:
        super().__init__(discord.ui.Button(custom_id=f"tpz:{run_id}:{ply}:{key}"))
        self.run_id, self.ply, self.key = run_id, ply, key

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PuzzleButton:
        """Read the press from the pressed ``custom_id``."""
        return cls(int(match["run"]), int(match["ply"]), match["key"])

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the cog."""
        cog = (
            interaction.client.get_cog("PuzzleCommands")
            if isinstance(interaction.client, commands.bot.BotBase)
            else None
        )
        if isinstance(cog, PuzzleCommands):
            await cog.press(interaction, self.run_id, self.ply, self.key)


class PuzzleCommands(commands.Cog):
    """``/ttt puzzle`` and the presses on its boards, handed to ``service``."""

    def __init__(self, client: discord.Client, service: PuzzleService) -> None:
        self.client = client
        self.service = service

    async def cog_load(self) -> None:
        """Add the command to ``/ttt``.

        Raises:
            RuntimeError: the ``GameCommands`` cog (``bot.cogs.ttt``) is not loaded.
        """
        ttt = self.client.get_cog("GameCommands") if isinstance(self.client, commands.bot.BotBase) else None
        if not isinstance(ttt, GameCommands):
            raise RuntimeError("load the bot.cogs.ttt extension before bot.cogs.puzzles")
        ttt.add_subcommands([c for c in self.get_app_commands() if isinstance(c, app_commands.Command)])

    async def cog_app_command_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        """Log and apologise, as every ``/ttt`` command does."""
        await command_failed(interaction, error)

    @app_commands.command(name=C_("command name", "puzzle"), description=N_("Find the only winning move"))
    @app_commands.describe(
        variant=N_("The game (default: 4x4)"), daily=N_("The server's puzzle of the day, the same for everyone")
    )
    @app_commands.choices(variant=PUZZLE_CHOICES)
    async def puzzle_command(
        self, interaction: discord.Interaction[discord.Client], variant: str = "4x4", daily: bool = False
    ) -> None:
        """/ttt puzzle: a puzzle near the player's puzzle rating, or the server's daily one."""
        await defer(interaction)
        answer = await self.service.start(interaction.user.id, interaction.guild_id, variant, is_daily=daily)
        await self._show(interaction, answer)

    async def press(self, interaction: discord.Interaction[discord.Client], run_id: int, ply: int, key: str) -> None:
        """A press on a puzzle's button: acknowledged first (the engine may take a moment to refute a wrong move),
        decided by the service, then shown (a refusal privately)."""
        await interaction.response.defer()
        await self._show(interaction, await self.service.press(interaction.user.id, run_id, ply, key))

    @staticmethod
    async def _show(interaction: discord.Interaction[discord.Client], answer: PuzzleAnswer) -> None:
        tr = lang(str(interaction.locale))
        if isinstance(answer, PuzzleRefusal):
            return await private(interaction, view.refusal_text(answer, tr))
        text, components = view.shown_message(answer, tr)
        file = await asyncio.to_thread(view.picture, answer.run.puzzle, answer.progress) if answer.picture else None
        files = [file] if file is not None else discord.utils.MISSING
        await interaction.edit_original_response(
            content=text, view=components, attachments=files, allowed_mentions=NO_PINGS
        )


async def setup(bot: commands.Bot) -> None:
    """discord.py's extension entry point, after ``bot.cogs.ttt`` (its command joins ``/ttt``)."""
    records = getattr(bot, "records", None)
    assert isinstance(records, RecordsStore), "the bot keeps its records store as bot.records"
    bot.add_dynamic_items(PuzzleButton)
    await bot.add_cog(PuzzleCommands(bot, PuzzleService(PuzzleStore(records))), override=True)
