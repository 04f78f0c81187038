"""How a board's cell buttons look: a mark, or the cell's name as its board names it (a number 1-9 on 3x3, a
coordinate elsewhere), the winning line green where the rules name it (Discord's button styles)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from discord.enums import ButtonStyle

from bot.text.common import MARK_EMOJI, deciding_line
from engine import DEFAULT_VARIANT, Mark
from engine import variant as variant_named

__all__ = ["MARK_STYLE", "ButtonFace", "cell_faces"]

MARK_STYLE = {Mark.X: ButtonStyle.danger, Mark.O: ButtonStyle.primary}
WON_STYLE = ButtonStyle.success
"""The line that won the game: green."""
LOST_STYLE = ButtonStyle.secondary
"""The line that lost the game (misère): grey, neither green nor a side's colour."""


@dataclass(frozen=True, slots=True)
class ButtonFace:
    """How one cell button looks."""

    label: str | None
    emoji: str | None
    style: ButtonStyle
    disabled: bool


_face = cache(ButtonFace)
"""One shared object per distinct face (a few hundred), so the cached boards below hold tuples of shared faces."""


@cache
def _labels(variant: str) -> tuple[str, ...]:
    """Every cell's name on ``variant``'s board, row by row."""
    rules = variant_named(variant)
    return tuple(rules.cell_label(cell) for cell in range(rules.cells))


@lru_cache(maxsize=4096)
def cell_faces(state: Any, finished: bool, variant: str = DEFAULT_VARIANT) -> tuple[ButtonFace, ...]:
    """The faces of every cell of engine ``state`` of game ``variant``, row by row: each its mark or its name, the
    line that decided the game green where it won, grey where it lost (:func:`bot.text.common.deciding_line`), all
    disabled when ``finished`` (cached: a
    board is drawn on every move; 3x3 has only 5,478 positions)."""
    kind = variant_named(variant)
    line, lost = deciding_line(kind, state)
    faces = []
    for cell, label in enumerate(_labels(variant)):
        mark = kind.mark(state, cell)
        if mark is None:
            faces.append(_face(label=label, emoji=None, style=ButtonStyle.secondary, disabled=finished))
        else:
            style = (LOST_STYLE if lost else WON_STYLE) if cell in line else MARK_STYLE[mark]
            faces.append(_face(label=None, emoji=MARK_EMOJI[mark], style=style, disabled=True))
    return tuple(faces)
