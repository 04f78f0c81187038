"""What the game service tells its caller, outside every lock: the hooks of :class:`~bot.games.sessions.Sessions`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from bot.games.answers import BotMoved
from bot.games.match import Match

__all__ = ["Hooks", "Stage"]

Stage = Literal["search", "retry", "fallback"]
"""Which attempt at a bot's move failed: the search in the pool, its retry, or the fallback in this process."""


@dataclass(slots=True)
class Hooks:
    """What the service tells its caller, outside every lock.

    ``on_finished(game)`` once per game when it ends, for any reason (the records store), except for a game resumed
    from a board nothing vouched for (``verified`` False), which is never recorded; ``on_expired(game)`` when a
    deadline ends a game or a challenge, or the bot gives up a move, so the caller can update its message;
    ``on_bot_move(answer)`` delivers the bot's move searched after the player's move was answered (show it as an
    edit of its board; called once the board's message id is known); ``on_started(game)`` when a game or a
    challenge is opened, and ``on_search_failed(game, stage)`` for each failed attempt at a bot's move (the
    metrics).
    """

    on_finished: Callable[[Match], None] | None = None
    on_expired: Callable[[Match], None] | None = None
    on_bot_move: Callable[[BotMoved], None] | None = None
    on_started: Callable[[Match], None] | None = None
    on_search_failed: Callable[[Match, Stage], None] | None = None
