"""What the bot decides about puzzles, without Discord or a database: which puzzle to give, how a move is judged,
how an attempt moves the ratings.

Ratings are Glicko-2 (Glickman, "Example of the Glicko-2 system", 2012) through the ``glicko2`` package, as on
lichess: an attempt is one game between the player and the puzzle, a solve a win for the player, a failure a win
for the puzzle, and only a player's first attempt at a puzzle is rated. A puzzle never attempted has its starting
rating (:func:`engine.puzzles.grading.estimate_rating`) with a deviation of :data:`PUZZLE_DEVIATION`.
"""

from __future__ import annotations

import datetime
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

import glicko2

from engine.puzzles import Puzzle, load
from engine.variants import variant as variant_named

__all__ = [
    "NEAREST",
    "PUZZLE_DEVIATION",
    "PuzzleRating",
    "Run",
    "Verdict",
    "by_id",
    "choose",
    "daily",
    "judge",
    "position",
    "rate",
    "starting",
]

PUZZLE_DEVIATION = 200.0
"""A new puzzle's rating deviation: its starting rating is an estimate, surer than a new player's 350."""
NEAREST = 20
"""A new puzzle is drawn at random among the player's this many nearest unattempted puzzles by rating."""


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
    on an ultimate pad (-1: none), ``daily`` the day (``YYYY-MM-DD``) of a daily puzzle, else ``None``."""

    run_id: int
    user_id: int
    guild_id: int | None
    variant: str
    puzzle_id: str
    progress: int = 0
    pad: int = -1
    daily: str | None = None

    @property
    def puzzle(self) -> Puzzle:
        """The shipped puzzle.

        Raises:
            KeyError: no shipped puzzle has this id (the set was rebuilt without it).
        """
        return by_id(self.variant)[self.puzzle_id]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one move: ``right`` (the line goes on with ``reply``), ``solved``, or ``wrong`` (with the
    engine's ``reply`` refuting it, when the game goes on)."""

    outcome: Literal["right", "solved", "wrong"]
    reply: int | None = None


@cache
def by_id(name: str) -> dict[str, Puzzle]:
    """The shipped puzzles of ``name`` by id."""
    return {p.id: p for p in load(name)}


def starting(puzzle: Puzzle) -> PuzzleRating:
    """A never attempted puzzle's rating: its starting rating, deviation :data:`PUZZLE_DEVIATION`."""
    return PuzzleRating(float(puzzle.rating), PUZZLE_DEVIATION)


def choose(name: str, player: float, done: set[str], ratings: Mapping[str, PuzzleRating], rng: random.Random) -> Puzzle:
    """A puzzle of ``name`` for a player rated ``player``: one of the :data:`NEAREST` by current rating (``ratings``,
    else the starting one) among those not in ``done`` (every puzzle, when all are done)."""
    puzzles = [p for p in load(name) if p.id not in done] or list(load(name))

    def distance(p: Puzzle) -> float:
        return abs((ratings[p.id].rating if p.id in ratings else p.rating) - player)

    return rng.choice(sorted(puzzles, key=lambda p: (distance(p), p.id))[:NEAREST])


def daily(name: str, day: datetime.date, guild_id: int | None) -> Puzzle:
    """The daily puzzle of ``name`` on ``day`` in a server (``None``: outside servers): the same for everyone, drawn
    from the wins in two or more by a hash of the day, the server and the variant."""
    pool = [p for p in load(name) if p.win_in >= 2]
    digest = hashlib.sha256(f"{day.isoformat()}:{guild_id or 0}:{name}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def position(puzzle: Puzzle, progress: int) -> Any:
    """The engine state after the puzzle's moves and ``progress`` plies of its line."""
    return variant_named(puzzle.variant).replay((*puzzle.moves, *puzzle.line[:progress]))


def judge(puzzle: Puzzle, progress: int, cell: int, refute: Any = None) -> Verdict:
    """Judge ``cell`` (0-based) played at ``progress`` (an even ply of the line: the solver's turn).

    ``refute(state) -> int`` gives the engine's answer to a wrong move (``None``: none). Raises ``ValueError`` when
    the cell is not a legal move there.
    """
    line = puzzle.line
    rules = variant_named(puzzle.variant)
    state = position(puzzle, progress)
    if cell not in rules.game.actions(state):
        raise ValueError(f"cell {cell} is not a legal move")
    if cell == line[progress]:
        if progress + 1 == len(line):
            return Verdict("solved")
        return Verdict("right", line[progress + 1])
    after = rules.game.result(state, cell)
    reply = None if rules.game.terminal(after) or refute is None else int(refute(after))
    return Verdict("wrong", reply)


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
