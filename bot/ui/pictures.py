"""A board's picture as an attachment drawn off the event loop, in a process of its own.

Drawing an ultimate board's PNG (:func:`bot.images.ultimate.draw_ultimate`) costs about 7 ms of CPU: 2-3 ms of
drawing calls that hold the GIL and 4-5 ms of PNG compression. On the event loop it holds up every other answer; in
a thread it still competes with the loop for the GIL. A reply therefore carries a :class:`Picture` (what to draw),
and the responder and the background edits turn it into a file through a :class:`Drawer` just before the request
is sent. The bot's drawer draws in one spawned process (:func:`picture_executor`); with ``benchmarks/ultimate_load.py``
(20 ultimate games next to 8 3x3 channels with 0.1 s think times), the bot's main process spent 10.8 s of CPU in 20 s
instead of 15.0 s with the drawing in a thread, and the 3x3 presses' p99 fell from 68.9 to 28.1 ms (one run each,
with the search workers at ``SCHED_IDLE``).
"""

from __future__ import annotations

import asyncio
import io
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.games.match import Match
from bot.games.workers import die_with_parent, run_when_idle
from bot.images import GridPicture, UltimatePicture, draw_picture
from bot.text.common import deciding_line
from engine import Variant

__all__ = [
    "CACHED_PICTURES",
    "DRAWING_NICENESS",
    "GRID_PICTURE_NAME",
    "PICTURE_NAME",
    "Attachment",
    "Drawer",
    "Picture",
    "grid_picture",
    "picture_executor",
    "state_picture",
    "ultimate_picture",
]

PICTURE_NAME: Final = "ultimate.png"
"""The file name of a board's picture (its media gallery refers to ``attachment://ultimate.png``)."""
GRID_PICTURE_NAME: Final = "board.png"
"""The file name of a grid's picture (``attachment://board.png``)."""

CACHED_PICTURES: Final = 64
"""How many drawn pictures a :class:`Drawer` keeps (about 13 KB each): one position is often shown twice (the
board, then its edit after a failed answer)."""
DRAWING_NICENESS: Final = 5
"""How much lower the drawing process's scheduling priority is than the bot's (``os.nice``). On Linux it also runs
under ``SCHED_IDLE``, as the search workers do: on a machine whose cores are all busy, the event loop (and the 3x3
presses it answers) always gets a core first, and a picture shares the idle cores with the searches.
``benchmarks/ultimate_load.py`` (20 ultimate games next to 8 3x3 channels with 0.1 s think times, 4 pairs of 15 s
phases, three runs by turns): the 3x3 presses' p99 with the games was 1.53x, 1.44x and 1.54x their p99 without
them, against 1.56x, 1.74x and 2.01x at nice 5 alone; the press-to-bot's-move p50 stayed at 1.27-1.31 s."""


@dataclass(frozen=True, slots=True)
class Picture:
    """A board's picture (a grid, or ultimate's board of small boards) to attach as ``filename``, not drawn yet."""

    shows: GridPicture | UltimatePicture
    filename: str


Attachment = discord.File | Picture
"""What a reply attaches: a file, or a picture drawn when it is sent."""


def ultimate_picture(game: Match) -> UltimatePicture:
    """What the picture of a board of small boards shows: its marks, its small boards' results, the boards the
    player to move may play in (none once it is over) and the last move."""
    return state_picture(game.kind, game.state, game.moves[-1] if game.moves else None, over=game.over)


def grid_picture(game: Match) -> GridPicture:
    """What the picture of ``game``'s grid shows: its pieces, its last move, the line that decided it, won or lost."""
    kind, state = game.kind, game.state
    layout = kind.layout()
    line, lost = deciding_line(kind, state)
    return GridPicture(
        width=layout.width,
        height=layout.height,
        cells=tuple(kind.mark(state, cell) for cell in range(kind.cells)),
        pieces=layout.pieces,
        last=game.moves[-1] if game.moves else None,
        won=line,
        lost=lost,
    )


def state_picture(kind: Variant, state: Any, last: int | None, *, over: bool) -> UltimatePicture:
    """:func:`ultimate_picture` of an engine ``state`` of game ``kind`` whose last move was ``last`` (a puzzle's
    position, say)."""
    blocks = range((kind.width // kind.block) ** 2)
    return UltimatePicture(
        cells=tuple(kind.mark(state, cell) for cell in range(kind.cells)),
        boards=tuple(kind.block_result(state, block) for block in blocks),
        targets=frozenset(() if over else kind.open_blocks(state)),
        last=last,
    )


def picture_executor(niceness: int = DRAWING_NICENESS) -> ProcessPoolExecutor:
    """One spawned process for drawing pictures (never forked, so it never inherits the event loop or its sockets),
    killed with the bot even when it is killed with SIGKILL (:func:`bot.games.workers.die_with_parent`), running
    on idle cores only (:func:`bot.games.workers.run_when_idle`)."""
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(1, context, initializer=_start_drawing, initargs=(os.getpid(), niceness))


def _start_drawing(parent_pid: int, niceness: int) -> None:
    """The drawing process's initializer: die with the process ``parent_pid``, then run only on idle cores
    (:func:`bot.games.workers.run_when_idle`, ``niceness`` lower where ``SCHED_IDLE`` is missing)."""
    die_with_parent(parent_pid)
    run_when_idle(niceness)


class Drawer:
    """Turns a reply's attachments into files for one request, drawing pictures in ``executor`` (``None``: the
    loop's default thread pool) and keeping the last :data:`CACHED_PICTURES` drawn."""

    def __init__(self, executor: Executor | None = None) -> None:
        self.executor = executor
        self._drawn: OrderedDict[GridPicture | UltimatePicture, bytes] = OrderedDict()

    async def png(self, shows: GridPicture | UltimatePicture) -> bytes:
        """The picture ``shows`` as PNG bytes: from the cache, or drawn in the executor.

        Raises:
            whatever drawing raises, and ``concurrent.futures.process.BrokenProcessPool`` when its process died.
        """
        drawn = self._drawn.get(shows)
        if drawn is None:
            drawn = await asyncio.get_running_loop().run_in_executor(self.executor, draw_picture, shows)
            self._drawn[shows] = drawn
            if len(self._drawn) > CACHED_PICTURES:
                self._drawn.popitem(last=False)
        else:
            self._drawn.move_to_end(shows)
        return drawn

    async def attachments(self, files: Sequence[Attachment]) -> list[discord.File]:
        """``files`` ready for one request, each a file of its own: every :class:`Picture` drawn, every file copied
        from its start (discord.py leaves a file read to its end after a request)."""
        ready = []
        for item in files:
            if isinstance(item, Picture):
                ready.append(discord.File(io.BytesIO(await self.png(item.shows)), filename=item.filename))
            else:
                item.reset()
                ready.append(
                    discord.File(io.BytesIO(item.fp.read()), filename=item.filename, description=item.description)
                )
        return ready

    async def warm_up(self) -> None:
        """Draw one picture, so the drawing process has started before the first ultimate board."""
        await self.png(UltimatePicture(cells=(None,) * 81, boards=(None,) * 9, targets=frozenset(range(9)), last=None))

    def shutdown(self) -> None:
        """Stop the executor without waiting for it (at shutdown)."""
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
