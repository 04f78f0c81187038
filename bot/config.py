"""Settings from the environment and ``.env`` (python-dotenv); every variable is documented in ``.env.example``.

Loading fails fast with a :class:`ConfigError` whose message says what to fix.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar

from dotenv import dotenv_values

__all__ = ["DEFAULT_API_BASE", "DEFAULT_GATEWAY_URL", "ConfigError", "Settings", "load_settings"]

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"
_T = TypeVar("_T", int, float)

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env file "
    "(copy .env.example), or run `python -m bot --console` to play offline."
)


class ConfigError(ValueError):
    """A missing or malformed setting."""


@dataclass(frozen=True, slots=True)
class Settings:
    """The bot's configuration. ``token`` and ``database_url`` (it may hold a password) are kept out of ``repr``
    so they never reach a log; ``database_url`` ``None`` means the default SQLite file."""

    token: str = field(repr=False)
    dev_guild_id: int | None = None
    log_level: int = logging.INFO
    turn_timeout: float = 600.0
    challenge_timeout: float = 60.0
    lag_report_every: float = 60.0
    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None
    api_base: str = DEFAULT_API_BASE
    gateway_url: str = DEFAULT_GATEWAY_URL
    database_url: str | None = field(default=None, repr=False)
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    log_format: Literal["human", "json"] = "human"
    ready_probe_every: float = 15.0


def load_settings(environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env") -> Settings:
    """Read settings from ``environ`` (default ``os.environ``), falling back to ``env_file`` when it exists.

    Raises:
        ConfigError: ``DISCORD_TOKEN`` is missing, or a value has the wrong shape.
    """
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)

    def get(name: str) -> str | None:
        value = values.get(name, "").strip()
        return value or None

    token = get("DISCORD_TOKEN")
    if token is None:
        raise ConfigError(MISSING_TOKEN)
    level_name = (get("LOG_LEVEL") or "INFO").upper()
    level = logging.getLevelNamesMapping().get(level_name)
    if level is None:
        raise ConfigError(f"LOG_LEVEL {level_name!r} is not one of DEBUG, INFO, WARNING, ERROR, CRITICAL")
    turn_timeout = _number("TTT_TURN_TIMEOUT", get("TTT_TURN_TIMEOUT"), float) or 600.0
    if turn_timeout <= 0:
        raise ConfigError(f"TTT_TURN_TIMEOUT must be a positive number of seconds, not {turn_timeout!r}")
    challenge_timeout = _number("TTT_CHALLENGE_TIMEOUT", get("TTT_CHALLENGE_TIMEOUT"), float) or 60.0
    if challenge_timeout <= 0:
        raise ConfigError(f"TTT_CHALLENGE_TIMEOUT must be a positive number of seconds, not {challenge_timeout!r}")
    lag_report_every = _number("TTT_LAG_REPORT_SECONDS", get("TTT_LAG_REPORT_SECONDS"), float) or 60.0
    if lag_report_every <= 0:
        raise ConfigError(f"TTT_LAG_REPORT_SECONDS must be a positive number of seconds, not {lag_report_every!r}")
    shard_ids_text = get("DISCORD_SHARD_IDS")
    shard_ids = None
    if shard_ids_text is not None:
        shard_ids = tuple(_number("DISCORD_SHARD_IDS", part, int) or 0 for part in shard_ids_text.split(","))
    shard_count = _number("DISCORD_SHARD_COUNT", get("DISCORD_SHARD_COUNT"), int)
    if shard_ids is not None and shard_count is None:
        raise ConfigError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT (the total number of shards) as well")
    if shard_count is not None and shard_ids is not None and any(not 0 <= i < shard_count for i in shard_ids):
        raise ConfigError(f"DISCORD_SHARD_IDS {shard_ids_text!r} must lie in 0..{shard_count - 1}")
    metrics_port = _number("METRICS_PORT", get("METRICS_PORT"), int)
    if metrics_port is not None and not 0 < metrics_port < 65536:
        raise ConfigError(f"METRICS_PORT must be a port number (1-65535), not {metrics_port!r}")
    log_format = (get("LOG_FORMAT") or "human").lower()
    if log_format not in ("human", "json"):
        raise ConfigError(f"LOG_FORMAT must be human or json, not {log_format!r}")
    ready_probe_every = _number("TTT_READY_PROBE_SECONDS", get("TTT_READY_PROBE_SECONDS"), float) or 15.0
    if ready_probe_every <= 0:
        raise ConfigError(f"TTT_READY_PROBE_SECONDS must be a positive number of seconds, not {ready_probe_every!r}")
    return Settings(
        token=token,
        dev_guild_id=_number("DISCORD_DEV_GUILD_ID", get("DISCORD_DEV_GUILD_ID"), int),
        log_level=level,
        turn_timeout=turn_timeout,
        challenge_timeout=challenge_timeout,
        lag_report_every=lag_report_every,
        shard_ids=shard_ids,
        shard_count=shard_count,
        api_base=(get("DISCORD_API_BASE") or DEFAULT_API_BASE).rstrip("/"),
        gateway_url=get("DISCORD_GATEWAY_URL") or DEFAULT_GATEWAY_URL,
        database_url=get("DATABASE_URL"),
        metrics_port=metrics_port,
        metrics_host=get("METRICS_HOST") or "127.0.0.1",
        log_format="json" if log_format == "json" else "human",
        ready_probe_every=ready_probe_every,
    )


def _number(name: str, text: str | None, kind: type[_T]) -> _T | None:
    if text is None:
        return None
    try:
        return kind(text.strip())
    except ValueError:
        raise ConfigError(f"{name} must be {'an integer' if kind is int else 'a number'}, not {text!r}") from None
