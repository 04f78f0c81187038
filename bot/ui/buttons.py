"""The presses on the bot's components: board buttons and challenge answers (``DynamicItem``s).

Every board button's ``custom_id`` names its board (:mod:`bot.games.codec`): 3x3's, 4x4's and 5x5's carry their whole
game, ultimate's its game id and version, so a press works after a restart.
Challenge buttons carry the game id and the challenged user. A callback only reads its button and hands the press
to the bot's :class:`ComponentHandler`; it decides nothing itself. An id that cannot be read gets "no longer active".
The buttons themselves are drawn by :mod:`bot.ui.views`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, Protocol, TypeVar, cast

import discord

from bot.games import codec
from bot.games.codec import BOARD_TEMPLATE, REF_TEMPLATE, THINKING_KINDS, Kind, from_match, ref_from_match
from bot.games.match import BoardRef, Match
from bot.i18n.lang import Lang, lang
from bot.text import labels

__all__ = [
    "DYNAMIC_ITEMS",
    "BoardButton",
    "CarriedButton",
    "ChallengeButton",
    "ComponentHandler",
    "Inactive",
    "ReferenceButton",
    "on_private_message",
    "read_pressed",
]

log = logging.getLogger(__name__)

ReadT = TypeVar("ReadT")


class ComponentHandler(Protocol):
    """What the board's buttons call; the bot exposes one as ``client.ttt``."""

    async def press_cell(
        self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef, cell: int
    ) -> None: ...
    async def press_resign(self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef) -> None: ...
    async def press_rematch(
        self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef
    ) -> None: ...
    async def choose_board(
        self, interaction: discord.Interaction[discord.Client], board: BoardRef, chosen: int | None
    ) -> None: ...
    async def explain(
        self, interaction: discord.Interaction[discord.Client], board: Match | BoardRef, *, hint: bool
    ) -> None: ...
    async def answer_challenge(
        self, interaction: discord.Interaction[discord.Client], game_id: str, challenged_id: int, *, accept: bool
    ) -> None: ...
    async def inactive_button(self, interaction: discord.Interaction[discord.Client]) -> None: ...


class _HasHandler(Protocol):
    ttt: ComponentHandler


def handler(interaction: discord.Interaction[discord.Client]) -> ComponentHandler:
    """The bot's component handler."""
    return cast(_HasHandler, interaction.client).ttt


def read_pressed(
    interaction: discord.Interaction[discord.Client], match: re.Match[str], reader: Callable[..., ReadT]
) -> ReadT | None:
    """What ``reader`` reads from a pressed button's ``custom_id``: it gets the id's ``match`` and the place of the
    press (``channel_id``, ``guild_id``, ``message_id``) and raises :class:`~bot.games.codec.CodecError` for an id
    it cannot read, which is logged and gives None (the press gets the inactive answer)."""
    try:
        return reader(
            match,
            channel_id=interaction.channel_id or 0,
            guild_id=interaction.guild_id,
            message_id=interaction.message.id if interaction.message is not None else None,
        )
    except codec.CodecError:
        log.warning("unreadable custom_id %r", match.string)
        return None


def on_private_message(interaction: discord.Interaction[discord.Client]) -> bool:
    """True when the pressed message is one only the presser sees (an ephemeral message: a private pad); its flags
    are Discord's, not the client's."""
    message = interaction.message
    return message is not None and message.flags.ephemeral


def let_go(item: discord.ui.Item[Any]) -> None:
    """Empty the view discord.py built from the pressed message for ``item`` once its press is handled.

    A press on a ``DynamicItem`` gets a view rebuilt from its message (a ``discord.ui.Button`` per component), and
    the view and its items refer to each other: left so, every press's view and buttons (and the board the item
    read) wait for the cyclic garbage collector: 29 objects and 2.4 KB (shallow) a press on a 3x3 board, measured
    in ``benchmarks/load.py``'s bot with ``gc.DEBUG_SAVEALL``. Emptied, they are freed as soon as discord.py's
    dispatch returns; nothing uses that view after the callback. (A Components V2 layout's rows keep their own
    children: only the classic boards' buttons are freed so.)
    """
    view = item.view
    if view is not None:
        view.clear_items()


