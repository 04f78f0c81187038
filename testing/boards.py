"""Reading tic-tac-toe boards the way a player does: from a message's text grid or its buttons' faces.

A board is a string of nine ``X``/``O``/``.`` (cells 0-8, row by row). Button boards show a cell as its number
(label ``"1"``-``"9"``) while free and as ❌ / ⭕ once taken, in three rows of three; text boards draw a grid in a
code block. Nothing here reads the bot's ``custom_id`` fields, except :func:`game_id_of` and
:func:`with_players`: the only two functions that know the custom_id layout (adapt them when it changes).
"""

from __future__ import annotations

import re
from typing import Any

EMOJI = {"X": "\N{CROSS MARK}", "O": "\N{HEAVY LARGE CIRCLE}"}
MARK_OF_EMOJI = {emoji: mark for mark, emoji in EMOJI.items()}
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
GRID_ROW = re.compile(r"^ (\S) │ (\S) │ (\S) $")
EMPTY = "........."

# ---------------------------------------------------------------------------------------------- game rules


def winner(board: str) -> str | None:
    """``"X"`` or ``"O"`` when that mark has three in a row, else ``None``."""
    for a, b, c in LINES:
        if board[a] != "." and board[a] == board[b] == board[c]:
            return board[a]
    return None


def finished(board: str) -> bool:
    """Whether the game on ``board`` is over (a line or a full board)."""
    return winner(board) is not None or "." not in board


def to_move(board: str) -> str:
    """The mark to play next (X moves first)."""
    return "X" if board.count("X") == board.count("O") else "O"


def free_cells(board: str) -> list[int]:
    """The empty cells (0-8), in order."""
    return [i for i, c in enumerate(board) if c == "."]


# ---------------------------------------------------------------------------------------------- components


def rows(message: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The message's action rows, each a list of its components."""
    return [list(row.get("components") or []) for row in message.get("components") or []]


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    """Every button of the message, row by row."""
    return [comp for row in rows(message) for comp in row if comp.get("type") == 2]


def nested(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component of a list, nested ones included (rows' and containers' children), depth first: a
    Components V2 message's layout, whose buttons are not all in top-level rows."""
    found = []
    for component in components:
        found.append(component)
        found += nested(component.get("components") or [])
    return found


def _mark_on(button: dict[str, Any]) -> str | None:
    return MARK_OF_EMOJI.get((button.get("emoji") or {}).get("name") or "")


def cell_buttons(message: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Cells 0-8 of a button board (the first three rows of three buttons); ``{}`` for any other message."""
    grid = rows(message)[:3]
    if len(grid) != 3 or any(len(row) != 3 for row in grid):
        return {}
    cells = {}
    for r, row in enumerate(grid):
        for c, comp in enumerate(row):
            cell = 3 * r + c
            if comp.get("label") != str(cell + 1) and _mark_on(comp) is None:
                return {}
            cells[cell] = comp
    return cells


def button_labelled(message: dict[str, Any], label: str) -> dict[str, Any] | None:
    """The first button whose label is ``label`` (e.g. ``"Resign"``, ``"Rematch"``, ``"Accept"``)."""
    return next((b for b in buttons(message) if b.get("label") == label), None)


# ---------------------------------------------------------------------------------------------- boards


def grid_of(content: str) -> str | None:
    """The board drawn in a text board's code block, or ``None``."""
    found = [m.groups() for line in content.splitlines() if (m := GRID_ROW.match(line))]
    if len(found) != 3:
        return None
    return "".join(c if c in "XO" else "." for row in found for c in row)


def board_of(message: dict[str, Any]) -> str | None:
    """The board a message shows (its text grid, else its cell buttons), or ``None`` when it shows none."""
    grid = grid_of(message.get("content") or "")
    if grid is not None:
        return grid
    cells = cell_buttons(message)
    if not cells:
        return None
    return "".join(_mark_on(cells[i]) or "." for i in range(9))


def is_live(message: dict[str, Any]) -> bool:
    """A board a player can still act on: a free cell or a Resign button that is enabled."""
    if board_of(message) is None:
        return False
    resign = button_labelled(message, "Resign")
    if resign is not None and not resign.get("disabled"):
        return True
    return any(_mark_on(b) is None and not b.get("disabled") for b in cell_buttons(message).values())


def live_boards(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages (oldest first) that are live boards."""
    return [m for m in messages if is_live(m)]


def free_cell_id(message: dict[str, Any], cell: int) -> str:
    """The custom_id of free cell ``cell`` (0-8) on a button board (as a press would send it)."""
    button = cell_buttons(message).get(cell)
    assert button is not None and _mark_on(button) is None and not button.get("disabled"), (
        f"cell {cell + 1} is not free on {board_of(message)}"
    )
    return str(button["custom_id"])


# ---------------------------------------------------------------------------------------------- custom_id layout


_GAME_ID = re.compile(r"^ttt:[^:]+:(?P<game>[0-9a-f]+):")
_PLAYERS = re.compile(r"^(?P<head>.*):(?P<x>b|\d{1,20}):(?P<o>b|\d{1,20})$")


def game_id_of(message: dict[str, Any]) -> str | None:
    """The game id that the message's buttons carry (layout ``ttt:<kind>:<game>:...``), or ``None``."""
    for button in buttons(message):
        match = _GAME_ID.match(button.get("custom_id") or "")
        if match is not None:
            return match["game"]
    return None


def with_players(custom_id: str, x_id: str, o_id: str) -> str:
    """``custom_id`` forged to name other players (layout ``...:<X player>:<O player>``, ``b`` for the bot)."""
    match = _PLAYERS.match(custom_id)
    assert match is not None, f"no players at the end of {custom_id!r}: adapt with_players to the new layout"
    return f"{match['head']}:{x_id}:{o_id}"
