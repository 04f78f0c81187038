"""A bot subprocess under the benchmark: started, its log read line by line, stopped cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import tempfile
import time
from collections.abc import Sequence

from benchmarks.harness.procfs import descendants
from testing.fake_discord import FakeDiscord

__all__ = ["BenchmarkError", "BotProcess", "launch"]

LAG_PERIOD = re.compile(r"event-loop lag: worst ([0-9.]+) ms in the last")
LAG_TOTAL = re.compile(r"([0-9.]+) ms since start")


class BenchmarkError(RuntimeError):
    """The benchmark could not drive the bot (no answer, a refused callback, a bot that never got ready)."""


class BotProcess:
    """A bot subprocess whose stderr is read line by line (each line timestamped) so the pipe never fills."""

    def __init__(self, argv: Sequence[str], env: dict[str, str], name: str) -> None:
        self.argv = list(argv)
        self.env = env
        self.name = name
        self.lines: list[tuple[float, str]] = []
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None
        self._cwd = tempfile.TemporaryDirectory(prefix="ttt-load-")  # no .env file there

    @property
    def pid(self) -> int:
        """The process id."""
        assert self.proc is not None
        return self.proc.pid

    async def start(self) -> None:
        """Start the process in an empty temporary directory."""
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            env=self.env,
            cwd=self._cwd.name,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
        )
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stderr is not None
        async for raw in self.proc.stderr:
            self.lines.append((time.perf_counter(), raw.decode(errors="replace").rstrip()))

    def text(self) -> str:
        """Everything the process logged so far."""
        return "\n".join(line for _, line in self.lines)

    def lag_ms(self, since: float, until: float) -> float | None:
        """The worst lag of the periods the bot reported between ``since`` and ``until`` (perf_counter times)."""
        found = [float(m[1]) for at, line in self.lines if since <= at <= until and (m := LAG_PERIOD.search(line))]
        return max(found) if found else None

    def lag_since_start_ms(self) -> float | None:
        """The last "since start" lag the bot logged."""
        found = [float(m[1]) for _, line in self.lines if "event-loop lag" in line and (m := LAG_TOTAL.search(line))]
        return found[-1] if found else None

    def errors(self) -> list[str]:
        """Log lines at ERROR or above, tracebacks and the lines that follow them."""
        out: list[str] = []
        follow = 0
        for _, line in self.lines:
            if "Traceback" in line or " ERROR " in line or " CRITICAL " in line:
                follow = 25
            if follow:
                out.append(line)
                follow -= 1
        return out

    async def wait_for_lag_line(self, after: float, timeout: float = 2.5) -> None:
        """Wait until a lag line logged after ``after`` arrives (it covers the period that ended then)."""
        deadline = time.perf_counter() + timeout
        while time.perf_counter() < deadline:
            if any(at > after and LAG_PERIOD.search(line) for at, line in self.lines[-20:]):
                return
            await asyncio.sleep(0.05)

    async def stop(self) -> None:
        """SIGINT (a clean close: the final lag line, a profile dump), then kill it and its leftovers."""
        if self.proc is None:
            return
        leftovers = descendants(self.proc.pid)
        if self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        for pid in leftovers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if self._reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._reader, 5)
        self._cwd.cleanup()


async def launch(bots: Sequence[BotProcess], fake: FakeDiscord, *, commands: bool) -> None:
    """Start ``bots`` and wait until every one has a ready gateway connection (and the commands are synced)."""
    for bot in bots:
        await bot.start()
    try:
        await fake.wait_for(lambda: len(fake.connected_shards()) >= len(bots), 60)
        if commands:
            await fake.wait_for(lambda: bool(fake.commands()), 30)
    except TimeoutError:
        for bot in bots:
            await bot.stop()
        logs = "\n".join(f"{bot.name}:\n{bot.text()[-3000:]}" for bot in bots)
        raise BenchmarkError(f"the bots never became ready:\n{logs}") from None
