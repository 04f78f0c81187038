"""A pure, synchronous engine for tic-tac-toe games: its face is the registry of games and their protocol.

- :mod:`engine.variants`: every game is a :class:`Variant` object that answers for itself (its cells, lines,
  moves, layout (:class:`Layout`), levels, hints, reviews); :func:`variant` finds one by name, :data:`VARIANTS`
  lists them and :func:`register` adds a game written elsewhere (docs/adding-a-game.md). The built-in games
  (:mod:`engine.games`: 3x3, 4x4, 5x5, ultimate) are registered on import.
- :mod:`engine.protocol`: AIMA's game protocol (:class:`Game`) and the words every game shares: marks, values,
  levels, the one move record (:class:`EngineMove`).

Standard library only. The searches are in :mod:`engine.minimax` (3x3, and the textbook searches on any game),
:mod:`engine.mnk` and :mod:`engine.ultimate`; ``python -m engine`` analyses positions and reviews games.
"""

from engine import games
from engine.errors import (
    CellOccupiedError,
    CellOutOfRangeError,
    GameOverError,
    IllegalMoveError,
    IllegalSequenceError,
    InvalidBoardError,
    UndrawableGameError,
    UnknownVariantError,
)
from engine.hints import Hint, HintMove
from engine.protocol import (
    LEVELS,
    MAX_SIDE,
    TOP_LEVEL,
    Algorithm,
    EngineMove,
    Game,
    GameValue,
    Layout,
    Mark,
    PuzzleKit,
    PuzzleLine,
    ValueKind,
)
from engine.registry import VARIANTS, register, variant
from engine.review import Label, PlyReview
from engine.variants import DEFAULT_VARIANT, MoveValues, Variant

__all__ = [
    "DEFAULT_VARIANT",
    "LEVELS",
    "MAX_SIDE",
    "TOP_LEVEL",
    "VARIANTS",
    "Algorithm",
    "CellOccupiedError",
    "CellOutOfRangeError",
    "EngineMove",
    "Game",
    "GameOverError",
    "GameValue",
    "Hint",
    "HintMove",
    "IllegalMoveError",
    "IllegalSequenceError",
    "InvalidBoardError",
    "Label",
    "Layout",
    "Mark",
    "MoveValues",
    "PlyReview",
    "PuzzleKit",
    "PuzzleLine",
    "UndrawableGameError",
    "UnknownVariantError",
    "ValueKind",
    "Variant",
    "games",
    "register",
    "variant",
]
