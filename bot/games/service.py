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
from dataclasses import replace

from bot.games import refusals, rules
from bot.games.answers import Answer, Chosen, Hinted, NeedsHistory, Posted, Refusal, Shown, VariantHinted
from bot.games.game import BoardRef, Game
from bot.games.intents import Actor, History, Player
from bot.games.openings import MINIMAX_REPLY_STATES, Openings, minimax_estimate
from bot.games.pool import Ticket

log = logging.getLogger(__name__)

__all__ = ["MINIMAX_REPLY_STATES", "Actor", "GameService", "History", "Player", "minimax_estimate"]


class GameService(Openings):
    """The running games, one per channel, and the rules of play. No ``discord`` here.

    ``on_finished(game)`` is called once per game when it ends, for any reason (the records store), except for a
    game resumed from a board nothing vouched for (``verified`` False), which is never recorded;
    ``on_expired(game)`` when a deadline ends a game or a challenge, so the caller can update its message;
    ``on_started(game)`` (an attribute) when a game or a challenge is opened (the metrics).
    ``on_bot_move(answer)`` delivers the bot's move on a slow variant (:class:`BotMoved`), committed after the
    interaction that made the player's move was answered: show it as an edit of its board (called outside every
    lock, once the board's message id is known). ``store`` keeps the running games, so boards pressed after a
    restart are checked against them, and :meth:`recover` takes over, at start-up, the games a previous process
    stored (:mod:`bot.games.recovery`).

    On 3x3 the bot's reply is searched under the channel's lock (under a millisecond; plain minimax up to ~0.2 s in
    a worker) and committed with the player's move. On every other variant the player's move is committed and
    answered at once, with the board saying the bot is thinking (``Game.thinking``), and the search runs in the
    AI's :class:`~bot.games.pool.SearchPool` outside the lock; its move is committed under the lock only if the
    game is still at the position searched (not resigned, timed out or moved on). A failed search is run once more,
    then replaced by a cheap fallback move; if none can be had the game ends ``abandoned`` (through
    ``on_expired``): see :mod:`bot.games.bot_moves`.
    """

    async def press(self, actor: Actor, board: Game | BoardRef, cell: int, *, history: History | None = None) -> Answer:
        """A press on ``cell`` (0-based, whole board) of the board message ``board`` (as its buttons encode it: the
        game, or on ultimate a :class:`BoardRef`; with its message id).

        Returns :class:`Shown` (the move and, on 3x3, the bot's reply; on a slow variant the bot is thinking and
        :class:`BotMoved` follows), a :class:`Refusal`, or :class:`NeedsHistory` when the game must be resumed
        after a restart. A press on a private pad (``board.pad``) acts on the board message the service holds for the
        game, and its :class:`Shown` says so (``pad``).
        """
        return await self._move(actor, cell, history, board)

    async def choose(self, actor: Actor, ref: BoardRef, board: int | None, *, history: History | None = None) -> Answer:
        """An ultimate free choice on the board ``ref`` names (its message, or a private pad): the player to move looks
        at small board ``board`` (0-8), or at the open small boards again (``None``). Never a move: nothing is
        committed and the version does not change (after a restart the game is resumed, as for a press).

        Returns :class:`Chosen`, a :class:`Refusal` (not the actor's game or turn, the board changed or is not a
        free choice, the small board is decided), or :class:`NeedsHistory` when the game must be resumed first.
        """
        game = await self._to_move(actor, history, ref)
        if not isinstance(game, Game):
            return game
        if getattr(game.state, "forced_board", 0) is not None:  # not ultimate, or the last move chose the board
            return Refusal(refusals.BOARD_CHANGED)
        if board is not None and board not in game.state.playable_boards:
            return Refusal(refusals.CLOSED_BOARD)
        return Chosen(game, board, on_pad=ref.pad)

    async def move(self, actor: Actor, cell: int, *, history: History | None = None) -> Answer:
        """``/ttt move``: play ``cell`` (0-based over the whole board) in the channel's game; the board is posted again
        (:class:`Posted`; on a slow variant :class:`BotMoved` follows once it is placed)."""
        return await self._move(actor, cell, history, None)

    async def _move(self, actor: Actor, cell: int, history: History | None, board: Game | BoardRef | None) -> Answer:
        """The player's move on ``cell``: from a board's button (``board`` given: :class:`Shown` on that message) or
        from ``/ttt move`` (the board is posted again: :class:`Posted`)."""
        async with self._acting_on(actor, history, board) as found:
            if not isinstance(found, Game):
                return found
            played = await self._play(found, cell, actor)
            if isinstance(played, Refusal):
                return played
            after, ticket = played
            if board is not None:  # a press on the board message the service holds, or on a private pad
                after = after.at(found.message_id)
                pad = isinstance(board, BoardRef) and board.pad
                return self._commit(after, rearm=True, ticket=ticket) or Shown(after, pad=pad)
            after = after.reposted()
            return self._commit(after, rearm=True, ticket=ticket) or Posted(after, retired=found.shown)

    async def resign(
        self, actor: Actor, *, board: Game | BoardRef | None = None, history: History | None = None
    ) -> Answer:
        """Resign the channel's game: from ``/ttt resign`` (:class:`Posted`), or from a board's Resign button
        (``board`` given: :class:`Shown` on that message). Allowed while the bot is thinking: its search's move is
        then dropped."""
        async with self._acting_on(actor, history, board) as found:
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
        async with self._acting_on(actor, history) as found:
            if not isinstance(found, Game):
                return found
            game = found
            if game.status == "challenge":
                return self._busy(game)
            moved = game.reposted()
            return self._commit(moved) or Posted(moved, retired=game.shown)

    async def hint(self, actor: Actor, *, history: History | None = None) -> Answer:
        """``/ttt hint``: for the player to move, privately: on 3x3 every free cell's outcome (:class:`Hinted`); on
        4x4 and 5x5 every free cell's exact value, on ultimate the search's three best moves, an estimate
        (:class:`VariantHinted`). A 5x5 position before 4 marks is refused (``HINT_TOO_EARLY``).

        The analysis runs after the lock is released, in the hint executor.
        """
        game = await self._to_move(actor, history)
        if not isinstance(game, Game):
            return game
        if game.ply < game.kind.hint_from:
            return Refusal(refusals.HINT_TOO_EARLY, {"marks": game.kind.hint_from})
        hint = await self.ai.hint(game)
        return Hinted(game, hint) if game.kind.inline else VariantHinted(game, hint)

    async def _to_move(
        self, actor: Actor, history: History | None, board: BoardRef | None = None
    ) -> Game | Refusal | NeedsHistory:
        """The game an intent of the player to move acts on (the channel's, or the one ``board`` names; resumed after
        a restart), or why there is none or it is not ``actor``'s turn. Decided under the channel's lock."""
        async with self._acting_on(actor, history, board) as found:
            if not isinstance(found, Game):
                return found
            return self._turn_refusal(found, actor.user_id) or found

    def _turn_refusal(self, game: Game, user_id: int) -> Refusal | None:
        if game.status == "challenge":
            return self._busy(game)
        if not game.is_player(user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        to_move = game.player_id(game.to_move)
        if to_move != user_id:
            return Refusal(refusals.BOT_THINKING if to_move is None else refusals.NOT_YOUR_TURN)
        return None

    @staticmethod
    def _cell_refusal(game: Game, cell: int) -> Refusal | None:
        if game.variant == "3x3":
            return Refusal(refusals.CELL_TAKEN) if game.state[cell] is not None else None
        return rules.cell_refusal(game, cell)

    async def _play(self, game: Game, cell: int, actor: Actor) -> tuple[Game, Ticket | None] | Refusal:
        """The game after the player's move and, on 3x3, the bot's reply; on a slow variant whose bot must answer,
        the search's admission ticket (the search starts when the move is committed), or why the move is refused
        (not the actor's turn, the cell not playable, ``SEARCH_BUSY``)."""
        refusal = self._turn_refusal(game, actor.user_id) or self._cell_refusal(game, cell)
        if refusal is not None:
            return refusal
        after = game.play(cell, locale=actor.locale)
        log.debug("move: channel=%s game=%s user=%s cell=%d", game.channel_id, game.game_id, actor.user_id, cell)
        if not after.ai_to_move:
            return after, None
        if after.variant == "3x3":
            return await self._ai_reply(after), None
        ticket = self.ai.pool.admit()
        return Refusal(refusals.SEARCH_BUSY) if ticket is None else (after, ticket)
