"""Play against the bot in a terminal, through the same game service, engine calls and text as on Discord.

It prints the service's answers with its own printer over the same ``match`` as :func:`bot.ui.present.present`
(ending in ``assert_never``), in plain text instead of Discord components."""

from __future__ import annotations

import asyncio
import random
import signal
import sys
from typing import TextIO, assert_never

from bot import i18n
from bot.games.ai import AI
from bot.games.answers import (
    BotMoved,
    Challenged,
    Chosen,
    Declined,
    Hinted,
    NeedsHistory,
    Posted,
    Refusal,
    Shown,
    Thinking,
)
from bot.games.finished import finished_game
from bot.games.intents import Actor
from bot.games.match import Algorithm, Match, new_game_id
from bot.games.refusals import typed_cell
from bot.games.service import GameService
from bot.i18n import N_
from bot.i18n.lang import Lang, lang
from bot.text.common import plain
from bot.text.console import console_text
from bot.text.grid import DEFAULT_VARIANT
from bot.text.hints import hint_text, refusal_text
from bot.text.review import review_text
from engine import Mark, Variant
from engine import variant as variant_named

__all__ = ["INTERRUPTED", "play"]

INTERRUPTED = 130
"""The exit status of a game ended with Ctrl-C (128 + SIGINT, as shells report it)."""

YOU = 1
"""The person's player id in a console game (the bot is ``None``, as on Discord)."""
CHANNEL = 1

PROMPT = N_("Your move: a cell 1-9 or a1-c3, h for a hint, q to quit > ")
VARIANT_PROMPT = N_("Your move: a coordinate a1-{last}, h for a hint, q to quit > ")
REVIEW_PROMPT = N_("Review the game move by move? [y/N] ")
YES_LETTERS = N_("y")
NOT_A_CELL = N_("{answer} is not a cell: type a number 1-9 or a coordinate a1-c3 (h for a hint, q to quit).")
NOT_A_COORDINATE = N_("{answer} is not a cell: type a coordinate a1-{last} (h for a hint, q to quit).")
COLUMN_PROMPT = N_("Your move: a column {first}-{last}, h for a hint, q to quit > ")
"""On a game played by column (:meth:`engine.Variant.columns`); ``first``, ``last``: its columns as the board names
them."""
NOT_A_COLUMN = N_("{answer} is not a column: type {first}-{last} (h for a hint, q to quit).")


def play(
    *,
    play_as: str = "X",
    level: int = 8,
    algorithm: Algorithm = "alpha-beta",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    rng: random.Random | None = None,
    locale: str | None = None,
    variant: str = DEFAULT_VARIANT,
) -> int:
    """Play one game of ``variant``; returns the exit status (0, including when input ends; 130 on Ctrl-C).

    ``locale`` defaults to the one ``LANG`` names (:func:`bot.i18n.console_locale`).
    """
    console = _Console(stdin or sys.stdin, stdout or sys.stdout, lang(locale or i18n.console_locale()))
    try:
        return asyncio.run(console.play(play_as, level, algorithm, rng or random.Random(), variant))
    except KeyboardInterrupt:
        console.say("\n" + console.tr(N_("Interrupted — bye.")))
        return INTERRUPTED


def _numbered(rules: Variant) -> bool:
    """True when the board labels its cells by number (3x3's 1-9, or a column's) rather than by coordinate."""
    return rules.cell_label(0) != rules.cell_name(0)


def _by_column(rules: Variant) -> bool:
    """True when ``rules`` is played by column (a move names a column: :meth:`engine.Variant.columns`)."""
    return bool(rules.columns(rules.game.initial_state()))


def _labels(rules: Variant) -> dict[str, str]:
    """The first and last moves as the board names them (``first``, ``last``: e.g. the columns ``"1"``, ``"7"``)."""
    return {"first": rules.cell_label(0), "last": rules.cell_label(rules.cells - 1)}


def _cell(answer: str, game: Match) -> int | None:
    """The 0-based cell ``answer`` names on ``game``'s board, read as ``/ttt move`` reads it
    (:func:`bot.games.refusals.typed_cell`) except that a number names a cell only where the board numbers its cells
    (3x3, a column's); ``None`` for anything else."""
    if answer.isdigit() and not _numbered(game.kind):
        return None
    read = typed_cell(game, answer)
    return None if isinstance(read, Refusal) else read


