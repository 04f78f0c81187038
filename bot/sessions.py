"""Games in progress: one immutable :class:`Session` per channel, kept by a :class:`SessionManager`.

A session is a frozen value; every transition (a move, the AI's reply, a resignation) returns a new
one, so a caller can validate, build the reply and only then commit it with
:meth:`SessionManager.update`. The manager holds one ``asyncio.Lock`` per channel and a turn timer
per game that ends it as abandoned after ``turn_timeout`` seconds without a move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Literal

from bot.codec import Algorithm, GameCode, Mode
from engine import Decision, Difficulty, GameOverError, Mark, State, initial_state, player, result, terminal, winner

__all__ = ["AIMove", "ChannelBusyError", "EndReason", "Session", "SessionManager", "Status", "new_game_id"]

log = logging.getLogger(__name__)

Status = Literal["challenge", "playing", "over"]
EndReason = Literal["win", "draw", "resigned", "abandoned", "declined", "expired"]


def new_game_id() -> str:
    """A short random game id: 6 hex digits."""
    return secrets.token_hex(3)


@dataclass(frozen=True, slots=True)
class AIMove:
    """The AI's last move and the search behind it (``elapsed`` in seconds)."""

    mark: Mark
    cell: int
    states: int
    elapsed: float
    algorithm: Algorithm
    random: bool


@dataclass(frozen=True, slots=True)
class Session:
    """One game in one channel. Player ids are user ids; ``None`` stands for the bot."""

    game_id: str
    channel_id: int
    x_id: int | None
    o_id: int | None
    difficulty: Difficulty = Difficulty.UNBEATABLE
    algorithm: Algorithm = "alpha-beta"
    mode: Mode = "buttons"
    state: State = field(default_factory=initial_state)
    guild_id: int | None = None
    message_id: int | None = None
    status: Status = "playing"
    end_reason: EndReason | None = None
    resigned: Mark | None = None
    last_ai: AIMove | None = None
    ai_states: int = 0
    ai_moves: int = 0

    @classmethod
    def from_code(cls, code: GameCode, channel_id: int, guild_id: int | None, message_id: int | None) -> Session:
        """Rebuild a running game from a board's ``custom_id`` (after a restart)."""
        return cls(
            game_id=code.game_id,
            channel_id=channel_id,
            x_id=code.x_id,
            o_id=code.o_id,
            difficulty=code.difficulty,
            algorithm=code.algorithm,
            mode=code.mode,
            state=code.state,
            guild_id=guild_id,
            message_id=message_id,
        )

    @property
    def code(self) -> GameCode:
        """What the board's buttons encode."""
        return GameCode(self.game_id, self.state, self.x_id, self.o_id, self.difficulty, self.algorithm, self.mode)

    @property
    def vs_bot(self) -> bool:
        """True when one side is the bot."""
        return self.x_id is None or self.o_id is None

    def player_id(self, mark: Mark) -> int | None:
        """The user id playing ``mark`` (``None`` for the bot)."""
        return self.x_id if mark is Mark.X else self.o_id

    def mark_of(self, user_id: int) -> Mark | None:
        """The mark ``user_id`` plays, or ``None`` when they are not in this game."""
        if user_id == self.x_id:
            return Mark.X
        if user_id == self.o_id:
            return Mark.O
        return None

    def is_player(self, user_id: int) -> bool:
        """True when ``user_id`` plays in this game."""
        return self.mark_of(user_id) is not None

    @property
    def to_move(self) -> Mark:
        """The mark whose turn it is."""
        return player(self.state)

    @property
    def over(self) -> bool:
        """True once the game has ended for any reason."""
        return self.status == "over"

    @property
    def ai_to_move(self) -> bool:
        """True when the game is running and it is the bot's turn."""
        return self.status == "playing" and self.vs_bot and self.player_id(self.to_move) is None

    @property
    def winner(self) -> Mark | None:
        """The winning mark (by three in a row or by resignation), or ``None``."""
        if self.end_reason == "resigned" and self.resigned is not None:
            return self.resigned.other
        return winner(self.state) if self.end_reason == "win" else None

    @property
    def jump_url(self) -> str | None:
        """A link to the current board (or challenge) message."""
        if self.message_id is None:
            return None
        guild = self.guild_id if self.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.channel_id}/{self.message_id}"

    def play(self, cell: int) -> Session:
        """The session after the player to move marks ``cell`` (0-8); ends the game on a win or draw.

        Raises:
            GameOverError: the game is not running.
            CellOccupiedError, CellOutOfRangeError: from :func:`engine.result`.
        """
        if self.status != "playing":
            raise GameOverError(f"game {self.game_id} is not running (status {self.status!r})")
        state = result(self.state, cell)
        if not terminal(state):
            return replace(self, state=state)
        return replace(self, state=state, status="over", end_reason="win" if winner(state) else "draw")

    def with_ai(self, decision: Decision) -> Session:
        """The session after the bot plays ``decision`` (its state count is added to the total)."""
        mark = self.to_move
        after = self.play(decision.move)
        ai = AIMove(
            mark, decision.move, decision.search.states, decision.search.elapsed, self.algorithm, decision.random
        )
        return replace(after, last_ai=ai, ai_states=self.ai_states + ai.states, ai_moves=self.ai_moves + 1)

    def resign(self, mark: Mark) -> Session:
        """The session after ``mark`` resigns."""
        return replace(self, status="over", end_reason="resigned", resigned=mark)

    def end(self, reason: EndReason) -> Session:
        """The session ended for ``reason`` without a result (abandoned, declined or expired)."""
        return replace(self, status="over", end_reason=reason)

    def accept(self) -> Session:
        """The challenge accepted: the game starts."""
        return replace(self, status="playing")

    def at(self, message_id: int | None) -> Session:
        """The session whose board is now message ``message_id``."""
        return replace(self, message_id=message_id)


