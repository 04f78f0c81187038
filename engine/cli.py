"""The command line: ``python -m engine play`` and ``python -m engine analyse BOARD``.

Every entry point takes its argument list and text streams as parameters (:func:`main`,
:func:`play`, :func:`analyse_command`), so tests drive a whole session in-process with
``io.StringIO`` instead of a terminal. People see cells as 1-9; the engine uses 0-8.

Exit codes: 0 success (also when the player quits or input ends mid-game), 2 bad usage or a bad
board, 130 interrupted with Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from engine.analysis import MoveAnalysis, analyse
from engine.errors import GameOverError, InvalidBoardError
from engine.game import (
    Mark,
    State,
    actions,
    format_board,
    initial_state,
    parse_board,
    player,
    result,
    terminal,
    winning_line,
)
from engine.game import winner as game_winner
from engine.players import Difficulty, choose_move
from engine.search import DEFAULT, TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX, SearchConfig, SearchResult, search

__all__ = [
    "ALGORITHM_CONFIGS",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_USAGE",
    "analyse_command",
    "build_parser",
    "describe_value",
    "main",
    "play",
    "render_board",
]

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130

ALGORITHM_CONFIGS: dict[str, SearchConfig] = {
    "alpha-beta": DEFAULT,
    "minimax": SearchConfig("minimax", "centre", "depth", transposition=False, root_window="fresh", symmetry=False),
}
"""The configuration behind each ``--algorithm``: both play perfectly (depth-aware scores); minimax
searches every state below the root, alpha-beta prunes."""

_TEXTBOOK_CONFIGS: dict[str, SearchConfig] = {"alpha-beta": TEXTBOOK_ALPHA_BETA, "minimax": TEXTBOOK_MINIMAX}
_QUIT_WORDS = frozenset({"q", "quit", "exit"})


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


def _outcome_line(state: State, human: Mark) -> str:
    won = game_winner(state)
    if won is None:
        return "Result: draw."
    line = winning_line(state) or ()
    who = "you win" if won is human else "the AI wins"
    return f"Result: {won.value} wins on {'-'.join(str(c + 1) for c in line)} ({who})."


class _ParserExit(Exception):
    """Raised instead of exiting the process when argparse rejects the arguments."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser for ``python -m engine`` and its ``play`` and ``analyse`` subcommands."""
    parser = argparse.ArgumentParser(
        prog="python -m engine",
        description="Play tic-tac-toe against a perfect AI, or analyse a position.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="{play,analyse}")

    play_p = sub.add_parser("play", help="play against the AI in the terminal")
    play_p.add_argument(
        "--as", dest="human", type=str.upper, choices=("X", "O"), default="X", help="your mark (X moves first)"
    )
    play_p.add_argument("--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta")
    play_p.add_argument("--difficulty", choices=[d.value for d in Difficulty], default=Difficulty.UNBEATABLE.value)
    play_p.add_argument("--seed", type=int, default=None, help="seed the AI's random choices for a reproducible game")

    an_p = sub.add_parser("analyse", aliases=["analyze"], help="choose a move for a position and explain it")
    an_p.add_argument("board", metavar="BOARD", help="nine characters of X, O and '.', row by row, e.g. '....X....'")
    an_p.add_argument("--algorithm", choices=tuple(ALGORITHM_CONFIGS), default="alpha-beta")
    an_p.add_argument(
        "--textbook",
        action="store_true",
        help="use the seeds' plain configuration (natural order, +1/0/-1, no table) to reproduce their state counts",
    )
    an_p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return parser


def main(
    argv: Sequence[str] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run ``python -m engine`` with ``argv`` (default ``sys.argv[1:]``) on the given streams.

    Returns the exit code: 0 on success, 2 for bad arguments or a bad/finished board (one line on
    ``stderr``; argparse adds its usage line for bad arguments), 130 when interrupted with Ctrl-C.
    """
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout if stdout is not None else sys.stdout
    stderr = stderr if stderr is not None else sys.stderr
    parser = build_parser()
    try:
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            args = parser.parse_args(list(argv) if argv is not None else None)
    except SystemExit as exc:  # --help exits 0, bad arguments 2
        return exc.code if isinstance(exc.code, int) else EXIT_USAGE
    if args.command == "play":
        return play(
            human=Mark(args.human),
            algorithm=args.algorithm,
            difficulty=Difficulty(args.difficulty),
            seed=args.seed,
            stdin=stdin,
            stdout=stdout,
        )
    return analyse_command(
        args.board,
        algorithm=args.algorithm,
        textbook=args.textbook,
        as_json=args.json,
        stdout=stdout,
        stderr=stderr,
    )


def play(
    *,
    human: Mark = Mark.X,
    algorithm: str = "alpha-beta",
    difficulty: Difficulty = Difficulty.UNBEATABLE,
    seed: int | None = None,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    """Play one game on ``stdin``/``stdout``: the person is ``human``, the AI the other mark.

    Prints the board (empty cells numbered 1-9) before each of the person's moves and prompts for a
    cell; text, numbers outside 1-9 and taken cells get a one-line explanation and the prompt again.
    Input that is not a terminal is echoed after the prompt, so piped sessions read like typed ones.
    After each AI move it prints e.g. ``O played 5 · alpha-beta evaluated 307 states in 0.08 ms``,
    and at the end the final board and ``Result: ...``. Typing ``q`` or closing the input (EOF)
    abandons the game with a short message.

    Returns:
        0 when the game ends or is abandoned, 130 on Ctrl-C (KeyboardInterrupt).
    """
    config = ALGORITHM_CONFIGS[algorithm]
    rng = random.Random(seed)
    ai = human.other
    state = initial_state()

    def say(text: str = "") -> None:
        stdout.write(text + "\n")
        stdout.flush()

    say(f"You are {human.value}, the AI is {ai.value} ({algorithm}, {difficulty.value}).")
    say("Type a cell number 1-9 to move, q to quit.")
    try:
        while not terminal(state):
            if player(state) is ai:
                decision = choose_move(state, difficulty, rng=rng, config=config)
                state = result(state, decision.move)
                note = f" (a random move at {difficulty.value})" if decision.random else ""
                say(f"{ai.value} played {decision.move + 1}{note} · {_search_line(decision.search)}")
                continue
            say()
            say(render_board(state))
            cell = _read_move(state, stdin, stdout)
            if cell is None:
                say("Game abandoned.")
                return EXIT_OK
            state = result(state, cell)
    except KeyboardInterrupt:
        say()
        say("Interrupted: game abandoned.")
        return EXIT_INTERRUPTED
    say()
    say(render_board(state))
    say(_outcome_line(state, human))
    return EXIT_OK


def _read_move(state: State, stdin: TextIO, stdout: TextIO) -> int | None:
    """Prompt until the person types a legal cell; return it as 0-8, or ``None`` to quit (q or EOF)."""
    free = actions(state)
    while True:
        stdout.write(f"Your move ({player(state).value}): ")
        stdout.flush()
        line = stdin.readline()
        if line == "":
            stdout.write("\nInput ended.\n")
            return None
        if not stdin.isatty():  # echo piped input so the transcript reads like a terminal session
            stdout.write(line if line.endswith("\n") else line + "\n")
        text = line.strip()
        if text.lower() in _QUIT_WORDS:
            return None
        try:
            number = int(text)
        except ValueError:
            stdout.write(f"{text!r} is not a cell number: type a number from 1 to 9.\n")
            continue
        if not 1 <= number <= 9:
            stdout.write(f"{number} is out of range: type a number from 1 to 9.\n")
            continue
        if number - 1 not in free:
            taken = state[number - 1]
            mark = taken.value if taken else "?"
            stdout.write(
                f"Cell {number} is already taken by {mark}: choose one of {', '.join(map(str, _people(free)))}.\n"
            )
            continue
        return number - 1


def analyse_command(
    board: str,
    *,
    algorithm: str = "alpha-beta",
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
