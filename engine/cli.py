"""The command line: ``python -m engine analyse BOARD``, ``review CELL ...``, ``serve`` and ``bestmove``.

Every entry point takes its argument list and text streams as parameters (:func:`main`,
:func:`analyse_command`, :func:`review_command`), so tests run them in-process with
``io.StringIO``. ``analyse`` shows cells as people see them, 1-9; ``review`` takes and prints the
engine's cells 0-8, like :func:`engine.review`. Playing in a terminal is the bot's console
(``python -m bot --console``), not part of the engine.

Exit codes: 0 success, 2 bad usage, a bad board or an illegal move list, 130 interrupted with Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.analysis import MoveAnalysis, analyse
from engine.errors import GameOverError, IllegalSequenceError, InvalidBoardError
from engine.game import State, format_board, parse_board, player
from engine.review import PlyReview, SideSummary, review, summary
from engine.search import (
    ALGORITHM_CONFIGS,
    DEFAULT,
    TEXTBOOK_ALPHA_BETA,
    TEXTBOOK_MINIMAX,
    Algorithm,
    SearchConfig,
    SearchResult,
    search,
)
from engine.serve import DEFAULT_BUDGET_MS, answer_line, serve
from engine.solver import GameValue
from engine.variants import VARIANTS

__all__ = [
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "analyse_command",
    "build_parser",
    "describe_value",
    "main",
    "render_board",
    "review_command",
]

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

_TEXTBOOK_CONFIGS: dict[Algorithm, SearchConfig] = {"alpha-beta": TEXTBOOK_ALPHA_BETA, "minimax": TEXTBOOK_MINIMAX}


def render_board(state: State) -> str:
    """The board as three rows, marks shown as X/O and empty cells by their number 1-9."""
    cells = [m.value if (m := state[i]) else str(i + 1) for i in range(9)]
    rows = [" " + " | ".join(cells[r * 3 : r * 3 + 3]) for r in range(3)]
    return "\n---+---+---\n".join(rows)


def describe_value(value: int, scoring: str) -> str:
    """Explain a search value (X's point of view) in words, e.g. ``"X wins in 3 plies"``."""
    if value == 0:
        return "draw with best play"
    side = "X" if value > 0 else "O"
    if scoring == "depth":
        plies = 10 - abs(value)
        return f"{side} wins in {plies} {'ply' if plies == 1 else 'plies'} with best play"
    return f"{side} wins with best play"


def _search_line(res: SearchResult) -> str:
    return f"{res.config.algorithm} evaluated {res.states:,} states in {res.elapsed_ms:.2f} ms"


def _people(cells: Sequence[int]) -> list[int]:
    return [c + 1 for c in cells]


def _move_text(move: MoveAnalysis) -> str:
    if move.outcome == "draw":
        return "draw"
    return f"{move.outcome} in {move.plies} {'ply' if move.plies == 1 else 'plies'}"


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for ``python -m engine`` and its ``analyse`` and ``review`` subcommands."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Analyse a tic-tac-toe position, or review a game move by move.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{analyse,review,serve,bestmove}")

    an_p = sub.add_parser("analyse", aliases=["analyze"], help="choose a move for a position and explain it")
    an_p.add_argument("board", metavar="BOARD", help="nine characters of X, O and '.', row by row, e.g. '....X....'")
    an_p.add_argument("--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta")
    an_p.add_argument(
        "--textbook",
        action="store_true",
        help="use the seeds' plain configuration (natural order, +1/0/-1, no table) to reproduce their state counts",
    )
    an_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    re_p = sub.add_parser("review", help="label every move of a game: best, slower, inaccuracy, mistake or blunder")
    re_p.add_argument(
        "cells",
        metavar="CELL",
        type=int,
        nargs="+",
        help="the cells played, in order from the empty board, numbered 0-8 row by row from the top-left",
    )
    re_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")

    sub.add_parser("serve", help="answer JSON requests, one per line on stdin (see engine.serve)")
    bm_p = sub.add_parser("bestmove", help="answer one request: the engine's move in a game of VARIANT")
    bm_p.add_argument("variant", metavar="VARIANT", help=f"one of {', '.join(VARIANTS)}")
    bm_p.add_argument("moves", metavar="CELL", type=int, nargs="*", help="the cells played, 1-based row by row")
    bm_p.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS, help="the search's budget (ms)")
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``python -m engine`` with ``argv`` (default ``sys.argv[1:]``) on the given streams.

    Returns the exit code: 0 on success, 2 for bad arguments, a bad or finished board or an illegal
    move list (one line on ``stderr``; argparse adds its usage line for bad arguments).
    """
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help exits 0, bad arguments 2
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command == "serve":
        return serve(sys.stdin, stdout)
    if args.command == "bestmove":
        request = {"variant": args.variant, "moves": args.moves, "budget_ms": args.budget_ms}
        line = answer_line(json.dumps(request))
        print(line, file=stdout)
        return EXIT_USAGE if '"error"' in line else EXIT_OK
    if args.command == "review":
        return review_command(args.cells, as_json=args.json, stdout=stdout, stderr=stderr)
    return analyse_command(
        args.board,
        algorithm=args.algorithm,
        textbook=args.textbook,
        as_json=args.json,
        stdout=stdout,
        stderr=stderr,
    )


def analyse_command(
    board: str,
    *,
    algorithm: Algorithm = "alpha-beta",
    textbook: bool = False,
    as_json: bool = False,
    stdout: TextIO,
    stderr: TextIO,
) -> int:
    """Search ``board`` and print the chosen cell (1-9), its value, the states evaluated and the time.

    The text form adds the principal variation and one line per legal move (win/draw/loss in n
    plies, from :func:`engine.analysis.analyse`). With ``as_json`` it prints exactly one JSON
    object with keys ``board``, ``to_move``, ``move`` (1-9), ``value`` (X's point of view),
    ``states``, ``elapsed_ms``, ``pv`` and ``best_moves`` (1-9), ``algorithm``, ``scoring`` and
    ``moves`` (per-move outcomes, cells 1-9).

    Returns:
        0 on success; 2 when the board is invalid or the game in it is over, after printing one
        line starting ``error:`` on ``stderr``.
    """
    try:
        state = parse_board(board)
        config = (_TEXTBOOK_CONFIGS if textbook else ALGORITHM_CONFIGS)[algorithm]
        res = search(state, config=config)
    except (InvalidBoardError, GameOverError) as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    moves = analyse(state, compare=False).moves
    if as_json:
        payload: dict[str, Any] = {
            "board": format_board(state),
            "to_move": player(state).value,
            "move": res.move + 1,
            "value": res.value,
            "states": res.states,
            "elapsed_ms": res.elapsed_ms,
            "pv": _people(res.pv),
            "best_moves": _people(res.best_moves),
            "algorithm": res.config.algorithm,
            "scoring": res.config.scoring,
            "moves": [{"cell": m.cell + 1, "outcome": m.outcome, "plies": m.plies} for m in moves],
        }
        stdout.write(json.dumps(payload) + "\n")
        return EXIT_OK
    lines = [
        render_board(state),
        "",
        f"{player(state).value} to move.",
        f"Best move: {res.move + 1} (value {res.value:+d}: {describe_value(res.value, res.config.scoring)})"
        if res.value
        else f"Best move: {res.move + 1} (value 0: {describe_value(0, res.config.scoring)})",
        f"{_search_line(res)}",
        f"Equally good: {', '.join(map(str, _people(res.best_moves)))}",
        f"Principal variation: {' '.join(map(str, _people(res.pv)))}",
        "Moves:",
        *(f"  {m.cell + 1}: {_move_text(m)}" for m in moves),
    ]
    stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def review_command(cells: Sequence[int], *, as_json: bool = False, stdout: TextIO, stderr: TextIO) -> int:
    """Review a game given as cells 0-8 and print one line per ply and one summary line per side.

    Each ply line gives the ply number, the mover and cell, the mover's value before and after the
    move (e.g. ``draw in 8`` → ``loss in 5``), the label, the best moves when the move was not one
    of them, and the states the default alpha-beta search evaluates in that position. With
    ``as_json`` it prints exactly one JSON object: ``algorithm`` (``"alpha-beta"``), ``moves``
    (cells 0-8), ``plies`` (one object per ply with ``ply``, ``mover``, ``cell``, ``board`` before
    the move, ``before`` and ``after`` as ``{"result", "plies"}``, ``label``, ``best_moves`` and
    ``states``) and ``summary`` (per side: ``moves``, ``best`` and the ply numbers of ``slower``,
    ``inaccuracies``, ``mistakes`` and ``blunders``).

    Returns:
        0 on success; 2 when the list cannot be played, after printing one line starting
        ``error:`` on ``stderr``.
    """
    try:
        plies = review(cells)
    except IllegalSequenceError as exc:
        stderr.write(f"error: {exc}\n")
        return EXIT_USAGE
    sides = summary(plies)
    if as_json:
        payload: dict[str, Any] = {
            "algorithm": DEFAULT.algorithm,
            "moves": [p.cell for p in plies],
            "plies": [_ply_json(p) for p in plies],
            "summary": {mark.value: _side_json(side) for mark, side in sides.items()},
        }
        stdout.write(json.dumps(payload) + "\n")
        return EXIT_OK
    lines = [f"Cells 0-8, row by row from the top-left; states: what {DEFAULT.algorithm} evaluates to move there."]
    lines += [_ply_text(p) for p in plies]
    lines += [_side_text(side) for side in sides.values() if side.moves]
    stdout.write("\n".join(lines) + "\n")
    return EXIT_OK


def _outcome_text(outcome: GameValue) -> str:
    if outcome.plies == 0:
        return {"win": "won", "draw": "drawn", "loss": "lost"}[outcome.result]
    return f"{outcome.result} in {outcome.plies}"


def _ply_text(ply: PlyReview) -> str:
    change = f"{_outcome_text(ply.before)} -> {_outcome_text(ply.after)}"
    best = "" if ply.label == "best" else f" (best: {' '.join(map(str, ply.best_moves))})"
    states = f"{ply.states:>5,} {'state' if ply.states == 1 else 'states'}"
    return f"{ply.ply:>2}. {ply.mover.value} {ply.cell}  {change:<24} {ply.label + best:<26} {states}"


def _side_text(side: SideSummary) -> str:
    parts = [f"{side.best} of {side.moves} best"]
    for name, plies in (
        ("blunder", side.blunders),
        ("mistake", side.mistakes),
        ("slower", side.slower),
        ("inaccuracy", side.inaccuracies),
    ):
        if plies:
            plural = len(plies) > 1
            noun = name + ("s" if plural and name in ("blunder", "mistake") else "")
            parts.append(f"{noun} at {'plies' if plural else 'ply'} {', '.join(map(str, plies))}")
    return f"{side.mark.value}: " + "; ".join(parts)


def _ply_json(ply: PlyReview) -> dict[str, Any]:
    return {
        "ply": ply.ply,
        "mover": ply.mover.value,
        "cell": ply.cell,
        "board": format_board(ply.state),
        "before": {"result": ply.before.result, "plies": ply.before.plies},
        "after": {"result": ply.after.result, "plies": ply.after.plies},
        "label": ply.label,
        "best_moves": list(ply.best_moves),
        "states": ply.states,
    }


def _side_json(side: SideSummary) -> dict[str, Any]:
    return {
        "moves": side.moves,
        "best": side.best,
        "slower": list(side.slower),
        "inaccuracies": list(side.inaccuracies),
        "mistakes": list(side.mistakes),
        "blunders": list(side.blunders),
    }
