"""Ultimate games against our bot through the fake Discord: one player a channel, pressing through the pad."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from typing import Any

from benchmarks.harness.players import CB_MESSAGE, answered
from benchmarks.harness.process import BenchmarkError
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.ultimate_boards import REDUCED, is_over, pressable, shows_bot_move, text_of, version

__all__ = ["START", "UltimatePlayer", "UltimateStats"]

MOVE_TIMEOUT = 120.0
START = {"variant": "ultimate", "level": 8, "board": "buttons", "play_as": "X"}
BUSY = "too many games at once"
"""In the private refusal of a move the bot is too busy to search."""


@dataclass
class UltimateStats:
    """What the ultimate players saw in one phase; times in seconds."""

    answers: list[float] = field(default_factory=list)
    """First-callback latency of every press (small-board choices and cells)."""
    to_bot: list[float] = field(default_factory=list)
    """From a cell press's dispatch to the edit that put the bot's move on the board."""
    moves: int = 0
    full: int = 0
    reduced: int = 0
    busy: int = 0
    refused: list[str] = field(default_factory=list)
    """Other refusals' texts (none expected)."""
    lost: int = 0
    """Bot moves that never appeared within ``MOVE_TIMEOUT``."""
    games: int = 0


class UltimatePlayer:
    """One channel with one ultimate game against the bot, played by one member through the buttons."""

    def __init__(self, fake: FakeDiscord, guild_id: str, channel_id: str, index: int, seed: int) -> None:
        self.fake, self.guild_id, self.channel_id = fake, guild_id, channel_id
        self.user = fake.make_user(30_000 + index, f"ultimate{index}")
        self.rng = random.Random(seed * 7_919 + index)
        self.board_id: str | None = None

    def board(self) -> dict[str, Any] | None:
        """The current board message."""
        return self.fake.message(self.channel_id, self.board_id) if self.board_id else None

    async def _press(self, message_id: str, custom_id: str, completed_by: str = "edit_original") -> InteractionRecord:
        rec = await self.fake.press_button(self.guild_id, self.channel_id, self.user, message_id, custom_id)
        return await answered(rec, f"ultimate press {custom_id} in {self.channel_id}", completed_by=completed_by)

    async def start(self) -> None:
        """``/ttt start`` an ultimate game (X: the player moves first)."""
        rec = await self.fake.slash_command(self.guild_id, self.channel_id, self.user, "ttt", "start", START)
        await answered(rec, f"/ttt start ultimate in {self.channel_id}")
        if rec.message_id is None or rec.ephemeral:
            raise BenchmarkError(f"/ttt start in {self.channel_id} posted no board: {rec.content!r}")
        self.board_id = rec.message_id

    async def choose_small_board(self, board: dict[str, Any], stats: UltimateStats) -> dict[str, Any]:
        """The message whose pad shows the cells to press: ``board`` itself when the small board is forced (or
        already chosen on it); on a free choice, the answer to pressing a random open small board: a private pad (a
        new ephemeral message, or an ephemeral followup of a deferred update), or the board's own pad edited (the
        bot before the private pad). The one step that
        knows how a free choice is made."""
        picks = pressable(board, "pick")
        if not picks:
            return board
        rec = await self._press(board["id"], self.rng.choice(picks), completed_by="followup")
        assert rec.latency is not None
        stats.answers.append(rec.latency)
        pads = [e.message_id for e in rec.events if e.kind == "followup" and e.message_id]
        shown = (
            pads[0] if pads else rec.message_id if rec.callback_type == CB_MESSAGE and rec.message_id else board["id"]
        )
        return self.fake.message(self.channel_id, shown) or {}

    def _watch(self, pressed_at: int) -> tuple[list[float], asyncio.Future[dict[str, Any]]]:
        """A wait for the board edit that shows the bot's move, and the list its time (perf_counter) goes in."""
        seen: list[float] = []

        def shown(message: dict[str, Any]) -> bool:
            if message["id"] != self.board_id or not shows_bot_move(message, pressed_at):
                return False
            seen.append(time.perf_counter())  # called by the fake as it applies the edit
            return True

        wait = self.fake.wait_for_message(shown, MOVE_TIMEOUT, channel_id=self.channel_id)
        return seen, asyncio.ensure_future(wait)

    async def move(self, stats: UltimateStats) -> None:
        """One move through the pad, then the wait for the bot's move (a busy refusal: a second's pause)."""
        board = self.board() or {}
        pressed_at = version(board) or 0
        pad = await self.choose_small_board(board, stats)
        cells = pressable(pad, "cell")
        if not cells:
            raise BenchmarkError(f"no cell to press in {self.channel_id}: {text_of(pad)[:200]!r}")
        seen, watch = self._watch(pressed_at)
        await asyncio.sleep(0)  # the wait is registered before the press
        try:
            rec = await self._press(pad["id"], self.rng.choice(cells))
            assert rec.latency is not None
            stats.answers.append(rec.latency)
            if rec.callback_type == CB_MESSAGE:  # a refusal, privately (a move answers with an update)
                if BUSY in (rec.content or ""):
                    stats.busy += 1
                else:
                    stats.refused.append(rec.content or "")
                await asyncio.sleep(1.0)
                return
            stats.moves += 1
            if is_over(self.board() or {}):
                return
            try:
                after = await watch
            except TimeoutError:
                stats.lost += 1
                return
            stats.to_bot.append(seen[0] - rec.dispatched_at)
            stats.reduced += REDUCED in text_of(after)
            stats.full += REDUCED not in text_of(after)
        finally:
            watch.cancel()

    async def play(self, stats: UltimateStats, deadline: float) -> None:
        """Move until ``deadline`` (perf_counter), starting a new game when one ends."""
        while time.perf_counter() < deadline:
            board = self.board()
            if board is None or is_over(board):
                stats.games += board is not None
                await self.start()
                continue
            await self.move(stats)
