"""Benchmark: slow variants' searches through the game service (no Discord), on this machine's cores.

Run from the repository root: ``python -m benchmarks.variant_searches [--games 20] [--seconds 20]``. N ultimate
games against the bot (level 8: up to 1 s a move) are played at once, each player pressing a random legal cell as soon
as the bot's move arrives, while 3x3 games in other channels press as fast as their answers come back. It prints,
for the ultimate presses, the time to the service's answer (the interaction's first callback waits for nothing
else) and from the press to the bot's committed move (p50, p99), the searches admitted at full and reduced budget
and the moves refused as busy; and the 3x3 presses' p99 answer time with and without the ultimate load. The
search pool is the production one (a spawned process per core, :func:`bot.games.pool.variant_executor`).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from bot.games.ai import AI
from bot.games.answers import BotMoved, Posted, Refusal, Shown
from bot.games.intents import Actor
from bot.games.match import BoardRef, new_game_id
from bot.games.pool import SearchPool, variant_executor
from bot.games.service import GameService

FIRST_SNOWFLAKE = 1_300_000_000_000_000_000


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0-1) of ``values``, ms."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def run(games: int, seconds: float, load: bool, seed: int = 1) -> dict[str, list[float] | int]:
    """One phase: ``games`` ultimate games (when ``load``) and 4 channels of 3x3 presses for ``seconds``."""
    rng = random.Random(seed)
    pool = SearchPool(variant_executor())
    ai = AI(ThreadPoolExecutor(2), rng=random.Random(seed), pool=pool)
    moved: dict[int, asyncio.Event] = {}
    arrived: dict[int, float] = {}

    def on_bot_move(answer: BotMoved) -> None:
        arrived[answer.game.channel_id] = time.perf_counter()
        moved[answer.game.channel_id].set()

    service = GameService(ai, turn_timeout=600, on_bot_move=on_bot_move)
    stats: dict[str, list[float] | int] = {"answer": [], "bot": [], "three": [], "busy": 0, "reduced": 0, "full": 0}
    deadline = time.perf_counter() + seconds
    warm = await asyncio.get_running_loop().run_in_executor(pool.executor, sum, (1, 2))
    assert warm == 3

    async def ultimate(index: int) -> None:
        channel = 1 + index
        actor = Actor(10_000 + index, channel, 1)
        posted = await service.start(actor, game_id=new_game_id(FIRST_SNOWFLAKE + index), variant="ultimate")
        assert isinstance(posted, Posted)
        service.placed(channel, posted.game.game_id, 5_000 + index, posted.game.post)
        game = posted.game.at(5_000 + index)
        while time.perf_counter() < deadline and not game.over:
            cell = rng.choice(tuple(game.rules.actions(game.state)))
            moved[channel] = asyncio.Event()
            pressed = time.perf_counter()
            outcome = await service.press(
                actor, BoardRef("ultimate", game.game_id, game.ply, channel, 1, 5_000 + index), cell
            )
            stats["answer"].append((time.perf_counter() - pressed) * 1000)  # type: ignore[union-attr]
            if isinstance(outcome, Refusal):
                stats["busy"] += 1  # type: ignore[operator]
                await asyncio.sleep(1)
                continue
            assert isinstance(outcome, Shown)
            if outcome.game.over:
                break
            await moved[channel].wait()
            stats["bot"].append((arrived[channel] - pressed) * 1000)  # type: ignore[union-attr]
            current = service.current(channel)
            if current is None:
                break
            game = current
            last = game.last_ai
            assert last is not None
            stats["reduced" if last.reduced else "full"] += 1  # type: ignore[operator]

    async def three(index: int) -> None:
        channel = 10_000 + index
        actor = Actor(20_000 + index, channel, 1)
        n = 0
        while time.perf_counter() < deadline:
            posted = await service.start(actor, game_id=new_game_id(FIRST_SNOWFLAKE + 10_000 * (index + 1) + n))
            n += 1
            assert isinstance(posted, Posted)
            service.placed(channel, posted.game.game_id, 9_000 + n, posted.game.post)
            game = posted.game.at(9_000 + n)
            while not game.over and time.perf_counter() < deadline:
                cell = rng.choice(tuple(c for c in range(9) if game.state[c] is None))
                pressed = time.perf_counter()
                outcome = await service.press(actor, game, cell)
                stats["three"].append((time.perf_counter() - pressed) * 1000)  # type: ignore[union-attr]
                assert isinstance(outcome, Shown)
                game = outcome.game
                await asyncio.sleep(0.005)
            if not game.over:
                await service.resign(actor, board=game)

    tasks = [three(i) for i in range(4)] + ([ultimate(i) for i in range(games)] if load else [])
    await asyncio.gather(*tasks)
    service.close()
    await ai.shutdown()
    return stats


def main(argv: list[str] | None = None) -> int:
    """Print the figures of one run without and one with the ultimate load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args(argv)
    quiet = asyncio.run(run(args.games, args.seconds, load=False))
    loaded = asyncio.run(run(args.games, args.seconds, load=True))
    answers, bots = loaded["answer"], loaded["bot"]
    assert isinstance(answers, list) and isinstance(bots, list)
    print(f"{args.games} ultimate games at 1 s a move for {args.seconds:.0f} s:")
    print(f"  answer to the press: p50 {percentile(answers, 0.5):.1f} ms, p99 {percentile(answers, 0.99):.1f} ms")
    print(f"  press to the bot's move: p50 {percentile(bots, 0.5):.0f} ms, p99 {percentile(bots, 0.99):.0f} ms")
    print(f"  searches: {loaded['full']} full, {loaded['reduced']} reduced; moves refused as busy: {loaded['busy']}")
    for name, phase in (("without", quiet), ("with", loaded)):
        times = phase["three"]
        assert isinstance(times, list)
        print(
            f"  3x3 presses {name} the load: {len(times)}, p50 {statistics.median(times):.2f} ms, "
            f"p99 {percentile(times, 0.99):.2f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
