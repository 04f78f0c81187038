"""A bot killed with SIGKILL leaves no process behind: its search workers and the resource tracker die with it.

The signal goes to the bot's main process only, as the OOM killer sends it; nothing else is killed by the test.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from testing.fake_discord import FakeDiscord
from testing.players import private_text, public_message, ttt

from .conftest import E2E_TOKEN, BotStarter, make_users, process_group_members

pytestmark = [pytest.mark.asyncio, pytest.mark.faults]

LIMIT = 5.0
"""Seconds within which every process of a killed bot must be gone (issue 20)."""


def children_of(pid: int) -> list[int]:
    """The pids of the live (non-zombie) processes whose parent is ``pid``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2 :].split()[0] != "Z"


async def test_sigkill_leaves_no_worker_and_no_resource_tracker(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake)
        assert bot.proc is not None
        channel = fake.channels()[0]
        (alice,) = make_users(fake, "alice")
        await public_message(fake, await ttt(fake, channel, alice, "start", algorithm="minimax"))
        assert "Hint" in await private_text(await ttt(fake, channel, alice, "hint"))  # both process pools ran
        children = children_of(bot.proc.pid)
        group = process_group_members(bot.proc.pid)
        # the move pool and the hint pool have a worker each; the resource tracker is the third child
        assert len(children) >= 3, f"expected search workers and a resource tracker, found {group}"

        bot.proc.send_signal(signal.SIGKILL)
        assert await bot.wait_exit(LIMIT) == -signal.SIGKILL
        loop = asyncio.get_running_loop()
        killed = loop.time()
        while any(alive(pid) for pid in children) and loop.time() - killed < LIMIT:
            await asyncio.sleep(0.05)
        left = [pid for pid in children if alive(pid)]
        assert left == [], (
            f"{len(left)} of {group} still run {LIMIT} s after SIGKILL: {process_group_members(bot.proc.pid)}"
        )
        assert process_group_members(bot.proc.pid) == []
