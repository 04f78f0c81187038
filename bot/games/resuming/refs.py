"""What a :class:`~bot.games.match.BoardRef` (a board that names its game by id and version) shows: the game
the bot holds or stored, at the ref's version."""

from __future__ import annotations

from dataclasses import replace

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.match import BoardRef, Match, initial_for
from engine import VARIANTS

__all__ = ["ref_view", "truncated", "unresolved"]


def truncated(game: Match, version: int) -> Match:
    """``game`` as it stood after its first ``version`` moves (a board shown before the last moves)."""
    moves = game.moves[:version]
    return replace(
        game,
        moves=moves,
        state=VARIANTS[game.variant].replay(moves),
        status="playing",
        end_reason=None,
        resigned=None,
        last_ai=None,
    )


def ref_view(ref: BoardRef, game: Match) -> Match | Refusal:
    """The board ``ref`` shows, from the game the bot holds or stored: ``game`` itself, or its position at the
    ref's version, on the ref's message. A version beyond the game's moves was never shown: ``BOARD_MISMATCH``."""
    if ref.variant != game.variant or ref.version > game.ply:
        return Refusal(refusals.BOARD_MISMATCH)
    view = game if ref.version == game.ply else truncated(game, ref.version)
    view = view.at(ref.message_id)
    return view.end("abandoned") if ref.over and not view.over else view


def unresolved(ref: BoardRef) -> Match:
    """A board of a game the bot neither holds nor stored, as an ended game with no players: it shows where a board
    was, and resumes nothing."""
    return Match(
        game_id=ref.game_id,
        channel_id=ref.channel_id,
        x_id=None,
        o_id=None,
        guild_id=ref.guild_id,
        message_id=ref.message_id,
        status="over",
        end_reason="abandoned",
        variant=ref.variant,
        state=initial_for(ref.variant),
    )
