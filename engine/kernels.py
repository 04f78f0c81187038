"""Which search kernel each registered game runs in this process, as the game reports it
(:meth:`engine.Variant.kernel`): a C extension, or its pure-Python twin (tested to agree) when the extension is not
built or ``TTT_ENGINE_PURE_PYTHON`` is set."""

from __future__ import annotations

from engine.protocol import Kernel
from engine.registry import VARIANTS

__all__ = ["Kernel", "search_kernels"]


def search_kernels() -> dict[str, Kernel]:
    """The kernel of every game's search, by variant name, in :data:`engine.registry.VARIANTS`' order."""
    return {name: game.kernel() for name, game in VARIANTS.items()}
