"""Puzzles: find the only winning move. A position, the side to move and a forced win in N of its moves, each the
only move that wins that fast, proved by the game's own prover (its kit: :meth:`engine.variants.Variant.puzzles`),
graded (:mod:`engine.puzzles.grading`) and shipped per variant (:func:`load`; ``make puzzles`` rebuilds the sets with
:mod:`engine.puzzles.build`).

This package is a face of the engine for the bot (``tests/bot/test_layout.py``); besides the sets (:func:`load`,
:data:`PUZZLE_VARIANTS`) it re-exports the tools the bot's puzzle scripts use: :class:`Miner` and
:func:`mine` (new puzzles from finished games), :func:`attempts` (simulated tries at each level), :func:`slower_win`
(in how many moves a move off the line still wins), :data:`DATA` (the folder of the shipped sets) and :func:`write`
(one set to it). Importing them reads no puzzle set; :func:`load` does, once per variant.
"""

from engine.puzzles.attempts import attempts
from engine.puzzles.build import DATA, write
from engine.puzzles.mining import Miner, mine
from engine.puzzles.model import (
    PUZZLE_SETS,
    PUZZLE_VARIANTS,
    Puzzle,
    as_json,
    from_json,
    load,
    puzzle_kit,
    puzzle_variant,
)
from engine.puzzles.slower import slower_win

__all__ = [
    "DATA",
    "PUZZLE_SETS",
    "PUZZLE_VARIANTS",
    "Miner",
    "Puzzle",
    "as_json",
    "attempts",
    "from_json",
    "load",
    "mine",
    "puzzle_kit",
    "puzzle_variant",
    "slower_win",
    "write",
]
