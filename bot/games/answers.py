"""What the game service answers an intent with: a refusal, or the new game and how to show it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.games.match import Match
from bot.games.thinking import Thought
from engine import Hint

__all__ = [
    "Answer",
    "BotMoved",
    "Challenged",
    "Chosen",
    "Declined",
    "Hinted",
    "NeedsHistory",
    "Posted",
    "Refusal",
    "Shown",
    "Thinking",
]


@dataclass(frozen=True, slots=True)
class Refusal:
    """The intent was refused and nothing changed: ``key`` is a message id (see :mod:`bot.games.refusals`)
    whose placeholders ``values`` fill in. Shown privately to the one who asked."""

    key: str
    values: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Shown:
    """``game`` was committed; show it on the message the interaction came from (a press, Accept). ``pad``: the
    move was made on a private pad (an ephemeral message): confirm it there, and show ``game`` on its board message
    (``game.message_id``) in the background."""

    game: Match
    pad: bool = False


@dataclass(frozen=True, slots=True)
class Chosen:
    """An ultimate free choice by the player to move, never a move (nothing was committed): show them privately the
    pad of small board ``board`` (0-8) of ``game``, or the open small boards (``None``). ``on_pad``: the choice was
    made on the private pad itself (update it), not on the board message (send a new private pad)."""

    game: Match
    board: int | None
    on_pad: bool


@dataclass(frozen=True, slots=True)
class Posted:
    """``game`` was committed; show it as a new board message, then report its id with
    :meth:`GameService.placed`. ``retired`` is the board message it replaces (to mark as moved), if any."""

    game: Match
    retired: int | None = None


@dataclass(frozen=True, slots=True)
class Challenged:
    """A challenge was committed: post the prompt with Accept and Decline, then report its id."""

    game: Match


@dataclass(frozen=True, slots=True)
class Declined:
    """The challenged user declined: show it on the prompt."""

    game: Match


@dataclass(frozen=True, slots=True)
class Hinted:
    """A private hint for the player to move in ``game`` (:class:`engine.hints.Hint`): on 3x3, 4x4 and 5x5 every
    free cell's exact value (3x3 with alpha-beta's and plain minimax's counts); on ultimate the search's best moves,
    an estimate."""

    game: Match
    hint: Hint


@dataclass(frozen=True, slots=True)
class BotMoved:
    """The bot's move on a slow variant, committed after its search ended (never in answer to an interaction).

    The player's move was answered at once with the board saying the bot is thinking (``Match.thinking``); this
    arrives later through ``GameService(on_bot_move=...)``. Show ``game`` as a background edit of its board
    message ``game.message_id`` (``None``: a new board is on its way; the newest state is shown when it is
    placed). ``game`` may be over (the bot's move ended it).
    """

    game: Match


@dataclass(frozen=True, slots=True)
class NeedsHistory:
    """The channel has no game in memory (the bot restarted): read the channel's latest board and ask again
    with it. Nothing was committed."""


@dataclass(frozen=True, slots=True)
class Thinking:
    """How the search thought, shown privately: behind the bot's move ``played`` in ``game`` (``None``: behind a hint,
    the search in the position for the player to move) after ``cells``, recomputed and drawn
    (:class:`~bot.games.thinking.Thought`)."""

    game: Match
    thought: Thought
    played: int | None
    cells: tuple[int, ...] = ()


Answer = Refusal | Shown | Chosen | Posted | Challenged | Declined | Hinted | BotMoved | Thinking | NeedsHistory
