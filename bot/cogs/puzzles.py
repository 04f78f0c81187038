"""``/ttt puzzle [variant] [daily]``: find the only winning move, on a board of buttons, rated with Glicko-2.

A discord.py extension (``bot.load_extension("bot.cogs.puzzles")``, after ``bot.cogs.ttt``): its command joins the
``/ttt`` group. Only the player who asked may move; every press is checked against the running puzzle stored in the
records database (the custom_id only names it), under a lock per puzzle, so a puzzle survives a restart and a
forged or stale id changes nothing. A right move gets the stored defence; a wrong one ends the attempt with the
engine's refutation and the solution; the first attempt at a puzzle rates the player and the puzzle.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import random
import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.ttt import GameCommands, command_failed
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.i18n.translator import C_
from bot.puzzles import view
from bot.puzzles.play import Run, by_id, choose, daily, judge, position
from bot.records import PuzzleStore, RecordsStore, RecordsUnavailableError
from bot.text.common import VARIANT_NAMES
from bot.ui.responder import NO_PINGS, defer, private
from engine.puzzles import PUZZLE_VARIANTS
from engine.variants import variant as variant_named

__all__ = ["PuzzleButton", "PuzzleCommands", "setup"]

log = logging.getLogger(__name__)

PUZZLE_CHOICES = [app_commands.Choice(name=VARIANT_NAMES[name], value=name) for name in PUZZLE_VARIANTS]
RECORDS_DOWN = N_("The records database is unavailable right now — try the puzzle again soon.")
NOT_YOURS = N_("Only {owner} can move in this puzzle — /ttt puzzle gives you one of your own.")
OVER = N_("This puzzle is over — /ttt puzzle gives you a new one.")
STALE = N_("That button is from an earlier move of this puzzle.")
ILLEGAL = N_("That move cannot be played here.")
DAILY_DONE = N_("You already tried today's daily puzzle ({result}); {solvers} solved it so far. Come back tomorrow!")
DAILY_OPEN = N_("You already started today's daily puzzle: finish it on its board. One try a day!")
DAILY_SOLVED, DAILY_FAILED = N_("solved"), N_("not solved")
REFUTE_BUDGET_MS = 300.0
Shown = tuple[str, discord.ui.View, "discord.File | None"]
"""A puzzle message after a press: its text, its buttons and the ultimate grid's new picture (``None``: keep it)."""


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
    """``/ttt puzzle`` and the presses on its boards."""

    def __init__(self, client: discord.Client, records: RecordsStore) -> None:
        self.client = client
        self.store = PuzzleStore(records)
        self._locks: dict[int, asyncio.Lock] = {}
        self._rng = random.Random()

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
        tr = lang(str(interaction.locale))
        await defer(interaction)
        try:
            await self._start(interaction, variant, daily, tr)
        except RecordsUnavailableError:
            await private(interaction, tr(RECORDS_DOWN))

    async def _start(
        self, interaction: discord.Interaction[discord.Client], name: str, is_daily: bool, tr: Lang
    ) -> None:
        user, guild = interaction.user.id, interaction.guild_id
        day = datetime.datetime.now(datetime.UTC).date()
        lines: list[str] = []
        solvers = 0
        if is_daily:
            puzzle = daily(name, day, guild)
            solvers = await self.store.daily_solvers(guild, day.isoformat(), puzzle.id)
            lines.append(tr(view.DAILY, day=day.isoformat(), solvers=solvers))
        ratings = await self.store.puzzle_ratings(name)
        if not is_daily:
            player = await self.store.player(user, name)
            puzzle = choose(name, player.rating, await self.store.attempted(user, name), ratings, self._rng)
        rating = ratings[puzzle.id].rating if puzzle.id in ratings else puzzle.rating
        run = await self.store.start(Run(0, user, guild, name, puzzle.id, daily=day.isoformat() if is_daily else None))
        if run is None:  # the player's daily try is taken (finished, still open, or asked at the same instant)
            return await self._daily_done(interaction, day.isoformat(), puzzle.id, solvers, tr)
        text = view.status_text(puzzle, 0, view.header(puzzle, rating, tr), lines)
        await self._edit(interaction, text, view.puzzle_view(run, tr), await self._picture(run, 0))

    async def _daily_done(
        self, interaction: discord.Interaction[discord.Client], day: str, puzzle_id: str, solvers: int, tr: Lang
    ) -> None:
        """Refuse a second daily try: the first one's result, or that it is still open."""
        done = await self.store.daily_result(interaction.user.id, interaction.guild_id, day, puzzle_id)
        if done is None:
            return await private(interaction, tr(DAILY_OPEN))
        result = tr(DAILY_SOLVED if done else DAILY_FAILED)
        await private(interaction, tr(DAILY_DONE, result=result, solvers=solvers))

    async def press(self, interaction: discord.Interaction[discord.Client], run_id: int, ply: int, key: str) -> None:
        """Judge a press: refused privately unless it is the owner's, on the puzzle's current move.

        The press is acknowledged first (the engine may take a moment to refute a wrong move); the decision is made
        and stored under the puzzle's lock, and shown after it (no Discord call is awaited under the lock).
        """
        tr = lang(str(interaction.locale))
        await interaction.response.defer()
        try:
            async with self._locks.setdefault(run_id, asyncio.Lock()):
                answer = await self._decide(interaction.user.id, run_id, ply, key, tr)
        except RecordsUnavailableError:
            answer = tr(RECORDS_DOWN)
        if isinstance(answer, str):
            return await private(interaction, answer)
        text, components, file = answer
        files = [file] if file is not None else discord.utils.MISSING
        await interaction.edit_original_response(
            content=text, view=components, attachments=files, allowed_mentions=NO_PINGS
        )

    async def _decide(self, user_id: int, run_id: int, ply: int, key: str, tr: Lang) -> str | Shown:
        """The refusal's text, or the message after the press (stored first)."""
        run = await self.store.run(run_id)
        if run is None or run.puzzle_id not in by_id(run.variant):  # over, or no longer in the shipped set
            self._locks.pop(run_id, None)
            return tr(OVER)
        if run.user_id != user_id:
            return tr(NOT_YOURS, owner=f"<@{run.user_id}>")
        if ply != run.progress:
            return tr(STALE)
        puzzle = run.puzzle
        rules = variant_named(puzzle.variant)
        rated_now = (await self.store.puzzle_ratings(puzzle.variant)).get(puzzle.id)
        head = view.header(puzzle, rated_now.rating if rated_now else puzzle.rating, tr)
        if key == "k" or key.startswith("b"):
            board = -1 if key == "k" else int(key[1:])
            if board >= 0 and (
                not variant_named(puzzle.variant).block or board not in position(puzzle, ply).playable_boards
            ):
                return tr(ILLEGAL)
            run = Run(run.run_id, run.user_id, run.guild_id, run.variant, run.puzzle_id, ply, board, run.daily)
            await self.store.advance(run)
            return view.status_text(puzzle, ply, head, []), view.puzzle_view(run, tr), None
        cell = int(key)
        try:
            verdict = await asyncio.to_thread(judge, puzzle, ply, cell, self._refute(puzzle.variant))
        except ValueError:
            return tr(ILLEGAL)
        name = rules.cell_name(cell)
        if verdict.outcome == "right":
            assert verdict.reply is not None
            run = Run(run.run_id, run.user_id, run.guild_id, run.variant, run.puzzle_id, ply + 2, -1, run.daily)
            await self.store.advance(run)
            line = tr(view.RIGHT, cell=name, reply=rules.cell_name(verdict.reply))
            text = view.status_text(puzzle, ply + 2, head, [line])
            return text, view.puzzle_view(run, tr), await self._picture(run, ply + 2)
        solved = verdict.outcome == "solved"
        attempt = await self.store.finish(run, solved)
        self._locks.pop(run_id, None)
        if attempt is None:
            return tr(OVER)
        before, after = attempt
        if solved:
            lines, shown = [tr(view.SOLVED, cell=name)], len(puzzle.line)
        else:
            refuted = verdict.reply is not None
            lines = [tr(view.REFUTED, cell=name, reply=rules.cell_name(verdict.reply or 0)) if refuted
                     else tr(view.WRONG, cell=name)]  # fmt: skip
            lines.append(tr(view.SOLUTION, line=" ".join(rules.cell_name(c) for c in puzzle.line[ply:])))
            shown = ply
        rated = tr(view.RATED, before=round(before.rating), after=round(after.rating)) if after else tr(view.UNRATED)
        text = view.status_text(puzzle, shown, head, [*lines, rated])
        return text, view.puzzle_view(run, tr, live=False), await self._picture(run, shown)

    @staticmethod
    async def _picture(run: Run, progress: int) -> discord.File | None:
        return await asyncio.to_thread(view.picture, run.puzzle, progress)

    @staticmethod
    async def _edit(
        interaction: discord.Interaction[discord.Client], text: str, components: discord.ui.View, file: Any = None
    ) -> None:
        files = [file] if file is not None else discord.utils.MISSING
        await interaction.edit_original_response(
            content=text, view=components, attachments=files, allowed_mentions=NO_PINGS
        )

    def _refute(self, name: str) -> Any:
        rules = variant_named(name)

        def refute(state: Any) -> int:
            return rules.best_move(state, REFUTE_BUDGET_MS, random.Random(0)).cell

        return refute


async def setup(bot: commands.Bot) -> None:
    """discord.py's extension entry point, after ``bot.cogs.ttt`` (its command joins ``/ttt``)."""
    records = getattr(bot, "records", None)
    assert isinstance(records, RecordsStore), "the bot keeps its records store as bot.records"
    bot.add_dynamic_items(PuzzleButton)
    await bot.add_cog(PuzzleCommands(bot, records), override=True)
