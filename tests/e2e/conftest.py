"""Fixtures for end-to-end tests: the real bot (``python -m bot``) as a subprocess against the fake Discord.

Every fake made in an e2e module answers REST after a round trip of 50-150 ms (:data:`E2E_LATENCY`, seeded),
as Discord does, except in modules marked ``load`` (the load benchmark sets its own). A failing test gets the log
of every bot process still registered (the tail of its stdout/stderr) appended to its report, so the cause is
visible without re-running anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from testing.fake_discord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
LOG_TAIL_LINES = 200
E2E_LATENCY = (0.05, 0.15)
"""The REST round trip (seconds, drawn uniformly) of every fake in the e2e suite."""
E2E_IDENTIFY_WINDOW = 1.0
"""Seconds between two IDENTIFYs of a ``max_concurrency`` bucket in every e2e fake (Discord: 5), passed to the bots
by ``FakeDiscord.env()``: a restart or a second shard process then waits 1 s, not 5."""
E2E_TOKEN = "e2e-dummy-token"
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
    "METRICS_PORT": "",
    "METRICS_HOST": "",
    "LOG_FORMAT": "",
    "DISCORD_SHARDS_PER_POD": "",
    "POD_ORDINAL": "",
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
        if proc is None:
            return
        self._kill_group()  # also after the main process exited: its workers may have outlived it
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
        await asyncio.wait_for(proc.wait(), timeout)

    def _kill_group(self) -> None:
        if self.proc is not None and process_group_members(self.proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    async def signal(self, sig: int) -> None:
        """Send ``sig`` to the bot's main process only (as a service manager or ``docker stop`` does)."""
        assert self.proc is not None and self.proc.returncode is None, "not running"
        self.proc.send_signal(sig)

    async def wait_exit(self, timeout: float) -> int | None:
        """The exit status once the bot exited within ``timeout`` seconds, else ``None`` (still running)."""
        assert self.proc is not None
        try:
            return await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            return None

    def group_members(self) -> list[str]:
        """``"pid command"`` of every live (non-zombie) process still in the bot's process group."""
        if self.proc is None:
            return []
        return process_group_members(self.proc.pid)

    def kill_now(self) -> None:
        """Synchronous last resort (no event loop needed): SIGKILL the process group."""
        self._kill_group()

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


def process_group_members(pgid: int) -> list[str]:
    """``"pid command"`` of every process in group ``pgid`` that has not exited (zombies excluded), from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")"
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            found.append(f"{entry.name} {stat[stat.index('(') + 1 : stat.rindex(')')]}")
    return found


def make_users(fake: FakeDiscord, *names: str, guild_id: str | None = None) -> list[dict[str, Any]]:
    """New users (members of ``guild_id``, default: the fake's default guild) with ids unique in the fake."""
    made = []
    for name in names:
        user = fake.make_user(200_000_000_000_000_000 + len(fake.users), name)
        fake.add_member(guild_id or fake.default_guild_id, user)
        made.append(user)
    return made


@pytest.fixture(autouse=True, scope="module")
def realistic_latency(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fakes made in this module answer after :data:`E2E_LATENCY` (not in ``load`` modules)."""
    if request.node.get_closest_marker("load") is not None:
        yield
        return
    saved = FakeDiscord.default_latency
    FakeDiscord.default_latency = E2E_LATENCY
    try:
        yield
    finally:
        FakeDiscord.default_latency = saved


@pytest.fixture(autouse=True, scope="module")
def short_identify_window() -> Iterator[None]:
    """Fakes made in this module refuse a second IDENTIFY of a bucket within :data:`E2E_IDENTIFY_WINDOW` seconds."""
    saved = FakeDiscord.default_identify_window
    FakeDiscord.default_identify_window = E2E_IDENTIFY_WINDOW
    try:
        yield
    finally:
        FakeDiscord.default_identify_window = saved


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def shared_fake() -> AsyncIterator[FakeDiscord]:
    """One fake Discord (one guild, 50-150 ms round trips) for a whole module of scenarios."""
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as server:
        yield server


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def shared_bot(shared_fake: FakeDiscord, tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotProcess]:
    """The real bot, started once for a module against :func:`shared_fake`, with its commands synced."""
    process = BotProcess(shared_fake, tmp_path_factory.mktemp("bot") / "bot.log")
    try:
        await process.start()
        await shared_fake.wait_for(lambda: bool(shared_fake.commands()), 10)
        yield process
    finally:
        await process.kill()
        process.close()


BotStarter = Callable[..., Awaitable[BotProcess]]


@pytest_asyncio.fixture
async def start_bot(tmp_path: Path) -> AsyncIterator[BotStarter]:
    """``await start_bot(fake, **env)``: a bot process of this test, killed (with its group) at the end."""
    started: list[BotProcess] = []

    async def start(fake: FakeDiscord, **env: str) -> BotProcess:
        process = BotProcess(fake, tmp_path / f"bot-{len(started)}.log", env)
        started.append(process)
        await process.start()
        await fake.wait_for(lambda: bool(fake.commands()), 10)
        return process

    try:
        yield start
    finally:
        for process in started:
            await process.kill()
            process.close()


_CHECKED: weakref.WeakKeyDictionary[FakeDiscord, int] = weakref.WeakKeyDictionary()
"""How many of a fake's violations earlier tests already checked (a module fixture's fake outlives a test)."""


@pytest.fixture(autouse=True)
def valid_bodies(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test if a fake Discord refused a request body during it (Discord's OpenAPI schema, message, command
    and attachment rules: ``Violation.invalid_body``), unless the test is marked ``invalid_bodies`` (it sends them
    on purpose and asserts on them itself). A module fixture's fake counts from where the previous test left it
    (the bot's start-up requests count for the module's first test)."""
    made: list[FakeDiscord] = []
    FakeDiscord.observers.append(made.append)
    try:
        yield
    finally:
        FakeDiscord.observers.remove(made.append)
    fakes = [*made, *(v for v in request.node.funcargs.values() if isinstance(v, FakeDiscord) and v not in made)]
    refused = []
    for fake in fakes:
        refused += [str(v) for v in fake.violations[_CHECKED.get(fake, 0) :] if v.invalid_body]
        _CHECKED[fake] = len(fake.violations)
    if refused and request.node.get_closest_marker("invalid_bodies") is None:
        pytest.fail("the fake Discord refused request bodies:\n" + "\n".join(refused), pytrace=False)


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
