"""Load benchmark: N concurrent games against the real bot through the fake Discord, next to the "floor" bot.

For every N (channels, one game each) it starts a fresh fake Discord (``testing/fake_discord.py``) in this
process, a fresh records file and a fresh bot subprocess, then:

1. warms up: 4 extra channels play 2 games each (the search workers started, the code paths hot), then every
   one of the N channels plays one whole game, ``--ramp`` channels at a time, so the allocator's high-water mark
   of that traffic is already in the baseline;
2. holds N games mid-game: ``/ttt start`` in every channel (``play_as`` alternating, so the bot opens half of
   them) and one press each, ``--ramp`` channels at a time; the bot's VmRSS after, minus before, divided by N
   is the memory per active game;
3. runs for ``--seconds`` (or ``--moves`` presses in all): in every channel the player presses a random free
   cell (seeded rng) of the current board message as soon as the previous press was answered, and sends
   ``/ttt start`` again when the game is over.

A press is the player's mark and the bot's reply, answered with one message update. Latency is
:attr:`InteractionRecord.latency` (dispatch on the gateway to the first callback request) of the presses of
step 3. CPU is utime + stime from ``/proc/<pid>/stat`` of the bot process and of its live descendants (the
search workers and multiprocessing's resource tracker), found by scanning the parent pid of every
``/proc/<pid>/stat``: this kernel has no ``/proc/<pid>/task/<tid>/children``. Peak RSS is VmHWM from
``/proc/<pid>/status``. The worst event-loop lag comes from the bot's own "event-loop lag" log lines
(``TTT_LAG_REPORT_SECONDS=1``) over step 3. After the bot stops, the rows of its SQLite records file are
counted against the games that ended on a board: every one must be stored.

The floor is ``testing/floor_bot.py`` under the same load: the same N, a message with a 3x3 board of buttons
per channel, each player pressing any button as soon as the previous press was answered. It runs with the
bot's :class:`bot.ops.loop_lag.LoopLagMonitor` added, so its loop lag is measured the same way. A saturated closed loop
delays every bot's loop, the floor's too, so the lag target is judged against the floor's lag in the same run.

``--minimal`` also plays our load against ``testing/minimal_bot.py``, the minimal but correct bot the issue
describes (alpha-beta in an executor, a ``DynamicItem``, a per-channel lock, one edit per press, ``/ttt start`` as
an application command, no records), and prints its CPU per press against the floor's and ours against its: how
much of our cost the game itself needs.

    python benchmarks/load.py [--games 1,10,100] [--seconds 10] [--repeat R] [--quick] [--no-raw] [--minimal]
                              [--processes K] [--bot-root DIR ...]
                              [--profile DIR] [--py-spy DIR] [--tracemalloc] [--think SECONDS] [--ramp K]
                              [--bot-log-level INFO] [--inline-search] [--metrics]

``--metrics`` also runs our bot as two shard processes side by side under the same load, at the same time, one with
its Prometheus metrics on (``METRICS_PORT``, scraped every ``--scrape-every`` s, 15 by default, by this process) and one
without (which one alternates between runs), and prints the CPU per press of each and their ratio (issue 20: the
metrics may cost at most 5 %). Run side by side, the two share every drift of this shared machine's speed.

``--bot-root DIR`` (repeatable) also runs the bot of another checkout under the same load, after ours and before the
floor: e.g. ``git worktree add --detach /work/wt-old-22e2851 22e2851`` for an older commit. Only the bot comes from
there (first on its ``PYTHONPATH``, for its search workers too); the driver, the fake Discord and the floor are this
checkout's. A table then gives each checkout's CPU per press, the floor's of the same N, and the ratios.

``--processes K`` also runs our bot as K shard processes (``DISCORD_SHARD_COUNT=K``, one ``DISCORD_SHARD_IDS``
each) under the same load, with the channels spread over one guild per shard (the fake routes a guild's
events by ``(guild_id >> 22) % K``) and one records file shared by all; it reports presses per second and
p99 against one process. ``--think`` gives the players an exponential think time between presses (an open,
realistic load instead of the default closed loop, which saturates the bot at every N >= 10).

It prints a Markdown table (ours vs the floor per N) and one PASS/MISS line per target, judged at N=100; the exit
code is 1 when a target is missed. This machine is shared and its speed drifts by 10-20 % within a minute, so
``--repeat R`` runs each N R times (ours, then the floor, each time) and judges the median of the R ratios. Every
bot runs from a launcher (``python -c``) that calls its real entry point (``bot.__main__.main``, ``floor_bot.main``,
``minimal_bot.main``) after setting the ``bot.ops.loop_lag`` logger to INFO, so our bot can run at LOG_LEVEL=WARNING
(the cheapest setting: no per-move INFO lines; ``--bot-log-level INFO`` measures the default) and still report its
lag.
Diagnostics (their figures are slower than normal): ``--profile DIR`` runs both bots under cProfile and prints
their hottest functions (cProfile sees only the main thread, and coroutines and SQLAlchemy's greenlets blur its
cumulative times); ``--py-spy DIR`` samples each bot's timed phase with py-spy instead (``--gil``: the thread
running Python, whichever it is, at the bots' normal speed) and prints the share of samples per package and the top
functions by own samples; ``--tracemalloc`` traces our bot's allocations and prints, by line of code, what the held
games added to the heap between two snapshots (each after a ``gc.collect()``); ``--inline-search`` gives our bot an
executor that runs each search on the event loop, to price the executor round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import gc
import math
import os
import platform
import pstats
import random
import re
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Coroutine, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
if __name__ == "__main__":  # run as a script: this folder (it has an engine.py) would shadow the engine package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from testing.fake_discord import FakeDiscord, InteractionRecord  # noqa: E402

__all__ = ["BotProcess", "RunResult", "bot_env", "main", "quantile_ms", "run_floor", "run_ours", "table", "targets"]

FLOOR_BOT = ROOT / "testing" / "floor_bot.py"
MINIMAL_BOT = ROOT / "testing" / "minimal_bot.py"
LATE = 3.0
"""Discord refuses a first callback later than this many seconds."""
TARGET_N = 100
"""The issue's targets hold at 100 concurrent games."""
CPU_RATIO_TARGET = 1.4
P99_RATIO_TARGET = 1.5
MEMORY_TARGET_KB = 10.0
LAG_TARGET_MS = 50.0
ANSWER_TIMEOUT = 30.0
WARM_CHANNELS = 4
WARM_GAMES = 2
CB_MESSAGE, CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE, CB_UPDATE = 4, 5, 6, 7
CELL_ID = re.compile(r"ttt:[0-8]:")
LAG_PERIOD = re.compile(r"event-loop lag: worst ([0-9.]+) ms in the last")
LAG_TOTAL = re.compile(r"([0-9.]+) ms since start")
CLK_TCK = os.sysconf("SC_CLK_TCK")

