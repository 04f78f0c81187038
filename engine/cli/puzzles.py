"""``python -m engine puzzles --variant V [--json]``: print the shipped puzzles of a variant.

The JSON form is one array: ``[{"id", "moves", "solution", "replies", "win_in", "rating", "themes"}, ...]`` with
cells 1-based as ``engine serve`` numbers them (:func:`engine.puzzles.as_json`); the text form is one line per
puzzle with coordinates.
"""

from __future__ import annotations

import json
from typing import TextIO

from engine.puzzles import as_json, load
from engine.variants import variant

__all__ = ["puzzles_command"]


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
    return 0
