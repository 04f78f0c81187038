"""Ultimate under load over the fake Discord: N ultimate games against the real bot at once, next to 3x3 games.

The Discord version of ``benchmarks/variant_searches.py`` (which drives the game service alone). One fresh fake
Discord (``testing/fake_discord.py``, in this process, every REST answer delayed by a 50-150 ms round trip), one
records file and one bot process started as ``benchmarks/load.py`` starts it (its launcher and environment; with
``--bot-root DIR`` another checkout's bot). After a warm-up (a 3x3 game per channel, one ultimate move, so the
search workers are up), it runs phases of ``--seconds`` each, ``--repeat`` times:

1. **3x3 alone**: ``--three`` channels of 3x3 games (``/ttt start``, then random free cells), each pressing again as
   soon as its answer came back (or after an exponential ``--think`` time), as in ``load.py``;
2. **3x3 with ultimate**: the same, while ``--games`` ultimate games run against the bot (``level:8``,
   a 1,000 ms search budget, ``board:buttons``, the player X). Each player presses through the pad: on a free
   choice it first chooses an open small board (:meth:`UltimatePlayer.choose_small_board`), then presses a random
   free cell, and presses again as soon as the bot's move is on the board.

The bot's move is on the board when the fake applies the edit of the board message whose buttons carry a version
(the ply, in every ultimate ``custom_id``) two past the one pressed (:func:`shows_bot_move`); the time is taken when
the fake applies that edit, and the press's time when the fake dispatched it. It prints every interaction's first
callback later than 3 s (none allowed), the ultimate presses' answer time and press-to-bot's-move time (p50, p99),
the searches at full and at reduced budget (the board's text says when the budget was cut), the presses refused as
busy, and the 3x3 presses' p99 first-callback latency alone and with the ultimate load, with their ratio (target:
at most 1.5x), pooled over the phases and for each pair of adjacent phases. The machine is shared and its speed
drifts from minute to minute: run the phases a few times (``--repeat``) and read the ratios, not the times.

    python benchmarks/ultimate_load.py [--games 20] [--three 4] [--seconds 30] [--repeat 1] [--think 0]
                                       [--seed 1] [--bot-root DIR] [--no-validate]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

_HERE = Path(__file__).resolve().parent
ROOT = _HERE.parent
if __name__ == "__main__":  # run as a script: this folder (it has an engine.py) would shadow the engine package
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(_HERE) not in sys.path:
    sys.path.append(str(_HERE))  # after the root: ``load`` comes from here, ``engine`` still from the root

from load import (  # noqa: E402
    CB_MESSAGE,
    LATE,
    LAUNCHER,
    BenchmarkError,
    BotProcess,
    RunResult,
    _answered,
    _Budget,
    _launch,
    _OursDriver,
    _Player,
    _timed_phase,
    bot_env,
    quantile_ms,
    sample_shares,
)

from testing.fake_discord import FakeDiscord, InteractionRecord  # noqa: E402
from testing.ultimate_boards import REDUCED, is_over, pressable, shows_bot_move, text_of, version  # noqa: E402

ROUND_TRIP = (0.05, 0.15)
"""The fake's REST round trip, seconds (uniform)."""
RATIO_TARGET = 1.5
"""The 3x3 presses' p99 with the ultimate load may be at most this many times their p99 without it."""
MOVE_TIMEOUT = 120.0
START = {"variant": "ultimate", "level": 8, "board": "buttons", "play_as": "X"}
BUSY = "too many games at once"
"""In the private refusal of a move the bot is too busy to search."""

# ---------------------------------------------------------------------------------------------- the players


@dataclass
class UltimateStats:
    """What the ultimate players saw in one phase; times in seconds."""

    answers: list[float] = field(default_factory=list)
    """First-callback latency of every press (small-board choices and cells)."""
    to_bot: list[float] = field(default_factory=list)
    """From a cell press's dispatch to the edit that put the bot's move on the board."""
    moves: int = 0
    full: int = 0
    reduced: int = 0
    busy: int = 0
    refused: list[str] = field(default_factory=list)
    """Other refusals' texts (none expected)."""
    lost: int = 0
    """Bot moves that never appeared within ``MOVE_TIMEOUT``."""
    games: int = 0


