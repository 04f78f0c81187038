"""How the bot process ends: on a signal (scenario h) and when Discord refuses its token (scenario i).

Each test runs its own fake and bot. Signals go to the bot's main process only, as a service manager or
``docker stop`` sends them; the bot must take its search workers down itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal

import pytest

from testing.fake_discord import FakeDiscord
from testing.players import delivered, private_text, public_message, ttt

from .conftest import E2E_TOKEN, BotStarter, make_users

pytestmark = [pytest.mark.asyncio, pytest.mark.faults]

SHUTDOWN_LIMIT = 5.0


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_closes_the_gateway_and_every_process(start_bot: BotStarter, sig: signal.Signals) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake)
        channel = fake.channels()[0]
        (alice,) = make_users(fake, "alice")
        started = await ttt(fake, channel, alice, "start", algorithm="minimax")
        await public_message(fake, started)
        await delivered(fake, started)
        assert "Hint" in await private_text(await ttt(fake, channel, alice, "hint"))  # the search workers ran
        await fake.wait_for(lambda: fake.in_flight == 0, 5)  # a signal while idle (no answer in flight)
        await asyncio.sleep(0.1)
        print(f"before {sig.name}: {bot.group_members()}")

        loop = asyncio.get_running_loop()
        sent = loop.time()
        await bot.signal(sig)
        status = await bot.wait_exit(SHUTDOWN_LIMIT)
        while bot.group_members() and loop.time() - sent < SHUTDOWN_LIMIT:
            await asyncio.sleep(0.1)
        left = bot.group_members()
        with contextlib.suppress(TimeoutError):
            await fake.wait_for(lambda: bool(fake.gateway_closes), 1)
        closes = [(c.code, c.by) for c in fake.gateway_closes]
        outcome = f"{sig.name}: exit status {status} (None: still running), gateway closes {closes}, left {left}"
        assert (status, closes, left) == (0, [(1000, "client")], []), outcome
        assert "Traceback" not in bot.log_text()


async def test_gateway_close_4004_exits_2_with_one_line_about_the_token(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake)
        seen = len(bot.log_text().splitlines())
        assert await fake.close_gateway(4004, "Authentication failed.") == 1
        status = await bot.wait_exit(10)
        output = bot.log_text().splitlines()[seen:]
        assert status == 2, f"exit status {status}:\n" + "\n".join(output[-30:])
        assert not any("Traceback" in line for line in output), "\n".join(output[-30:])
        about_token = [line for line in output if "token" in line.lower()]
        assert len(about_token) == 1, about_token
        assert fake.identify_count == 1, "the bot must not retry a rejected token"
