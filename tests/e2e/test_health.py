"""``/livez`` and ``/readyz`` of the real bot: ready turns 503 when its PostgreSQL stops, and 200 when it is back."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from testing.fake_discord import FakeDiscord
from tests.pg_server import PostgresServer
from tests.prometheus_server import free_port

from .conftest import E2E_TOKEN, BotStarter

pytestmark = [pytest.mark.asyncio]

PROBE_SECONDS = 0.2
"""The database probe's period in this test (TTT_READY_PROBE_SECONDS)."""


def get(url: str) -> tuple[int, dict[str, Any]]:
    """The status and JSON body of ``GET url``."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


async def readiness_becomes(url: str, status: int, timeout: float = 15.0) -> tuple[int, dict[str, Any]]:
    """Poll ``url`` until it answers ``status``; returns the last answer (another status after ``timeout``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        answer = await asyncio.to_thread(get, url)
        if answer[0] == status or loop.time() > deadline:
            return answer
        await asyncio.sleep(0.1)


async def test_readyz_follows_postgresql_down_and_back(start_bot: BotStarter, postgres_server: PostgresServer) -> None:
    url = await asyncio.to_thread(postgres_server.create_database)
    port = free_port()
    readyz = f"http://127.0.0.1:{port}/readyz"
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake, DATABASE_URL=url, METRICS_PORT=str(port), TTT_READY_PROBE_SECONDS=str(PROBE_SECONDS))
        assert await readiness_becomes(readyz, 200) == (200, {"ready": True})
        await asyncio.to_thread(postgres_server.stop)
        try:
            down = await readiness_becomes(readyz, 503)
            live = await asyncio.to_thread(get, f"http://127.0.0.1:{port}/livez")
        finally:
            await asyncio.to_thread(postgres_server.start)
        assert down == (503, {"ready": False, "not_ready": ["records database"]})
        assert live == (200, {"live": True})  # the process itself is fine: no restart wanted
        assert await readiness_becomes(readyz, 200) == (200, {"ready": True})


def scrape(port: int) -> dict[str, float]:
    """The samples of the bot's ``/metrics``, by name and labels as Prometheus writes them."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        families = text_string_to_metric_families(answer.read().decode())
    return {
        sample.name + "{" + ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items())) + "}": sample.value
        for family in families
        for sample in family.samples
    }


async def test_a_gateway_reconnect_is_counted_and_the_shard_is_ready_again(start_bot: BotStarter) -> None:
    port = free_port()
    readyz = f"http://127.0.0.1:{port}/readyz"
    async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
        await start_bot(fake, METRICS_PORT=str(port), TTT_READY_PROBE_SECONDS=str(PROBE_SECONDS))
        assert await readiness_becomes(readyz, 200) == (200, {"ready": True})
        before = await asyncio.to_thread(scrape, port)
        assert before['ttt_shard_connected{shard="0"}'] == 1.0
        assert before['ttt_gateway_reconnects_total{shard="0"}'] == 0.0  # exported from the first connection
        connections = len(fake.gateway_queries)
        assert await fake.close_gateway(4000, "Unknown error.") == 1
        await fake.wait_for(lambda: len(fake.gateway_queries) > connections, 15)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 15
        after = await asyncio.to_thread(scrape, port)
        while after.get('ttt_gateway_reconnects_total{shard="0"}') != 1.0 and loop.time() < deadline:
            await asyncio.sleep(0.1)
            after = await asyncio.to_thread(scrape, port)
        assert after.get('ttt_gateway_reconnects_total{shard="0"}') == 1.0
        assert after['ttt_shard_connected{shard="0"}'] == 1.0
        assert await asyncio.to_thread(get, readyz) == (200, {"ready": True})
        assert after['ttt_gateway_latency_seconds{shard="0"}'] >= 0.0
