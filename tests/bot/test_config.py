"""The operations settings: METRICS_PORT, METRICS_HOST, LOG_FORMAT and TTT_READY_PROBE_SECONDS."""

from __future__ import annotations

import pytest

from bot.config import ConfigError, load_settings


def test_metrics_are_off_and_logs_human_by_default() -> None:
    settings = load_settings({"DISCORD_TOKEN": "t"}, None)
    assert (settings.metrics_port, settings.metrics_host, settings.log_format) == (None, "127.0.0.1", "human")
    assert settings.ready_probe_every == 15.0


def test_metrics_port_host_and_json_logs() -> None:
    environ = {"DISCORD_TOKEN": "t", "METRICS_PORT": "9100", "METRICS_HOST": "0.0.0.0", "LOG_FORMAT": "JSON"}
    settings = load_settings(environ, None)
    assert (settings.metrics_port, settings.metrics_host, settings.log_format) == (9100, "0.0.0.0", "json")


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("METRICS_PORT", "http", "METRICS_PORT must be an integer"),
        ("METRICS_PORT", "70000", "METRICS_PORT must be a port number"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT must be human or json"),
        ("TTT_READY_PROBE_SECONDS", "-1", "TTT_READY_PROBE_SECONDS must be a positive number"),
    ],
)
def test_a_bad_value_says_what_to_fix(name: str, value: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({"DISCORD_TOKEN": "t", name: value}, None)
