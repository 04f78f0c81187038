"""Contention benchmark: many people acting on one channel at once, through the fake Discord, against the real bot.

It starts the fake Discord (``testing/fake_discord/``) in this process with a fixed REST round trip (default
100 ms: every answer, interaction callbacks included, leaves the fake that long after the request arrived) and
the bot (``python -m bot``) as a subprocess, then runs two scenarios, each in a fresh
channel, all on loopback:

a. ``--starters`` people (default 50) send ``/ttt start`` at the same moment: Discord must end up with exactly one
   board and one private refusal for everyone else;
b. one player starts a game and ``--spectators`` (default 30) other people press its cells at the same moment:
   each must get a private answer.

For each it prints the boards created, the private answers (refusals), how many first callbacks reached Discord
within its 3 s limit, and the slowest first-callback latency (from the dispatch of INTERACTION_CREATE to the
callback's arrival, :attr:`InteractionRecord.latency`), also as a multiple of the round trip: a bot that answers
one person per round trip shows a multiple near the number of people. Interactions still unanswered after
``--timeout`` seconds count as never answered. Targets: a) one board, every refusal in time; b) the slowest
answer <= 1 s. The exit code is 1 when a target is missed.

    python -m benchmarks.contention [--starters 50] [--spectators 30] [--round-trip 0.1] [--timeout 8]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from dataclasses import dataclass

from benchmarks.harness import BotProcess, bot_env, launch
from testing.boards import board_of, free_cell_id
from testing.fake_discord import FakeDiscord, InteractionRecord
from testing.players import ACK_LIMIT, in_time, public_message, settle

__all__ = ["ScenarioResult", "main", "run"]

TOKEN = "contention-benchmark-token"
SPECTATOR_TARGET = 1.0
"""Seconds: the slowest spectator's first callback (scenario b) should arrive within this."""
MAX_PEOPLE = 500


@dataclass
class ScenarioResult:
    """What Discord saw in one scenario."""

    name: str
    people: int
    boards: int  # public messages showing a board in the channel
    refusals: int  # interactions answered with a private (ephemeral) message
    in_time: int  # first callbacks accepted within 3 s
    never: int  # no first callback before the timeout
    slowest: float | None  # seconds, over the interactions that were answered

    def row(self, round_trip: float) -> str:
        slowest = "-" if self.slowest is None else f"{self.slowest * 1000:,.0f}"
        ratio = "-" if self.slowest is None or round_trip <= 0 else f"{self.slowest / round_trip:.1f}"
        return (
            f"| {self.name} | {self.people} | {self.boards} | {self.refusals} | {self.in_time} | {self.never} "
            f"| {slowest} | {ratio} |"
        )


def _summary(name: str, fake: FakeDiscord, channel: str, records: list[InteractionRecord]) -> ScenarioResult:
    latencies = [r.latency for r in records if r.latency is not None]
    return ScenarioResult(
        name=name,
        people=len(records),
        boards=sum(1 for m in fake.messages(channel, include_ephemeral=False) if board_of(m) is not None),
        refusals=sum(1 for r in records if r.ephemeral),
        in_time=sum(1 for r in records if in_time(r)),
        never=sum(1 for r in records if r.latency is None),
        slowest=max(latencies) if latencies else None,
    )


def _people(fake: FakeDiscord, prefix: str, count: int) -> list[dict[str, object]]:
    users = []
    for i in range(count):
        user = fake.make_user(400_000_000_000_000_000 + len(fake.users), f"{prefix}{i}")
        fake.add_member(fake.default_guild_id, user)
        users.append(user)
    return users


async def simultaneous_starts(fake: FakeDiscord, count: int, timeout: float) -> ScenarioResult:
    """Scenario a: ``count`` people send ``/ttt start`` in one channel at once."""
    channel = fake.add_channel()
    people = _people(fake, "starter", count)
    records = await asyncio.gather(*(fake.slash_command(None, channel, u, subcommand="start") for u in people))
    await settle(list(records), timeout)
    return _summary("a: simultaneous /ttt start", fake, channel, list(records))


