"""The console in every language: 12 games each, every end line one of the console's own second-person sentences,
no third-person verb after "you", a review offered (and given) after every game, no board reprinted on a typo, and
a first Ctrl-C that exits."""

from __future__ import annotations

import io
import itertools
import os
import random
import re
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from bot import console
from bot.console import REVIEW_PROMPT, YES_LETTERS
from bot.i18n.lang import Lang, lang
from bot.text.console import BOT_WINS, DRAW, YOU_PLAYED, YOU_WIN
from engine.games.connect_four import CONNECT_FOUR_VARIANT

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ("en-US", "de", "fr", "es-ES", "pt-BR", "ja")
GAMES = [  # (variant, level, mark): 12 games, every board, weak and strong levels, both sides
    ("3x3", 1, "X"), ("3x3", 1, "O"), ("3x3", 3, "X"), ("3x3", 5, "O"), ("3x3", 8, "X"), ("3x3", 8, "O"),
    ("4x4", 1, "X"), ("4x4", 7, "O"), ("5x5", 1, "X"), ("5x5", 6, "O"), ("ultimate", 1, "X"), ("ultimate", 2, "O"),
]  # fmt: skip
THIRD_PERSON_AFTER_YOU = {  # the broken sentences of issue 38, and their kin
    "en-US": r"\byou (wins|is|has|plays|moves)\b",
    "de": r"\bdu (gewinnt|ist|hat|spielt)\b",
    "fr": r"\bvous (gagne|est|a joué)\b",
    "es-ES": r"\btú (gana|es|juega)\b|\ba [❌⭕] tú\b",
    "pt-BR": r"\bvocê (vencem|ganham|jogaram)\b",
    "ja": r"あなた が勝ち",
}
COORDINATES = [f"{c}{r}" for r in range(1, 10) for c in "abcdefghi"]


class Player(io.StringIO):
    """A player at the keyboard: reads what the console printed and answers a review question with yes, anything
    else with the next cell of a shuffled round of coordinates (taken or off-board ones are refused and skipped)."""

    def __init__(self, shown: io.StringIO, tr: Lang, seed: int) -> None:
        super().__init__()
        self.shown, self.yes = shown, tr(YES_LETTERS)[0]
        self.review_prompt = tr(REVIEW_PROMPT).strip()
        order = COORDINATES.copy()
        random.Random(seed).shuffle(order)
        self.cells = itertools.islice(itertools.cycle(order), 20_000)

    def readline(self, *args: object) -> str:
        if self.shown.getvalue().rstrip().endswith(self.review_prompt):
            return self.yes + "\n"
        return next(self.cells, "q") + "\n"


def end_sentence(tr: Lang) -> re.Pattern[str]:
    """An end line: one of the console's sentences, then the bot's total in the locale's words."""
    singular, plural = (
        "The bot evaluated {states} states over {moves} move.",
        "The bot evaluated {states} states over {moves} moves.",
    )
    total = re.escape(tr.plural(singular, plural, 2, states="STATES", moves="MOVES"))
    total = total.replace("STATES", r"[\d.,\s\u202f\u00a0]+").replace("MOVES", r"\d+")
    ends = "|".join(re.escape(tr(text)) for text in (YOU_WIN, BOT_WINS, DRAW))
    return re.compile(rf"^({ends}) {total}$")


@pytest.mark.parametrize("locale", LOCALES)
def test_twelve_console_games_end_in_grammatical_second_person_lines(locale: str) -> None:
    tr = lang(locale)
    ending = end_sentence(tr)
    seen: set[str] = set()
    for seed, (variant, level, mark) in enumerate(GAMES):
        shown = io.StringIO()
        status = console.play(stdin=Player(shown, tr, seed), stdout=shown, rng=random.Random(seed), locale=locale,
                              variant=variant, level=level, play_as=mark)  # fmt: skip
        text = shown.getvalue()
        assert status == 0, text[-500:]
        ends = [line for line in text.splitlines() if ending.match(line)]
        assert len(ends) == 1, (variant, level, mark, text[-1500:])
        seen.add(ending.match(ends[0])[1])  # type: ignore[index]
        assert text.count(tr(REVIEW_PROMPT).strip()) == 1, text[-500:]  # a review is offered after every game
        after = text[text.index(tr(REVIEW_PROMPT).strip()) :]
        assert len(after.splitlines()) > 3, (variant, after)  # and given, move by move
        assert not re.search(THIRD_PERSON_AFTER_YOU[locale], text, re.IGNORECASE), re.findall(
            rf".*(?:{THIRD_PERSON_AFTER_YOU[locale]}).*", text, re.IGNORECASE
        )
    assert {tr(YOU_WIN), tr(BOT_WINS)} <= seen, seen  # the weak levels lose some, the strong ones win some


