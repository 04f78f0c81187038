"""The levels try the puzzles: who of levels 1-8 (:mod:`engine.levels`, players of measured strength) solves which.

A try is judged as a player's first attempt is: at every solver turn the level chooses its move in the position
(:func:`engine.levels.choose_move`, seeded), the defender answers with the line's reply, and the try fails at the
first move that is not the line's. ``python -m bot.puzzles.fit`` turns the results into the puzzles' ratings.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.levels import LEVELS, choose_move
from engine.puzzles.model import Puzzle
from engine.registry import variant as variant_named

__all__ = ["TRIES", "attempt", "attempts"]

TRIES = 1
"""Tries per level and puzzle (each with its own seed)."""


def attempt(puzzle: Puzzle, level: int, rng: random.Random) -> bool:
    """True when ``level`` plays every solver move of ``puzzle``'s line (no wall-clock cap).

    Raises:
        ValueError: ``level`` is not 1-8.
    """
    rules = variant_named(puzzle.variant)
    state = rules.replay(puzzle.moves)
    for i, cell in enumerate(puzzle.solution):
        if choose_move(puzzle.variant, state, level, rng=rng).cell != cell:
            return False
        state = rules.game.result(state, cell)
        if i < len(puzzle.replies):
            state = rules.game.result(state, puzzle.replies[i])
    return True


def attempts(puzzle: Puzzle, tries: int = TRIES, levels: Sequence[int] = LEVELS) -> list[tuple[int, bool]]:
    """``(level, solved)`` for ``tries`` tries of each level, seeded by ``"{puzzle id}/{level}/{try}"``."""
    return [
        (level, attempt(puzzle, level, random.Random(f"{puzzle.id}/{level}/{n}")))
        for level in levels
        for n in range(tries)
    ]