# Both bots start from this launcher. It changes nothing in the product: it sets the loop-lag logger to INFO
# (LOG_LEVEL only sets the root logger), optionally swaps in a diagnostic executor or cProfile, and calls the
# real entry point, which stops cleanly on SIGINT (so a profile gets dumped).
LAUNCHER = """\
import logging, os, sys
logging.getLogger("bot.ops.loop_lag").setLevel(logging.INFO)
reference = os.environ.get("TTT_BENCH_REFERENCE")  # the floor or the minimal bot: a module with CLIENT and main()
if reference:
    import importlib
    logging.getLogger("bot.ops.loop_lag").addHandler(logging.StreamHandler())  # run() configures only "discord"
    sys.path.insert(0, os.path.dirname(reference))
    module = importlib.import_module(os.path.splitext(os.path.basename(reference))[0])
    from bot.ops.loop_lag import LoopLagMonitor
    hook = module.CLIENT.setup_hook
    async def setup_hook(self):
        self.loop_lag = LoopLagMonitor(report_every=float(os.environ["TTT_LAG_REPORT_SECONDS"]))
        self.loop_lag.start()
        await hook(self)
    module.CLIENT.setup_hook = setup_hook
    sys.argv = [reference, *os.environ.get("TTT_BENCH_ARGS", "").split()]
    def entry():
        module.main()
        return 0
else:
    from bot.__main__ import main
    if os.environ.get("TTT_BENCH_INLINE_SEARCH"):
        import concurrent.futures, bot.client
        class Inline(concurrent.futures.Executor):
            def submit(self, fn, /, *args, **kwargs):
                future = concurrent.futures.Future()
                future.set_result(fn(*args, **kwargs))
                return future
        bot.client.search_executor = bot.client.fast_executor = Inline
    def entry():
        return main([])
snapshots = os.environ.get("TTT_BENCH_SNAPSHOTS")
if snapshots:
    import gc, signal, tracemalloc
    tracemalloc.start(1)
    def snapshot(signum, frame):
        name = open(os.path.join(snapshots, "next")).read()
        gc.collect()  # discord.py's views and items form cycles: count what is kept, not what awaits collection
        tracemalloc.take_snapshot().dump(os.path.join(snapshots, name + ".tmp"))
        os.rename(os.path.join(snapshots, name + ".tmp"), os.path.join(snapshots, name + ".snapshot"))
    signal.signal(signal.SIGUSR1, snapshot)
path = os.environ.get("TTT_BENCH_PROFILE")
if not path:
    sys.exit(entry())
import cProfile
profile = cProfile.Profile()
status = profile.runcall(entry)
profile.dump_stats(path)
sys.exit(status)
"""


class BenchmarkError(RuntimeError):
    """The benchmark could not drive the bot (no answer, a refused callback, a bot that never got ready)."""


# ---------------------------------------------------------------------------------------------- /proc


def _stat(pid: int) -> tuple[int, float] | None:
    """``(ppid, utime + stime in seconds)`` of a process, or ``None`` when it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # fields[0] is field 3 (state) of proc(5)
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / CLK_TCK


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid``, found by scanning the parent pid of every process in ``/proc``."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(int(entry))) is not None:
            children.setdefault(stat[0], []).append(int(entry))
    found: list[int] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cpu_seconds(pid: int) -> dict[int, float]:
    """CPU seconds (user + system) of ``pid`` and of each of its live descendants, by pid."""
    out: dict[int, float] = {}
    for p in (pid, *descendants(pid)):
        stat = _stat(p)
        if stat is not None:
            out[p] = stat[1]
    return out


def status_kb(pid: int, key: str) -> int:
    """A ``kB`` field of ``/proc/<pid>/status`` (``VmRSS``, ``VmHWM``); 0 when the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


# ---------------------------------------------------------------------------------------------- bot process


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


def bot_env(fake: FakeDiscord, extra: dict[str, str], root: Path = ROOT) -> dict[str, str]:
    """The environment of a bot subprocess pointed at ``fake``: ``root`` (a checkout, this one by default) first on
    ``PYTHONPATH``, so its ``bot`` and ``engine`` packages are imported rather than the editable install's (which
    may be another worktree), in the bot and in its spawned search workers; then ``extra``."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV")
    env = {k: v for k, v in os.environ.items() if k in keep}
    path = os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p)
    return {**env, "PYTHONPATH": path, **fake.env(), "TTT_LAG_REPORT_SECONDS": "1", **extra}


async def _launch(bots: Sequence[BotProcess], fake: FakeDiscord, *, commands: bool) -> None:
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


# ---------------------------------------------------------------------------------------------- results


@dataclass
class RunResult:
    """The figures of one bot under one N."""

    bot: str
    n: int
    moves: int = 0
    games: int = 0
    """Games finished in the timed phase."""
    elapsed: float = 0.0
    latencies: list[float] = field(default_factory=list)
    """Press-to-first-callback latencies (s) in the timed phase."""
    start_latencies: list[float] = field(default_factory=list)
    """``/ttt start`` latencies (s), every phase."""
    late: int = 0
    """Interactions (every phase) answered after ``LATE`` seconds, or never."""
    records: int = 0
    violations: list[str] = field(default_factory=list)
    unknown_routes: list[str] = field(default_factory=list)
    refused: int = 0
    """Presses answered with something other than a board update (none expected)."""
    cpu_main: float = 0.0
    cpu_children: float = 0.0
    children: int = 0
    cpu_driver: float = 0.0
    """CPU seconds of this process (the fake Discord and the players) in the timed phase."""
    hwm_main_kb: int = 0
    hwm_children_kb: list[int] = field(default_factory=list)
    rss_before_kb: int = 0
    rss_held_kb: int = 0
    lag_ms: float | None = None
    """Worst event-loop lag over the timed phase."""
    cpu_by_process: list[float] = field(default_factory=list)
    """CPU seconds of each bot process (with its workers) in the timed phase, in shard order."""
    moves_by_guild: collections.Counter[str] = field(default_factory=collections.Counter)
    """Timed-phase presses per guild (one guild per shard)."""
    metered_shard: int | None = None
    """With ``metrics``: the shard process whose metrics were on (the others had them off)."""
    lag_start_ms: float | None = None
    """Worst event-loop lag since the bot started (startup, warm-up and the hold phase included)."""
    finished: int = 0
    """Games that ended on their board, in every phase: the records the bot must have written."""
    stored: int = 0
    """Rows in the records database after the bot stopped."""
    memory_top: list[str] = field(default_factory=list)
    """With ``--tracemalloc``: what the held games added to the heap, by line of code."""
    samples: str | None = None
    """With ``--py-spy DIR``: the raw py-spy stacks of the timed phase."""
    errors: list[str] = field(default_factory=list)
    profile: str | None = None

    def pct(self, q: float) -> float:
        """The ``q`` quantile (nearest rank) of the timed-phase press latencies, in ms."""
        return quantile_ms(self.latencies, q)

    def pct_start(self, q: float) -> float:
        """The ``q`` quantile (nearest rank) of the ``/ttt start`` latencies, in ms."""
        return quantile_ms(self.start_latencies, q)

    @property
    def moves_per_s(self) -> float:
        return self.moves / self.elapsed if self.elapsed else math.nan

    @property
    def cpu_per_press_ms(self) -> float:
        """Bot CPU (main process and workers) per timed-phase press, in ms."""
        return self.per_move_ms(self.cpu_main + self.cpu_children)

    @property
    def cpu_per_interaction_ms(self) -> float:
        """Bot CPU per timed-phase interaction (the presses and the ``/ttt start`` of each new game), in ms."""
        interactions = self.moves + self.games
        return (self.cpu_main + self.cpu_children) * 1000 / interactions if interactions else math.nan

    def per_move_ms(self, seconds: float) -> float:
        """``seconds`` of CPU per timed-phase move, in ms."""
        return seconds * 1000 / self.moves if self.moves else math.nan

    @property
    def kb_per_game(self) -> float | None:
        """(VmRSS with N games held mid-game - VmRSS before they started) / N, in KB."""
        return (self.rss_held_kb - self.rss_before_kb) / self.n if self.rss_held_kb else None


def quantile_ms(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0-1, nearest rank) of ``values`` (seconds), in ms; NaN when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000


def _collect(result: RunResult, fake: FakeDiscord, bots: Sequence[BotProcess]) -> None:
    result.records = len(fake.records)
    result.late = sum(1 for r in fake.records if r.latency is None or r.latency > LATE)
    result.violations = [str(v) for v in fake.violations]
    result.unknown_routes = list(fake.unknown_routes)
    result.errors = [line for bot in bots for line in bot.errors()]
    lags = [lag for bot in bots if (lag := bot.lag_since_start_ms()) is not None]
    result.lag_start_ms = max(lags, default=None)


class _Budget:
    """A deadline, a shared allowance of presses (``None``: unlimited) and the players' think time."""

    def __init__(self, moves: int | None, seconds: float, think: float = 0.0) -> None:
        self.left = moves
        self.deadline = time.perf_counter() + seconds
        self.think = think

    async def pause(self, rng: random.Random) -> None:
        """A player's think time before the next press: exponential with mean ``think`` seconds (0: none)."""
        if self.think > 0:
            delay = rng.expovariate(1 / self.think)
            await asyncio.sleep(max(0.0, min(delay, self.deadline - time.perf_counter())))

    def take(self) -> bool:
        if time.perf_counter() >= self.deadline or (self.left is not None and self.left <= 0):
            return False
        if self.left is not None:
            self.left -= 1
        return True


