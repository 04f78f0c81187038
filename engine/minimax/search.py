"""Minimax and alpha-beta search, with an honest count of the states each one evaluates.

Sources: Russell & Norvig, *AIMA* 4th ed., §5.2 (MINIMAX-SEARCH) and §5.3 (ALPHA-BETA-SEARCH);
the negamax formulation and fail-soft alpha-beta follow Knuth & Moore, "An analysis of alpha-beta
pruning" (1975); the transposition table stores exact values and bounds (Marsland, 1986); keys
reduced by the board's symmetries and the threat rules are the usual enhancements for small board
games (e.g. Allis, *Searching for Solutions in Games and Artificial Intelligence*, 1994, on
threats).

**What "states evaluated" counts.** Every position the search visits below the root: one for each
call of the value function made from the decision function, exactly like the seeds' ``call_count``.
A child that is terminal is still counted (its win test and utility are evaluated inline rather than
through a function call), and so is a child whose value comes from the transposition table. With
the *textbook* configurations this reproduces the lab figures exactly: plain minimax after X takes
the centre evaluates 55,504 states, and from the empty board 549,945 (the 549,946 nodes of the game
tree less the root). The threat rules (see :class:`SearchConfig`) value some positions without
visiting all their children; only the children they do visit are counted.

**Fast kernels, apart from the reference.** The textbook MINIMAX-SEARCH and ALPHA-BETA-SEARCH over
the game protocol are :mod:`engine.minimax.reference`; the tests check these kernels against them. There are
two value functions (:class:`engine.minimax.kernels.Kernels`): one for minimax, and one for alpha-beta
whose transposition table and threat rules are options chosen when it is built, so the table's lookup
and store and the child loop are written once. This module values the root moves with them.

Internally the search is negamax over two 9-bit masks; scores are from the side to move's point of
view. ``plain`` scoring is +1/0/-1; ``depth`` scoring gives a win ``10 - plies`` so the fastest win
and the slowest loss score best (the seeds' 003/004 convention). :class:`SearchResult` reports
``value`` from X's point of view (X is MAX, as in AIMA).

The options and the named configurations (:class:`SearchConfig`, :data:`DEFAULT`, ...) live in
:mod:`engine.minimax.config` and are importable from here too.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from engine.errors import GameOverError
from engine.minimax.config import (
    ALGORITHM_CONFIGS,
    DEFAULT,
    ORDERS,
    PLAIN_MINIMAX,
    TEXTBOOK_ALPHA_BETA,
    TEXTBOOK_MINIMAX,
    WIN_SCORES,
    Ordering,
    RootWindow,
    Scoring,
    SearchConfig,
)
from engine.minimax.kernels import INF, Kernels
from engine.protocol import Algorithm
from engine.tictactoe import bitboard as bb
from engine.tictactoe.rules import Mark, State, player, terminal
from engine.tictactoe.solver import best_move

__all__ = [
    "ALGORITHM_CONFIGS",
    "DEFAULT",
    "PLAIN_MINIMAX",
    "TEXTBOOK_ALPHA_BETA",
    "TEXTBOOK_MINIMAX",
    "Ordering",
    "RootWindow",
    "Scoring",
    "SearchConfig",
    "SearchResult",
    "principal_variation",
    "root_values",
    "search",
    "stabiliser",
    "to_root_relative",
]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The outcome of one search.

    Attributes:
        move: the chosen cell, 0-8.
        value: the root's minimax value from X's point of view, in the scoring's units
            (plain: -1/0/+1; depth: ±(10 - plies to the end), 0 for a draw).
        states: states evaluated below the root (see the module docstring for the convention).
        elapsed: wall-clock seconds spent in the search (not in the principal-variation walk).
        pv: the principal variation, cells 0-8 from the chosen move to the end of the game.
        best_moves: every root move whose value equals ``value``, in search order.
        config: the configuration that produced this result.
    """

    move: int
    value: int
    states: int
    elapsed: float
    pv: tuple[int, ...]
    best_moves: tuple[int, ...]
    config: SearchConfig = field(default=DEFAULT)

    @property
    def elapsed_ms(self) -> float:
        """``elapsed`` in milliseconds."""
        return self.elapsed * 1000.0


