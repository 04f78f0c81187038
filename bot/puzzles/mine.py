"""``python -m bot.puzzles.mine --variant V``: new puzzles from the records' finished games, as JSON on stdout.

Every finished game of the variant in the records database (``DATABASE_URL``, as the bot) is mined by
:func:`engine.puzzles.mining.mine`; positions already in the shipped set (up to symmetry) are skipped. The output is
the shipped files' format (:func:`engine.puzzles.as_json`), to review and add to ``engine/puzzles/data/``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from typing import TextIO

from bot.records import PuzzleStore, open_store
from engine.puzzles import PUZZLE_VARIANTS, Miner, Puzzle, as_json, load, mine

__all__ = ["main", "mine_records"]


async def mine_records(variant: str, url: str | None = None) -> list[Puzzle]:
    """The new puzzles in the finished games of ``variant`` stored at ``url`` (``None``: ``DATABASE_URL``).

    Raises:
        RecordsUnavailableError: the database cannot be reached.
    """
    store = await open_store(url)
    try:
        played = await PuzzleStore(store).finished_moves(variant)
    finally:
        await store.close()
    miner = Miner(variant)
    miner.seen.update(miner.key(p.moves) for p in load(variant))
    return await asyncio.to_thread(lambda: list(mine(variant, played, miner)))


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    """Print the new puzzles of ``--variant`` as one JSON array; returns 0."""
    parser = argparse.ArgumentParser(prog="python -m bot.puzzles.mine", description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=PUZZLE_VARIANTS, required=True)
    parser.add_argument("--database-url", default=None, help="default: DATABASE_URL, as the bot")
    args = parser.parse_args(argv)
    found = asyncio.run(mine_records(args.variant, args.database_url))
    (stdout or sys.stdout).write(json.dumps([as_json(p) for p in found]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