def test_the_exact_sentences() -> None:
    assert [lang("en-US")(t) for t in (YOU_WIN, BOT_WINS, DRAW)] == ["You win!", "The bot wins.", "It's a draw."]
    assert [lang("de")(t) for t in (YOU_WIN, BOT_WINS)] == ["Du gewinnst!", "Der Bot gewinnt."]
    assert lang("es-ES")(YOU_WIN) == "¡Ganas tú!" and lang("fr")(YOU_WIN) == "Vous gagnez !"
    assert lang("de")(YOU_PLAYED, cell="b2") == "Du hast b2 gespielt."


def test_a_typo_is_refused_without_the_board_and_3x3_takes_coordinates() -> None:
    shown = io.StringIO()
    script = io.StringIO("zz\nb2\nq\n")
    assert console.play(stdin=script, stdout=shown, rng=random.Random(1), locale="en-US") == 0
    text = shown.getvalue()
    assert text.count("Your move (X).") == 2  # the first board, and the one after b2; none after the typo
    assert "'zz' is not a cell" in text and "O played" in text


def test_after_your_winning_move_the_header_says_you_played_it() -> None:
    shown = io.StringIO()
    tr = lang("en-US")
    variant, level, mark = GAMES[3]  # seeded: you win this one (as O, against level 5)
    console.play(stdin=Player(shown, tr, 3), stdout=shown, rng=random.Random(3), locale="en-US", variant=variant,
                 level=level, play_as=mark)  # fmt: skip
    text = shown.getvalue()
    final = text[text.rindex("Tic-tac-toe ·") : text.index(tr(REVIEW_PROMPT).strip())].splitlines()
    assert final[1].startswith("You played ") and final[2].startswith("You win!"), final


def test_the_first_ctrl_c_exits() -> None:
    """In a terminal: one Ctrl-C at the prompt ends the console at once (status 130), as the issue asks."""
    pid, fd = os.forkpty()
    if pid == 0:  # the child: the console in a pseudo-terminal
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "bot", "--console"])
    shown = b""
    deadline = time.monotonic() + 60
    while b"> " not in shown:
        assert time.monotonic() < deadline, shown
        if select.select([fd], [], [], 0.1)[0]:
            shown += os.read(fd, 4096)
    os.write(fd, b"\x03")  # Ctrl-C, typed
    deadline = time.monotonic() + 15
    while (done := os.waitpid(pid, os.WNOHANG))[0] == 0:
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            pytest.fail("a first Ctrl-C did not end the console")
        if select.select([fd], [], [], 0.05)[0]:
            try:
                shown += os.read(fd, 4096)
            except OSError:
                break
    status = done[1] if done[0] else os.waitpid(pid, 0)[1]
    os.close(fd)
    assert os.waitstatus_to_exitcode(status) == 130, shown[-500:]


def test_a_game_played_by_column_takes_columns_and_refuses_the_rest() -> None:
    """Connect Four in the console: the prompt asks for a column, a typed column drops a disc where it falls, a word
    or a number off the board is refused without the board, a full column is refused, and the game ends."""
    name = CONNECT_FOUR_VARIANT.name
    shown = io.StringIO()
    answers = ["zz", "9", *["4"] * 7, *[str(c) for c in random.Random(5).choices(range(1, 8), k=200)]]
    script = io.StringIO("\n".join(answers) + "\nn\n")
    status = console.play(stdin=script, stdout=shown, rng=random.Random(3), locale="en-US", variant=name, level=1)
    text = shown.getvalue()
    assert status == 0, text[-800:]
    assert "Your move: a column 1-7, h for a hint, q to quit >" in text
    assert "'zz' is not a column: type 1-7" in text and "'9' is not a column: type 1-7" in text
    assert "That column is full — pick another one." in text  # seeded: the bot fills column 4 with you
    assert re.search(r"You win!|The bot wins\.|It's a draw\.", text), text[-800:]
