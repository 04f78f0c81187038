"""The moves of play: a press on a board's button, an ultimate free choice, ``/ttt move``, a resignation,
``/ttt board`` and ``/ttt hint``, each decided and committed in memory under the channel's lock.

On 3x3 the bot's reply is searched under the channel's lock (under a millisecond; plain minimax up to ~0.2 s in a
worker) and committed with the player's move. On every other variant the player's move is committed and answered at
once, with the board saying the bot is thinking (``Match.thinking``), and the search runs in the AI's
:class:`~bot.games.pool.SearchPool` outside the lock (:mod:`bot.games.bot_moves`).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import Answer, Chosen, Hinted, Posted, Refusal, Shown, Thinking
from bot.games.bot_moves import BotMoves
from bot.games.intents import Actor
from bot.games.live import same_setup
from bot.games.match import Match
from bot.games.pool import Ticket
from bot.games.sessions import Sessions
from engine import Mark

log = logging.getLogger(__name__)

__all__ = ["Play"]


class Play:
    """The service's part that plays the players' moves in the games ``sessions`` holds (a game the bot does not hold
    is resumed before, at the edge: :mod:`bot.games.resuming`): it commits with ``moves`` (which starts the bot's
    search on a slow variant), and asks ``ai`` for hints."""

    def __init__(self, sessions: Sessions, moves: BotMoves, ai: AI) -> None:
        self.sessions = sessions
        self.moves = moves
        self.ai = ai

    async def press(self, actor: Actor, board: Match, cell: int, *, pad: bool = False) -> Answer:
        """A press on ``cell`` (0-based, whole board) of the board message ``board`` (the game as its buttons show
        it, on its message).

        Returns :class:`Shown` (the move and, on 3x3, the bot's reply; on a slow variant the bot is thinking and
        :class:`BotMoved` follows) or a :class:`Refusal`. A press on a private pad (``pad``; ``board`` is then on the
        board message the service holds) says so in its :class:`Shown`.
        """
        return await self._move(actor, cell, board, pad=pad)

    async def choose(self, actor: Actor, ref: Match, board: int | None, *, pad: bool = False) -> Answer:
        """An ultimate free choice on the board ``ref`` (on its message, or a private pad's: ``pad``): the player to
        move looks at small board ``board`` (0-8), or at the open small boards again (``None``). Never a move: nothing
        is committed and the version does not change.

        Returns :class:`Chosen` or a :class:`Refusal` (not the actor's game or turn, the board changed or is not a
        free choice, the small board is decided).
        """
        game = await self._to_move(actor, ref)
        if not isinstance(game, Match):
            return game
        kind, state = game.kind, game.state
        open_blocks = kind.open_blocks(state)
        if not open_blocks or kind.forced_block(state) is not None:  # no small boards, or not a free choice
            return Refusal(refusals.BOARD_CHANGED)
        if board is not None and board not in open_blocks:
            return Refusal(refusals.CLOSED_BOARD)
        return Chosen(game, board, on_pad=pad)

    async def move(self, actor: Actor, cell: int) -> Answer:
        """``/ttt move``: play ``cell`` (0-based over the whole board) in the channel's game; the board is posted again
        (:class:`Posted`; on a slow variant :class:`BotMoved` follows once it is placed)."""
        return await self._move(actor, cell, None)

    async def _move(self, actor: Actor, cell: int, board: Match | None, *, pad: bool = False) -> Answer:
        """The player's move on ``cell``: from a board's button (``board`` given: :class:`Shown` on that message) or
        from ``/ttt move`` (the board is posted again: :class:`Posted`)."""
        async with self.sessions.acting_on(actor.channel_id, board) as found:
            if not isinstance(found, Match):
                return found
            played = await self._play(found, cell, actor)
            if isinstance(played, Refusal):
                return played
            after, ticket = played
            if board is not None:  # a press on the board message the service holds, or on a private pad
                after = after.at(found.message_id)
                return self.moves.commit(after, rearm=True, ticket=ticket) or Shown(after, pad=pad)
            after = after.reposted()
            return self.moves.commit(after, rearm=True, ticket=ticket) or Posted(after, retired=found.shown)

    async def resign(self, actor: Actor, *, board: Match | None = None) -> Answer:
        """Resign the channel's game: from ``/ttt resign`` (:class:`Posted`), or from a board's Resign button
        (``board`` given: :class:`Shown` on that message). Allowed while the bot is thinking: its search's move is
        then dropped."""
        async with self.sessions.acting_on(actor.channel_id, board) as found:
            if not isinstance(found, Match):
                return found
            game = found
            if game.status == "challenge":
                return refusals.busy(game)
            mark = game.mark_of(actor.user_id)
            if mark is None:
                return Refusal(refusals.NOT_YOUR_GAME)
            ended = replace(game.resign(mark), locale=actor.locale)
            if board is not None:
                return self.moves.commit(ended) or Shown(ended)
            ended = ended.reposted()
            return self.moves.commit(ended) or Posted(ended, retired=game.shown)

    async def repost(self, actor: Actor) -> Answer:
        """``/ttt board``: post the channel's board again at the bottom (:class:`Posted`). Anyone may; the
        turn's deadline is left as it was."""
        async with self.sessions.acting_on(actor.channel_id) as found:
            if not isinstance(found, Match):
                return found
            game = found
            if game.status == "challenge":
                return refusals.busy(game)
            moved = game.reposted()
            return self.moves.commit(moved) or Posted(moved, retired=game.shown)

    async def hint(self, actor: Actor) -> Answer:
        """``/ttt hint``: for the player to move, privately (:class:`Hinted`): on 3x3, 4x4 and 5x5 every free cell's
        exact value, on ultimate the search's three best moves, an estimate. A position before the marks from which
        its game's hint is fast (:meth:`engine.Variant.hint_marks`: 5x5, 4; a position an opening book answers, 0) is
        refused (``HINT_TOO_EARLY``), and so is a position its game gives no analysis of (``NO_HINT``: a game with
        neither exact values nor a hint of its own, :meth:`engine.Variant.hint`).

        The analysis runs after the lock is released, in the hint executor.
        """
        game = await self._to_move(actor)
        if not isinstance(game, Match):
            return game
        if game.ply < (marks := game.kind.hint_marks(game.state)):
            return Refusal(refusals.HINT_TOO_EARLY, {"marks": marks})
        try:
            hint = await self.ai.hint(game)
        except ValueError:
            return Refusal(refusals.NO_HINT)
        return Hinted(game, hint)

    async def explain(self, actor: Actor, board: Match, *, hint: bool) -> Answer:
        """How did it think? The search behind the bot's last move on ``board`` (``hint``: the search in ``board``'s
        position, for the player to move, as a hint's), recomputed from the game the bot holds and drawn in the
        actor's language, privately (:class:`Thinking`).

        ``board`` comes from a button, so it is trusted only as far as the game the actor's channel holds agrees: only
        that game's players may look (``NOT_YOUR_GAME``, whatever players the button names), the board must name its
        players and options, its moves must be moves of that game, and the move explained the bot's. Refused with
        ``NO_THINKING`` otherwise, ``NOT_REPLAYABLE`` in a position whose search cannot be recomputed
        (:meth:`engine.Variant.explains`). The search runs after any lock, in the hint executor.
        """
        found = self.explained(actor, board.game_id, tuple(board.moves), hint=hint, board=board)
        if isinstance(found, Refusal):
            return found
        held, cells, played = found
        thought = await self.ai.think(held, cells, played, actor.locale)
        return Thinking(held, thought, played, cells)

    def explained(
        self, actor: Actor, game_id: str, moves: tuple[int, ...], *, hint: bool, board: Match | None = None
    ) -> tuple[Match, tuple[int, ...], int | None] | Refusal:
        """The position a "How did it think?" (or its stepper) names, checked against the game held in ``actor``'s
        channel: the game, the cells before the search and the bot's move explained (``None`` with ``hint``). Only
        that game's players may look (``NOT_YOUR_GAME``, whatever players a button names); a pressed ``board`` must
        name its players and options. ``moves`` come from a button, so they must be moves of that game and the move
        explained the bot's: refused with ``NO_THINKING`` otherwise, ``NOT_REPLAYABLE`` where the search cannot be
        recomputed."""
        held = self.sessions.current(actor.channel_id)
        if held is None or held.game_id != game_id:
            return Refusal(refusals.NO_THINKING)
        if not held.is_player(actor.user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        if (board is not None and not same_setup(board, held)) or tuple(held.moves[: len(moves)]) != moves:
            return Refusal(refusals.NO_THINKING)
        if hint:
            cells, played = moves, None
        elif moves and held.player_id(Mark.X if len(moves) % 2 else Mark.O) is None:  # the last mover is the bot
            cells, played = moves[:-1], moves[-1]
        else:
            return Refusal(refusals.NO_THINKING)
        if not held.kind.explains(cells):
            return Refusal(refusals.NOT_REPLAYABLE)
        return held, cells, played

    async def _to_move(self, actor: Actor, board: Match | None = None) -> Match | Refusal:
        """The game an intent of the player to move acts on (the channel's, or the one ``board`` shows), or why there
        is none or it is not ``actor``'s turn. Decided under the channel's lock."""
        async with self.sessions.acting_on(actor.channel_id, board) as found:
            if not isinstance(found, Match):
                return found
            return self._turn_refusal(found, actor.user_id) or found

    def _turn_refusal(self, game: Match, user_id: int) -> Refusal | None:
        if game.status == "challenge":
            return refusals.busy(game)
        if not game.is_player(user_id):
            return Refusal(refusals.NOT_YOUR_GAME)
        to_move = game.player_id(game.to_move)
        if to_move != user_id:
            return Refusal(refusals.BOT_THINKING if to_move is None else refusals.NOT_YOUR_TURN)
        return None

    async def _play(self, game: Match, cell: int, actor: Actor) -> tuple[Match, Ticket | None] | Refusal:
        """The game after the player's move on ``cell`` (on a game played by column, any cell of a column plays the
        cell its disc falls to: :meth:`engine.Variant.move_at`) and, on 3x3, the bot's reply; on a slow variant whose
        bot must answer, the search's admission ticket (the search starts when the move is committed), or why the move
        is refused (not the actor's turn, the cell not playable, ``SEARCH_BUSY``)."""
        cell = game.kind.move_at(game.state, cell)  # a column's cell: where its disc falls
        refusal = self._turn_refusal(game, actor.user_id) or refusals.cell_refusal(game, cell)
        if refusal is not None:
            return refusal
        after = game.play(cell, locale=actor.locale)
        log.debug("move: channel=%s game=%s user=%s cell=%d", game.channel_id, game.game_id, actor.user_id, cell)
        return await self.moves.answer(after)
