"""Settings from the environment and ``.env`` (python-dotenv); every variable is documented in ``.env.example``.

Loading fails fast with a :class:`ConfigError` whose message says what to fix.
"""

from __future__ import annotations

import logging
import os
import re
import socket
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TypeVar

from dotenv import dotenv_values

__all__ = [
    "DEFAULT_API_BASE",
    "DEFAULT_GATEWAY_URL",
    "IDENTIFY_WINDOW_SECONDS",
    "ConfigError",
    "Settings",
    "load_settings",
    "pod_ordinal",
    "pod_shards",
]

DEFAULT_API_BASE = "https://discord.com/api/v10"
DEFAULT_GATEWAY_URL = "wss://gateway.discord.gg/"
IDENTIFY_WINDOW_SECONDS = 5.0
"""Discord allows ``max_concurrency`` IDENTIFYs per 5 seconds, one per bucket ``shard_id % max_concurrency``
(https://discord.com/developers/docs/events/gateway#session-start-limit-object)."""
_ORDINAL = re.compile(r"-(\d+)$")
_T = TypeVar("_T", int, float)

MISSING_TOKEN = (
    "DISCORD_TOKEN is not set: put your bot token in the environment or in a .env file "
    "(copy .env.example), or run `make console` to play offline."
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
    connect_retry: float = 1.0
    identify_window: float = IDENTIFY_WINDOW_SECONDS


ENGINE_SETTINGS = ("TTT_ENGINE_PURE_PYTHON",)
"""Settings the engine reads from the environment when it is imported (see ``.env.example``)."""


def export_engine_settings(env_file: str | Path | None = ".env", environ: dict[str, str] | None = None) -> None:
    """Copy the engine's settings (:data:`ENGINE_SETTINGS`) from ``env_file`` into ``environ`` (default
    ``os.environ``) where the environment does not set them, so ``.env`` reaches the engine too: call it before
    the engine is imported."""
    target = os.environ if environ is None else environ
    if env_file is None or not Path(env_file).is_file():
        return
    for name, value in dotenv_values(env_file).items():
        if name in ENGINE_SETTINGS and value is not None and name not in target:
            target[name] = value


def load_settings(
    environ: Mapping[str, str] | None = None, env_file: str | Path | None = ".env", hostname: str | None = None
) -> Settings:
    """Read settings from ``environ`` (default ``os.environ``), falling back to ``env_file`` when it exists.
    ``hostname`` (default: ``HOSTNAME``, else the machine's) gives the pod's ordinal for ``DISCORD_SHARDS_PER_POD``
    when ``POD_ORDINAL`` is unset.

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
    per_pod = _number("DISCORD_SHARDS_PER_POD", get("DISCORD_SHARDS_PER_POD"), int)
    if per_pod is not None:
        if shard_ids is not None:
            raise ConfigError("set DISCORD_SHARD_IDS or DISCORD_SHARDS_PER_POD, not both")
        if shard_count is None:
            raise ConfigError("DISCORD_SHARDS_PER_POD needs DISCORD_SHARD_COUNT (the total number of shards) as well")
        ordinal = pod_ordinal(get("POD_ORDINAL"), hostname or get("HOSTNAME") or socket.gethostname())
        shard_ids = pod_shards(ordinal, per_pod, shard_count)
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
    connect_retry = _number("TTT_CONNECT_RETRY_SECONDS", get("TTT_CONNECT_RETRY_SECONDS"), float) or 1.0
    if connect_retry <= 0:
        raise ConfigError(f"TTT_CONNECT_RETRY_SECONDS must be a positive number of seconds, not {connect_retry!r}")
    identify_window = _number("DISCORD_IDENTIFY_WINDOW_SECONDS", get("DISCORD_IDENTIFY_WINDOW_SECONDS"), float)
    if identify_window is not None and identify_window < 0:
        raise ConfigError(f"DISCORD_IDENTIFY_WINDOW_SECONDS must be 0 or more seconds, not {identify_window!r}")
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
        connect_retry=connect_retry,
        identify_window=IDENTIFY_WINDOW_SECONDS if identify_window is None else identify_window,
    )


def pod_ordinal(ordinal: str | None, hostname: str) -> int:
    """The process's place in a StatefulSet: ``ordinal`` (``POD_ORDINAL``, e.g. from the pod's
    ``apps.kubernetes.io/pod-index`` label) when set, else the number that ends ``hostname`` (a StatefulSet's pod
    ``ttt-bot-2`` is 2).

    Raises:
        ConfigError: ``ordinal`` is not a number of 0 or more, or ``hostname`` does not end in ``-N``.
    """
    if ordinal is not None:
        value = _number("POD_ORDINAL", ordinal, int)
        if value is None or value < 0:
            raise ConfigError(f"POD_ORDINAL must be 0 or more, not {ordinal!r}")
        return value
    found = _ORDINAL.search(hostname)
    if found is None:
        raise ConfigError(
            f"DISCORD_SHARDS_PER_POD needs the pod's ordinal: set POD_ORDINAL, or run in a StatefulSet whose pods are "
            f"named NAME-0, NAME-1, ... (this host is {hostname!r})"
        )
    return int(found.group(1))


def pod_shards(ordinal: int, per_pod: int, shard_count: int) -> tuple[int, ...]:
    """The shard ids of pod ``ordinal`` when each pod holds ``per_pod`` consecutive shards of ``shard_count``: pod 0
    holds ``0..per_pod-1``, pod 1 the next ``per_pod``, and the last pod fewer when ``per_pod`` does not divide the
    count.

    Raises:
        ConfigError: ``per_pod`` is not positive, or the pod would hold no shard (more replicas than
            ``ceil(shard_count / per_pod)``).
    """
    if per_pod < 1:
        raise ConfigError(f"DISCORD_SHARDS_PER_POD must be 1 or more, not {per_pod!r}")
    first = ordinal * per_pod
    if first >= shard_count:
        pods = -(-shard_count // per_pod)
        raise ConfigError(
            f"pod {ordinal} would hold no shard: {shard_count} shards at {per_pod} per pod fill {pods} pod(s) "
            f"(ordinals 0..{pods - 1}); lower the replicas or raise DISCORD_SHARD_COUNT"
        )
    return tuple(range(first, min(first + per_pod, shard_count)))


def _number(name: str, text: str | None, kind: type[_T]) -> _T | None:
    if text is None:
        return None
    try:
        return kind(text.strip())
    except ValueError:
        raise ConfigError(f"{name} must be {'an integer' if kind is int else 'a number'}, not {text!r}") from None
