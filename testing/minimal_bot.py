"""A minimal but correct tic-tac-toe bot: the load benchmark's second reference point, between the floor and ours.

Issue 11 describes one: alpha-beta in an executor, a ``DynamicItem``, a per-channel lock and one edit per press.
This is such a bot, so ``benchmarks/load.py --minimal`` can measure, in the same run as the others, how much of
our bot's CPU per press the game itself needs. ``/ttt start [play_as]`` posts a board (the bot moves first when
the player takes O). A press is checked (the game's player, a free cell, a running game; otherwise an ephemeral
refusal), played under the channel's lock, answered by the engine's default alpha-beta search in a thread pool,
and shown with one ``edit_message`` that says how many states the search evaluated. The whole game is in the
buttons' ids, as in our bot; there are no records, timers, languages, reviews or challenges.

Run as ``python testing/minimal_bot.py`` with DISCORD_TOKEN, DISCORD_API_BASE and DISCORD_GATEWAY_URL set.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

import discord
from discord import app_commands

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import InvalidBoardError, Mark
from engine.minimax.search import SearchResult, search
from engine.tictactoe.rules import State, format_board, initial_state, parse_board, player, result, terminal, winner
from testing.floor_bot import configure_endpoints

ID = r"ttt:(?P<cell>[0-8]):(?P<board>[.XO]{9}):(?P<mark>[XO]):(?P<user>[0-9]+)"
"""A cell button's ``custom_id``: the cell, the board, the player's mark and the player's user id."""
Interaction = discord.Interaction[Any]
executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="alpha-beta")
locks: collections.defaultdict[int, asyncio.Lock] = collections.defaultdict(asyncio.Lock)
latest: dict[int, str] = {}
"""The board each running game's message shows now, by message id: a press on an older board is refused."""


def render(state: State, mark: Mark, user_id: int, found: SearchResult | None) -> dict[str, Any]:
    """The message for a board: its text and its nine cell buttons (disabled once the game is over)."""
    board, over = format_board(state), terminal(state)
    lines = [f"<@{user_id}> ({mark.value}) vs the bot"]
    if found is not None:
        lines.append(f"The bot played {found.move + 1} after evaluating {found.states:,} states.")
    if over:
        won = winner(state)
        lines.append("Draw." if won is None else ("You win!" if won is mark else "The bot wins."))
    view = discord.ui.View(timeout=None)
    for cell in range(9):
        taken = board[cell] != "."
        view.add_item(
            discord.ui.Button(
                label=board[cell] if taken else str(cell + 1),
                custom_id=f"ttt:{cell}:{board}:{mark.value}:{user_id}",
                disabled=over or taken,
                row=cell // 3,
            )
        )
    return {"content": "\n".join(lines), "view": view, "allowed_mentions": discord.AllowedMentions.none()}


async def bot_reply(state: State) -> tuple[State, SearchResult | None]:
    """The bot's move in ``state`` (searched in the thread pool), or no move when the game is over."""
    if terminal(state):
        return state, None
    found = await asyncio.get_running_loop().run_in_executor(executor, search, state)
    return result(state, found.move), found


class Cell(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ID):
    """A press on a cell of a board."""

    def __init__(self, item: discord.ui.Button[Any], match: re.Match[str]) -> None:
        super().__init__(item)
        self.cell = int(match["cell"])
        self.board = match["board"]
        self.mark = Mark(match["mark"])
        self.user_id = int(match["user"])

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Cell:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match)

    async def callback(self, interaction: Interaction) -> None:
        if interaction.user.id != self.user_id:
            await interaction.response.send_message("This is not your game.", ephemeral=True)
            return
        message_id = interaction.message.id if interaction.message is not None else 0
        async with locks[interaction.channel_id or 0]:
            try:
                state: State | None = parse_board(self.board)
            except InvalidBoardError:
                state = None
            stale = latest.get(message_id, self.board) != self.board
            if stale or state is None or terminal(state) or player(state) is not self.mark or state[self.cell]:
                state = None
            else:
                state, found = await bot_reply(result(state, self.cell))
                if terminal(state):
                    latest.pop(message_id, None)
                else:
                    latest[message_id] = format_board(state)
        if state is None:
            await interaction.response.send_message("That move is not possible now.", ephemeral=True)
        else:
            await interaction.response.edit_message(**render(state, self.mark, self.user_id, found))


class MinimalBot(discord.Client):
    """The client: ``/ttt start`` and the board's buttons."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents(guilds=True))
        self.tree = app_commands.CommandTree(self)
        group = app_commands.Group(name="ttt", description="Tic-tac-toe")
        group.command(name="start", description="Start a game against the bot")(start_game)
        self.tree.add_command(group)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Cell)
        await self.tree.sync()


async def start_game(interaction: Interaction, play_as: Literal["X", "O"] = "X") -> None:
    """Post a new board; the bot opens when the player takes O."""
    mark = Mark(play_as)
    state, found = await bot_reply(initial_state()) if mark is Mark.O else (initial_state(), None)
    await interaction.response.send_message(**render(state, mark, interaction.user.id, found))


CLIENT = MinimalBot
"""The client class (the load benchmark's launcher wraps its ``setup_hook``)."""


def main() -> None:
    """Run the bot until it is stopped."""
    configure_endpoints()
    MinimalBot().run(os.environ["DISCORD_TOKEN"], log_level=logging.WARNING)


if __name__ == "__main__":
    main()
