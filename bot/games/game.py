"""One game as an immutable value: who plays, the options, the moves in order, and how it ended.

Every transition (a move, the bot's reply, a resignation) returns a new :class:`Game`, so the service
can decide, commit in memory, and only then let the Discord layer show it. The same value is what a
board's buttons encode (:mod:`bot.games.codec`), so a game survives a restart.
"""

from __future__ import annotations

import datetime
import secrets
import time
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from engine import Decision, Difficulty, GameOverError, Mark, State, initial_state, player, result, terminal, winner
from engine.search import Algorithm

__all__ = ["DISCORD_EPOCH_MS", "AIMove", "Algorithm", "EndReason", "Game", "Mode", "Status", "new_game_id", "to_base36"]

Mode = Literal["buttons", "text"]
Status = Literal["challenge", "playing", "over"]
EndReason = Literal["win", "draw", "resigned", "abandoned", "declined", "expired"]

DISCORD_EPOCH_MS = 1_420_070_400_000
"""Discord snowflakes count milliseconds from 2015-01-01T00:00:00Z (bits 22 and up)."""
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def new_game_id(snowflake: int | None = None) -> str:
    """A game id: a snowflake written in base 36 (at most 13 characters).

    On Discord the snowflake is the id of the interaction that started the game, which is unique and
    carries the start time; without one (the console) a snowflake is made from the clock and 22 random bits.
    """
    if snowflake is None:
        snowflake = ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | secrets.randbits(22)
    return to_base36(snowflake)


def to_base36(number: int) -> str:
    """A non-negative integer in lower-case base 36 (``int(text, 36)`` reads it back)."""
    digits = []
    while True:
        number, digit = divmod(number, 36)
        digits.append(_BASE36[digit])
        if number == 0:
            return "".join(reversed(digits))


@dataclass(frozen=True, slots=True)
class AIMove:
    """The bot's last move and the search behind it: ``states`` evaluated in ``elapsed`` seconds."""

    mark: Mark
    cell: int
    states: int
    elapsed: float
    algorithm: Algorithm
    random: bool


@dataclass(frozen=True, slots=True)
class Game:
    """One game in one channel. Player ids are user ids; ``None`` stands for the bot.

    ``moves`` are the cells played (0-8) in order and ``state`` the position they lead to.
    ``message_id`` is the board message players should use; ``None`` while a new board is being posted.
    ``post`` numbers the game's board messages: the newest is the ``post``-th (a board whose post number is
    older was superseded, even if the answer that posted it arrives late); ``superseded`` holds such boards
    until the newest board's id is known, so they can be retired with a link to it. While a new board is on its
    way, ``retired`` is the last message known to show the board (the one the new board replaces), if any.
    ``challenged_id`` is set while a challenge waits for an answer. ``locale`` is the Discord locale of
    the player who last acted, for messages sent without an interaction (time-outs). ``verified`` is False for a
    game resumed from a board that no stored game vouched for (:mod:`bot.games.proof`): its end is never recorded.
    """

    game_id: str
    channel_id: int
    x_id: int | None
    o_id: int | None
    difficulty: Difficulty = Difficulty.UNBEATABLE
    algorithm: Algorithm = "alpha-beta"
    mode: Mode = "buttons"
    moves: tuple[int, ...] = ()
    state: State = field(default_factory=initial_state)
    guild_id: int | None = None
    message_id: int | None = None
    status: Status = "playing"
    end_reason: EndReason | None = None
    resigned: Mark | None = None
    last_ai: AIMove | None = None
    ai_states: int = 0
    challenged_id: int | None = None
    locale: str | None = None
    post: int = 1
    superseded: tuple[int, ...] = ()
    retired: int | None = None
    verified: bool = True

    @property
    def vs_bot(self) -> bool:
        """True when one side is the bot."""
        return self.x_id is None or self.o_id is None

    @property
    def bot_mark(self) -> Mark | None:
        """The bot's mark, or ``None`` in a game between people."""
        if self.x_id is None:
            return Mark.X
        return Mark.O if self.o_id is None else None

    @property
    def ply(self) -> int:
        """Moves played so far."""
        return len(self.moves)

    @property
    def ai_moves(self) -> int:
        """How many moves the bot has made."""
        mark = self.bot_mark
        if mark is None:
            return 0
        return (self.ply + 1) // 2 if mark is Mark.X else self.ply // 2

    @property
    def started_at(self) -> datetime.datetime:
        """When the game started (UTC), read from the snowflake in its id."""
        snowflake = int(self.game_id, 36)
        return datetime.datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, datetime.UTC)

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
        """A link to the current board (or challenge) message, when it is known."""
        if self.message_id is None:
            return None
        guild = self.guild_id if self.guild_id is not None else "@me"
        return f"https://discord.com/channels/{guild}/{self.channel_id}/{self.message_id}"

    @property
    def shown(self) -> int | None:
        """The newest message known to show the board: ``message_id``, or the retired one while a new board is
        on its way (``None`` when no board of the game was placed yet)."""
        return self.retired if self.message_id is None else self.message_id

    def play(self, cell: int, *, locale: str | None = None) -> Game:
        """The game after the player to move marks ``cell`` (0-8); ends it on a win or a draw. A ``locale``
        given is the mover's, and becomes the game's.

        Raises:
            GameOverError: the game is not running.
            CellOccupiedError, CellOutOfRangeError: from :func:`engine.result`.
        """
        changes = self._marked(cell)
        if locale is not None:
            changes["locale"] = locale
        return replace(self, **changes)

    def with_ai(self, decision: Decision) -> Game:
        """The game after the bot plays ``decision``; its state count is added to the game's total."""
        ai = AIMove(
            self.to_move,
            decision.move,
            decision.search.states,
            decision.search.elapsed,
            self.algorithm,
            decision.random,
        )
        return replace(self, **self._marked(decision.move), last_ai=ai, ai_states=self.ai_states + ai.states)

    def _marked(self, cell: int) -> dict[str, Any]:
        """The fields that change when the player to move marks ``cell`` (one ``replace`` per transition)."""
        if self.status != "playing":
            raise GameOverError(f"game {self.game_id} is not running (status {self.status!r})")
        state = result(self.state, cell)
        changes: dict[str, Any] = {"state": state, "moves": (*self.moves, cell)}
        if terminal(state):
            changes |= {"status": "over", "end_reason": "win" if winner(state) else "draw"}
        return changes

    def resign(self, mark: Mark) -> Game:
        """The game after ``mark`` resigns."""
        return replace(self, status="over", end_reason="resigned", resigned=mark)

    def end(self, reason: EndReason) -> Game:
        """The game ended for ``reason`` without a result (abandoned, declined or expired)."""
        return replace(self, status="over", end_reason=reason)

    def accept(self) -> Game:
        """The challenge accepted: the game starts."""
        return replace(self, status="playing", challenged_id=None)

    def at(self, message_id: int | None) -> Game:
        """The game whose board is now message ``message_id``."""
        if message_id == self.message_id and self.retired is None:
            return self
        return replace(self, message_id=message_id, retired=None)

    def reposted(self) -> Game:
        """The game about to get a new board message (the next ``post``; its id is not known yet)."""
        return replace(self, message_id=None, post=self.post + 1, superseded=(), retired=self.shown)
