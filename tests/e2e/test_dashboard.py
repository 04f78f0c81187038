"""The Grafana dashboard (deploy/grafana/ttt-bot.json) queries only metrics the real bot exports, in PromQL that a
real Prometheus (Debian's ``prometheus``) accepts, once a game has been played to the end."""

from __future__ import annotations

import asyncio
import json
import re
import urllib.request
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from testing.fake_discord import FakeDiscord
from tests.prometheus_server import PrometheusServer, free_port

from .conftest import E2E_TOKEN, BotStarter, make_users
from .test_metrics import play_to_the_end

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "ttt-bot.json"
METRIC = re.compile(r"\b(?:ttt|process)_[a-z0-9_]+\b")
"""The bot's metric names (bot/ops/metrics.py prefixes its own ttt_; prometheus_client's process collector process_)."""


def queries() -> list[str]:
    """Every PromQL expression of the dashboard's panels."""
    panels = json.loads(DASHBOARD.read_text())["panels"]
    return [target["expr"] for panel in panels for target in panel.get("targets", [])]


def exported(port: int) -> set[str]:
    """The names of every sample on the bot's /metrics (``_bucket``, ``_total``... included)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        exposition = answer.read().decode()
    return {sample.name for family in text_string_to_metric_families(exposition) for sample in family.samples}


def test_every_panel_queries_the_bots_metrics() -> None:
    found = queries()
    assert len(found) >= 10
    assert [expr for expr in found if not METRIC.search(expr)] == [], "a query names none of the bot's metrics"


async def test_every_metric_the_dashboard_queries_is_exported_and_every_query_parses(start_bot: BotStarter) -> None:
    port = free_port()
    with PrometheusServer([f"127.0.0.1:{port}"]) as prometheus:
        async with FakeDiscord(token=E2E_TOKEN, channels=1) as fake:
            await start_bot(fake, METRICS_PORT=str(port))
            (ann,) = make_users(fake, "ann")
            await play_to_the_end(fake, fake.channels()[0], ann)  # a search, a finished game, a records write
            names = exported(port)
            wanted = {name for expr in queries() for name in METRIC.findall(expr)}
            assert sorted(wanted - names) == [], f"the dashboard queries metrics the bot does not export: {names}"
            for expr in queries():
                await asyncio.to_thread(prometheus.query, expr.replace("$job", "ttt"))  # raises on bad PromQL
