"""``python -m engine puzzles --variant V [--json]``: print the shipped puzzles of a variant.

The JSON form is one array: ``[{"id", "moves", "solution", "replies", "win_in", "rating", "themes"}, ...]`` with
cells 1-based as ``engine serve`` numbers them (:func:`engine.puzzles.as_json`); the text form gives each puzzle a
line (its id, rating, task and solution in coordinates) and its position, drawn row by row (X, O, ``.`` for an
empty cell; ultimate's small boards set apart).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from engine.puzzles import as_json, load
from engine.registry import variant

__all__ = ["position_text", "puzzles_command"]


def puzzles_command(name: str, *, as_json_output: bool, stdout: TextIO) -> int:
    """Print the puzzles of variant ``name``; returns 0 (argparse has already checked the name)."""
    puzzles = load(name)
    if as_json_output:
        stdout.write(json.dumps([as_json(p) for p in puzzles]) + "\n")
        return 0
    rules = variant(name)
    for p in puzzles:
        side = "X" if len(p.moves) % 2 == 0 else "O"
        line = " ".join(rules.cell_name(c) for c in p.line)
        themes = f" [{', '.join(p.themes)}]" if p.themes else ""
        stdout.write(f"{p.id} rating {p.rating}: {side} to play and win in {p.win_in}: {line}{themes}\n")
        stdout.write(position_text(rules.width, rules.height, p.moves, rules.block) + "\n\n")
    return 0


def position_text(width: int, height: int, moves: Sequence[int], block: int = 0) -> str:
    """The board of ``width`` x ``height`` cells after ``moves`` (0-based row by row from the top left, X first),
    with column letters and row numbers as the coordinates name them (a1 top left); a board of small boards of side
    ``block`` is split into them."""
    cells = width * height
    marks = ["."] * cells
    for ply, cell in enumerate(moves):
        marks[cell] = "XO"[ply % 2]
    gap = block or width

    def spaced(items: Sequence[str]) -> str:
        return "  ".join(" ".join(items[i : i + gap]) for i in range(0, width, gap))

    rows = ["    " + spaced("abcdefghi"[:width])]
    for row in range(height):
        if block and row and row % block == 0:
            rows.append("")
        rows.append(f"{row + 1:>2}  " + spaced(marks[row * width : row * width + width]))
    return "\n".join(rows)
