"""Discord's rules for the application commands of a bulk overwrite: names, descriptions, localizations, options
and choices, integration types and contexts."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from testing.fake_discord.protocol import (
    CONTEXT_BOT_DM,
    CONTEXT_GUILD,
    CONTEXT_PRIVATE_CHANNEL,
    INSTALL_GUILD,
    INSTALL_USER,
    LOCALES,
)


def _valid_name(name: Any) -> bool:
    """Discord's rule for command and option names (and their localizations): ``^[-_\\p{L}\\p{N}\\p{sc=Deva}
    \\p{sc=Thai}]{1,32}$``, in lower case wherever a letter has a lower-case form."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32 or name != name.lower():
        return False
    for char in name:
        if char in "-_" or unicodedata.category(char)[0] in "LN":
            continue
        if unicodedata.name(char, "").startswith(("DEVANAGARI", "THAI")):
            continue
        return False
    return True


def _text_errors(where: str, value: Any, low: int, high: int) -> list[str]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        return [f"{where}: must be {low}-{high} characters (got {value!r})"]
    return []


def _localization_errors(where: str, table: Any, check: Callable[[str, Any], list[str]]) -> list[str]:
    if table is None:
        return []
    if not isinstance(table, dict):
        return [f"{where}: must be an object of locale -> text"]
    errors = [f"{where}: {key!r} is not a Discord locale" for key in table if key not in LOCALES]
    for key, value in table.items():
        errors += check(f"{where}.{key}", value)
    return errors


def _name_errors(where: str, name: Any) -> list[str]:
    return [] if _valid_name(name) else [f"{where}: invalid name {name!r} (lower case, no spaces, 1-32 characters)"]


def _described_errors(where: str, item: dict[str, Any]) -> list[str]:
    """The name, description and their localizations of a command or an option."""
    errors = _name_errors(f"{where}.name", item.get("name"))
    errors += _localization_errors(f"{where}.name_localizations", item.get("name_localizations"), _name_errors)
    errors += _text_errors(f"{where}.description", item.get("description"), 1, 100)
    errors += _localization_errors(
        f"{where}.description_localizations",
        item.get("description_localizations"),
        lambda w, v: _text_errors(w, v, 1, 100),
    )
    return errors


def _option_errors(where: str, options: Any) -> list[str]:
    """Discord's limits on a command's options, their choices and localizations (recursively)."""
    if not options:
        return []
    errors = [f"{where}: at most 25 options"] if len(options) > 25 else []
    seen_optional = False
    for i, option in enumerate(options):
        at = f"{where}.{i}"
        errors += _described_errors(at, option)
        if option.get("type") in (1, 2):
            errors += _option_errors(f"{at}.options", option.get("options"))
            continue
        if option.get("required") and seen_optional:
            errors.append(f"{at}: required options must come before optional ones")
        seen_optional = seen_optional or not option.get("required")
        choices = option.get("choices") or []
        if len(choices) > 25:
            errors.append(f"{at}.choices: at most 25 choices")
        for j, choice in enumerate(choices):
            errors += _text_errors(f"{at}.choices.{j}.name", choice.get("name"), 1, 100)
            errors += _localization_errors(
                f"{at}.choices.{j}.name_localizations",
                choice.get("name_localizations"),
                lambda w, v: _text_errors(w, v, 1, 100),
            )
            if isinstance(choice.get("value"), str):
                errors += _text_errors(f"{at}.choices.{j}.value", choice["value"], 1, 100)
    return errors


def command_errors(cmd: dict[str, Any]) -> list[str]:
    """Discord's rules for one command of a bulk overwrite (names, descriptions, localizations, contexts)."""
    name, ctype = cmd.get("name", ""), cmd.get("type", 1)
    errors: list[str] = []
    if ctype == 1:
        errors += _described_errors(str(name), cmd)
        errors += _option_errors(f"{name}.options", cmd.get("options"))
    elif not isinstance(name, str) or not 1 <= len(name) <= 32:
        errors.append(f"invalid command name {name!r}")
    if not set(cmd.get("integration_types") or []) <= {INSTALL_GUILD, INSTALL_USER}:
        errors.append(f"{name}.integration_types: unknown value in {cmd['integration_types']!r}")
    if not set(cmd.get("contexts") or []) <= {CONTEXT_GUILD, CONTEXT_BOT_DM, CONTEXT_PRIVATE_CHANNEL}:
        errors.append(f"{name}.contexts: unknown value in {cmd['contexts']!r}")
    return errors
