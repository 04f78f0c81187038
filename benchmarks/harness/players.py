"""The players: members pressing through the fake Discord as soon as answered (or after a think time), and the
3x3 games they play against our bot."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Coroutine, Iterable
from typing import Any

from benchmarks.harness.process import BenchmarkError
from benchmarks.harness.results import RunResult
from testing.fake_discord import FakeDiscord, InteractionRecord

__all__ = ["CB_MESSAGE", "CB_UPDATE", "Budget", "OursDriver", "Player", "answered", "gather"]

ANSWER_TIMEOUT = 30.0
WARM_CHANNELS = 4
WARM_GAMES = 2
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
CELL_ID = re.compile(r"ttt:[0-8]:")


class Budget:
    """A deadline, a shared allowance of presses (``None``: unlimited) and the players' think time."""

    def __init__(self, moves: int | None, seconds: float, think: float = 0.0) -> None:
        self.left = moves
        self.deadline = time.perf_counter() + seconds
        self.think = think

    async def pause(self, rng: random.Random) -> None:
        """A player's think time before the next press: exponential with mean ``think`` seconds (0: none)."""
        if self.think > 0:
            delay = rng.expovariate(1 / self.think)
            await asyncio.sleep(max(0.0, min(delay, self.deadline - time.perf_counter())))

    def take(self) -> bool:
        if time.perf_counter() >= self.deadline or (self.left is not None and self.left <= 0):
            return False
        if self.left is not None:
            self.left -= 1
        return True


async def answered(rec: InteractionRecord, what: str, *, completed_by: str = "edit_original") -> InteractionRecord:
    """Wait for the interaction's first callback (and, for a deferred one, for the event ``completed_by`` that
    completes it: the edit of its answer, or a followup)."""
    try:
        await rec.wait(ANSWER_TIMEOUT)
    except TimeoutError:
        raise BenchmarkError(f"{what}: no callback within {ANSWER_TIMEOUT:.0f} s") from None
    if rec.error is not None:
        raise BenchmarkError(f"{what}: callback refused: {rec.error}")
    if rec.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE):
        await rec.wait_for_event(lambda e: e.kind == completed_by, ANSWER_TIMEOUT)
    return rec


async def gather(jobs: Iterable[Coroutine[Any, Any, None]], limit: int | None = None) -> None:
    """Run coroutines concurrently (at most ``limit`` at a time); the first failure cancels the rest."""
    gate = asyncio.Semaphore(limit) if limit else None

    async def gated(job: Coroutine[Any, Any, None]) -> None:
        if gate is None:
            return await job
        async with gate:
            return await job

    tasks = [asyncio.ensure_future(gated(job)) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


class Player:
    """One channel and the member playing in it."""

    def __init__(self, fake: FakeDiscord, guild_id: str, channel_id: str, index: int, seed: int) -> None:
        self.fake = fake
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.user = fake.make_user(10_000 + index, f"player{index}")
        self.rng = random.Random(seed * 1_000_003 + index)
        self.parity = index % 2
        self.games = 0
        self.message_id: str | None = None
        self.boards: list[str] = []
        """Every board message this player's ``/ttt start`` posted."""

    def free_cells(self, message_id: str | None = None) -> list[str]:
        """The custom_ids of the enabled cell buttons on board ``message_id`` (default: the current board)."""
        message_id = message_id or self.message_id
        message = self.fake.message(self.channel_id, message_id) if message_id else None
        if message is None:
            return []
        return [
            button["custom_id"]
            for row in message["components"]
            for button in row.get("components", [])
            if not button.get("disabled") and CELL_ID.match(button.get("custom_id", ""))
        ]


class OursDriver:
    """Plays games against our bot: ``/ttt start``, then presses until the game is over."""

    def __init__(self, fake: FakeDiscord, result: RunResult) -> None:
        self.fake = fake
        self.result = result
        self.timed = False

    async def start_game(self, player: Player) -> None:
        mark = "X" if (player.games + player.parity) % 2 == 0 else "O"
        rec = await self.fake.slash_command(
            player.guild_id, player.channel_id, player.user, "ttt", subcommand="start", options={"play_as": mark}
        )
        await answered(rec, f"/ttt start in {player.channel_id}")
        if rec.message_id is None or rec.ephemeral:
            raise BenchmarkError(f"/ttt start in {player.channel_id} did not post a board: {rec.content!r}")
        player.games += 1
        player.message_id = rec.message_id
        player.boards.append(rec.message_id)
        assert rec.latency is not None
        self.result.start_latencies.append(rec.latency)

    async def press(self, player: Player) -> None:
        free = player.free_cells()
        if not free or player.message_id is None:
            return
        custom_id = player.rng.choice(free)
        where = (player.guild_id, player.channel_id)
        rec = await self.fake.press_button(*where, player.user, player.message_id, custom_id)
        try:
            await answered(rec, f"press in {player.channel_id}")
        except BenchmarkError:
            if self.timed and rec.latency is not None:  # a callback refused as too late still has its latency
                self.result.latencies.append(rec.latency)
            raise
        if rec.callback_type not in (CB_UPDATE, CB_DEFERRED_UPDATE):
            self.result.refused += 1
        if self.timed:
            assert rec.latency is not None
            self.result.latencies.append(rec.latency)
            self.result.moves += 1
            self.result.moves_by_guild[player.guild_id] += 1

    async def play_games(self, player: Player, games: int) -> None:
        for _ in range(games):
            await self.start_game(player)
            while player.free_cells():
                await self.press(player)

    async def open_game(self, player: Player) -> None:
        await self.start_game(player)
        await self.press(player)

    async def play(self, player: Player, budget: Budget) -> None:
        await budget.pause(player.rng)  # with a think time, the players do not all start at the same instant
        while budget.take():
            if not player.free_cells():
                self.result.games += 1
                await self.start_game(player)
            await self.press(player)
            await budget.pause(player.rng)
