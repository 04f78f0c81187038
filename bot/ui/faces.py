"""How a board's cell buttons look: a mark or a number, the winning line green (Discord's button styles)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from discord.enums import ButtonStyle

from bot.text.common import MARK_EMOJI
from engine import Mark, State, winning_cells

__all__ = ["MARK_STYLE", "ButtonFace", "cell_faces"]

MARK_STYLE = {Mark.X: ButtonStyle.danger, Mark.O: ButtonStyle.primary}


@dataclass(frozen=True, slots=True)
class ButtonFace:
    """How one cell button looks."""

    label: str | None
    emoji: str | None
    style: ButtonStyle
    disabled: bool


_face = cache(ButtonFace)
"""One shared object per distinct face (a few dozen), so the cached boards below hold tuples of shared faces."""


@lru_cache(maxsize=4096)
def cell_faces(state: State, finished: bool) -> tuple[ButtonFace, ...]:
    """The nine faces of a board, cells 0-8: each its mark or number, the winning line green, all disabled when
    ``finished`` (cached: a board is drawn on every move, and there are only 5,478 positions)."""
    won = winning_cells(state)
    faces = []
    for cell in range(9):
        mark = state[cell]
        if mark is None:
            faces.append(_face(label=str(cell + 1), emoji=None, style=ButtonStyle.secondary, disabled=finished))
        else:
            style = ButtonStyle.success if cell in won else MARK_STYLE[mark]
            faces.append(_face(label=None, emoji=MARK_EMOJI[mark], style=style, disabled=True))
    return tuple(faces)