class UltimatePlayer:
    """One channel with one ultimate game against the bot, played by one member through the buttons."""

    def __init__(self, fake: FakeDiscord, guild_id: str, channel_id: str, index: int, seed: int) -> None:
        self.fake, self.guild_id, self.channel_id = fake, guild_id, channel_id
        self.user = fake.make_user(30_000 + index, f"ultimate{index}")
        self.rng = random.Random(seed * 7_919 + index)
        self.board_id: str | None = None

    def board(self) -> dict[str, Any] | None:
        """The current board message."""
        return self.fake.message(self.channel_id, self.board_id) if self.board_id else None

    async def _press(self, message_id: str, custom_id: str, completed_by: str = "edit_original") -> InteractionRecord:
        rec = await self.fake.press_button(self.guild_id, self.channel_id, self.user, message_id, custom_id)
        return await _answered(rec, f"ultimate press {custom_id} in {self.channel_id}", completed_by=completed_by)

    async def start(self) -> None:
        """``/ttt start`` an ultimate game (X: the player moves first)."""
        rec = await self.fake.slash_command(self.guild_id, self.channel_id, self.user, "ttt", "start", START)
        await _answered(rec, f"/ttt start ultimate in {self.channel_id}")
        if rec.message_id is None or rec.ephemeral:
            raise BenchmarkError(f"/ttt start in {self.channel_id} posted no board: {rec.content!r}")
        self.board_id = rec.message_id

    async def choose_small_board(self, board: dict[str, Any], stats: UltimateStats) -> dict[str, Any]:
        """The message whose pad shows the cells to press: ``board`` itself when the small board is forced (or
        already chosen on it); on a free choice, the answer to pressing a random open small board: a private pad (a
        new ephemeral message, or an ephemeral followup of a deferred update), or the board's own pad edited (the
        bot before the private pad). The one step that
        knows how a free choice is made."""
        picks = pressable(board, "pick")
        if not picks:
            return board
        rec = await self._press(board["id"], self.rng.choice(picks), completed_by="followup")
        assert rec.latency is not None
        stats.answers.append(rec.latency)
        pads = [e.message_id for e in rec.events if e.kind == "followup" and e.message_id]
        shown = (
            pads[0] if pads else rec.message_id if rec.callback_type == CB_MESSAGE and rec.message_id else board["id"]
        )
        return self.fake.message(self.channel_id, shown) or {}

    def _watch(self, pressed_at: int) -> tuple[list[float], asyncio.Future[dict[str, Any]]]:
        """A wait for the board edit that shows the bot's move, and the list its time (perf_counter) goes in."""
        seen: list[float] = []

        def shown(message: dict[str, Any]) -> bool:
            if message["id"] != self.board_id or not shows_bot_move(message, pressed_at):
                return False
            seen.append(time.perf_counter())  # called by the fake as it applies the edit
            return True

        wait = self.fake.wait_for_message(shown, MOVE_TIMEOUT, channel_id=self.channel_id)
        return seen, asyncio.ensure_future(wait)

    async def move(self, stats: UltimateStats) -> None:
        """One move through the pad, then the wait for the bot's move (a busy refusal: a second's pause)."""
        board = self.board() or {}
        pressed_at = version(board) or 0
        pad = await self.choose_small_board(board, stats)
        cells = pressable(pad, "cell")
        if not cells:
            raise BenchmarkError(f"no cell to press in {self.channel_id}: {text_of(pad)[:200]!r}")
        seen, watch = self._watch(pressed_at)
        await asyncio.sleep(0)  # the wait is registered before the press
        try:
            rec = await self._press(pad["id"], self.rng.choice(cells))
            assert rec.latency is not None
            stats.answers.append(rec.latency)
            if rec.callback_type == CB_MESSAGE:  # a refusal, privately (a move answers with an update)
                if BUSY in (rec.content or ""):
                    stats.busy += 1
                else:
                    stats.refused.append(rec.content or "")
                await asyncio.sleep(1.0)
                return
            stats.moves += 1
            if is_over(self.board() or {}):
                return
            try:
                after = await watch
            except TimeoutError:
                stats.lost += 1
                return
            stats.to_bot.append(seen[0] - rec.dispatched_at)
            stats.reduced += REDUCED in text_of(after)
            stats.full += REDUCED not in text_of(after)
        finally:
            watch.cancel()

    async def play(self, stats: UltimateStats, deadline: float) -> None:
        """Move until ``deadline`` (perf_counter), starting a new game when one ends."""
        while time.perf_counter() < deadline:
            board = self.board()
            if board is None or is_over(board):
                stats.games += board is not None
                await self.start()
                continue
            await self.move(stats)


