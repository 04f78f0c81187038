"""Option values outside a command's declared choices: Discord's own clients offer only the choices, but an
interaction is the client's word, and a modified client can send any value. The tree refuses such a command
privately, naming what is allowed, before any cog sees it (:meth:`bot.client.TTTTree.interaction_check`)."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.i18n import N_
from bot.i18n.lang import lang
from bot.ui.replies import private

__all__ = ["OUTSIDE_CHOICES", "outside_choices", "refuse_outside_choices"]

log = logging.getLogger(__name__)

OUTSIDE_CHOICES = N_("`{value}` is not a choice for {option}: choose one of {allowed}.")
_SHOWN_CHARACTERS = 40


def outside_choices(interaction: discord.Interaction[discord.Client]) -> tuple[str, str, list[str]] | None:
    """The first option of the interaction's command whose value is not one of its choices, as ``(option, value,
    allowed values)``; ``None`` when every value is allowed (or the command declares no choices)."""
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return None
    for parameter in command.parameters:
        value = getattr(interaction.namespace, parameter.display_name, None)
        allowed = [choice.value for choice in parameter.choices]
        if value is not None and allowed and value not in allowed:
            return parameter.display_name, str(value), [str(choice) for choice in allowed]
    return None


async def refuse_outside_choices(interaction: discord.Interaction[discord.Client]) -> bool:
    """Answer privately, and return ``True``, when an option value is outside its choices (logged at INFO: a
    modified client, not a fault of the bot)."""
    found = outside_choices(interaction)
    if found is None:
        return False
    option, value, allowed = found
    shown = value.replace("`", "'")[:_SHOWN_CHARACTERS]
    log.info(
        "refused /%s: %s=%r is not one of its choices",
        interaction.command.qualified_name if interaction.command else "?",
        option,
        shown,
    )
    interaction.extras["result"] = "refused"  # bot.ops.interactions.RESULT_KEY
    tr = lang(str(interaction.locale))
    await private(interaction, tr(OUTSIDE_CHOICES, value=shown, option=option, allowed=", ".join(allowed)))
    return True
