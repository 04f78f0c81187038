"""The floor under our load: ``testing/floor_bot.py``, a bare discord.py bot that answers a press with an edit."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from benchmarks.harness.launcher import FLOOR_BOT, LAUNCHER, bot_env
from benchmarks.harness.phase import timed_phase
from benchmarks.harness.players import CB_UPDATE, WARM_CHANNELS, Budget, Player, answered, gather
from benchmarks.harness.process import BotProcess, launch
from benchmarks.harness.results import RunResult, collect, with_profile
from testing.fake_discord import FakeDiscord

__all__ = ["run_floor"]


def _floor_board() -> list[dict[str, Any]]:
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": str(3 * r + c + 1), "custom_id": f"floor:{3 * r + c}"}
                for c in range(3)
            ],
        }
        for r in range(3)
    ]


async def run_floor(
    n: int,
    *,
    mode: str = "dynamic",
    seconds: float = 10.0,
    moves: int | None = None,
    seed: int = 1,
    think: float = 0.0,
    profile: Path | None = None,
    sampled: Path | None = None,
) -> RunResult:
    """The floor bot (``--mode raw|dynamic``) under the same load: ``n`` players pressing as soon as answered."""
    result = RunResult(f"floor ({mode})", n)
    async with FakeDiscord(channels=WARM_CHANNELS + n) as fake:
        extra = {"TTT_BENCH_REFERENCE": str(FLOOR_BOT), "TTT_BENCH_ARGS": f"--mode {mode}"}
        if profile is not None:
            extra["TTT_BENCH_PROFILE"] = str(profile)
        bot = BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra), result.bot)
        await launch([bot], fake, commands=False)
        try:
            gid = fake.default_guild_id
            ids = [f"floor:{i}" for i in range(9)]
            boards = {c: fake.create_message(c, "board", components=_floor_board())["id"] for c in fake.channels()}
            players = [Player(fake, gid, c, i, seed) for i, c in enumerate(fake.channels())]
            phase = {"timed": False}

            async def press(player: Player) -> None:
                custom_id = player.rng.choice(ids)
                rec = await fake.press_button(gid, player.channel_id, player.user, boards[player.channel_id], custom_id)
                await answered(rec, f"floor press in {player.channel_id}")
                if rec.callback_type != CB_UPDATE:
                    result.refused += 1
                if phase["timed"]:
                    assert rec.latency is not None
                    result.latencies.append(rec.latency)
                    result.moves += 1

            async def presses(player: Player, count: int) -> None:
                for _ in range(count):
                    await press(player)

            async def play(player: Player, budget: Budget) -> None:
                await budget.pause(player.rng)
                while budget.take():
                    await press(player)
                    await budget.pause(player.rng)

            await gather(presses(p, 10) for p in players[:WARM_CHANNELS])
            await gather((presses(p, 1) for p in players[WARM_CHANNELS:]), limit=20)
            await asyncio.sleep(1.0)
            phase["timed"] = True
            timed_players = players[WARM_CHANNELS:]
            budget = Budget(moves, seconds, think)
            await timed_phase(result, [bot], budget, lambda b: (play(p, b) for p in timed_players), sampled)
        finally:
            await bot.stop()
        collect(result, fake, [bot])
    return with_profile(result, profile)
