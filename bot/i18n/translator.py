"""Localized application commands: discord.py's ``app_commands.Translator`` over the gettext catalogs.

Command, group and option *names* are looked up with the gettext context ``"command name"`` (so "board"
the option and "board" in a sentence translate independently); descriptions and choice names are plain
msgids, or a choice name made from a message with fields carries it as ``msgid`` and ``fields`` extras of its
``locale_str`` (the English name is the message formatted). Discord requires localized names to be lower case,
without spaces, 1-32 characters: a translation that breaks the rule is dropped (the English name stays) and logged.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from discord import Locale, app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.i18n import CATALOGS, translation

__all__ = ["C_", "NAME_CONTEXT", "CatalogTranslator", "valid_name"]

log = logging.getLogger(__name__)

NAME_CONTEXT = "command name"
_NAME = re.compile(r"^[-_\w\u0900-\u097f\u0e00-\u0e7f]{1,32}$")
_NAMES = (Where.command_name, Where.group_name, Where.parameter_name)


def C_(context: str, message: str) -> str:
    """Mark ``message`` for extraction with the gettext ``context``; returns it unchanged."""
    return message


def valid_name(name: str) -> bool:
    """Discord's rule for command and option names (and their localizations): lower case, 1-32 letters,
    digits, ``-`` or ``_`` (any script)."""
    return bool(_NAME.fullmatch(name)) and name == name.lower()


class CatalogTranslator(app_commands.Translator):
    """Translates the ``/ttt`` command tree into every locale with a catalog (see :mod:`bot.i18n`)."""

    async def translate(
        self, string: app_commands.locale_str, locale: Locale, context: app_commands.TranslationContext[Any, Any]
    ) -> str | None:
        """The translation of ``string`` for ``locale``, or ``None`` (Discord then shows the English text)."""
        code = locale.value
        if code not in CATALOGS:
            return None
        catalog = translation(code)
        message = string.message
        if context.location in _NAMES:
            translated = catalog.pgettext(NAME_CONTEXT, message)
            if translated != message and not valid_name(translated):
                log.warning("dropped the %s name %r for %r: Discord would refuse it", code, translated, message)
                return None
        elif "msgid" in string.extras:  # a name made from a message with fields, e.g. "Level {level} · {rating}"
            msgid = string.extras["msgid"]
            translated = catalog.gettext(msgid)
            if translated == msgid:
                return None
            fields = string.extras.get("fields", {})
            translated = translated.format(**fields)
        else:
            translated = catalog.gettext(message)
        return translated if translated != message else None
