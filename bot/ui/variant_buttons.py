"""The presses on the buttons of the variants' boards (:mod:`bot.ui.variant_views` draws them).

A press is read by :class:`MnkButton` (4x4 and 5x5: the id carries the whole game) or :class:`UltimateButton` (the
id names the game and the version) and handed to the bot's :class:`~bot.ui.views.ComponentHandler`; an id that
cannot be read gets "no longer active".
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar, cast

import discord

from bot.games.codec import MNK_BOARD_TEMPLATE, REF_TEMPLATE, from_match, ref_from_match
from bot.games.codec import Kind as VariantKind
from bot.games.game import BoardRef, Game
from bot.ui.views import Inactive, handler, read_pressed

__all__ = ["VARIANT_ITEMS", "MnkButton", "UltimateButton"]

BoardT = TypeVar("BoardT", Game, BoardRef)


class _VariantButton(discord.ui.DynamicItem[discord.ui.Button[Any]], Generic[BoardT], template=r"ttt:.*"):
    """A press on a variant board's button: the board its id names (a game, or a :class:`BoardRef`) and the
    button's kind (a cell, ``r`` Resign, ``n`` Rematch, on ultimate ``p0``-``p8`` and ``k`` Back). Only its
    subclasses are registered; each names the reader of its own ids (``reader``: the id's match and the place
    (channel, guild, message) to the board and the kind, raising :class:`~bot.games.codec.CodecError`)."""

    reader: ClassVar[Callable[..., tuple[Any, VariantKind]]]

    def __init__(self, item: discord.ui.Button[Any], board: BoardT, kind: VariantKind) -> None:
        super().__init__(item)
        self.board: BoardT = board
        self.kind = kind

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # an unreadable id gets the inactive answer
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> discord.ui.DynamicItem[discord.ui.Button[Any]]:
        """Read the board from the pressed ``custom_id``."""
        button = cast(discord.ui.Button[Any], item)
        read = read_pressed(interaction, match, cls.reader)
        return (
            cast(discord.ui.DynamicItem[discord.ui.Button[Any]], Inactive(button))
            if read is None
            else cls(button, *read)
        )


class MnkButton(_VariantButton[Game], template=MNK_BOARD_TEMPLATE):
    """A press on any button of a 4x4 or 5x5 board (a cell, Resign or Rematch): the game comes from its id."""

    reader = staticmethod(from_match)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the bot's component handler: a cell, Resign or Rematch."""
        await _dispatch(interaction, self.board, self.kind)


class UltimateButton(_VariantButton[BoardRef], template=REF_TEMPLATE):
    """A press on any button of an ultimate board (a cell, a small board's choice ``p0``-``p8``, Resign or Rematch)
    or of its private pad (a cell, a choice, Back). Its id names the game and the version only; the service checks
    them against the game it holds."""

    reader = staticmethod(ref_from_match)

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the bot's component handler (a choice of small board or Back: never a move)."""
        kind = self.kind
        if isinstance(kind, str) and (kind == "k" or kind.startswith("p")):
            chosen = None if kind == "k" else int(kind[1:])
            await handler(interaction).choose_board(interaction, self.board, chosen)
            return
        await _dispatch(interaction, self.board, kind)


async def _dispatch(
    interaction: discord.Interaction[discord.Client], board: Game | BoardRef, kind: VariantKind
) -> None:
    components = handler(interaction)
    if isinstance(kind, int):
        await components.press_cell(interaction, board, kind)
    elif kind == "r":
        await components.press_resign(interaction, board)
    else:
        await components.press_rematch(interaction, board)


VARIANT_ITEMS = (MnkButton, UltimateButton)
"""The ``DynamicItem`` classes of the variants' boards (registered with ``add_dynamic_items``)."""
