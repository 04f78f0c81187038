"""Fixtures for end-to-end tests: the real bot (``python -m bot``) as a subprocess against the fake Discord.

A failing test gets the log of every bot process still registered (the tail of its stdout/stderr) appended to its
report, so the cause is visible without re-running anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections.abc import Generator, Mapping
from pathlib import Path
from typing import Any

import pytest

from .fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
LOG_TAIL_LINES = 200
_ANSI = re.compile(r"\x1b\[[0-9;]*m")

# Settings that must not leak in from the developer's shell or their .env (an empty value counts as unset).
_NEUTRAL_ENV = {
    "DISCORD_DEV_GUILD_ID": "",
    "DISCORD_SHARD_IDS": "",
    "DISCORD_SHARD_COUNT": "",
    "TTT_TURN_TIMEOUT": "",
    "TTT_CHALLENGE_TIMEOUT": "",
    "TTT_LAG_REPORT_SECONDS": "",
    "DATABASE_URL": "",
}

_LIVE_BOTS: list[BotProcess] = []
"""Bot processes whose logs a failing test's report gets."""


class BotProcess:
    """``python -m bot`` in its own process group, pointed at ``fake``, logging to ``log_path``."""

    def __init__(self, fake: FakeDiscord, log_path: Path, env: Mapping[str, str] | None = None) -> None:
        self.fake = fake
        self.log_path = log_path
        self.env = dict(env or {})
        self.proc: asyncio.subprocess.Process | None = None
        self.startup_seconds: float | None = None

    def environment(self) -> dict[str, str]:
        """os.environ without any real Discord or bot settings, plus the fake's endpoints and ``self.env``."""
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TTT_"))}
        database = f"sqlite:///{self.log_path.parent / 'ttt.sqlite3'}"
        return {
            **base,
            **_NEUTRAL_ENV,
            "LOG_LEVEL": "INFO",
            "PYTHONUNBUFFERED": "1",
            "DATABASE_URL": database,
            **self.fake.env(),
            **self.env,
        }

    async def start(self, timeout: float = 30.0) -> float:
        """Start the bot and wait until it identified on the gateway; returns the start-up time in seconds."""
        assert self.proc is None or self.proc.returncode is not None, "already running"
        identified = self.fake.identify_count
        started = time.perf_counter()
        with self.log_path.open("ab") as log_file:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=ROOT,
                env=self.environment(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log_file,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,  # its own process group, so the search workers die with it
            )
        if self not in _LIVE_BOTS:
            _LIVE_BOTS.append(self)
        ready = asyncio.ensure_future(self.fake.wait_for_ready(timeout, count=identified + 1))
        exited = asyncio.ensure_future(self.proc.wait())
        try:
            await asyncio.wait({ready, exited}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            exited.cancel()
        if not ready.done():
            ready.cancel()
            raise AssertionError(f"the bot exited with status {self.proc.returncode}:\n{self.log_tail()}")
        if ready.exception() is not None:
            raise AssertionError(f"the bot did not connect within {timeout} s:\n{self.log_tail()}")
        self.startup_seconds = time.perf_counter() - started
        return self.startup_seconds

    async def kill(self, timeout: float = 10.0) -> None:
        """SIGKILL the bot and its search workers (its whole process group) and reap it."""
        proc = self.proc
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        await asyncio.wait_for(proc.wait(), timeout)

    def kill_now(self) -> None:
        """Synchronous last resort (no event loop needed): SIGKILL the process group."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    def log_text(self) -> str:
        """The bot's output so far, without colour codes (discord.py colours its log inside Docker)."""
        return _ANSI.sub("", self.log_path.read_text(errors="replace")) if self.log_path.exists() else ""

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def close(self) -> None:
        """Forget this bot for failure reports (call after :meth:`kill`)."""
        self.kill_now()
        with contextlib.suppress(ValueError):
            _LIVE_BOTS.remove(self)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Generator[None, Any, Any]:
    """Attach the running bots' logs to a failing e2e test's report."""
    report = yield
    if report.failed and _LIVE_BOTS:
        for i, bot in enumerate(_LIVE_BOTS):
            report.sections.append((f"bot log {i} ({bot.log_path}, last {LOG_TAIL_LINES} lines)", bot.log_tail()))
    return report


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Never leave a bot behind, even if a fixture's teardown did not run."""
    for bot in list(_LIVE_BOTS):
        bot.close()
