"""Private replies and acknowledgements of one interaction: defer, an ephemeral answer, an apology, and whether a
failed answer may still have reached Discord (:mod:`bot.ui.responder` sends the boards)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord

from bot.i18n.lang import lang
from bot.text.common import ERROR
from bot.text.help import HelpPage

__all__ = ["ALREADY_ACKNOWLEDGED", "NO_PINGS", "answer_unknown", "apologise", "defer", "help_embed", "private"]

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
ALREADY_ACKNOWLEDGED = 40060


def answer_unknown(error: Exception) -> bool:
    """True when a failed callback may still have reached Discord (so the players may see it)."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.code == ALREADY_ACKNOWLEDGED
    return isinstance(error, asyncio.TimeoutError | aiohttp.ClientError | OSError)


async def defer(
    interaction: discord.Interaction[discord.Client], *, ephemeral: bool = False, thinking: bool = True
) -> None:
    """Acknowledge now, answer later (a slow search): "thinking…" for a command, nothing visible for a press."""
    interaction.extras["private_defer"] = ephemeral
    await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)


async def private(
    interaction: discord.Interaction[discord.Client],
    text: str | None,
    *,
    files: Sequence[discord.File] = (),
    view: Any = None,
    embed: discord.Embed | None = None,
) -> None:
    """An ephemeral reply: ``text`` (``None``: none), with ``files`` attached, a ``view``'s components and an ``embed``,
    if any. After a private "thinking…" it replaces that; after a public one, the placeholder is deleted and the reply
    follows privately."""
    response = interaction.response
    extra: dict[str, Any] = {"allowed_mentions": NO_PINGS} | ({"view": view} if view is not None else {})
    extra |= {"embed": embed} if embed is not None else {}
    attached: Any = list(files) if files else discord.utils.MISSING
    if not response.is_done():
        await response.send_message(text, ephemeral=True, files=attached, **extra)
    elif interaction.extras.get("private_defer"):
        await interaction.edit_original_response(content=text, attachments=attached, **extra)
    else:
        if response.type is discord.InteractionResponseType.deferred_channel_message:
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
        content: Any = text if text is not None else discord.utils.MISSING
        await interaction.followup.send(content, ephemeral=True, files=attached, **extra)


async def apologise(interaction: discord.Interaction[discord.Client]) -> None:
    """Answer ``interaction`` with a short private apology (a followup if it was already answered)."""
    interaction.extras["result"] = "failed"  # bot.ops.interactions.RESULT_KEY
    try:
        await private(interaction, lang(str(interaction.locale))(ERROR))
    except discord.HTTPException:
        log.warning("could not apologise: channel=%s", interaction.channel_id, exc_info=True)


def help_embed(page: HelpPage) -> discord.Embed:
    """``/ttt help`` as an embed: the page's description, then a field per game (not inline: each is a paragraph)."""
    embed = discord.Embed(description=page.description)
    for name, value in page.fields:
        embed.add_field(name=name, value=value, inline=False)
    return embed
