"""The channels' sessions: the game (or challenge) of each channel in memory, committing and finishing them,
their deadlines, the games a previous process stored (dormant until seen), and where their boards are
(:meth:`Sessions.placed`).

Every decision is made and committed in memory under the channel's lock (:class:`~bot.games.locks.ChannelLocks`),
which never covers network I/O. One part of the :class:`~bot.games.service.GameService`, which the others share.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from bot.games import codec, refusals
from bot.games.answers import BotMoved, Refusal
from bot.games.locks import ChannelLocks
from bot.games.match import EndReason, Match, Status
from bot.games.store import GameStore
from bot.games.timers import Deadlines

log = logging.getLogger(__name__)

__all__ = ["Hooks", "Sessions", "Stage"]

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


class Sessions:
    """The running games, one per channel, the games that ended lately, the dormant games, and the deadlines: a
    turn ends the game as abandoned after ``turn_timeout`` seconds, a challenge expires after
    ``challenge_timeout``. The last ``remember_finished`` games that ended are remembered; ``store`` keeps the
    running ones. No ``discord`` here.
    """

    def __init__(
        self,
        hooks: Hooks,
        *,
        turn_timeout: float = 600.0,
        challenge_timeout: float = 60.0,
        remember_finished: int = 4096,
        store: GameStore | None = None,
    ) -> None:
        self.hooks = hooks
        self.store = store
        self.games: dict[int, Match] = {}
        self.locks = ChannelLocks()
        self.turns = Deadlines(turn_timeout, self._abandon)
        self.challenges = Deadlines(challenge_timeout, self._expire_challenge)
        self.finished: OrderedDict[str, Match] = OrderedDict()
        self._remember = remember_finished
        self.undelivered: dict[int, BotMoved] = {}
        """Channel -> the bot's move committed while its board was being posted: delivered once it is placed."""
        self.dormant: dict[int, Match] = {}
        """Channel -> a running game a previous process stored (:mod:`bot.games.resuming.recovery`)."""
        self.unseen: dict[str, Match] = {}
        """Game id -> a game that ended while nobody saw its board."""

    def __len__(self) -> int:
        return len(self.games)

    @property
    def locks_held(self) -> int:
        """Channels with work in flight (the lock map's size)."""
        return len(self.locks)

    def current(self, channel_id: int) -> Match | None:
        """The game (or challenge) running in ``channel_id``, if any."""
        return self.games.get(channel_id)

    def is_finished(self, game_id: str) -> bool:
        """True when this process saw ``game_id`` end (it remembers the last few thousand)."""
        return game_id in self.finished

    def close(self) -> None:
        """Cancel every deadline (at shutdown)."""
        self.turns.close()
        self.challenges.close()

    def placed(self, channel_id: int, game_id: str, message_id: int, post: int) -> tuple[int, ...]:
        """The ``post``-th board (or the prompt) of ``game_id`` is message ``message_id``; returns the game's
        old boards to retire now, with a link to the current one.

        Players may see a board before the answer that posted it comes back, so a newer board may already
        exist: then this message is superseded, and is retired as soon as the newest board's id is known.
        A game that is no longer running leaves its messages as they are.
        """
        game = self.games.get(channel_id)
        waiting = self.undelivered.get(channel_id)
        if waiting is not None and (waiting.game.game_id, waiting.game.post) == (game_id, post):
            del self.undelivered[channel_id]
            if game is None or game.game_id != game_id:  # the bot's move ended the game
                if self.hooks.on_bot_move is not None:
                    self.hooks.on_bot_move(BotMoved(waiting.game.at(message_id)))
                return ()
        if game is None or game.game_id != game_id:
            return ()
        if game.post != post or game.message_id not in (None, message_id):
            if game.message_id is not None:
                return (message_id,)
            self.games[channel_id] = replace(game, superseded=(*game.superseded, message_id))
            return ()
        self.games[channel_id] = replace(game.at(message_id), superseded=())
        if waiting is not None and self.hooks.on_bot_move is not None and waiting.game.game_id == game_id:
            self.hooks.on_bot_move(BotMoved(self.games[channel_id]))
        return game.superseded

    def unposted(self, posted: Match, retired: int | None) -> Match | None:
        """The board (or prompt) ``posted`` of a :class:`Posted` or :class:`Challenged` outcome certainly did not
        reach Discord; ``retired`` is the outcome's.

        Returns what to show on the ``retired`` board instead, or ``None`` when there is nothing to show there.
        A game that ended with this post (a resignation, a winning move) is returned at ``retired``, to show
        its end there. A running game keeps ``retired`` as its board and is returned, to show its committed
        position. A new game or challenge that nobody saw is dropped; when there is no board to fall back on
        but an earlier board may still arrive, the game waits for it.
        """
        if posted.over:
            return posted.at(retired) if retired is not None else None
        channel_id = posted.channel_id
        game = self.games.get(channel_id)
        if game is None or game.game_id != posted.game_id or game.message_id is not None or game.post != posted.post:
            return None
        if retired is None:
            if game.post > 1:
                return None
            del self.games[channel_id]
            self.turns.disarm(channel_id)
            self.challenges.disarm(channel_id)
            if self.store is not None and game.status == "playing":
                self.store.drop(game)
            log.info("dropped game %s: its first message never reached channel %s", game.game_id, channel_id)
            return None
        self.games[channel_id] = game.at(retired)
        return self.games[channel_id]

    def is_board(self, channel_id: int, message_id: int) -> bool:
        """True when ``message_id`` is the board message of the game running in ``channel_id``."""
        game = self.games.get(channel_id)
        return game is not None and game.message_id == message_id

    def commit(self, game: Match, *, rearm: bool = False) -> Refusal | None:
        """Store ``game`` as its channel's game, or finish it when it is over; ``rearm`` restarts the deadline.

        A game its board cannot show (a field the ``custom_id`` format cannot hold) is not committed: the channel
        keeps the game it had, and the refusal says so truthfully."""
        try:
            codec.encoder(game)
        except codec.CodecError:
            log.exception("game %s not committed: its board cannot be encoded", game.game_id)
            return Refusal(refusals.NOT_SAVED)
        if game.over:
            self.finish(game)
            return None
        self.games[game.channel_id] = game
        if rearm:
            self.turns.arm(game.channel_id, game.game_id)
        if self.store is not None and game.status == "playing":
            self.store.save(game)
        return None

    def finish(self, game: Match) -> None:
        """``game`` ended: it leaves its channel and its deadlines, is remembered, dropped from the store's running
        games, and recorded (``on_finished``) once."""
        running = self.games.get(game.channel_id)
        if running is not None and running.game_id == game.game_id:
            del self.games[game.channel_id]
            self.turns.disarm(game.channel_id)
            self.challenges.disarm(game.channel_id)
        if game.game_id in self.finished:
            return
        self.remember_finished(game)
        if self.store is not None and game.end_reason not in ("declined", "expired"):
            self.store.drop(game)
        log.info(
            "game over: channel=%s game=%s reason=%s winner=%s ai_states=%d",
            game.channel_id,
            game.game_id,
            game.end_reason,
            game.winner.value if game.winner else None,
            game.ai_states,
        )
        if self.hooks.on_finished is not None and game.verified:
            self.hooks.on_finished(game)

    def remember_finished(self, game: Match) -> None:
        """Remember that ``game`` ended (the last few thousand games are kept)."""
        self.finished[game.game_id] = game
        while len(self.finished) > self._remember:
            self.finished.popitem(last=False)

    async def _abandon(self, channel_id: int, game_id: str) -> None:
        """A turn's deadline passed: the game ends as abandoned; a dormant game too, and its board is edited to show
        the end when next seen."""
        dormant = self.dormant.get(channel_id)
        if dormant is None or dormant.game_id != game_id:
            await self._expire(channel_id, game_id, "playing", "abandoned")
            return
        async with self.locks.hold(channel_id):
            if self.dormant.get(channel_id) is not dormant or channel_id in self.turns:
                return  # resumed (and re-armed) while this expiry waited for the lock
            del self.dormant[channel_id]
            self.end_dormant(dormant)
        log.info("dormant game %s abandoned: channel=%s", game_id, channel_id)

    def end_dormant(self, game: Match) -> None:
        """End dormant ``game`` as abandoned (recorded once, as the turn's time-out does); its board is edited to show
        the end when next seen."""
        ended = game.end("abandoned")
        self.finish(ended)
        self.unseen[game.game_id] = ended

    async def _expire_challenge(self, channel_id: int, game_id: str) -> None:
        await self._expire(channel_id, game_id, "challenge", "expired")

    async def _expire(self, channel_id: int, game_id: str, status: Status, reason: EndReason) -> None:
        """A deadline passed: end ``game_id`` for ``reason`` if it is still running with ``status`` and its
        deadline was not armed again while this expiry waited for the lock (a move made in time)."""
        deadlines = self.turns if status == "playing" else self.challenges
        async with self.locks.hold(channel_id):
            game = self.games.get(channel_id)
            if game is None or game.game_id != game_id or game.status != status or channel_id in deadlines:
                return
            ended = game.end(reason)
            self.finish(ended)
        if self.hooks.on_expired is not None:
            self.hooks.on_expired(ended)
