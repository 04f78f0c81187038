"""The game service's core: the channels' games in memory, committing and finishing them, their deadlines, and
where their boards are (:meth:`ServiceCore.placed`).

Every decision is made and committed in memory under the channel's lock (:class:`~bot.games.locks.ChannelLocks`),
which never covers network I/O. The layers above add the bot's moves (:mod:`bot.games.bot_moves`), resuming after
a restart (:mod:`bot.games.resuming`), starting games and challenges (:mod:`bot.games.openings`) and the moves of
play (:mod:`bot.games.service`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import replace

from bot.games import codec, refusals
from bot.games.ai import AI
from bot.games.answers import BotMoved, Refusal
from bot.games.game import EndReason, Game, Status
from bot.games.locks import ChannelLocks
from bot.games.store import GameStore
from bot.games.timers import Deadlines

log = logging.getLogger("bot.games.service")  # the service's log, as before the split into modules

__all__ = ["ServiceCore"]


class ServiceCore:
    """The running games, one per channel, the games that ended lately, and the deadlines. No ``discord`` here.

    See :class:`bot.games.service.GameService` for the constructor's arguments.
    """

    def __init__(
        self,
        ai: AI,
        *,
        turn_timeout: float = 600.0,
        challenge_timeout: float = 60.0,
        on_finished: Callable[[Game], None] | None = None,
        on_expired: Callable[[Game], None] | None = None,
        on_bot_move: Callable[[BotMoved], None] | None = None,
        remember_finished: int = 4096,
        rng: random.Random | None = None,
        store: GameStore | None = None,
    ) -> None:
        self.ai = ai
        self.challenge_timeout = challenge_timeout
        self.on_finished = on_finished
        self.on_expired = on_expired
        self.on_started: Callable[[Game], None] = lambda game: None
        self.on_bot_move = on_bot_move
        self.rng = rng or random.Random()
        self._games: dict[int, Game] = {}
        self._locks = ChannelLocks()
        self._turns = Deadlines(turn_timeout, self._abandon)
        self._challenges = Deadlines(challenge_timeout, self._expire_challenge)
        self.store = store
        self._finished: OrderedDict[str, Game] = OrderedDict()
        self._remember = remember_finished
        self._searches: set[asyncio.Task[None]] = set()
        self._undelivered: dict[int, BotMoved] = {}
        self._dormant: dict[int, Game] = {}  # channel -> a running game a previous process stored (bot.games.recovery)
        self._unseen: dict[str, Game] = {}  # game id -> a game that ended while nobody saw its board

    def __len__(self) -> int:
        return len(self._games)

    @property
    def locks_held(self) -> int:
        """Channels with work in flight (the lock map's size)."""
        return len(self._locks)

    def current(self, channel_id: int) -> Game | None:
        """The game (or challenge) running in ``channel_id``, if any."""
        return self._games.get(channel_id)

    def is_finished(self, game_id: str) -> bool:
        """True when this process saw ``game_id`` end (it remembers the last few thousand)."""
        return game_id in self._finished

    def close(self) -> None:
        """Cancel every deadline and every bot search in flight (at shutdown)."""
        self._turns.close()
        self._challenges.close()
        for task in self._searches:
            task.cancel()

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
                if self.on_bot_move is not None:
                    self.on_bot_move(BotMoved(waiting.game.at(message_id)))
                return ()
        if game is None or game.game_id != game_id:
            return ()
        if game.post != post or game.message_id not in (None, message_id):
            if game.message_id is not None:
                return (message_id,)
            self._games[channel_id] = replace(game, superseded=(*game.superseded, message_id))
            return ()
        self._games[channel_id] = replace(game.at(message_id), superseded=())
        if waiting is not None and self.on_bot_move is not None and waiting.game.game_id == game_id:
            self.on_bot_move(BotMoved(self._games[channel_id]))
        return game.superseded

    def unposted(self, posted: Game, retired: int | None) -> Game | None:
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
            if self.store is not None and game.status == "playing":
                self.store.drop(game)
            log.info("dropped game %s: its first message never reached channel %s", game.game_id, channel_id)
            return None
        self._games[channel_id] = game.at(retired)
        return self._games[channel_id]

    def is_board(self, channel_id: int, message_id: int) -> bool:
        """True when ``message_id`` is the board message of the game running in ``channel_id``."""
        game = self._games.get(channel_id)
        return game is not None and game.message_id == message_id

    def _commit(self, game: Game, *, rearm: bool = False) -> Refusal | None:
        """Store ``game`` as its channel's game, or finish it when it is over; ``rearm`` restarts the deadline.

        A game its board cannot show (a field the ``custom_id`` format cannot hold) is not committed: the channel
        keeps the game it had, and the refusal says so truthfully."""
        try:
            codec.encoder(game)
        except codec.CodecError:
            log.exception("game %s not committed: its board cannot be encoded", game.game_id)
            return Refusal(refusals.NOT_SAVED)
        if game.over:
            self._finish(game)
            return None
        self._games[game.channel_id] = game
        if rearm:
            self._turns.arm(game.channel_id, game.game_id)
        if self.store is not None and game.status == "playing":
            self.store.save(game)
        return None

    def _finish(self, game: Game) -> None:
        running = self._games.get(game.channel_id)
        if running is not None and running.game_id == game.game_id:
            del self._games[game.channel_id]
            self._turns.disarm(game.channel_id)
            self._challenges.disarm(game.channel_id)
        if game.game_id in self._finished:
            return
        self._remember_finished(game)
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
        if self.on_finished is not None and game.verified:
            self.on_finished(game)

    def _remember_finished(self, game: Game) -> None:
        """Remember that ``game`` ended (the last few thousand games are kept)."""
        self._finished[game.game_id] = game
        while len(self._finished) > self._remember:
            self._finished.popitem(last=False)

    def _busy(self, running: Game) -> Refusal:
        key = refusals.BUSY_CHALLENGE if running.status == "challenge" else refusals.BUSY_GAME
        return Refusal(key, {"link": running.jump_url})

    def _stale(self, game: Game) -> Refusal:
        return Refusal(refusals.STALE_BOARD, {"link": game.jump_url})

    def _changed(self, game: Game, board: Game) -> Refusal:
        newer = len(board.moves) < len(game.moves) and game.moves[: len(board.moves)] == board.moves
        return Refusal(refusals.BOARD_CHANGED) if newer and game.message_id == board.message_id else self._stale(game)

    async def _abandon(self, channel_id: int, game_id: str) -> None:
        await self._expire(channel_id, game_id, "playing", "abandoned")

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
            self._finish(ended)
        if self.on_expired is not None:
            self.on_expired(ended)
