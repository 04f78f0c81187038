"""A pure, synchronous tic-tac-toe engine: AIMA-style rules, minimax and alpha-beta search.

Standard library only. See :mod:`engine.game` for the rules, :mod:`engine.search` for the searches
and their state counts, :mod:`engine.analysis` for per-move analysis and :mod:`engine.players` for
difficulty levels, :mod:`engine.review` for labelled game reviews and :mod:`engine.solver` for exact
values. :class:`Variant` (:data:`VARIANTS`) carries every difference between the games the engine
plays. ``python -m engine`` analyses positions and reviews games from the command line.
"""

from engine.analysis import Analysis, MoveAnalysis, analyse
from engine.errors import (
    CellOccupiedError,
    CellOutOfRangeError,
    GameOverError,
    IllegalMoveError,
    IllegalSequenceError,
    InvalidBoardError,
)
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
from engine.hints import Hint, HintMove
from engine.players import Difficulty, EngineMove, choose_move
from engine.review import Label, PlyReview, SideSummary, review, summary
from engine.search import (
    DEFAULT,
    PLAIN_MINIMAX,
    TEXTBOOK_ALPHA_BETA,
    TEXTBOOK_MINIMAX,
    SearchConfig,
    SearchResult,
    principal_variation,
    search,
)
from engine.solver import GameValue, ValueKind
from engine.ultimate import BoardStatus, UltimateState, UltimateTicTacToe, WrongBoardError
from engine.variants import VARIANTS, Variant

__all__ = [
    "DEFAULT",
    "PLAIN_MINIMAX",
    "TEXTBOOK_ALPHA_BETA",
    "TEXTBOOK_MINIMAX",
    "VARIANTS",
    "Analysis",
    "BoardStatus",
    "CellOccupiedError",
    "CellOutOfRangeError",
    "Difficulty",
    "EngineMove",
    "GameOverError",
    "GameValue",
    "Hint",
    "HintMove",
    "IllegalMoveError",
    "IllegalSequenceError",
    "InvalidBoardError",
    "Label",
    "Mark",
    "MoveAnalysis",
    "PlyReview",
    "SearchConfig",
    "SearchResult",
    "SideSummary",
    "State",
    "UltimateState",
    "UltimateTicTacToe",
    "ValueKind",
    "Variant",
    "WrongBoardError",
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
    "summary",
    "terminal",
    "utility",
    "winner",
    "winning_cells",
    "winning_line",
]
