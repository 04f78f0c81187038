"""Turn the game service's answers into interaction responses, followups and background edits.

An answer whose fate is unknown (a 5xx or a time-out after Discord may have applied it, or 40060
"already acknowledged" on discord.py's retry) is treated as applied: the service has already committed
it, and that is what players see. A new board whose answer was lost is looked up afterwards
(``GET .../messages/@original``); an answer that certainly failed is shown another way, by editing the
game's board in the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import aiohttp
import discord

from bot import render, views
from bot.edits import BackgroundEdits
from bot.games import Answer, Challenged, Declined, GameService, Hinted, NeedsHistory, Posted, Refusal, Shown
from bot.games.game import Game
from bot.render import Lang

__all__ = ["NO_PINGS", "Responder", "answer_unknown", "defer", "private"]

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
ALREADY_ACKNOWLEDGED = 40060
Interaction = discord.Interaction[Any]


def answer_unknown(error: Exception) -> bool:
    """True when a failed callback may still have reached Discord (so the players may see it)."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.code == ALREADY_ACKNOWLEDGED
    return isinstance(error, asyncio.TimeoutError | aiohttp.ClientError | OSError)


async def defer(interaction: Interaction, *, ephemeral: bool = False, thinking: bool = True) -> None:
    """Acknowledge now, answer later (a slow search): "thinking…" for a command, nothing visible for a press."""
    interaction.extras["private_defer"] = ephemeral
    await interaction.response.defer(ephemeral=ephemeral, thinking=thinking)


async def private(interaction: Interaction, text: str) -> None:
    """An ephemeral reply. After a private "thinking…" it replaces that; after a public one, the placeholder is
    deleted and the reply follows privately."""
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=True, allowed_mentions=NO_PINGS)
        return
    if interaction.extras.get("private_defer"):
        await interaction.edit_original_response(content=text, allowed_mentions=NO_PINGS)
        return
    if response.type is discord.InteractionResponseType.deferred_channel_message:
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_PINGS)


class Responder:
    """Shows answers; owns the background edits of the bot's messages."""

    def __init__(self, client: discord.Client, service: GameService) -> None:
        self.client = client
        self.service = service
        self.edits = BackgroundEdits(client)
        self._lookups: set[asyncio.Task[None]] = set()

    async def deliver(self, interaction: Interaction, outcome: Answer) -> None:
        """Answer ``interaction`` with ``outcome`` (never :class:`NeedsHistory`: resolve that first)."""
        tr = render.lang(str(interaction.locale))
        if isinstance(outcome, Refusal):
            interaction.extras["result"] = "refused"  # bot.ops.interactions.RESULT_KEY
            await private(interaction, render.refusal_text(outcome.key, outcome.values, tr))
        elif isinstance(outcome, Shown):
            await self._show(interaction, outcome.game, tr)
        elif isinstance(outcome, Posted):
            view = views.board_view(outcome.game, tr)
            await self._post(interaction, outcome.game, outcome.retired, render.message_text(outcome.game, tr=tr), view)
        elif isinstance(outcome, Challenged):
            text = render.challenge_text(outcome.game, self.service.challenge_timeout, tr)
            await self._post(interaction, outcome.game, None, text, views.challenge_view(outcome.game, tr))
        elif isinstance(outcome, Declined):
            await self._update(interaction, outcome.game, render.declined_text(outcome.game, tr), None)
        elif isinstance(outcome, Hinted):
            await private(interaction, render.hint_text(outcome.analysis, tr))
        elif isinstance(outcome, NeedsHistory):
            raise TypeError("resolve NeedsHistory before delivering")

    def show_later(self, game: Game, tr: Lang | None = None) -> None:
        """Show ``game``'s committed state on its board message in the background (no interaction needed)."""
        if game.message_id is None:
            return
        tr = tr or render.lang(game.locale)
        if game.status == "over" and game.end_reason == "expired":
            content, view = render.expired_text(self.service.challenge_timeout, tr), None
        else:
            content, view = render.message_text(game, tr=tr), views.board_view(game, tr)
        self.edits.edit(game.channel_id, game.guild_id, game.message_id, content=content, view=view)

    async def close(self) -> None:
        """Finish (briefly) the background edits and look-ups (at shutdown)."""
        for task in list(self._lookups):
            task.cancel()
        await self.edits.close()

    async def _show(self, interaction: Interaction, game: Game, tr: Lang) -> None:
        await self._update(interaction, game, render.message_text(game, tr=tr), views.board_view(game, tr))

    async def _update(self, interaction: Interaction, game: Game, content: str, view: discord.ui.View | None) -> None:
        """Show ``content`` on the message the interaction came from."""
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=content, view=view, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.edit_message(content=content, view=view, allowed_mentions=NO_PINGS)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if answer_unknown(error):
                log.warning("answer to a press may be lost (%s); treating it as applied: game=%s", error, game.game_id)
                return
            log.warning("could not show game %s on its board (%s); editing it instead", game.game_id, error)
            if game.message_id is not None:
                self.edits.edit(game.channel_id, game.guild_id, game.message_id, content=content, view=view)

    async def _post(
        self,
        interaction: Interaction,
        game: Game,
        retired: int | None,
        content: str,
        view: discord.ui.View | None,
    ) -> None:
        """Post ``content`` as a new message for ``game``, then report its id and retire the old board."""
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_PINGS}
        if view is not None:
            kwargs["view"] = view
        try:
            if interaction.response.is_done():
                message_id = (await interaction.edit_original_response(**kwargs)).id
            else:
                response = await interaction.response.send_message(**kwargs)
                known = response.message_id if response is not None else None
                message_id = known if known is not None else (await interaction.original_response()).id
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if answer_unknown(error):
                log.warning("answer posting game %s may be lost (%s); looking it up", game.game_id, error)
                self._look_up(interaction, game, retired)
            else:
                log.warning("could not post game %s (%s)", game.game_id, error)
                self._unposted(game, retired)
            return
        self._placed(game, retired, message_id)

    def _placed(self, game: Game, retired: int | None, message_id: int) -> None:
        old = self.service.placed(game.channel_id, game.game_id, message_id, game.post)
        if retired is not None and retired != message_id:
            old = (*old, retired)
        current = self.service.current(game.channel_id)
        board = current if current is not None and current.game_id == game.game_id else game.at(message_id)
        for message in old:
            self._retire(game, message, board.jump_url)

    def _retire(self, game: Game, message_id: int, link: str | None) -> None:
        """Edit an old board of ``game`` to point at the newest (unless a press made it the board again)."""
        self.edits.edit(
            game.channel_id,
            game.guild_id,
            message_id,
            content=render.moved_text(link, render.lang(game.locale)),
            view=None,
            wanted=lambda: not self.service.is_board(game.channel_id, message_id),
        )

    def _unposted(self, game: Game, retired: int | None) -> None:
        kept = self.service.unposted(game, retired)
        if kept is not None:
            self.show_later(kept)

    def _look_up(self, interaction: Interaction, game: Game, retired: int | None) -> None:
        task = asyncio.get_running_loop().create_task(self._find_original(interaction, game, retired))
        self._lookups.add(task)
        task.add_done_callback(self._lookups.discard)

    async def _find_original(self, interaction: Interaction, game: Game, retired: int | None) -> None:
        try:
            message = await interaction.original_response()
        except discord.NotFound:
            self._unposted(game, retired)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.warning("could not look up the answer for game %s (%s); a press will adopt it", game.game_id, error)
        else:
            self._placed(game, retired, message.id)
