"""A board as monospace text in a code block, as its game lays it out (:meth:`engine.Variant.text_grid`: 3x3 a
keypad of its cell numbers, the others column letters and row numbers). Pure text: no ``discord`` import."""

from __future__ import annotations

from typing import Any

from engine import DEFAULT_VARIANT
from engine import variant as variant_named

__all__ = ["DEFAULT_VARIANT", "board_grid"]


def board_grid(state: Any, variant: str = DEFAULT_VARIANT) -> str:
    """The board of engine ``state`` of game ``variant`` as monospace text in a code block (at most about 300
    characters: ultimate)."""
    return "```\n" + variant_named(variant).text_grid(state) + "\n```"
