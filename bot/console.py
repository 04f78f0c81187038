"""Play against the bot in a terminal, with the same session, engine calls and text as on Discord."""

from __future__ import annotations

import random
import sys
from typing import TextIO

from bot import ai, render
from bot.codec import Algorithm
from bot.sessions import Session, new_game_id
from bot.stats import Stats
from engine import Difficulty, Mark

__all__ = ["play"]

YOU = 1
"""The person's player id in a console session (the bot is ``None``, as on Discord)."""


def _who(player_id: int | None) -> str:
    return "you" if player_id == YOU else "the bot"


def play(
    *,
    play_as: str = "X",
    difficulty: str = "unbeatable",
    algorithm: Algorithm = "alpha-beta",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    rng: random.Random | None = None,
) -> int:
    """Play one game; returns the exit status (0, including when input ends; 130 on Ctrl-C)."""
    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    rng = rng or random.Random()
    mark = Mark(play_as) if play_as in ("X", "O") else rng.choice((Mark.X, Mark.O))
    x_id, o_id = (YOU, None) if mark is Mark.X else (None, YOU)
    session = Session(new_game_id(), 0, x_id, o_id, Difficulty(difficulty), algorithm, mode="text")
    try:
        while not session.over:
            if session.ai_to_move:
                session = session.with_ai(ai.decide(session.state, session.difficulty, algorithm, rng.getrandbits(64)))
                continue
            print("\n" + render.plain(render.message_text(session, _who, commands=False)), file=out)
            out.write("Your move: a cell 1-9, h for a hint, q to quit > ")
            out.flush()
            line = stdin.readline()
            if not line:
                print("\nInput ended — bye.", file=out)
                return 0
            answer = line.strip().lower()
            if answer in ("q", "quit", "exit"):
                print("Bye.", file=out)
                return 0
            if answer in ("h", "hint"):
                print(render.plain(render.hint_text(ai.hint(session.state))), file=out)
                continue
            if not (answer.isdigit() and 1 <= int(answer) <= 9):
                print(f"{line.strip()!r} is not a cell: type a number 1-9 (h for a hint, q to quit).", file=out)
                continue
            if session.state[int(answer) - 1] is not None:
                print(f"Cell {answer} is taken — pick an empty one.", file=out)
                continue
            session = session.play(int(answer) - 1)
    except KeyboardInterrupt:
        print("\nInterrupted — bye.", file=out)
        return 130
    print("\n" + render.plain(render.message_text(session, _who, commands=False)), file=out)
    stats = Stats()
    stats.record(session)
    print(render.plain(render.stats_text("You", stats.get(YOU))), file=out)
    return 0
