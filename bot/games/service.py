"""The game service: every channel's game, its challenge and its deadlines, and the rules of the flow.

Each intent (start, press, move, resign, hint, board, accept, decline, rematch) is decided and committed
in memory under the channel's lock and answered with an :mod:`answer <bot.games.answers>`. The lock
never covers network I/O: callers show the outcome after it returns, so a refusal never waits for
another interaction's HTTP round trip. The only await under the lock is the bot's own search, which runs
in an executor.

After a restart the service knows no games. An intent about a channel it knows nothing of returns
:class:`NeedsHistory`; the caller reads the channel's latest board messages and asks again with them
(:class:`History`). A board is compared with the newest board of its game, so an older board can never
override a newer one, and with what the bot stored (:mod:`bot.games.proof`): a board's ``custom_id`` travels
through the client, so the players, options, moves and states count it carries are never taken on trust.
Who may answer a challenge or ask for a rematch comes from the challenge or the ended game the bot holds.
"""

from __future__ import annotations

import logging
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace

from bot.games import codec, proof, refusals, resume
from bot.games.ai import AI
from bot.games.answers import Answer, Challenged, Declined, Hinted, NeedsHistory, Posted, Refusal, Shown
from bot.games.game import Algorithm, EndReason, Game, Mode, Status
from bot.games.locks import ChannelLocks
from bot.games.store import GameStore
from bot.games.timers import Deadlines
from bot.records import RecordsUnavailableError
from engine import Difficulty, Mark

