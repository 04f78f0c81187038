"""The gettext catalogs: complete, consistent with the English source, and up to date with the code."""

from __future__ import annotations

import re
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from bot import i18n
from bot.i18n.catalogs import format_list
from bot.i18n.lang import lang
from bot.i18n.translator import NAME_CONTEXT, valid_name

ROOT = Path(__file__).resolve().parents[3]
LANGUAGES = sorted(set(i18n.CATALOGS.values()))


def template() -> Catalog:
    with (i18n.LOCALE_DIR / f"{i18n.DOMAIN}.pot").open("rb") as file:
        return read_po(file)


def catalog(language: str) -> Catalog:
    with (i18n.LOCALE_DIR / language / "LC_MESSAGES" / f"{i18n.DOMAIN}.po").open("rb") as file:
        return read_po(file, locale=language)


def fields(text: str) -> list[str]:
    """The ``str.format`` fields of ``text``, sorted (a translation may reorder them)."""
    return sorted(
        f"{name}!{conversion}" for _, name, _, conversion in string.Formatter().parse(text) if name is not None
    )


def test_the_languages_served() -> None:
    assert i18n.LOCALES == ("en-US", "de", "fr", "es-ES", "pt-BR", "ja")
    assert LANGUAGES == ["de", "es", "fr", "ja", "pt_BR"]


def test_the_template_is_up_to_date_with_the_code(tmp_path: Path) -> None:
    fresh = tmp_path / "ttt.pot"
    keywords = ["-k", "N_", "-k", "C_:1c,2", "-k", "plural:1,2"]
    options = ["--no-location", "--sort-output", "-o", str(fresh)]
    command = [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg", *keywords, *options, "."]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    with fresh.open("rb") as file:
        extracted = {(m.context, m.id) for m in read_po(file) if m.id}
    assert extracted == {(m.context, m.id) for m in template() if m.id}, "run `make messages`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    translations = catalog(language)
    for message in template():
        if not message.id:
            continue
        found = translations.get(message.id, context=message.context)
        assert found is not None, f"{language}: missing {message.id!r}"
        assert not found.fuzzy, f"{language}: fuzzy {message.id!r}"
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        translated = found.string if isinstance(found.string, tuple) else (found.string,)
        assert all(translated), f"{language}: untranslated {message.id!r}"
        assert len(translated) == translations.num_plurals or not isinstance(message.id, tuple)
        for text in translated:
            assert fields(text) == fields(english[-1]), f"{language}: placeholders of {text!r} vs {english[-1]!r}"
        if message.context == NAME_CONTEXT:
            assert valid_name(translated[0]), f"{language}: {translated[0]!r} is not a valid command name"


@pytest.mark.parametrize("language", LANGUAGES)
def test_markdown_and_commands_survive_translation(language: str) -> None:
    """Bold markers stay paired, code spans stay closed, so Discord renders the translation as it does English."""
    for message in catalog(language):
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            assert text.count("**") % 2 == 0 and text.count("`") % 2 == 0, f"{language}: {text!r}"


def test_game_terms_are_consistent() -> None:
    """Each language keeps one word for the game and the field's term for alpha-beta."""
    expected = {
        "de": ("Tic-Tac-Toe", "Alpha-Beta"),
        "fr": ("morpion", "alpha-bêta"),
        "es": ("tres en raya", "alfa-beta"),
        "pt_BR": ("jogo da velha", "alfa-beta"),
        "ja": ("三目並べ", "αβ法"),
    }
    for language, (game, pruning) in expected.items():
        texts = " ".join(str(m.string) for m in catalog(language) if m.id).lower()
        assert game.lower() in texts and pruning.lower() in texts, language
        assert "tic-tac-toe" not in texts or language == "de", f"{language} mixes in the English name"


@pytest.mark.parametrize(
    ("environ", "locale"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "pt_BR.UTF-8"}, "pt-BR"),
        ({"LC_ALL": "es_MX.UTF-8", "LANG": "de_DE"}, "es-ES"),
        ({"LANGUAGE": "ja:en", "LANG": "C"}, "ja"),
        ({"LANG": "fr_CA"}, "fr"),
        ({"LANG": "C.UTF-8"}, "en-US"),
        ({"LANG": "ko_KR.UTF-8"}, "en-US"),
        ({}, "en-US"),
    ],
)
def test_the_console_follows_lang(environ: dict[str, str], locale: str) -> None:
    assert i18n.console_locale(environ) == locale


def test_numbers_and_fallbacks() -> None:
    assert [i18n.format_number(549_945, code) for code in ("en-US", "de", "ja", None, "xx-YY")] == [
        "549,945",
        "549.945",
        "549,945",
        "549,945",
        "549,945",
    ]
    assert re.fullmatch(r"549\s945", i18n.format_number(549_945, "fr"))
    assert i18n.format_number(2.3, "de", places=2) == "2,30"
    assert lang("ko")("Not your turn.") == lang(None)("Not your turn.") == "Not your turn."
    assert lang("es-419")("Not your turn.") == lang("es-ES")("Not your turn.") == "No es tu turno."
    assert lang("de").plural("{states} state", "{states} states", 1, states="1") == "1 Zustand"


def test_lists_follow_the_locale() -> None:
    games = ["3x3", "ultimate", "5x5"]
    assert format_list(games, None) == "3x3, ultimate, and 5x5"
    assert format_list(games, "de") == "3x3, ultimate und 5x5"
    assert format_list(games, "ja") == "3x3、ultimate、5x5"
    assert format_list(["alpha-beta", "minimax"], "pt-BR", alternatives=True) == "alpha-beta ou minimax"
    assert format_list(["a"], "xx-YY") == "a"


ULTIMATE_ESTIMATE = 2759597277078905255506737267460971012165123519073484800
"""Knuth's estimate of the states plain minimax evaluates on ultimate (55 digits): Babel's formatting raised
``decimal.InvalidOperation`` on it, and on any number of more than 28 digits."""


def test_a_huge_number_is_written_in_scientific_notation_the_locales_way() -> None:
    assert i18n.format_number(ULTIMATE_ESTIMATE, "en-US") == "2.8 × 10⁵⁴"
    assert i18n.format_number(ULTIMATE_ESTIMATE, "de") == i18n.format_number(ULTIMATE_ESTIMATE, "fr") == "2,8 × 10⁵⁴"
    assert i18n.format_number(-(10**30), None) == "-1.0 × 10³⁰"
    assert i18n.format_number(9_999_999_999_999_999, None) == "1.0 × 10¹⁶"  # rounded up to the next power
    assert i18n.format_number(10**15, "de") == "1,0 × 10¹⁵" and i18n.format_number(10**15 - 1, None).count(",") == 4
    assert i18n.format_number(1e300, "ja", places=2) == "1.0 × 10³⁰⁰"
    assert i18n.format_number(float("inf"), "de", places=2) == "∞"


@given(st.integers() | st.floats(), st.sampled_from([*i18n.LOCALES, None, "xx-YY"]), st.integers(0, 3))
def test_any_number_is_formatted_without_an_exception(number: float, locale: str | None, places: int) -> None:
    text = i18n.format_number(number, locale, places=places)
    assert text and len(text) < 40, text
