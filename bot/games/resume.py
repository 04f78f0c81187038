"""Resuming a game after a restart: what a pressed board is checked against, and what resumes (:mod:`bot.games.proof`).

The service gathers the :class:`Evidence` outside the channel's lock (a database read, maybe a replay of the bot's
searches in an executor), then decides with :func:`checked` under the lock.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace

from bot.games import proof, refusals
from bot.games.ai import AI
from bot.games.answers import NeedsHistory, Refusal
from bot.games.game import Game
from bot.games.store import GameStore, StoredGame
from bot.records import RecordsUnavailableError

__all__ = ["Evidence", "candidate", "checked", "evidence"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the bot can check a board against when it resumes a game: what is stored about it (or, for a command,
    the channel's running game), and the states its own searches give for the board's moves when the board
    proves itself (:func:`bot.games.proof.proven`; ``None`` when it does not)."""

    stored: StoredGame = field(default_factory=StoredGame)
    states: int | None = None
    channel_game: Game | None = None


async def evidence(store: GameStore | None, ai: AI, board: Game, user_id: int) -> Evidence | Refusal:
    """What ``board``, pressed (or read back) for ``user_id`` after a restart, can be checked against: what is
    stored about its game, and the bot's own states count for its moves when nothing stored covers them and the
    board proves itself (:func:`bot.games.proof.proven`). Looked up outside the channel's lock."""
    stored = StoredGame()
    if store is not None:
        try:
            stored = await store.stored(board.game_id, board.channel_id)
        except RecordsUnavailableError:
            return Refusal(refusals.RECORDS_DOWN)
    running = stored.running
    unsaved = running is None or proof.extends(board, running)
    if stored.finished is not None or not unsaved or not proof.proven(board, user_id):
        return Evidence(stored)
    bot = board.bot_mark
    assert bot is not None  # proven() holds only for a game against the bot
    executor = ai.slow_executor if board.algorithm == "minimax" else ai.executor
    loop = asyncio.get_running_loop()
    states = await loop.run_in_executor(executor, proof.states_of, board.moves, bot, board.algorithm)
    return Evidence(stored, states)


def checked(board: Game, evidence: Evidence | Refusal | None) -> Game | Refusal | NeedsHistory:
    """The game to resume from ``board`` as ``evidence`` allows (the stored one when the board shows it), or why
    not; nothing is resumed yet."""
    if evidence is None:
        return NeedsHistory()
    if isinstance(evidence, Refusal):
        return evidence
    if evidence.stored.finished is not None:
        return Refusal(refusals.GAME_OVER)
    running = evidence.stored.running
    if running is not None and proof.matches(board, running):
        return running.at(board.message_id)
    if evidence.states is None or evidence.states != board.ai_states:
        return Refusal(refusals.UNVERIFIED if running is None else refusals.BOARD_MISMATCH)
    log.info("game %s resumed from a board nothing stored vouches for; it will not be recorded", board.game_id)
    return replace(board, ai_states=evidence.states, last_ai=None, verified=False)


def candidate(board: Game, newest: Game | None) -> Game:
    """The board to check: ``newest`` (the newest board of the game in the channel's history) when it is the pressed
    message as it shows now and is newer than the press's copy (the message changed since), else the pressed board."""
    if newest is not None and newest.message_id == board.message_id and newest.ply > board.ply:
        return newest
    return board