async def _answered(rec: InteractionRecord, what: str, *, completed_by: str = "edit_original") -> InteractionRecord:
    """Wait for the interaction's first callback (and, for a deferred one, for the event ``completed_by`` that
    completes it: the edit of its answer, or a followup)."""
    try:
        await rec.wait(ANSWER_TIMEOUT)
    except TimeoutError:
        raise BenchmarkError(f"{what}: no callback within {ANSWER_TIMEOUT:.0f} s") from None
    if rec.error is not None:
        raise BenchmarkError(f"{what}: callback refused: {rec.error}")
    if rec.callback_type in (CB_DEFERRED_MESSAGE, CB_DEFERRED_UPDATE):
        await rec.wait_for_event(lambda e: e.kind == completed_by, ANSWER_TIMEOUT)
    return rec


async def _gather(jobs: Iterable[Coroutine[Any, Any, None]], limit: int | None = None) -> None:
    """Run coroutines concurrently (at most ``limit`` at a time); the first failure cancels the rest."""
    gate = asyncio.Semaphore(limit) if limit else None

    async def gated(job: Coroutine[Any, Any, None]) -> None:
        if gate is None:
            return await job
        async with gate:
            return await job

    tasks = [asyncio.ensure_future(gated(job)) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


# ---------------------------------------------------------------------------------------------- our bot


class _Player:
    """One channel and the member playing in it."""

    def __init__(self, fake: FakeDiscord, guild_id: str, channel_id: str, index: int, seed: int) -> None:
        self.fake = fake
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.user = fake.make_user(10_000 + index, f"player{index}")
        self.rng = random.Random(seed * 1_000_003 + index)
        self.parity = index % 2
        self.games = 0
        self.message_id: str | None = None
        self.boards: list[str] = []
        """Every board message this player's ``/ttt start`` posted."""

    def free_cells(self, message_id: str | None = None) -> list[str]:
        """The custom_ids of the enabled cell buttons on board ``message_id`` (default: the current board)."""
        message_id = message_id or self.message_id
        message = self.fake.message(self.channel_id, message_id) if message_id else None
        if message is None:
            return []
        return [
            button["custom_id"]
            for row in message["components"]
            for button in row.get("components", [])
            if not button.get("disabled") and CELL_ID.match(button.get("custom_id", ""))
        ]


class _OursDriver:
    """Plays games against our bot: ``/ttt start``, then presses until the game is over."""

    def __init__(self, fake: FakeDiscord, result: RunResult) -> None:
        self.fake = fake
        self.result = result
        self.timed = False

    async def start_game(self, player: _Player) -> None:
        mark = "X" if (player.games + player.parity) % 2 == 0 else "O"
        rec = await self.fake.slash_command(
            player.guild_id, player.channel_id, player.user, "ttt", subcommand="start", options={"play_as": mark}
        )
        await _answered(rec, f"/ttt start in {player.channel_id}")
        if rec.message_id is None or rec.ephemeral:
            raise BenchmarkError(f"/ttt start in {player.channel_id} did not post a board: {rec.content!r}")
        player.games += 1
        player.message_id = rec.message_id
        player.boards.append(rec.message_id)
        assert rec.latency is not None
        self.result.start_latencies.append(rec.latency)

    async def press(self, player: _Player) -> None:
        free = player.free_cells()
        if not free or player.message_id is None:
            return
        custom_id = player.rng.choice(free)
        where = (player.guild_id, player.channel_id)
        rec = await self.fake.press_button(*where, player.user, player.message_id, custom_id)
        await _answered(rec, f"press in {player.channel_id}")
        if rec.callback_type not in (CB_UPDATE, CB_DEFERRED_UPDATE):
            self.result.refused += 1
        if self.timed:
            assert rec.latency is not None
            self.result.latencies.append(rec.latency)
            self.result.moves += 1
            self.result.moves_by_guild[player.guild_id] += 1

    async def play_games(self, player: _Player, games: int) -> None:
        for _ in range(games):
            await self.start_game(player)
            while player.free_cells():
                await self.press(player)

    async def open_game(self, player: _Player) -> None:
        await self.start_game(player)
        await self.press(player)

    async def play(self, player: _Player, budget: _Budget) -> None:
        await budget.pause(player.rng)  # with a think time, the players do not all start at the same instant
        while budget.take():
            if not player.free_cells():
                self.result.games += 1
                await self.start_game(player)
            await self.press(player)
            await budget.pause(player.rng)


SCRAPE_EVERY = 15.0
"""Seconds between two scrapes of ``/metrics`` with ``--metrics`` (Prometheus's default ``scrape_interval``);
``--scrape-every`` changes it."""


async def run_ours(
    n: int,
    *,
    processes: int = 1,
    seconds: float = 10.0,
    moves: int | None = None,
    seed: int = 1,
    think: float = 0.0,
    ramp: int = 20,
    log_level: str = "WARNING",
    profile: Path | None = None,
    inline_search: bool = False,
    snapshots: Path | None = None,
    sampled: Path | None = None,
    minimal: bool = False,
    metrics: bool = False,
    metered_shard: int = 0,
    scrape_every: float = SCRAPE_EVERY,
    bot_root: Path = ROOT,
) -> RunResult:
    """Drive ``n`` concurrent games against ``processes`` fresh bot processes (see the module docstring).

    ``bot_root`` is the checkout whose bot runs (another commit's worktree with ``--bot-root``); the driver, the fake
    Discord and the floor are always this checkout's.

    With ``processes`` > 1 each process runs one shard (``DISCORD_SHARD_COUNT``/``DISCORD_SHARD_IDS``), the
    channels are spread over one guild per shard, and all of them write to one SQLite records file. ``minimal``
    plays the same games against ``testing/minimal_bot.py`` instead, which keeps no records. ``metrics`` turns
    the Prometheus metrics of shard process ``metered_shard`` on (of every process when there is one) and scrapes
    them every ``scrape_every`` s meanwhile.
    """
    label = "minimal" if minimal else "ours" + (f" ({processes} processes)" if processes > 1 else "")
    label += f" @ {checkout_name(bot_root)}" if bot_root != ROOT else ""
    label += " (inline search)" if inline_search else ""
    label += " (metrics)" if metrics else ""
    metrics_ports: list[int] = []
    result = RunResult(label, n)
    with tempfile.TemporaryDirectory(prefix="ttt-load-records-") as records_dir:
        database = Path(records_dir) / "records.sqlite3"
        fake = FakeDiscord(channels=0, guild_shard=(0, processes) if processes > 1 else None)
        async with fake:
            guilds = [fake.default_guild_id] + [
                fake.add_guild(f"Guild {shard}", shard=(shard, processes)) for shard in range(1, processes)
            ]
            channels = _spread(fake, guilds, WARM_CHANNELS + n)
            every = [_Player(fake, guild, channel, index, seed) for index, (guild, channel) in enumerate(channels)]
            warm, players = every[:WARM_CHANNELS], every[WARM_CHANNELS:]
            bots = []
            for shard in range(processes):
                extra = {"LOG_LEVEL": log_level, "TTT_TURN_TIMEOUT": "600", "DATABASE_URL": f"sqlite:///{database}"}
                if processes > 1:
                    extra |= {"DISCORD_SHARD_COUNT": str(processes), "DISCORD_SHARD_IDS": str(shard)}
                if profile is not None:
                    extra["TTT_BENCH_PROFILE"] = str(profile.with_suffix(f".{shard}.prof") if shard else profile)
                if inline_search:
                    extra["TTT_BENCH_INLINE_SEARCH"] = "1"
                if snapshots is not None:
                    extra["TTT_BENCH_SNAPSHOTS"] = str(snapshots / f"ours-{n}-{shard}")
                if minimal:
                    extra["TTT_BENCH_REFERENCE"] = str(MINIMAL_BOT)
                if metrics and (processes == 1 or shard == metered_shard):
                    result.metered_shard = shard
                    metrics_ports.append(_free_port())
                    extra["METRICS_PORT"] = str(metrics_ports[-1])
                bots.append(
                    BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra, bot_root), f"{label} #{shard}")
                )
            await _launch(bots, fake, commands=True)
            scraper = asyncio.ensure_future(_scrape(metrics_ports, result, scrape_every)) if metrics_ports else None
            try:
                driver = _OursDriver(fake, result)
                await _gather(driver.play_games(p, WARM_GAMES) for p in warm)
                # One whole game in every channel, started as the held games will be: the allocator's high-water
                # mark of that traffic is then in the baseline, and the held games add only what they keep.
                await _gather((driver.play_games(p, 1) for p in players), limit=ramp)
                await asyncio.sleep(1.0)
                result.rss_before_kb = sum(status_kb(bot.pid, "VmRSS") for bot in bots)
                await _snapshot(bots, snapshots, "before")
                await _gather((driver.open_game(p) for p in players), limit=ramp)
                await asyncio.sleep(1.0)
                result.rss_held_kb = sum(status_kb(bot.pid, "VmRSS") for bot in bots)
                await _snapshot(bots, snapshots, "held")

                driver.timed = True
                budget = _Budget(moves, seconds, think)
                await _timed_phase(result, bots, budget, lambda b: (driver.play(p, b) for p in players), sampled)
            finally:
                if scraper is not None:
                    scraper.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await scraper
                for bot in bots:
                    await bot.stop()
            _collect(result, fake, bots)
            result.moves_by_guild = collections.Counter({g: result.moves_by_guild[g] for g in guilds})
            if not minimal:
                result.finished = sum(_finished_boards(player) for player in every)
        result.stored = _stored_games(database)
    if snapshots is not None and not minimal:
        result.memory_top = _snapshot_diff(snapshots / f"ours-{n}-0", n // processes)
    return _with_profile(result, profile)


def checkout_name(root: Path) -> str:
    """A checkout's short commit (``git rev-parse --short HEAD``), with ``+`` when its tracked files differ from it;
    its folder's name when git cannot tell."""
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "diff", "--quiet", "HEAD"], check=False).returncode != 0
    except (OSError, subprocess.CalledProcessError):
        return root.name
    return commit + ("+" if changed else "")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def _scrape(ports: Sequence[int], result: RunResult, scrape_every: float) -> None:
    """GET ``/metrics`` of every port every ``scrape_every`` s, as Prometheus would, until cancelled."""
    async with aiohttp.ClientSession() as session:
        while True:
            for port in ports:
                try:
                    async with session.get(f"http://127.0.0.1:{port}/metrics") as answer:
                        body = await answer.read()
                        if answer.status != 200 or b"ttt_interactions_total" not in body:
                            result.errors.append(f"/metrics on port {port} answered {answer.status}")
                except aiohttp.ClientError as error:
                    result.errors.append(f"/metrics on port {port}: {error}")
            await asyncio.sleep(scrape_every)


