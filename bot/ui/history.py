"""Read a channel's recent board messages, so the game service can resume a game after a restart."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from bot.games import codec
from bot.games.answers import Answer, NeedsHistory
from bot.games.match import BoardRef, Match
from bot.games.service import History
from bot.ui.present import Presentable

__all__ = ["HISTORY_LIMIT", "Decide", "board_of", "recent_boards", "settle"]

log = logging.getLogger(__name__)

HISTORY_LIMIT = 25
"""How many recent messages are read to find a game's boards."""
Decide = Callable[[History | None], Awaitable[Answer]]
"""An intent handed to the game service: called without the channel's history first, and with it if asked."""


def board_of(message: discord.Message) -> Match | BoardRef | None:
    """The game a board message shows (read from its buttons' ``custom_id``s and marks, never from their
    ``disabled`` flags; an ultimate board as the :class:`BoardRef` they carry), or ``None``. A message with a
    Rematch button shows a game that is over."""
    board: Match | BoardRef | None = None
    over = False
    channel_id, guild_id = message.channel.id, message.guild.id if message.guild else None
    for row in message.components:
        for item in getattr(row, "children", ()):
            custom_id = getattr(item, "custom_id", None) or ""
            read = codec.decode
            try:
                game, kind = read(custom_id, channel_id=channel_id, guild_id=guild_id)
            except codec.CodecError:
                continue
            board = board or game
            over = over or kind == "n"
    if board is None:
        return None
    board = board.at(message.id)
    if isinstance(board, BoardRef):
        return replace(board, over=over)
    return board.end("abandoned") if over and not board.over else board


async def recent_boards(client: discord.Client, channel_id: int, guild_id: int | None) -> History:
    """The bot's board messages among the channel's last :data:`HISTORY_LIMIT` messages, newest first.

    Needs the Read Message History permission; without it (or in a DM the bot is not part of) the
    history is marked unreadable.
    """
    me = client.user
    if me is None:
        return History(readable=False)
    channel: Any = client.get_partial_messageable(channel_id, guild_id=guild_id)
    boards: list[Match | BoardRef] = []
    try:
        async for message in channel.history(limit=HISTORY_LIMIT):
            if message.author.id == me.id and (board := board_of(message)) is not None:
                boards.append(board)
    except discord.HTTPException as error:
        log.info("cannot read the history of channel %s: %s", channel_id, error.status)
        return History(readable=False)
    return History(tuple(boards))


async def settle(decide: Decide, read: Callable[[], Awaitable[History]]) -> Presentable:
    """Decide without the history; when the service answers :class:`~bot.games.NeedsHistory` (the bot
    restarted), ``read()`` the channel's recent boards and decide again with them.

    Raises:
        RuntimeError: the service asked for the history although it was given (a bug in the service).
    """
    answer = await decide(None)
    if isinstance(answer, NeedsHistory):
        answer = await decide(await read())
        if isinstance(answer, NeedsHistory):
            raise RuntimeError("the game service asked for the channel's history twice")
    return answer
