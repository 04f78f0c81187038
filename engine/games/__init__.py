"""The built-in games, each a :class:`engine.variants.Variant` subclass, registered when :mod:`engine` is imported:
3x3 (:mod:`engine.games.tictactoe`), 4x4 and 5x5 four in a row (:mod:`engine.games.mnk`), ultimate
(:mod:`engine.games.ultimate`) and Connect Four (:mod:`engine.games.connect_four`). A game written elsewhere
registers itself the same way (docs/adding-a-game.md)."""

from __future__ import annotations

from engine.games.connect_four import CONNECT_FOUR_VARIANT, ConnectFourVariant
from engine.games.mnk import FIVE_BY_FIVE, FOUR_BY_FOUR, MnkVariant
from engine.games.tictactoe import THREE_BY_THREE, ThreeByThree
from engine.games.ultimate import ULTIMATE, Ultimate
from engine.registry import register

__all__ = ["BUILT_IN", "CONNECT_FOUR_VARIANT", "FIVE_BY_FIVE", "FOUR_BY_FOUR", "THREE_BY_THREE", "ULTIMATE",
           "ConnectFourVariant", "MnkVariant", "ThreeByThree", "Ultimate"]  # fmt: skip

BUILT_IN = (THREE_BY_THREE, FOUR_BY_FOUR, FIVE_BY_FIVE, ULTIMATE, CONNECT_FOUR_VARIANT)
"""The built-in games, in the order players see them."""

for _game in BUILT_IN:
    register(_game)
