"""The language object (bot.i18n.lang): translated text with placeholders, plural rules, numbers per locale."""

from __future__ import annotations

from bot.i18n.lang import Lang, lang


def test_lang_is_cached_per_locale() -> None:
    assert lang(None) is lang(None) and lang("de") is lang("de") and lang("de") is not lang(None)
    assert isinstance(lang("fr"), Lang) and lang("fr").locale == "fr"


def test_plurals_follow_the_count() -> None:
    tr = lang(None)
    assert tr.plural("{n} move", "{n} moves", 1, n=1) == "1 move"
    assert tr.plural("{n} move", "{n} moves", 2, n=2) == "2 moves"


def test_numbers_are_grouped_and_rounded_the_locales_way() -> None:
    assert lang(None).number(1234567) == "1,234,567"
    assert lang("de").number(1234567) == "1.234.567"
    assert lang(None).decimal(2.3, 2) == "2.30" and lang("de").decimal(2.3, 2) == "2,30"


def test_a_count_of_any_size_is_written() -> None:
    """Babel's grouping fails beyond 28 digits: such counts (a minimax estimate, a forged board's) read as powers."""
    assert lang("ja").number(10**54 * 3) == "3.0 × 10⁵⁴" and lang("fr").number(-(10**40)) == "-1,0 × 10⁴⁰"
    assert lang("de").decimal(1e300, 2) == "1,0 × 10³⁰⁰" and lang(None).decimal(float("inf"), 1) == "∞"


def test_placeholders_are_filled_after_translation() -> None:
    assert lang("de")("{side} wins!", side="X") == lang("de")("{side} wins!").format(side="X")
    assert lang(None)("{side} wins!", side="X") == "X wins!"
