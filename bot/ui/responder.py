"""Send replies (:func:`bot.ui.present.present`) as interaction responses, followups and background edits.

Every answer whose ``@original`` is a board message (a press answered by updating it, a command or press that
posted it) is remembered in :class:`~bot.ui.originals.Originals`, so a later background edit of that board can go
through the interaction where the bot's own channel edits are refused (installed on a user's account).

An answer whose fate is unknown (a 5xx or a time-out after Discord may have applied it, or 40060 "already
acknowledged" on discord.py's retry) is treated as applied: the service has already committed it, and that is what
players see. A new board whose answer was lost is looked up afterwards (``GET .../messages/@original``); an answer
that certainly failed is shown another way, by editing the game's board in the background.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, assert_never

import aiohttp
import discord

from bot.games.answers import BotMoved, Refusal, Shown
from bot.games.match import Match
from bot.games.service import GameService
from bot.i18n.lang import Lang, lang
from bot.ui.edits import BackgroundEdits, message_kwargs
from bot.ui.pictures import Drawer
from bot.ui.present import (
    Background,
    NewMessage,
    OldBoard,
    OnMessage,
    OnPad,
    Presentable,
    Private,
    Reply,
    Retired,
    present,
)
from bot.ui.replies import NO_PINGS, answer_unknown, private

__all__ = ["Responder"]

log = logging.getLogger(__name__)

ON_THE_MESSAGE = (
    discord.InteractionResponseType.message_update,
    discord.InteractionResponseType.deferred_message_update,
)
"""Answers to a press whose ``@original`` is the pressed message."""


class Responder:
    """Shows answers; owns the background edits of the bot's messages and the ``drawer`` of their pictures
    (:class:`~bot.ui.pictures.Drawer`; by default it draws in threads)."""

    def __init__(self, client: discord.Client, service: GameService, drawer: Drawer | None = None) -> None:
        self.client = client
        self.service = service
        self.edits = BackgroundEdits(client, drawer=drawer)
        self.drawer = self.edits.drawer
        self._lookups: set[asyncio.Task[None]] = set()

    async def deliver(self, interaction: discord.Interaction[discord.Client], answer: Presentable) -> None:
        """Answer ``interaction`` with ``answer``, presented in the interaction's language."""
        tr = lang(str(interaction.locale))
        if isinstance(answer, Refusal):
            interaction.extras["result"] = "refused"  # bot.ops.interactions.RESULT_KEY
        await self.send(interaction, present(answer, tr, challenge_seconds=self.service.challenge_timeout))

    async def send(self, interaction: discord.Interaction[discord.Client], reply: Reply) -> None:
        """Send ``reply`` where its target says, then do the bookkeeping a new board needs."""
        match reply.target:
            case Private():
                await self._private(interaction, reply)
            case OnMessage(game=game):
                await self._update(interaction, game, reply)
            case OnPad() as pad:
                await self._on_pad(interaction, pad, reply)
            case NewMessage(game=game, retired=retired):
                await self._post(interaction, game, retired, reply)
            case OldBoard():
                self._edit_later(reply)
            case Background(game=game):
                self._in_background(game, reply)
            case _:
                assert_never(reply.target)

    def show_later(self, game: Match, tr: Lang | None = None) -> None:
        """Show ``game``'s committed state on its board message in the background (no interaction needed)."""
        reply = present(Shown(game), tr or lang(game.locale), challenge_seconds=self.service.challenge_timeout)
        self._in_background(game, reply)

    def show_bot_move(self, answer: BotMoved) -> None:
        """Edit the bot's move on a slow variant into its board, in the background (the service's ``on_bot_move``)."""
        game = answer.game
        self.send_background(present(answer, lang(game.locale), challenge_seconds=self.service.challenge_timeout))

    def send_background(self, reply: Reply) -> None:
        """Send a reply that answers no interaction (:class:`Background` or :class:`OldBoard`)."""
        match reply.target:
            case Background(game=game):
                self._in_background(game, reply)
            case OldBoard():
                self._edit_later(reply)
            case _:
                raise TypeError(f"not a background reply: {reply.target!r}")

    def _in_background(self, game: Match, reply: Reply) -> None:
        if game.message_id is None:
            return
        self.edits.edit(
            game.channel_id, game.guild_id, game.message_id, content=reply.content, view=reply.view, files=reply.files
        )

    async def close(self) -> None:
        """Finish (briefly) the background edits and look-ups, then stop the drawer (at shutdown)."""
        for task in list(self._lookups):
            task.cancel()
        await self.edits.close()
        self.drawer.shutdown()

    async def _private(self, interaction: discord.Interaction[discord.Client], reply: Reply) -> None:
        """Send ``reply`` privately; one that may have arrived (a 5xx, then 40060 on a retry) counts as delivered."""
        try:
            await private(interaction, reply.content, files=await self.drawer.attachments(reply.files), view=reply.view)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if not answer_unknown(error):
                raise
            log.warning(
                "a private answer may be lost (%s); treating it as delivered: channel=%s", error, interaction.channel_id
            )

    async def _update(self, interaction: discord.Interaction[discord.Client], game: Match, reply: Reply) -> None:
        """Show ``reply`` on the message the interaction came from."""
        content, view, game_id = reply.content, reply.view, game.game_id
        kwargs = message_kwargs(content, view, edit=True)
        if reply.files:
            kwargs["attachments"] = await self.drawer.attachments(reply.files)
        async with self.edits.answering(game.message_id):  # the bot's move, edited in after this answer
            try:
                if interaction.response.is_done():
                    await interaction.edit_original_response(**kwargs)
                else:
                    await interaction.response.edit_message(**kwargs)
            except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
                if answer_unknown(error):
                    log.warning("answer to a press may be lost (%s); treating it as applied: game=%s", error, game_id)
                    return
                log.warning("could not show game %s on its board (%s); editing it instead", game.game_id, error)
                if game.message_id is not None:
                    self.edits.edit(
                        game.channel_id, game.guild_id, game.message_id, content=content, view=view, files=reply.files
                    )
                return
            if interaction.message is not None and interaction.response.type in ON_THE_MESSAGE:
                self.edits.originals.remember(interaction.message.id, interaction)

    async def _on_pad(self, interaction: discord.Interaction[discord.Client], target: OnPad, reply: Reply) -> None:
        """Answer on a private pad: the pressed pad updated, or a new pad. A new pad is an ephemeral followup after a
        DEFERRED_UPDATE_MESSAGE, so the press's ``@original`` stays its board, which the move made on the pad edits
        where the bot's own edits are refused. A move made on the pad is queued as a background edit of its board
        first, so the answer never waits for it and the bot's move, edited in later, comes after it. An answer that
        may have arrived counts as applied."""
        if target.board is not None:
            self.show_later(target.board)
        kwargs: dict[str, Any] = {"content": reply.content, "allowed_mentions": NO_PINGS}
        try:
            if target.update:
                await interaction.response.edit_message(view=reply.view, **kwargs)
            else:
                await self._new_pad(interaction, reply, kwargs)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if not answer_unknown(error):
                raise
            log.warning("answer on a private pad may be lost (%s); treating it as applied", error)

    async def _new_pad(
        self, interaction: discord.Interaction[discord.Client], reply: Reply, kwargs: dict[str, Any]
    ) -> None:
        """Acknowledge the press on the board with DEFERRED_UPDATE_MESSAGE (its ``@original``, the board, remembered),
        then send the pad as an ephemeral followup. An acknowledgement that may have arrived counts as made."""
        try:
            await interaction.response.defer()
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            if not answer_unknown(error):
                raise
            log.warning("a press answered with a private pad may be unacknowledged (%s); sending the pad", error)
        else:
            if interaction.message is not None:
                self.edits.originals.remember(interaction.message.id, interaction)
        view: Any = reply.view if reply.view is not None else discord.utils.MISSING
        await interaction.followup.send(view=view, ephemeral=True, **kwargs)

    async def _post(
        self,
        interaction: discord.Interaction[discord.Client],
        game: Match,
        retired: int | None,
        reply: Reply,
    ) -> None:
        """Post ``reply`` as a new message for ``game``, then report its id and retire the old board."""
        kwargs = message_kwargs(reply.content, reply.view, edit=interaction.response.is_done())
        if reply.view is None:
            del kwargs["view"]
        if reply.files:
            kwargs[("attachments" if interaction.response.is_done() else "files")] = await self.drawer.attachments(
                reply.files
            )
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
        self._remember_posted(interaction, message_id)
        self._placed(game, retired, message_id)

    def _remember_posted(self, interaction: discord.Interaction[discord.Client], message_id: int) -> None:
        """A public answer posted message ``message_id``: it is the interaction's ``@original``."""
        if not interaction.extras.get("private_defer"):
            self.edits.originals.remember(message_id, interaction)

    def _placed(self, game: Match, retired: int | None, message_id: int) -> None:
        old = self.service.placed(game.channel_id, game.game_id, message_id, game.post)
        if retired is not None and retired != message_id:
            old = (*old, retired)
        current = self.service.current(game.channel_id)
        board = current if current is not None and current.game_id == game.game_id else game.at(message_id)
        for message in old:
            retired_board = Retired(game, message, board.jump_url)
            self._edit_later(
                present(retired_board, lang(game.locale), challenge_seconds=self.service.challenge_timeout)
            )

    def _edit_later(self, reply: Reply) -> None:
        """Edit an old board in the background, unless a press made it the board again before the edit is sent."""
        if not isinstance(reply.target, OldBoard):
            raise TypeError(f"not an old board: {reply.target!r}")
        game, message_id = reply.target.game, reply.target.message_id
        self.edits.edit(
            game.channel_id,
            game.guild_id,
            message_id,
            content=reply.content,
            view=reply.view,
            wanted=lambda: not self.service.is_board(game.channel_id, message_id),
        )

    def _unposted(self, game: Match, retired: int | None) -> None:
        kept = self.service.unposted(game, retired)
        if kept is not None:
            self.show_later(kept)

    def _look_up(self, interaction: discord.Interaction[discord.Client], game: Match, retired: int | None) -> None:
        task = asyncio.get_running_loop().create_task(self._find_original(interaction, game, retired))
        self._lookups.add(task)
        task.add_done_callback(self._lookups.discard)

    async def _find_original(
        self, interaction: discord.Interaction[discord.Client], game: Match, retired: int | None
    ) -> None:
        try:
            message = await interaction.original_response()
        except discord.NotFound:
            self._unposted(game, retired)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError, OSError) as error:
            log.warning("could not look up the answer for game %s (%s); a press will adopt it", game.game_id, error)
        except RuntimeError:  # aiohttp's "Session is closed": the bot closed while the look-up was on its way
            if not self.client.is_closed():
                raise
            log.info("did not look up the answer for game %s: the bot is closing", game.game_id)
        else:
            self._remember_posted(interaction, message.id)
            self._placed(game, retired, message.id)
