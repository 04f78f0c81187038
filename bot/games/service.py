"""The game service: every channel's game, its challenge and its deadlines, and the rules of the flow.

Each intent (start, press, move, resign, hint, board, accept, decline, rematch) is decided and committed in memory
under the channel's lock and answered with an :mod:`answer <bot.games.answers>`. The lock never covers network
I/O: callers show the outcome after it returns, so a refusal never waits for another interaction's HTTP round
trip. The only await under the lock is the bot's own 3x3 search, which runs in an executor.

:class:`GameService` is composed of parts with one job each, which it holds as attributes:

- ``sessions`` (:class:`~bot.games.sessions.Sessions`): the channels' games in memory, committing and finishing
  them, their deadlines, the dormant games, where their boards are;
- ``moves`` (:class:`~bot.games.bot_moves.BotMoves`): the bot's moves, searched in the background on a slow
  variant, with their retry and fallback;
- ``recovery`` and ``resuming`` (:mod:`bot.games.resuming`): after a restart, taking over the games a previous
  process stored, and, at the edge, before any intent runs, resuming the game it names when the bot does not hold
  it (or refusing with the reason), so that every intent acts on a game held in memory;
- ``openings`` (:class:`~bot.games.openings.Openings`): new games, challenges and rematches;
- ``play`` (:class:`~bot.games.play.Play`): the moves of play, the resignations, the reposts, the hints.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import replace

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Answer, BotMoved, Challenged, Declined, Posted, Refusal, Shown
from bot.games.bot_moves import BotMoves
from bot.games.hooks import Hooks
from bot.games.intents import Actor, History, Player
from bot.games.match import Algorithm, BoardRef, Match, Mode
from bot.games.openings import MINIMAX_REPLY_STATES, Openings, minimax_estimate
from bot.games.play import Play
from bot.games.resuming.boards import Resuming
from bot.games.resuming.recovery import Recovery, everywhere
from bot.games.sessions import Sessions
from bot.games.store import GameStore
from engine import DEFAULT_VARIANT, Mark

log = logging.getLogger(__name__)

__all__ = ["MINIMAX_REPLY_STATES", "Actor", "GameService", "History", "Player", "minimax_estimate"]


class GameService:
    """The running games, one per channel, and the rules of play. No ``discord`` here.

    ``on_finished``, ``on_expired`` and ``on_bot_move`` are the first :class:`~bot.games.sessions.Hooks`
    (``hooks``, where the metrics add ``on_started`` and ``on_search_failed``). A turn ends the game as abandoned
    after ``turn_timeout`` seconds, a challenge expires after ``challenge_timeout``. ``store`` keeps the running
    games, so boards pressed after a restart are checked against them, and :meth:`recover` takes over, at start-up,
    the games a previous process stored. ``rng`` picks a side when a player leaves it open.

    On 3x3 the bot's reply is searched under the channel's lock and committed with the player's move. On every other
    variant the player's move is committed and answered at once, and the bot's move follows through ``on_bot_move``
    (:mod:`bot.games.bot_moves`); if none can be had the game ends ``abandoned`` (through ``on_expired``).
    """

    def __init__(
        self,
        ai: AI,
        *,
        turn_timeout: float = 600.0,
        challenge_timeout: float = 60.0,
        on_finished: Callable[[Match], None] | None = None,
        on_expired: Callable[[Match], None] | None = None,
        on_bot_move: Callable[[BotMoved], None] | None = None,
        remember_finished: int = 4096,
        rng: random.Random | None = None,
        store: GameStore | None = None,
    ) -> None:
        self.ai = ai
        self.challenge_timeout = challenge_timeout
        self.hooks = Hooks(on_finished=on_finished, on_expired=on_expired, on_bot_move=on_bot_move)
        self.sessions = Sessions(
            self.hooks,
            turn_timeout=turn_timeout,
            challenge_timeout=challenge_timeout,
            remember_finished=remember_finished,
            store=store,
        )
        self.moves = BotMoves(self.sessions, ai)
        self.recovery = Recovery(self.sessions, self.moves, store)
        self.resuming = Resuming(self.sessions, self.recovery, ai, store)
        self.openings = Openings(self.sessions, store, rng or random.Random())
        self.play = Play(self.sessions, self.moves, ai)

    def __len__(self) -> int:
        return len(self.sessions)

    @property
    def locks_held(self) -> int:
        """Channels with work in flight (the lock map's size)."""
        return self.sessions.locks_held

    @property
    def searches(self) -> int:
        """Bot searches in flight in the background."""
        return self.moves.searches

    def current(self, channel_id: int) -> Match | None:
        """The game (or challenge) running in ``channel_id``, if any."""
        return self.sessions.current(channel_id)

    def is_finished(self, game_id: str) -> bool:
        """True when this process saw ``game_id`` end (it remembers the last few thousand)."""
        return self.sessions.is_finished(game_id)

    def is_board(self, channel_id: int, message_id: int) -> bool:
        """True when ``message_id`` is the board message of the game running in ``channel_id``."""
        return self.sessions.is_board(channel_id, message_id)

    def placed(self, channel_id: int, game_id: str, message_id: int, post: int) -> tuple[int, ...]:
        """The ``post``-th board of ``game_id`` is message ``message_id``: :meth:`Sessions.placed`."""
        return self.sessions.placed(channel_id, game_id, message_id, post)

    def unposted(self, posted: Match, retired: int | None) -> Match | None:
        """The board ``posted`` certainly did not reach Discord: :meth:`Sessions.unposted`."""
        return self.sessions.unposted(posted, retired)

    async def recover(self, mine: Callable[[Match], bool] = everywhere) -> int:
        """Take over the running games stored for the channels ``mine`` accepts: :meth:`Recovery.recover`."""
        return await self.recovery.recover(mine)

    def close(self) -> None:
        """Cancel every deadline and every bot search in flight (at shutdown)."""
        self.sessions.close()
        self.moves.close()

    async def settled(self) -> None:
        """Wait until no bot search is in flight (tests, shutdown)."""
        await self.moves.settled()

    async def press(
        self, actor: Actor, board: Match | BoardRef, cell: int, *, history: History | None = None
    ) -> Answer:
        """A press on ``cell`` of the board message ``board`` (as its buttons encode it: the game, or a
        :class:`BoardRef`): :meth:`Play.press`, once the board's game is held (:meth:`Resuming.board`)."""
        found = await self.resuming.board(actor, board, history)
        if not isinstance(found, Match):
            return found
        return await self.play.press(actor, found, cell, pad=_on_pad(board))

    async def choose(self, actor: Actor, ref: BoardRef, board: int | None, *, history: History | None = None) -> Answer:
        """An ultimate free choice of small board ``board``: :meth:`Play.choose`, once the game is held."""
        found = await self.resuming.board(actor, ref, history)
        if not isinstance(found, Match):
            return found
        return await self.play.choose(actor, found, board, pad=ref.pad)

    async def move(self, actor: Actor, cell: int | str, *, history: History | None = None) -> Answer:
        """``/ttt move``: :meth:`Play.move`, once the channel's game is held (:meth:`Resuming.channel`). ``cell`` is
        0-based, or the text typed, read by the game held (after a restart, the game is known only once resumed):
        ``NOT_A_MOVE`` when it names no cell or column of its board."""
        refused = await self.resuming.channel(actor, history)
        if refused is not None:
            return refused
        if isinstance(cell, str):
            read = refusals.typed_cell(self.sessions.current(actor.channel_id), cell)
            if isinstance(read, Refusal):
                return read
            cell = read
        return await self.play.move(actor, cell)

    async def resign(
        self, actor: Actor, *, board: Match | BoardRef | None = None, history: History | None = None
    ) -> Answer:
        """``/ttt resign`` or a board's Resign button: :meth:`Play.resign`, once the game is held."""
        if board is None:
            return await self.resuming.channel(actor, history) or await self.play.resign(actor)
        found = await self.resuming.board(actor, board, history)
        if not isinstance(found, Match):
            return found
        return await self.play.resign(actor, board=found)

    async def repost(self, actor: Actor, *, history: History | None = None) -> Answer:
        """``/ttt board``: :meth:`Play.repost`, once the channel's game is held."""
        return await self.resuming.channel(actor, history) or await self.play.repost(actor)

    async def explain(
        self, actor: Actor, board: Match | BoardRef, *, hint: bool, history: History | None = None
    ) -> Answer:
        """ "How did it think?" on ``board`` (the bot's last move, or with ``hint`` the search in the board's position):
        :meth:`Play.explain`, once the board's game is held (:meth:`Resuming.board`; a look stores nothing)."""
        found = await self.resuming.board(actor, board, history, read=True)
        if not isinstance(found, Match):
            return found
        return await self.play.explain(actor, found, hint=hint)

    def explained(
        self, actor: Actor, game_id: str, moves: tuple[int, ...], *, hint: bool
    ) -> tuple[Match, tuple[int, ...], int | None] | Refusal | None:
        """The position a "How did it think?" stepper names, checked against the game held in ``actor``'s channel and
        its players (:meth:`Play.explained`); ``None`` when the channel holds no game (after a restart, until "How did
        it think?" or a move loads it: this never loads one)."""
        if self.sessions.current(actor.channel_id) is None:
            return None
        return self.play.explained(actor, game_id, moves, hint=hint)

    async def hint(self, actor: Actor, *, history: History | None = None) -> Answer:
        """``/ttt hint``: :meth:`Play.hint`, once the channel's game is held (a hint stores nothing)."""
        return await self.resuming.channel(actor, history, read=True) or await self.play.hint(actor)

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
        variant: str = DEFAULT_VARIANT,
        history: History | None = None,
    ) -> Answer:
        """A new game of ``variant`` (a key of :data:`engine.registry.VARIANTS`) against the bot, or a challenge to
        ``opponent``; ``play_as=None`` picks a side at random; the bot plays at ``level`` (1-8).

        Returns :class:`Posted` (a game against the bot, with its opening move when the bot plays X on 3x3; on a
        slow variant the board says the bot is thinking and :class:`BotMoved` follows), :class:`Challenged`, or a
        :class:`Refusal` (the channel is busy, a self- or bot challenge, plain minimax on a variant where it cannot
        finish in a reply: ``MINIMAX_TOO_SLOW`` with the estimate, or the search pool is full: ``SEARCH_BUSY``), or
        :class:`NeedsHistory` when the channel's game is one a previous process stored (to link to its board).

        Raises:
            UnknownVariantError: no variant is called ``variant``.
        """
        game = self.openings.new_game(
            actor,
            game_id=game_id,
            opponent=opponent,
            opponent_is_bot=opponent_is_bot,
            play_as=play_as,
            level=level,
            algorithm=algorithm,
            mode=mode,
            variant=variant,
        )
        return game if isinstance(game, Refusal) else await self._open(game, history)

    async def rematch(
        self, actor: Actor, board: Match | BoardRef, *, game_id: str, history: History | None = None
    ) -> Answer:
        """A new game with the players and options of the game that ended on ``board``, sides swapped (the Rematch
        button; :meth:`Openings.rematch_game`). Like :meth:`start`, it asks for the channel's history
        (:class:`NeedsHistory`) when the channel's game is one a previous process stored."""
        if isinstance(board, BoardRef):  # an ultimate board names its game only by id: the ended game is needed
            ended = await self.resuming.ended_ref(board)
            if isinstance(ended, Refusal):
                return ended
            board = ended
        game = await self.openings.rematch_game(actor, board, game_id=game_id)
        return game if isinstance(game, Refusal) else await self._open(game, history)

    async def answer(self, actor: Actor, game_id: str, *, accept: bool) -> Answer:
        """Accept (:class:`Shown`: the prompt becomes the board) or Decline (:class:`Declined`) challenge ``game_id``.

        Only the user the challenge held in memory names may answer; whatever the button's id says is ignored. A
        challenge is opened only where no game runs, in memory or stored (:meth:`_open`), so accepting it starts the
        channel's one game after a restart too."""
        sessions = self.sessions
        async with sessions.hold(actor.channel_id):
            game = sessions.current(actor.channel_id)
            if game is None or game.game_id != game_id or game.status != "challenge":
                return Refusal(refusals.CHALLENGE_CLOSED)
            if actor.user_id != game.challenged_id:
                return Refusal(refusals.NOT_CHALLENGED, {"user": Player(game.challenged_id)})
            if not accept:
                ended = game.end("declined")
                return sessions.commit(ended) or Declined(ended)
            started = replace(game.accept(), locale=actor.locale)
            refusal = sessions.commit(started, rearm=True)
            if refusal is not None:
                return refusal
            log.info("challenge accepted: channel=%s game=%s", started.channel_id, started.game_id)
            return Shown(started)

    async def _open(self, game: Match, history: History | None) -> Answer:
        """Open ``game`` (a game or a challenge) unless its channel has one: in memory, or stored by a previous process
        (a dormant game, resumed on its board from ``history`` to link to it: :meth:`Resuming.opening`)."""
        held_elsewhere = await self.resuming.opening(game.channel_id, history)
        if held_elsewhere is not None:
            return held_elsewhere
        sessions, on_started = self.sessions, self.hooks.on_started
        async with sessions.hold(game.channel_id):
            running = sessions.current(game.channel_id)
            if running is not None:
                return refusals.busy(running)
            if game.status == "challenge":
                refusal = sessions.commit(game)
                if refusal is not None:
                    return refusal
                if on_started is not None:
                    on_started(game)
                log.info("challenge: channel=%s game=%s", game.channel_id, game.game_id)
                return Challenged(game)
            answered = await self.moves.answer(game)
            if isinstance(answered, Refusal):
                return answered
            game, ticket = answered
            refusal = self.moves.commit(game, rearm=True, ticket=ticket)
            if refusal is not None:
                return refusal
            if on_started is not None:
                on_started(game)
            log.info(
                "game started: channel=%s game=%s level=%s algorithm=%s mode=%s",
                game.channel_id,
                game.game_id,
                game.level,
                game.algorithm,
                game.mode,
            )
            return Posted(game)


def _on_pad(board: Match | BoardRef) -> bool:
    return isinstance(board, BoardRef) and board.pad
