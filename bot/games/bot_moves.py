"""The bot's moves, one way for every game (:meth:`BotMoves.answer`): where the game answers within the callback's
budget (:attr:`bot.games.match.Match.inline`: 3x3, under a millisecond; plain minimax up to ~0.2 s in a worker)
searched under the channel's lock and committed with the player's move; otherwise searched after the player's move
was committed and answered, in the AI's :class:`~bot.games.pool.SearchPool` outside every lock, and committed under
the lock only if the game is still at the position searched (not resigned, timed out or moved on). That move reaches
the Discord layer as :class:`~bot.games.answers.BotMoved` through ``on_bot_move``.

A search in the pool that fails (it raised, or its worker died and broke the pool, which the pool then replaces) is
run once more; when that fails too, or when an inline search fails, the bot plays the game's cheap fallback move
computed in this process (:func:`bot.games.moves.fallback_move`), committed and delivered the same way. Only when
even that fails does the bot give up: the game ends as ``abandoned`` (no result: recorded as no one's loss) and is
shown through ``on_expired``, as when a turn's time runs out; a running game is never left waiting for a move that
cannot come.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import BotMoved, Refusal
from bot.games.hooks import Stage
from bot.games.match import EngineMove, Match
from bot.games.pool import Ticket
from bot.games.sessions import Sessions

log = logging.getLogger(__name__)

__all__ = ["BotMoves", "Stage"]


class BotMoves:
    """The service's part that plays the bot's moves in ``sessions`` with ``ai`` (its executors and search pool).
    ``on_search_failed(game, stage)`` (``sessions.hooks``) is called for each failed attempt at a bot's move."""

    def __init__(self, sessions: Sessions, ai: AI) -> None:
        self.sessions = sessions
        self.ai = ai
        self._searches: set[asyncio.Task[None]] = set()

    @property
    def searches(self) -> int:
        """Bot searches in flight in the background."""
        return len(self._searches)

    def close(self) -> None:
        """Cancel every bot search in flight (at shutdown)."""
        for task in self._searches:
            task.cancel()

    async def settled(self) -> None:
        """Wait until no bot search is in flight (tests, shutdown)."""
        while self._searches:
            await asyncio.gather(*self._searches, return_exceptions=True)

    async def answer(self, game: Match) -> tuple[Match, Ticket | None] | Refusal:
        """How the bot answers in ``game`` (uncommitted, under the channel's lock): nothing to do when it is not the
        bot's turn; where the game answers inline, ``game`` after the bot's move, searched now; otherwise ``game``
        with the ticket of its search in the pool (started when the game is committed: :meth:`commit`), or
        ``SEARCH_BUSY`` when the pool admits no more."""
        if not game.ai_to_move:
            return game, None
        if game.inline:
            return await self.reply(game), None
        ticket = self.ai.pool.admit()
        return Refusal(refusals.SEARCH_BUSY) if ticket is None else (game, ticket)

    async def reply(self, game: Match) -> Match:
        """``game`` after the bot's move, searched now; the game's fallback move if the search fails.

        Raises:
            Exception: the fallback failed too (the game is unchanged).
        """
        try:
            decision = await self.ai.move(game)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.error("bot search failed: channel=%s game=%s error=%r", game.channel_id, game.game_id, error)
            if self.sessions.hooks.on_search_failed is not None:
                self.sessions.hooks.on_search_failed(game, "search")
            decision = await self.ai.fallback_move(game)
        log.debug("ai move: channel=%s game=%s level=%d %r", game.channel_id, game.game_id, game.level, decision)
        return game.with_ai(decision)

    def commit(self, game: Match, *, rearm: bool = False, ticket: Ticket | None = None) -> Refusal | None:
        """:meth:`Sessions.commit`, then, for ``ticket`` (a slow variant's admitted search), the bot's search of
        committed ``game`` starts in the background; the ticket is given back when nothing was committed."""
        refusal = self.sessions.commit(game, rearm=rearm)
        if ticket is not None:
            if refusal is None and not game.over:
                self._search_later(game, ticket)
            else:
                self.ai.pool.release(ticket)
        return refusal

    def _search_later(self, game: Match, ticket: Ticket) -> None:
        """Start the bot's search for committed ``game`` (a slow variant, the bot to move) in the background."""
        self._background(self._bot_move(game, ticket), game)

    def owed(self, game: Match) -> None:
        """The bot owes a move in ``game``, resumed after a restart with the bot to move: search it in the background
        (where the game answers inline, as its reply is searched; otherwise in the pool, admitted even when the pool
        is full, with the smaller budget then), so that no resumed game waits for a move that never comes."""
        if game.inline:
            self._background(self._reply_later(game), game)
            return
        pool = self.ai.pool
        ticket = pool.admit() or pool.retry(Ticket(pool.reduced_budget_ms, True))  # never refused: it is owed
        self._search_later(game, ticket)

    def _background(self, work: Coroutine[Any, Any, None], game: Match) -> None:
        task = asyncio.get_running_loop().create_task(work, name=f"ttt-search-{game.game_id}")
        self._searches.add(task)
        task.add_done_callback(self._searches.discard)

    async def _reply_later(self, game: Match) -> None:
        """The bot's inline reply in resumed ``game``, searched outside the lock and played as a pool search's move
        is; if the search and its fallback fail, the bot gives up (:meth:`_give_up`)."""
        try:
            decision = (await self.reply(game)).last_ai
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.error("bot reply failed: channel=%s game=%s error=%r", game.channel_id, game.game_id, error)
            await self._give_up(game)
            return
        if decision is not None:
            await self._commit_bot_move(game, decision)

    async def _bot_move(self, game: Match, ticket: Ticket) -> None:
        """Search ``game``'s bot move outside every lock (once more if it fails, then the fallback), then commit it
        under the channel's lock if the game is still at the position searched, and deliver it (:class:`BotMoved`)
        once its board's message id is known; when no move could be had, the bot gives up (:meth:`_give_up`)."""
        move = await self._searched(game, ticket)
        if move is None:
            await self._give_up(game)
            return
        await self._commit_bot_move(game, move)

    async def _commit_bot_move(self, game: Match, move: EngineMove) -> None:
        """Commit the bot's ``move`` in ``game`` under the channel's lock if the game is still at the position
        searched, and deliver it (:class:`BotMoved`) once its board's message id is known."""
        sessions = self.sessions
        async with sessions.hold(game.channel_id):
            current = self._at_position(game)
            if current is None:
                log.info("bot move dropped: game %s moved on during the search", game.game_id)
                return
            after = current.with_ai(move)
            if sessions.commit(after, rearm=True) is not None:
                return
            if after.last_ai is not None:
                log.debug(
                    "ai move: channel=%s game=%s cell=%d states=%d elapsed_ms=%.1f",
                    game.channel_id,
                    game.game_id,
                    after.last_ai.cell,
                    after.last_ai.states,
                    after.last_ai.elapsed_ms,
                )
            if after.message_id is None:  # a new board is on its way: delivered when it is placed
                sessions.deliver_later(BotMoved(after))
                return
        if sessions.hooks.on_bot_move is not None:
            sessions.hooks.on_bot_move(BotMoved(after))

    def _at_position(self, game: Match) -> Match | None:
        """The channel's game if it is still ``game`` at the position searched, else ``None``."""
        current = self.sessions.current(game.channel_id)
        if current is None or current.game_id != game.game_id or current.moves != game.moves:
            return None
        return current

    async def _searched(self, game: Match, ticket: Ticket) -> EngineMove | None:
        """The bot's move in ``game``: the pool's search under ``ticket``, else its retry, else the fallback;
        ``None`` when all of them failed, or when the game moved on before a retry or a fallback (nothing to do)."""
        attempts: tuple[tuple[Stage, Callable[[], Awaitable[EngineMove]]], ...] = (
            ("search", lambda: self.ai.move(game, ticket)),
            ("retry", lambda: self.ai.move(game, self.ai.pool.retry(ticket))),
            ("fallback", lambda: self.ai.fallback_move(game)),
        )
        for stage, attempt in attempts:
            if stage != "search" and self._at_position(game) is None:
                log.info("bot move not tried again: game %s moved on after its search failed", game.game_id)
                return None
            try:
                return await attempt()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.log(
                    logging.WARNING if stage == "search" else logging.ERROR,
                    "bot %s failed: channel=%s game=%s variant=%s ply=%d error=%r",
                    stage,
                    game.channel_id,
                    game.game_id,
                    game.variant,
                    game.ply,
                    error,
                    exc_info=stage != "search",
                )
                if self.sessions.hooks.on_search_failed is not None:
                    self.sessions.hooks.on_search_failed(game, stage)
        return None

    async def _give_up(self, game: Match) -> None:
        """No move could be had for ``game``: if it is still at the position searched, it ends as ``abandoned``
        (no result, so nobody's loss in the records) and is shown through ``on_expired``."""
        sessions = self.sessions
        async with sessions.hold(game.channel_id):
            current = self._at_position(game)
            if current is None:
                return
            ended = current.end("abandoned")
            sessions.finish(ended)
        log.error("bot gave up: channel=%s game=%s ended as abandoned", game.channel_id, game.game_id)
        if sessions.hooks.on_expired is not None:
            sessions.hooks.on_expired(ended)
