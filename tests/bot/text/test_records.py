"""The records in words (bot.text.records)."""

from __future__ import annotations

from bot.games.levels import rating_of
from bot.i18n.lang import lang
from bot.records import Rating, Record, UserStats
from bot.text.records import (
    bot_record_text,
    bot_records_text,
    leaderboard_text,
    rating_text,
    short_variant_name,
    stats_text,
)


def test_stats_text() -> None:
    stats = UserStats(vs_bot=Record(0, 3, 7), vs_people=Record(1, 0, 2))
    assert stats_text("A", stats) == "**A**\nvs the bot: 0 W · 3 D · 7 L\nvs people: 1 W · 0 D · 2 L"


def test_stats_text_groups_the_digits_of_large_records_by_locale() -> None:
    stats = UserStats(vs_bot=Record(0, 1234, 56789), vs_people=Record(1000, 0, 2))
    assert "vs the bot: 0 W · 1,234 D · 56,789 L" in stats_text("A", stats)
    assert "1.234" in stats_text("A", stats, lang("de"))


def test_the_bots_record_per_variant_and_level() -> None:
    records = {
        "3x3": {8: Record(wins=3, draws=2, losses=0)},
        "5x5": {2: Record(wins=1, draws=0, losses=2), 8: Record(wins=12, draws=300, losses=0)},
        "ultimate": {7: Record(), 8: Record(wins=1001, draws=200, losses=3)},
    }
    lines = bot_records_text("the bot", records).splitlines()
    assert lines == [
        "**the bot**",
        f"3x3, level 8 ({rating_of('3x3', 8)}, unbeatable): beaten 0 times in 5 games",
        f"5x5, level 2 ({rating_of('5x5', 2)}): beaten 2 times in 3 games",
        f"5x5, level 8 ({rating_of('5x5', 8)}, unbeatable): beaten 0 times in 312 games",
        f"ultimate, level 8 ({rating_of('ultimate', 8)}): beaten 3 times in 1,204 games",
    ]
    one = bot_record_text("the bot · 4x4", "4x4", {1: Record(0, 0, 1), 2: Record()}).splitlines()
    assert one[1] == f"level 1 ({rating_of('4x4', 1)}): beaten 1 times in 1 game · 0 W · 0 D · 1 L"
    assert bot_records_text("the bot", {"4x4": {}}).splitlines()[1] == "No finished games yet."
    assert short_variant_name("ultimate", lang("ja")) == "アルティメット"


def test_a_rating_shows_its_deviation_games_and_best_level() -> None:
    played = Rating(1534.4, 111.6, 0.06, 12, 5)
    text = rating_text("A", "4x4", {"bot": played, "people": Rating()}).splitlines()
    assert text == [
        "**A**",
        f"vs the bot: 1534 ± 112 · 12 games · best level beaten: level 5 ({rating_of('4x4', 5)})",
        "vs people: 1500 ± 350 · 0 games",
    ]
    assert "best level beaten: none yet" in rating_text("A", "3x3", {"bot": Rating(), "people": Rating()})
    assert "rating vs the bot, 3x3: 1534 ± 112 · 12 games" in stats_text(
        "A", UserStats(Record(), Record()), ratings={"3x3": played}
    )


def test_the_leaderboard_ranks_ratings_and_says_what_it_takes_to_be_listed() -> None:
    from bot.records import Leaderboard, RatedRow

    board = Leaderboard((RatedRow(7, Rating(1702.2, 80.0, 0.06, 30)), RatedRow(8, Rating(1650, 120, 0.06, 9))), ())
    lines = leaderboard_text(board, "5x5", everywhere=True).splitlines()
    assert lines[:4] == [
        "**Leaderboard** · all servers · 5x5",
        "__Against the bot__ (rating)",
        "1. <@7> · 1702 ± 80 · 30 games",
        "2. <@8> · 1650 ± 120 · 9 games",
    ]
    assert lines[5].startswith("Nobody yet: a rating is listed after 5 games")
