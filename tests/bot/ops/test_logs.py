"""JSON log lines, token redaction, colour only on a terminal, and no voice warnings."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import discord
import pytest

from bot.ops.logs import (
    REDACTED,
    ContextFields,
    RedactTokens,
    UnusedVoice,
    human_formatter,
    interaction_context,
    json_formatter,
    setup_logging,
)

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.Gabcde.very-secret-bot-token"
INTERACTION_TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OmFiY2RlZmdoaWprbG1ub3A"


@pytest.fixture
def capture() -> Iterator[tuple[logging.Logger, io.StringIO]]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(RedactTokens([TOKEN]))
    handler.addFilter(ContextFields())
    handler.setFormatter(json_formatter())
    logger = logging.getLogger("tests.bot.ops.logs")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    logger.propagate = False
    try:
        yield logger, stream
    finally:
        logger.removeHandler(handler)


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def test_a_json_line_carries_the_fields_and_the_context(capture: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = capture
    interaction_context(0, "111", "222", lambda: logger.info("game over: channel=%s game=%s", 222, "abc123"))
    logger.warning("nothing known here")
    first, second = lines(stream)
    assert first.keys() == {"timestamp", "level", "logger", "message", "shard", "guild", "channel", "game"}
    assert (first["level"], first["logger"]) == ("INFO", "tests.bot.ops.logs")
    assert first["message"] == "game over: channel=222 game=abc123"
    assert (first["shard"], first["guild"], first["channel"], first["game"]) == ("0", "111", "222", "abc123")
    assert str(first["timestamp"]).endswith("+00:00")
    assert second.keys() == {"timestamp", "level", "logger", "message"}


def test_discord_py_shard_lines_name_the_shard(capture: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = capture
    logger.info("Shard ID %s has connected to Gateway (Session ID: %s).", 3, "abc")
    assert lines(stream)[0]["shard"] == "3"


def test_tokens_are_redacted_from_payloads_urls_and_tracebacks(capture: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = capture
    event = {"t": "INTERACTION_CREATE", "d": {"token": INTERACTION_TOKEN}}
    logger.debug("For Shard ID %s: WebSocket Event: %s", 0, event)
    logger.debug("POST %s", f"https://discord.com/api/v10/interactions/123/{INTERACTION_TOKEN}/callback")
    logger.debug("PATCH %s", f"https://discord.com/api/v10/webhooks/456/{INTERACTION_TOKEN}/messages/@original")
    logger.debug('sent {"op": 2, "d": {"token": "%s"}}', TOKEN)
    try:
        raise RuntimeError(f"Authorization: Bot {TOKEN}")
    except RuntimeError:
        logger.exception("failed")
    text = stream.getvalue()
    assert TOKEN not in text and INTERACTION_TOKEN not in text
    assert text.count(REDACTED) == 5
    assert "/interactions/123/[redacted]/callback" in text
    assert "RuntimeError" in lines(stream)[-1]["exc_info"]  # type: ignore[operator]


def test_the_context_does_not_leak_out_of_the_interaction(capture: tuple[logging.Logger, io.StringIO]) -> None:
    logger, stream = capture
    interaction_context(1, None, "9", lambda: None)
    logger.info("after")
    assert "channel" not in lines(stream)[0]


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def installed() -> Iterator[list[logging.Handler]]:
    """Handlers :func:`setup_logging` installs on the root logger, removed afterwards (with the voice filter)."""
    root = logging.getLogger()
    level, handlers = root.level, []
    try:
        yield handlers
    finally:
        for handler in handlers:
            root.removeHandler(handler)
        root.setLevel(level)
        voice = logging.getLogger("discord.client")
        for found in [f for f in voice.filters if isinstance(f, UnusedVoice)]:
            voice.removeFilter(found)


def test_the_human_log_is_coloured_on_a_terminal_only_also_inside_docker(
    installed: list[logging.Handler], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(discord.utils, "is_docker", lambda: True)  # where discord.py colours every stream
    file, terminal = io.StringIO(), Terminal()
    installed += [setup_logging(logging.INFO, stream=file), setup_logging(logging.INFO, stream=terminal)]
    logging.getLogger("tests.bot.ops.human").warning("one line")
    assert "\x1b[" not in file.getvalue() and "WARNING" in file.getvalue() and "one line" in file.getvalue()
    assert "\x1b[" in terminal.getvalue() and "one line" in terminal.getvalue()
    assert human_formatter(file) is not None and human_formatter(terminal) is None


def test_only_discord_pys_voice_warnings_are_dropped(installed: list[logging.Handler]) -> None:
    stream = io.StringIO()
    installed.append(setup_logging(logging.INFO, stream=stream))
    client = logging.getLogger("discord.client")
    client.warning("PyNaCl is not installed, voice will NOT be supported")
    client.warning("davey is not installed, voice will NOT be supported")
    client.warning("Shard ID %s has stopped responding to the gateway.", 0)
    logging.getLogger("tests.bot.ops.human").warning("PyNaCl is not installed, voice will NOT be supported")
    text = stream.getvalue()
    assert "voice" not in text.split("tests.bot.ops.human")[0]  # not from discord.client
    assert "Shard ID 0 has stopped responding" in text and text.count("voice will NOT be supported") == 1
    assert len(text.splitlines()) == 2