__all__ = ["Actor", "GameService", "History", "Player"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who sent an intent, and where: a user id, the channel (and guild, ``None`` in DMs), their locale."""

    user_id: int
    channel_id: int
    guild_id: int | None = None
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class Player:
    """A refusal's value that names a player (``None`` is the bot); the caller renders it as a name."""

    user_id: int | None


@dataclass(frozen=True, slots=True)
class History:
    """The boards found among a channel's recent messages, newest first (``readable`` is False when the
    channel's history could not be read, e.g. a DM the bot is not in). A board whose message shows a
    Rematch button is passed as a game that is over."""

    boards: tuple[Game, ...] = ()
    readable: bool = True

    def newest(self, game_id: str | None = None) -> Game | None:
        """The newest board of ``game_id`` (of any game when ``None``)."""
        return next((b for b in self.boards if game_id is None or b.game_id == game_id), None)


class GameService:
    """The running games, one per channel, and the rules of play. No ``discord`` here.

    ``on_finished(game)`` is called once per game when it ends, for any reason (the records store), except for a
    game resumed from a board nothing vouched for (``verified`` False), which is never recorded;
    ``on_expired(game)`` when a deadline ends a game or a challenge, so the caller can update its message;
    ``on_started(game)`` when a game or a challenge is opened (the metrics).
    ``store`` keeps the running games, so boards pressed after a restart are checked against them.
    """

    def __init__(
        self,
        ai: AI,
        *,
        turn_timeout: float = 600.0,
        challenge_timeout: float = 60.0,
        on_finished: Callable[[Game], None] | None = None,
        on_expired: Callable[[Game], None] | None = None,
        remember_finished: int = 4096,
        rng: random.Random | None = None,
        store: GameStore | None = None,
    ) -> None:
        self.ai = ai
        self.challenge_timeout = challenge_timeout
        self.on_finished = on_finished
        self.on_expired = on_expired
        self.on_started: Callable[[Game], None] = lambda game: None
        self.rng = rng or random.Random()
        self._games: dict[int, Game] = {}
        self._locks = ChannelLocks()
        self._turns = Deadlines(turn_timeout, self._abandon)
        self._challenges = Deadlines(challenge_timeout, self._expire_challenge)
        self.store = store
        self._finished: OrderedDict[str, Game] = OrderedDict()
        self._remember = remember_finished

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
        """Cancel every deadline (at shutdown)."""
        self._turns.close()
        self._challenges.close()

    # ---- intents ---------------------------------------------------------------------------------

    async def start(
        self,
        actor: Actor,
        *,
        game_id: str,
        opponent: int | None = None,
        opponent_is_bot: bool = False,
        play_as: Mark | None = Mark.X,
        difficulty: Difficulty = Difficulty.UNBEATABLE,
        algorithm: Algorithm = "alpha-beta",
        mode: Mode = "buttons",
    ) -> Answer:
        """A new game against the bot, or a challenge to ``opponent``; ``play_as=None`` picks a side at random.

        Returns :class:`Posted` (a game against the bot, with its opening move when the bot plays X),
        :class:`Challenged`, or a :class:`Refusal` (the channel is busy, a self- or bot challenge).
        """
        if opponent == actor.user_id:
            return Refusal(refusals.SELF_CHALLENGE)
        if opponent is not None and opponent_is_bot:
            return Refusal(refusals.BOT_CHALLENGE)
        mark = play_as or self.rng.choice((Mark.X, Mark.O))
        x_id, o_id = (actor.user_id, opponent) if mark is Mark.X else (opponent, actor.user_id)
        game = Game(
            game_id=game_id,
            channel_id=actor.channel_id,
            x_id=x_id,
            o_id=o_id,
            difficulty=difficulty,
            algorithm=algorithm,
            mode=mode,
            guild_id=actor.guild_id,
            status="playing" if opponent is None else "challenge",
            challenged_id=opponent,
            locale=actor.locale,
        )
        return await self._open(game)

    async def rematch(self, actor: Actor, board: Game, *, game_id: str) -> Answer:
        """A new game with the players and options of the game that ended on ``board``, sides swapped (the Rematch
        button). They come from the ended game this process saw or the records; when neither knows it, only the
        one person of a game against the bot may ask, which is no more than ``/ttt start``."""
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
            difficulty=ended.difficulty,
            algorithm=ended.algorithm,
            mode=board.mode,
            guild_id=actor.guild_id,
            locale=actor.locale,
        )
        return await self._open(game)

    async def press(self, actor: Actor, board: Game, cell: int, *, history: History | None = None) -> Answer:
        """A press on ``cell`` of the board message ``board`` (as its buttons encode it, with its message id).

        Returns :class:`Shown` (the move and the bot's reply, to show on that message), a
        :class:`Refusal`, or :class:`NeedsHistory` when the game must be resumed after a restart.
        """
        if not board.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        evidence = await self._board_evidence(board, actor, history)
        async with self._locks.hold(actor.channel_id):
            found = self._board_game(board, history, evidence)
            if not isinstance(found, Game):
                return found
            game = found
            refusal = self._turn_refusal(game, actor.user_id) or self._cell_refusal(game, cell)
            if refusal is not None:
                return refusal
            after = (await self._play(game, cell, actor)).at(board.message_id)
            return self._commit(after, rearm=True) or Shown(after)

    async def move(self, actor: Actor, cell: int, *, history: History | None = None) -> Answer:
        """``/ttt move``: play ``cell`` (0-8) in the channel's game; the board is posted again (:class:`Posted`)."""
        evidence = await self._channel_evidence(actor, history)
        async with self._locks.hold(actor.channel_id):
            found = self._channel_game(actor, history, evidence)
            if not isinstance(found, Game):
                return found
            game = found
            refusal = self._turn_refusal(game, actor.user_id) or self._cell_refusal(game, cell)
            if refusal is not None:
                return refusal
            after = (await self._play(game, cell, actor)).reposted()
            return self._commit(after, rearm=True) or Posted(after, retired=game.shown)

    async def resign(self, actor: Actor, *, board: Game | None = None, history: History | None = None) -> Answer:
        """Resign the channel's game: from ``/ttt resign`` (:class:`Posted`), or from a board's Resign button
        (``board`` given: :class:`Shown` on that message)."""
        if board is not None and not board.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        if board is None:
            evidence = await self._channel_evidence(actor, history)
        else:
            evidence = await self._board_evidence(board, actor, history)
        async with self._locks.hold(actor.channel_id):
            if board is None:
                found = self._channel_game(actor, history, evidence)
            else:
                found = self._board_game(board, history, evidence)
            if not isinstance(found, Game):
                return found
            game = found
            if game.status == "challenge":
                return self._busy(game)
            mark = game.mark_of(actor.user_id)
            if mark is None:
                return Refusal(refusals.NOT_YOUR_GAME)
            ended = replace(game.resign(mark), locale=actor.locale)
            if board is not None:
                return self._commit(ended) or Shown(ended)
            ended = ended.reposted()
            return self._commit(ended) or Posted(ended, retired=game.shown)

    async def repost(self, actor: Actor, *, history: History | None = None) -> Answer:
        """``/ttt board``: post the channel's board again at the bottom (:class:`Posted`). Anyone may; the
        turn's deadline is left as it was."""
        evidence = await self._channel_evidence(actor, history)
        async with self._locks.hold(actor.channel_id):
            found = self._channel_game(actor, history, evidence)
            if not isinstance(found, Game):
                return found
            game = found
            if game.status == "challenge":
                return self._busy(game)
            moved = game.reposted()
            return self._commit(moved) or Posted(moved, retired=game.shown)

    async def hint(self, actor: Actor, *, history: History | None = None) -> Answer:
        """``/ttt hint``: every free cell's outcome for the player to move (:class:`Hinted`), privately.

        The analysis runs after the lock is released, in the hint executor.
        """
        evidence = await self._channel_evidence(actor, history)
        async with self._locks.hold(actor.channel_id):
            found = self._channel_game(actor, history, evidence)
            if not isinstance(found, Game):
                return found
            game = found
            refusal = self._turn_refusal(game, actor.user_id)
            if refusal is not None:
                return refusal
        return Hinted(game, await self.ai.analyse(game.state))

    async def answer(self, actor: Actor, game_id: str, *, accept: bool) -> Answer:
        """Accept (:class:`Shown`: the prompt becomes the board) or Decline (:class:`Declined`) challenge ``game_id``.

        Only the user the challenge held in memory names may answer; whatever the button's id says is ignored."""
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

    # ---- what the caller reports back ----------------------------------------------------------------

    def placed(self, channel_id: int, game_id: str, message_id: int, post: int) -> tuple[int, ...]:
        """The ``post``-th board (or the prompt) of ``game_id`` is message ``message_id``; returns the game's
        old boards to retire now, with a link to the current one.

        Players may see a board before the answer that posted it comes back, so a newer board may already
        exist: then this message is superseded, and is retired as soon as the newest board's id is known.
        A game that is no longer running leaves its messages as they are.
        """
        game = self._games.get(channel_id)
        if game is None or game.game_id != game_id:
            return ()
        if game.post != post or game.message_id not in (None, message_id):
            if game.message_id is not None:
                return (message_id,)
            self._games[channel_id] = replace(game, superseded=(*game.superseded, message_id))
            return ()
        self._games[channel_id] = replace(game.at(message_id), superseded=())
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

    # ---- internals -----------------------------------------------------------------------------------

    async def _open(self, game: Game) -> Answer:
        async with self._locks.hold(game.channel_id):
            running = self._games.get(game.channel_id)
            if running is not None:
                return self._busy(running)
            if game.status == "challenge":
                self._games[game.channel_id] = game
                self.on_started(game)
                self._challenges.arm(game.channel_id, game.game_id)
                log.info("challenge: channel=%s game=%s", game.channel_id, game.game_id)
                return Challenged(game)
            if game.ai_to_move:
                game = await self._ai_reply(game)
            refusal = self._commit(game, rearm=True)
            if refusal is not None:
                return refusal
            self.on_started(game)
            log.info(
                "game started: channel=%s game=%s difficulty=%s algorithm=%s mode=%s",
                game.channel_id,
                game.game_id,
                game.difficulty.value,
                game.algorithm,
                game.mode,
            )
            return Posted(game)

    async def _board_evidence(
        self, board: Game, actor: Actor, history: History | None
    ) -> resume.Evidence | Refusal | None:
        """What a board pressed after a restart is checked against (looked up outside the channel's lock), or None
        when the game is in memory or the history is not read yet."""
        game = self._games.get(board.channel_id)
        if history is None or (game is not None and game.game_id == board.game_id):
            return None
        return await resume.evidence(
            self.store, self.ai, resume.candidate(board, history.newest(board.game_id)), actor.user_id
        )

    async def _channel_evidence(self, actor: Actor, history: History | None) -> resume.Evidence | Refusal | None:
        """What a command after a restart resumes: the channel's stored running game, or else the newest board's
        evidence (looked up outside the channel's lock). None when a game is in memory or before the history."""
        if history is None or actor.channel_id in self._games:
            return None
        if self.store is not None:
            try:
                running = await self.store.in_channel(actor.channel_id)
            except RecordsUnavailableError:
                return Refusal(refusals.RECORDS_DOWN)
            if running is not None:
                return resume.Evidence(channel_game=running)
        newest = history.newest()
        return None if newest is None else await resume.evidence(self.store, self.ai, newest, actor.user_id)

    def _board_game(
        self, board: Game, history: History | None, evidence: resume.Evidence | Refusal | None = None
    ) -> Game | Refusal | NeedsHistory:
        """The running game a press on ``board`` acts on (resumed after a restart, as ``evidence`` allows), or why
        there is none."""
        channel_id = board.channel_id
        game = self._games.get(channel_id)
        if game is None or game.game_id != board.game_id:
            if board.over or self.is_finished(board.game_id):
                return Refusal(refusals.GAME_OVER)
            if game is not None:
                return self._stale(game)
            if history is None:
                return NeedsHistory()
            newest = history.newest(board.game_id)
            if newest is not None and newest.over:
                return Refusal(refusals.GAME_OVER)
            if newest is not None and newest.message_id != board.message_id:
                return Refusal(refusals.STALE_BOARD, {"link": newest.jump_url})
            latest = history.newest()
            if latest is not None and latest.game_id != board.game_id:  # a newer game was played here since
                over = latest.over or self.is_finished(latest.game_id)
                return Refusal(refusals.GAME_OVER) if over else self._stale(latest)
            # the message may have changed since the press's copy of it was rendered: check what it shows now
            checked = resume.checked(resume.candidate(board, newest), evidence)
            if not isinstance(checked, Game):
                return checked
            game = self._resume(checked)
        if not proof.same_setup(board, game) or (board.moves == game.moves and board.ai_states != game.ai_states):
            return Refusal(refusals.BOARD_MISMATCH)
        if board.moves != game.moves:
            return self._changed(game, board)
        if game.message_id is None:  # a repost is on its way and this press beat its answer: adopt the message
            if board.message_id == game.retired:  # ...unless it is the board the repost replaces
                return self._stale(game)
            game = self._games[channel_id] = game.at(board.message_id)
        elif game.message_id != board.message_id:
            return self._stale(game)
        return game

    def _channel_game(
        self, actor: Actor, history: History | None, evidence: resume.Evidence | Refusal | None = None
    ) -> Game | Refusal | NeedsHistory:
        """The channel's game for a command (after a restart: the stored running game, else the newest board as
        ``evidence`` allows), or why there is none."""
        game = self._games.get(actor.channel_id)
        if game is not None:
            return game
        if history is None:
            return NeedsHistory()
        if isinstance(evidence, Refusal):
            return evidence
        if evidence is not None and evidence.channel_game is not None:
            stored = evidence.channel_game
            if self.is_finished(stored.game_id):
                return Refusal(refusals.NO_GAME)
            board = history.newest(stored.game_id)
            if board is not None and board.over:  # its end was shown, but a crash lost the writes that record it
                return Refusal(refusals.NO_GAME)
            return self._resume(stored.at(board.message_id if board is not None else None))
        if not history.readable:
            return Refusal(refusals.NO_HISTORY)
        newest = history.newest()
        if newest is None or newest.over or self.is_finished(newest.game_id):
            return Refusal(refusals.NO_GAME)
        checked = resume.checked(newest, evidence)
        return self._resume(checked) if isinstance(checked, Game) else checked

    def _resume(self, game: Game) -> Game:
        self._games[game.channel_id] = game
        self._turns.arm(game.channel_id, game.game_id)
        if self.store is not None:
            self.store.save(game)
        log.info("game resumed: channel=%s game=%s ply=%d", game.channel_id, game.game_id, game.ply)
        return game

    def _turn_refusal(self, game: Game, user_id: int) -> Refusal | None:
        if game.status == "challenge":
            return self._busy(game)
        if not game.is_player(user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        if game.player_id(game.to_move) != user_id:
            return Refusal(refusals.NOT_YOUR_TURN)
        return None

    @staticmethod
    def _cell_refusal(game: Game, cell: int) -> Refusal | None:
        return Refusal(refusals.CELL_TAKEN) if game.state[cell] is not None else None

    async def _play(self, game: Game, cell: int, actor: Actor) -> Game:
        after = game.play(cell, locale=actor.locale)
        log.debug("move: channel=%s game=%s user=%s cell=%d", game.channel_id, game.game_id, actor.user_id, cell)
        return await self._ai_reply(after) if after.ai_to_move else after

    async def _ai_reply(self, game: Game) -> Game:
        decision = await self.ai.choose(game.state, game.difficulty, game.algorithm)
        log.debug(
            "ai move: channel=%s game=%s cell=%d states=%d elapsed_ms=%.2f",
            game.channel_id,
            game.game_id,
            decision.move,
            decision.search.states,
            decision.search.elapsed_ms,
        )
        return game.with_ai(decision)

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
        self._finished[game.game_id] = game
        while len(self._finished) > self._remember:
            self._finished.popitem(last=False)
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
