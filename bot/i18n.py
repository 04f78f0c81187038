"""Translations (gettext): which message catalog serves a Discord locale. Placeholder until the catalogs land."""

from __future__ import annotations

import gettext
from collections.abc import Mapping

__all__ = ["LOCALES", "N_", "console_locale", "format_number", "translation"]

LOCALES: tuple[str, ...] = ("en-US",)


def N_(message: str) -> str:
    """Mark ``message`` for extraction; returns it unchanged."""
    return message


def translation(locale: str | None) -> gettext.NullTranslations:
    """The catalog for a Discord locale code; English for ``None`` or a locale without one."""
    return gettext.NullTranslations()


def console_locale(environ: Mapping[str, str] | None = None) -> str:
    """The locale the console uses (from ``LANG`` and friends)."""
    return "en-US"


def format_number(n: int | float, locale: str | None) -> str:
    """``n`` with the locale's digit grouping."""
    return f"{n:,}"
