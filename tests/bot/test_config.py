"""The operations settings: METRICS_PORT, METRICS_HOST, LOG_FORMAT, TTT_READY_PROBE_SECONDS, the IDENTIFY window, and
the shards of a StatefulSet's pod (DISCORD_SHARDS_PER_POD with the pod's ordinal)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.config import ENGINE_SETTINGS, ConfigError, export_engine_settings, load_settings, pod_shards


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


def test_the_identify_window_is_discords_five_seconds_unless_set() -> None:
    assert load_settings({"DISCORD_TOKEN": "t"}, None).identify_window == 5.0
    assert load_settings({"DISCORD_TOKEN": "t", "DISCORD_IDENTIFY_WINDOW_SECONDS": "0.5"}, None).identify_window == 0.5
    with pytest.raises(ConfigError, match="DISCORD_IDENTIFY_WINDOW_SECONDS must be 0 or more"):
        load_settings({"DISCORD_TOKEN": "t", "DISCORD_IDENTIFY_WINDOW_SECONDS": "-1"}, None)


SHARDED = {"DISCORD_TOKEN": "t", "DISCORD_SHARD_COUNT": "6", "DISCORD_SHARDS_PER_POD": "2"}


@pytest.mark.parametrize(("hostname", "shards"), [("ttt-bot-0", (0, 1)), ("ttt-bot-2", (4, 5)), ("bot-9-1", (2, 3))])
def test_a_statefulset_pod_takes_its_shards_from_its_hostname(hostname: str, shards: tuple[int, ...]) -> None:
    settings = load_settings(SHARDED, None, hostname=hostname)
    assert (settings.shard_ids, settings.shard_count) == (shards, 6)


def test_pod_ordinal_wins_over_the_hostname_and_hostname_comes_from_the_environment() -> None:
    assert load_settings({**SHARDED, "POD_ORDINAL": "1"}, None, hostname="ttt-bot-2").shard_ids == (2, 3)
    assert load_settings({**SHARDED, "HOSTNAME": "ttt-bot-2"}, None).shard_ids == (4, 5)


def test_the_last_pod_holds_what_is_left() -> None:
    assert [pod_shards(ordinal, 3, 7) for ordinal in range(3)] == [(0, 1, 2), (3, 4, 5), (6,)]


@pytest.mark.parametrize(
    ("extra", "hostname", "message"),
    [
        ({}, "laptop", "set POD_ORDINAL, or run in a StatefulSet"),
        ({"POD_ORDINAL": "-1"}, "ttt-bot-0", "POD_ORDINAL must be 0 or more"),
        ({"POD_ORDINAL": "two"}, "ttt-bot-0", "POD_ORDINAL must be an integer"),
        ({}, "ttt-bot-3", "pod 3 would hold no shard: 6 shards at 2 per pod fill 3 pod"),
        ({"DISCORD_SHARDS_PER_POD": "0"}, "ttt-bot-0", "DISCORD_SHARDS_PER_POD must be 1 or more"),
        ({"DISCORD_SHARD_COUNT": ""}, "ttt-bot-0", "DISCORD_SHARDS_PER_POD needs DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_IDS": "0"}, "ttt-bot-0", "DISCORD_SHARD_IDS or DISCORD_SHARDS_PER_POD, not both"),
    ],
)
def test_a_pod_that_cannot_place_itself_says_why(extra: dict[str, str], hostname: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        load_settings({**SHARDED, **extra}, None, hostname=hostname)


def test_env_example_documents_every_setting_newcomers_first() -> None:
    root = Path(__file__).resolve().parents[2]
    text = (root / ".env.example").read_text()
    names = [line.split("=", 1)[0] for line in text.splitlines() if line and not line.startswith("#")]
    read = set(re.findall(r'get\("([A-Z_0-9]+)"\)', (root / "bot" / "config.py").read_text())) | set(ENGINE_SETTINGS)
    assert read - set(names) - {"HOSTNAME"} == set(), "settings the bot reads but .env.example does not document"
    assert names[:2] == ["DISCORD_TOKEN", "DISCORD_DEV_GUILD_ID"]
    advanced = text.index("# Advanced")
    assert all(text.index(f"\n{name}=") > advanced for name in ("DISCORD_API_BASE", "DISCORD_IDENTIFY_WINDOW_SECONDS"))
    assert "Copy Server ID" in text and "Developer Mode" in text


def test_the_engines_settings_are_read_from_env_too(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("TTT_ENGINE_PURE_PYTHON=1\nDISCORD_TOKEN=t\n")
    environ: dict[str, str] = {}
    export_engine_settings(env_file, environ)
    assert environ == {"TTT_ENGINE_PURE_PYTHON": "1"}  # the token stays in the settings, out of the environment
    environ = {"TTT_ENGINE_PURE_PYTHON": ""}
    export_engine_settings(env_file, environ)
    assert environ == {"TTT_ENGINE_PURE_PYTHON": ""}  # the environment wins
