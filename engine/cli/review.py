"""``python -m engine review CELL ...``: a game's review printed as text or as one JSON object.

The labels and values come from :func:`engine.review.review` and :func:`engine.review.summary`; this
module only prints them. :data:`EXIT_OK` and :data:`EXIT_USAGE` are defined here, once, and
:mod:`engine.cli` exports them with its other exit codes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, TextIO

from engine.errors import IllegalSequenceError
from engine.minimax.search import DEFAULT
from engine.protocol import GameValue
from engine.review import PlyReview, SideSummary, review, summary
from engine.tictactoe.rules import format_board

__all__ = ["EXIT_OK", "EXIT_USAGE", "review_command"]

EXIT_OK = 0
"""Exit code: success."""
EXIT_USAGE = 2
"""Exit code: bad usage, a bad board or an illegal move list."""


def review_command(cells: Sequence[int], *, as_json: bool = False, stdout: TextIO, stderr: TextIO) -> int:
    """Review a game given as cells 1-9 (as people number them, row by row from the top left) and print one line
    per ply and one summary line per side; every cell printed is numbered 1-9 too.

    Each ply line gives the ply number, the mover and cell, the mover's value before and after the
    move (e.g. ``draw in 8`` → ``loss in 5``), the label, the best moves when the move was not one
    of them, and the states the default alpha-beta search evaluates in that position. With
    ``as_json`` it prints exactly one JSON object: ``algorithm`` (``"alpha-beta"``), ``moves``
    (cells 1-9), ``plies`` (one object per ply with ``ply``, ``mover``, ``cell``, ``board`` before
    the move, ``before`` and ``after`` as ``{"result", "plies"}``, ``label``, ``best_moves`` and
    ``states``) and ``summary`` (per side: ``moves``, ``best`` and the ply numbers of ``slower``,
    ``inaccuracies``, ``mistakes`` and ``blunders``).

    Returns:
        0 on success; 2 when the list cannot be played, after printing one line starting
        ``error:`` on ``stderr``.
    """
    try:
        plies = review([cell - 1 for cell in cells])
    except IllegalSequenceError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    sides = summary(plies)
    if as_json:
        payload: dict[str, Any] = {
            "algorithm": DEFAULT.algorithm,
            "moves": [p.cell + 1 for p in plies],
            "plies": [_ply_json(p) for p in plies],
            "summary": {mark.value: _side_json(side) for mark, side in sides.items()},
        }
        stdout.write(json.dumps(payload) + "\n")
        return EXIT_OK
    lines = [f"Cells 1-9, row by row from the top-left; states: what {DEFAULT.algorithm} evaluates to move there."]
    lines += [_ply_text(p) for p in plies]
    lines += [_side_text(side) for side in sides.values() if side.moves]
    stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def _outcome_text(outcome: GameValue) -> str:
    if outcome.plies == 0:
        return {"win": "won", "draw": "drawn", "loss": "lost"}[outcome.result]
    return f"{outcome.result} in {outcome.plies}"


def _ply_text(ply: PlyReview) -> str:
    before, after = ply.values
    change = f"{_outcome_text(before)} -> {_outcome_text(after)}"
    best = "" if ply.label == "best" else f" (best: {' '.join(str(cell + 1) for cell in ply.best_moves)})"
    states = f"{ply.states:>5,} {'state' if ply.states == 1 else 'states'}"
    return f"{ply.ply:>2}. {ply.mover.value} {ply.cell + 1}  {change:<24} {ply.label + best:<26} {states}"


def _side_text(side: SideSummary) -> str:
    parts = [f"{side.best} of {side.moves} best"]
    for name, plies in (
        ("blunder", side.blunders),
        ("mistake", side.mistakes),
        ("slower", side.slower),
        ("inaccuracy", side.inaccuracies),
    ):
        if plies:
            plural = len(plies) > 1
            noun = name + ("s" if plural and name in ("blunder", "mistake") else "")
            parts.append(f"{noun} at {'plies' if plural else 'ply'} {', '.join(map(str, plies))}")
    return f"{side.mark.value}: " + "; ".join(parts)


def _ply_json(ply: PlyReview) -> dict[str, Any]:
    before, after = ply.values
    return {
        "ply": ply.ply,
        "mover": ply.mover.value,
        "cell": ply.cell + 1,
        "board": format_board(ply.state),
        "before": {"result": before.result, "plies": before.plies},
        "after": {"result": after.result, "plies": after.plies},
        "label": ply.label,
        "best_moves": [cell + 1 for cell in ply.best_moves],
        "states": ply.states,
    }


def _side_json(side: SideSummary) -> dict[str, Any]:
    return {
        "moves": side.moves,
        "best": side.best,
        "slower": list(side.slower),
        "inaccuracies": list(side.inaccuracies),
        "mistakes": list(side.mistakes),
        "blunders": list(side.blunders),
    }