# ---------------------------------------------------------------------------------------------- the run


@dataclass
class Phase:
    """One timed phase: the 3x3 presses (and the bot's CPU and loop lag), and the ultimate players' figures."""

    loaded: bool
    three: RunResult
    ultimate: UltimateStats


async def run(args: argparse.Namespace) -> tuple[list[Phase], FakeDiscord]:
    """Warm up, then ``args.repeat`` times a phase of 3x3 alone and one with the ultimate games."""
    with tempfile.TemporaryDirectory(prefix="ttt-ultimate-load-") as records:
        extra = {"LOG_LEVEL": "WARNING", "TTT_TURN_TIMEOUT": "600", "DATABASE_URL": f"sqlite:///{records}/r.sqlite3"}
        spec = False if args.no_validate else None
        fake = FakeDiscord(channels=0, latency=ROUND_TRIP, seed=args.seed, spec=spec)
        async with fake:
            guild = fake.default_guild_id
            threes = [_Player(fake, guild, fake.add_channel(guild), i, args.seed) for i in range(args.three)]
            ultimates = [UltimatePlayer(fake, guild, fake.add_channel(guild), i, args.seed) for i in range(args.games)]
            warm = UltimatePlayer(fake, guild, fake.add_channel(guild), args.games, args.seed)
            bot = BotProcess([sys.executable, "-c", LAUNCHER], bot_env(fake, extra, args.bot_root), "ours")
            await _launch([bot], fake, commands=True)
            phases: list[Phase] = []
            try:
                untimed = _OursDriver(fake, RunResult("warm-up", args.three))
                await asyncio.gather(*(untimed.play_games(p, 1) for p in threes))
                await warm.start()
                await warm.move(UltimateStats())
                for _ in range(args.repeat):
                    for loaded in (False, True):
                        phase = Phase(loaded, RunResult("3x3" + (" with ultimate" if loaded else ""), args.three),
                                      UltimateStats())  # fmt: skip
                        driver = _OursDriver(fake, phase.three)
                        driver.timed = True

                        def plays(budget: _Budget, phase: Phase = phase, driver: _OursDriver = driver) -> list[Any]:
                            jobs: list[Any] = [driver.play(p, budget) for p in threes]
                            if phase.loaded:
                                jobs += [u.play(phase.ultimate, budget.deadline) for u in ultimates]
                            return jobs

                        budget = _Budget(None, args.seconds, args.think)
                        name = f"bot-{'loaded' if loaded else 'alone'}-{len(phases)}.txt"
                        spy = args.py_spy / name if args.py_spy else None
                        await _timed_phase(phase.three, [bot], budget, plays, spy)
                        phases.append(phase)
            finally:
                await bot.stop()
            if bot.errors():
                print("\n".join(["bot errors:", *bot.errors()[:40]]), file=sys.stderr)
    return phases, fake


def pair_ratios(phases: list[Phase]) -> list[float]:
    """The 3x3 p99 ratio of each loaded phase to the phase alone just before it. The machine's speed drifts from
    minute to minute; a pair, run back to back, shares most of that drift, while the pooled ratio does not."""
    ratios = []
    for alone, loaded in itertools.pairwise(phases):
        if not alone.loaded and loaded.loaded and alone.three.latencies and loaded.three.latencies:
            ratios.append(quantile_ms(loaded.three.latencies, 0.99) / quantile_ms(alone.three.latencies, 0.99))
    return ratios


def _ms(values: list[float], q: float) -> str:
    return f"{quantile_ms(values, q):.0f}" if values else "n/a"


