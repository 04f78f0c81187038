"""``python -m engine levels [--variant V] [--json]``: every game's levels 1-8 with their measured ratings.

The text form is a table of the ratings (one row per game, a column per level), then one table per game with each
level's rating, its 95 % interval, the calibration games it played and how it searches; ``--json`` prints one object
``{variant: [{"level", "rating", "low", "high", "games", "search"}, ...]}`` (:class:`engine.levels.Level`). The
ratings and their scale come from :func:`engine.levels.ladder` and :func:`engine.levels.table`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import TextIO

from engine.levels import LEVELS, ladder, table

__all__ = ["levels_command", "levels_text"]


def levels_command(names: Sequence[str], *, as_json: bool, stdout: TextIO) -> int:
    """Print the levels of the variants ``names`` (already checked); returns 0."""
    if as_json:
        payload = {name: [dataclasses.asdict(level) for level in ladder(name)] for name in names}
        stdout.write(json.dumps(payload) + "\n")
    else:
        stdout.write(levels_text(names) + "\n")
    return 0


def levels_text(names: Sequence[str]) -> str:
    """The ratings of ``names``' levels as a table, then each game's levels in detail (see the module docstring)."""
    calibration = table()["variants"]
    anchor = calibration[names[0]]["anchor"]
    width = max(len(name) for name in names)
    lines = [
        f"Elo ratings of the levels 1-8, one scale per game ({_player(anchor['player'])} = {anchor['rating']:.0f}):",
        "",
        f"{'game':<{width}}" + "".join(f"{level:>6}" for level in LEVELS),
    ]
    lines += [f"{name:<{width}}" + "".join(f"{level.rating:>6}" for level in ladder(name)) for name in names]
    for name in names:
        lines += ["", f"{name} ({calibration[name]['games']:,} calibration games)"]
        lines.append(f"{'level':>5}  {'rating':>6}  {'95 % interval':>13}  {'games':>5}  search")
        lines += [
            f"{level.level:>5}  {level.rating:>6}  {f'{level.low}-{level.high}':>13}  {level.games:>5,}  {level.search}"
            for level in ladder(name)
        ]
    return "\n".join(lines)


def _player(name: str) -> str:
    """A reference player of the calibration as people read it: ``"mcts-1000"`` -> ``"MCTSBot with 1,000
    simulations"``."""
    kind, _, simulations = name.partition("-")
    return f"MCTSBot with {int(simulations):,} simulations" if kind == "mcts" and simulations.isdigit() else name
