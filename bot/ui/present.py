"""One step from an answer to a reply: :func:`present` is the only place that pairs a text with components.

An answer of the game service (:mod:`bot.games.answers`), or :class:`Retired` for an old board, becomes a
:class:`Reply`: its content, components, attachments, whether it is private, and where it goes. The
responder only sends replies; nothing else decides how an answer looks on Discord.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any, assert_never

import discord

from bot.games.answers import BotMoved, Challenged, Chosen, Declined, Hinted, Posted, Refusal, Shown, Thinking
from bot.games.match import Match
from bot.games.thinking import FILENAME
from bot.i18n.lang import Lang
from bot.text.board import (
    challenge_text,
    declined_text,
    expired_text,
    message_text,
    moved_text,
    pad_played_text,
    pad_text,
)
from bot.text.hints import hint_text, refusal_text
from bot.text.thinking import thinking_text
from bot.text.thinking_words import thinking_words
from bot.ui.pictures import Attachment
from bot.ui.stepper import step_through
from bot.ui.views import (
    LayoutComponents,
    board_message,
    challenge_view,
    hint_view,
    is_layout,
    is_layout_board,
    private_pad,
)

__all__ = [
    "PRIVATE",
    "Background",
    "NewMessage",
    "OldBoard",
    "OnMessage",
    "OnPad",
    "Presentable",
    "Private",
    "Reply",
    "Retired",
    "Target",
    "present",
]


@dataclass(frozen=True, slots=True)
class Retired:
    """An old board of ``game`` (message ``message_id``) after the board was posted again; ``link`` is the
    newest board's URL (``None``: not known)."""

    game: Match
    message_id: int
    link: str | None


Presentable = Refusal | Shown | Chosen | Posted | Challenged | Declined | Hinted | BotMoved | Thinking | Retired
"""What :func:`present` turns into a reply: every answer of the game service but ``NeedsHistory`` (which asks
for the channel's history and is settled before anything is shown: :func:`bot.ui.history.settle`)."""


@dataclass(frozen=True, slots=True)
class Private:
    """An ephemeral reply to the one who asked."""


PRIVATE = Private()


@dataclass(frozen=True, slots=True)
class OnMessage:
    """The message the interaction came from (a press, Accept); failing that, a background edit of ``game``'s
    board."""

    game: Match


@dataclass(frozen=True, slots=True)
class NewMessage:
    """A new public message showing ``game``; ``retired`` is the board message it replaces, if any."""

    game: Match
    retired: int | None = None


@dataclass(frozen=True, slots=True)
class OldBoard:
    """A background edit of ``game``'s old board message ``message_id``, skipped if it is the board again."""

    game: Match
    message_id: int


@dataclass(frozen=True, slots=True)
class Background:
    """A background edit of ``game``'s board message (``game.message_id``), with no interaction to answer: the
    bot's move on a slow variant, edited in when its search ends."""

    game: Match


@dataclass(frozen=True, slots=True)
class OnPad:
    """The private pad of an ultimate free choice, an ephemeral message only its player sees: a new one (``update``
    False: the choice was made on the board message), or the pad the press came from, updated. ``board``: a move
    made on the pad, to show on its game's board message (``board.message_id``) in the background too."""

    update: bool
    board: Match | None = None


Target = Private | OnMessage | OnPad | NewMessage | OldBoard | Background
"""Where a reply goes."""


@dataclass(frozen=True, slots=True)
class Reply:
    """What to send: ``content`` (Discord markdown, at most 2,000 characters), the components (``view``,
    ``None`` removes them), attachments (``files``) and where it goes (``target``)."""

    content: str
    target: Target
    view: discord.ui.View | None = None
    files: tuple[Attachment, ...] = ()

    @property
    def ephemeral(self) -> bool:
        """True when only the one who asked sees the reply (a private message or a private pad)."""
        return isinstance(self.target, Private | OnPad)


def _text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def _board_reply(game: Match, tr: Lang, target: Target) -> Reply:
    """A board message for ``game`` sent to ``target`` (:func:`bot.ui.views.board_message`; a Components V2 board
    has no content)."""
    text = message_text(game, tr=tr)
    view, files = board_message(game, text, tr)
    return Reply("" if is_layout(view) else text, target, view, files)


def present(answer: Presentable, tr: Lang, *, challenge_seconds: float) -> Reply:
    """The reply that shows ``answer`` in ``tr``'s language; ``challenge_seconds`` is how long a challenge stays
    open (said in its prompt and once it expired). Pure: nothing is sent.

    The ``match`` ends in :func:`typing.assert_never`, so mypy fails when an answer type has no arm.
    """
    match answer:
        case Refusal(key=key, values=values):
            return Reply(refusal_text(key, values, tr), PRIVATE)
        case Hinted(game=game, hint=hint):
            return Reply(hint_text(game, hint, tr), PRIVATE, hint_view(game, tr))
        case Thinking(game=game, thought=thought, played=played, cells=cells):
            if thought.png is None:  # no Graphviz where the bot runs: the search in words
                return Reply(thinking_words(thought, tr, game.kind.cell_label, played=played), PRIVATE)
            text = thinking_text(thought.summary, tr, game.kind.cell_label, played=played)
            moves = cells if played is None else (*cells, played)
            steps = step_through(game.game_id, moves, played is None, tr) if game.kind.steps_through(cells) else None
            return Reply(text, PRIVATE, steps, files=(discord.File(io.BytesIO(thought.png), filename=FILENAME),))
        case BotMoved(game=game):
            return _board_reply(game, tr, Background(game))
        case Chosen(game=game, board=board, on_pad=on_pad):
            return Reply(pad_text(game, board, tr), OnPad(update=on_pad), private_pad(game, board, tr))
        case Shown(game=game, pad=True):
            return Reply(pad_played_text(game, tr), OnPad(update=True, board=game))
        case Shown(game=game) if game.status == "over" and game.end_reason == "expired":
            return Reply(expired_text(challenge_seconds, tr), OnMessage(game))
        case Shown(game=game):
            return _board_reply(game, tr, OnMessage(game))
        case Posted(game=game, retired=retired):
            return _board_reply(game, tr, NewMessage(game, retired))
        case Challenged(game=game):
            return Reply(challenge_text(game, challenge_seconds, tr), NewMessage(game), challenge_view(game, tr))
        case Declined(game=game):
            return Reply(declined_text(game, tr), OnMessage(game))
        case Retired(game=game, message_id=message_id, link=link):
            if is_layout_board(game):
                return Reply("", OldBoard(game, message_id), LayoutComponents([_text(moved_text(link, tr))]))
            return Reply(moved_text(link, tr), OldBoard(game, message_id))
        case _:
            assert_never(answer)
