"""The records in words (bot.text.records)."""

from __future__ import annotations

from bot.i18n.lang import lang
from bot.records import Record, UserStats
from bot.text.records import bot_records_text, short_variant_name, stats_text
from engine.players import Difficulty


def test_stats_text() -> None:
    stats = UserStats(vs_bot=Record(0, 3, 7), vs_people=Record(1, 0, 2))
    assert stats_text("A", stats) == "**A**\nvs the bot: 0 W · 3 D · 7 L\nvs people: 1 W · 0 D · 2 L"


def test_stats_text_groups_the_digits_of_large_records_by_locale() -> None:
    stats = UserStats(vs_bot=Record(0, 1234, 56789), vs_people=Record(1000, 0, 2))
    assert "vs the bot: 0 W · 1,234 D · 56,789 L" in stats_text("A", stats)
    assert "1.234" in stats_text("A", stats, lang("de"))


def test_the_bots_record_per_variant_and_difficulty() -> None:
    records = {
        "3x3": {Difficulty.UNBEATABLE: Record(wins=3, draws=2, losses=0)},
        "5x5": {
            Difficulty.UNBEATABLE: Record(wins=12, draws=300, losses=0),
            Difficulty.EASY: Record(wins=1, draws=0, losses=2),
        },
        "ultimate": {},
    }
    lines = bot_records_text("the bot", records).splitlines()  # type: ignore[arg-type]
    assert lines == [
        "**the bot**",
        "3x3, unbeatable: 0 losses in 5 games (3 W · 2 D · 0 L)",
        "5x5, easy: 2 losses in 3 games (1 W · 0 D · 2 L)",
        "5x5, unbeatable: 0 losses in 312 games (12 W · 300 D · 0 L)",
        "Never beaten at unbeatable.",
    ]
    assert bot_records_text("the bot", {"4x4": {}}).splitlines()[1] == "No finished games yet."
    assert short_variant_name("ultimate", lang("ja")) == "アルティメット"
