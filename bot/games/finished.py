"""A finished :class:`~bot.games.match.Match` as the records store keeps it."""

from __future__ import annotations

import datetime
from typing import Any

from bot.games.match import Match
from bot.records import FinishedGame

__all__ = ["finished_game", "setup_fields"]


def setup_fields(game: Match) -> dict[str, Any]:
    """The :class:`~bot.records.GameSetup` fields of ``game``: its id, place, players and, against the bot, the
    bot's side and options (``None`` in a game between people)."""
    bot = game.bot_mark
    return {
        "game_id": game.game_id,
        "channel_id": game.channel_id,
        "guild_id": game.guild_id,
        "x_user_id": game.x_id,
        "o_user_id": game.o_id,
        "bot_side": None if bot is None else bot.value,
        "level": None if bot is None else game.level,
        "algorithm": None if bot is None else game.algorithm,
    }


def finished_game(game: Match, ended_at: datetime.datetime | None = None) -> FinishedGame:
    """The record of ``game``, which must be over; ``ended_at`` defaults to now (UTC).

    Raises:
        ValueError: the game is still running.
    """
    if not game.over or game.end_reason is None:
        raise ValueError(f"game {game.game_id} is not over")
    won = game.winner
    ended = ended_at or datetime.datetime.now(datetime.UTC)
    return FinishedGame(
        **setup_fields(game),
        moves=game.moves,
        result=won.value if won is not None else ("draw" if game.end_reason == "draw" else None),
        end_reason=game.end_reason,
        states_evaluated=game.ai_states,
        started_at=min(game.started_at, ended),
        ended_at=ended,
        variant=game.variant,
    )
