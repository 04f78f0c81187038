"""Benchmark: the bot's own CPU per press, without Discord: the game service, the search and the rendering.

Run from the repository root: ``python -m benchmarks.own_cost [--games N]``. It plays N games the way the load
benchmark's players do (a random free cell, ``/ttt start`` again when a game ends, the bot opening every other
game) through the layers the cog uses: :func:`bot.games.codec.decode` of the pressed button's ``custom_id``,
:meth:`bot.games.GameService.press`, then :func:`bot.text.board.message_text` and :func:`bot.ui.views.board_view` of
the answer. Searches run in an executor that calls them inline, so the figure leaves out the thread round trip
(``benchmarks/load.py --inline-search`` prices that under load) and all of discord.py's work. It prints the CPU
time (process time, µs) per press of each stage, a press's share of the ``/ttt start`` calls included.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

from bot.games import codec
from bot.games.ai import AI
from bot.games.answers import Posted, Shown
from bot.games.intents import Actor
from bot.games.match import Match, new_game_id
from bot.games.service import GameService
from bot.i18n.lang import Lang, lang
from bot.text.board import message_text
from bot.ui import views
from engine import Mark

T = TypeVar("T")
FIRST_SNOWFLAKE = 1_300_000_000_000_000_000


class InlineExecutor(Executor):
    """Runs each submitted call at once, in the caller's thread."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        """The call's result (or exception) in an already finished future."""
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


class Stages:
    """Process time (s) spent per stage."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()

    def timed(self, stage: str, started: float) -> None:
        self.seconds[stage] += time.process_time() - started


def _render(game: Match, tr: Lang, stages: Stages) -> list[str]:
    """Render the answer as the responder does; returns the board's free-cell button ids."""
    started = time.process_time()
    message_text(game, tr=tr)
    view = views.board_view(game, tr)
    stages.timed("render the answer (text and buttons)", started)
    rows = view.to_components() if isinstance(view, views.BoardComponents) else []
    return [
        button["custom_id"]
        for row in rows
        for button in row["components"]
        if not button.get("disabled") and button["custom_id"][4].isdigit()
    ]


async def play(games: int, seed: int = 1) -> tuple[int, Stages]:
    """Play ``games`` games; returns the number of presses and the time per stage."""
    rng = random.Random(seed)
    service = GameService(AI(InlineExecutor(), rng=random.Random(seed)), turn_timeout=600)
    tr = lang("en-US")
    stages = Stages()
    presses = 0
    for index in range(games):
        channel, message_id = 1 + index, FIRST_SNOWFLAKE + index
        actor = Actor(10_000 + index, channel, 1, "en-US")
        started = time.process_time()
        game_id = new_game_id(FIRST_SNOWFLAKE + index)
        posted = await service.start(actor, game_id=game_id, play_as=Mark.X if index % 2 else Mark.O)
        assert isinstance(posted, Posted)
        service.placed(channel, posted.game.game_id, message_id, posted.game.post)
        stages.timed("/ttt start (service, search)", started)
        free = _render(posted.game, tr, stages)
        while free:
            started = time.process_time()
            board, cell = codec.decode(rng.choice(free), channel_id=channel, guild_id=1, message_id=message_id)
            stages.timed("decode the pressed button", started)
            started = time.process_time()
            shown = await service.press(actor, board, cell)
            stages.timed("press (service, search)", started)
            assert isinstance(shown, Shown)
            presses += 1
            free = _render(shown.game, tr, stages)
    service.close()
    return presses, stages


def main(argv: list[str] | None = None) -> int:
    """Print the CPU per press of each stage."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=3000)
    args = parser.parse_args(argv)
    asyncio.run(play(200, seed=2))  # warm the caches (gettext, Babel, the codec's and the faces' caches)
    presses, stages = asyncio.run(play(args.games))
    total = sum(stages.seconds.values())
    print(f"{args.games:,} games, {presses:,} presses ({presses / args.games:.2f} per game); CPU µs per press:")
    for stage, seconds in stages.seconds.most_common():
        print(f"  {seconds * 1e6 / presses:7.1f}  {stage}")
    print(f"  {total * 1e6 / presses:7.1f}  in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
