"""Components: the persistent board buttons and challenge answers (``DynamicItem``s).

Board buttons keep the whole game in their ``custom_id`` (see :mod:`bot.codec`), so a press works
after a restart; challenge buttons keep the game id and the challenged user, so a press after a
restart still gets an answer. Their callbacks hand over to the ``TicTacToe`` cog, which owns the
game logic.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord

from bot import codec, render
from bot.codec import GameCode
from bot.sessions import Session

if TYPE_CHECKING:
    from bot.cogs.ttt import TicTacToe

__all__ = [
    "COG_NAME",
    "CellButton",
    "ChallengeButton",
    "RematchButton",
    "ResignButton",
    "board_view",
    "challenge_view",
]

log = logging.getLogger(__name__)

COG_NAME = "TicTacToe"
_CONTROL_ROW = 3


def _cog(interaction: discord.Interaction[Any]) -> TicTacToe:
    cog = interaction.client.get_cog(COG_NAME)
    if cog is None:
        raise RuntimeError(f"the {COG_NAME} cog is not loaded")
    return cog  # type: ignore[no-any-return]


async def _run(
    interaction: discord.Interaction[Any], game_id: str, label: str, action: Callable[[TicTacToe], Awaitable[None]]
) -> None:
    """Run a component callback; log any error and apologise, since discord.py only logs DynamicItem errors."""
    try:
        await action(_cog(interaction))
    except Exception as error:
        log.error(
            "%s failed: channel=%s game=%s user=%s",
            label,
            interaction.channel_id,
            game_id,
            interaction.user.id,
            exc_info=error,
        )
        await apologise(interaction)


async def apologise(interaction: discord.Interaction[Any]) -> None:
    """Answer ``interaction`` with a short private apology, as a follow-up if it was already answered."""
    none = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(render.ERROR, ephemeral=True, allowed_mentions=none)
        else:
            await interaction.response.send_message(render.ERROR, ephemeral=True, allowed_mentions=none)
    except discord.HTTPException:
        log.warning("could not apologise: channel=%s", interaction.channel_id, exc_info=True)


class _GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ttt:[0-8rn]:.*"):
    """Shared parsing for the board's buttons; as itself, the answer to a ``custom_id`` that cannot be read.

    It is never registered: the subclasses are, and return one of these only when their id's board is
    impossible, so that the press still gets a reply.
    """

    def __init__(
        self, button: discord.ui.Button[Any], code: GameCode | None, *, pressed_disabled: bool = False
    ) -> None:
        super().__init__(button)
        self.code = code
        self.pressed_disabled = pressed_disabled

    @classmethod
    def _parse(cls, match: re.Match[str]) -> GameCode | None:
        try:
            return codec.from_match(match)[0]
        except codec.CodecError:
            log.warning("unreadable custom_id %r", match.string)
            return None

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog (errors are logged and answered with an apology)."""
        await interaction.response.send_message(
            render.STALE_BOARD, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )


class CellButton(_GameButton, template=codec.CELL_TEMPLATE):
    """One cell of the board: its mark (❌/⭕) or its number; the winning line is green."""

    def __init__(self, code: GameCode, cell: int, *, finished: bool, pressed_disabled: bool = False) -> None:
        face = render.cell_face(code.state, cell, finished=finished)
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=face.label,
            emoji=face.emoji,
            style=face.style,
            disabled=face.disabled,
            custom_id=codec.encode(code, cell),
            row=cell // 3,
        )
        super().__init__(button, code, pressed_disabled=pressed_disabled)
        self.cell = cell

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # an unreadable id gets the base class's reply
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> _GameButton:
        """Rebuild the button from a pressed ``custom_id`` (this is what makes boards survive a restart)."""
        code = cls._parse(match)
        disabled = bool(getattr(item, "disabled", False))
        if code is None:
            return _GameButton(item, None, pressed_disabled=disabled)  # type: ignore[arg-type]
        return cls(code, int(match["kind"]), finished=disabled, pressed_disabled=disabled)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog (errors are logged and answered with an apology)."""
        assert self.code is not None
        code, cell, disabled = self.code, self.cell, self.pressed_disabled
        await _run(
            interaction, code.game_id, "cell press", lambda cog: cog.press_cell(interaction, code, cell, disabled)
        )


class _ControlButton(_GameButton, template=r"ttt:[rn]:.*"):
    """A button of the board's last row; subclasses set its face and what a press does."""

    KIND: ClassVar[Literal["r", "n"]]
    LABEL: ClassVar[str]
    EMOJI: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle]

    def __init__(self, code: GameCode, *, disabled: bool = False) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=self.LABEL,
            emoji=self.EMOJI,
            style=self.STYLE,
            disabled=disabled,
            custom_id=codec.encode(code, self.KIND),
            row=_CONTROL_ROW,
        )
        super().__init__(button, code, pressed_disabled=disabled)

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # an unreadable id gets the base class's reply
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> _GameButton:
        """Rebuild the button from a pressed ``custom_id`` (this is what makes boards survive a restart)."""
        code = cls._parse(match)
        disabled = bool(getattr(item, "disabled", False))
        return _GameButton(item, None) if code is None else cls(code, disabled=disabled)  # type: ignore[arg-type]