def _spread(fake: FakeDiscord, guilds: Sequence[str], count: int) -> list[tuple[str, str]]:
    """``count`` new channels, ``(guild_id, channel_id)``, dealt round-robin over ``guilds``."""
    return [(guilds[i % len(guilds)], fake.add_channel(guilds[i % len(guilds)])) for i in range(count)]


def _finished_boards(player: _Player) -> int:
    """How many of the boards ``player`` started ended (no free cell left): finished games the bot must store."""
    return sum(1 for message_id in player.boards if not player.free_cells(message_id))


def _stored_games(database: Path) -> int:
    """Rows in the records file's ``games`` table (0 when the file was never created)."""
    if not database.exists():
        return 0
    with contextlib.closing(sqlite3.connect(database)) as connection:
        return int(connection.execute("SELECT count(*) FROM games").fetchone()[0])


async def _snapshot(bots: Sequence[BotProcess], snapshots: Path | None, name: str) -> None:
    """Have each bot write a tracemalloc snapshot ``<its directory>/<name>.snapshot`` (the launcher's SIGUSR1)."""
    if snapshots is None:
        return
    for bot in bots:
        directory = Path(bot.env["TTT_BENCH_SNAPSHOTS"])
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "next").write_text(name)
        assert bot.proc is not None
        bot.proc.send_signal(signal.SIGUSR1)
        deadline = time.perf_counter() + 60
        while not (directory / f"{name}.snapshot").exists():
            if time.perf_counter() > deadline:
                raise BenchmarkError(f"{bot.name} wrote no tracemalloc snapshot {name!r}")
            await asyncio.sleep(0.1)


