"""The argument parser of ``python -m engine``: its subcommands, each with a description and every option explained
(``python -m engine SUBCOMMAND --help``). The games each subcommand takes are read from the registries, so the help
names every game registered."""

from __future__ import annotations

import argparse
import textwrap

from engine.cli.serve import DEFAULT_BUDGET_MS
from engine.cli.tree import add_parser as add_tree_parser
from engine.levels import LEVELS, TOP
from engine.minimax.config import ALGORITHM_CONFIGS
from engine.puzzles import PUZZLE_VARIANTS
from engine.registry import VARIANTS

__all__ = ["build_parser"]

_RAW = argparse.RawDescriptionHelpFormatter
_WIDTH = 100
"""The width the descriptions written with line breaks of their own are wrapped to."""

_SERVE = """\
Answer move requests from another program: one JSON object per line on standard input, one JSON answer per line
on standard output, until the input closes. Bad lines are answered with {{"error": ..., "kind": ...}} and the server
keeps serving.

A request names its game ("variant") and the moves played from the start, in one of three ways; the answer names
moves, and every error names cells and columns, the same way:
  "moves": [13, 7]          cells numbered 1-based, row by row over the whole board
  "columns": [4, 4, 5]      columns numbered 1-based from the left, on a game played by column ({columns})
  "moves": ["c3", "b2"]     the game's own notation: a coordinate (a1 top left), on a game played by column
                            a column "4" or "d"

Optional fields: "query": "state" for the player to move, the legal moves and the winner instead of a move;
"level": 1-8 (default 8, the strongest); "budget_ms": the answer's wall time in ms (default {budget:g});
"algorithm": the search on 3x3 ("alpha-beta" or "minimax").

Example:
  echo '{{"variant": "connect-four", "columns": [4, 4, 5]}}' | python -m engine serve
  {{"move": 3, "states": 7, "value": "win in 37", "proven": true, "elapsed_ms": 0.0, "source": "book"}}

The full protocol: docs/engine.md, "The line protocol"."""


def _summary() -> str:
    """The engine's description: what it is, every game registered with its description, how cells are named."""
    width = max(len(name) for name in VARIANTS)
    games = "\n".join(f"  {name:<{width}}  {game.description}" for name, game in VARIANTS.items())
    by_column = [game for game in VARIANTS.values() if game.columns(game.game.initial_state())]
    columns = "".join(f"; {game.name} also by its columns, 1-{game.width} from the left" for game in by_column)
    naming = (
        f"Cells are numbered from 1, row by row from the top left, or named by coordinate (a1 the top left){columns}."
    )
    intro = "The game engine behind the tic-tac-toe bot, on its own, for scripts and other programs. It plays:"
    return f"{textwrap.fill(intro, _WIDTH)}\n{games}\n\n{textwrap.fill(naming, _WIDTH)}"


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for ``python -m engine`` and its subcommands."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description=_summary(),
        epilog="Playing in a terminal is the bot's console: python -m bot --console.",
        formatter_class=_RAW,
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="SUBCOMMAND", title="subcommands")
    by_column = ", ".join(name for name, game in VARIANTS.items() if game.columns(game.game.initial_state()))

    an_p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="choose a 3x3 move for a position and explain it",
        description="Search a 3x3 position and print the chosen cell (1-9), its value in words, the states evaluated "
        "and the time, the principal variation and every legal move's outcome.",
    )
    an_p.add_argument("board", metavar="BOARD", help="nine characters of X, O and '.', row by row, e.g. '....X....'")
    an_p.add_argument(
        "--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta", help="the search (default alpha-beta)"
    )
    an_p.add_argument(
        "--textbook",
        action="store_true",
        help="use the seeds' plain configuration (natural order, +1/0/-1, no table) to reproduce their state counts",
    )
    an_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    re_p = sub.add_parser(
        "review",
        help="label every move of a 3x3 game: best, slower, inaccuracy, mistake or blunder",
        description="Review a 3x3 game move by move: each move's value before and after, its label (best, slower, "
        "inaccuracy, mistake or blunder), the best moves when it was not one, and a summary per side.",
    )
    re_p.add_argument(
        "cells",
        metavar="CELL",
        type=int,
        nargs="+",
        help="the cells played, in order from the empty board, numbered 1-9 row by row from the top-left",
    )
    re_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    sub.add_parser(
        "serve",
        help="answer JSON move requests on every game, one per line on stdin (for other programs)",
        description=_SERVE.format(columns=by_column or "none registered", budget=DEFAULT_BUDGET_MS),
        formatter_class=_RAW,
    )

    bm_p = sub.add_parser(
        "bestmove",
        help="answer one such request: the engine's move in a game of VARIANT",
        description="Answer one request of `python -m engine serve` and print its JSON answer: the engine's move "
        "after MOVEs, with its value, the states searched and the time. MOVEs are 1-based cells (numbers) "
        "or the game's notation (e.g. c3 b2; on a game played by column d d e); --columns 4 4 5 gives them as 1-based "
        "columns instead. The answer names the move the same way. Exits 2 when the request is refused.",
    )
    bm_p.add_argument("variant", metavar="VARIANT", help=f"the game: one of {', '.join(VARIANTS)}")
    bm_p.add_argument(
        "moves", metavar="MOVE", nargs="*", help="the moves played from the start: cells 1-based, or names (c3, d)"
    )
    bm_p.add_argument(
        "--columns",
        metavar="COLUMN",
        type=int,
        nargs="*",
        help=f"the moves played instead as columns numbered from 1 on the left (a game played by column: {by_column})",
    )
    bm_p.add_argument(
        "--budget-ms",
        type=float,
        default=DEFAULT_BUDGET_MS,
        help=f"the answer's wall time, ms (default {DEFAULT_BUDGET_MS:g})",
    )
    bm_p.add_argument(
        "--level", type=int, default=TOP, choices=LEVELS, help=f"the engine's level, 1-8 (default {TOP}, the strongest)"
    )

    lv_p = sub.add_parser(
        "levels",
        help="the levels 1-8 of every game with their measured ratings",
        description="Print every game's levels 1-8: a table of their Elo ratings (one scale per game), then per game "
        "each level's rating, its 95 % interval, the calibration games it played and how it searches "
        "(docs/levels.md says how they were measured).",
    )
    lv_p.add_argument("--variant", choices=tuple(VARIANTS), help="one game only (default: every game)")
    lv_p.add_argument("--json", action="store_true", help="print one JSON object instead: each game's list of levels")

    pz_p = sub.add_parser(
        "puzzles",
        help=f"the shipped puzzles of {', '.join(PUZZLE_VARIANTS)}",
        description="Print the shipped puzzles of a game (find the only winning move): each one's id, rating, task, "
        "solution and themes, and its position drawn row by row.",
    )
    pz_p.add_argument("--variant", choices=PUZZLE_VARIANTS, required=True, help="the game whose puzzles to print")
    pz_p.add_argument("--json", action="store_true", help="print one JSON array instead of text")
    add_tree_parser(sub)
    return parser