class ChannelBusyError(RuntimeError):
    """A game (or a challenge) is already running in the channel."""

    def __init__(self, running: Session) -> None:
        super().__init__(f"channel {running.channel_id} already has game {running.game_id}")
        self.running = running


class SessionManager:
    """The running games, keyed by channel id, with per-channel locks and turn timeouts."""

    def __init__(
        self,
        turn_timeout: float = 600.0,
        on_timeout: Callable[[Session], Awaitable[None]] | None = None,
        remember_finished: int = 4096,
    ) -> None:
        self.turn_timeout = turn_timeout
        self.on_timeout = on_timeout
        self._sessions: dict[int, Session] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._expiring: set[asyncio.Task[None]] = set()
        self._finished: OrderedDict[str, None] = OrderedDict()
        self._remember = remember_finished

    def __len__(self) -> int:
        return len(self._sessions)

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The lock that serialises everything that changes the game in ``channel_id``."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def get(self, channel_id: int) -> Session | None:
        """The game running in ``channel_id``, if any."""
        return self._sessions.get(channel_id)

    def start(self, session: Session) -> Session:
        """Register a new game (or challenge); call with the channel's lock held.

        Raises:
            ChannelBusyError: the channel already has one.
        """
        running = self._sessions.get(session.channel_id)
        if running is not None:
            raise ChannelBusyError(running)
        self._sessions[session.channel_id] = session
        self._arm(session)
        return session

    def update(self, session: Session) -> Session:
        """Commit a new value of the channel's running game; ends it when ``session.over``.

        Raises:
            KeyError: ``session`` is not the game running in its channel.
        """
        running = self._sessions.get(session.channel_id)
        if running is None or running.game_id != session.game_id:
            raise KeyError(f"game {session.game_id} is not running in channel {session.channel_id}")
        if session.over:
            return self.end(session)
        self._sessions[session.channel_id] = session
        self._arm(session)
        return session

    def end(self, session: Session) -> Session:
        """Remove the game from its channel (if it is the one running) and remember it as finished."""
        running = self._sessions.get(session.channel_id)
        if running is not None and running.game_id == session.game_id:
            del self._sessions[session.channel_id]
            self._disarm(session.channel_id)
        self._finished[session.game_id] = None
        while len(self._finished) > self._remember:
            self._finished.popitem(last=False)
        return session

    def is_finished(self, game_id: str) -> bool:
        """True when this process saw the game end."""
        return game_id in self._finished

    def close(self) -> None:
        """Cancel every turn timer (at shutdown)."""
        for channel_id in list(self._timers):
            self._disarm(channel_id)
        for task in self._expiring:
            task.cancel()

    def _arm(self, session: Session) -> None:
        # A TimerHandle per game, re-armed on every move: far cheaper than a sleeping task per game.
        self._disarm(session.channel_id)
        if session.status != "playing" or self.turn_timeout <= 0:
            return
        loop = asyncio.get_running_loop()
        self._timers[session.channel_id] = loop.call_later(self.turn_timeout, self._fire, session)

    def _disarm(self, channel_id: int) -> None:
        timer = self._timers.pop(channel_id, None)
        if timer is not None:
            timer.cancel()

    def _fire(self, session: Session) -> None:
        self._timers.pop(session.channel_id, None)
        task = asyncio.get_running_loop().create_task(self._expire(session), name=f"ttt-timeout-{session.game_id}")
        self._expiring.add(task)
        task.add_done_callback(self._expiring.discard)

    async def _expire(self, session: Session) -> None:
        async with self.lock(session.channel_id):
            if self._sessions.get(session.channel_id) is not session:
                return
            ended = self.end(session.end("abandoned"))
            log.info(
                "game abandoned: channel=%s game=%s after %.0f s", ended.channel_id, ended.game_id, self.turn_timeout
            )
            if self.on_timeout is not None:
                try:
                    await self.on_timeout(ended)
                except Exception:
                    log.exception("timeout handler failed: channel=%s game=%s", ended.channel_id, ended.game_id)
