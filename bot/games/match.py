"""One game as an immutable value: who plays, the options, the moves in order, and how it ended.

Every transition (a move, the bot's reply, a resignation) returns a new :class:`Match`, so the service
can decide, commit in memory, and only then let the Discord layer show it. The same value is what a
board's buttons encode (:mod:`bot.games.codec`), so a game survives a restart.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from bot.games.ids import DISCORD_EPOCH_MS, new_game_id, to_base36
from bot.games.moves import Pace, pace
from bot.vocabulary import DEFAULT_LEVEL, EndReason, Mode
from engine import (
    DEFAULT_VARIANT,
    TOP_LEVEL,
    VARIANTS,
    Algorithm,
    EngineMove,
    GameOverError,
    GameValue,
    Mark,
    Variant,
)
from engine import Game as Rules
from engine import variant as variant_named

__all__ = [
    "DISCORD_EPOCH_MS",
    "Algorithm",
    "BoardRef",
    "EndReason",
    "EngineMove",
    "Match",
    "Mode",
    "Status",
    "initial_for",
    "message_url",
    "new_game_id",
    "to_base36",
]

Status = Literal["challenge", "playing", "over"]


def initial_for(variant: str) -> Any:
    """The engine state of ``variant``'s empty board (for :attr:`Match.state` of a new game).

    Raises:
        UnknownVariantError: no variant has that name.
    """
    return variant_named(variant).game.initial_state()


@dataclass(frozen=True, slots=True)
class Match:
    """One game in one channel. Player ids are user ids; ``None`` stands for the bot.

    ``variant`` names the game played (a key of :data:`engine.VARIANTS`; :data:`engine.DEFAULT_VARIANT` by
    default). ``moves`` are the cells played, 0-based row by row over the whole board
    (0-8, 0-15, 0-24, 0-80), in order, and ``state`` the variant's engine state they lead to
    (``engine.registry.variant(variant).replay(moves)``; build a new game's with :func:`initial_for`).
    While the bot searches a slow variant's move (:attr:`thinking`), the player's move is already committed.
    ``message_id`` is the board message players should use; ``None`` while a new board is being posted.
    ``post`` numbers the game's board messages: the newest is the ``post``-th (a board whose post number is
    older was superseded, even if the answer that posted it arrives late); ``superseded`` holds such boards
    until the newest board's id is known, so they can be retired with a link to it. While a new board is on its
    way, ``retired`` is the last message known to show the board (the one the new board replaces), if any.
    ``challenged_id`` is set while a challenge waits for an answer. ``locale`` is the Discord locale of
    the player who last acted, for messages sent without an interaction (time-outs). ``verified`` is False for a
    game resumed from a board that no stored game vouched for (:mod:`bot.games.resuming.proof`): its end is never
    recorded.
    ``level`` is the bot's level, 1 (weakest) to 8 (full strength; :mod:`bot.games.levels`).
    """

    game_id: str
    channel_id: int
    x_id: int | None
    o_id: int | None
    level: int = DEFAULT_LEVEL
    algorithm: Algorithm = "alpha-beta"
    mode: Mode = "buttons"
    moves: tuple[int, ...] = ()
    state: Any = field(default_factory=lambda: variant_named(DEFAULT_VARIANT).game.initial_state())
    guild_id: int | None = None
    message_id: int | None = None
    status: Status = "playing"
    end_reason: EndReason | None = None
    resigned: Mark | None = None
    last_ai: EngineMove | None = None
    ai_states: int = 0
    challenged_id: int | None = None
    locale: str | None = None
    post: int = 1
    superseded: tuple[int, ...] = ()
    retired: int | None = None
    verified: bool = True
    variant: str = DEFAULT_VARIANT

    @property
    def kind(self) -> Variant:
        """The game's variant (:class:`engine.variants.Variant`): its board, names, searches, hint and review."""
        return VARIANTS[self.variant]

    @property
    def rules(self) -> Rules[Any]:
        """The variant's rules (:class:`engine.protocol.Game`)."""
        return VARIANTS[self.variant].game

    @property
    def cells(self) -> int:
        """How many cells the whole board has (9, 16, 25, 81)."""
        return VARIANTS[self.variant].cells

    def cell_name(self, cell: int) -> str:
        """The coordinate people see for 0-based ``cell`` on this game's board, e.g. ``"b3"``."""
        return VARIANTS[self.variant].cell_name(cell)

    @property
    def pace(self) -> Pace:
        """How the bot's move in this position is searched (:func:`bot.games.moves.pace`)."""
        return pace(self.kind, self.state, self.level, self.algorithm)

    @property
    def inline(self) -> bool:
        """True when the bot's move in this position is answered inside the interaction's callback (its
        :attr:`pace` is not :attr:`~bot.games.moves.Pace.POOLED`)."""
        return self.pace is not Pace.POOLED

    @property
    def thinking(self) -> bool:
        """True when the game waits for the bot's move searched in the pool: the board says so and takes no press;
        the move arrives later (:class:`bot.games.answers.BotMoved`)."""
        return self.ai_to_move and not self.inline

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
        return self.rules.player(self.state)

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
        """The winning mark (by a line or by resignation), or ``None``."""
        if self.end_reason == "resigned" and self.resigned is not None:
            return self.resigned.other
        if self.end_reason != "win":
            return None
        won = VARIANTS[self.variant].winner(self.state)
        return won if isinstance(won, Mark) else None

    @property
    def jump_url(self) -> str | None:
        """A link to the current board (or challenge) message, when it is known."""
        return message_url(self.guild_id, self.channel_id, self.message_id)

    @property
    def shown(self) -> int | None:
        """The newest message known to show the board: ``message_id``, or the retired one while a new board is
        on its way (``None`` when no board of the game was placed yet)."""
        return self.retired if self.message_id is None else self.message_id

    def play(self, cell: int, *, locale: str | None = None) -> Match:
        """The game after the player to move marks ``cell`` (0-based, whole board); ends it on a win or a draw.
        A ``locale`` given is the mover's, and becomes the game's.

        Raises:
            GameOverError: the game is not running.
            IllegalMoveError: (or a subclass: CellOccupiedError, CellOutOfRangeError, ultimate's WrongBoardError)
                from the variant's ``result``.
        """
        changes = self._marked(cell)
        if locale is not None:
            changes["locale"] = locale
        return replace(self, **changes)

    def with_ai(self, move: EngineMove) -> Match:
        """The game after the bot plays ``move`` (the engine's move record); its state count is added to the game's
        total. The record kept (:attr:`last_ai`) names the mover and the algorithm: the game's own at level 8, else
        the levels' alpha-beta; on a game with exact values it carries no value and no depth (the board shows
        neither), except a win in one played without a search ("wins at once") and a search cut short (the depth of
        the best move found, which it shows instead of a value).

        Raises:
            GameOverError, IllegalMoveError: as :meth:`play`.
        """
        algorithm = self.algorithm if self.level == TOP_LEVEL else "alpha-beta"
        at_once = move.states == 0 and move.value == GameValue("win", 1)
        hidden = self.kind.exact and not at_once and not move.cut_short
        value, depth = (None, None) if hidden else (move.value, move.depth)
        ai = replace(move, mark=self.to_move, algorithm=algorithm, value=value, depth=depth)
        return replace(self, **self._marked(ai.cell), last_ai=ai, ai_states=self.ai_states + ai.states)

    def _marked(self, cell: int) -> dict[str, Any]:
        """The fields that change when the player to move marks ``cell`` (one ``replace`` per transition)."""
        if self.status != "playing":
            raise GameOverError(f"game {self.game_id} is not running (status {self.status!r})")
        rules = self.rules
        state = rules.result(self.state, cell)
        changes: dict[str, Any] = {"state": state, "moves": (*self.moves, cell)}
        if rules.terminal(state):
            changes |= {"status": "over", "end_reason": "win" if rules.utility(state) else "draw"}
        return changes

    def resign(self, mark: Mark) -> Match:
        """The game after ``mark`` resigns."""
        return replace(self, status="over", end_reason="resigned", resigned=mark)

    def end(self, reason: EndReason) -> Match:
        """The game ended for ``reason`` without a result (abandoned, declined or expired)."""
        return replace(self, status="over", end_reason=reason)

    def accept(self) -> Match:
        """The challenge accepted: the game starts."""
        return replace(self, status="playing", challenged_id=None)

    def at(self, message_id: int | None) -> Match:
        """The game whose board is now message ``message_id``."""
        if message_id == self.message_id and self.retired is None:
            return self
        return replace(self, message_id=message_id, retired=None)

    def reposted(self) -> Match:
        """The game about to get a new board message (the next ``post``; its id is not known yet)."""
        return replace(self, message_id=None, post=self.post + 1, superseded=(), retired=self.shown)


