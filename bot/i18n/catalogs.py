"""Translations: a standard gettext catalog per language, chosen by Discord's locale codes.

The catalogs are ``bot/i18n/locale/<language>/LC_MESSAGES/ttt.po`` (the template is ``bot/i18n/locale/ttt.pot``;
``make messages`` extracts and merges them with Babel). They are compiled in memory with Babel at first
use, so a fresh clone needs no build step. Text is English in the source (the gettext msgids) and falls
back to English for any locale without a catalog. Numbers are grouped the locale's way (Babel's CLDR data); a huge
one (from :data:`HUGE` on: the minimax estimate of ultimate is 55 digits) is written in scientific notation.
"""

from __future__ import annotations

import gettext
import io
import logging
import math
import os
from collections.abc import Mapping, Sequence
from decimal import Decimal
from functools import cache, lru_cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.lists import format_list as babel_format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

__all__ = [
    "CATALOGS",
    "DOMAIN",
    "HUGE",
    "LOCALES",
    "LOCALE_DIR",
    "N_",
    "console_locale",
    "format_list",
    "format_number",
    "translation",
]

log = logging.getLogger(__name__)

DOMAIN = "ttt"
LOCALE_DIR = Path(__file__).parent / "locale"
CATALOGS: Mapping[str, str] = {
    "de": "de",
    "fr": "fr",
    "es-ES": "es",
    "es-419": "es",
    "pt-BR": "pt_BR",
    "ja": "ja",
}
"""Discord locale code -> catalog (language) folder. Latin American Spanish uses the Spanish catalog."""
LOCALES: tuple[str, ...] = ("en-US", "de", "fr", "es-ES", "pt-BR", "ja")
"""The Discord locales served, English first (every other locale falls back to English)."""
HUGE = 10**15
"""From this magnitude on a number is written in scientific notation, ``2.8 × 10⁵⁴``: sixteen grouped digits are not
read at a glance, and Babel's formatting raises ``decimal.InvalidOperation`` beyond 28 digits (its Decimal context)."""
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_TENTH = Decimal("0.1")
_BABEL_LOCALE = {"en-US": "en_US", "en-GB": "en_GB", "es-ES": "es_ES", "es-419": "es_419", "pt-BR": "pt_BR"}


def N_(message: str) -> str:
    """Mark ``message`` for extraction into the catalogs; returns it unchanged (translate it later)."""
    return message


@cache
def translation(locale: str | None) -> gettext.NullTranslations:
    """The catalog for a Discord locale code (``"de"``, ``"pt-BR"``...); English for ``None`` or a locale
    without one. Cached: each catalog is read and compiled once per process."""
    language = CATALOGS.get(locale or "")
    if language is None:
        return gettext.NullTranslations()
    folder = LOCALE_DIR / language / "LC_MESSAGES"
    compiled = folder / f"{DOMAIN}.mo"
    if compiled.is_file() and compiled.stat().st_mtime >= (folder / f"{DOMAIN}.po").stat().st_mtime:
        with compiled.open("rb") as file:
            return gettext.GNUTranslations(file)
    with (folder / f"{DOMAIN}.po").open("rb") as file:
        catalog = read_po(file, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def console_locale(environ: Mapping[str, str] | None = None) -> str:
    """The Discord locale code the console uses, from ``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES`` or ``LANG``
    (the first one set): ``de_DE.UTF-8`` -> ``"de"``, ``pt_BR`` -> ``"pt-BR"``, ``es_MX`` -> ``"es-ES"``;
    ``C``, ``POSIX`` and languages without a catalog -> ``"en-US"``."""
    env = os.environ if environ is None else environ
    value = next((env[name] for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    for candidate in value.split(":"):
        code = candidate.split(".")[0].split("@")[0]
        language, _, region = code.partition("_")
        if language == "pt" and region in ("", "BR", "PT"):
            return "pt-BR"
        if language == "es":
            return "es-ES"
        if language in ("de", "fr", "ja"):
            return language
        if language == "en":
            return "en-US"
    return "en-US"


def format_list(items: Sequence[str], locale: str | None, *, alternatives: bool = False) -> str:
    """``items`` as one phrase in ``locale``'s words and punctuation (CLDR list patterns, through Babel): ``["a", "b",
    "c"]`` → ``"a, b, and c"`` (German ``"a, b und c"``, Japanese ``"a、b、c"``); ``alternatives``: ``"a or b"``."""
    return babel_format_list(list(items), style="or" if alternatives else "standard", locale=_babel_locale(locale))


@lru_cache(maxsize=64)
def _babel_locale(locale: str | None) -> Locale:
    try:
        return Locale.parse(_BABEL_LOCALE.get(locale or "", (locale or "en_US").replace("-", "_")))
    except (UnknownLocaleError, ValueError):
        return Locale.parse("en_US")


@lru_cache(maxsize=8192)
def format_number(n: int | float, locale: str | None, *, places: int = 0) -> str:
    """``n`` grouped the locale's way: ``7,641`` (English, Japanese), ``7.641`` (German), ``7 641`` (French);
    with ``places`` decimals exactly (``2.30``, ``2,30``). From :data:`HUGE` on, in scientific notation with one
    decimal (``2.8 × 10⁵⁴``, ``2,8 × 10⁵⁴``); infinity as the locale's sign (``∞``). Any int or float, however
    large, is formatted. Cached: a board shows the same few counts over and over, and Babel's formatting costs
    about 50 µs a call."""
    if not math.isfinite(n):
        return format_decimal(n, locale=_babel_locale(locale))
    if abs(n) >= HUGE:
        exact = Decimal(n)  # exact for an int and a float alike
        exponent = exact.adjusted()
        mantissa = exact.scaleb(-exponent).quantize(_TENTH)
        if abs(mantissa) >= 10:  # 9.96 rounds to 10.0: one more power of ten
            exponent, mantissa = exponent + 1, (mantissa / 10).quantize(_TENTH)
        shown = format_decimal(mantissa, format="0.0", locale=_babel_locale(locale))
        return f"{shown} × 10{str(exponent).translate(_SUPERSCRIPT)}"
    pattern = "#,##0" + ("." + "0" * places if places else "")
    return format_decimal(n, format=pattern, locale=_babel_locale(locale))
