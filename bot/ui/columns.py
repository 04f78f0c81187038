"""The buttons of a game played by column (:meth:`engine.Variant.columns`): one a column, named as the board names the
column (:meth:`engine.Variant.cell_label`), spread evenly over as few action rows as Discord's 5 buttons a row allow
(7 columns: 4 and 3).

A column's button is keyed by the cell its next disc falls to (the move it plays), a full column's by its top cell
(disabled: nothing falls there), so every button of a board has its own ``custom_id``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

import discord

__all__ = ["MAX_ROW_BUTTONS", "column_buttons", "column_rows", "row_count"]

MAX_ROW_BUTTONS: Final = 5
"""Discord's limit of buttons in an action row."""


def row_count(columns: int) -> int:
    """The action rows ``columns`` buttons take, at most :data:`MAX_ROW_BUTTONS` a row."""
    return -(-columns // MAX_ROW_BUTTONS)


def column_buttons(
    landing: Sequence[int | None], label: Callable[[int], str], make: Callable[[int], str], frozen: bool
) -> list[dict[str, Any]]:
    """A button per column, left to right, as Discord's JSON: ``landing`` is each column's next cell (``None``: full,
    :meth:`engine.Variant.columns`), ``label`` names a column by one of its cells, ``make`` writes a cell's
    ``custom_id``; a full column's button is disabled, and all are when ``frozen`` (the game is over, or the bot
    thinks)."""
    buttons = []
    for column, cell in enumerate(landing):
        button: dict[str, Any] = {
            "type": 2,
            "style": discord.ButtonStyle.secondary.value,
            "custom_id": make(column if cell is None else cell),  # the top cell of a full column
            "label": label(column if cell is None else cell),
        }
        if frozen or cell is None:
            button["disabled"] = True
        buttons.append(button)
    return buttons


def column_rows(buttons: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``buttons`` in action rows of as even a length as :func:`row_count` rows allow, the longer rows first."""
    rows = row_count(len(buttons))
    per_row = -(-len(buttons) // rows) if rows else 0
    return [{"type": 1, "components": buttons[i : i + per_row]} for i in range(0, len(buttons), per_row or 1)]
