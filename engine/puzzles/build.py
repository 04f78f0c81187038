"""``make puzzles``: build the shipped puzzle sets from scratch (``python -m engine.puzzles.build``).

Each variant's set is mined from self-play (:func:`engine.puzzles.mining.self_play`, seed :data:`SEED`) until it
holds ``--count`` puzzles, at most :data:`WIN_IN_1_SHARE` of them wins in one move (they are plentiful and easy) and
:data:`engine.puzzles.quality.DEFENCE_SHARE` defence puzzles, none with a solver turn of a single legal move and
none whose solution line passes through another's start (:mod:`engine.puzzles.quality`), and written to
``engine/puzzles/data/<variant>.json``, easiest first. The variants run in at most two processes. The ratings
written are the estimates of :mod:`engine.puzzles.grading`; ``python -m bot.puzzles.fit`` then fits them from
the levels' attempts.
Deterministic: the same seed gives the same files (searches are bounded by states, not time).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Hashable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from engine.puzzles.mining import Miner, mine, self_play
from engine.puzzles.model import PUZZLE_SETS, Puzzle, as_json, puzzle_kit
from engine.puzzles.quality import DEFENCE_SHARE, forced_turns, line_keys, position_key

__all__ = ["MAX_GAMES", "SEED", "WIN_IN_1_SHARE", "build", "main", "write"]

SEED = 20261126
WIN_IN_1_SHARE = 0.25
MAX_GAMES = 20_000
DATA = Path(__file__).resolve().parent / "data"


def build(name: str, count: int, seed: int = SEED) -> list[Puzzle]:
    """``count`` puzzles of variant ``name``, sorted by rating then id.

    Raises:
        RuntimeError: :data:`MAX_GAMES` self-play games did not yield ``count`` puzzles.
    """
    miner = Miner(name)
    kept: list[Puzzle] = []
    by_n: Counter[int] = Counter()
    starts: set[Hashable] = set()
    passed: set[Hashable] = set()
    defences = 0
    games = (game for _, game in zip(range(MAX_GAMES), self_play(name, seed), strict=False))
    for puzzle in mine(name, games, miner):
        if puzzle.win_in == 1 and by_n[1] >= WIN_IN_1_SHARE * count:
            continue
        defence = "defence" in puzzle.themes
        if (defence and defences + 1 > DEFENCE_SHARE * count) or forced_turns(puzzle):
            continue
        start, line = position_key(name, puzzle.moves), line_keys(puzzle)
        if start in passed or line & starts:
            continue
        kept.append(puzzle)
        starts.add(start)
        passed |= line
        by_n[puzzle.win_in] += 1
        defences += defence
        if len(kept) == count:
            return sorted(kept, key=lambda p: (p.rating, p.id))
    raise RuntimeError(f"{name}: {MAX_GAMES} games gave only {len(kept)} puzzles of {count}")


def write(name: str, puzzles: Sequence[Puzzle], folder: Path = DATA) -> Path:
    """Write ``puzzles`` as ``folder/<name>.json``, one puzzle per line (1-based cells, as :func:`as_json`)."""
    path = folder / f"{name}.json"
    lines = ",\n".join(json.dumps(as_json(p), separators=(",", ":")) for p in puzzles)
    path.write_text(f"[\n{lines}\n]\n", encoding="utf-8")
    return path


def _build_and_write(name: str, count: int, seed: int) -> str:
    start = time.perf_counter()
    puzzles = build(name, count, seed)
    path = write(name, puzzles)
    by_n = Counter(p.win_in for p in puzzles)
    spread = ", ".join(f"N={n}: {by_n[n]}" for n in sorted(by_n))
    return f"{name}: {len(puzzles)} puzzles ({spread}) in {time.perf_counter() - start:.1f} s -> {path}"


def main(argv: Sequence[str] | None = None) -> int:
    """Build the sets named by ``--variant`` (default all); print one line per set. Returns 0."""
    parser = argparse.ArgumentParser(prog="python -m engine.puzzles.build", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", action="append", choices=PUZZLE_SETS, help="repeat for several")
    parser.add_argument("--count", type=int, default=600, help="puzzles per variant (default 600)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--jobs", type=int, default=2, choices=(1, 2), help="processes (at most 2)")
    args = parser.parse_args(argv)
    names = sorted(args.variant or PUZZLE_SETS, key=lambda n: not puzzle_kit(n).long_build)  # the longest first
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for line in pool.map(_build_and_write, names, [args.count] * len(names), [args.seed] * len(names)):
            print(line, file=sys.stdout, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
