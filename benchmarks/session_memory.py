"""Benchmark: the bot's own retained memory per active game, measured with tracemalloc.

Run from the repository root: ``python benchmarks/session_memory.py [--games N]``. It starts N games the
way the cog does (a Session after one move and the bot's reply, its channel lock and turn timer, held in a
SessionManager) and prints the Python heap they retain per game. The RSS-based figure of
``benchmarks/load.py`` also counts allocator high-water marks and discord.py's per-interaction objects.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tracemalloc
from pathlib import Path

_HERE = Path(__file__).resolve().parent
if __name__ == "__main__":  # run as a script: this file's folder would shadow the engine package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
    sys.path.insert(0, str(_HERE.parent))

from bot.ai import decide  # noqa: E402
from bot.sessions import Session, SessionManager, new_game_id  # noqa: E402

from engine import Difficulty  # noqa: E402


async def retained_bytes_per_game(games: int) -> float:
    """Bytes of Python heap that ``games`` running games keep alive in a SessionManager."""
    rng = random.Random(1)
    openings = [rng.randrange(9) for _ in range(games)]
    replies = {}
    for cell in set(openings):  # the engine's work (and its caches) happens before measuring
        state = Session("000000", 0, 1, None).play(cell).state
        replies[cell] = decide(state, Difficulty.UNBEATABLE, "alpha-beta", 7)
    manager = SessionManager(turn_timeout=600)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i, cell in enumerate(openings):  # a game after the person's first move and the bot's reply
        session = Session(new_game_id(), 10**18 + i, 10**17 + i, None, guild_id=10**18, message_id=10**18 + 2 * i)
        session = session.play(cell).with_ai(replies[cell])
        async with manager.lock(session.channel_id):
            manager.start(session)
    after_snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after_snapshot.compare_to(before, "filename"))
    manager.close()
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
