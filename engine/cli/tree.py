"""``python -m engine tree CELL ...``: the search behind a move after the cells played, as the game explains it
(:meth:`engine.Variant.explain`: the bot's own search replayed, a fresh exact search, or an MCTS search's first
plies), as text, JSON (``--json``), steps (``--step``) or a picture (``--png FILE``, ``--svg FILE``; Graphviz and
Pillow, loaded only then). The games offered are those that explain a move (:meth:`engine.Variant.explains`).

The JSON shape is documented in ``docs/engine.md`` and :meth:`engine.tree.node.Node.as_json`.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from engine.errors import GameOverError, IllegalMoveError
from engine.minimax.config import ALGORITHM_CONFIGS
from engine.registry import VARIANTS
from engine.tree.explain import Explanation
from engine.tree.mcts import TREE_ITERATIONS
from engine.tree.node import SearchTree
from engine.tree.step import steps, walk
from engine.variants import DEFAULT_VARIANT

__all__ = ["add_parser", "tree_command"]

EXIT_OK, EXIT_USAGE, EXIT_NO_PICTURE = 0, 2, 3


def tree_variants() -> tuple[str, ...]:
    """The registered games that explain a move somewhere (:meth:`engine.Variant.explains`, asked at the last
    position before the board is full: a game that explains only near the end answers there)."""
    return tuple(name for name, game in VARIANTS.items() if game.explains(range(game.cells - 1)))


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``tree`` to the subcommands of ``python -m engine``."""
    tr_p = sub.add_parser(
        "tree",
        help="show the tree the bot's search evaluated after CELLs (text, JSON or picture)",
        description="Show the tree the bot's search evaluated after CELLs, as the game explains it: a summary (the "
        "move, its value, the states and cuts), the whole tree as JSON, or a picture of its first plies (Graphviz). "
        "Each game records its own search: the bot's own replayed, a fresh exact search near the end of a game, or "
        "an MCTS search's first plies.",
    )
    tr_p.add_argument("cells", metavar="CELL", type=int, nargs="*", help="the cells played, 1-based row by row")
    tr_p.add_argument(
        "--variant", choices=tree_variants(), default=DEFAULT_VARIANT, help=f"the game (default {DEFAULT_VARIANT})"
    )
    tr_p.add_argument(
        "--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta", help="the search (alpha-beta)"
    )
    tr_p.add_argument("--json", action="store_true", help="print the whole tree as one JSON object")
    tr_p.add_argument(
        "--step",
        action="store_true",
        help="walk the search state by state (window, values, cuts, count); with --json one event per line",
    )
    tr_p.add_argument("--png", type=Path, metavar="FILE", help="draw the tree to FILE (PNG)")
    tr_p.add_argument("--svg", type=Path, metavar="FILE", help="draw the tree to FILE (SVG)")
    tr_p.add_argument(
        "--compare", action="store_true", help="draw plain minimax's tree beside alpha-beta's, each with its count"
    )
    tr_p.add_argument("--depth", type=int, default=2, choices=range(1, 5), help="plies drawn below the root (1-4)")
    tr_p.add_argument("--iterations", type=int, default=TREE_ITERATIONS, help="MCTS: the iterations")
    tr_p.add_argument("--seed", type=int, default=0, help="MCTS: the search's seed")


def tree_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    """Run ``tree`` with parsed ``args``. Returns 0, 2 for cells that are not a legal unfinished game (or a search
    the game does not record), or 3 when a picture was asked for and Graphviz, its Python package or Pillow is
    missing (one ``error:`` line on ``stderr``)."""
    game = VARIANTS[args.variant]
    cells = [cell - 1 for cell in args.cells]
    try:
        if any(not 0 <= cell < game.cells for cell in cells):
            raise IllegalMoveError(f"cells are 1-{game.cells}, not {' '.join(map(str, args.cells))}")
        explained = game.explain(
            cells, None, args.algorithm, args.seed, compare=args.compare, depth=args.depth, iterations=args.iterations
        )
    except (IllegalMoveError, GameOverError, ValueError) as exc:  # ValueError: a search it does not record
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    if args.step:
        tree = explained.stepped()
        if tree is None:
            stderr.write(f"error: --step walks a minimax or alpha-beta search, not {args.variant}'s "
                         f"{explained.summary.algorithm.upper()}\n")  # fmt: skip
            return EXIT_USAGE
        _step(tree, args.json, stdout)
    elif args.json:
        stdout.write(json.dumps(explained.as_json()) + "\n")
    elif not (args.png or args.svg):
        stdout.write(explained.text() + "\n")
    return _draw(args, explained, stderr)


def _step(tree: SearchTree, as_json: bool, stdout: TextIO) -> None:
    """``--step``: the search's steps (:mod:`engine.tree.step`), one JSON event per line, or walked for a person,
    waiting for Enter after each step when both ends are a terminal (``q`` stops)."""
    if as_json:
        for step in steps(tree):
            stdout.write(json.dumps(step.as_json()) + "\n")
        return
    side = "X" if len(tree.cells) % 2 == 0 else "O"
    counted = f"{tree.states:,} state{'' if tree.states == 1 else 's'}"
    stdout.write(
        f"{tree.algorithm}: {counted}; {side} to move. X maximises, O minimises; values are X's, plies\n"
        "counted from here. A line per state: the states so far, the move, the window its replies are searched with\n"
        "(alpha, beta), a leaf's value; '←' a value going back up; '✂' a cut, with the alpha or beta that allowed it.\n"
        "At the root's own moves the window sits one point past the best so far, so equally good moves are found.\n"
    )
    pause = stdout is sys.stdout and sys.stdin.isatty() and sys.stdout.isatty()
    for _, lines in walk(tree):
        stdout.write("".join(line + "\n" for line in lines))
        if pause:
            stdout.flush()
            if sys.stdin.readline().strip().lower() == "q":
                return


def _draw(args: argparse.Namespace, explained: Explanation, stderr: TextIO) -> int:
    for fmt, path in (("png", args.png), ("svg", args.svg)):
        if path is not None:
            try:
                path.write_bytes(explained.draw(fmt=fmt, depth=args.depth))
            except (ImportError, OSError) as exc:
                stderr.write(f"error: cannot draw the tree: {exc}\n")
                return EXIT_NO_PICTURE
            except RuntimeError as exc:  # graphviz.ExecutableNotFound
                stderr.write(f"error: cannot draw the tree (is Graphviz's dot installed?): {exc}\n")
                return EXIT_NO_PICTURE
    return EXIT_OK
