"""What makes a puzzle worth solving, checked from the rules alone: a choice at every solver turn, a first move
that is more than the block of the opponent's immediate win, a line that passes through no other puzzle's start.

- :func:`forced_turns`: the solver turns with a single legal move (no choice: the set keeps none).
- :func:`is_defence`: the opponent threatens to win at once and the first move takes that cell. Every other move
  loses at once, so the puzzle's first step is only a block: a *defence* puzzle, tagged ``defence``, never
  ``quiet``, at most :data:`DEFENCE_SHARE` of a set.
- :func:`line_keys`: the symmetry classes of the positions the solution line passes through (its start excluded);
  a set holds no puzzle whose start is one of another puzzle's.
- :func:`statistics`: a set's figures (``python -m engine puzzles --variant V --json`` prints them beside the
  puzzles; ``benchmarks/puzzles.py`` per set).
"""

from __future__ import annotations

import statistics as stats
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from engine.puzzles.model import Puzzle, puzzle_kit, puzzle_variant

__all__ = ["DEFENCE_SHARE", "forced_turns", "is_defence", "line_keys", "position_key", "statistics"]

DEFENCE_SHARE = 0.10
"""The most of a set that may be defence puzzles."""


def _replay(name: str, moves: Sequence[int]) -> Any:
    return puzzle_variant(name).replay(moves)


def forced_turns(puzzle: Puzzle) -> int:
    """How many of the puzzle's solver turns have exactly one legal move."""
    rules = puzzle_variant(puzzle.variant).game
    line = puzzle.line
    count = 0
    for ply in range(0, len(line), 2):
        state = _replay(puzzle.variant, (*puzzle.moves, *line[:ply]))
        count += len(rules.actions(state)) == 1
    return count


def is_defence(puzzle: Puzzle) -> bool:
    """True when the puzzle is a win in 2 or more whose first move takes a cell where the opponent would otherwise
    win the game at once (a win in one that also blocks is a win, not a defence)."""
    if puzzle.win_in == 1:
        return False
    return puzzle_kit(puzzle.variant).threatened(puzzle.moves, puzzle.solution[0])


def position_key(name: str, moves: Sequence[int]) -> Hashable:
    """The symmetry class of the position after ``moves`` (as :class:`engine.puzzles.mining.Miner` keys starts)."""
    return puzzle_kit(name).key(moves)


def line_keys(puzzle: Puzzle) -> set[Hashable]:
    """The classes of the positions after each ply of the solution line but the last (which ends the game)."""
    line, kit = puzzle.line, puzzle_kit(puzzle.variant)
    return {kit.key((*puzzle.moves, *line[:ply])) for ply in range(1, len(line))}


def statistics(puzzles: Iterable[Puzzle]) -> dict[str, Any]:
    """A set's figures: ``count``, ``by_win_in``, ``defence`` (count and share), ``forced_turns`` (solver turns with
    one legal move), ``lines_through_starts`` (puzzles whose line passes through another's start) and
    ``rating_sd`` per win_in (population standard deviation, points)."""
    puzzles = list(puzzles)
    starts = {position_key(p.variant, p.moves) for p in puzzles}
    by_n: dict[int, list[int]] = defaultdict(list)
    for p in puzzles:
        by_n[p.win_in].append(p.rating)
    defence = sum(is_defence(p) for p in puzzles)
    return {
        "count": len(puzzles),
        "by_win_in": dict(sorted(Counter(p.win_in for p in puzzles).items())),
        "defence": defence,
        "defence_share": round(defence / len(puzzles), 3) if puzzles else 0.0,
        "defence_quiet": sum("defence" in p.themes and "quiet" in p.themes for p in puzzles),
        "forced_turns": sum(forced_turns(p) for p in puzzles),
        "lines_through_starts": sum(bool(line_keys(p) & starts) for p in puzzles),
        "rating_sd": {n: round(stats.pstdev(r), 1) for n, r in sorted(by_n.items())},
    }
