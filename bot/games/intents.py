"""The values an intent carries to the game service: who sent it, a player named in a refusal, and the boards
read from a channel's history after a restart."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.match import BoardRef, Match

__all__ = ["Actor", "History", "Player"]


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent an intent, and where: a user id, the channel (and guild, ``None`` in DMs), their locale."""

    user_id: int
    channel_id: int
    guild_id: int | None = None
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class Player:
    """A refusal's value that names a player (``None`` is the bot); the caller renders it as a name."""

    user_id: int | None


@dataclass(frozen=True, slots=True)
class History:
    """The boards found among a channel's recent messages, newest first (``readable`` is False when the
    channel's history could not be read, e.g. a DM the bot is not in). A board whose message shows a
    Rematch button is passed as a game that is over. An ultimate board is passed as the
    :class:`~bot.games.match.BoardRef` its buttons carry (``over`` when it shows Rematch); the service
    resolves it against the game it holds or stored before reading the history."""

    boards: tuple[Match | BoardRef, ...] = ()
    readable: bool = True

    def newest(self, game_id: str | None = None) -> Match | None:
        """The newest board of ``game_id`` (of any game when ``None``) among the resolved boards (refs are skipped:
        the service resolves them first)."""
        return next(
            (b for b in self.boards if isinstance(b, Match) and (game_id is None or b.game_id == game_id)), None
        )
