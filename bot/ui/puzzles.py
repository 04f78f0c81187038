"""A puzzle's message: the text (header, the board as text, what just happened) and its buttons, from the puzzle
service's answers (:mod:`bot.puzzles.service`).

The board is the game's text grid (:func:`bot.text.grid.board_grid`), and on ultimate its picture too; a game played
by column draws its discs (:func:`bot.text.discs.disc_grid`). 4x4 and 5x5 get a button per cell (free cells labelled
with their coordinate, taken ones with their mark, disabled); a game played by column a button per column (its key the
cell the disc falls to: :mod:`bot.ui.columns`).
Ultimate gets a 3x3 pad: the cells of the small board the solver must play in; on a free choice the open small
boards, then the chosen one's cells and Back. Button ids are ``tpz:<run>:<ply>:<key>`` (``key``: a cell 0-80,
``b0``-``b8`` a small board, ``k`` Back); the puzzle service checks every press against the running puzzle it stored.
"""

from __future__ import annotations

import io
import re
from typing import Any, Final

import discord

from bot.i18n import N_
from bot.i18n.lang import Lang
from bot.images.ultimate import draw_ultimate
from bot.puzzles.messages import Term
from bot.puzzles.play import position
from bot.puzzles.service import PuzzleRefusal, PuzzleShown
from bot.records.puzzle_values import PuzzleRating, Run
from bot.text import labels
from bot.text.discs import disc_grid, played_by_column
from bot.text.grid import board_grid
from bot.ui.columns import column_buttons, column_rows
from bot.ui.views import PICTURE_NAME, BoardComponents, button_payload, state_picture
from engine import variant as variant_named
from engine.puzzles import Puzzle

__all__ = [
    "ID_TEMPLATE",
    "header",
    "is_puzzle_id",
    "picture",
    "puzzle_line",
    "puzzle_view",
    "refusal_text",
    "shown_message",
    "status_text",
]

ID_TEMPLATE: Final = r"tpz:(?P<run>[0-9]{1,12}):(?P<ply>[0-9]{1,2}):(?P<key>k|b[0-8]|[0-9]{1,2})"
"""The buttons' custom_id pattern (matched whole by discord.py's ``DynamicItem``)."""

_ID = re.compile(ID_TEMPLATE)


def is_puzzle_id(custom_id: str) -> bool:
    """True when ``custom_id`` has the shape of a puzzle button's."""
    return _ID.fullmatch(custom_id) is not None


HEADER = N_("🧩 Puzzle `{id}` · rating {rating} · **{side} to play and win in {n}**")
PUZZLES_LINE = N_("puzzles: {rating} · {solved} solved of {attempts} rated")


def _said(key: str, values: Any, tr: Lang) -> str:
    return tr(key, **{name: tr(v.key) if isinstance(v, Term) else v for name, v in values.items()})


def refusal_text(refusal: PuzzleRefusal, tr: Lang) -> str:
    """What a refused press or request says, privately."""
    return _said(refusal.key, refusal.values, tr)


def shown_message(shown: PuzzleShown, tr: Lang) -> tuple[str, discord.ui.View]:
    """The text and the buttons of the puzzle's message after a start or a press (its picture: :func:`picture`)."""
    puzzle = shown.run.puzzle
    lines = [_said(key, values, tr) for key, values in shown.lines]
    text = status_text(puzzle, shown.progress, header(puzzle, shown.rating, tr), lines)
    return text, puzzle_view(shown.run, tr, live=shown.live)


def puzzle_line(rating: PuzzleRating, tr: Lang) -> str:
    """A player's puzzle rating, for ``/ttt rating``."""
    return tr(PUZZLES_LINE, rating=str(rating), solved=rating.solved, attempts=rating.attempts)


def header(puzzle: Puzzle, rating: float, tr: Lang) -> str:
    """The first line: the puzzle's id and rating, and "X to play and win in N"."""
    side = "X" if len(puzzle.moves) % 2 == 0 else "O"
    return tr(HEADER, id=puzzle.id, rating=round(rating), side=side, n=puzzle.win_in)


def status_text(puzzle: Puzzle, progress: int, head: str, lines: list[str]) -> str:
    """The whole message: ``head``, the board after ``progress`` plies of the line, then ``lines``."""
    state, kind = position(puzzle, progress), variant_named(puzzle.variant)
    if played_by_column(kind, state):
        played = (*puzzle.moves, *puzzle.line[:progress])
        grid = disc_grid(kind, state, played[-1] if played else None)
    else:
        grid = board_grid(state, puzzle.variant)
    return "\n".join([head, grid, *lines])


def picture(puzzle: Puzzle, progress: int, *, over: bool = False) -> discord.File | None:
    """The ultimate grid's picture after ``progress`` plies of the line (``ultimate.png``, drawn here: about 30 ms),
    as the game's board shows it; ``None`` for a board without small boards (4x4, 5x5), whose board is the buttons."""
    kind = variant_named(puzzle.variant)
    if not kind.block:
        return None
    played = (*puzzle.moves, *puzzle.line[:progress])
    drawn = draw_ultimate(state_picture(kind, position(puzzle, progress), played[-1] if played else None, over=over))
    return discord.File(io.BytesIO(drawn), filename=PICTURE_NAME)


def _cell_button(run: Run, state: Any, cell: int, live: bool) -> dict[str, Any]:
    rules = variant_named(run.puzzle.variant)
    mark, name = rules.mark(state, cell), rules.cell_label(cell)
    custom_id = f"tpz:{run.run_id}:{run.progress}:{cell}"
    if mark is not None:
        return button_payload(custom_id, discord.ButtonStyle.secondary, label=mark.value, disabled=True)
    return button_payload(custom_id, discord.ButtonStyle.primary, label=name, disabled=not live)


def _rows(buttons: list[dict[str, Any]], width: int) -> list[dict[str, Any]]:
    return [{"type": 1, "components": buttons[i : i + width]} for i in range(0, len(buttons), width)]


def puzzle_view(run: Run, tr: Lang, *, live: bool = True) -> discord.ui.View:
    """The buttons for ``run`` at its progress (all disabled when not ``live``: the puzzle is over)."""
    puzzle = run.puzzle
    rules = variant_named(puzzle.variant)
    state = position(puzzle, run.progress)
    width, block = rules.width, rules.block
    if columns := rules.columns(state):
        make = f"tpz:{run.run_id}:{run.progress}:{{}}".format
        return BoardComponents(column_rows(column_buttons(columns, rules.cell_label, make, frozen=not live)))
    if not block:
        cells = [_cell_button(run, state, c, live) for c in range(rules.cells)]
        return BoardComponents(_rows(cells, width))
    boards = rules.open_blocks(state)
    board = boards[0] if len(boards) == 1 else run.pad
    if board < 0:
        pads = [
            button_payload(
                f"tpz:{run.run_id}:{run.progress}:b{b}",
                discord.ButtonStyle.primary,
                label=rules.block_name(b),
                disabled=not live or b not in boards,
            )
            for b in range((width // block) ** 2)
        ]
        return BoardComponents(_rows(pads, width // block))
    cells = [_cell_button(run, state, c, live) for c in rules.block_cells(board)]
    rows = _rows(cells, block)
    if len(boards) > 1:
        back_id = f"tpz:{run.run_id}:{run.progress}:k"
        back = button_payload(back_id, discord.ButtonStyle.secondary, label=tr(labels.BACK))
        rows.append({"type": 1, "components": [back]})
    return BoardComponents(rows)
