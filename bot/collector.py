"""The cyclic garbage collector's slow passes, run when the presses being answered give way.

CPython collects a generation when allocations cross its threshold, inside whatever code happened to allocate:
under load, usually a press being answered. Its generation-0 passes are short (0.7 ms at the median with 20
ultimate games and 8 3x3 channels playing); passes over generations 1 and 2 are not (about 2.5 ms and 15 ms, up to
60 ms, before :mod:`bot.ui.release` stopped each press leaving its objects in cycles; 8.6 ms at the longest since),
and a 3x3 press that arrives during one waits for all of it. :class:`QuietCollector` leaves generation 0
to CPython, keeps generations 1 and 2 out of the automatic schedule except as a backstop (``backstop`` times
CPython's cadence), and runs their passes from a task at CPython's own cadence (a generation-1 pass after every
``ratio`` generation-0 passes, a full one after every ``ratio`` generation-1 passes), each after
:meth:`bot.foreground.Foreground.give_way`. Like CPython, it skips a full pass (running a generation-1 one
instead) until the oldest generation has grown by a quarter since the last full pass, so a heap that holds steady
is not walked again and again; CPython counts the objects moved into that generation, which Python cannot see,
so here its size is counted (``gc.get_objects(2)``, about a millisecond) each time a full pass would be due.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Final

__all__ = ["POLL_SECONDS", "QuietCollector"]

POLL_SECONDS: Final = 0.05
"""How often the task looks whether a pass is due, seconds."""


class QuietCollector:
    """Runs the collector's generation-1 and -2 passes from a task, after ``give_way()``.

    ``every`` is the polling interval (seconds); ``ratio`` the number of passes of a generation before the next
    one is due (CPython's default threshold, 10); ``backstop`` how many times ``ratio`` the automatic thresholds
    of generations 1 and 2 are raised to while the task runs. ``passes`` counts the passes run, by generation.

    Raises:
        ValueError: ``every`` is not positive, or ``ratio`` or ``backstop`` is below 1.
    """

    def __init__(
        self,
        give_way: Callable[[], Awaitable[None]],
        *,
        every: float = POLL_SECONDS,
        ratio: int = 10,
        backstop: int = 10,
    ) -> None:
        if every <= 0 or ratio < 1 or backstop < 1:
            raise ValueError(f"need every > 0, ratio >= 1 and backstop >= 1, not {every!r}, {ratio!r}, {backstop!r}")
        self.give_way = give_way
        self.every = every
        self.ratio = ratio
        self.backstop = backstop
        self.passes: Counter[int] = Counter()
        self._old_after_full = 0
        self._saved: tuple[int, int, int] | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Raise the automatic thresholds of generations 1 and 2 and start the task (from a running loop, once).

        Raises:
            RuntimeError: it is already started.
        """
        if self._task is not None:
            raise RuntimeError("the quiet collector is already started")
        young, _, _ = self._saved = gc.get_threshold()
        gc.set_threshold(young, self.ratio * self.backstop, self.ratio * self.backstop)
        self._old_after_full = len(gc.get_objects(2))
        self._task = asyncio.get_running_loop().create_task(self._run(), name="quiet-collector")

    async def stop(self) -> None:
        """Stop the task and give CPython back its thresholds."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def due(self) -> int | None:
        """The generation whose pass is due (1 or 2), or ``None``."""
        _, young_passes, older_passes = gc.get_count()
        if young_passes < self.ratio:
            return None
        if older_passes + 1 < self.ratio or (older_passes + 1) % self.ratio:
            return 1  # the oldest generation is counted once every ``ratio`` generation-1 passes, not at each
        grown = len(gc.get_objects(2)) - self._old_after_full
        return 2 if grown * 4 > self._old_after_full else 1

    def _young_due(self) -> bool:
        return gc.get_count()[1] >= self.ratio

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            if not self._young_due():
                continue
            await self.give_way()
            generation = self.due()  # the backstop may have run it meanwhile
            if generation is not None:
                gc.collect(generation)
                self.passes[generation] += 1
                if generation == 2:
                    self._old_after_full = len(gc.get_objects(2))
