"""How :mod:`engine.minimax.search` searches: :class:`SearchConfig` and the named configurations.

The configurations reproduce the seeds' figures (:data:`TEXTBOOK_MINIMAX`, :data:`TEXTBOOK_ALPHA_BETA`;
AIMA §5.2 and §5.3) or play perfectly (:data:`DEFAULT`, :data:`PLAIN_MINIMAX`). Every name here is also
importable from :mod:`engine.minimax.search`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.protocol import Algorithm
from engine.tictactoe import bitboard as bb

__all__ = [
    "ALGORITHM_CONFIGS",
    "DEFAULT",
    "ORDERS",
    "PLAIN_MINIMAX",
    "TEXTBOOK_ALPHA_BETA",
    "TEXTBOOK_MINIMAX",
    "WIN_SCORES",
    "Ordering",
    "RootWindow",
    "Scoring",
    "SearchConfig",
]

Ordering = Literal["natural", "centre"]
Scoring = Literal["plain", "depth"]
RootWindow = Literal["fresh", "shared"]

ORDERS: dict[str, tuple[int, ...]] = {"natural": bb.NATURAL, "centre": bb.CENTRE_CORNERS_EDGES}
"""The cells (0-8) in the order each ``ordering`` tries them."""

WIN_SCORES: dict[str, tuple[int, ...]] = {"plain": (1,) * 10, "depth": tuple(10 - n for n in range(10))}
"""Per ``scoring``: the score of a win completed when the board holds n marks (index n)."""


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} {value!r} is not one of {', '.join(choices)}")


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """How to search. Every option is a textbook concept that can be compared on its own.

    Attributes:
        algorithm: ``"minimax"`` (no pruning) or ``"alpha-beta"`` (AIMA §5.3).
        ordering: ``"natural"`` tries cells 0..8; ``"centre"`` tries the centre, then corners, then edges.
        scoring: ``"plain"`` (win/loss ±1) or ``"depth"`` (±(10 - plies): fastest win, slowest loss).
        transposition: alpha-beta only: keep a transposition table of exact values and bounds for
            the duration of one search, and try immediately winning moves first. Minimax never
            uses one (it is plain minimax by definition).
        symmetry: search one root move of each class of moves that a symmetry of the board maps
            onto each other, and give the rest of the class its value (a symmetric move has the
            same value). Skipped moves are not counted, because they are not searched. With a
            transposition table, positions are also stored under one key per symmetry class, so a
            rotated or mirrored position is found in the table.
        root_window: ``"fresh"`` searches each root move with its own (-inf, +inf) window, as the
            seeds do; ``"shared"`` narrows the window with the best value so far, kept one point
            wide so that every equally good root move is still recognised (needed for random
            tie-breaking).
        threats: alpha-beta only: value positions below the root by three exact rules before
            searching them. The side to move that can complete a line wins now (one child, the
            winning one, is counted). Otherwise, if the opponent threatens two different cells it
            loses in two plies (no child is visited), and if the opponent threatens one cell the
            block is the only child searched: every other move loses at once, and the block never
            loses sooner. Minimax never uses them.
    """

    algorithm: Algorithm = "alpha-beta"
    ordering: Ordering = "centre"
    scoring: Scoring = "depth"
    transposition: bool = True
    root_window: RootWindow = "shared"
    symmetry: bool = True
    threats: bool = True

    def __post_init__(self) -> None:
        _check_choice("algorithm", self.algorithm, ("minimax", "alpha-beta"))
        _check_choice("ordering", self.ordering, tuple(ORDERS))
        _check_choice("scoring", self.scoring, tuple(WIN_SCORES))
        _check_choice("root_window", self.root_window, ("fresh", "shared"))


DEFAULT = SearchConfig()
"""The fastest perfect configuration, used for play: alpha-beta, centre-first ordering, depth-aware
scores, the threat rules, and a transposition table keyed by symmetry class, with a shared root
window."""

TEXTBOOK_MINIMAX = SearchConfig("minimax", "natural", "plain", False, "fresh", symmetry=False, threats=False)
"""Plain minimax exactly as in the seeds (000/001): reproduces 55,504 and 549,945 states."""

TEXTBOOK_ALPHA_BETA = SearchConfig("alpha-beta", "natural", "plain", False, "fresh", symmetry=False, threats=False)
"""Alpha-beta exactly as in seed 000: reproduces 7,641, 552 and 27 states."""

PLAIN_MINIMAX = SearchConfig("minimax", "natural", "depth", False, "fresh", symmetry=False, threats=False)
"""Plain minimax for play and for comparison with alpha-beta: :data:`TEXTBOOK_MINIMAX` with depth-aware
scores, so it plays perfectly (fastest win, slowest loss). It evaluates the same states (549,945 from the
empty board)."""

ALGORITHM_CONFIGS: dict[Algorithm, SearchConfig] = {"alpha-beta": DEFAULT, "minimax": PLAIN_MINIMAX}
"""The configuration for play behind each algorithm name: both play perfectly (depth-aware scores);
minimax evaluates every state below the root, alpha-beta prunes."""
