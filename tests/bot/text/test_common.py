"""Names, durations and terminal text shared by every text (bot.text.common)."""

from __future__ import annotations

import pytest

from bot.i18n.lang import lang
from bot.text.common import discord_who, escaped, format_elapsed, in_code, plain

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


def test_typed_text_is_shown_as_typed() -> None:
    assert escaped("**b2**") == "\\*\\*b2\\*\\*"  # no bold
    assert escaped("__x__ ~~y~~ `z` > q") == "\\_\\_x\\_\\_ \\~\\~y\\~\\~ \\`z\\` \\> q"
    assert escaped("@everyone") == "@\u200beveryone"  # no mention, even if pings were allowed
    assert escaped("a\nb" + "c" * 60) == "a b" + "c" * 37  # one line, 40 characters
    assert in_code("g1` **@here**\n") == "g1' **@here**"  # nothing can close the code span
