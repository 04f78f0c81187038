"""The records in words (bot.text.records)."""

from __future__ import annotations

from bot.i18n.lang import lang
from bot.records import Record, UserStats
from bot.text.records import stats_text


def test_stats_text() -> None:
    stats = UserStats(vs_bot=Record(0, 3, 7), vs_people=Record(1, 0, 2))
    assert stats_text("A", stats) == "**A**\nvs the bot: 0 W · 3 D · 7 L\nvs people: 1 W · 0 D · 2 L"


def test_stats_text_groups_the_digits_of_large_records_by_locale() -> None:
    stats = UserStats(vs_bot=Record(0, 1234, 56789), vs_people=Record(1000, 0, 2))
    assert "vs the bot: 0 W · 1,234 D · 56,789 L" in stats_text("A", stats)
    assert "1.234" in stats_text("A", stats, lang("de"))
