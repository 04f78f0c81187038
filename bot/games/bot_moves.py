"""The bot's moves: on 3x3 searched under the channel's lock (under a millisecond; plain minimax up to ~0.2 s in a
worker), on every other variant searched after the player's move was committed and answered, in the AI's
:class:`~bot.games.pool.SearchPool` outside every lock, and committed under the lock only if the game is still at
the position searched (not resigned, timed out or moved on). That move reaches the Discord layer as
:class:`~bot.games.answers.BotMoved` through ``on_bot_move``.
"""

from __future__ import annotations

import asyncio
import logging

from bot.games.answers import BotMoved, Refusal
from bot.games.core import ServiceCore
from bot.games.game import Game
from bot.games.pool import Ticket

log = logging.getLogger("bot.games.service")  # the service's log, as before the split into modules

__all__ = ["BotMoves"]


class BotMoves(ServiceCore):
    """The game service's core with the bot's moves."""

    @property
    def searches(self) -> int:
        """Bot searches of slow variants in flight."""
        return len(self._searches)

    async def settled(self) -> None:
        """Wait until no bot search is in flight (tests, shutdown)."""
        while self._searches:
            await asyncio.gather(*self._searches, return_exceptions=True)

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

    def _commit(self, game: Game, *, rearm: bool = False, ticket: Ticket | None = None) -> Refusal | None:
        """:meth:`ServiceCore._commit`, then, for ``ticket`` (a slow variant's admitted search), the bot's search of
        committed ``game`` starts in the background; the ticket is given back when nothing was committed."""
        refusal = super()._commit(game, rearm=rearm)
        if ticket is not None:
            if refusal is None and not game.over:
                self._search_later(game, ticket)
            else:
                self.ai.pool.release(ticket)
        return refusal

    def _search_later(self, game: Game, ticket: Ticket) -> None:
        """Start the bot's search for committed ``game`` (a slow variant, the bot to move) in the background."""
        task = asyncio.get_running_loop().create_task(self._bot_move(game, ticket), name=f"ttt-search-{game.game_id}")
        self._searches.add(task)
        task.add_done_callback(self._searches.discard)

    async def _bot_move(self, game: Game, ticket: Ticket) -> None:
        """Search ``game``'s bot move outside every lock, then commit it under the channel's lock if the game is
        still at the position searched, and deliver it (:class:`BotMoved`) once its board's message id is known."""
        try:
            move = await self.ai.variant_move(game, ticket)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot search failed: channel=%s game=%s ply=%d", game.channel_id, game.game_id, game.ply)
            return
        async with self._locks.hold(game.channel_id):
            current = self._games.get(game.channel_id)
            if current is None or current.game_id != game.game_id or current.moves != game.moves:
                log.info("bot move dropped: game %s moved on during the search", game.game_id)
                return
            after = current.with_ai(move)
            if self._commit(after, rearm=True) is not None:
                return
            log.debug(
                "ai move: channel=%s game=%s cell=%d states=%d elapsed_ms=%.1f",
                game.channel_id,
                game.game_id,
                move.cell,
                move.states,
                move.elapsed_ms,
            )
            if after.message_id is None:  # a new board is on its way: delivered when it is placed
                self._undelivered[after.channel_id] = BotMoved(after)
                return
        if self.on_bot_move is not None:
            self.on_bot_move(BotMoved(after))
