"""Build the Connect Four opening book (:mod:`engine.connect_four.book`) from scratch with BitBully.

``python -m engine.connect_four.book_build [--out PATH]`` (part of ``make books``) walks every position the bot can
face with at most :data:`~engine.connect_four.book.PLIES` discs, as X and as O: at the bot's turn it stores every
column's exact score and follows the book's move; at the opponent's it follows every legal reply. Positions are
stored once per mirror image. The scores come from BitBully's ``score_all_moves`` with its 12-ply distance database
(see the book's provenance), converted by :func:`from_pons`. It prints the build time and the book's size.

BitBully is a build and test requirement (the ``test`` extra of pyproject.toml), never a run-time one.

Raises (at run time): ImportError when BitBully is not installed.
"""

from __future__ import annotations

import argparse
import time
from array import array
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engine.connect_four.book import BOOK_PATH, FULL, PLIES, Book, best_column, canonical
from engine.connect_four.rules import CONNECT_FOUR, STRIDE, WIDTH, ConnectFourState

__all__ = ["build", "from_pons", "main", "scores_of"]


def from_pons(score: int, discs: int) -> int:
    """A score on Pons' scale (BitBully's: a win is 22 minus the winner's discs at the win, a loss its negation) for
    the side to move in a position of ``discs`` discs, on the solver's scale (a win completed at ``n`` discs is
    ``43 - n``). X wins on an odd disc count and O on an even one, so the parity of ``discs`` fixes ``n``."""
    x_to_move = discs % 2 == 0
    if score > 0:
        return 2 * score if x_to_move else 2 * score - 1
    if score < 0:
        return 2 * score + 1 if x_to_move else 2 * score
    return 0


def scores_of(solver: Any, moves: list[int], discs: int) -> tuple[int, ...]:
    """Columns 0-6's exact scores (:data:`~engine.connect_four.book.FULL` for a full one) after ``moves``, by
    BitBully ``solver`` (a ``bitbully.BitBully`` with its database)."""
    import bitbully

    found = solver.score_all_moves(bitbully.Board.from_moves(moves))
    return tuple(from_pons(found[column], discs) if column in found else FULL for column in range(WIDTH))


def build(solver: Any, log: Callable[[str], None] = lambda _: None) -> dict[int, tuple[int, ...]]:
    """Every book position's canonical key → its columns' scores in the canonical orientation."""
    entries: dict[int, tuple[int, ...]] = {}
    followed: set[int] = set()

    def bot_turn(moves: list[int], state: ConnectFourState) -> None:
        key, mirrored = canonical(state)
        if key in entries:
            return
        scores = scores_of(solver, moves, state.discs)
        stored = scores[::-1] if mirrored else scores
        entries[key] = stored
        column = best_column(stored)
        column = WIDTH - 1 - column if mirrored else column
        child = CONNECT_FOUR.result(state, column)
        if not CONNECT_FOUR.terminal(child) and child.discs < PLIES:
            opponent_turn([*moves, column], child)

    def opponent_turn(moves: list[int], state: ConnectFourState) -> None:
        key, _ = canonical(state)
        if key in followed:
            return
        followed.add(key)
        for column in CONNECT_FOUR.actions(state):
            child = CONNECT_FOUR.result(state, column)
            if not CONNECT_FOUR.terminal(child):
                bot_turn([*moves, column], child)

    start = CONNECT_FOUR.initial_state()
    bot_turn([], start)
    log(f"the bot as X: {len(entries):,} positions")
    opponent_turn([], start)
    log(f"as X and as O: {len(entries):,} positions")
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the Connect Four opening book with BitBully.")
    parser.add_argument("--out", type=Path, default=BOOK_PATH, help=f"the book file (default {BOOK_PATH})")
    args = parser.parse_args(argv)
    from importlib.metadata import version

    import bitbully

    started = time.perf_counter()
    solver = bitbully.BitBully("12-ply-dist")
    entries = build(solver, print)
    seconds = time.perf_counter() - started
    keys = sorted(entries)
    by_ply = [0] * (PLIES + 1)
    for key in keys:  # key = mover + discs: its bits exceed the discs' by one per column in use
        by_ply[_discs(key)] += 1
    header = [
        "Connect Four opening book: every column's exact score in every position the bot can face with at most "
        f"{PLIES} discs as X and {PLIES - 1} as O, one entry per mirror image.",
        f"Built by `make books` (python -m engine.connect_four.book_build) on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC "
        f"in {seconds:.0f} s: {len(keys):,} positions (by discs: {', '.join(map(str, by_ply))}).",
        f"Scores: BitBully {version('bitbully')} (M. Thill, MIT) with its 12-ply distance database "
        f"(bitbully-databases {version('bitbully-databases')}), on the solver's scale (43 - discs at the win).",
    ]
    book = Book(array("Q", keys), b"".join(bytes(s & 0xFF for s in entries[key]) for key in keys), header)
    book.save(args.out)
    print(f"{args.out}: {len(keys):,} positions, {args.out.stat().st_size:,} bytes; built in {seconds:.1f} s")
    return 0


def _discs(key: int) -> int:
    """The discs of the position with ``key``: a column of ``h`` discs holds ``mover + 2**h - 1`` in its bits, with
    ``mover < 2**h``."""
    return sum(((key >> (column * STRIDE) & 0x7F) + 1).bit_length() - 1 for column in range(WIDTH))


if __name__ == "__main__":
    raise SystemExit(main())
