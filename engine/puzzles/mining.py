"""Where puzzles come from: any list of games (the records store's finished games, or the engine's self-play).

:func:`mine` examines the positions of each game (0-based move sequences), proves the ones that are puzzles and
keeps one per symmetry class. :func:`self_play` makes the games a new install mines: the engine against itself
with a random opening and noise so that games differ, deterministic from its seed. Everything that depends on the
game (its prover, symmetry, features, first ply examined, opening plies and quick self-play move) comes from the
game's puzzle kit (:meth:`engine.variants.Variant.puzzles`, :class:`engine.protocol.PuzzleKit`).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import replace

from engine.protocol import PuzzleLine
from engine.puzzles.grading import estimate_rating
from engine.puzzles.model import Puzzle, puzzle_kit, puzzle_variant
from engine.puzzles.quality import is_defence

__all__ = ["Miner", "mine", "self_play"]


class Miner:
    """Proves and grades candidate positions of one variant, keeping one puzzle per symmetry class (one kit: its
    prover's tables persist between positions)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seen: set[Hashable] = set()
        self.kit = puzzle_kit(name)

    def key(self, moves: Sequence[int]) -> Hashable:
        """The symmetry class of the position after ``moves``."""
        return self.kit.key(moves)

    def examine(self, moves: Sequence[int]) -> Puzzle | None:
        """The puzzle at the position after ``moves`` (0-based), or ``None``: not a puzzle, or its class was seen.

        Raises:
            IllegalMoveError: (a subclass) a move cannot be played.
        """
        key = self.key(moves)
        if key in self.seen:
            return None
        self.seen.add(key)
        line = self.kit.prove(moves)
        if line is None:
            return None
        return self.grade(moves, line, key)

    def grade(self, moves: Sequence[int], line: PuzzleLine, key: Hashable) -> Puzzle:
        """The :class:`Puzzle` of a proved ``line``, its themes (``defence`` when its first move only blocks, see
        :func:`engine.puzzles.quality.is_defence`) and starting rating."""
        branching, plausible, themes = self.kit.features(moves, line)
        hidden = self.kit.hidden(moves, line)
        digest = hashlib.sha256(repr(key).encode()).hexdigest()[:12]
        puzzle = Puzzle(f"{self.name}-{digest}", self.name, tuple(moves), line.solution, line.replies, 0, themes)
        if is_defence(puzzle):
            themes = ("defence", *(theme for theme in themes if theme != "quiet"))
        rating = estimate_rating(len(line.solution), branching, plausible, themes, hidden)
        return replace(puzzle, rating=rating, themes=themes)


def mine(name: str, games: Iterable[Sequence[int]], miner: Miner | None = None) -> Iterator[Puzzle]:
    """Every new puzzle in ``games`` of variant ``name`` (each a 0-based move sequence from the empty board),
    positions from the kit's ``first_ply`` moves on, latest first in each game (where short wins are).

    Pass a ``miner`` to keep its classes seen across calls. Games with an illegal move are skipped.
    """
    miner = miner if miner is not None else Miner(name)
    rules = puzzle_variant(name)
    for game in games:
        try:
            rules.replay(game)
        except ValueError:
            continue
        for ply in range(len(game) - 1, miner.kit.first_ply - 1, -1):
            found = miner.examine(game[:ply])
            if found is not None:
                yield found


def self_play(name: str, seed: int) -> Iterator[list[int]]:
    """Endless self-play games of variant ``name`` (0-based moves), deterministic from ``seed``: a random number
    (the kit's ``opening`` range) of random moves, then the kit's quick ``self_play_move`` with a noise of 0.05,
    0.15 or 0.3 drawn per game."""
    rng = random.Random(seed)
    rules = puzzle_variant(name)
    kit = puzzle_kit(name)
    while True:
        state = rules.game.initial_state()
        moves: list[int] = []
        noise = rng.choice((0.05, 0.15, 0.3))
        opening = rng.randint(*kit.opening)
        while not rules.game.terminal(state):
            if len(moves) < opening:
                move = rng.choice(rules.game.actions(state))
            else:
                move = kit.self_play_move(state, rng, noise)
            moves.append(move)
            state = rules.game.result(state, move)
        yield moves
