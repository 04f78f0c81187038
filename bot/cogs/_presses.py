"""The board's buttons (:class:`~bot.ui.buttons.ComponentHandler`) and the step every ``/ttt`` handler ends with:
let the game service decide, then hand its answer to the :class:`~bot.ui.responder.Responder`.

:class:`BoardPresses` is a base of the ``/ttt`` cog (:mod:`bot.cogs.ttt`); nothing here decides a rule of the game.
"""

from __future__ import annotations

import logging

import discord

from bot.client import TTTBot
from bot.cogs.cooldowns import Cooldown
from bot.games.answers import Chosen, Hinted
from bot.games.intents import Actor
from bot.games.match import BoardRef, Match, new_game_id
from bot.games.moves import Pace, reply_pace
from bot.games.service import GameService
from bot.i18n import N_
from bot.i18n.lang import lang
from bot.ui.history import Decide, recent_boards, settle
from bot.ui.replies import apologise, defer, private
from bot.ui.responder import Responder

__all__ = ["INACTIVE", "SHOWN_LATER", "THINKING_COOLDOWN", "THINKING_COOLDOWN_SECONDS", "BoardPresses", "actor"]

log = logging.getLogger(__name__)

INACTIVE = N_("This button is no longer active — start a new game with /ttt start.")
THINKING_COOLDOWN_SECONDS = 2.0
"""One "How did it think?" per player every this many seconds: each recomputes and draws a search in the hint worker."""
THINKING_COOLDOWN = N_("One look at my search every {seconds} s — try again in {retry} s.")
SHOWN_LATER = N_(
    "Sorry, something went wrong on my side while showing the game. What you did counts; /ttt board shows it."
)


def actor(interaction: discord.Interaction[discord.Client]) -> Actor:
    """Who sent ``interaction``, and where."""
    if interaction.channel_id is None:
        raise RuntimeError("interaction without a channel")
    return Actor(interaction.user.id, interaction.channel_id, interaction.guild_id, str(interaction.locale))


class BoardPresses:
    """The board's buttons, each turned into a game-service intent, and :meth:`_run`, shared with the commands.

    Set by the cog: ``client`` (the bot, whose channels are read after a restart), ``service`` and ``responder``.
    """

    client: TTTBot
    service: GameService
    responder: Responder
    looks: Cooldown  # "How did it think?", on every board and under every hint

    def __init__(self) -> None:
        self.looks = Cooldown(THINKING_COOLDOWN_SECONDS, THINKING_COOLDOWN)
        super().__init__()

    async def _run(self, interaction: discord.Interaction[discord.Client], decide: Decide) -> None:
        """Decide (with the channel's recent boards when the service needs them) and show the answer. If showing a
        committed game fails, the board is edited to show it and the apology says so (never "unchanged")."""
        channel_id, guild_id = interaction.channel_id or 0, interaction.guild_id
        answer = await settle(decide, lambda: recent_boards(self.client, channel_id, guild_id))
        try:
            await self.responder.deliver(interaction, answer)
        except Exception:
            committed = getattr(answer, "game", None)
            if not isinstance(committed, Match) or isinstance(answer, Hinted | Chosen):
                raise
            log.exception("showing game %s failed after it was committed", committed.game_id)
            current = self.service.current(committed.channel_id)
            board = current if current is not None and current.game_id == committed.game_id else committed
            try:
                self.responder.show_later(board if board.message_id is not None else board.at(board.shown))
            except Exception:
                log.exception("could not show game %s on its board either", committed.game_id)
            await private(interaction, lang(str(interaction.locale))(SHOWN_LATER))

    async def press_cell(
        self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef, cell: int
    ) -> None:
        """A press on a board cell (on a game played by column: a column, by the cell its disc falls to)."""
        shown = board if isinstance(board, Match) else self._held(board)
        if (
            shown is not None
            and shown.is_player(interaction.user.id)
            and reply_pace(shown.kind, shown.state, cell, shown.level, shown.algorithm) is Pace.DEFERRED
        ):
            await defer(interaction, thinking=False)
        await self._guarded(
            interaction, lambda history: self.service.press(actor(interaction), board, cell, history=history)
        )

    def _held(self, ref: BoardRef) -> Match | None:
        """The game ``ref`` names when the service holds it at that version (to judge how long its reply takes)."""
        held = self.service.current(ref.channel_id)
        return held if held is not None and held.game_id == ref.game_id and held.ply == ref.version else None

    async def press_resign(self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef) -> None:
        """A press on Resign."""
        await self._guarded(
            interaction, lambda history: self.service.resign(actor(interaction), board=board, history=history)
        )

    async def press_rematch(self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef) -> None:
        """A press on Rematch: a new game, same players and options, sides swapped."""
        game_id = new_game_id(interaction.id)
        await self._guarded(
            interaction,
            lambda history: self.service.rematch(actor(interaction), board, game_id=game_id, history=history),
        )

    async def explain(
        self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef, *, hint: bool
    ) -> None:
        """How did it think? on a board (the bot's last move) or under a hint (``hint``: the search in its position):
        acknowledged privately at once, since recomputing and drawing the search takes up to a second or two."""
        if await self.looks.refused(interaction):
            return
        await defer(interaction, ephemeral=True)
        await self._guarded(
            interaction,
            lambda history: self.service.explain(actor(interaction), board, hint=hint, history=history),
        )

    async def answer_challenge(
        self, interaction: discord.Interaction[discord.Client], game_id: str, challenged_id: int, *, accept: bool
    ) -> None:
        """Accept or Decline on a challenge prompt (who may answer is the service's to say, not the button's)."""
        await self._guarded(interaction, lambda _: self.service.answer(actor(interaction), game_id, accept=accept))

    async def choose_board(
        self, interaction: discord.Interaction[discord.Client], board: BoardRef, chosen: int | None
    ) -> None:
        """An ultimate free choice (on the board or its private pad): show the player to move, privately, the chosen
        small board's cells (``None``: the open boards again). Never a move; the service says who may."""
        await self._guarded(
            interaction, lambda history: self.service.choose(actor(interaction), board, chosen, history=history)
        )

    async def inactive_button(self, interaction: discord.Interaction[discord.Client]) -> None:
        """A button this bot no longer knows: say so privately."""
        interaction.extras["result"] = "refused"  # bot.ops.interactions.RESULT_KEY
        await private(interaction, lang(str(interaction.locale))(INACTIVE))

    async def _guarded(self, interaction: discord.Interaction[discord.Client], decide: Decide) -> None:
        """Run a component's intent; discord.py only logs a component's errors, so apologise here."""
        try:
            await self._run(interaction, decide)
        except Exception:
            log.exception("component failed: channel=%s user=%s", interaction.channel_id, interaction.user.id)
            await apologise(interaction)