def search(
    state: State,
    *,
    algorithm: Algorithm | None = None,
    ordering: Ordering | None = None,
    scoring: Scoring | None = None,
    transposition: bool | None = None,
    root_window: RootWindow | None = None,
    symmetry: bool | None = None,
    threats: bool | None = None,
    config: SearchConfig | None = None,
    rng: random.Random | None = None,
) -> SearchResult:
    """Search ``state`` and choose a move for the player to move.

    Options left as ``None`` come from ``config`` (default :data:`DEFAULT`); see :class:`SearchConfig`.
    With ``rng`` the move is drawn uniformly from the equally good root moves; without it the first
    one in search order is taken, as the seeds do.

    Returns:
        A :class:`SearchResult`; ``states`` is typically a few hundred for the default configuration
        and 549,945 for textbook minimax from the empty board.

    Raises:
        GameOverError: the game in ``state`` is already over.
        ValueError: an option is not one of the documented choices.
    """
    cfg = config or DEFAULT
    if (algorithm, ordering, scoring, transposition, root_window, symmetry, threats) != (None,) * 7:
        cfg = SearchConfig(
            algorithm=algorithm or cfg.algorithm,
            ordering=ordering or cfg.ordering,
            scoring=scoring or cfg.scoring,
            transposition=cfg.transposition if transposition is None else transposition,
            root_window=root_window or cfg.root_window,
            symmetry=cfg.symmetry if symmetry is None else symmetry,
            threats=cfg.threats if threats is None else threats,
        )
    if terminal(state):
        raise GameOverError(f"the position {state!s} is already over: there is no move to search")
    me, opp = (state.x, state.o) if player(state) is Mark.X else (state.o, state.x)
    marks = state.marks

    started = time.perf_counter()
    values, states = root_values(me, opp, marks, cfg)
    elapsed = time.perf_counter() - started

    best = max(v for _, v in values)
    best_moves = tuple(cell for cell, v in values if v == best)
    move = rng.choice(best_moves) if rng is not None else best_moves[0]
    root_value = to_root_relative(best, marks) if cfg.scoring == "depth" else best
    if player(state) is Mark.O:
        root_value = -root_value
    return SearchResult(
        move=move,
        value=root_value,
        states=states,
        elapsed=elapsed,
        pv=principal_variation(state, move),
        best_moves=best_moves,
        config=cfg,
    )


def root_values(me: int, opp: int, marks: int, cfg: SearchConfig) -> tuple[list[tuple[int, int]], int]:
    """Value the root moves of a position; the engine's building block for :func:`search` and analysis.

    Args:
        me, opp: masks of the side to move and of the other side.
        marks: the number of marks on the board.
        cfg: the search configuration.

    Returns:
        ``([(cell, value), ...], states)`` with one pair per legal move in search order. Values are
        from the side to move's point of view in absolute units: depth scoring gives a win
        completed when the board holds n marks ``10 - n`` (see :func:`to_root_relative`). Under a
        ``"fresh"`` window every value is exact; under a ``"shared"`` one a move worse than the
        best may get only an upper bound, which is still below the best.
    """
    order = ORDERS[cfg.ordering]
    kernels = Kernels(
        bb.FREE_BITS[order],
        WIN_SCORES[cfg.scoring],
        transposition=cfg.transposition,
        symmetry=cfg.symmetry,
        threats=cfg.threats,
    )
    child_value = kernels.minimax_child if cfg.algorithm == "minimax" else kernels.alpha_beta_child
    shared = cfg.root_window == "shared" and cfg.algorithm == "alpha-beta"

    n1 = marks + 1
    win_score = WIN_SCORES[cfg.scoring][n1]
    values: list[tuple[int, int]] = []
    valued: dict[int, int] = {}
    symmetries = stabiliser(me, opp) if cfg.symmetry else ()
    best = -INF
    for cell in order:
        bit = 1 << cell
        if (me | opp) & bit:
            continue
        if cell in valued:
            values.append((cell, valued[cell]))
            continue
        kernels.count += 1
        child = me | bit
        if bb.WINS[child]:
            value = win_score
        elif n1 == 9:
            value = 0
        else:
            # The child's beta is minus our alpha; a shared window keeps alpha one point below the best.
            value = -child_value(opp, child, n1, -(best - 1) if shared and best > -INF else INF)
        values.append((cell, value))
        for perm in symmetries:
            valued[perm[cell]] = value
        best = max(best, value)
    return values, kernels.count


def stabiliser(me: int, opp: int) -> tuple[tuple[int, ...], ...]:
    """The symmetries (as cell permutations, identity excluded) that leave the position unchanged."""
    return tuple(
        bb.SYMMETRIES[k] for k in range(1, 8) if bb.SYMMETRY_MASKS[k][me] == me and bb.SYMMETRY_MASKS[k][opp] == opp
    )


def to_root_relative(value: int, marks: int) -> int:
    """Convert an absolute depth-aware score (±(10 - marks at the end)) to ±(10 - plies from the root)."""
    if value > 0:
        return value + marks
    if value < 0:
        return value - marks
    return 0


def principal_variation(state: State, move: int) -> tuple[int, ...]:
    """The line of best play (cells 0-8) that starts with ``move`` and runs to the end of the game.

    Both sides play the fastest win / slowest loss; ties go to the first cell in centre-first order.
    Computed with the memoised exact solver (:func:`engine.tictactoe.solver.best_move`), separate from (and not
    counted in) any search.
    """
    me, opp = (state.x, state.o) if player(state) is Mark.X else (state.o, state.x)
    line = [move]
    me, opp = opp, me | (1 << move)
    while not bb.WINS[opp] and (me | opp) != bb.FULL:
        best = best_move(me, opp)
        line.append(best)
        me, opp = opp, me | (1 << best)
    return tuple(line)
