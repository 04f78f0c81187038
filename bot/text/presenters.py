"""Which way of drawing (presenter) shows a board: chosen from the layout its game declares
(:meth:`engine.Variant.layout`) and the board mode the players picked, never from the game's name or its width alone.

==============  =========================================================================================  =========
presenter       draws                                                                                      moves
==============  =========================================================================================  =========
``"text"``      any layout, as monospace text in the message (``board:text``)                              typed
``"buttons"``   a grid of cells up to 5 x 5: a button per cell (Discord: 5 buttons a row, 5 rows)          pressed
``"columns"``   a grid played by column, up to 42 cells: discs as emoji text, a button per column          pressed
``"pad"``       ultimate's board of small boards: its picture and a pad of one small board's buttons       pressed
``"picture"``   any other grid up to 19 x 19 (cells, or columns too big for emoji text): its picture       typed
==============  =========================================================================================  =========

A board whose moves are typed is played with ``/ttt move cell:<coordinate>`` (a column's any cell on a game played by
column); :func:`engine.register` refuses a layout none of these draws (:func:`engine.registry.check_layout`). The
components of each are built by :mod:`bot.ui.views`; the choice lives here, in pure text, because it also decides what
the board's text shows (discs, the ``/ttt move`` reminder).
"""

from __future__ import annotations

from typing import Final, Literal

from bot.games.match import Match, Mode
from engine import Layout

__all__ = ["MAX_BUTTON_SIDE", "MAX_DISC_CELLS", "Presenter", "presenter", "presenter_of", "typed"]

Presenter = Literal["text", "buttons", "columns", "pad", "picture"]
"""A way of drawing a board (the table above)."""
MAX_BUTTON_SIDE: Final = 5
"""The widest and highest grid drawn as buttons: Discord's 5 buttons an action row, and 25 cells, the most a board's
buttons carry in their ids (:data:`bot.games.custom_ids.MAX_CARRIED_CELLS`)."""
MAX_DISC_CELLS: Final = 42
"""The most cells drawn as emoji discs in the message's text (7 x 6: about 400 characters of the
2,000 a message holds; bigger boards of columns are a picture)."""


def presenter(layout: Layout, mode: Mode) -> Presenter:
    """The presenter that draws a board of ``layout`` in board ``mode`` (``"buttons"`` or ``"text"``)."""
    if mode == "text":
        return "text"
    if layout.kind == "blocks":
        return "pad"
    if layout.kind == "columns":
        return "columns" if layout.width * layout.height <= MAX_DISC_CELLS else "picture"
    return "buttons" if max(layout.width, layout.height) <= MAX_BUTTON_SIDE else "picture"


def presenter_of(game: Match) -> Presenter:
    """:func:`presenter` of ``game``'s board."""
    return presenter(game.kind.layout(), game.mode)


def typed(game: Match) -> bool:
    """True when ``game``'s board has no buttons for its moves: they are typed with ``/ttt move``."""
    return presenter_of(game) in ("text", "picture")
