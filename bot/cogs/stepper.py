"""The presses on the "How did it think?" stepper (:mod:`bot.ui.stepper`): Step through opens it privately, Next,
Back, Into, Out and Next cut move it.

A discord.py extension (``bot.load_extension("bot.cogs.stepper")``). The board a stepper names is checked against the
game held in the channel (:meth:`bot.games.service.GameService.explained`, the check of "How did it think?"), and the
search is recomputed on each press off the event loop (:meth:`engine.Variant.stepped`, the game's answer: 3x3 at most
231 states, a few ms; 4x4 and 5x5 near the end, at most about 0.03 s).
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
from discord.ext import commands

from bot.cogs._presses import actor
from bot.games.answers import Refusal
from bot.games.service import GameService
from bot.i18n.lang import lang
from bot.text.hints import refusal_text
from bot.ui import stepper
from bot.ui.replies import NO_PINGS, private
from engine import GameOverError, IllegalMoveError

__all__ = ["StepButton", "StepperPresses", "setup"]


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=stepper.ID_TEMPLATE):
    """A press on a stepper's button (:func:`bot.ui.stepper.read_step`)."""

    def __init__(self, press: stepper.StepPress, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.press = press

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StepButton:
        """Read the press from the pressed ``custom_id``."""
        return cls(stepper.read_step(match), match.string)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the cog."""
        client = interaction.client
        cog = client.get_cog("StepperPresses") if isinstance(client, commands.bot.BotBase) else None
        if isinstance(cog, StepperPresses):
            await cog.press(interaction, self.press)


class StepperPresses(commands.Cog):
    """The stepper's presses, checked against ``service``'s games."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def press(self, interaction: discord.Interaction[discord.Client], press: stepper.StepPress) -> None:
        """Show the step ``press`` names: a new private message for Step through, else the stepper edited in place.
        A board the game held does not have, or a step the search does not have, is refused privately."""
        tr = lang(str(interaction.locale))
        found = self.service.explained(actor(interaction), press.game_id, press.moves, hint=press.hint)
        if isinstance(found, Refusal):
            interaction.extras["result"] = "refused"  # bot.ops.interactions.RESULT_KEY
            await private(interaction, refusal_text(found.key, found.values, tr))
            return
        try:
            if found is None:  # no game held (a restart): "How did it think?" loads it again
                raise LookupError("no game held")
            game, cells, played = found
            tree = await asyncio.to_thread(game.kind.stepped, cells, played)
            content, view = stepper.stepper_message(tree, press, tr)
        except (LookupError, ValueError, IllegalMoveError, GameOverError):  # no game; ultimate; a step it does not have
            interaction.extras["result"] = "refused"
            await private(interaction, tr(stepper.GONE))
            return
        if press.action == "s":
            await private(interaction, content, view=view)
        else:
            await interaction.response.edit_message(content=content, view=view, allowed_mentions=NO_PINGS)


async def setup(bot: commands.Bot) -> None:
    """discord.py's extension entry point: the stepper's buttons and their cog (the bot keeps its games as
    ``bot.games``)."""
    service = getattr(bot, "games", None)
    assert isinstance(service, GameService), "the bot keeps its game service as bot.games"
    bot.add_dynamic_items(StepButton)
    await bot.add_cog(StepperPresses(service), override=True)
