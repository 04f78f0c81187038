"""In-memory win/draw/loss records, vs the bot and vs people (lost on restart)."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.game import Game
from engine import Mark

__all__ = ["PlayerStats", "Record", "Stats"]


@dataclass(slots=True)
class Record:
    """Wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        """Games counted."""
        return self.wins + self.draws + self.losses


@dataclass(slots=True)
class PlayerStats:
    """One user's records against the bot and against people."""

    vs_bot: Record = field(default_factory=Record)
    vs_people: Record = field(default_factory=Record)


class Stats:
    """Records of finished games; games that were abandoned, declined or expired are not counted."""

    def __init__(self) -> None:
        self._players: dict[int, PlayerStats] = {}

    def get(self, user_id: int) -> PlayerStats:
        """The user's records (zero when they have not finished a game)."""
        return self._players.get(user_id) or PlayerStats()

    def record(self, game: Game) -> bool:
        """Count a finished game for each person in it; returns whether it counted."""
        if game.end_reason not in ("win", "draw", "resigned"):
            return False
        won = game.winner
        for mark in (Mark.X, Mark.O):
            user_id = game.player_id(mark)
            if user_id is None:
                continue
            stats = self._players.setdefault(user_id, PlayerStats())
            record = stats.vs_bot if game.vs_bot else stats.vs_people
            if won is None:
                record.draws += 1
            elif won is mark:
                record.wins += 1
            else:
                record.losses += 1
        return True