class _Console:
    def __init__(self, stdin: TextIO, stdout: TextIO, tr: Lang) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.tr = tr

    def say(self, text: str) -> None:
        print(plain(text), file=self.stdout)

    def who(self, player_id: int | None) -> str:
        """A player named in a sentence written for a mention (a review's header, a refusal): "you" or "the bot"."""
        return self.tr(N_("you")) if player_id == YOU else self.tr(N_("the bot"))

    def show(self, game: Match) -> None:
        self.say("\n" + console_text(game, YOU, self.tr))

    def prompt(self, rules: Variant) -> str | None:
        """Ask for a move; the answer, or ``None`` when the input ended."""
        last = rules.cell_name(rules.cells - 1)
        if _by_column(rules):
            asked = self.tr(COLUMN_PROMPT, **_labels(rules))
        else:
            asked = self.tr(PROMPT) if _numbered(rules) else self.tr(VARIANT_PROMPT, last=last)
        self.stdout.write(plain(asked))
        self.stdout.flush()
        line = self.stdin.readline()
        return line or None

    async def play(
        self, play_as: str, level: int, algorithm: Algorithm, rng: random.Random, variant: str = DEFAULT_VARIANT
    ) -> int:
        # asyncio.run's own SIGINT handler only cancels the main task at its next await, and reading the answer
        # blocks: the first Ctrl-C would wait for Enter. Ctrl-C interrupts at once instead.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        moved: asyncio.Queue[BotMoved] = asyncio.Queue()
        service = GameService(AI(rng=rng), turn_timeout=0, challenge_timeout=0, rng=rng, on_bot_move=moved.put_nowait)
        me = Actor(YOU, CHANNEL, locale=self.tr.locale)
        mark = Mark(play_as) if play_as in ("X", "O") else None
        started = await service.start(
            me,
            game_id=new_game_id(),
            play_as=mark,
            level=level,
            algorithm=algorithm,
            mode="text",
            variant=variant,
        )
        if isinstance(started, Refusal):
            self.say(refusal_text(started.key, started.values, self.tr, self.who))
            return 2
        assert isinstance(started, Posted)
        game, boards = started.game, 1
        service.placed(CHANNEL, game.game_id, boards, game.post)
        rules = variant_named(variant)
        last = rules.cell_name(rules.cells - 1)
        changed = True  # the board is shown again only after a move, not after a typo, a refusal or a hint
        while not game.over:
            if game.thinking:  # a slow variant: the bot's move arrives when its search ends
                self.show(game)
                game = (await moved.get()).game
                continue
            if changed:
                self.show(game)
            changed = False
            line = self.prompt(rules)
            if line is None:
                self.say("\n" + self.tr(N_("Input ended — bye.")))
                return 0
            answer = line.strip().lower()
            if answer in ("q", "quit", "exit"):
                self.say(self.tr(N_("Bye.")))
                return 0
            if answer in ("h", "hint"):
                outcome = await service.hint(me)
            elif (cell := _cell(answer, game)) is not None:
                outcome = await service.move(me, cell)
            else:
                self.say(self._not_a_move(repr(line.strip()), rules, last))
                continue
            match outcome:
                case Refusal(key=key, values=values):
                    self.say(refusal_text(key, values, self.tr, self.who))
                case Hinted(game=hinted, hint=hint):
                    self.say(hint_text(hinted, hint, self.tr))
                case Posted(game=posted):
                    game, boards, changed = posted, boards + 1, True
                    service.placed(CHANNEL, game.game_id, boards, game.post)
                case Shown() | Chosen() | Challenged() | Declined() | NeedsHistory() | BotMoved() | Thinking():
                    raise RuntimeError(f"a console game has no buttons, challenges or lost history: {outcome!r}")
                case _:
                    assert_never(outcome)
        self.show(game)
        if game.moves and self.ask(self.tr(REVIEW_PROMPT)):
            review = await service.ai.review(game.variant, game.moves)
            self.say(review_text(finished_game(game), review, self.tr, self.who))
        await service.ai.shutdown()
        return 0

    def _not_a_move(self, wrong: str, rules: Variant, last: str) -> str:
        """What a typed answer that names no move says."""
        if _by_column(rules):
            return self.tr(NOT_A_COLUMN, answer=wrong, **_labels(rules))
        if _numbered(rules):
            return self.tr(NOT_A_CELL, answer=wrong)
        return self.tr(NOT_A_COORDINATE, answer=wrong, last=last)

    def ask(self, question: str) -> bool:
        """A yes/no question; only an answer starting with y (or the locale's word for yes) says yes."""
        self.stdout.write(plain(question))
        self.stdout.flush()
        answer = self.stdin.readline().strip().lower()
        return bool(answer) and answer[0] in self.tr(YES_LETTERS)
