"""Benchmark: the bot's own retained memory per active game, measured with tracemalloc.

Run from the repository root: ``python -m benchmarks.session_memory [--games N]``. It starts N games through
the game service, as the cog does (each game after the person's first press and the bot's reply, with its
board message and turn deadline), and prints the Python heap they retain per game. The RSS-based figure of
``benchmarks/load.py`` also counts allocator high-water marks and discord.py's per-interaction objects.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tracemalloc

from bot.games.ai import AI
from bot.games.answers import Posted, Shown
from bot.games.intents import Actor
from bot.games.match import new_game_id
from bot.games.service import GameService
from engine import Mark


async def retained_bytes_per_game(games: int) -> float:
    """Bytes of Python heap that ``games`` running games keep alive in the game service."""
    rng = random.Random(1)
    openings = [rng.randrange(9) for _ in range(games)]
    service = GameService(AI(rng=rng), turn_timeout=600)
    for cell in set(openings):  # warm the engine's caches and the executor before measuring
        warm = await service.start(Actor(1, 1), game_id=new_game_id(), play_as=Mark.X)
        assert isinstance(warm, Posted)
        await service.press(Actor(1, 1), warm.game.at(1), cell)
        service.close()
        service = GameService(service.ai, turn_timeout=600)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i, cell in enumerate(openings):
        user, channel = 10**17 + i, 10**18 + i
        actor = Actor(user, channel, guild_id=10**18)
        started = await service.start(actor, game_id=new_game_id(), play_as=Mark.X)
        assert isinstance(started, Posted)
        service.placed(channel, started.game.game_id, 10**18 + 2 * i, started.game.post)
        pressed = await service.press(actor, started.game.at(10**18 + 2 * i), cell)
        assert isinstance(pressed, Shown)
    after_snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after_snapshot.compare_to(before, "filename"))
    service.close()
    return grown / games


def main() -> int:
    """Print the retained bytes per game for a few N."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", default="100,500,5000")
    args = parser.parse_args()
    print("| games | retained per game (KB) |\n|---:|---:|")
    for n in (int(x) for x in args.games.split(",")):
        print(f"| {n:,} | {asyncio.run(retained_bytes_per_game(n)) / 1024:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
