"""The application-command translator: names through the "command name" context, validated against Discord's
rules; descriptions and choices as plain messages."""

from __future__ import annotations

import gettext
import logging
from typing import Any

import pytest
from discord import Locale, app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import translator
from bot.i18n.translator import CatalogTranslator, valid_name


async def translate(text: str, locale: Locale, where: Where) -> str | None:
    context: TranslationContext[Any, Any] = TranslationContext(where, None)  # type: ignore[call-overload]
    return await CatalogTranslator().translate(app_commands.locale_str(text), locale, context)


async def test_names_descriptions_and_choices() -> None:
    assert await translate("start", Locale.german, Where.command_name) == "starten"
    assert await translate("play_as", Locale.japanese, Where.parameter_name) == "記号"
    assert await translate(
        "Play tic-tac-toe and other board games", Locale.brazil_portuguese, Where.group_description
    ) == ("Jogar jogo da velha e outros jogos de tabuleiro")
    assert await translate("buttons", Locale.spain_spanish, Where.choice_name) == "botones"
    assert await translate("start", Locale.korean, Where.command_name) is None  # no catalog: English
    assert await translate("stats", Locale.french, Where.command_name) is None  # the same word: nothing to send


async def test_a_level_choice_is_its_message_translated_then_filled() -> None:
    context: TranslationContext[Any, Any] = TranslationContext(Where.choice_name, None)
    fields = {"level": 5, "rating": 1450}
    name = app_commands.locale_str("Level 5 · 1450", msgid="Level {level} · {rating}", fields=fields)
    assert await CatalogTranslator().translate(name, Locale.german, context) == "Stufe 5 · 1450"
    assert await CatalogTranslator().translate(name, Locale.japanese, context) == "レベル 5 · 1450"
    assert await CatalogTranslator().translate(name, Locale.korean, context) is None


async def test_a_name_discord_would_refuse_is_dropped(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken(gettext.NullTranslations):
        def pgettext(self, context: str, message: str) -> str:
            return "Neues Spiel"

    monkeypatch.setattr(translator, "translation", lambda locale: Broken())
    with caplog.at_level(logging.WARNING, logger="bot.i18n.translator"):
        assert await translate("start", Locale.german, Where.command_name) is None
    assert "Neues Spiel" in caplog.text


@pytest.mark.parametrize(("name", "ok"), [("starten", True), ("開始", True), ("jouer_en", True), ("Start", False),
                                          ("neues spiel", False), ("x" * 33, False), ("", False)])  # fmt: skip
def test_discord_name_rule(name: str, ok: bool) -> None:
    assert valid_name(name) is ok
