"""New games: a game against the bot or a challenge (:meth:`Openings.new_game`), a rematch
(:meth:`Openings.rematch_game`). Who may ask for a rematch comes from the ended game the bot holds, never from the
button. The service opens them (:meth:`bot.games.service.GameService.start`).
"""

from __future__ import annotations

import logging
import random
from functools import cache

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.intents import Actor
from bot.games.live import same_setup
from bot.games.match import Algorithm, Match, Mode, initial_for
from bot.games.sessions import Sessions
from bot.games.store import GameStore
from bot.records import RecordsUnavailableError
from engine import Mark, minimax_states_estimate
from engine import variant as variant_named

log = logging.getLogger(__name__)

__all__ = ["MINIMAX_REPLY_STATES", "Openings", "minimax_estimate"]

MINIMAX_REPLY_STATES = 2_000_000
"""Plain minimax is offered where its search from the empty board evaluates at most this many states (3x3: 549,945,
about 0.2 s in a worker), so that it finishes within a reply."""


@cache
def minimax_estimate(variant: str) -> int:
    """Knuth's estimate of the states plain minimax evaluates from ``variant``'s empty board (1,000 random paths,
    seeded: the same figure every time; :func:`engine.estimate.minimax_states_estimate`)."""
    rules = variant_named(variant).game
    return minimax_states_estimate(rules, rules.initial_state(), paths=1000, rng=random.Random(0))


class Openings:
    """The service's part that makes new games from what a player asks and, for a rematch, from the ended game in
    ``sessions`` (or in ``store``, the records); ``rng`` picks a side when the player leaves it open."""

    def __init__(self, sessions: Sessions, store: GameStore | None, rng: random.Random) -> None:
        self.sessions = sessions
        self.store = store
        self.rng = rng

    def new_game(
        self,
        actor: Actor,
        *,
        game_id: str,
        opponent: int | None,
        opponent_is_bot: bool,
        play_as: Mark | None,
        level: int,
        algorithm: Algorithm,
        mode: Mode,
        variant: str,
    ) -> Match | Refusal:
        """The new game (or challenge) :meth:`bot.games.service.GameService.start` asks for, not opened yet, or why
        it cannot be: a self- or bot challenge, plain minimax where it cannot finish in a reply (``MINIMAX_TOO_SLOW``).

        Raises:
            UnknownVariantError: no variant is called ``variant``.
        """
        if opponent == actor.user_id:
            return Refusal(refusals.SELF_CHALLENGE)
        if opponent is not None and opponent_is_bot:
            return Refusal(refusals.BOT_CHALLENGE)
        state = initial_for(variant)
        if algorithm not in variant_named(variant).algorithms and opponent is None:
            estimate = minimax_estimate(variant)
            if estimate > MINIMAX_REPLY_STATES:
                return Refusal(refusals.MINIMAX_TOO_SLOW, {"variant": variant, "states": estimate})
        mark = play_as or self.rng.choice((Mark.X, Mark.O))
        x_id, o_id = (actor.user_id, opponent) if mark is Mark.X else (opponent, actor.user_id)
        return Match(
            game_id=game_id,
            channel_id=actor.channel_id,
            x_id=x_id,
            o_id=o_id,
            level=level,
            algorithm=algorithm,
            mode=mode,
            guild_id=actor.guild_id,
            status="playing" if opponent is None else "challenge",
            challenged_id=opponent,
            locale=actor.locale,
            variant=variant,
            state=state,
        )

    async def rematch_game(self, actor: Actor, board: Match, *, game_id: str) -> Match | Refusal:
        """The rematch of the game that ended on ``board`` (:meth:`bot.games.service.GameService.rematch`), not opened
        yet, or why there is none: its players and options come from the ended game this process saw or the
        records; when neither knows it, only the one person of a game against the bot may ask, which is no more than
        ``/ttt start``. A game held or stored in another channel than the actor's is that channel's: ``ELSEWHERE``."""
        if board.channel_id != actor.channel_id or self.sessions.elsewhere(board.game_id, actor.channel_id):
            return Refusal(refusals.ELSEWHERE)
        if not board.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        store = self.store
        ended = self.sessions.ended(board.game_id)
        if ended is None and store is not None:
            try:
                stored = await store.stored(board.game_id, actor.channel_id)
            except RecordsUnavailableError:
                log.warning("rematch of game %s: the records database is unavailable", board.game_id)
            else:
                if stored.elsewhere:
                    return Refusal(refusals.ELSEWHERE)
                ended = stored.finished
        if ended is None:
            bot = board.bot_mark
            if bot is None or board.mark_of(actor.user_id) is not bot.other:
                return Refusal(refusals.UNVERIFIED)
            ended = board
        elif ended.channel_id != actor.channel_id or not ended.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        elif not same_setup(board, ended, mode=False) or board.moves != ended.moves:
            return Refusal(refusals.BOARD_MISMATCH)
        return Match(
            game_id=game_id,
            channel_id=actor.channel_id,
            x_id=ended.o_id,
            o_id=ended.x_id,
            level=ended.level,
            algorithm=ended.algorithm,
            mode=board.mode,
            guild_id=actor.guild_id,
            locale=actor.locale,
            variant=ended.variant,
            state=initial_for(ended.variant),
        )
