"""A board's picture is drawn when its reply is sent, in the drawer's executor (the bot's: a process of its own),
once per position while it is cached; every request gets files of its own."""

from __future__ import annotations

import io
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import discord

from bot.images.ultimate import UltimatePicture, draw_ultimate
from bot.ui.pictures import CACHED_PICTURES, Drawer, Picture, picture_executor
from engine import Mark

EMPTY = UltimatePicture(cells=(None,) * 81, boards=(None,) * 9, targets=frozenset(range(9)), last=None)


def opened(cell: int) -> UltimatePicture:
    """The picture after X's first move in ``cell``."""
    cells = tuple(Mark.X if c == cell else None for c in range(81))
    return UltimatePicture(cells=cells, boards=(None,) * 9, targets=frozenset({cell % 9}), last=cell)


class Counting(ThreadPoolExecutor):
    """A thread pool that notes what it was given to run."""

    def __init__(self) -> None:
        super().__init__(1)
        self.given: list[tuple[Any, ...]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.given.append(args)
        return super().submit(fn, *args, **kwargs)


async def test_a_picture_is_drawn_in_the_executor_once_per_position_while_cached() -> None:
    executor = Counting()
    drawer = Drawer(executor)
    plain = discord.File(io.BytesIO(b"text"), filename="notes.txt")
    first = await drawer.attachments((Picture(opened(40), "ultimate.png"), plain))
    again = await drawer.attachments((Picture(opened(40), "ultimate.png"),))
    assert [f.filename for f in first] == ["ultimate.png", "notes.txt"] and first[1].fp.read() == b"text"
    assert first[0].fp.read() == again[0].fp.read() == draw_ultimate(opened(40))
    assert executor.given == [(opened(40),)]  # the second reply of the same position takes the cached one
    for cell in range(CACHED_PICTURES):  # 64 other positions push the first out of the cache
        await drawer.png(opened(cell if cell != 40 else 80))
    await drawer.png(opened(40))
    assert len(executor.given) == CACHED_PICTURES + 2 and executor.given[-1] == (opened(40),)
    drawer.shutdown()


async def test_every_request_gets_files_of_its_own_read_from_their_start() -> None:
    drawer = Drawer()
    plain = discord.File(io.BytesIO(b"text"), filename="notes.txt")
    first = await drawer.attachments((plain,))
    assert first[0].fp.read() == b"text"  # what a request does to its files
    again = await drawer.attachments((plain,))
    assert again[0] is not first[0] and again[0].fp.read() == b"text" and await drawer.attachments(()) == []


async def test_the_bot_draws_in_a_process_of_its_own() -> None:
    drawer = Drawer(picture_executor())
    try:
        await drawer.warm_up()
        assert await drawer.png(opened(0)) == draw_ultimate(opened(0))
        processes = drawer.executor._processes  # type: ignore[union-attr]
        assert len(processes) == 1
    finally:
        drawer.shutdown()
