"""The registry of the games the engine plays, by name: the engine's face to its callers.

The built-in games register themselves when :mod:`engine` is imported (:mod:`engine.games`), and a game written
elsewhere is listed by calling :func:`register` with an instance of its :class:`~engine.variants.Variant` subclass
(docs/adding-a-game.md). Code above the engine looks a variant up by name once and never compares the name."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.errors import UnknownVariantError

if TYPE_CHECKING:
    from engine.variants import Variant

__all__ = ["VARIANTS", "register", "variant"]

_REGISTRY: dict[str, Variant] = {}
VARIANTS: Mapping[str, Variant] = _REGISTRY
"""Every registered variant by name, in the order registered (a live, read-only view of the registry)."""


def register(game: Variant) -> Variant:
    """List ``game`` among the variants (``/ttt start variant:``, records, ratings); returns it.

    Raises:
        ValueError: another game already has its name or its ``custom_id`` code, or the name or code is malformed.
    """
    for other in _REGISTRY.values():
        if other is not game and (other.name == game.name or other.code == game.code):
            raise ValueError(f"{game!r}: {other!r} already has the name {other.name!r} or the code {other.code!r}")
    if not (0 < len(game.name) <= 16 and game.name.isprintable() and ":" not in game.name):
        raise ValueError(f"{game!r}: a name is 1-16 printable characters without ':'")
    if not re.fullmatch(r"([0-9a-z]{0,1}[0-9a-oq-z])?", game.code):
        raise ValueError(f"{game!r}: a code is at most 2 lowercase letters or digits, not ending in 'p'")
    _REGISTRY[game.name] = game
    return game


def variant(name: object) -> Variant:
    """The variant called ``name``.

    Raises:
        UnknownVariantError: no variant has that name; the message lists the known ones.
    """
    if (found := _REGISTRY.get(name) if isinstance(name, str) else None) is None:
        raise UnknownVariantError(f"unknown variant {name!r}: choose one of {', '.join(_REGISTRY)}")
    return found
