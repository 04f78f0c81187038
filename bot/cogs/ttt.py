"""The ``/ttt`` application commands and the board's buttons, translated into game-service intents.

The cog is the ``/ttt`` group (a ``GroupCog``); the record commands (stats, leaderboard, review) are a cog of their
own, :mod:`bot.cogs.records`, whose commands join the group (:meth:`GameCommands.add_subcommands`).

Each handler builds the intent, lets :class:`~bot.games.GameService` decide (reading the channel's
recent boards first only when the service asks, after a restart), and hands the answer to the
:class:`~bot.ui.responder.Responder` (:meth:`BoardPresses._run <bot.cogs._presses.BoardPresses._run>`, which also
turns the board's buttons into intents). Nothing here decides a rule of the game.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import TTTBot
from bot.cogs._presses import BoardPresses, actor
from bot.cogs.cooldowns import Cooldown
from bot.games.levels import DEFAULT_LEVEL, ratings_of
from bot.games.match import new_game_id
from bot.games.moves import QUICK_MS, Pace, pace
from bot.i18n import N_
from bot.i18n.lang import lang
from bot.i18n.translator import C_
from bot.text.commands import command_names
from bot.text.help import help_page
from bot.ui.replies import apologise, defer, help_embed, private
from engine import DEFAULT_VARIANT, VARIANTS, Mark
from engine import variant as variant_named

__all__ = ["HINT_COOLDOWN_SECONDS", "VARIANT_CHOICES", "GameCommands", "command_failed", "setup"]

log = logging.getLogger(__name__)

Interaction = discord.Interaction[TTTBot]
OPTION_NAMES = (
    C_("command name", "opponent"),
    C_("command name", "play_as"),
    C_("command name", "level"),
    C_("command name", "algorithm"),
    C_("command name", "board"),
    C_("command name", "cell"),
    C_("command name", "user"),
    C_("command name", "scope"),
    C_("command name", "game"),
    C_("command name", "variant"),
)
"""The options' names, marked for the catalogs (their translations are the localized option names)."""
CHOICE_NAMES = (N_("random"), N_("buttons"), N_("text"), N_("server"), N_("global"))
"""Choice names not marked elsewhere (algorithms are marked by :meth:`engine.Variant.search_name`)."""
LEVEL_CHOICE = N_("Level {level} · {rating}")
LEVEL_CHOICES = [
    app_commands.Choice(
        name=app_commands.locale_str(
            LEVEL_CHOICE.format(level=level, rating=rating),
            msgid=LEVEL_CHOICE,
            fields={"level": level, "rating": rating},
        ),
        value=level,
    )
    for level, rating in ratings_of(DEFAULT_VARIANT).items()
]
"""``/ttt start level:``: levels 1-8, each named with its rating in 3x3, the default game (Discord's choices cannot
depend on another option; the board names the level with its rating in the game played)."""
VARIANT_CHOICES = [app_commands.Choice(name=kind.title, value=name) for name, kind in VARIANTS.items()]
"""``/ttt start variant:``: every game registered when the cog is loaded, named and translated (the translator
localizes each :attr:`engine.Variant.title`); a game no longer offered is refused privately when chosen."""
NO_VARIANT = N_("The game {variant} is not available yet.")
HINT_COOLDOWN_SECONDS = 5.0
HINT_COOLDOWN = N_("Hints are limited to one every {seconds} s — try again in {retry} s.")


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class GameCommands(
    BoardPresses, commands.GroupCog, group_name="ttt", group_description=N_("Play tic-tac-toe and other board games")
):
    """Tic-tac-toe against the bot (minimax / alpha-beta) or another member: installable in servers and on a
    user's account, usable in servers, the bot's DMs, and DMs and group DMs the bot is not part of."""

    def __init__(self, bot: TTTBot) -> None:
        self.client = bot
        self.service = bot.games
        self.responder = bot.responder
        self._synced: dict[str, Any] | None = None
        self.hints = Cooldown(HINT_COOLDOWN_SECONDS, HINT_COOLDOWN)
        super().__init__()

    # ---- commands -------------------------------------------------------------------------------

    @app_commands.command(
        name=C_("command name", "start"), description=N_("Start a game against the bot, or challenge someone")
    )
    @app_commands.describe(
        opponent=N_("Who to challenge; leave empty to play me"),
        play_as=N_("Your mark: X moves first"),
        level=N_("How well the bot plays: 1 to 8 (8: full strength; ratings shown are 3x3's)"),
        algorithm=N_("The bot's search: alpha-beta (prunes) or plain minimax (visits every position)"),
        board=N_("Buttons to press, or a text grid played with /ttt move"),
        variant=N_("The game to play (3x3 if left empty)"),
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    @app_commands.choices(level=LEVEL_CHOICES)
    async def start(
        self,
        interaction: Interaction,
        opponent: discord.User | None = None,
        play_as: Literal["X", "O", "random"] = "X",
        level: int = DEFAULT_LEVEL,
        algorithm: Literal["alpha-beta", "minimax"] = "alpha-beta",
        board: Literal["buttons", "text"] = "buttons",
        variant: str = DEFAULT_VARIANT,
    ) -> None:
        """/ttt start: a game of ``variant`` against the bot, or a challenge to ``opponent``."""
        if variant not in VARIANTS:
            await private(interaction, lang(str(interaction.locale))(NO_VARIANT, variant=variant))
            return
        rules = variant_named(variant)
        opening = pace(rules, rules.game.initial_state(), level, algorithm)
        if opponent is None and play_as != "X" and opening is Pace.DEFERRED:
            await defer(interaction)  # the bot may open with a long search, within the command
        game_id = new_game_id(interaction.id)
        await self._run(
            interaction,
            lambda history: self.service.start(
                actor(interaction),
                game_id=game_id,
                opponent=opponent.id if opponent else None,
                opponent_is_bot=bool(opponent and opponent.bot),
                play_as=None if play_as == "random" else Mark(play_as),
                level=level,
                algorithm=algorithm,
                mode=board,
                variant=variant,
                history=history,
            ),
        )

    @app_commands.command(
        name=C_("command name", "move"), description=N_("Play your move, named as the board names it")
    )
    @app_commands.describe(
        cell=N_("As the board names it: a cell such as b3 (a1 top left), 1-9 on 3x3, or a column's number")
    )
    async def move(self, interaction: Interaction, cell: app_commands.Range[str, 1, 3]) -> None:
        """/ttt move: play a cell or a column as the game names it; the service reads the text with the game it holds
        (:func:`bot.games.refusals.typed_cell`; after a restart, once resumed) and refuses any other text privately;
        the board is posted again."""
        game = self.service.current(interaction.channel_id or 0)
        if game is not None and game.pace is Pace.DEFERRED:
            await defer(interaction)
        await self._run(interaction, lambda history: self.service.move(actor(interaction), cell, history=history))

    @app_commands.command(
        name=C_("command name", "hint"), description=N_("Privately see every free cell's outcome with best play")
    )
    async def hint(self, interaction: Interaction) -> None:
        """/ttt hint: every free cell's outcome with best play, privately, for the player to move; one every
        :data:`HINT_COOLDOWN_SECONDS` per user (:attr:`hints`)."""
        if await self.hints.refused(interaction):
            return
        game = self.service.current(interaction.channel_id or 0)
        if game is None or game.kind.hint_ms(game.state) > QUICK_MS:
            await defer(interaction, ephemeral=True)  # up to a second in a worker, or 3x3's plain minimax count
        await self._run(interaction, lambda history: self.service.hint(actor(interaction), history=history))

    @app_commands.command(
        name=C_("command name", "resign"), description=N_("Resign the game you are playing in this channel")
    )
    async def resign(self, interaction: Interaction) -> None:
        """/ttt resign: end the game as a loss for the player who resigns."""
        await self._run(interaction, lambda history: self.service.resign(actor(interaction), history=history))

    @app_commands.command(
        name=C_("command name", "board"), description=N_("Post the board again at the bottom of the channel")
    )
    async def board(self, interaction: Interaction) -> None:
        """/ttt board: post the board again at the bottom of the channel."""
        await self._run(interaction, lambda history: self.service.repost(actor(interaction), history=history))

    @app_commands.command(name=C_("command name", "help"), description=N_("Every game, command and button explained"))
    async def help_(self, interaction: Interaction) -> None:
        """/ttt help: every game and how to play it, every command (named as Discord shows them in the user's
        language) and button, what 'states evaluated' means, levels and ratings."""
        locale = str(interaction.locale)
        page = help_page(command_names(await self.synced_payload(), locale), lang(locale))
        await private(interaction, None, embed=help_embed(page))

    async def synced_payload(self) -> dict[str, Any]:
        """The ``/ttt`` group as the bot syncs it to Discord (discord.py's translated payload: every command's and
        option's name and description in every locale the tree's translator knows), built once per set of commands."""
        if self._synced is None:
            tree, group = self.client.tree, self._group()
            translator = tree.translator
            self._synced = await group.get_translated_payload(tree, translator) if translator else group.to_dict(tree)
        return self._synced

    async def cog_app_command_error(
        self, interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError
    ) -> None:
        """A command that raised is logged and apologised for (:func:`command_failed`)."""
        await command_failed(interaction, error)

    def add_subcommands(self, commands: Sequence[app_commands.Command[Any, ..., Any]]) -> None:
        """Put another cog's commands under ``/ttt`` (the record commands, :mod:`bot.cogs.records`), before
        ``/ttt help``, which stays last. The commands keep their own cog as their binding.

        Raises:
            discord.app_commands.CommandAlreadyRegistered: ``/ttt`` has a command of that name already.
        """
        group = self._group()
        self._synced = None
        last = group.get_command(self.help_.name)
        group.remove_command(self.help_.name)  # (it returns None in discord.py 2.7, whatever it removed)
        try:
            for command in commands:
                group.add_command(command)
        finally:
            if last is not None:
                group.add_command(last)

    def remove_subcommands(self, names: Sequence[str]) -> None:
        """Take the commands ``names`` (added by :meth:`add_subcommands`) out of ``/ttt`` again."""
        group = self._group()
        self._synced = None
        for name in names:
            group.remove_command(name)

    def _group(self) -> app_commands.Group:
        group = self.app_command
        assert group is not None, "a GroupCog always has its group"
        return group


async def command_failed(interaction: discord.Interaction[discord.Client], error: app_commands.AppCommandError) -> None:
    """What a ``/ttt`` command that raised answers: logged, and apologised for privately."""
    name = interaction.command.name if interaction.command else "?"
    log.error("/ttt %s failed: channel=%s", name, interaction.channel_id, exc_info=getattr(error, "original", error))
    await apologise(interaction)


async def setup(bot: TTTBot) -> None:
    """discord.py's extension entry point (``bot.load_extension("bot.cogs.ttt")``): add the cog, and make it
    what the board's buttons call (``bot.ttt``)."""
    cog = GameCommands(bot)
    bot.ttt = cog
    await bot.add_cog(cog)
