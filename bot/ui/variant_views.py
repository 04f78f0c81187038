"""The boards of the variants other than 3x3, as component payloads (Discord's JSON).

- **4x4**: a classic message, 4 rows of 4 cell buttons and a control row (Resign, or Rematch after the end).
- **5x5**: a Components V2 message (flag ``IS_COMPONENTS_V2``, no ``content``): a text display with the board's
  text, 5 rows of 5 cell buttons and the control row: 33 components of the 40 allowed.
- **Ultimate**: a Components V2 message: the text display, the whole grid as a picture in a media gallery
  (``attachment://ultimate.png``, drawn by :mod:`bot.images.ultimate` and replaced on every move), a 3x3 pad of
  buttons labelled with their coordinates (the small board the player must play in; on a free choice the open
  small boards) and the control row (Resign): 16 components. A free choice goes on in the player's private pad
  (:func:`private_pad`, an ephemeral message): the chosen board's cells and Back, or the open boards again.
- A text board (``board:text``) is a classic message for every variant (its grid fits in 2,000 characters).

The buttons' ids come from :mod:`bot.games.codec`: 4x4 and 5x5 carry their whole game, ultimate its game id
and version; their presses are read in :mod:`bot.ui.variant_buttons`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final, cast

import discord

from bot.games.codec import Kind, encoder, ref_encoder
from bot.games.game import Game
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.images.ultimate import UltimatePicture
from bot.text.common import MARK_EMOJI
from bot.text.variants import board_cells, mark_at, small_board_name
from bot.ui.faces import MARK_STYLE
from bot.ui.pictures import Attachment, Picture
from bot.ui.views import BoardComponents, RematchButton, ResignButton, button_payload
from engine import Mark
from engine.variants import VARIANTS

__all__ = [
    "PICTURE_NAME",
    "LayoutComponents",
    "is_layout",
    "private_pad",
    "state_picture",
    "ultimate_picture",
    "variant_view",
]

log = logging.getLogger(__name__)

PICTURE_NAME: Final = "ultimate.png"
"""The file name of an ultimate board's picture (its media gallery refers to ``attachment://ultimate.png``)."""
BACK = N_("Back")
MAX_ACTION_ROWS: Final = 5
"""Discord's limit of action rows in a classic message: a board of fewer rows leaves one for its controls."""
MAX_ROW_BUTTONS: Final = 5
"""Discord's limit of buttons in an action row: a wider board is drawn as a picture with a pad."""
_GREY, _GREEN = discord.ButtonStyle.secondary, discord.ButtonStyle.success


class LayoutComponents(discord.ui.View):
    """A Components V2 message's components as prebuilt payloads (text displays, a media gallery, action rows).

    Like :class:`~bot.ui.views.BoardComponents` it holds no items (the presses are dispatched by the registered
    ``DynamicItem`` templates); it tells discord.py to set ``IS_COMPONENTS_V2`` on the message.
    """

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


