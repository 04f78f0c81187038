"""The /ttt commands as one locale shows them (bot.text.commands), read from the synced payload."""

from __future__ import annotations

from typing import Any

import pytest

from bot.text.commands import command_names

GROUP: dict[str, Any] = {
    "name": "ttt",
    "type": 1,
    "description": "Play",
    "options": [
        {
            "name": "start",
            "type": 1,
            "description": "Start a game",
            "name_localizations": {"de": "starten"},
            "description_localizations": {"de": "Starte ein Spiel"},
            "options": [
                {"name": "variant", "type": 3, "name_localizations": {"de": "variante"}},
                {"name": "level", "type": 4},
            ],
        },
        {"name": "help", "type": 1, "description": "Rules", "description_localizations": {"de": "Regeln"}},
        {"name": "solo", "type": 3, "description": "an option of the group itself, not a command"},
    ],
}


def test_names_and_descriptions_in_the_locale_and_english_where_discord_has_none() -> None:
    german = command_names(GROUP, "de")
    assert german.names() == ("start", "help")
    assert german("start") == "/ttt starten" and german("start", "variant") == "/ttt starten variante:"
    assert german.option("start", "level") == "level:"  # no localization: Discord shows the name as defined
    assert german("help") == "/ttt help" and german.commands[1].description == "Regeln"
    for locale in (None, "ko"):
        english = command_names(GROUP, locale)
        assert english("start", "variant") == "/ttt start variant:"
        assert english.commands[0].description == "Start a game"


def test_an_unknown_command_or_option_is_an_error() -> None:
    names = command_names(GROUP, "de")
    with pytest.raises(KeyError):
        names("move")
    with pytest.raises(KeyError):
        names("start", "cell")