def _snapshot_diff(directory: Path, games: int, limit: int = 12) -> list[str]:
    """The lines that grew most between the ``before`` and ``held`` snapshots, in bytes per held game."""
    before = tracemalloc.Snapshot.load(str(directory / "before.snapshot"))
    held = tracemalloc.Snapshot.load(str(directory / "held.snapshot"))
    filters = [tracemalloc.Filter(False, tracemalloc.__file__)]
    stats = held.filter_traces(filters).compare_to(before.filter_traces(filters), "lineno")
    total = sum(stat.size_diff for stat in stats)
    lines = [f"{total / games:,.0f} B per held game in all ({games} games in this process)"]
    for stat in stats[:limit]:
        frame = stat.traceback[0]
        where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
        lines.append(f"{stat.size_diff / games:8,.0f} B/game {stat.count_diff / games:6.2f} blocks/game  {where}")
    return lines


def _measure(
    result: RunResult,
    pids: Sequence[int],
    cpu_before: dict[int, dict[int, float]],
    driver_before: float,
    elapsed: float,
) -> None:
    """CPU (the bot processes, their descendants, this process) and peak RSS at the end of the timed phase."""
    result.elapsed = elapsed
    result.cpu_driver = time.process_time() - driver_before
    for pid in pids:
        before, after = cpu_before[pid], cpu_seconds(pid)
        result.cpu_main += after[pid] - before.get(pid, 0.0)
        result.cpu_children += sum(t - before.get(p, 0.0) for p, t in after.items() if p != pid)
        result.cpu_by_process.append(sum(t - before.get(p, 0.0) for p, t in after.items()))
        result.children += len(after) - 1
        result.hwm_main_kb += status_kb(pid, "VmHWM")
        result.hwm_children_kb += [status_kb(p, "VmHWM") for p in after if p != pid]
    result.hwm_children_kb.sort(reverse=True)


# ---------------------------------------------------------------------------------------------- the floor


def _floor_board() -> list[dict[str, Any]]:
    return [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 2, "label": str(3 * r + c + 1), "custom_id": f"floor:{3 * r + c}"}
                for c in range(3)
            ],
        }
        for r in range(3)
    ]


async def run_floor(
    n: int,
    *,
    mode: str = "dynamic",
    seconds: float = 10.0,
    moves: int | None = None,
    seed: int = 1,
    think: float = 0.0,
    profile: Path | None = None,
    sampled: Path | None = None,
) -> RunResult:
    """The floor bot (``--mode raw|dynamic``) under the same load: ``n`` players pressing as soon as answered."""
    result = RunResult(f"floor ({mode})", n)
    async with FakeDiscord(channels=WARM_CHANNELS + n) as fake:
        extra = {"TTT_BENCH_REFERENCE": str(FLOOR_BOT), "TTT_BENCH_ARGS": f"--mode {mode}"}
        if profile is not None:
            extra["TTT_BENCH_PROFILE"] = str(profile)
        bot = BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra), result.bot)
        await _launch([bot], fake, commands=False)
        try:
            gid = fake.default_guild_id
            ids = [f"floor:{i}" for i in range(9)]
            boards = {c: fake.create_message(c, "board", components=_floor_board())["id"] for c in fake.channels()}
            players = [_Player(fake, gid, c, i, seed) for i, c in enumerate(fake.channels())]
            phase = {"timed": False}

            async def press(player: _Player) -> None:
                custom_id = player.rng.choice(ids)
                rec = await fake.press_button(gid, player.channel_id, player.user, boards[player.channel_id], custom_id)
                await _answered(rec, f"floor press in {player.channel_id}")
                if rec.callback_type != CB_UPDATE:
                    result.refused += 1
                if phase["timed"]:
                    assert rec.latency is not None
                    result.latencies.append(rec.latency)
                    result.moves += 1

            async def presses(player: _Player, count: int) -> None:
                for _ in range(count):
                    await press(player)

            async def play(player: _Player, budget: _Budget) -> None:
                await budget.pause(player.rng)
                while budget.take():
                    await press(player)
                    await budget.pause(player.rng)

            await _gather(presses(p, 10) for p in players[:WARM_CHANNELS])
            await _gather((presses(p, 1) for p in players[WARM_CHANNELS:]), limit=20)
            await asyncio.sleep(1.0)
            phase["timed"] = True
            timed_players = players[WARM_CHANNELS:]
            budget = _Budget(moves, seconds, think)
            await _timed_phase(result, [bot], budget, lambda b: (play(p, b) for p in timed_players), sampled)
        finally:
            await bot.stop()
        _collect(result, fake, [bot])
    return _with_profile(result, profile)


async def _timed_phase(
    result: RunResult,
    bots: Sequence[BotProcess],
    budget: _Budget,
    plays: Callable[[_Budget], Iterable[Coroutine[Any, Any, None]]],
    sampled: Path | None = None,
) -> None:
    """Play ``budget`` out with every player, recording CPU, wall time and the bots' worst loop lag meanwhile
    (and, with ``sampled``, py-spy samples of the first bot process into that file)."""
    pids = [bot.pid for bot in bots]
    # This process is the fake Discord: a full collection of its heap (every interaction recorded so far) would
    # stall every answer for up to ~200 ms, a pause of the benchmark, not of the bot.
    gc.collect()
    gc.disable()
    cpu_before, driver_before = {pid: cpu_seconds(pid) for pid in pids}, time.process_time()
    started = time.perf_counter()
    try:
        sampler = await _start_sampling(pids[0], budget, sampled) if sampled is not None else None
        await _gather(plays(budget))
    finally:
        gc.enable()
    ended = time.perf_counter()
    if sampler is not None:
        await sampler.wait()
        result.samples = str(sampled)
    _measure(result, pids, cpu_before, driver_before, ended - started)
    lags = []
    for bot in bots:
        await bot.wait_for_lag_line(ended)
        lags.append(bot.lag_ms(started, time.perf_counter()))
    result.lag_ms = max((lag for lag in lags if lag is not None), default=None)


async def _start_sampling(pid: int, budget: _Budget, path: Path) -> asyncio.subprocess.Process:
    """``py-spy record --gil`` of ``pid`` (the thread holding the GIL: where Python spends CPU) until the budget's
    deadline, as raw stacks."""
    seconds = max(1, int(budget.deadline - time.perf_counter()) - 1)
    command = [
        "py-spy",
        "record",
        "-p",
        str(pid),
        "-d",
        str(seconds),
        "-r",
        "200",
        "-f",
        "raw",
        "-o",
        str(path),
        "--gil",
    ]
    return await asyncio.create_subprocess_exec(
        *command, "--nonblocking", stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
    )


IDLE_FRAMES = ("concurrent/futures/thread.py:81)", "aiosqlite/core.py:59)")
"""Leaf frames of threads waiting for work (a thread pool's queue, aiosqlite's queue): not CPU."""


def sample_shares(path: str, limit: int = 12) -> list[str]:
    """The share of py-spy samples (``-f raw`` stacks) by package or module of the leaf frame, then the top
    functions by own samples: what the process spent its CPU on."""
    packages: collections.Counter[str] = collections.Counter()
    functions: collections.Counter[str] = collections.Counter()
    for line in Path(path).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        leaf = stack.rsplit(";", 1)[-1]
        if not count.isdigit() or leaf.endswith(IDLE_FRAMES):
            continue
        where = leaf[leaf.find("(") + 1 : leaf.rfind(":")]
        packages[where.split("/", 1)[0] if "/" in where else where] += int(count)
        functions[re.sub(r":\d+\)$", ")", leaf)] += int(count)
    total = sum(packages.values()) or 1
    lines = [f"{100 * n / total:5.1f}%  {name}" for name, n in packages.most_common(limit)]
    lines.append(f"top functions by own samples ({total} samples):")
    lines += [f"{100 * n / total:5.1f}%  {name}" for name, n in functions.most_common(limit)]
    return lines