def _row(buttons: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": 1, "components": buttons}


def _cell(make: Callable[[Kind], str], game: Game, cell: int, *, label: str, frozen: bool) -> dict[str, Any]:
    """A cell button: its mark (disabled), or its label; the winning player's marks green is left to the picture."""
    mark = mark_at(game.state, cell)
    if mark is not None:
        return button_payload(make(cell), MARK_STYLE[mark], emoji=MARK_EMOJI[mark], disabled=True)
    return button_payload(make(cell), _GREY, label=label, disabled=frozen)


def _controls(make: Callable[[Kind], str], game: Game, tr: Lang, *, retired: bool) -> dict[str, Any] | None:
    """The control row: Resign while playing, Rematch after the end."""
    buttons = []
    if not retired:
        control: type[ResignButton] | type[RematchButton] | None = None
        if not game.over:
            control = ResignButton
        elif game.end_reason in ("win", "draw", "resigned", "abandoned"):
            control = RematchButton
        if control is not None:
            buttons.append(
                button_payload(make(control.KIND), control.STYLE, label=tr(control.LABEL), emoji=control.EMOJI)
            )
    return _row(buttons) if buttons else None


def _shape(game: Game) -> tuple[int, int]:
    """The board's width and height in cells (:class:`engine.variants.Variant`)."""
    board = VARIANTS[game.variant]
    return board.width, board.height


def _grid_rows(game: Game, make: Callable[[Kind], str], frozen: bool) -> list[dict[str, Any]]:
    width, _ = _shape(game)
    return [
        _row(
            [
                _cell(make, game, cell, label=game.cell_name(cell), frozen=frozen)
                for cell in range(width * row, width * row + width)
            ]
        )
        for row in range(width)
    ]


def ultimate_picture(game: Game) -> UltimatePicture:
    """What the picture of an ultimate game shows: its marks, its small boards' results, the boards the player to
    move may play in (none once it is over) and the last move."""
    return state_picture(game.state, game.moves[-1] if game.moves else None, over=game.over)


def state_picture(state: Any, last: int | None, *, over: bool) -> UltimatePicture:
    """:func:`ultimate_picture` of an engine ``state`` whose last move was ``last`` (a puzzle's position, say)."""
    boards: list[Mark | str | None] = []
    for status in state.board_statuses:
        value = getattr(status, "value", status)
        boards.append(Mark(value) if value in ("X", "O") else "draw" if value == "drawn" else None)
    return UltimatePicture(
        cells=tuple(state[cell] for cell in range(81)),
        boards=cast(Any, tuple(boards)),
        targets=frozenset(() if over else state.playable_boards),
        last=last,
    )


def _pad(game: Game, make: Callable[[Kind], str], chosen: int | None, frozen: bool) -> list[dict[str, Any]]:
    """The 3x3 pad: the cells of small board ``chosen`` or of the one to play in, or the open small boards."""
    state = game.state
    board = chosen if chosen is not None or game.over else state.forced_board
    if board is None and game.over and game.moves:
        board = next(b for b in range(9) if game.moves[-1] in board_cells(b))
    if board is not None:
        cells = board_cells(board)
        buttons = [_cell(make, game, cell, label=game.cell_name(cell), frozen=frozen) for cell in cells]
    else:
        playable = set(state.playable_boards)
        buttons = [
            button_payload(make(f"p{b}"), _GREEN, label=small_board_name(b), disabled=frozen or b not in playable)
            for b in range(9)
        ]
    return [_row(buttons[3 * r : 3 * r + 3]) for r in range(3)]


def private_pad(game: Game, board: int | None, tr: Lang | None = None) -> BoardComponents:
    """The buttons of an ultimate free choice's private pad (an ephemeral message of the player to move): the cells
    of small board ``board`` (0-8) and Back, or (``None``) the open small boards. Their ids are the pad's kind
    (``ttt:up:...``), at ``game``'s version.

    Raises:
        CodecError: ``game`` is not an ultimate game.
    """
    make = ref_encoder(game, pad=True)
    rows = _pad(game, make, board, frozen=False)
    if board is not None:
        back = button_payload(make("k"), _GREY, label=(tr or lang(None))(BACK), emoji="\N{LEFTWARDS ARROW WITH HOOK}")
        rows.append(_row([back]))
    return BoardComponents(rows)


def variant_view(
    game: Game, text: str, tr: Lang | None = None, *, retired: bool = False
) -> tuple[discord.ui.View | None, tuple[Attachment, ...]]:
    """The components of a 4x4, 5x5 or ultimate board message and its attachments (ultimate's picture, drawn when
    it is sent: :mod:`bot.ui.pictures`).

    ``text`` is the board's text (the text display of a Components V2 board; a classic board sends it as content).
    ``retired`` gives the disabled board of an old message after the board moved.

    Raises:
        CodecError: the game cannot be written in its variant's ``custom_id`` format.
    """
    tr = tr or lang(None)
    make = encoder(game)
    frozen = game.over or retired or game.thinking
    width, height = _shape(game)
    if game.mode == "text" or height < MAX_ACTION_ROWS:  # the grid and the control row fit a classic message
        rows = _grid_rows(game, make, frozen) if game.mode == "buttons" else []
        control = _controls(make, game, tr, retired=retired)
        rows += [control] if control is not None else []
        return (BoardComponents(rows) if rows else None), ()
    components: list[dict[str, Any]] = [{"type": 10, "content": text}]
    files: tuple[Attachment, ...] = ()
    if width <= MAX_ROW_BUTTONS:  # a button per cell
        components += _grid_rows(game, make, frozen)
    else:
        files = (Picture(ultimate_picture(game), PICTURE_NAME),)
        components.append({"type": 12, "items": [{"media": {"url": f"attachment://{PICTURE_NAME}"}}]})
        components += _pad(game, make, None, frozen)
    control = _controls(make, game, tr, retired=retired)
    components += [control] if control is not None else []
    return LayoutComponents(components), files
