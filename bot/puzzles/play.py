"""What the bot decides about puzzles, without Discord or a database: which puzzle to give and how a move is judged.
How an attempt moves the ratings is the records' (:mod:`bot.records.puzzle_values`).
"""

from __future__ import annotations

import datetime
import hashlib
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from bot.records.puzzle_values import PuzzleRating
from engine import variant as variant_named
from engine.puzzles import Puzzle, load, slower_win

__all__ = ["NEAREST", "Verdict", "choose", "daily", "judge", "position"]

NEAREST = 20
"""A new puzzle is drawn at random among the player's this many nearest unattempted puzzles by rating."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judgement of one move: ``right`` (the line goes on with ``reply``), ``solved``, ``slower`` (the move wins
    too, in ``wins_in`` of the solver's moves instead of the puzzle's: the player may try again, unrated), or
    ``wrong`` (with the engine's ``reply`` refuting it, when the game goes on)."""

    outcome: Literal["right", "solved", "slower", "wrong"]
    reply: int | None = None
    wins_in: int | None = None


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
    """Judge ``cell`` (0-based) played at ``progress`` (an even ply of the line: the solver's turn). A move that is
    not the line's but still forces a win (:func:`engine.puzzles.slower.slower_win`) is ``slower``, not ``wrong``:
    lichess accepts any mate in one, and a slower win is no blunder.

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
    slower = slower_win(puzzle, progress, cell)
    if slower is not None:
        return Verdict("slower", wins_in=slower)
    after = rules.game.result(state, cell)
    reply = None if rules.game.terminal(after) or refute is None else int(refute(after))
    return Verdict("wrong", reply)
