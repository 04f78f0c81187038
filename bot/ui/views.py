"""Components: the persistent board buttons and challenge answers (``DynamicItem``s).

Board buttons carry their whole game in the ``custom_id`` (:mod:`bot.games.codec`), so a press works
after a restart; challenge buttons carry the game id and the challenged user. A callback only reads
its button and hands the press to the bot's :class:`ComponentHandler`; it decides nothing itself.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any, ClassVar, Literal, Protocol, TypeVar, cast

import discord

from bot.games import codec
from bot.games.game import BoardRef, Game
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.ui.faces import cell_faces

__all__ = [
    "DYNAMIC_ITEMS",
    "BoardComponents",
    "CellButton",
    "ChallengeButton",
    "ComponentHandler",
    "Inactive",
    "RematchButton",
    "ResignButton",
    "board_view",
    "button_payload",
    "challenge_view",
    "read_pressed",
]

log = logging.getLogger(__name__)

ReadT = TypeVar("ReadT")


class ComponentHandler(Protocol):
    """What the board's buttons call; the bot exposes one as ``client.ttt``."""

    async def press_cell(
        self, interaction: discord.Interaction[discord.Client], board: Game | BoardRef, cell: int
    ) -> None: ...
    async def press_resign(self, interaction: discord.Interaction[discord.Client], board: Game | BoardRef) -> None: ...
    async def press_rematch(self, interaction: discord.Interaction[discord.Client], board: Game | BoardRef) -> None: ...
    async def choose_board(
        self, interaction: discord.Interaction[discord.Client], board: BoardRef, chosen: int | None
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


class Inactive(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ttt:.*"):
    """The answer to a board button whose id cannot be read (an impossible game, a cell off the board): "no longer
    active".

    Never registered itself: the board buttons (3x3's and the variants') return one from ``from_custom_id`` for such
    an id.
    """

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Say the button is no longer active, privately."""
        await handler(interaction).inactive_button(interaction)


class _BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ttt:[0-8rn]:.*"):
    """A press on a button of a board; it wraps the button discord.py read from the pressed message, so a press
    builds no new button."""

    def __init__(self, item: discord.ui.Button[Any], board: Game) -> None:
        super().__init__(item)
        self.board = board

    @classmethod
    async def from_custom_id(  # type: ignore[override]  # an unreadable id gets the inactive answer
        cls, interaction: discord.Interaction[discord.Client], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> discord.ui.DynamicItem[discord.ui.Button[Any]]:
        """Read the game from a pressed ``custom_id`` (this is what makes boards survive a restart)."""
        button = cast(discord.ui.Button[Any], item)
        read = read_pressed(interaction, match, codec.from_match)
        return Inactive(button) if read is None else cls._pressed(button, read[0], match)

    @classmethod
    def _pressed(cls, button: discord.ui.Button[Any], board: Game, match: re.Match[str]) -> _BoardButton:
        return cls(button, board)


class CellButton(_BoardButton, template=codec.CELL_TEMPLATE):
    """A press on one cell of a board (the board's buttons themselves are sent by :func:`board_view`)."""

    def __init__(self, item: discord.ui.Button[Any], board: Game, cell: int) -> None:
        super().__init__(item, board)
        self.cell = cell

    @classmethod
    def _pressed(cls, button: discord.ui.Button[Any], board: Game, match: re.Match[str]) -> _BoardButton:
        return cls(button, board, int(match["kind"]))

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the bot's component handler."""
        await handler(interaction).press_cell(interaction, self.board, self.cell)


class _ControlButton(_BoardButton, template=r"ttt:[rn]:.*"):
    """A press on the button of the board's last row; subclasses set its face (for :func:`board_view`)."""

    KIND: ClassVar[Literal["r", "n"]]
    LABEL: ClassVar[str]
    EMOJI: ClassVar[str]
    STYLE: ClassVar[discord.ButtonStyle]

    async def callback(self, interaction: discord.Interaction[discord.Client]) -> None:
        """Hand the press to the bot's component handler: Resign or Rematch, by the button's kind."""
        components = handler(interaction)
        press = components.press_resign if self.KIND == "r" else components.press_rematch
        await press(interaction, self.board)


class ResignButton(_ControlButton, template=codec.RESIGN_TEMPLATE):
    """Resign the game (shown while it runs)."""

    KIND = "r"
    LABEL = N_("Resign")
    EMOJI = "\N{WAVING WHITE FLAG}"
    STYLE = discord.ButtonStyle.secondary


class RematchButton(_ControlButton, template=codec.REMATCH_TEMPLATE):
    """Start a new game with the same players and options, sides swapped (shown after the end)."""

    KIND = "n"
    LABEL = N_("Rematch")
    EMOJI = "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}"
    STYLE = discord.ButtonStyle.success


class ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=codec.ANSWER_TEMPLATE):
    """Accept or Decline on a challenge prompt; the game service checks the challenge is still open."""

    def __init__(self, game_id: str, challenged_id: int, *, accept: bool, tr: Lang | None = None) -> None:
        tr = tr or lang(None)
        super().__init__(
            discord.ui.Button(
                label=tr(N_("Accept")) if accept else tr(N_("Decline")),
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
        await handler(interaction).answer_challenge(interaction, self.game_id, self.challenged_id, accept=self.accept)


DYNAMIC_ITEMS = (CellButton, ResignButton, RematchButton, ChallengeButton)


class BoardComponents(discord.ui.View):
    """A board's buttons as prebuilt component payloads (action rows of buttons, Discord's JSON).

    Presses are dispatched by the registered ``DynamicItem`` templates, not by this view, so it has no
    items: building it costs a few dicts instead of eleven ``DynamicItem`` objects, and discord.py keeps
    nothing per message for it.
    """

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as sent to Discord."""
        return self._rows


def button_payload(custom_id: str, style: discord.ButtonStyle, *, label: str | None = None,
                   emoji: str | None = None, disabled: bool = False) -> dict[str, Any]:  # fmt: skip
    """A button component as Discord's JSON (type 2), for every board's rows (also the variants')."""
    button: dict[str, Any] = {"type": 2, "style": style.value, "custom_id": custom_id}
    if disabled:  # Discord's default is enabled; leaving it out keeps every board's payload smaller
        button["disabled"] = True
    if label is not None:
        button["label"] = label
    if emoji is not None:
        button["emoji"] = {"name": emoji}
    return button


def board_view(game: Game, tr: Lang | None = None, *, retired: bool = False) -> discord.ui.View | None:
    """The board's components: nine cells (button mode) and Resign while playing, Rematch after the end.

    ``retired`` gives the disabled board left on an old message after the board moved. The buttons' ids are
    those of :class:`CellButton`, :class:`ResignButton` and :class:`RematchButton`, which handle the presses.
    """
    rows: list[dict[str, Any]] = []
    finished = game.over or retired
    custom_id = codec.encoder(game)
    if game.mode == "buttons":
        faces = cell_faces(game.state, finished)
        for row in range(3):
            buttons = [
                button_payload(custom_id(cell), face.style, label=face.label, emoji=face.emoji, disabled=face.disabled)
                for cell, face in enumerate(faces[3 * row : 3 * row + 3], 3 * row)
            ]
            rows.append({"type": 1, "components": buttons})
    control: type[_ControlButton] | None = None
    if not retired:
        if not game.over:
            control = ResignButton
        elif game.end_reason in ("win", "draw", "resigned", "abandoned"):
            control = RematchButton
    if control is not None:
        label = (tr or lang(None))(control.LABEL)
        button = button_payload(custom_id(control.KIND), control.STYLE, label=label, emoji=control.EMOJI)
        rows.append({"type": 1, "components": [button]})
    return BoardComponents(rows) if rows else None


def challenge_view(game: Game, tr: Lang | None = None) -> discord.ui.View:
    """Accept and Decline for a challenge. The view never times out: the game service expires the challenge."""
    if game.challenged_id is None:
        raise ValueError(f"game {game.game_id} is not a challenge")
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(game.game_id, game.challenged_id, accept=True, tr=tr))
    view.add_item(ChallengeButton(game.game_id, game.challenged_id, accept=False, tr=tr))
    return view
