"""Check every shipped puzzle with the independent plain oracle (tests/engine/puzzle_oracle.py), time it, and print
each set's statistics.

Run from the repository root with ``python -m benchmarks.puzzles [VARIANT ...]`` (default: all). For each variant
it prints the puzzles checked by N and the seconds the oracle took, then the set's figures as JSON
(:func:`engine.puzzles.quality.statistics`: count, defence puzzles and their share, solver turns with a single legal
move, lines through another puzzle's start, the rating standard deviation per win_in); it stops at the first wrong
puzzle with an AssertionError that names it. ``tests/engine/test_puzzles.py`` checks a sample the same way.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from engine.puzzles import PUZZLE_SETS, load, puzzle_variant
from engine.puzzles.quality import statistics
from tests.engine.puzzle_oracle import PlainOracle


def check_all(name: str) -> Counter[int]:
    """Check every puzzle of ``name``; return the count by N.

    Raises:
        AssertionError: a puzzle is wrong (the message gives its id).
    """
    oracle = PlainOracle(puzzle_variant(name).game)
    counts: Counter[int] = Counter()
    for puzzle in load(name):
        oracle.memo.clear()
        try:
            oracle.check(puzzle.moves, puzzle.solution, puzzle.replies)
        except AssertionError as err:
            raise AssertionError(f"{puzzle.id}: {err}") from err
        counts[puzzle.win_in] += 1
    return counts


def main(names: list[str]) -> int:
    for name in names or PUZZLE_SETS:
        start = time.perf_counter()
        counts = check_all(name)
        spread = ", ".join(f"N={n}: {counts[n]}" for n in sorted(counts))
        print(f"{name}: {sum(counts.values())} puzzles hold ({spread}); {time.perf_counter() - start:.1f} s")
        print(f"{name}: {json.dumps(statistics(load(name)))}")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    shipped = ", ".join(PUZZLE_SETS)
    parser.add_argument("variants", nargs="*", metavar="VARIANT", help=f"{shipped} (default: all)")
    chosen = parser.parse_args().variants
    if unknown := [name for name in chosen if name not in PUZZLE_SETS]:
        parser.error(f"no puzzles for {', '.join(unknown)}: choose from {shipped}")
    raise SystemExit(main(chosen))
