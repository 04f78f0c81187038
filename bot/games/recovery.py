"""Taking over the running games a previous process stored (after a restart, a crash included).

At start-up, before any interaction, :meth:`Recovery.recover` reads every running game stored. A game whose turn's
deadline passed while the bot was down ends as abandoned, recorded once, as the timer would have ended it (its
record and the removal of its running row are one transaction: :meth:`bot.records.RecordsStore.save_many`). Every
other one is held *dormant*: the channel's game, known by what was stored, with the rest of its deadline armed. A
dormant game is resumed when an intent finds its board, ends as abandoned when its deadline passes first, and makes
starting another game in its channel refused as a game in memory does. The board of a game that ended unseen is
edited to show its end when it is next seen (:meth:`Recovery._show_end`).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.bot_moves import BotMoves
from bot.games.game import Game
from bot.games.intents import History

log = logging.getLogger("bot.games.service")  # the service's log, as before the split into modules

__all__ = ["Recovery"]


def _everywhere(game: Game) -> bool:
    return True


class Recovery(BotMoves):
    """The service's layer that takes over the running games a previous process stored."""

    async def recover(self, mine: Callable[[Game], bool] = _everywhere) -> int:
        """Take over the running games stored for the channels ``mine`` accepts (those of this process's shards):
        end as abandoned those whose deadline (the turn time-out after their last write) passed, hold the others
        dormant with the rest of their deadline. Call once, at start-up, before any interaction. Returns how many
        games ended.

        Raises:
            RecordsUnavailableError: the records database cannot be read.
        """
        if self.store is None:
            return 0
        now = datetime.datetime.now(datetime.UTC)
        timeout, ended = self._turns.seconds, 0
        for saved in sorted(await self.store.running_games(), key=lambda s: (len(s.game.game_id), s.game.game_id)):
            game = saved.game
            if not mine(game) or game.channel_id in self._games:
                continue
            left = timeout - (now - saved.updated_at).total_seconds()
            if timeout > 0 and left <= 0:
                self._end_dormant(game)
                ended += 1
                continue
            self._dormant[game.channel_id] = game  # the newest game of a channel wins (sorted by snowflake id)
            self._turns.arm(game.channel_id, game.game_id, left=left)
        log.info("recovered running games: %d dormant, %d ended as abandoned", len(self._dormant), ended)
        return ended

    def _end_dormant(self, game: Game) -> None:
        """End dormant ``game`` as abandoned (recorded once, as the turn's time-out does); its board is edited to show
        the end when next seen."""
        ended = game.end("abandoned")
        self._finish(ended)
        self._unseen[game.game_id] = ended

    async def _abandon(self, channel_id: int, game_id: str) -> None:
        """A turn's deadline passed: a dormant game's ends as abandoned, any other's as in :class:`ServiceCore`."""
        dormant = self._dormant.get(channel_id)
        if dormant is None or dormant.game_id != game_id:
            await super()._abandon(channel_id, game_id)
            return
        async with self._locks.hold(channel_id):
            if self._dormant.get(channel_id) is not dormant or channel_id in self._turns:
                return  # resumed (and re-armed) while this expiry waited for the lock
            del self._dormant[channel_id]
            self._end_dormant(dormant)
        log.info("dormant game %s abandoned: channel=%s", game_id, channel_id)

    def _wake(self, channel_id: int, history: History) -> Game | None:
        """The channel's dormant game, resumed on its newest board in ``history`` (on no message when the history
        has none); ``None`` when there is none, or its board shows it over (it then holds the channel no longer)."""
        dormant = self._dormant.get(channel_id)
        if dormant is None:
            return None
        board = history.newest(dormant.game_id)
        if board is not None and board.over:
            del self._dormant[channel_id]
            return None
        return self._resume(dormant.at(board.message_id if board is not None else None))

    def _woken_refusal(self, channel_id: int, history: History) -> Refusal | None:
        """Why an intent about another game than the channel's dormant one is refused: that game runs here (it is
        resumed on its board from ``history``, and linked to when the history shows it); None when none is dormant."""
        woken = self._wake(channel_id, history)
        if woken is None:
            return None
        if woken.jump_url is None:
            return Refusal(refusals.BUSY_UNPLACED)
        return Refusal(refusals.BUSY_GAME, {"link": woken.jump_url})

    def _show_end(self, game_id: str, history: History | None, message_id: int | None) -> None:
        """Edit the board of ``game_id``, which ended while nobody saw it (a deadline passed while the bot was down or
        while the game was dormant), to show its end: its newest board in ``history``, else message ``message_id``."""
        ended = self._unseen.get(game_id)
        newest = None if history is None else history.newest(game_id)
        target = newest.message_id if newest is not None else message_id
        if ended is None or target is None or self.on_expired is None:
            return
        del self._unseen[game_id]
        self.on_expired(ended.at(target))

    def _resume(self, game: Game) -> Game:
        """Make ``game`` its channel's game again. The dormant game keeps its deadline and its stored row; any other
        gets a fresh deadline and is stored (an unverified one, so that a later restart knows it). A game resumed
        with the bot to move gets its move (:meth:`_owed`)."""
        dormant = self._dormant.pop(game.channel_id, None)
        self._games[game.channel_id] = game
        if dormant is None or dormant.game_id != game.game_id or game.channel_id not in self._turns:
            self._turns.arm(game.channel_id, game.game_id)
        if self.store is not None and (dormant is None or dormant.game_id != game.game_id):
            self.store.save(game)
        if game.ai_to_move:  # a restart came between the player's move and the bot's
            self._owed(game)
        log.info("game resumed: channel=%s game=%s ply=%d", game.channel_id, game.game_id, game.ply)
        return game
