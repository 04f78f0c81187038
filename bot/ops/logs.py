"""Logging: the human format by default, or one JSON object per line (``LOG_FORMAT=json``), never a token.

JSON lines come from python-json-logger and carry ``timestamp``, ``level``, ``logger`` and ``message``, and
``shard``, ``guild``, ``channel`` and ``game`` where known: from the interaction being handled
(:func:`interaction_context`), or from the ``channel=`` and ``game=`` the bot's own messages name, or from
discord.py's "Shard ID N".

Every handler gets a :class:`RedactTokens` filter: discord.py logs gateway payloads (interaction tokens) and
webhook URLs (``/interactions/<id>/<token>/callback``) at DEBUG. The human format is coloured on a terminal only
(:func:`human_formatter`), and discord.py's warnings about voice packages, which the bot never needs, are dropped
(:class:`UnusedVoice`).
"""

from __future__ import annotations

import contextvars
import logging
import re
import sys
from collections.abc import Callable, Iterable
from typing import IO, Literal, TypeVar

import discord
from pythonjsonlogger.json import JsonFormatter

__all__ = [
    "CONTEXT_FIELDS",
    "ContextFields",
    "LogFormat",
    "RedactTokens",
    "UnusedVoice",
    "human_formatter",
    "interaction_context",
    "setup_logging",
]

LogFormat = Literal["human", "json"]
CONTEXT_FIELDS = ("shard", "guild", "channel", "game")
REDACTED = "[redacted]"
_T = TypeVar("_T")

_CONTEXT: contextvars.ContextVar[tuple[tuple[str, str], ...]] = contextvars.ContextVar("ttt_log_context", default=())
_TOKEN_FIELD = re.compile(r"""(["']token["']\s*:\s*["'])[^"']+""")
_TOKEN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?\s'\"]+")
_NAMED = re.compile(r"\b(shard|guild|channel|game)=([0-9a-z]+)")
_SHARD_ID = re.compile(r"\bShard ID (\d+)")
_NO_VOICE = re.compile(r"\w+ is not installed, voice will NOT be supported")


def interaction_context(shard: int | None, guild: str | None, channel: str | None, run: Callable[[], _T]) -> _T:
    """Call ``run()`` with the log fields of an interaction set; tasks created inside inherit them."""
    known = (("shard", shard), ("guild", guild), ("channel", channel))
    fields = tuple((name, str(value)) for name, value in known if value is not None)

    def inside() -> _T:
        _CONTEXT.set(fields)
        return run()

    return contextvars.copy_context().run(inside)


class RedactTokens(logging.Filter):
    """Replaces the bot token, interaction tokens and webhook tokens in a record (message and traceback)."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def redact(self, text: str) -> str:
        """``text`` without any token."""
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        text = _TOKEN_FIELD.sub(rf"\g<1>{REDACTED}", text)
        return _TOKEN_PATH.sub(rf"\g<1>{REDACTED}", text)

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite the record in place; never drops it."""
        message = record.getMessage()
        cleaned = self.redact(message)
        if cleaned != message or record.args:
            record.msg, record.args = cleaned, None
        if record.exc_info:
            record.exc_text = self.redact(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        return True


class ContextFields(logging.Filter):
    """Adds ``shard``, ``guild``, ``channel`` and ``game`` to a record where they are known."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Set the known fields as record attributes (a JSON formatter writes them); never drops the record."""
        fields = dict(_CONTEXT.get())
        message = record.getMessage()
        for name, value in _NAMED.findall(message):
            fields.setdefault(name, value)
        shard = _SHARD_ID.search(message)
        if shard is not None:
            fields.setdefault("shard", shard.group(1))
        for name, value in fields.items():
            setattr(record, name, value)
        return True


def json_formatter() -> logging.Formatter:
    """One JSON object per line: timestamp (ISO 8601, UTC), level, logger, message, and the context fields."""
    return JsonFormatter(
        ["levelname", "name", "message"],
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp=True,
    )


class UnusedVoice(logging.Filter):
    """Drops discord.py's start-up warnings that a voice package is missing ("PyNaCl is not installed, voice will
    NOT be supported", the same for davey): the bot never joins a voice channel. Every other record passes."""

    def filter(self, record: logging.LogRecord) -> bool:
        """False only for those warnings of ``discord.client``."""
        return not (record.name == "discord.client" and _NO_VOICE.fullmatch(str(record.msg)) is not None)


def human_formatter(stream: IO[str]) -> logging.Formatter | None:
    """discord.py's human format for ``stream``: ``None`` (its colour formatter) on a terminal; elsewhere (a file, a
    pipe, Docker's log) the same columns without colour codes. discord.py itself colours inside Docker too."""
    if stream.isatty():
        return None
    return logging.Formatter("[{asctime}] [{levelname:<8}] {name}: {message}", "%Y-%m-%d %H:%M:%S", style="{")


def setup_logging(
    level: int, log_format: LogFormat = "human", secrets: Iterable[str] = (), stream: IO[str] | None = None
) -> logging.Handler:
    """Log to ``stream`` (default: stderr) at ``level`` in ``log_format``, with ``secrets`` (the bot token) and
    every interaction token redacted, without discord.py's voice warnings (:class:`UnusedVoice`); returns the
    handler.

    The human format is discord.py's own (:func:`discord.utils.setup_logging`), coloured only on a terminal.
    """
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactTokens(secrets))
    voice = logging.getLogger("discord.client")
    if not any(isinstance(f, UnusedVoice) for f in voice.filters):
        voice.addFilter(UnusedVoice())
    if log_format == "json":
        handler.setFormatter(json_formatter())
        handler.addFilter(ContextFields())
        root = logging.getLogger()
        root.setLevel(level)
        root.addHandler(handler)
    elif (plain := human_formatter(stream)) is not None:
        discord.utils.setup_logging(handler=handler, formatter=plain, level=level)
    else:
        discord.utils.setup_logging(handler=handler, level=level)
    return handler