def _with_profile(result: RunResult, profile: Path | None) -> RunResult:
    if profile is not None and profile.exists():
        result.profile = str(profile)
    return result


# ---------------------------------------------------------------------------------------------- report


def _f(value: float | None, digits: int = 1) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def _mb(kb: int) -> str:
    return f"{kb / 1024:.1f}"


def table_head(head: Sequence[str]) -> list[str]:
    """A Markdown table's first two lines for the column titles ``head``."""
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]


Row = tuple[RunResult, Sequence[RunResult], Sequence[RunResult]]
"""Per N: our bot in one process; the reference bots: the floor (the first, the one compared with), the raw floor and
the minimal bot when run; our bot in more processes."""


def table(rows: Sequence[Row]) -> str:
    """The Markdown table: per N our bot, the floor(s), then our bot in more processes."""
    head = [
        "N",
        "bot",
        "presses",
        "presses/s",
        "p50 ms",
        "p99 ms",
        "max ms",
        "p99 ÷ floor",
        "callbacks > 3 s",
        "CPU ms/press (main + workers)",
        "CPU ms/interaction",
        "CPU/press ÷ floor",
        "peak RSS MB (main; workers)",
        "KB per active game",
        "games stored / ended",
        "worst loop lag ms",
    ]
    lines = table_head(head)
    for ours, floors, scaled in rows:
        floor = floors[0] if floors else None
        for res in (ours, *floors, *scaled):
            compared = floor is not None and not res.bot.startswith("floor")
            cpu = _f(res.per_move_ms(res.cpu_main + res.cpu_children), 2)
            if res.children:
                cpu += f" ({_f(res.per_move_ms(res.cpu_main), 2)} + {_f(res.per_move_ms(res.cpu_children), 2)})"
            rss = _mb(res.hwm_main_kb)
            if res.hwm_children_kb:
                rss += "; " + ", ".join(_mb(k) for k in res.hwm_children_kb)
            kb = res.kb_per_game
            cells = [
                str(res.n),
                res.bot,
                str(res.moves),
                _f(res.moves_per_s, 0),
                _f(res.pct(0.5)),
                _f(res.pct(0.99)),
                _f(res.pct(1.0)),
                f"{res.pct(0.99) / floor.pct(0.99):.2f}x" if compared and floor else "",
                str(res.late),
                cpu,
                _f(res.cpu_per_interaction_ms, 2),
                f"{res.cpu_per_press_ms / floor.cpu_per_press_ms:.2f}x" if compared and floor else "",
                rss,
                "" if kb is None else f"{kb:.1f}",
                f"{res.stored} / {res.finished}" if res.finished else "",
                _f(res.lag_ms),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _judged(ratio: float, limit: float, line: str, why: list[str]) -> tuple[bool, str, list[str]]:
    """A ratio target's result: passed when ``ratio`` ≤ ``limit``; the why lines only when it missed."""
    return ratio <= limit, line, why if ratio > limit else []


def targets(rows: Sequence[Row]) -> list[tuple[bool | None, str, list[str]]]:
    """``(passed, or None when not measured; the PASS/MISS line; why lines)`` per target of the issue, at N=100."""
    out: list[tuple[bool | None, str, list[str]]] = []
    pairs = [(ours, floors[0]) for ours, floors, _ in rows if ours.n == TARGET_N and floors]
    at = f"at N={TARGET_N}"
    if not pairs:
        out.append((None, f"CPU per press and p99 {at} against the floor: N={TARGET_N} with a floor not run", []))
    else:
        ours, floor = _median_pair(pairs, lambda o, f: o.cpu_per_press_ms / f.cpu_per_press_ms)
        cpu_ratio = ours.cpu_per_press_ms / floor.cpu_per_press_ms
        per_interaction = ours.cpu_per_interaction_ms / floor.cpu_per_interaction_ms
        why = [
            f"a press in our bot is the player's move, the bot's search (in an executor) and the reply in one message "
            f"update; every {ours.moves / max(ours.games, 1):.1f} presses a game ends and the player sends /ttt start, "
            f"so per interaction our bot spends {ours.cpu_per_interaction_ms:.2f} ms "
            f"({per_interaction:.2f}x the floor's per press)",
        ]
        line = (
            f"CPU per press {at} ≤ {CPU_RATIO_TARGET:g}x the floor's: {ours.cpu_per_press_ms:.2f} ms vs "
            f"{floor.cpu_per_press_ms:.2f} ms = {cpu_ratio:.2f}x" + _of_pairs(pairs, "cpu_per_press_ms")
        )
        out.append(_judged(cpu_ratio, CPU_RATIO_TARGET, line, why))
        ours, floor = _median_pair(pairs, lambda o, f: o.pct(0.99) / f.pct(0.99))
        p99_ratio = ours.pct(0.99) / floor.pct(0.99)
        why = [
            f"closed loop: {TARGET_N} presses are always in flight, so latency ≈ {TARGET_N} / throughput: ours "
            f"{ours.moves_per_s:.0f} presses/s vs the floor's {floor.moves_per_s:.0f}; the p99 follows the CPU per "
            f"press (with --think the bot is not saturated)",
        ]
        line = (
            f"p99 {at} ≤ {P99_RATIO_TARGET:g}x the floor's: {ours.pct(0.99):.1f} ms vs {floor.pct(0.99):.1f} ms "
            f"= {p99_ratio:.2f}x" + _of_pairs(pairs, "p99")
        )
        out.append(_judged(p99_ratio, P99_RATIO_TARGET, line, why))
    held = [ours for ours, _, _ in rows if ours.n == TARGET_N and ours.kb_per_game is not None]
    if not held:
        out.append((None, f"memory per active game {at}: not run", []))
    else:
        ours = sorted(held, key=lambda r: r.kb_per_game or 0.0)[len(held) // 2]
        kb = ours.kb_per_game
        why = [f"VmRSS {ours.rss_before_kb} kB before, {ours.rss_held_kb} kB with {ours.n} games held"]
        out.append(
            (
                None if kb is None else kb <= MEMORY_TARGET_KB,
                f"RSS per active game {at} ≤ {MEMORY_TARGET_KB:g} KB: {_f(kb)} KB",
                why,
            )
        )

    every = [r for ours, floors, scaled in rows for r in (ours, *floors, *scaled)]
    late = sum(r.late for r in every)
    problems = [f"{r.bot} N={r.n}: {len(r.violations)} violations, first: {r.violations[:1]}" for r in every]
    problems = [line for line, r in zip(problems, every, strict=True) if r.violations]
    out.append(
        (
            late == 0 and not problems,
            f"zero callbacks past {LATE:g} s: {late} late, in {sum(r.records for r in every)} interactions",
            [f"{r.bot} N={r.n}: {r.late} late" for r in every if r.late] + problems,
        )
    )

    ours_runs = [r for ours, _, scaled in rows for r in (ours, *scaled)]
    lost = [f"{r.bot} N={r.n}: {r.stored} of {r.finished} ended games stored" for r in ours_runs]
    lost = [line for line, r in zip(lost, ours_runs, strict=True) if r.stored != r.finished]
    out.append(
        (
            not lost,
            f"records written: every ended game is in the records database ({sum(r.stored for r in ours_runs)} games)",
            lost,
        )
    )

    # A saturated closed loop queues work on every bot's loop, the floor's too: the searches' own share of the lag
    # is what ours adds to the floor's under the same load.
    excess = [
        (ours.lag_ms - floors[0].lag_ms, ours, floors[0])
        for ours, floors, _ in rows
        if floors and ours.lag_ms is not None and floors[0].lag_ms is not None
    ]
    worst = max(excess, default=None, key=lambda item: item[0])
    out.append(
        (
            None if worst is None else worst[0] <= LAG_TARGET_MS,
            "event-loop lag while searches run ≤ the floor's + "
            + (
                f"{LAG_TARGET_MS:g} ms: worst {_f(worst[1].lag_ms)} ms vs the floor's {_f(worst[2].lag_ms)} ms "
                f"(N={worst[1].n})"
                if worst is not None
                else f"{LAG_TARGET_MS:g} ms: not measured"
            ),
            [],
        )
    )
    return out


def _median_pair(
    pairs: Sequence[tuple[RunResult, RunResult]], ratio: Callable[[RunResult, RunResult], float]
) -> tuple[RunResult, RunResult]:
    """The (ours, floor) pair whose ``ratio`` is the median (the upper one of an even count)."""
    return sorted(pairs, key=lambda pair: ratio(*pair))[len(pairs) // 2]


def _of_pairs(pairs: Sequence[tuple[RunResult, RunResult]], figure: str) -> str:
    """ ", the median of R runs: a, b, c" when the load ran more than once."""
    if len(pairs) < 2:
        return ""
    if figure == "p99":
        ratios = sorted(o.pct(0.99) / f.pct(0.99) for o, f in pairs)
    else:
        ratios = sorted(getattr(o, figure) / getattr(f, figure) for o, f in pairs)
    return f", the median of {len(pairs)} runs: " + ", ".join(f"{r:.2f}x" for r in ratios)


def scaling(rows: Sequence[Row]) -> list[str]:
    """One line per N run in more processes: presses per second and p99, against one process."""
    out = []
    for ours, _, scaled in rows:
        for more in scaled:
            out.append(
                f"N={ours.n}: 1 process {ours.moves_per_s:.0f} presses/s, p99 {ours.pct(0.99):.0f} ms; {more.bot}: "
                f"{more.moves_per_s:.0f} presses/s ({more.moves_per_s / ours.moves_per_s:.2f}x), "
                f"p99 {more.pct(0.99):.0f} ms ({more.pct(0.99) / ours.pct(0.99):.2f}x)"
            )
    return out


def minimal_comparison(rows: Sequence[Row]) -> list[str]:
    """One line per N run with the minimal bot: its CPU per press against the floor's, and ours against its."""
    out = []
    for ours, references, _ in rows:
        minimal = next((r for r in references if r.bot == "minimal"), None)
        if minimal is None or not references or minimal is references[0]:
            continue
        floor = references[0]
        out.append(
            f"N={ours.n}: CPU per press: minimal {minimal.cpu_per_press_ms:.2f} ms = "
            f"{minimal.cpu_per_press_ms / floor.cpu_per_press_ms:.2f}x the floor's; ours {ours.cpu_per_press_ms:.2f} ms"
            f" = {ours.cpu_per_press_ms / minimal.cpu_per_press_ms:.2f}x the minimal bot's (per interaction: minimal "
            f"{minimal.cpu_per_interaction_ms:.2f} ms, ours {ours.cpu_per_interaction_ms:.2f} ms); p99 minimal "
            f"{minimal.pct(0.99):.0f} ms, ours {ours.pct(0.99):.0f} ms"
        )
    return out


def _print_profile(path: str, title: str, limit: int = 15) -> None:
    print(f"\n#### {title}: top {limit} functions by own time ({path})\n```")
    stats = pstats.Stats(path, stream=sys.stdout)
    stats.sort_stats("tottime").print_stats(limit)
    print("```")


History = tuple[RunResult, Sequence[RunResult], RunResult]
"""Per N with ``--bot-root``: this checkout's bot, the other checkouts' bots and the floor, under the same load."""


async def _run_all(args: argparse.Namespace) -> tuple[list[Row], list[RunResult], list[History]]:
    rows: list[Row] = []
    metered: list[RunResult] = []
    history: list[History] = []
    modes = ["dynamic"] if args.no_raw else ["dynamic", "raw"]
    profile_dir = Path(args.profile) if args.profile else None
    snapshots = Path(tempfile.mkdtemp(prefix="ttt-load-tracemalloc-")) if args.tracemalloc else None
    spy_dir = Path(args.py_spy) if args.py_spy else None
    for directory in (profile_dir, spy_dir):
        if directory is not None:
            directory.mkdir(parents=True, exist_ok=True)
    for index, n in enumerate(n for n in args.games for _ in range(args.repeat)):
        started = time.perf_counter()
        common: dict[str, Any] = {"seconds": args.seconds, "moves": args.moves, "seed": args.seed, "think": args.think}
        mine: dict[str, Any] = {"ramp": args.ramp, "log_level": args.bot_log_level, "inline_search": args.inline_search}
        ours = await run_ours(
            n,
            **common,
            **mine,
            profile=profile_dir / f"ours-{n}.prof" if profile_dir else None,
            snapshots=snapshots,
            sampled=spy_dir / f"ours-{n}.txt" if spy_dir else None,
        )
        others = [await run_ours(n, **common, **mine, bot_root=Path(root).resolve()) for root in args.bot_root]
        if args.metrics:
            side_by_side = {"metrics": True, "metered_shard": index % 2, "scrape_every": args.scrape_every}
            metered.append(await run_ours(n, processes=2, **common, **mine, **side_by_side))
        floors = [
            await run_floor(
                n,
                mode=mode,
                **common,
                profile=profile_dir / f"floor-{mode}-{n}.prof" if profile_dir else None,
                sampled=spy_dir / f"floor-{mode}-{n}.txt" if spy_dir else None,
            )
            for mode in modes
        ]
        if args.minimal:
            floors.append(
                await run_ours(
                    n, **common, ramp=args.ramp, minimal=True, sampled=spy_dir / f"minimal-{n}.txt" if spy_dir else None
                )
            )
        scaled = [await run_ours(n, processes=args.processes, **common, **mine)] if args.processes > 1 else []
        rows.append((ours, floors, scaled))
        if others:
            history.append((ours, others, floors[0]))
        print(
            f"N={n}: {ours.moves} presses ({ours.games} games) vs floor {floors[0].moves}; "
            f"/ttt start p99 {ours.pct_start(0.99):.1f} ms; lag since start {_f(ours.lag_start_ms)} ms; "
            f"{time.perf_counter() - started:.0f} s",
            file=sys.stderr,
            flush=True,
        )
    return rows, metered, history


def history_table(history: Sequence[History]) -> str:
    """A Markdown table per N of ``--bot-root``: each checkout's CPU per 3x3 press, the floor's in the same run,
    their ratio, and each against this checkout's."""
    head = [
        "N",
        "bot (commit)",
        "presses",
        "CPU ms/press",
        "floor CPU ms/press",
        "÷ floor",
        "÷ this checkout",
        "p99 ms",
    ]
    lines = table_head(head)
    for ours, others, floor in history:
        for res in (*others, ours):
            name = res.bot if res is not ours else f"ours @ {checkout_name(ROOT)} (this checkout)"
            cells = [
                str(res.n),
                name,
                str(res.moves),
                _f(res.cpu_per_press_ms, 3),
                _f(floor.cpu_per_press_ms, 3),
                f"{res.cpu_per_press_ms / floor.cpu_per_press_ms:.2f}x",
                f"{res.cpu_per_press_ms / ours.cpu_per_press_ms:.2f}x",
                _f(res.pct(0.99)),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    if len(history) > 1:  # the medians over the runs, per checkout (the same order in every run)
        for index, name in enumerate([*(res.bot for res in history[0][1]), "ours (this checkout)"]):
            runs = [(o, [*others, o][index], f) for o, others, f in history]
            cpu = statistics.median(r.cpu_per_press_ms for _, r, _ in runs)
            per_floor = statistics.median(r.cpu_per_press_ms / f.cpu_per_press_ms for _, r, f in runs)
            per_ours = statistics.median(r.cpu_per_press_ms / o.cpu_per_press_ms for o, r, _ in runs)
            lines.append(f"| median of {len(runs)} | {name} | | {cpu:.3f} | | {per_floor:.2f}x | {per_ours:.2f}x | |")
    return "\n".join(lines)


def metrics_cost(metered: Sequence[RunResult]) -> list[str]:
    """One line per ``--metrics`` run (two shard processes side by side, one with its metrics on): the CPU per press
    of each, their ratio, and the median ratio."""
    lines, ratios = [], []
    for res in metered:
        assert res.metered_shard is not None and len(res.cpu_by_process) == 2
        guilds = list(res.moves_by_guild)
        on_shard, off_shard = res.metered_shard, 1 - res.metered_shard
        on_presses, off_presses = res.moves_by_guild[guilds[on_shard]], res.moves_by_guild[guilds[off_shard]]
        if not on_presses or not off_presses:
            lines.append(f"N={res.n}: no presses on a shard ({on_presses} with metrics, {off_presses} without)")
            continue
        on_ms = res.cpu_by_process[on_shard] * 1000 / on_presses
        off_ms = res.cpu_by_process[off_shard] * 1000 / off_presses
        ratios.append(on_ms / off_ms)
        lines.append(
            f"N={res.n}: CPU per press {off_ms:.3f} ms without metrics (shard {off_shard}, {off_presses} presses), "
            f"{on_ms:.3f} ms with (shard {on_shard}, {on_presses} presses): {on_ms / off_ms:.3f}x"
        )
    if ratios:
        median = statistics.median(ratios)
        lines.append(f"median ratio {median:.3f}x over {len(ratios)} runs (target: at most 1.05x)")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the report; returns the exit status (1 when a target is missed)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=lambda s: [int(x) for x in s.split(",")], default=[1, 10, 100])
    parser.add_argument("--quick", action="store_true", help="N=1,10 only")
    parser.add_argument("--seconds", type=float, default=10.0, help="timed phase per N and bot (default 10)")
    parser.add_argument("--moves", type=int, default=None, help="stop each timed phase after this many presses")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=0.0, help="mean think time (s) between presses (default 0)")
    parser.add_argument("--ramp", type=int, default=20, help="games started at a time in the hold phase")
    parser.add_argument("--no-raw", action="store_true", help="skip the raw (on_interaction) floor")
    parser.add_argument("--minimal", action="store_true", help="also run testing/minimal_bot.py under our load")
    parser.add_argument("--repeat", type=int, default=1, help="run each N this many times (ours, then the floor)")
    parser.add_argument("--processes", type=int, default=1, help="also run our bot as this many shard processes")
    parser.add_argument("--bot-log-level", default="WARNING", help="our bot's LOG_LEVEL (default WARNING)")
    parser.add_argument("--profile", metavar="DIR", help="run the bots under cProfile, print the hottest functions")
    parser.add_argument("--py-spy", metavar="DIR", help="sample the bots with py-spy (on PATH) in the timed phase")
    parser.add_argument("--tracemalloc", action="store_true", help="diagnostic: what the held games keep, by line")
    parser.add_argument("--inline-search", action="store_true", help="diagnostic: searches on the loop, no pool")
    parser.add_argument("--metrics", action="store_true", help="also run our bot with its metrics on, and compare")
    parser.add_argument("--scrape-every", type=float, default=SCRAPE_EVERY, help="--metrics: seconds between scrapes")
    parser.add_argument(
        "--bot-root",
        action="append",
        default=[],
        metavar="DIR",
        help="also run the bot of this checkout (e.g. a `git worktree add --detach` of an older commit) under the "
        "same load and compare its CPU per press (repeatable)",
    )
    args = parser.parse_args(argv)
    if args.quick:
        args.games = [1, 10]

    began = time.perf_counter()
    rows, metered, history = asyncio.run(_run_all(args))
    pacing = (
        f"each player presses again after an exponential think time of mean {args.think:g} s"
        if args.think
        else "closed loop (each player presses again as soon as answered)"
    )
    print(
        f"### Load: {len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"{args.seconds:g} s per N and bot, {pacing}, bot LOG_LEVEL={args.bot_log_level}\n"
    )
    print(table(rows))
    print()
    failed = False
    for passed, line, why in targets(rows):
        failed = failed or passed is False
        print(f"{'SKIP' if passed is None else 'PASS' if passed else 'MISS'}: {line}")
        for reason in why:
            print(f"  - {reason}")
    for line in scaling(rows):
        print(f"SCALE: {line}")
    for line in minimal_comparison(rows):
        print(f"MINIMAL: {line}")
    for line in metrics_cost(metered):
        print(f"METRICS: {line}")
    if history:
        print("\n#### CPU per 3x3 press by checkout (each with the floor of the same N)\n")
        print(history_table(history))
    extra = {id(ours): others for ours, others, _ in history}
    for ours, floors, scaled in rows:
        for res in (ours, *floors, *scaled, *extra.get(id(ours), ())):
            if res.refused or res.errors or res.unknown_routes:
                print(f"\n{res.bot} N={res.n}: {res.refused} refused presses, unknown routes {res.unknown_routes}")
                print("\n".join("    " + line for line in res.errors[:60]))
            if res.profile:
                _print_profile(res.profile, f"{res.bot} N={res.n}")
            if res.samples:
                print(f"\n#### {res.bot} N={res.n}: py-spy samples by package, then by function ({res.samples})\n```")
                print("\n".join(sample_shares(res.samples)) + "\n```")
            if res.memory_top:
                print(f"\n#### {res.bot} N={res.n}: what the held games added to the heap (tracemalloc)\n```")
                print("\n".join(res.memory_top) + "\n```")
    print(f"\n(total {time.perf_counter() - began:.0f} s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
