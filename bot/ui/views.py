"""A board's components as prebuilt payloads (Discord's JSON), for every game, laid out by its presenter
(:func:`bot.text.presenters.presenter`: the layout its game declares) within Discord's limits (5 action rows, 5
buttons a row, 40 components):

- A board whose button rows fit with a control row below is a classic message: its text as ``content``, its rows of
  buttons, and the control row (Resign, or Rematch after the end). A board of cells (3x3, 4x4) has a row of cell
  buttons per board row; a game played by column has a button per column (:mod:`bot.ui.columns`: 7 columns in two
  rows) under the grid of discs its text draws (:mod:`bot.text.discs`).
- A board needing more rows, whose rows fit 5 buttons (5x5), is a Components V2 message (flag ``IS_COMPONENTS_V2``,
  no ``content``): a text display with the board's text, a row of buttons per board row and the control row.
- A board of small boards (ultimate) is a Components V2 message: the text display, the whole grid as a picture
  in a media gallery (``attachment://ultimate.png``, drawn by :mod:`bot.images.ultimate` and replaced on every move),
  a pad of buttons (the small board the player must play in; on a free choice the open small boards) and the control
  row. A free choice goes on in the player's private pad (:func:`private_pad`, an ephemeral message): the chosen
  board's cells and Back, or the open boards again.
- Any other grid (wider or higher than 5, or of columns too many for emoji discs) is a Components V2 message: the text
  display (which says how to type a move), the grid as a picture (``attachment://board.png``, drawn by
  :mod:`bot.images.grid`) and the control row; its moves are typed with ``/ttt move``.
- A text board (``board:text``) is a classic message for every game.

The buttons' ids come from the codec (:func:`bot.games.codec.encoder`); their presses are read in
:mod:`bot.ui.buttons`. Presses are dispatched by the registered ``DynamicItem`` templates, not by these views, so
they hold no items: building one costs a few dicts, and discord.py keeps nothing per message for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.games.codec import Kind, encoder, ref_encoder
from bot.games.match import Match
from bot.i18n.lang import Lang, lang
from bot.text import labels
from bot.text.presenters import presenter_of
from bot.ui.buttons import ChallengeButton
from bot.ui.columns import column_buttons, column_rows, row_count
from bot.ui.faces import cell_faces
from bot.ui.pictures import (
    GRID_PICTURE_NAME,
    PICTURE_NAME,
    Attachment,
    Picture,
    grid_picture,
    state_picture,
    ultimate_picture,
)
from engine import Mark, Variant

__all__ = [
    "GRID_PICTURE_NAME",
    "PICTURE_NAME",
    "REMATCH",
    "RESIGN",
    "BoardComponents",
    "Control",
    "LayoutComponents",
    "board_message",
    "board_view",
    "button_payload",
    "button_rows",
    "challenge_view",
    "grid_picture",
    "hint_view",
    "is_layout",
    "is_layout_board",
    "private_pad",
    "state_picture",
    "ultimate_picture",
]

MAX_ACTION_ROWS: Final = 5
"""Discord's limit of action rows in a classic message: a board of fewer rows leaves one for its controls."""
_GREY, _GREEN = discord.ButtonStyle.secondary, discord.ButtonStyle.success
Make = Callable[[Kind], str]


@dataclass(frozen=True, slots=True)
class Control:
    """The button of a board's control row: its kind in the ``custom_id`` and its face."""

    kind: str
    label: str
    emoji: str
    style: discord.ButtonStyle


RESIGN = Control("r", labels.RESIGN, "\N{WAVING WHITE FLAG}", discord.ButtonStyle.secondary)
"""Resign the game (shown while it runs)."""
THINKING = Control("w", labels.THINKING, "\N{THOUGHT BALLOON}", discord.ButtonStyle.primary)
"""The search behind the bot's last move, shown privately (while the game runs, after the bot moved, on the games
whose search can be recomputed: :meth:`engine.Variant.explains`)."""
HINT_THINKING = Control("h", THINKING.label, THINKING.emoji, THINKING.style)
"""The same under a hint: the search in the position the hint is about."""
REMATCH = Control("n", labels.REMATCH, "\N{CLOCKWISE RIGHTWARDS AND LEFTWARDS OPEN CIRCLE ARROWS}", _GREEN)
"""Start a new game with the same players and options, sides swapped (shown after the end)."""


class BoardComponents(discord.ui.View):
    """A classic message's components as prebuilt payloads (action rows of buttons)."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as sent to Discord."""
        return self._rows


