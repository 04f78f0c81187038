"""Taking over the running games a previous process stored (after a restart, a crash included).

At start-up, before any interaction, :meth:`Recovery.recover` reads every running game stored. A game whose turn's
deadline passed while the bot was down ends as abandoned, recorded once, as the timer would have ended it (its
record and the removal of its running row are one transaction: :meth:`bot.records.RecordsStore.save_many`). Every
other one is held *dormant*: the channel's game, known by what was stored, with the rest of its deadline armed. A
dormant game is resumed when an intent finds its board, ends as abandoned when its deadline passes first, and makes
starting another game in its channel refused as a game in memory does. The board of a game that ended unseen is
edited to show its end when it is next seen (:meth:`Recovery.show_end`).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.bot_moves import BotMoves
from bot.games.intents import History
from bot.games.match import Match
from bot.games.sessions import Sessions
from bot.games.store import GameStore

log = logging.getLogger(__name__)

__all__ = ["Recovery", "everywhere"]


def everywhere(game: Match) -> bool:
    """Every game is this process's (one process serves every shard)."""
    return True


class Recovery:
    """The service's part that takes over the running games a previous process stored, and makes a game its
    channel's again (:meth:`resume`), in ``sessions``, from what ``store`` keeps; a game resumed with the bot to move
    gets its move from ``moves``."""

    def __init__(self, sessions: Sessions, moves: BotMoves, store: GameStore | None) -> None:
        self.sessions = sessions
        self.moves = moves
        self.store = store

    async def recover(self, mine: Callable[[Match], bool] = everywhere) -> int:
        """Take over the running games stored for the channels ``mine`` accepts (those of this process's shards):
        end as abandoned those whose deadline (the turn time-out after their last write) passed, hold the others
        dormant with the rest of their deadline. Call once, at start-up, before any interaction. Returns how many
        games ended.

        Raises:
            RecordsUnavailableError: the records database cannot be read.
        """
        sessions = self.sessions
        if self.store is None:
            return 0
        now = datetime.datetime.now(datetime.UTC)
        timeout, ended = sessions.turn_timeout, 0
        for saved in sorted(await self.store.running_games(), key=lambda s: (len(s.game.game_id), s.game.game_id)):
            game = saved.game
            if not mine(game) or sessions.current(game.channel_id) is not None:
                continue
            left = timeout - (now - saved.updated_at).total_seconds()
            if timeout > 0 and left <= 0:
                sessions.end_dormant(game)
                ended += 1
                continue
            sessions.hold_dormant(game, left)  # the newest game of a channel wins (sorted by snowflake id)
        log.info("recovered running games: %d dormant, %d ended as abandoned", sessions.dormant_games, ended)
        return ended

    def wake(self, channel_id: int, history: History) -> Match | None:
        """The channel's dormant game, resumed on its newest board in ``history`` (on no message when the history
        has none); ``None`` when there is none, or its board shows it over (it then holds the channel no longer)."""
        dormant = self.sessions.dormant(channel_id)
        if dormant is None:
            return None
        board = history.newest(dormant.game_id)
        if board is not None and board.over:
            self.sessions.forget_dormant(channel_id)
            return None
        return self.resume(dormant.at(board.message_id if board is not None else None))

    def woken_refusal(self, channel_id: int, history: History) -> Refusal | None:
        """Why an intent about another game than the channel's dormant one is refused: that game runs here (it is
        resumed on its board from ``history``, and linked to when the history shows it); None when none is dormant."""
        woken = self.wake(channel_id, history)
        if woken is None:
            return None
        if woken.jump_url is None:
            return Refusal(refusals.BUSY_UNPLACED)
        return Refusal(refusals.BUSY_GAME, {"link": woken.jump_url})

    def show_end(self, game_id: str, history: History | None, message_id: int | None) -> None:
        """Edit the board of ``game_id``, which ended while nobody saw it (a deadline passed while the bot was down or
        while the game was dormant), to show its end: its newest board in ``history``, else message ``message_id``."""
        newest = None if history is None else history.newest(game_id)
        target = newest.message_id if newest is not None else message_id
        on_expired = self.sessions.hooks.on_expired
        if target is None or on_expired is None:
            return
        ended = self.sessions.take_unseen(game_id)
        if ended is not None:
            on_expired(ended.at(target))

    def resume(self, game: Match, *, store: bool = True) -> Match:
        """Make ``game`` its channel's game again. The dormant game keeps its deadline and its stored row; any other
        gets a fresh deadline and is stored (an unverified one, so that a later restart knows it), unless ``store`` is
        False (a read: a look or a hint writes nothing). A game resumed with the bot to move gets its move
        (:meth:`BotMoves.owed`), which is committed and stored as any move of the bot's."""
        self.sessions.resume(game, store=store)
        if game.ai_to_move:  # a restart came between the player's move and the bot's
            self.moves.owed(game)
        log.info("game resumed: channel=%s game=%s ply=%d", game.channel_id, game.game_id, game.ply)
        return game
