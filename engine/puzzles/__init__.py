"""Puzzles: find the only winning move. A position, the side to move and a forced win in N of its moves, each the
only move that wins that fast, proved by the game's own prover (its kit: :meth:`engine.variants.Variant.puzzles`),
graded (:mod:`engine.puzzles.grading`) and shipped per variant (:func:`load`; ``make puzzles`` rebuilds the sets with
:mod:`engine.puzzles.build`)."""

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

__all__ = ["PUZZLE_SETS", "PUZZLE_VARIANTS", "Puzzle", "as_json", "from_json", "load", "puzzle_kit", "puzzle_variant"]
