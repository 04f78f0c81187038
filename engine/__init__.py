"""A pure, synchronous tic-tac-toe engine: AIMA-style rules, minimax and alpha-beta search.

Standard library only. See :mod:`engine.game` for the rules, :mod:`engine.search` for the searches
and their state counts, :mod:`engine.analysis` for per-move analysis, :mod:`engine.review` for
move-by-move reviews and :mod:`engine.players` for difficulty levels. ``python -m engine`` plays and
analyses from the command line.
"""

from engine.analysis import Analysis, MoveAnalysis, Outcome, analyse
from engine.errors import CellOccupiedError, CellOutOfRangeError, GameOverError, IllegalMoveError, InvalidBoardError
from engine.game import (
    Mark,
    State,
    actions,
    format_board,
    initial_state,
    parse_board,
    player,
    result,
    terminal,
    utility,
    winner,
    winning_cells,
    winning_line,
)
from engine.players import Decision, Difficulty, choose_move
from engine.review import Label, PlyReview, Value, review
from engine.search import (
    DEFAULT,
    TEXTBOOK_ALPHABETA,
    TEXTBOOK_MINIMAX,
    SearchConfig,
    SearchResult,
    principal_variation,
    search,
)

__all__ = [
    "DEFAULT",
    "TEXTBOOK_ALPHABETA",
    "TEXTBOOK_MINIMAX",
    "Analysis",
    "CellOccupiedError",
    "CellOutOfRangeError",
    "Decision",
    "Difficulty",
    "GameOverError",
    "IllegalMoveError",
    "InvalidBoardError",
    "Label",
    "Mark",
    "MoveAnalysis",
    "Outcome",
    "PlyReview",
    "SearchConfig",
    "SearchResult",
    "State",
    "Value",
    "actions",
    "analyse",
    "choose_move",
    "format_board",
    "initial_state",
    "parse_board",
    "player",
    "principal_variation",
    "result",
    "review",
    "search",
    "terminal",
    "utility",
    "winner",
    "winning_cells",
    "winning_line",
]
