"""The real bot's metrics, scraped by a real Prometheus server (Debian's ``prometheus``) while games are played.

The counts Prometheus stores must equal what the players did. A Prometheus that cannot start fails the test.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from testing.boards import board_of, finished, free_cells
from testing.fake_discord import FakeDiscord
from testing.players import press, refusal, start_game, updated_message
from tests.prometheus_server import PrometheusServer, free_port

from .conftest import E2E_TOKEN, BotProcess, BotStarter, make_users

pytestmark = [pytest.mark.asyncio]

CONVERGE_SECONDS = 20.0
"""How long Prometheus may take to scrape the final counts (a scrape every 0.5 s)."""


def get(url: str) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of ``GET url``."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


async def play_to_the_end(fake: FakeDiscord, channel: str, user: dict[str, Any]) -> int:
    """Start a game as X and press the first free cell until it ends; returns the number of presses."""
    message = await start_game(fake, channel, user, play_as="X")
    presses = 0
    while not finished(board_of(message) or ""):
        board = board_of(message) or ""
        message = await updated_message(fake, await press(fake, channel, user, message, free_cells(board)[0]))
        presses += 1
    return presses


async def converged(prometheus: PrometheusServer, expected: dict[str, float]) -> dict[str, float | None]:
    """Poll Prometheus until every expression in ``expected`` has its value; returns the last values seen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + CONVERGE_SECONDS
    while True:
        seen = {expr: await asyncio.to_thread(prometheus.value, expr) for expr in expected}
        if seen == expected or loop.time() > deadline:
            return seen
        await asyncio.sleep(0.25)


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process ``pid`` listens on, from /proc (its socket inodes matched with /proc/net/tcp*)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = str(fd.readlink())
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                ports.add(int(fields[1].rsplit(":", 1)[1], 16))
    return ports


async def test_prometheus_scrapes_the_games_and_interactions_played(start_bot: BotStarter) -> None:
    port = free_port()
    with PrometheusServer([f"127.0.0.1:{port}"]) as prometheus:
        async with FakeDiscord(token=E2E_TOKEN, channels=3) as fake:
            bot = await start_bot(fake, METRICS_PORT=str(port))
            assert bot.proc is not None and listening_ports(bot.proc.pid) == {port}
            ann, ben, cy = make_users(fake, "ann", "ben", "cy")
            channels = fake.channels()
            presses = 0
            for channel, user in zip(channels, (ann, ben, cy), strict=True):
                presses += await play_to_the_end(fake, channel, user)
            board = await start_game(fake, channels[0], ann, play_as="X")  # a fourth game, left running
            await refusal(await press(fake, channels[0], ben, board, 0))  # ben may not play ann's game

            expected = {
                'sum(ttt_games_finished_total{variant="3x3"})': 3.0,
                'sum(ttt_games_finished_total{reason=~"win|draw"})': 3.0,
                "sum(ttt_games_started_total)": 4.0,
                "ttt_games_running": 1.0,
                'sum(ttt_interactions_total{kind="command",result="answered"})': 4.0,
                'sum(ttt_interactions_total{kind="button",result="answered"})': float(presses),
                'sum(ttt_interactions_total{kind="button",result="refused"})': 1.0,
                'sum(ttt_interactions_total{result="failed"})': 0.0,
                "sum(ttt_interaction_first_callback_seconds_count)": float(4 + presses + 1),
                "sum(ttt_interaction_late_callbacks_total)": 0.0,
                "ttt_records_written_total": 3.0,
                'count(ttt_search_states_evaluated_count{algorithm="alpha-beta"})': 1.0,
                'up{job="ttt"}': 1.0,
                'ttt_shard_connected{shard="0"}': 1.0,
            }
            seen = await converged(prometheus, expected)
            assert seen == expected, f"Prometheus stored {seen}\n--- prometheus log ---\n{prometheus.log_tail()}"
            assert presses >= 3 * 3  # a game as X against the unbeatable bot lasts at least 3 presses

            assert get(f"http://127.0.0.1:{port}/livez") == (200, {"live": True})
            assert get(f"http://127.0.0.1:{port}/readyz") == (200, {"ready": True})
            process_metrics = await asyncio.to_thread(prometheus.value, 'process_resident_memory_bytes{job="ttt"}')
            assert process_metrics is not None and process_metrics > 10_000_000


async def test_nothing_listens_without_metrics_port(start_bot: BotStarter) -> None:
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake)
        assert bot.proc is not None
        assert listening_ports(bot.proc.pid) == set()


async def test_a_metrics_port_in_use_exits_2_with_one_line(tmp_path: Path) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
            bot = BotProcess(fake, tmp_path / "bot.log", {"METRICS_PORT": str(port)})
            try:
                with pytest.raises(AssertionError, match="exited with status 2"):
                    await bot.start()
            finally:
                await bot.kill()
                bot.close()
    errors = [line for line in bot.log_text().splitlines() if line.startswith("error:")]
    expected = f"error: METRICS_HOST and METRICS_PORT: cannot listen on 127.0.0.1:{port} (Address already in use)"
    assert errors == [expected]
    assert "Traceback" not in bot.log_text()


async def test_sigterm_with_metrics_on_exits_0_and_stops_listening(start_bot: BotStarter) -> None:
    port = free_port()
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        bot = await start_bot(fake, METRICS_PORT=str(port))
        assert await asyncio.to_thread(get, f"http://127.0.0.1:{port}/livez") == (200, {"live": True})
        await bot.signal(signal.SIGTERM)
        assert await bot.wait_exit(5.0) == 0
        assert "Traceback" not in bot.log_text()
        with pytest.raises(ConnectionRefusedError), socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
