"""The values the puzzle records hold, and how an attempt moves them: a puzzle being solved (:class:`Run`), a
Glicko-2 rating (:class:`PuzzleRating`) and the update one rated attempt makes (:func:`rate`).

Ratings are Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) through the ``glicko2`` package, as on
lichess: an attempt is one game between the player and the puzzle, a solve a win for the player, a failure a win
for the puzzle, and only a player's first attempt at a puzzle is rated. A puzzle never attempted has its starting
rating (:func:`engine.puzzles.grading.estimate_rating`) with a deviation of :data:`PUZZLE_DEVIATION`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import glicko2

from engine.puzzles import Puzzle, load

__all__ = ["PUZZLE_DEVIATION", "PuzzleRating", "Run", "by_id", "rate", "starting"]

PUZZLE_DEVIATION = 200.0
"""A new puzzle's rating deviation: its starting rating is an estimate, surer than a new player's 350."""


@dataclass(frozen=True, slots=True)
class PuzzleRating:
    """A Glicko-2 rating (points, deviation, volatility) with the rated attempts and the solves among them."""

    rating: float = 1500.0
    deviation: float = 350.0
    volatility: float = 0.06
    attempts: int = 0
    solved: int = 0

    def __str__(self) -> str:
        return f"{round(self.rating)} ± {round(self.deviation)}"


@dataclass(frozen=True, slots=True)
class Run:
    """A puzzle being solved by ``user_id``: ``progress`` plies of its line played, ``pad`` the small board opened
    on an ultimate pad (-1: none), ``daily`` the day (``YYYY-MM-DD``) of a daily puzzle, else ``None``; ``rated``
    false once the player found a slower win (the attempt then goes on unrated)."""

    run_id: int
    user_id: int
    guild_id: int | None
    variant: str
    puzzle_id: str
    progress: int = 0
    pad: int = -1
    daily: str | None = None
    rated: bool = True

    @property
    def puzzle(self) -> Puzzle:
        """The shipped puzzle.

        Raises:
            KeyError: no shipped puzzle has this id (the set was rebuilt without it).
        """
        return by_id(self.variant)[self.puzzle_id]


@cache
def by_id(name: str) -> dict[str, Puzzle]:
    """The shipped puzzles of ``name`` by id."""
    return {p.id: p for p in load(name)}


def starting(puzzle: Puzzle) -> PuzzleRating:
    """A never attempted puzzle's rating: its starting rating, deviation :data:`PUZZLE_DEVIATION`."""
    return PuzzleRating(float(puzzle.rating), PUZZLE_DEVIATION)


def rate(player: PuzzleRating, puzzle: PuzzleRating, solved: bool) -> tuple[PuzzleRating, PuzzleRating]:
    """The player's and the puzzle's ratings after one rated attempt (each from the other's rating before)."""
    score = 1.0 if solved else 0.0
    me = glicko2.Player(rating=player.rating, rd=player.deviation, vol=player.volatility)
    it = glicko2.Player(rating=puzzle.rating, rd=puzzle.deviation, vol=puzzle.volatility)
    me.update_player([puzzle.rating], [puzzle.deviation], [score])
    it.update_player([player.rating], [player.deviation], [1.0 - score])
    return (
        PuzzleRating(float(me.rating), float(me.rd), float(me.vol), player.attempts + 1, player.solved + solved),
        PuzzleRating(float(it.rating), float(it.rd), float(it.vol), puzzle.attempts + 1, puzzle.solved + solved),
    )
