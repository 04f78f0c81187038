"""The bot's move on a slow variant when its search fails: retried once (in a fresh pool when a worker died), then
a fallback move from the bot's own process, and only when that fails too the game ends abandoned; never a game
left thinking."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import threading
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from unittest import mock

import pytest

from bot.games import ai as bot_ai_module
from bot.games import moves as worker_moves
from bot.games.ai import AI
from bot.games.answers import BotMoved, Posted, Shown
from bot.games.bot_moves import Stage
from bot.games.finished import finished_game
from bot.games.intents import Actor
from bot.games.match import EngineMove, Match
from bot.games.pool import SearchPool, variant_executor
from bot.games.renewing import RenewingExecutor
from bot.games.service import GameService
from bot.text.board import message_text
from engine import Algorithm, Variant

ALICE, CHANNEL = 11, 100
STALL_MARKER = "TTT_TEST_STALL_MARKER"
"""The environment variable naming the file :func:`stalled_once` creates (workers inherit the environment)."""


class Played:
    """A game service against the bot, with what it delivered: bot moves, ended games, failed stages."""

    def __init__(self, ai: AI) -> None:
        self.moved: list[BotMoved] = []
        self.expired: list[Match] = []
        self.finished: list[Match] = []
        self.failed: list[tuple[str, Stage]] = []
        self.games = GameService(
            ai,
            rng=random.Random(2),
            on_bot_move=self.moved.append,
            on_expired=self.expired.append,
            on_finished=self.finished.append,
        )
        self.games.hooks.on_search_failed = lambda game, stage: self.failed.append((game.game_id, stage))

    async def start(self, variant: str, game_id: str = "g1", **options: object) -> Match:
        outcome = await self.games.start(Actor(ALICE, CHANNEL, guild_id=5), game_id=game_id, variant=variant, **options)  # type: ignore[arg-type]
        assert isinstance(outcome, Posted), outcome
        self.games.placed(CHANNEL, game_id, 1000, outcome.game.post)
        game = self.games.current(CHANNEL)
        assert game is not None
        return game

    async def press(self, cell: int) -> Match:
        """Alice plays ``cell`` on the current board; returns the game committed (the bot thinking)."""
        board = self.games.current(CHANNEL)
        assert board is not None
        outcome = await self.games.press(Actor(ALICE, CHANNEL, guild_id=5), board, cell)
        assert isinstance(outcome, Shown) and outcome.game.thinking, outcome
        return outcome.game


@pytest.fixture
async def ai() -> AsyncIterator[AI]:
    ai = AI(ThreadPoolExecutor(2), rng=random.Random(1), pool=SearchPool(ThreadPoolExecutor(1), workers=1))
    yield ai
    await ai.shutdown()


async def test_a_search_that_fails_once_is_retried_and_the_bot_moves(ai: AI, caplog: pytest.LogCaptureFixture) -> None:
    played = Played(ai)
    calls: list[tuple[object, ...]] = []

    def flaky(*args: object) -> EngineMove:
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("the search broke")
        return worker_moves.bot_move(*args)  # type: ignore[arg-type]

    await played.start("4x4")
    with mock.patch.object(bot_ai_module, "bot_move", flaky), caplog.at_level(logging.WARNING):
        thinking = await played.press(5)
        await played.games.settled()
    assert len(calls) == 2 and calls[0][:4] == calls[1][:4]  # the same search (a new seed), run once more
    assert played.failed == [("g1", "search")] and "bot search failed" in caplog.text and "game=g1" in caplog.text
    moved = played.moved[0].game
    assert moved.moves[:1] == thinking.moves and moved.ply == 2 and not moved.thinking
    assert moved.last_ai is not None and not moved.last_ai.reduced  # the real search's move
    assert played.games.current(CHANNEL) == moved and ai.pool.pending == 0 and ai.pending == 0


@pytest.mark.parametrize(("variant", "cell"), [("4x4", 5), ("5x5", 12), ("ultimate", 40)])
async def test_a_search_that_always_fails_gives_way_to_the_fallback_move(ai: AI, variant: str, cell: int) -> None:
    played = Played(ai)

    def broken(*args: object) -> EngineMove:
        raise BrokenProcessPool("a worker died")

    await played.start(variant)
    with mock.patch.object(bot_ai_module, "bot_move", broken):
        await played.press(cell)
        await played.games.settled()
    assert played.failed == [("g1", "search"), ("g1", "retry")]
    moved = played.moved[0].game
    assert moved.ply == 2 and not moved.thinking and moved.last_ai is not None and moved.last_ai.reduced
    assert played.games.current(CHANNEL) == moved and played.expired == [] and played.finished == []
    assert ai.pool.pending == 0 and ai.pending == 0 and played.games.searches == 0


async def test_when_the_fallback_fails_too_the_game_ends_abandoned_and_nobody_loses(ai: AI) -> None:
    played = Played(ai)

    def broken(*args: object) -> EngineMove:
        raise MemoryError("no room for a search")

    await played.start("4x4")
    with (
        mock.patch.object(bot_ai_module, "bot_move", broken),
        mock.patch.object(bot_ai_module, "fallback_move", broken),
    ):
        await played.press(5)
        await played.games.settled()
    assert played.failed == [("g1", "search"), ("g1", "retry"), ("g1", "fallback")]
    assert played.moved == [] and played.games.current(CHANNEL) is None
    ended = played.expired[0]
    assert ended.end_reason == "abandoned" and ended.moves == (5,) and played.finished == [ended]
    record = finished_game(ended)
    assert record.result is None and record.end_reason == "abandoned"  # recorded as no one's win or loss
    assert "the bot could not find a move. Nobody loses this game." in message_text(ended)
    assert ai.pool.pending == 0 and ai.pending == 0


async def test_a_game_that_moved_on_while_its_search_failed_is_not_searched_again(ai: AI) -> None:
    played = Played(ai)
    gate = threading.Event()
    calls: list[tuple[object, ...]] = []

    def failing_later(*args: object) -> EngineMove:
        calls.append(args)
        gate.wait(5)
        raise RuntimeError("the search broke")

    await played.start("4x4")
    with mock.patch.object(bot_ai_module, "bot_move", failing_later):
        thinking = await played.press(5)
        resigned = await played.games.resign(Actor(ALICE, CHANNEL, guild_id=5), board=thinking)
        assert isinstance(resigned, Shown) and resigned.game.end_reason == "resigned"
        gate.set()
        await played.games.settled()
    assert len(calls) == 1 and played.failed == [("g1", "search")]
    assert played.moved == [] and played.expired == [] and [g.end_reason for g in played.finished] == ["resigned"]
    assert ai.pool.pending == 0


def stalled_once(
    kind: Variant, moves: tuple[int, ...], level: int, algorithm: Algorithm, budget: float | None, seed: int
) -> EngineMove:
    """In a worker: the first call writes its process id to the file named by ``$TTT_TEST_STALL_MARKER`` and stalls
    (until the test kills it); later calls, in any process, search for real."""
    marker = Path(os.environ[STALL_MARKER])
    if not marker.exists():
        marker.write_text(str(os.getpid()))
        threading.Event().wait(120)
    return worker_moves.bot_move(kind, moves, level, algorithm, budget, seed)


async def test_a_worker_killed_mid_search_breaks_its_pool_and_the_search_goes_on_in_a_new_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "stalled"
    monkeypatch.setenv(STALL_MARKER, str(marker))
    renewing = RenewingExecutor(lambda: variant_executor(1))
    pool = SearchPool(renewing, workers=1)
    ai = AI(ThreadPoolExecutor(1), rng=random.Random(1), pool=pool)
    first = renewing.current
    played = Played(ai)
    try:
        await played.start("4x4")
        with mock.patch.object(bot_ai_module, "bot_move", stalled_once):
            await played.press(5)
            for _ in range(6000):  # the worker starts (a spawned process), then stalls in the search
                if marker.exists() and marker.read_text():
                    break
                await asyncio.sleep(0.01)
            pid = int(marker.read_text())
            assert first is not None and pid in first._processes  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
            await played.games.settled()
        assert played.failed == [("g1", "search")] and renewing.replaced == 1 and renewing.current is not first
        moved = played.moved[0].game
        assert moved.ply == 2 and moved.last_ai is not None and not moved.last_ai.reduced  # the retry's search
        second = renewing.current
        free = next(cell for cell in range(16) if cell not in moved.moves)
        await played.press(free)  # a later search runs in the new pool
        await played.games.settled()
        assert len(played.moved) == 2 and played.moved[1].game.ply == 4 and renewing.current is second
        assert played.failed == [("g1", "search")] and renewing.replaced == 1 and pool.pending == 0
    finally:
        await ai.shutdown()
