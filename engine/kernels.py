"""Which search kernel each game runs in this process: the C extension, or its pure-Python twin (tested to agree)
when the extension is not built or ``TTT_ENGINE_PURE_PYTHON`` is set. 3x3's searches are Python only (they count
every state they evaluate, and are instant)."""

from __future__ import annotations

from typing import Literal

from engine.connect_four import solver as connect_four_solver
from engine.connect_four.cells import ConnectFourCells
from engine.mnk import solver as mnk_solver
from engine.mnk.rules import TicTacToe
from engine.registry import VARIANTS
from engine.ultimate import tree as ultimate_tree
from engine.ultimate.rules import UltimateTicTacToe

__all__ = ["Kernel", "search_kernels"]

Kernel = Literal["C", "Python"]


def search_kernels() -> dict[str, Kernel]:
    """The kernel of every game's search, by variant name, in :data:`engine.registry.VARIANTS`' order."""
    return {name: _kernel(variant.game) for name, variant in VARIANTS.items()}


def _kernel(game: object) -> Kernel:
    if isinstance(game, UltimateTicTacToe):
        return "C" if ultimate_tree.NATIVE else "Python"
    if isinstance(game, TicTacToe):  # 4x4, 5x5 (3x3 is engine.tictactoe: a module of its own)
        return "C" if mnk_solver.NATIVE else "Python"
    if isinstance(game, ConnectFourCells):
        return "C" if connect_four_solver.NATIVE else "Python"
    return "Python"
