"""The registry of the games the engine plays, by name: the engine's face to its callers.

The built-in games register themselves when :mod:`engine` is imported (:mod:`engine.games`), and a game written
elsewhere is listed by calling :func:`register` with an instance of its :class:`~engine.variants.Variant` subclass
(docs/adding-a-game.md). Code above the engine looks a variant up by name once and never compares the name."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engine.errors import UndrawableGameError, UnknownVariantError
from engine.protocol import LAYOUT_KINDS, MAX_SIDE

if TYPE_CHECKING:
    from engine.variants import Variant

__all__ = ["VARIANTS", "check_layout", "register", "variant"]

_REGISTRY: dict[str, Variant] = {}
VARIANTS: Mapping[str, Variant] = _REGISTRY
"""Every registered variant by name, in the order registered (a live, read-only view of the registry)."""


def register(game: Variant) -> Variant:
    """List ``game`` among the variants (``/ttt start variant:``, records, ratings); returns it.

    Raises:
        UndrawableGameError: no front end can draw its board (:func:`check_layout`).
        ValueError: another game already has its name or its ``custom_id`` code, or the name or code is malformed.
    """
    check_layout(game)
    for other in _REGISTRY.values():
        if other is not game and (other.name == game.name or other.code == game.code):
            raise ValueError(f"{game!r}: {other!r} already has the name {other.name!r} or the code {other.code!r}")
    if not (0 < len(game.name) <= 16 and game.name.isprintable() and ":" not in game.name):
        raise ValueError(f"{game!r}: a name is 1-16 printable characters without ':'")
    if not re.fullmatch(r"([0-9a-z]{0,1}[0-9a-oq-z])?", game.code):
        raise ValueError(f"{game!r}: a code is at most 2 lowercase letters or digits, not ending in 'p'")
    _REGISTRY[game.name] = game
    return game


def check_layout(game: Variant) -> None:
    """Check that ``game``'s declared layout (:meth:`engine.Variant.layout`) is one the bot draws: a grid of cells or
    of columns up to :data:`engine.protocol.MAX_SIDE` cells a side (buttons up to 5 x 5, a picture beyond), or
    ultimate's board of small boards (9 x 9 in small boards of 3 x 3: its picture and pad), matching the game's
    width and height.

    Raises:
        UndrawableGameError: the layout is none of these; the message says which are drawn.
    """
    layout = game.layout()
    kind, width, height = layout.kind, layout.width, layout.height
    if kind not in LAYOUT_KINDS:
        raise UndrawableGameError(f"{game!r}: no presenter draws a {kind!r} layout: declare one of {LAYOUT_KINDS}")
    if (width, height, layout.block) != (game.width, game.height, game.block):
        raise UndrawableGameError(
            f"{game!r}: its layout is {width} x {height} (blocks of {layout.block}), its board {game.width} x "
            f"{game.height} (blocks of {game.block})"
        )
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise UndrawableGameError(
            f"{game!r}: a board is drawn up to {MAX_SIDE} x {MAX_SIDE} cells, not {width} x {height}"
        )
    if (kind == "blocks") != bool(layout.block) or (kind == "blocks" and (width, height, layout.block) != (9, 9, 3)):
        raise UndrawableGameError(
            f"{game!r}: small boards are drawn as ultimate's (9 x 9 in blocks of 3), not {layout}"
        )
    if layout.pieces not in ("marks", "discs"):
        raise UndrawableGameError(f"{game!r}: pieces are 'marks' or 'discs', not {layout.pieces!r}")


def variant(name: object) -> Variant:
    """The variant called ``name``.

    Raises:
        UnknownVariantError: no variant has that name; the message lists the known ones.
    """
    if (found := _REGISTRY.get(name) if isinstance(name, str) else None) is None:
        raise UnknownVariantError(f"unknown variant {name!r}: choose one of {', '.join(_REGISTRY)}")
    return found