class LayoutComponents(discord.ui.View):
    """A Components V2 message's components as prebuilt payloads (text displays, a media gallery, action rows);
    it tells discord.py to set ``IS_COMPONENTS_V2`` on the message."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self._components = components

    def to_components(self) -> list[dict[str, Any]]:
        """The top-level components, as sent to Discord."""
        return self._components

    def has_components_v2(self) -> bool:
        """Always: the message is a Components V2 message."""
        return True


def is_layout(view: discord.ui.View | None) -> bool:
    """True when ``view`` makes a Components V2 message (send it without ``content``)."""
    return isinstance(view, LayoutComponents)


def button_rows(game: Match) -> int | None:
    """The action rows of buttons ``game``'s board needs (its control row aside): a button per column where its
    presenter is ``"columns"``, a row per board row where it is ``"buttons"``; ``None`` for a picture (with a pad, or
    with typed moves)."""
    match presenter_of(game):
        case "columns":
            return row_count(game.kind.width)
        case "buttons":
            return game.kind.height
        case _:
            return None


def is_layout_board(game: Match) -> bool:
    """True when ``game``'s board is a Components V2 message: its button rows and a control row are too many for a
    classic message, or it is a picture with a pad."""
    if game.mode != "buttons":
        return False
    rows = button_rows(game)
    return rows is None or rows + 1 > MAX_ACTION_ROWS


def button_payload(custom_id: str, style: discord.ButtonStyle, *, label: str | None = None,
                   emoji: str | None = None, disabled: bool = False) -> dict[str, Any]:  # fmt: skip
    """A button component as Discord's JSON (type 2)."""
    button: dict[str, Any] = {"type": 2, "style": style.value, "custom_id": custom_id}
    if disabled:  # Discord's default is enabled; leaving it out keeps every board's payload smaller
        button["disabled"] = True
    if label is not None:
        button["label"] = label
    if emoji is not None:
        button["emoji"] = {"name": emoji}
    return button