class Inactive(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ttt:.*"):
    """The answer to a board button whose id cannot be read (an impossible game, a cell off the board): "no longer
    active".

    Never registered itself: the board buttons return one from ``from_custom_id`` for such an id.
    """

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Say the button is no longer active, privately."""
        try:
            await handler(interaction).inactive_button(interaction)
        finally:
            let_go(self)


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ttt:.*"):
    """A press on a board's button: the board its id names (a game, or a :class:`BoardRef`) and the button's kind (a
    cell, ``r`` Resign, ``n`` Rematch, ``w`` and ``h`` How did it think?, on ultimate ``p0``-``p8`` a small board and
    ``k`` Back). It wraps the button
    discord.py read from the pressed message, so a press builds no new button.

    Only its subclasses are registered, one an id format; each names the reader of its ids (``reader``: the id's
    match and the place (channel, guild, message) to the board and the kind, raising
    :class:`~bot.games.codec.CodecError`).
    """

    reader: ClassVar[Callable[..., tuple[Any, Kind]]]

    def __init__(self, item: discord.ui.Button[Any], board: Match | BoardRef, kind: Kind) -> None:
        super().__init__(item)
        self.board = board
        self.kind = kind

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # an unreadable id gets the inactive answer
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> discord.ui.DynamicItem[discord.ui.Button[Any]]:
        """Read the board from the pressed ``custom_id`` (this is what makes boards survive a restart). A private
        pad's id pressed on a message others see too (a modified client's, on the public board) is no pad, whose
        answer would overwrite that message: it is a press on that message, checked as any."""
        button = cast(discord.ui.Button[Any], item)
        read = read_pressed(interaction, match, cls.reader)
        if read is None:
            return Inactive(button)
        board, kind = read
        if isinstance(board, BoardRef) and board.pad and not on_private_message(interaction):
            log.warning("a private pad's custom_id %r pressed on a public message", match.string)
            message = interaction.message
            board = replace(board, pad=False, message_id=message.id if message is not None else None)
        return cls(button, board, kind)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the bot's component handler: a cell, Resign, Rematch, or a choice of small board or
        Back (never a move)."""
        try:
            await self._hand_over(interaction)
        finally:
            let_go(self)

    async def _hand_over(self, interaction: discord.Interaction[discord.Client]) -> None:
        components, board, kind = handler(interaction), self.board, self.kind
        if isinstance(kind, int):
            await components.press_cell(interaction, board, kind)
        elif kind == "r":
            await components.press_resign(interaction, board)
        elif kind == "n":
            await components.press_rematch(interaction, board)
        elif kind in THINKING_KINDS:
            await components.explain(interaction, board, hint=kind == "h")
        elif isinstance(board, BoardRef):
            await components.choose_board(interaction, board, None if kind == "k" else int(kind[1:]))


class CarriedButton(BoardButton, template=BOARD_TEMPLATE):
    """A press on any button of a board that carries its game (3x3, 4x4, 5x5: a cell, Resign or Rematch): the game
    comes from its id."""

    reader = staticmethod(from_match)


class ReferenceButton(BoardButton, template=REF_TEMPLATE):
    """A press on any button of a board that names its game (ultimate: a cell, a small board's choice ``p0``-``p8``,
    Resign or Rematch) or of its private pad (a cell, a choice, Back). Its id names the game and the version only;
    the service checks them against the game it holds."""

    reader = staticmethod(ref_from_match)


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=codec.ANSWER_TEMPLATE):
    """Accept or Decline on a challenge prompt; the game service checks the challenge is still open."""

    def __init__(self, game_id: str, challenged_id: int, *, accept: bool, tr: Lang | None = None) -> None:
        tr = tr or lang(None)
        super().__init__(
            discord.ui.Button(
                label=tr(labels.ACCEPT if accept else labels.DECLINE),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
                custom_id=f"ttt:{'a' if accept else 'd'}:{game_id}:{challenged_id}",
            )
        )
        self.game_id = game_id
        self.challenged_id = challenged_id
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        """Rebuild the answer button from a pressed ``custom_id``."""
        return cls(match["game"], int(match["challenged"]), accept=match["answer"] == "a")

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the answer to the bot's component handler."""
        try:
            await handler(interaction).answer_challenge(
                interaction, self.game_id, self.challenged_id, accept=self.accept
            )
        finally:
            let_go(self)


DYNAMIC_ITEMS = (CarriedButton, ChallengeButton, ReferenceButton)
"""Every ``DynamicItem`` the bot registers (``add_dynamic_items``)."""