async def spectators_press(fake: FakeDiscord, count: int, timeout: float) -> ScenarioResult:
    """Scenario b: ``count`` non-players press the cells of one running board at once."""
    channel = fake.add_channel()
    (player,) = _people(fake, "player", 1)
    board = await public_message(fake, await fake.slash_command(None, channel, player, subcommand="start"))
    await asyncio.sleep(1.0)  # let the start's answer reach the bot before the crowd arrives
    spectators = _people(fake, "spectator", count)
    records = await asyncio.gather(
        *(
            fake.press_button(None, channel, s, board["id"], free_cell_id(board, i % 9))
            for i, s in enumerate(spectators)
        )
    )
    await settle(list(records), timeout)
    return _summary("b: spectators press one board", fake, channel, list(records))


async def run(starters: int, spectators: int, round_trip: float, timeout: float) -> list[ScenarioResult]:
    """Start the fake and the bot, run scenarios a and b, stop both; returns their results."""
    async with FakeDiscord(token=TOKEN, channels=1, latency=(round_trip, round_trip)) as fake:
        bot = BotProcess([sys.executable, "-m", "bot"], bot_env(fake, {"LOG_LEVEL": "WARNING"}), "contention")
        await launch([bot], fake, commands=True)
        try:
            return [
                await simultaneous_starts(fake, starters, timeout),
                await spectators_press(fake, spectators, timeout),
            ]
        finally:
            await bot.stop()


def report(results: list[ScenarioResult], round_trip: float) -> tuple[str, bool]:
    """A Markdown table and PASS/MISS lines; returns the text and whether every target was met."""
    lines = [
        f"REST round trip {round_trip * 1000:.0f} ms; Discord's limit for a first callback {ACK_LIMIT:.0f} s",
        "",
        "| scenario | people | boards | private answers | in time | never | slowest first callback (ms) "
        "| slowest / round trip |",
        "|---|---|---|---|---|---|---|---|",
        *(r.row(round_trip) for r in results),
        "",
    ]
    starts, presses = results
    checks = [
        (starts.boards == 1, f"a: exactly one board (got {starts.boards})"),
        (
            starts.refusals == starts.people - 1 and starts.in_time == starts.people,
            f"a: {starts.people - 1} private refusals, all in time (got {starts.refusals}, {starts.in_time} in time)",
        ),
        (presses.in_time == presses.people, f"b: every spectator answered in time ({presses.in_time})"),
        (
            presses.slowest is not None and presses.never == 0 and presses.slowest <= SPECTATOR_TARGET,
            f"b: slowest spectator answer <= {SPECTATOR_TARGET:.0f} s",
        ),
    ]
    lines += [f"{'PASS' if ok else 'MISS'} {text}" for ok, text in checks]
    return "\n".join(lines), all(ok for ok, _ in checks)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; returns 1 when a target is missed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--starters", type=int, default=50, help="people sending /ttt start at once (a)")
    parser.add_argument("--spectators", type=int, default=30, help="non-players pressing one board at once (b)")
    parser.add_argument("--round-trip", type=float, default=0.1, help="seconds added to every REST answer")
    parser.add_argument("--timeout", type=float, default=8.0, help="seconds to wait for the answers")
    args = parser.parse_args(argv)
    if not (2 <= args.starters <= MAX_PEOPLE and 1 <= args.spectators <= MAX_PEOPLE):
        parser.error(f"--starters must be 2-{MAX_PEOPLE} and --spectators 1-{MAX_PEOPLE}")
    if not (0 <= args.round_trip <= 2 and 1 <= args.timeout <= 60):
        parser.error("--round-trip must be 0-2 s and --timeout 1-60 s")
    logging.getLogger("testing.fake_discord").setLevel(logging.ERROR)  # late callbacks are counted, not logged
    results = asyncio.run(run(args.starters, args.spectators, args.round_trip, args.timeout))
    text, ok = report(results, args.round_trip)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
