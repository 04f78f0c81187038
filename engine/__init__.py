"""A pure, synchronous engine for tic-tac-toe games: its face is the registry of games and their protocol.

- :mod:`engine.variants`: every game is a :class:`Variant` object that answers for itself (its cells, lines,
  moves, layout (:class:`Layout`), levels, hints, reviews); :func:`variant` finds one by name, :data:`VARIANTS`
  lists them and :func:`register` adds a game written elsewhere (docs/adding-a-game.md). The built-in games
  (:mod:`engine.games`: 3x3, 4x4, 5x5, ultimate) are registered on import.
- :mod:`engine.protocol`: AIMA's game protocol (:class:`Game`) and the words every game shares: marks, values,
  levels, the one move record (:class:`EngineMove`), how pieces are drawn (:data:`Pieces`).
- What a game answers with: hints (:class:`Hint`), reviews (:class:`PlyReview` and the points a move loses to be
  a blunder, mistake or inaccuracy), the errors of bad input, and two helpers: :func:`folded` (typed text as the
  engine reads it) and :func:`minimax_states_estimate` (Knuth's estimate of plain minimax's states).

The bot imports the engine through this face and two sub-faces only (``tests/bot/test_layout.py``):
:mod:`engine.puzzles` (puzzle sets, mining and building; not imported here, so no puzzle set is read at import) and
:mod:`engine.tree` (the search as a tree, stepped through and told in words; its Graphviz/Pillow drawing stays lazy).

Standard library only. The searches are in :mod:`engine.minimax` (3x3, and the textbook searches on any game),
:mod:`engine.mnk` and :mod:`engine.ultimate`; ``python -m engine`` analyses positions and reviews games.
"""

from engine import games
from engine.coordinates import folded
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
from engine.estimate import minimax_states_estimate
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
    Pieces,
    PuzzleKit,
    PuzzleLine,
    ValueKind,
)
from engine.registry import VARIANTS, register, variant
from engine.review import BLUNDER_POINTS, INACCURACY_POINTS, MISTAKE_POINTS, Label, PlyReview
from engine.variants import DEFAULT_VARIANT, MoveValues, Variant

__all__ = [
    "BLUNDER_POINTS",
    "DEFAULT_VARIANT",
    "INACCURACY_POINTS",
    "LEVELS",
    "MAX_SIDE",
    "MISTAKE_POINTS",
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
    "Pieces",
    "PlyReview",
    "PuzzleKit",
    "PuzzleLine",
    "UndrawableGameError",
    "UnknownVariantError",
    "ValueKind",
    "Variant",
    "folded",
    "games",
    "minimax_states_estimate",
    "register",
    "variant",
]