@dataclass(frozen=True, slots=True)
class BoardRef:
    """A board that names its game by id and version (ultimate): what a pressed button or a board message read back
    says, checked by the service against the game it holds or stored.

    ``version`` is the number of moves the board shows; ``over`` is True when the message shows a Rematch button
    (the game ended). The place (channel, guild, message) is the caller's, as for :func:`bot.games.codec.decode`.
    ``pad`` is True for a button of a private pad (an ephemeral message): it names no board message (``message_id``
    None), and the service acts on the board message it holds for the game.
    """

    variant: str
    game_id: str
    version: int
    channel_id: int = 0
    guild_id: int | None = None
    message_id: int | None = None
    over: bool = False
    pad: bool = False

    @property
    def ply(self) -> int:
        """Moves the board shows (its version)."""
        return self.version

    @property
    def jump_url(self) -> str | None:
        """A link to the board message, when it is known."""
        return message_url(self.guild_id, self.channel_id, self.message_id)

    def at(self, message_id: int | None) -> BoardRef:
        """The same reference on message ``message_id``."""
        return replace(self, message_id=message_id)


def message_url(guild_id: int | None, channel_id: int, message_id: int | None) -> str | None:
    """The link to a message (``@me`` for a direct message, ``guild_id`` None), or None when ``message_id`` is
    not known."""
    if message_id is None:
        return None
    guild = guild_id if guild_id is not None else "@me"
    return f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"