def report(args: argparse.Namespace, phases: list[Phase], fake: FakeDiscord, loads: tuple[str, str]) -> int:
    """Print the figures and a PASS/MISS line per target; returns the exit status (1 when a target is missed)."""
    quiet = [lat for p in phases if not p.loaded for lat in p.three.latencies]
    loaded = [lat for p in phases if p.loaded for lat in p.three.latencies]
    ult = UltimateStats()
    for name in (f.name for f in fields(UltimateStats)):  # the loaded phases' figures, added up
        setattr(ult, name, sum((getattr(p.ultimate, name) for p in phases if p.loaded), getattr(ult, name)))
    late = sum(1 for r in fake.records if r.latency is None or r.latency > LATE)
    ratio = quantile_ms(loaded, 0.99) / quantile_ms(quiet, 0.99)
    pairs = pair_ratios(phases)
    print(
        f"### Ultimate under load: {len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"{args.games} ultimate games (level 8, up to 1,000 ms) and {args.three} 3x3 channels, "
        f"{ROUND_TRIP[0] * 1000:.0f}-{ROUND_TRIP[1] * 1000:.0f} ms round trips, {args.repeat} x ({args.seconds:g} s "
        f"3x3 alone + {args.seconds:g} s with ultimate); load average before: {loads[0]}; after: {loads[1]}\n"
    )
    print(f"ultimate: {ult.moves} moves, {ult.games} games finished; answer to a press (first callback) p50 "
          f"{_ms(ult.answers, 0.5)} ms, p99 {_ms(ult.answers, 0.99)} ms over {len(ult.answers)} presses")  # fmt: skip
    print(f"ultimate: press to the bot's move on the board: p50 {_ms(ult.to_bot, 0.5)} ms, p99 "
          f"{_ms(ult.to_bot, 0.99)} ms, max {_ms(ult.to_bot, 1.0)} ms over {len(ult.to_bot)} moves; "
          f"{ult.lost} never shown within {MOVE_TIMEOUT:.0f} s")  # fmt: skip
    print(f"ultimate: searches at full budget {ult.full}, at reduced budget {ult.reduced}; presses refused as busy "
          f"{ult.busy}; other refusals {len(ult.refused)} {ult.refused[:3]}")  # fmt: skip
    for phase in phases:
        res = phase.three
        print(f"{res.bot}: {res.moves} presses, p50 {res.pct(0.5):.1f} ms, p99 {res.pct(0.99):.1f} ms; bot CPU "
              f"{res.cpu_main:.1f} s main + {res.cpu_children:.1f} s workers (driver and fake {res.cpu_driver:.1f} s); "
              f"worst loop lag {'n/a' if res.lag_ms is None else f'{res.lag_ms:.0f}'} ms")  # fmt: skip
        if res.samples:
            print(f"  py-spy samples of the bot's main process ({res.samples}):")
            print("\n".join("    " + line for line in sample_shares(res.samples)))
    checks = [
        (late == 0, f"every first callback within {LATE:g} s: {late} later of {len(fake.records)} interactions"),
        (
            ratio <= RATIO_TARGET,
            f"3x3 p99 first callback with the ultimate load ≤ {RATIO_TARGET:g}x without: "
            f"{quantile_ms(loaded, 0.99):.1f} ms ({len(loaded)} presses) vs {quantile_ms(quiet, 0.99):.1f} ms "
            f"({len(quiet)} presses) = {ratio:.2f}x",
        ),
    ]
    for passed, line in checks:
        print(f"{'PASS' if passed else 'MISS'}: {line}")
    if len(pairs) > 1:
        print(f"  each pair of adjacent phases (alone, then with ultimate, 2 x {args.seconds:g} s): "
              f"{', '.join(f'{r:.2f}x' for r in pairs)}; median {statistics.median(pairs):.2f}x")  # fmt: skip
    if fake.violations:
        print(f"{len(fake.violations)} bodies the fake refused, the first: {fake.violations[0]}")
    return 0 if all(passed for passed, _ in checks) else 1


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its report; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="ultimate games at once (default 20)")
    parser.add_argument("--three", type=int, default=4, help="3x3 channels (default 4)")
    parser.add_argument("--seconds", type=float, default=30.0, help="seconds per phase (default 30)")
    parser.add_argument("--repeat", type=int, default=1, help="pairs of phases (3x3 alone, with ultimate)")
    parser.add_argument("--think", type=float, default=0.0, help="3x3 players' mean think time, s (default 0)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--no-validate",
        action="store_true",
        help="the fake does not check bodies against Discord's OpenAPI spec (a cost of the driver's, not the bot's)",
    )
    parser.add_argument("--py-spy", type=Path, metavar="DIR", help="sample the bot's main process in each phase")
    parser.add_argument("--bot-root", type=lambda s: Path(s).resolve(), default=ROOT, metavar="DIR",
                        help="the checkout whose bot runs (default: this one)")  # fmt: skip
    args = parser.parse_args(argv)
    if args.py_spy:
        args.py_spy.mkdir(parents=True, exist_ok=True)
    before = Path("/proc/loadavg").read_text().split()[:3]
    phases, fake = asyncio.run(run(args))
    after = Path("/proc/loadavg").read_text().split()[:3]
    return report(args, phases, fake, (" ".join(before), " ".join(after)))


if __name__ == "__main__":
    sys.exit(main())
