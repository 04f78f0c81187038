"""Names, durations and terminal text shared by every text (bot.text.common)."""

from __future__ import annotations

import pytest

from bot.i18n.lang import lang
from bot.text.common import discord_who, format_elapsed, plain

BOB = 20


@pytest.mark.parametrize(
    ("seconds", "text"), [(0.00004, "0.04 ms"), (0.0023, "2.3 ms"), (0.9994, "999.4 ms"), (1.5, "1.50 s")]
)
def test_format_elapsed(seconds: float, text: str) -> None:
    assert format_elapsed(seconds) == text


def test_plain_drops_discord_markdown() -> None:
    text = "**Hint for X**\n`1` draw\n```\n 1 │ 2 │ 3 \n```"
    assert plain(text) == "Hint for X\n1 draw\n 1 │ 2 │ 3 "


def test_players_are_mentions_and_the_bot_is_named() -> None:
    assert discord_who(None) == "the bot" and discord_who(BOB) == "<@20>"
    assert discord_who(None, lang("de")) == lang("de")("the bot") != "the bot"