def _row(buttons: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": 1, "components": buttons}


def _cells(game: Match, make: Make, cells: Iterable[int], frozen: bool) -> list[dict[str, Any]]:
    """The buttons of ``cells``: each its mark (disabled) or its name (:func:`bot.ui.faces.cell_faces`)."""
    faces = cell_faces(game.state, frozen, game.variant)
    return [
        button_payload(
            make(cell), (face := faces[cell]).style, label=face.label, emoji=face.emoji, disabled=face.disabled
        )
        for cell in cells
    ]


def _grid_rows(game: Match, make: Make, shape: Variant, frozen: bool) -> list[dict[str, Any]]:
    """A row of cell buttons per board row, or on a game played by column a button per column."""
    if presenter_of(game) == "columns":
        return column_rows(column_buttons(shape.columns(game.state), shape.cell_label, make, frozen))
    buttons, width = _cells(game, make, range(shape.cells), frozen), shape.width
    return [_row(buttons[start : start + width]) for start in range(0, shape.cells, width)]


def _controls(make: Make, game: Match, tr: Lang, *, retired: bool) -> list[dict[str, Any]]:
    """The control row: Resign while playing, Rematch after the end; none on a retired board."""
    control: Control | None = None
    if not retired:
        if not game.over:
            control = RESIGN
        elif game.end_reason in ("win", "draw", "resigned", "abandoned"):
            control = REMATCH
    if control is None:
        return []
    controls = [control]
    if control is RESIGN and _bot_moved_last(game) and game.kind.explains(game.moves[:-1]):
        controls.append(THINKING)
    return [_row([_button(make, control, tr) for control in controls])]


def _button(make: Make, control: Control, tr: Lang) -> dict[str, Any]:
    return button_payload(make(control.kind), control.style, label=tr(control.label), emoji=control.emoji)


def _bot_moved_last(game: Match) -> bool:
    """True when the last move on ``game``'s board was the bot's."""
    return bool(game.moves) and game.player_id(Mark.X if len(game.moves) % 2 else Mark.O) is None


def hint_view(game: Match, tr: Lang | None = None) -> BoardComponents | None:
    """The button under a hint: how the search sees the hint's position (where the game's search can be recomputed:
    :meth:`engine.Variant.explains`), else none."""
    if not game.kind.explains(game.moves):
        return None
    return BoardComponents([_row([_button(encoder(game), HINT_THINKING, tr or lang(None))])])


def _pad(game: Match, make: Make, chosen: int | None, frozen: bool) -> list[dict[str, Any]]:
    """The pad: the cells of small board ``chosen`` or of the one to play in, or the open small boards."""
    state, shape = game.state, game.kind
    across = shape.width // shape.block
    board = chosen if chosen is not None or game.over else shape.forced_block(state)
    if board is None and game.over and game.moves:
        board = shape.block_of(game.moves[-1])
    if board is not None:
        buttons, across = _cells(game, make, shape.block_cells(board), frozen), shape.block
    else:
        playable = set(shape.open_blocks(state))
        buttons = [
            button_payload(make(f"p{b}"), _GREEN, label=shape.block_name(b), disabled=frozen or b not in playable)
            for b in range(across * across)
        ]
    return [_row(buttons[i : i + across]) for i in range(0, len(buttons), across)]


def private_pad(game: Match, board: int | None, tr: Lang | None = None) -> BoardComponents:
    """The buttons of a free choice's private pad (an ephemeral message of the player to move): the cells of small
    board ``board`` (0-based) and Back, or (``None``) the open small boards. Their ids are the pad's kind
    (``ttt:up:...``), at ``game``'s version.

    Raises:
        CodecError: ``game`` is not a game of small boards named by reference.
    """
    make = ref_encoder(game, pad=True)
    rows = _pad(game, make, board, frozen=False)
    if board is not None:
        label = (tr or lang(None))(labels.BACK)
        back = button_payload(make("k"), _GREY, label=label, emoji="\N{LEFTWARDS ARROW WITH HOOK}")
        rows.append(_row([back]))
    return BoardComponents(rows)


def _frozen(game: Match, retired: bool) -> bool:
    """True when no cell may be pressed: the game is over, the board retired, or the bot's search runs."""
    return game.over or retired or game.thinking


def board_view(game: Match, tr: Lang | None = None, *, retired: bool = False) -> BoardComponents | None:
    """The components of ``game``'s board as a classic message: a row of cells per board row (button mode) and the
    control row. ``retired`` gives the disabled board left on an old message after the board moved.

    Raises:
        CodecError: the game cannot be written in its ``custom_id`` format.
    """
    make, rules = encoder(game), game.kind
    rows = _grid_rows(game, make, rules, _frozen(game, retired)) if game.mode == "buttons" else []
    rows += _controls(make, game, tr or lang(None), retired=retired)
    return BoardComponents(rows) if rows else None


def board_message(
    game: Match, text: str, tr: Lang | None = None, *, retired: bool = False
) -> tuple[discord.ui.View | None, tuple[Attachment, ...]]:
    """The components of ``game``'s board message and its attachments (a picture, drawn when it is sent:
    :mod:`bot.ui.pictures`): :func:`board_view` where it fits a classic message, else a Components V2 layout.

    ``text`` is the board's text (the text display of a Components V2 board; a classic board sends it as content).

    Raises:
        CodecError: the game cannot be written in its ``custom_id`` format.
    """
    if not is_layout_board(game):
        return board_view(game, tr, retired=retired), ()
    tr = tr or lang(None)
    make, shape = encoder(game), game.kind
    frozen = _frozen(game, retired)
    components: list[dict[str, Any]] = [{"type": 10, "content": text}]
    files: tuple[Attachment, ...] = ()
    if button_rows(game) is not None:  # a button per cell or per column
        components += _grid_rows(game, make, shape, frozen)
    elif presenter_of(game) == "picture":  # the moves are typed
        files = (Picture(grid_picture(game), GRID_PICTURE_NAME),)
        components.append({"type": 12, "items": [{"media": {"url": f"attachment://{GRID_PICTURE_NAME}"}}]})
    else:
        files = (Picture(ultimate_picture(game), PICTURE_NAME),)
        components.append({"type": 12, "items": [{"media": {"url": f"attachment://{PICTURE_NAME}"}}]})
        components += _pad(game, make, None, frozen)
    components += _controls(make, game, tr, retired=retired)
    return LayoutComponents(components), files


def challenge_view(game: Match, tr: Lang | None = None) -> discord.ui.View:
    """Accept and Decline for a challenge. The view never times out: the game service expires the challenge."""
    if game.challenged_id is None:
        raise ValueError(f"game {game.game_id} is not a challenge")
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton(game.game_id, game.challenged_id, accept=True, tr=tr))
    view.add_item(ChallengeButton(game.game_id, game.challenged_id, accept=False, tr=tr))
    return view
