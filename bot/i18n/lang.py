"""The language object: one locale's gettext catalog and number format, what every text function takes as ``tr``."""

from __future__ import annotations

from functools import lru_cache

from bot.i18n.catalogs import format_number, translation

__all__ = ["Lang", "lang"]


class Lang:
    """One locale's catalog (gettext) and number format; ``None`` is English."""

    def __init__(self, locale: str | None) -> None:
        self.locale = locale
        self._catalog = translation(locale)

    def __call__(self, message: str, /, **values: object) -> str:
        """``message`` translated, with its ``{placeholders}`` filled from ``values``."""
        text = self._catalog.gettext(message)
        return text.format(**values) if values else text

    def plural(self, singular: str, plural: str, count: int, /, **values: object) -> str:
        """The singular or plural form for ``count`` (the locale's plural rule), placeholders filled."""
        return self._catalog.ngettext(singular, plural, count).format(**values)

    def number(self, value: int) -> str:
        """``value`` with the locale's digit grouping (``7,641`` in English)."""
        return format_number(value, self.locale)

    def decimal(self, value: float, places: int) -> str:
        """``value`` with ``places`` decimals and the locale's separators (``2.30`` / ``2,30``)."""
        return format_number(round(value, places), self.locale, places=places)


@lru_cache(maxsize=64)
def lang(locale: str | None) -> Lang:
    """The :class:`Lang` for a Discord locale code (cached)."""
    return Lang(locale)
