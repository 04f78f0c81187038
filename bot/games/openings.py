"""Starting games: a game against the bot, a challenge and its answer, a rematch. Who may answer a challenge or ask
for a rematch comes from the challenge or the ended game the bot holds, never from the button.
"""

from __future__ import annotations

import logging
import random
from dataclasses import replace
from functools import cache

from bot.games import proof, refusals
from bot.games.answers import Answer, Challenged, Declined, NeedsHistory, Posted, Refusal, Shown
from bot.games.game import Algorithm, BoardRef, Game, Mode, initial_for
from bot.games.intents import Actor, History, Player
from bot.games.resuming import Resuming
from bot.records import RecordsUnavailableError
from engine import Mark
from engine.estimate import minimax_states_estimate
from engine.variants import variant as variant_named

log = logging.getLogger("bot.games.service")  # the service's log, as before the split into modules

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


class Openings(Resuming):
    """The service's layer that opens games and challenges."""

    async def start(
        self,
        actor: Actor,
        *,
        game_id: str,
        opponent: int | None = None,
        opponent_is_bot: bool = False,
        play_as: Mark | None = Mark.X,
        level: int = 8,
        algorithm: Algorithm = "alpha-beta",
        mode: Mode = "buttons",
        variant: str = "3x3",
        history: History | None = None,
    ) -> Answer:
        """A new game of ``variant`` (a key of :data:`engine.variants.VARIANTS`) against the bot, or a challenge to
        ``opponent``; ``play_as=None`` picks a side at random; the bot plays at ``level`` (1-8).

        Returns :class:`Posted` (a game against the bot, with its opening move when the bot plays X on 3x3; on a
        slow variant the board says the bot is thinking and :class:`BotMoved` follows), :class:`Challenged`, or a
        :class:`Refusal` (the channel is busy, a self- or bot challenge, plain minimax on a variant where it cannot
        finish in a reply: ``MINIMAX_TOO_SLOW`` with the estimate, or the search pool is full: ``SEARCH_BUSY``), or
        :class:`NeedsHistory` when the channel's game is one a previous process stored (to link to its board).

        Raises:
            UnknownVariantError: no variant is called ``variant``.
        """
        if opponent == actor.user_id:
            return Refusal(refusals.SELF_CHALLENGE)
        if opponent is not None and opponent_is_bot:
            return Refusal(refusals.BOT_CHALLENGE)
        state = initial_for(variant)
        if algorithm == "minimax" and opponent is None and variant != "3x3":
            estimate = minimax_estimate(variant)
            if estimate > MINIMAX_REPLY_STATES:
                return Refusal(refusals.MINIMAX_TOO_SLOW, {"variant": variant, "states": estimate})
        mark = play_as or self.rng.choice((Mark.X, Mark.O))
        x_id, o_id = (actor.user_id, opponent) if mark is Mark.X else (opponent, actor.user_id)
        game = Game(
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
        return await self._open(game, history)

    async def rematch(
        self, actor: Actor, board: Game | BoardRef, *, game_id: str, history: History | None = None
    ) -> Answer:
        """A new game with the players and options of the game that ended on ``board``, sides swapped (the Rematch
        button). They come from the ended game this process saw or the records; when neither knows it, only the
        one person of a game against the bot may ask, which is no more than ``/ttt start`` (an ultimate board,
        which names its game only by id, needs the ended game: ``UNVERIFIED`` otherwise). Like :meth:`start`, it asks
        for the channel's history (:class:`NeedsHistory`) when the channel's game is one a previous process stored."""
        if isinstance(board, BoardRef):
            resolved = await self._ended_ref(board)
            if isinstance(resolved, Refusal):
                return resolved
            board = resolved
        if not board.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        ended = self._finished.get(board.game_id)
        if ended is None and self.store is not None:
            try:
                ended = (await self.store.stored(board.game_id, actor.channel_id)).finished
            except RecordsUnavailableError:
                log.warning("rematch of game %s: the records database is unavailable", board.game_id)
        if ended is None:
            bot = board.bot_mark
            if bot is None or board.mark_of(actor.user_id) is not bot.other:
                return Refusal(refusals.UNVERIFIED)
            ended = board
        elif ended.channel_id != actor.channel_id or not ended.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        elif not proof.same_setup(board, ended, mode=False) or board.moves != ended.moves:
            return Refusal(refusals.BOARD_MISMATCH)
        game = Game(
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
        return await self._open(game, history)

    async def answer(self, actor: Actor, game_id: str, *, accept: bool) -> Answer:
        """Accept (:class:`Shown`: the prompt becomes the board) or Decline (:class:`Declined`) challenge ``game_id``.

        Only the user the challenge held in memory names may answer; whatever the button's id says is ignored. A
        challenge is opened only where no game runs, in memory or stored (:meth:`_open`), so accepting it starts the
        channel's one game after a restart too."""
        async with self._locks.hold(actor.channel_id):
            game = self._games.get(actor.channel_id)
            if game is None or game.game_id != game_id or game.status != "challenge":
                return Refusal(refusals.CHALLENGE_CLOSED)
            if actor.user_id != game.challenged_id:
                return Refusal(refusals.NOT_CHALLENGED, {"user": Player(game.challenged_id)})
            if not accept:
                ended = game.end("declined")
                refusal = self._commit(ended)
                self._challenges.disarm(actor.channel_id)
                return refusal or Declined(ended)
            started = replace(game.accept(), locale=actor.locale)
            refusal = self._commit(started, rearm=True)
            if refusal is not None:
                return refusal
            self._challenges.disarm(actor.channel_id)
            log.info("challenge accepted: channel=%s game=%s", started.channel_id, started.game_id)
            return Shown(started)

    async def _open(self, game: Game, history: History | None) -> Answer:
        """Open ``game`` (a game or a challenge) unless its channel has one: in memory, or stored by a previous process
        (a dormant game, :mod:`bot.games.recovery`, resumed on its board from ``history`` to link to it)."""
        history = await self._resolve_history(history)  # an ultimate board's ref names the game it shows
        async with self._locks.hold(game.channel_id):
            running = self._games.get(game.channel_id)
            if running is None and game.channel_id in self._dormant:
                if history is None:
                    return NeedsHistory()
                busy = self._woken_refusal(game.channel_id, history)
                if busy is not None:
                    return busy
            if running is not None:
                return self._busy(running)
            if game.status == "challenge":
                self._games[game.channel_id] = game
                self.on_started(game)
                self._challenges.arm(game.channel_id, game.game_id)
                log.info("challenge: channel=%s game=%s", game.channel_id, game.game_id)
                return Challenged(game)
            ticket = None
            if game.ai_to_move:
                if game.variant == "3x3":
                    game = await self._ai_reply(game)
                else:
                    ticket = self.ai.pool.admit()
                    if ticket is None:
                        return Refusal(refusals.SEARCH_BUSY)
            refusal = self._commit(game, rearm=True, ticket=ticket)
            if refusal is not None:
                return refusal
            self.on_started(game)
            log.info(
                "game started: channel=%s game=%s level=%s algorithm=%s mode=%s",
                game.channel_id,
                game.game_id,
                game.level,
                game.algorithm,
                game.mode,
            )
            return Posted(game)
