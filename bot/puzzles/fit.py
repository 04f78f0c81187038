"""``python -m bot.puzzles.fit [--variant V ...] [--jobs 2]``: fit the shipped puzzles' ratings from the levels' tries.

Levels 1-8 are players of measured strength (:func:`engine.levels.ladder`, each with the deviation
:data:`bot.records.ratings.LEVEL_DEVIATION`). Each tries every puzzle :data:`engine.puzzles.attempts.TRIES` times
(:func:`engine.puzzles.attempts.attempts`), a solve a win for the level and a failure a win for the puzzle, as a
player's first attempt is scored (:func:`bot.records.puzzle_values.rate`). The tries make one Glicko-2 rating
period (Glickman 2012, through the ``glicko2`` package) from the puzzle's estimate (:mod:`engine.puzzles.grading`)
with the deviation :data:`bot.records.puzzle_values.PUZZLE_DEVIATION`. Every level plays a win in one, so the tries
cannot tell wins in one apart: their ratings keep the estimate's spread (shrunk by the period), set by
:meth:`engine.protocol.PuzzleKit.hidden` (where a game has such points). The fitted rating replaces the estimate in
``engine/puzzles/data/<variant>.json`` (sorted again, easiest first), where players' attempts go on to move it.
Deterministic: every try is seeded by the puzzle, the level and the try.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace

import glicko2

from bot.records.puzzle_values import PUZZLE_DEVIATION
from bot.records.ratings import LEVEL_DEVIATION, level_rating
from engine import PuzzleLine
from engine.puzzles import DATA, PUZZLE_VARIANTS, Miner, Puzzle, attempts, from_json, write

__all__ = ["fitted", "main"]


def fitted(puzzle: Puzzle, estimate: int) -> int:
    """The puzzle's rating after one Glicko-2 rating period holding every level's tries, from ``estimate`` (the
    grading's starting rating) with the deviation a never attempted puzzle has in the bot."""
    tries = attempts(puzzle)
    it = glicko2.Player(rating=float(estimate), rd=PUZZLE_DEVIATION)
    it.update_player(
        [level_rating(puzzle.variant, level) for level, _ in tries],
        [LEVEL_DEVIATION] * len(tries),
        [0.0 if solved else 1.0 for _, solved in tries],  # the puzzle wins when the level fails
    )
    return round(float(it.rating))


def _fit_one(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its fitted rating, from its estimate graded again (so a second fit changes nothing)."""
    miner = Miner(puzzle.variant)
    estimate = miner.grade(puzzle.moves, PuzzleLine(puzzle.solution, puzzle.replies), miner.key(puzzle.moves)).rating
    return replace(puzzle, rating=fitted(puzzle, estimate))


def fit_set(name: str, jobs: int) -> str:
    """Fit the ratings of the set of ``name`` in place; returns a line to print."""
    path = DATA / f"{name}.json"
    puzzles = [from_json(name, item) for item in json.loads(path.read_text(encoding="utf-8"))]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        done = list(pool.map(_fit_one, puzzles, chunksize=8))
    write(name, sorted(done, key=lambda p: (p.rating, p.id)))
    return f"{name}: {len(done)} puzzle ratings fitted from {len(attempts(done[0]))} tries each -> {path}"


def main(argv: Sequence[str] | None = None) -> int:
    """Fit the sets named by ``--variant`` (default all); print one line per set. Returns 0."""
    parser = argparse.ArgumentParser(prog="python -m bot.puzzles.fit", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=PUZZLE_VARIANTS, help="repeat for several")
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="processes (at most 2)")
    args = parser.parse_args(argv)
    for name in args.variant or PUZZLE_VARIANTS:
        print(fit_set(name, args.jobs), file=sys.stdout, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
