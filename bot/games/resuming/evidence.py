"""Resuming a game after a restart: what a pressed board is checked against, and what resumes
(:mod:`bot.games.resuming.proof`).

The service gathers the :class:`Evidence` outside the channel's lock (a database read, maybe a replay of the bot's
searches in an executor), then decides with :func:`checked` under the lock.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace

from bot.games import refusals
from bot.games.ai import AI
from bot.games.answers import NeedsHistory, Refusal
from bot.games.match import Match
from bot.games.resuming import proof
from bot.games.store import GameStore, StoredGame
from bot.records import RecordsUnavailableError

__all__ = ["Evidence", "candidate", "checked", "evidence"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Evidence:
    """What the bot can check a board against when it resumes a game: what is stored about it (or, for a command,
    the channel's running game), and the states its own searches give for the board's moves when the board
    proves itself (:func:`bot.games.resuming.proof.proven`; ``None`` when it does not)."""

    stored: StoredGame = field(default_factory=StoredGame)
    states: int | None = None
    channel_game: Match | None = None


async def evidence(store: GameStore | None, ai: AI, board: Match, user_id: int) -> Evidence | Refusal:
    """What ``board``, pressed (or read back) for ``user_id`` after a restart, can be checked against: what is
    stored about its game, and, when nothing is stored about it and the board proves itself
    (:func:`bot.games.resuming.proof.proven`), the bot's own states count for its moves. Looked up outside the channel's
    lock. A game stored in another channel than the board's is that channel's: ``ELSEWHERE``."""
    stored = StoredGame()
    if store is not None:
        try:
            stored = await store.stored(board.game_id, board.channel_id)
        except RecordsUnavailableError:
            return Refusal(refusals.RECORDS_DOWN)
    if stored.elsewhere:
        return Refusal(refusals.ELSEWHERE)
    if stored.finished is not None or stored.running is not None or not proof.proven(board, user_id):
        return Evidence(stored)
    bot = board.bot_mark
    assert bot is not None  # proven() holds only for a game against the bot
    executor = ai.slow_executor if board.algorithm == "minimax" else ai.executor
    loop = asyncio.get_running_loop()
    states = await loop.run_in_executor(executor, proof.states_of, board.kind, board.moves, bot, board.algorithm)
    return Evidence(stored, states)


def checked(
    pressed: Match, evidence: Evidence | Refusal | None, newest: Match | None = None
) -> Match | Refusal | NeedsHistory:
    """The game to resume from the board ``pressed`` as ``evidence`` allows, or why not; nothing is resumed yet.
    ``newest`` is the game's newest board in the channel's history (as its message shows now), if any.

    A stored game resumes as stored, only from a board that shows it or an earlier position of it; a board showing
    more than the stored game (moves nobody saved: a forged id, or moves a crash kept from the store) is refused,
    with a link to a board that shows the saved game when there is one (``UNSAVED_MOVES``; else
    ``BOARD_MISMATCH``, which points to /ttt board). With nothing stored, the board must prove itself, and a press
    whose board shows more than its message does now is refused (``UNVERIFIED``)."""
    if evidence is None:
        return NeedsHistory()
    if isinstance(evidence, Refusal):
        return evidence
    if evidence.stored.finished is not None:
        return Refusal(refusals.GAME_OVER)
    board = candidate(pressed, newest)
    running = evidence.stored.running
    if running is not None:
        if proof.matches(board, running):
            return running.at(board.message_id)
        if not proof.extends(board, running):
            return Refusal(refusals.BOARD_MISMATCH)
        log.info("game %s: a board shows moves after the stored ones; refused", board.game_id)
        shows_it = newest is not None and proof.matches(newest, running) and newest.moves == running.moves
        if not shows_it or newest is None or newest.jump_url is None:
            return Refusal(refusals.BOARD_MISMATCH)
        return Refusal(refusals.UNSAVED_MOVES, {"link": newest.jump_url})
    if unshown(pressed, newest) or evidence.states is None or evidence.states != board.ai_states:
        return Refusal(refusals.UNVERIFIED)
    log.info("game %s resumed from a board nothing stored vouches for; it will not be recorded", board.game_id)
    return replace(board, ai_states=evidence.states, last_ai=None, verified=False)


def unshown(pressed: Match, newest: Match | None) -> bool:
    """True when ``pressed`` (the board a press carries) claims moves its own message does not show now
    (``newest``, read from the channel's history): the bot never showed that board."""
    if newest is None or newest.message_id != pressed.message_id:
        return False
    return newest.moves[: len(pressed.moves)] != pressed.moves


def candidate(board: Match, newest: Match | None) -> Match:
    """The board to check: ``newest`` (the newest board of the game in the channel's history) when it is the pressed
    message as it shows now and is newer than the press's copy (the message changed since), else the pressed board."""
    if newest is not None and newest.message_id == board.message_id and newest.ply > board.ply:
        return newest
    return board
