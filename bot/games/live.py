"""What a pressed board may act on in the game the bot holds: a board's ``custom_id`` travels through the client, so
a board is checked against the game in memory, which is the truth (``Sessions.acting_on``). Resuming a game the
bot does not hold comes before, at the edge (:mod:`bot.games.resuming`).
"""

from __future__ import annotations

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.match import Match

__all__ = ["board_game", "same_setup"]


def same_setup(board: Match, game: Match, *, mode: bool = True) -> bool:
    """True when ``board`` names ``game``'s id, variant and players, and its options: level and algorithm in a
    game against the bot, and the board mode unless ``mode`` is False (the records do not keep it)."""
    if (board.game_id, board.variant, board.x_id, board.o_id) != (game.game_id, game.variant, game.x_id, game.o_id):
        return False
    if mode and board.mode != game.mode:
        return False
    return not game.vs_bot or (board.level, board.algorithm) == (game.level, game.algorithm)


def board_game(held: Match | None, board: Match, finished: bool) -> Match | Refusal:
    """The game a press on ``board`` acts on, from ``held`` (the channel's game in memory; ``finished``: the board's
    game ended in this process), or why there is none: its game is over or another runs (stale), the board names
    other players or options (``BOARD_MISMATCH``), shows another position (changed or stale) or is not the game's
    current board message (stale).

    The game held is returned on ``board``'s message when a repost of it is on its way and this press beat that
    answer (the caller keeps it: the message is adopted)."""
    if held is None or held.game_id != board.game_id:
        if held is None or board.over or finished:
            return Refusal(refusals.GAME_OVER)
        return refusals.stale(held)
    if not same_setup(board, held) or (board.moves == held.moves and board.ai_states != held.ai_states):
        return Refusal(refusals.BOARD_MISMATCH)
    if board.moves != held.moves:
        return refusals.changed(held, board)
    if held.message_id is None:  # a repost is on its way and this press beat its answer: adopt the message
        if board.message_id == held.retired:  # ...unless it is the board the repost replaces
            return refusals.stale(held)
        return held.at(board.message_id)
    if held.message_id != board.message_id:
        return refusals.stale(held)
    return held