class ResignButton(_ControlButton, template=codec.RESIGN_TEMPLATE):
    """Resign the game (shown while it runs)."""

    KIND = "r"
    LABEL = "Resign"
    EMOJI = "\N{WAVING WHITE FLAG}"
    STYLE = discord.ButtonStyle.secondary

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog (errors are logged and answered with an apology)."""
        assert self.code is not None
        code, disabled = self.code, self.pressed_disabled
        await _run(interaction, code.game_id, "resign press", lambda cog: cog.press_resign(interaction, code, disabled))


class RematchButton(_ControlButton, template=codec.REMATCH_TEMPLATE):
    """Start a new game with the same players and options, sides swapped (shown after the end)."""

    KIND = "n"
    LABEL = "Rematch"
    EMOJI = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"
    STYLE = discord.ButtonStyle.success

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog (errors are logged and answered with an apology)."""
        assert self.code is not None
        code = self.code
        await _run(interaction, code.game_id, "rematch press", lambda cog: cog.press_rematch(interaction, code))


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"ttt:(?P<answer>[ad]):(?P<game>[0-9a-f]{6}):(?P<challenged>\d{1,20})",
):
    """Accept or Decline on a challenge prompt; the cog checks that the challenge is still open."""

    def __init__(self, game_id: str, challenged_id: int, *, accept: bool) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label="Accept" if accept else "Decline",
            style=discord.ButtonStyle.success if accept else discord.ButtonStyle.danger,
            custom_id=f"ttt:{'a' if accept else 'd'}:{game_id}:{challenged_id}",
        )
        super().__init__(button)
        self.game_id = game_id
        self.challenged_id = challenged_id
        self.accept = accept

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ChallengeButton:
        """Rebuild the answer button from a pressed ``custom_id``."""
        return cls(match["game"], int(match["challenged"]), accept=match["answer"] == "a")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the cog (errors are logged and answered with an apology)."""
        game_id, challenged, accept = self.game_id, self.challenged_id, self.accept
        await _run(
            interaction,
            game_id,
            "challenge answer",
            lambda cog: cog.answer_challenge(interaction, game_id, challenged, accepted=accept),
        )


DYNAMIC_ITEMS = (CellButton, ResignButton, RematchButton, ChallengeButton)


def board_view(session: Session, *, retired: bool = False) -> discord.ui.View | None:
    """The board's components: nine cells (button mode) and Resign while playing, Rematch after the end.

    ``retired`` gives the disabled board left on an old message after the board moved. The view never
    times out (``timeout=None``): its buttons are ``DynamicItem``s and must stay registered.
    """
    view = discord.ui.View(timeout=None)
    finished = session.over or retired
    code = session.code
    if session.mode == "buttons":
        for cell in range(9):
            view.add_item(CellButton(code, cell, finished=finished))
    if retired:
        return view if view.children else None
    if not session.over:
        view.add_item(ResignButton(code))
    elif session.end_reason in ("win", "draw", "resigned", "abandoned"):
        view.add_item(RematchButton(code))
    return view if view.children else None


def challenge_view(game_id: str, challenged_id: int) -> discord.ui.View:
    """Accept and Decline for a challenge. The view never times out: the cog expires the challenge itself."""
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(game_id, challenged_id, accept=True))
    view.add_item(ChallengeButton(game_id, challenged_id, accept=False))
    return view
