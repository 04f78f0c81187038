"""Resuming after a restart: the service knows no games, so an intent about a channel it knows nothing of returns
:class:`~bot.games.answers.NeedsHistory`; the caller reads the channel's latest board messages and asks again with
them (:class:`~bot.games.intents.History`). A board is compared with the newest board of its game, so an older
board can never override a newer one, and with what the bot stored (:mod:`bot.games.resuming.proof`,
:mod:`bot.games.resuming.evidence`): a board's ``custom_id`` travels through the client, so the players, options,
moves and states count it carries are never taken on trust. An ultimate board's reference (:class:`BoardRef`) resolves
only to a position the bot committed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import NeedsHistory, Refusal
from bot.games.intents import Actor, History
from bot.games.match import BoardRef, Match
from bot.games.resuming import evidence as resume
from bot.games.resuming import proof, refs
from bot.games.resuming.recovery import Recovery
from bot.games.sessions import Sessions
from bot.records import RecordsUnavailableError

__all__ = ["Resuming"]


class Resuming:
    """The service's part that finds the game an intent acts on in ``sessions``, resuming it after a restart with
    ``recovery``; ``ai`` replays the bot's searches when a board must prove itself."""

    def __init__(self, sessions: Sessions, recovery: Recovery, ai: AI) -> None:
        self.sessions = sessions
        self.recovery = recovery
        self.ai = ai

    @asynccontextmanager
    async def acting_on(
        self, actor: Actor, history: History | None, board: Match | BoardRef | None = None
    ) -> AsyncIterator[Match | Refusal | NeedsHistory]:
        """Hold the channel's lock over the game an intent acts on: the one on the pressed ``board`` (a game, or a
        :class:`BoardRef` resolved with :meth:`_from_ref`), or the channel's (``board`` None). Yields the game, or
        why there is none (the refusal ``NOT_YOUR_GAME`` to a player not on ``board`` and a ref that does not
        resolve are yielded without the lock). The history and the evidence are read before the lock is taken. A
        private pad's ref acts on the board message the service holds (:meth:`_pad_board`)."""
        pad = isinstance(board, BoardRef) and board.pad
        if isinstance(board, BoardRef):
            found = await self._from_ref(board, history)
            if not isinstance(found, Match):
                yield found
                return
            board = found
        if history is not None:
            history = await self.resolve_history(history)
        if pad and board is not None:
            placed = self._pad_board(board, history)
            if not isinstance(placed, Match):
                yield placed
                return
            board = placed
        if board is not None and not board.is_player(actor.user_id):
            yield Refusal(refusals.NOT_YOUR_GAME)
            return
        if board is None:
            evidence = await self._channel_evidence(actor, history)
        else:
            evidence = await self._board_evidence(board, actor, history)
        async with self.sessions.locks.hold(actor.channel_id):
            if board is None:
                yield self._channel_game(actor, history, evidence)
            else:
                yield self._board_game(board, history, evidence)

    def _pad_board(self, board: Match, history: History | None) -> Match | Refusal:
        """``board``, read from a private pad's button, on its game's board message: the one the game held in memory
        is on, else (after a restart) the newest board of the game in the channel's history; never a message id
        from the client. A board on no message (a repost not placed yet, a history without it) is refused."""
        game = self.sessions.games.get(board.channel_id)
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
        when the game is in memory or the history is not read yet."""
        game = self.sessions.games.get(board.channel_id)
        if history is None or (game is not None and game.game_id == board.game_id):
            return None
        return await resume.evidence(
            self.sessions.store, self.ai, resume.candidate(board, history.newest(board.game_id)), actor.user_id
        )

    async def _channel_evidence(self, actor: Actor, history: History | None) -> resume.Evidence | Refusal | None:
        """What a command after a restart resumes: the channel's stored running game, or else the newest board's
        evidence (looked up outside the channel's lock). None when a game is in memory or before the history."""
        if history is None or actor.channel_id in self.sessions.games:
            return None
        if self.sessions.store is not None:
            try:
                running = await self.sessions.store.in_channel(actor.channel_id)
            except RecordsUnavailableError:
                return Refusal(refusals.RECORDS_DOWN)
            if running is not None:
                return resume.Evidence(channel_game=running)
        newest = history.newest()
        return None if newest is None else await resume.evidence(self.sessions.store, self.ai, newest, actor.user_id)

    def _board_game(
        self, board: Match, history: History | None, evidence: resume.Evidence | Refusal | None = None
    ) -> Match | Refusal | NeedsHistory:
        """The running game a press on ``board`` acts on (resumed after a restart, as ``evidence`` allows), or why
        there is none."""
        channel_id = board.channel_id
        game = self.sessions.games.get(channel_id)
        if game is None or game.game_id != board.game_id:
            elsewhere = self._not_running(board, game, history)
            if elsewhere is not None:
                return elsewhere
            assert history is not None
            dormant = self.sessions.dormant.get(channel_id)
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
            game = self.recovery.resume(checked)
        if not proof.same_setup(board, game) or (board.moves == game.moves and board.ai_states != game.ai_states):
            return Refusal(refusals.BOARD_MISMATCH)
        if board.moves != game.moves:
            return refusals.changed(game, board)
        if game.message_id is None:  # a repost is on its way and this press beat its answer: adopt the message
            if board.message_id == game.retired:  # ...unless it is the board the repost replaces
                return refusals.stale(game)
            game = self.sessions.games[channel_id] = game.at(board.message_id)
        elif game.message_id != board.message_id:
            return refusals.stale(game)
        return game

    def _channel_game(
        self, actor: Actor, history: History | None, evidence: resume.Evidence | Refusal | None = None
    ) -> Match | Refusal | NeedsHistory:
        """The channel's game for a command (after a restart: the stored running game, else the newest board as
        ``evidence`` allows), or why there is none."""
        game = self.sessions.games.get(actor.channel_id)
        if game is not None:
            return game
        if history is None:
            return NeedsHistory()
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
            return self.recovery.resume(stored.at(board.message_id if board is not None else None))
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
        return self.recovery.resume(checked)

    def _recorded_end(self, evidence: resume.Evidence | Refusal | None, shown: Match, history: History | None) -> None:
        """When ``evidence`` says ``shown``'s game is recorded as finished but its board does not show the end (it
        ended while nobody saw it, before a restart), edit the board to show the recorded end, once."""
        if not isinstance(evidence, resume.Evidence) or evidence.stored.finished is None or shown.over:
            return
        if self.sessions.is_finished(shown.game_id):
            return
        ended = replace(evidence.stored.finished, mode=shown.mode, locale=shown.locale)
        self.sessions.remember_finished(ended)
        self.sessions.unseen[ended.game_id] = ended
        self.recovery.show_end(ended.game_id, history, shown.message_id)

    async def _from_ref(self, ref: BoardRef, history: History | None) -> Match | Refusal | NeedsHistory:
        """The board a :class:`BoardRef` names, as a game: the game held in memory, or after a restart the one stored
        as running, cut to the ref's version (a prefix of the moves the bot committed), or why there is none. A
        version the bot never reached is refused (``BOARD_MISMATCH``); a ref nothing stored vouches for is
        ``UNVERIFIED`` (an ultimate board cannot prove itself)."""
        game = self.sessions.games.get(ref.channel_id)
        if game is not None and game.game_id == ref.game_id:
            return refs.ref_view(ref, game)
        elsewhere = self._not_running(ref, game, history)
        if elsewhere is not None:
            return elsewhere
        if self.sessions.store is None:
            return Refusal(refusals.UNVERIFIED)
        try:
            stored = await self.sessions.store.stored(ref.game_id, ref.channel_id)
        except RecordsUnavailableError:
            return Refusal(refusals.RECORDS_DOWN)
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
        """The ended game a Rematch button's :class:`BoardRef` names (this process's memory or the records)."""
        ended = self.sessions.finished.get(ref.game_id)
        if ended is None and self.sessions.store is not None:
            try:
                ended = (await self.sessions.store.stored(ref.game_id, ref.channel_id)).finished
            except RecordsUnavailableError:
                return Refusal(refusals.RECORDS_DOWN)
        if ended is None or ended.variant != ref.variant or ended.ply != ref.version:
            return Refusal(refusals.UNVERIFIED)
        return ended.at(ref.message_id)

    async def resolve_history(self, history: History | None) -> History | None:
        """``history`` with every :class:`BoardRef` replaced by the game it names (:meth:`_from_ref`); a ref that
        names nothing the bot holds or stored stands as a board whose game is over (it can resume nothing)."""
        if history is None or all(isinstance(board, Match) for board in history.boards):
            return history
        boards: list[Match | BoardRef] = []
        for board in history.boards:
            if isinstance(board, BoardRef):
                found = await self._from_ref(board, history)
                board = found if isinstance(found, Match) else refs.unresolved(board)
            boards.append(board)
        return History(tuple(boards), history.readable)
