"""The channels' sessions: the game (or challenge) of each channel in memory, committing and finishing them,
their deadlines, the games a previous process stored (dormant until seen), and where their boards are
(:meth:`Sessions.placed`).

Every decision is made and committed in memory under the channel's lock (:meth:`Sessions.hold`), which never covers
network I/O. One part of the :class:`~bot.games.service.GameService`, which the others share through its methods
only: its maps are its own.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import replace

from bot.games import codec, live, refusals
from bot.games.answers import BotMoved, Refusal
from bot.games.hooks import Hooks
from bot.games.locks import ChannelLocks
from bot.games.match import EndReason, Match, Status
from bot.games.store import GameStore
from bot.games.timers import Deadlines

log = logging.getLogger(__name__)

__all__ = ["Sessions"]


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
        self._store = store
        self._games: dict[int, Match] = {}
        self._locks = ChannelLocks()
        self._turns = Deadlines(turn_timeout, self._abandon)
        self._challenges = Deadlines(challenge_timeout, self._expire_challenge)
        self._finished: OrderedDict[str, Match] = OrderedDict()
        self._remember = remember_finished
        self._undelivered: dict[int, BotMoved] = {}
        """Channel -> the bot's move committed while its board was being posted: delivered once it is placed."""
        self._dormant: dict[int, Match] = {}
        """Channel -> a running game a previous process stored (:mod:`bot.games.resuming.recovery`)."""
        self._unseen: dict[str, Match] = {}
        """Game id -> a game that ended while nobody saw its board."""

    def __len__(self) -> int:
        return len(self._games)

    @property
    def locks_held(self) -> int:
        """Channels with work in flight (the lock map's size)."""
        return len(self._locks)

    @property
    def turn_timeout(self) -> float:
        """Seconds a player has to move before the game ends as abandoned (0: no deadline)."""
        return self._turns.seconds

    @property
    def deadlines(self) -> int:
        """Deadlines pending: turns and challenges."""
        return len(self._turns) + len(self._challenges)

    @property
    def expiring(self) -> int:
        """Deadlines that passed and whose expiry is still running (waiting for a channel's lock, say)."""
        return self._turns.expiring + self._challenges.expiring

    async def settled(self) -> None:
        """Wait until every deadline that passed has run its expiry (tests, shutdown)."""
        await self._turns.settled()
        await self._challenges.settled()

    def hold(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """The channel's lock, for an ``async with``: every decision about its game is made under it."""
        return self._locks.hold(channel_id)

    @asynccontextmanager
    async def acting_on(self, channel_id: int, board: Match | None = None) -> AsyncIterator[Match | Refusal]:
        """Hold the channel's lock over the game an intent acts on: the channel's game (``board`` None), or the one
        the pressed ``board`` shows (:func:`bot.games.live.board_game`); yields it, or why the intent cannot act on
        it. Only games held in memory: resuming one after a restart comes first (:mod:`bot.games.resuming`)."""
        async with self._locks.hold(channel_id):
            held = self._games.get(channel_id)
            if board is None:
                yield held if held is not None else Refusal(refusals.NO_GAME)
                return
            found = live.board_game(held, board, self.is_finished(board.game_id))
            if isinstance(found, Match) and found is not held:  # a press beat its repost's answer: adopt the message
                self._games[channel_id] = found
            yield found

    def current(self, channel_id: int) -> Match | None:
        """The game (or challenge) running in ``channel_id``, if any."""
        return self._games.get(channel_id)

    def elsewhere(self, game_id: str, channel_id: int) -> bool:
        """True when ``game_id`` is held (running, dormant) or ended in another channel than ``channel_id``, whose game
        a press in ``channel_id`` may not touch. Scans every channel: only for a board its channel does not hold."""
        known = (self._finished.get(game_id), *self._games.values(), *self._dormant.values())
        return any(game is not None and game.game_id == game_id and game.channel_id != channel_id for game in known)

    def is_finished(self, game_id: str) -> bool:
        """True when this process saw ``game_id`` end (it remembers the last few thousand)."""
        return game_id in self._finished

    def ended(self, game_id: str) -> Match | None:
        """The game ``game_id`` as it ended, when this process saw it end (it remembers the last few thousand)."""
        return self._finished.get(game_id)

    def close(self) -> None:
        """Cancel every deadline (at shutdown)."""
        self._turns.close()
        self._challenges.close()

    def placed(self, channel_id: int, game_id: str, message_id: int, post: int) -> tuple[int, ...]:
        """The ``post``-th board (or the prompt) of ``game_id`` is message ``message_id``; returns the game's
        old boards to retire now, with a link to the current one.

        Players may see a board before the answer that posted it comes back, so a newer board may already
        exist: then this message is superseded, and is retired as soon as the newest board's id is known.
        A game that is no longer running leaves its messages as they are.
        """
        game = self._games.get(channel_id)
        waiting = self._undelivered.get(channel_id)
        if waiting is not None and (waiting.game.game_id, waiting.game.post) == (game_id, post):
            del self._undelivered[channel_id]
            if game is None or game.game_id != game_id:  # the bot's move ended the game
                if self.hooks.on_bot_move is not None:
                    self.hooks.on_bot_move(BotMoved(waiting.game.at(message_id)))
                return ()
        if game is None or game.game_id != game_id:
            return ()
        if game.post != post or game.message_id not in (None, message_id):
            if game.message_id is not None:
                return (message_id,)
            self._games[channel_id] = replace(game, superseded=(*game.superseded, message_id))
            return ()
        self._games[channel_id] = replace(game.at(message_id), superseded=())
        if waiting is not None and self.hooks.on_bot_move is not None and waiting.game.game_id == game_id:
            self.hooks.on_bot_move(BotMoved(self._games[channel_id]))
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
        game = self._games.get(channel_id)
        if game is None or game.game_id != posted.game_id or game.message_id is not None or game.post != posted.post:
            return None
        if retired is None:
            if game.post > 1:
                return None
            del self._games[channel_id]
            self._turns.disarm(channel_id)
            self._challenges.disarm(channel_id)
            if self._store is not None and game.status == "playing":
                self._store.drop(game)
            log.info("dropped game %s: its first message never reached channel %s", game.game_id, channel_id)
            return None
        self._games[channel_id] = game.at(retired)
        return self._games[channel_id]

    def is_board(self, channel_id: int, message_id: int) -> bool:
        """True when ``message_id`` is the board message of the game running in ``channel_id``."""
        game = self._games.get(channel_id)
        return game is not None and game.message_id == message_id

    def commit(self, game: Match, *, rearm: bool = False) -> Refusal | None:
        """Store ``game`` as its channel's game, or finish it when it is over; ``rearm`` restarts the turn's deadline
        (a challenge's deadline starts when it is committed, and ends when it is accepted or ends).

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
        self._games[game.channel_id] = game
        if game.status == "challenge":
            self._challenges.arm(game.channel_id, game.game_id)
            return None
        self._challenges.disarm(game.channel_id)  # an accepted challenge: its deadline is the turn's now
        if rearm:
            self._turns.arm(game.channel_id, game.game_id)
        if self._store is not None:
            self._store.save(game)
        return None

    def deliver_later(self, moved: BotMoved) -> None:
        """The bot's move ``moved`` was committed while its board was being posted: deliver it (``on_bot_move``) once
        that board is placed (:meth:`placed`)."""
        self._undelivered[moved.game.channel_id] = moved

    def finish(self, game: Match) -> None:
        """``game`` ended: it leaves its channel and its deadlines, is remembered, dropped from the store's running
        games, and recorded (``on_finished``) once."""
        running = self._games.get(game.channel_id)
        if running is not None and running.game_id == game.game_id:
            del self._games[game.channel_id]
            self._turns.disarm(game.channel_id)
            self._challenges.disarm(game.channel_id)
        if game.game_id in self._finished:
            return
        self.remember_finished(game)
        if self._store is not None and game.end_reason not in ("declined", "expired"):
            self._store.drop(game)
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
        self._finished[game.game_id] = game
        while len(self._finished) > self._remember:
            self._finished.popitem(last=False)

    async def _abandon(self, channel_id: int, game_id: str) -> None:
        """A turn's deadline passed: the game ends as abandoned; a dormant game too, and its board is edited to show
        the end when next seen."""
        dormant = self._dormant.get(channel_id)
        if dormant is None or dormant.game_id != game_id:
            await self._expire(channel_id, game_id, "playing", "abandoned")
            return
        async with self._locks.hold(channel_id):
            if self._dormant.get(channel_id) is not dormant or channel_id in self._turns:
                return  # resumed (and re-armed) while this expiry waited for the lock
            del self._dormant[channel_id]
            self.end_dormant(dormant)
        log.info("dormant game %s abandoned: channel=%s", game_id, channel_id)

    def end_dormant(self, game: Match) -> None:
        """End dormant ``game`` as abandoned (recorded once, as the turn's time-out does); its board is edited to show
        the end when next seen."""
        ended = game.end("abandoned")
        self.finish(ended)
        self._unseen[game.game_id] = ended

    def ended_unseen(self, ended: Match) -> None:
        """``ended`` is recorded as finished but nobody saw its end (before a restart): remember it, to show its end
        on its board (:meth:`take_unseen`)."""
        self.remember_finished(ended)
        self._unseen[ended.game_id] = ended

    def take_unseen(self, game_id: str) -> Match | None:
        """The end of ``game_id`` that nobody saw yet, if any, to be shown now (it is shown once)."""
        return self._unseen.pop(game_id, None)

    def dormant(self, channel_id: int) -> Match | None:
        """The running game a previous process stored in ``channel_id``, not resumed yet (:mod:`bot.games.resuming`)."""
        return self._dormant.get(channel_id)

    @property
    def dormant_games(self) -> int:
        """How many stored games are dormant."""
        return len(self._dormant)

    def hold_dormant(self, game: Match, left: float) -> None:
        """Hold ``game``, stored by a previous process, dormant in its channel, its turn ending in ``left`` seconds
        (the newest game of a channel wins)."""
        self._dormant[game.channel_id] = game
        self._turns.arm(game.channel_id, game.game_id, left=left)

    def forget_dormant(self, channel_id: int) -> None:
        """The channel's dormant game holds it no longer (its board shows it over)."""
        self._dormant.pop(channel_id, None)

    def resume(self, game: Match, *, store: bool = True) -> None:
        """Make ``game`` its channel's game again. The dormant game keeps its deadline and its stored row; any other
        gets a fresh deadline and is stored (so that a later restart knows it) unless a read resumed it (``store``)."""
        channel_id = game.channel_id
        dormant = self._dormant.pop(channel_id, None)
        self._games[channel_id] = game
        woken = dormant is not None and dormant.game_id == game.game_id
        if not woken or channel_id not in self._turns:
            self._turns.arm(channel_id, game.game_id)
        if self._store is not None and store and not woken:
            self._store.save(game)

    async def _expire_challenge(self, channel_id: int, game_id: str) -> None:
        await self._expire(channel_id, game_id, "challenge", "expired")

    async def _expire(self, channel_id: int, game_id: str, status: Status, reason: EndReason) -> None:
        """A deadline passed: end ``game_id`` for ``reason`` if it is still running with ``status`` and its
        deadline was not armed again while this expiry waited for the lock (a move made in time)."""
        deadlines = self._turns if status == "playing" else self._challenges
        async with self._locks.hold(channel_id):
            game = self._games.get(channel_id)
            if game is None or game.game_id != game_id or game.status != status or channel_id in deadlines:
                return
            ended = game.end(reason)
            self.finish(ended)
        if self.hooks.on_expired is not None:
            self.hooks.on_expired(ended)
