"""What a puzzle is, and the shipped sets: :class:`Puzzle`, :func:`load`, :func:`as_json`.

A puzzle is the position after ``moves`` (0-based cells played from the empty board) and a forced win in
``win_in`` moves of the side to move (the solver): ``solution`` holds the solver's moves and ``replies`` the
defender's answers between them (one fewer). Every solver move of the line is the only move that wins that fast,
and every reply is one of the defender's longest resistances (proved by the game's own prover, its puzzle kit:
:meth:`engine.variants.Variant.puzzles`). The shipped sets live in ``engine/puzzles/data/<variant>.json``, built by
``make puzzles`` (:mod:`engine.puzzles.build`); a set is offered while its game is registered and has a kit
(:data:`PUZZLE_VARIANTS`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from engine.errors import UnknownVariantError
from engine.protocol import PuzzleKit
from engine.registry import VARIANTS
from engine.variants import Variant

__all__ = ["PUZZLE_SETS", "PUZZLE_VARIANTS", "Puzzle", "as_json", "from_json", "load", "puzzle_kit", "puzzle_variant"]

PUZZLE_SETS = tuple(name for name, game in VARIANTS.items() if game.puzzles() is not None)
"""Every variant with a set: the games registered when this module is imported (:mod:`engine.games` registers on
import) whose :meth:`~engine.variants.Variant.puzzles` gives a kit, in registration order (``make puzzles`` builds
them all)."""
PUZZLE_VARIANTS = tuple(name for name in PUZZLE_SETS if name in VARIANTS)
"""The sets offered to players: those of the registered games."""


def puzzle_variant(name: str) -> Variant:
    """The registered game of the set ``name`` (registered now: a game registered after this module's import counts).

    Raises:
        UnknownVariantError: no registered game has that name, or it offers no puzzles.
    """
    if name not in VARIANTS or VARIANTS[name].puzzles() is None:
        raise UnknownVariantError(f"no puzzles for {name!r}: choose one of {', '.join(PUZZLE_VARIANTS)}")
    return VARIANTS[name]


def puzzle_kit(name: str) -> PuzzleKit:
    """A new puzzle kit of the set ``name``'s game (its own prover and tables).

    Raises:
        UnknownVariantError: no set has that name, or its game is not registered.
    """
    kit = puzzle_variant(name).puzzles()
    if kit is None:  # pragma: no cover - PUZZLE_SETS holds only games with a kit
        raise UnknownVariantError(f"no puzzles for {name!r}")
    return kit


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle; cells are 0-based row by row over the whole board (people and ``serve`` see them 1-based); a
    move in a game of gravity is the cell its disc falls to.

    Attributes:
        id: ``<variant>-<12 hex digits>``, from the position's symmetry class (stable across builds).
        variant: one of :data:`PUZZLE_SETS`.
        moves: the game up to the puzzle's position.
        solution: the solver's moves, ``win_in`` of them; the last one wins the game.
        replies: the defender's replies, ``win_in - 1`` of them (``replies[i]`` answers ``solution[i]``).
        rating: the starting rating from :func:`engine.puzzles.grading.estimate_rating` (Glicko-2 points).
        themes: names such as ``"double_threat"`` (see :mod:`engine.puzzles.grading`).
    """

    id: str
    variant: str
    moves: tuple[int, ...]
    solution: tuple[int, ...]
    replies: tuple[int, ...]
    rating: int
    themes: tuple[str, ...] = ()

    @property
    def win_in(self) -> int:
        """N: the solver's moves to the win."""
        return len(self.solution)

    @property
    def line(self) -> tuple[int, ...]:
        """The whole solution line, solver and defender alternating: ``solution[0], replies[0], ...``."""
        out: list[int] = []
        for i, cell in enumerate(self.solution):
            out.append(cell)
            if i < len(self.replies):
                out.append(self.replies[i])
        return tuple(out)


def as_json(puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as ``python -m engine puzzles --json`` prints it: cells 1-based as in ``engine serve``."""
    return {
        "id": puzzle.id,
        "moves": [c + 1 for c in puzzle.moves],
        "solution": [c + 1 for c in puzzle.solution],
        "replies": [c + 1 for c in puzzle.replies],
        "win_in": puzzle.win_in,
        "rating": puzzle.rating,
        "themes": list(puzzle.themes),
    }


def from_json(variant: str, item: dict[str, Any]) -> Puzzle:
    """The inverse of :func:`as_json` for one puzzle of ``variant``.

    Raises:
        KeyError, TypeError, ValueError: ``item`` is not a puzzle as :func:`as_json` writes it.
    """
    solution = tuple(int(c) - 1 for c in item["solution"])
    replies = tuple(int(c) - 1 for c in item["replies"])
    if len(replies) != len(solution) - 1 or int(item["win_in"]) != len(solution):
        raise ValueError(f"puzzle {item.get('id')!r}: {len(solution)} moves, {len(replies)} replies")
    return Puzzle(
        str(item["id"]),
        variant,
        tuple(int(c) - 1 for c in item["moves"]),
        solution,
        replies,
        int(item["rating"]),
        tuple(str(t) for t in item["themes"]),
    )


@cache
def load(variant: str) -> tuple[Puzzle, ...]:
    """The shipped puzzles of ``variant`` (read once per process).

    Raises:
        ValueError: ``variant`` has no puzzles (only :data:`PUZZLE_SETS` and games registered since with a kit do).
        FileNotFoundError: the data file is missing (run ``make puzzles``).
    """
    if variant not in PUZZLE_SETS and (variant not in VARIANTS or VARIANTS[variant].puzzles() is None):
        raise ValueError(f"no puzzles for {variant!r}: choose one of {', '.join(PUZZLE_SETS)}")
    text = resources.files("engine.puzzles").joinpath("data", f"{variant}.json").read_text(encoding="utf-8")
    return tuple(from_json(variant, item) for item in json.loads(text))
