"""The board of a game played by column (:meth:`engine.Variant.columns`) as emoji text: the columns' names as keycaps
above a grid of discs, written into the board message itself.

Why emoji text and not a picture or a code block, read on a phone: every emoji is drawn at one width, so the seven
columns stay aligned under their keycaps in any font (a code block's ``X`` and ``O`` read as letters, not discs, and
a picture is shrunk to the width of the chat and must be opened to be read). The discs are the game's own colours,
red (the first player, X) and yellow (O); an empty cell is a white circle, which stays visible on both Discord's dark
and light themes and keeps each row a line of seven circles. The last disc is a square of its colour, so the move just
made is found at a glance, and once a line is completed its discs turn green, as the winning line of every other
board does.

Pure text: no ``discord`` import.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.games.match import Match
from bot.i18n import N_
from bot.i18n.lang import Lang
from bot.text.common import MARK_EMOJI, deciding_line
from bot.text.presenters import presenter_of
from engine import Mark, Variant

__all__ = [
    "DISC",
    "DISC_NAMES",
    "EMPTY",
    "LAST_DISC",
    "LOST",
    "WON",
    "column_heading",
    "disc_grid",
    "mark_emoji",
    "piece",
    "piece_emoji",
    "played_by_column",
    "shows_discs",
]

DISC: Final = {Mark.X: "\N{LARGE RED CIRCLE}", Mark.O: "\N{LARGE YELLOW CIRCLE}"}
"""A disc of each side (X moves first: red)."""
LAST_DISC: Final = {Mark.X: "\N{LARGE RED SQUARE}", Mark.O: "\N{LARGE YELLOW SQUARE}"}
"""The disc played last."""
WON: Final = "\N{LARGE GREEN CIRCLE}"
"""A disc of the line that won the game."""
LOST: Final = "\N{MEDIUM BLACK CIRCLE}"
"""A disc of the line that lost the game (a misère game)."""
EMPTY: Final = "\N{MEDIUM WHITE CIRCLE}"
"""An empty cell."""
DISC_NAMES: Final = {Mark.X: N_("red"), Mark.O: N_("yellow")}
"""Each side's discs by their colour, as a player is told which side they play (message ids)."""
_KEYCAP: Final = "\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}"
_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"


def played_by_column(kind: Variant, state: Any) -> bool:
    """True when game ``kind`` is played by column (a disc falls to the lowest empty cell): its board is drawn with
    discs and a button per column."""
    return bool(kind.columns(state))


def shows_discs(game: Match) -> bool:
    """True when ``game``'s board is drawn with discs in its text: a game played by column, with a button per column
    (:func:`bot.text.presenters.presenter_of`)."""
    return presenter_of(game) == "columns"


def piece_emoji(kind: Variant) -> Mapping[Mark, str]:
    """Each side's emoji in game ``kind`` by the pieces it declares (:attr:`engine.Layout.pieces`): its disc
    (:data:`DISC`), else ❌ and ⭕."""
    return DISC if kind.layout().pieces == "discs" else MARK_EMOJI


def mark_emoji(game: Match) -> Mapping[Mark, str]:
    """Each side's emoji as ``game``'s board shows it: its game's pieces (:func:`piece_emoji`) unless the board is
    text, whose grid shows X and O."""
    return piece_emoji(game.kind) if game.mode == "buttons" else MARK_EMOJI


def piece(mark: Mark, tr: Lang, *, discs: bool) -> str:
    """How side ``mark`` is named to a player: its emoji and its name, ``"🔴 red"`` and ``"🟡 yellow"`` on a board drawn
    with discs (``discs``: :func:`shows_discs`), else ``"❌ X"`` and ``"⭕ O"``."""
    if discs:
        return f"{DISC[mark]} {tr(DISC_NAMES[mark])}"
    return f"{MARK_EMOJI[mark]} {mark.value}"


def _keycap(label: str) -> str:
    """A column's name as one emoji: a digit as its keycap (``"4"`` → 4️⃣), a letter as its regional indicator
    (followed by a zero-width space, so that two letters never join into a flag); any other name as it is."""
    if len(label) == 1 and label.isdigit():
        return label + _KEYCAP
    if len(label) == 1 and label.lower() in _LETTERS:
        return chr(ord("\N{REGIONAL INDICATOR SYMBOL LETTER A}") + _LETTERS.index(label.lower())) + "\u200b"
    return label


def column_heading(kind: Variant) -> str:
    """The columns' names (:meth:`engine.Variant.cell_label` of their top cells) as one line of keycaps."""
    return "".join(_keycap(kind.cell_label(column)) for column in range(kind.width))


def disc_grid(kind: Variant, state: Any, last: int | None = None) -> str:
    """Engine ``state`` of column game ``kind`` as emoji lines: :func:`column_heading`, then the rows from the top,
    one emoji per cell: a disc (:data:`DISC`), the disc on cell ``last`` (0-based, the last move) as
    :data:`LAST_DISC`, the discs of the line that decided the game (:func:`bot.text.common.deciding_line`) as
    :data:`WON`, or :data:`LOST` where that line lost it, an empty cell as :data:`EMPTY`. About 400 characters for
    7 x 6."""
    won, lost = deciding_line(kind, state)
    rows = [column_heading(kind)]
    for top in range(0, kind.cells, kind.width):
        row = []
        for cell in range(top, top + kind.width):
            mark = kind.mark(state, cell)
            if mark is None:
                row.append(EMPTY)
            elif cell in won:
                row.append(LOST if lost else WON)
            else:
                row.append(LAST_DISC[mark] if cell == last else DISC[mark])
        rows.append("".join(row))
    return "\n".join(rows)
