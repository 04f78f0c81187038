"""Restarts at the edge: an intent naming a board, or a channel, whose game the bot does not hold is resolved here,
once, before the intent runs: the game is resumed from what the bot stored (or from what the board proves) and held
again, or the intent is refused with the reason. The intents themselves then act only on games held in memory
(:meth:`bot.games.sessions.Sessions.acting_on`).

After a restart the service knows no games, so an intent about a channel it knows nothing of returns
:class:`~bot.games.answers.NeedsHistory`; the caller reads the channel's latest board messages and asks again with
them (:class:`~bot.games.intents.History`). A board is compared with the newest board of its game, so an older
board can never override a newer one, and with what the bot stored (:mod:`bot.games.resuming.proof`,
:mod:`bot.games.resuming.evidence`): a board's ``custom_id`` travels through the client, so the players, options,
moves and states count it carries are never taken on trust. An ultimate board's reference (:class:`BoardRef`) resolves
only to a position the bot committed.
"""

from __future__ import annotations

from dataclasses import replace

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import NeedsHistory, Refusal
from bot.games.intents import Actor, History
from bot.games.match import BoardRef, Match
from bot.games.resuming import evidence as resume
from bot.games.resuming import refs
from bot.games.resuming.recovery import Recovery
from bot.games.sessions import Sessions
from bot.games.store import GameStore
from bot.records import RecordsUnavailableError

__all__ = ["Resuming"]


