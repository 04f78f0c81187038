"""Translations: the gettext catalogs (``locale/``), the language object and the application-command translator."""

from bot.i18n.catalogs import CATALOGS, DOMAIN, LOCALE_DIR, LOCALES, N_, console_locale, format_number, translation

__all__ = ["CATALOGS", "DOMAIN", "LOCALES", "LOCALE_DIR", "N_", "console_locale", "format_number", "translation"]