class Resuming:
    """The service's edge: before an intent runs, it makes the game the intent names one ``sessions`` holds (resumed
    with ``recovery`` from what ``store`` keeps), or says why it cannot; ``ai`` replays the bot's searches when a
    board must prove itself."""

    def __init__(self, sessions: Sessions, recovery: Recovery, ai: AI, store: GameStore | None) -> None:
        self.sessions = sessions
        self.recovery = recovery
        self.ai = ai
        self.store = store

    async def board(
        self, actor: Actor, board: Match | BoardRef, history: History | None, *, read: bool = False
    ) -> Match | Refusal | NeedsHistory:
        """The pressed ``board`` as a game on its message (a :class:`BoardRef` resolved with :meth:`_from_ref`, a
        private pad's placed on the board message the service holds: :meth:`_pad_board`), its game held in memory
        (resumed after a restart, as the evidence allows; by a ``read``, a look, without storing it), or why the
        press cannot act: ``ELSEWHERE`` when its game is held or stored in another channel than the press's,
        ``NOT_YOUR_GAME`` to a player not on ``board``, its game is over or another runs, the stored game or the
        board's proof refuses it, or the channel's history is needed first. The history and the evidence are read
        outside the channel's lock."""
        if self._elsewhere(actor, board):
            return Refusal(refusals.ELSEWHERE)
        pad = isinstance(board, BoardRef) and board.pad
        if isinstance(board, BoardRef):
            found = await self._from_ref(board, history)
            if not isinstance(found, Match):
                return found
            board = found
        if history is not None:
            history = await self._resolved(history)
        if pad:
            placed = self._pad_board(board, history)
            if not isinstance(placed, Match):
                return placed
            board = placed
        if not board.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        held = self.sessions.current(board.channel_id)
        if held is not None and held.game_id == board.game_id:
            return board
        not_held = self._not_running(board, held, history)
        if not_held is not None:
            return not_held
        evidence = await self._board_evidence(board, actor, history)
        async with self.sessions.hold(board.channel_id):
            held = self.sessions.current(board.channel_id)
            if held is not None and held.game_id == board.game_id:  # resumed by another intent meanwhile
                return board
            refused = self._resume_board(board, held, history, evidence, read=read)
        return board if refused is None else refused

    async def channel(
        self, actor: Actor, history: History | None, *, read: bool = False
    ) -> Refusal | NeedsHistory | None:
        """None when the channel's game (for a command) is held in memory, resumed after a restart from the stored
        running game, else from the newest board as the evidence allows (by a ``read``, a hint, without storing it);
        otherwise why there is none."""
        if self.sessions.current(actor.channel_id) is not None:
            return None
        if history is None:
            return NeedsHistory()
        history = await self._resolved(history)
        evidence = await self._channel_evidence(actor, history)
        async with self.sessions.hold(actor.channel_id):
            found = self._channel_game(actor, history, evidence, read=read)
        return None if isinstance(found, Match) else found

    async def opening(self, channel_id: int, history: History | None) -> Refusal | NeedsHistory | None:
        """None when a new game may be opened in ``channel_id`` as far as a previous process is concerned; else the
        channel's dormant game (:mod:`bot.games.resuming.recovery`) holds it: it is resumed on its board from
        ``history`` and linked to, or the history is needed first."""
        if self.sessions.current(channel_id) is not None or self.sessions.dormant(channel_id) is None:
            return None
        if history is None:
            return NeedsHistory()
        history = await self._resolved(history)  # an ultimate board's ref names the game it shows
        async with self.sessions.hold(channel_id):
            if self.sessions.current(channel_id) is not None:
                return None
            return self.recovery.woken_refusal(channel_id, history)

    def _elsewhere(self, actor: Actor, board: Match | BoardRef) -> bool:
        """True when ``board``'s game is another channel's: the press is not in the board's channel, or the game is
        held in memory (running, dormant, ended) in another channel than the one the press's channel holds."""
        if board.channel_id != actor.channel_id:
            return True
        held = self.sessions.current(board.channel_id)
        here = held is not None and held.game_id == board.game_id
        return not here and self.sessions.elsewhere(board.game_id, board.channel_id)

    def _pad_board(self, board: Match, history: History | None) -> Match | Refusal:
        """``board``, read from a private pad's button, on its game's board message: the one the game held in memory
        is on, else (after a restart) the newest board of the game in the channel's history; never a message id
        from the client. A board on no message (a repost not placed yet, a history without it) is refused."""
        game = self.sessions.current(board.channel_id)
        if game is not None and game.game_id == board.game_id:
            if game.message_id is None:
                return Refusal(refusals.BOARD_CHANGED)
            return board.at(game.message_id)
        newest = None if history is None else history.newest(board.game_id)
        if newest is None or newest.message_id is None:
            return Refusal(refusals.NO_HISTORY)
        return board.at(newest.message_id)

    async def _board_evidence(
        self, board: Match, actor: Actor, history: History | None
    ) -> resume.Evidence | Refusal | None:
        """What a board pressed after a restart is checked against (looked up outside the channel's lock), or None
        before the history is read."""
        if history is None:
            return None
        return await resume.evidence(
            self.store, self.ai, resume.candidate(board, history.newest(board.game_id)), actor.user_id
        )

    async def _channel_evidence(self, actor: Actor, history: History) -> resume.Evidence | Refusal | None:
        """What a command after a restart resumes: the channel's stored running game, or else the newest board's
        evidence (looked up outside the channel's lock)."""
        if self.store is not None:
            try:
                running = await self.store.in_channel(actor.channel_id)
            except RecordsUnavailableError:
                return Refusal(refusals.RECORDS_DOWN)
            if running is not None:
                return resume.Evidence(channel_game=running)
        newest = history.newest()
        return None if newest is None else await resume.evidence(self.store, self.ai, newest, actor.user_id)

    def _resume_board(
        self,
        board: Match,
        held: Match | None,
        history: History | None,
        evidence: resume.Evidence | Refusal | None,
        *,
        read: bool,
    ) -> Refusal | NeedsHistory | None:
        """Resume the game of ``board``, which the bot does not hold (``held`` is the channel's game, if any), as
        ``evidence`` allows (None; stored unless it is a ``read``), or say why not. Under the channel's lock."""
        channel_id = board.channel_id
        elsewhere = self._not_running(board, held, history)
        if elsewhere is not None:
            return elsewhere
        assert history is not None
        dormant = self.sessions.dormant(channel_id)
        if dormant is not None and dormant.game_id != board.game_id:  # the channel's stored game is another
            busy = self.recovery.woken_refusal(channel_id, history)
            if busy is not None:
                return busy
        newest = history.newest(board.game_id)
        if newest is not None and newest.over:
            return Refusal(refusals.GAME_OVER)
        if newest is not None and newest.message_id != board.message_id:
            return Refusal(refusals.STALE_BOARD, {"link": newest.jump_url})
        latest = history.newest()
        if latest is not None and latest.game_id != board.game_id:  # a newer game was played here since
            over = latest.over or self.sessions.is_finished(latest.game_id)
            return Refusal(refusals.GAME_OVER) if over else refusals.stale(latest)
        # the message may have changed since the press's copy of it was rendered: check what it shows now
        checked = resume.checked(board, evidence, newest)
        if not isinstance(checked, Match):
            self._recorded_end(evidence, newest or board, history)
            return checked
        self.recovery.resume(checked, store=not read)
        return None

    def _channel_game(
        self, actor: Actor, history: History, evidence: resume.Evidence | Refusal | None, *, read: bool
    ) -> Match | Refusal | NeedsHistory:
        """The channel's game for a command (after a restart: the stored running game, else the newest board as
        ``evidence`` allows; stored unless it is a ``read``), or why there is none. Under the channel's lock."""
        game = self.sessions.current(actor.channel_id)
        if game is not None:
            return game
        woken = self.recovery.wake(actor.channel_id, history)
        if woken is not None:
            return woken
        if isinstance(evidence, Refusal):
            return evidence
        if evidence is not None and evidence.channel_game is not None:
            stored = evidence.channel_game
            if self.sessions.is_finished(stored.game_id):
                return Refusal(refusals.NO_GAME)
            board = history.newest(stored.game_id)
            if board is not None and board.over:  # its end was shown, but a crash lost the writes that record it
                return Refusal(refusals.NO_GAME)
            return self.recovery.resume(stored.at(board.message_id if board is not None else None), store=not read)
        if not history.readable:
            return Refusal(refusals.NO_HISTORY)
        newest = history.newest()
        if newest is None or newest.over:
            return Refusal(refusals.NO_GAME)
        if self.sessions.is_finished(newest.game_id):
            self.recovery.show_end(newest.game_id, history, newest.message_id)
            return Refusal(refusals.NO_GAME)
        checked = resume.checked(newest, evidence)
        if not isinstance(checked, Match):
            self._recorded_end(evidence, newest, history)
            return checked
        return self.recovery.resume(checked, store=not read)

    def _recorded_end(self, evidence: resume.Evidence | Refusal | None, shown: Match, history: History | None) -> None:
        """When ``evidence`` says ``shown``'s game is recorded as finished but its board does not show the end (it
        ended while nobody saw it, before a restart), edit the board to show the recorded end, once."""
        if not isinstance(evidence, resume.Evidence) or evidence.stored.finished is None or shown.over:
            return
        if self.sessions.is_finished(shown.game_id):
            return
        ended = replace(evidence.stored.finished, mode=shown.mode, locale=shown.locale)
        self.sessions.ended_unseen(ended)
        self.recovery.show_end(ended.game_id, history, shown.message_id)

    async def _from_ref(self, ref: BoardRef, history: History | None) -> Match | Refusal | NeedsHistory:
        """The board a :class:`BoardRef` names, as a game: the game held in memory, or after a restart the one stored
        as running, cut to the ref's version (a prefix of the moves the bot committed), or why there is none. A
        version the bot never reached is refused (``BOARD_MISMATCH``); a ref nothing stored vouches for is
        ``UNVERIFIED`` (an ultimate board cannot prove itself)."""
        game = self.sessions.current(ref.channel_id)
        if game is not None and game.game_id == ref.game_id:
            return refs.ref_view(ref, game)
        elsewhere = self._not_running(ref, game, history)
        if elsewhere is not None:
            return elsewhere
        if self.store is None:
            return Refusal(refusals.UNVERIFIED)
        try:
            stored = await self.store.stored(ref.game_id, ref.channel_id)
        except RecordsUnavailableError:
            return Refusal(refusals.RECORDS_DOWN)
        if stored.elsewhere:
            return Refusal(refusals.ELSEWHERE)
        if stored.finished is not None:
            return Refusal(refusals.GAME_OVER)
        if stored.running is None or stored.running.variant != ref.variant:
            return Refusal(refusals.UNVERIFIED)
        return refs.ref_view(ref, stored.running)

    def _not_running(
        self, board: Match | BoardRef, game: Match | None, history: History | None
    ) -> Refusal | NeedsHistory | None:
        """Why a press on ``board``, whose game is not the one running in its channel (``game``, if any), cannot act
        at once: its game is over (``GAME_OVER``), another game runs (stale), or after a restart the channel's history
        is needed; None when the history is there to resume the board's game from."""
        if board.over or self.sessions.is_finished(board.game_id):
            if not board.over:  # it ended unseen: show its end on its board
                self.recovery.show_end(board.game_id, history, board.message_id)
            return Refusal(refusals.GAME_OVER)
        if game is not None:
            return refusals.stale(game)
        return NeedsHistory() if history is None else None

    async def ended_ref(self, ref: BoardRef) -> Match | Refusal:
        """The ended game a Rematch button's :class:`BoardRef` names (this process's memory or the records), or why
        there is none (``ELSEWHERE``: it is another channel's)."""
        if self.sessions.elsewhere(ref.game_id, ref.channel_id):
            return Refusal(refusals.ELSEWHERE)
        ended = self.sessions.ended(ref.game_id)
        if ended is None and self.store is not None:
            try:
                stored = await self.store.stored(ref.game_id, ref.channel_id)
            except RecordsUnavailableError:
                return Refusal(refusals.RECORDS_DOWN)
            if stored.elsewhere:
                return Refusal(refusals.ELSEWHERE)
            ended = stored.finished
        if ended is None or ended.variant != ref.variant or ended.ply != ref.version:
            return Refusal(refusals.UNVERIFIED)
        return ended.at(ref.message_id)

    async def _resolved(self, history: History) -> History:
        """``history`` with every :class:`BoardRef` replaced by the game it names (:meth:`_from_ref`); a ref that
        names nothing the bot holds or stored stands as a board whose game is over (it can resume nothing)."""
        if all(isinstance(board, Match) for board in history.boards):
            return history
        boards: list[Match | BoardRef] = []
        for board in history.boards:
            if isinstance(board, BoardRef):
                found = await self._from_ref(board, history)
                board = found if isinstance(found, Match) else refs.unresolved(board)
            boards.append(board)
        return History(tuple(boards), history.readable)
