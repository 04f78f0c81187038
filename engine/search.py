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
the game protocol are :mod:`engine.reference`; the tests check these kernels against them. Here there are
two value functions (see ``_Kernels``): one for minimax, and one for alpha-beta whose transposition table
and threat rules are options chosen when it is built, so the table's lookup and store and the child loop
are written once.

Internally the search is negamax over two 9-bit masks; scores are from the side to move's point of
view. ``plain`` scoring is +1/0/-1; ``depth`` scoring gives a win ``10 - plies`` so the fastest win
and the slowest loss score best (the seeds' 003/004 convention). :class:`SearchResult` reports
``value`` from X's point of view (X is MAX, as in AIMA).

The options and the named configurations (:class:`SearchConfig`, :data:`DEFAULT`, ...) live in
:mod:`engine.search_config` and are importable from here too.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

from engine import bitboard as bb
from engine.errors import GameOverError
from engine.game import Mark, State, player, terminal
from engine.search_config import (
    ALGORITHM_CONFIGS,
    DEFAULT,
    ORDERS,
    PLAIN_MINIMAX,
    TEXTBOOK_ALPHA_BETA,
    TEXTBOOK_MINIMAX,
    WIN_SCORES,
    Algorithm,
    Ordering,
    RootWindow,
    Scoring,
    SearchConfig,
)
from engine.solver import best_move

__all__ = [
    "ALGORITHM_CONFIGS",
    "DEFAULT",
    "PLAIN_MINIMAX",
    "TEXTBOOK_ALPHA_BETA",
    "TEXTBOOK_MINIMAX",
    "Algorithm",
    "Ordering",
    "RootWindow",
    "Scoring",
    "SearchConfig",
    "SearchResult",
    "principal_variation",
    "root_values",
    "search",
    "to_root_relative",
]

_INF = 1_000
# Read as module globals by the alpha-beta kernel: every variable its closure captures costs each call.
_FULL, _WINS = bb.FULL, bb.WINS
_EXACT, _LOWER, _UPPER = 0, 1, 2


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
    kernels = _Kernels(
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
    symmetries = _stabiliser(me, opp) if cfg.symmetry else ()
    best = -_INF
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
            value = -child_value(opp, child, n1, -(best - 1) if shared and best > -_INF else _INF)
        values.append((cell, value))
        for perm in symmetries:
            valued[perm[cell]] = value
        best = max(best, value)
    return values, kernels.count


def _stabiliser(me: int, opp: int) -> tuple[tuple[int, ...], ...]:
    """The symmetries (as cell permutations, identity excluded) that leave the position unchanged."""
    return tuple(
        bb.SYMMETRIES[k] for k in range(1, 8) if bb.SYMMETRY_MASKS[k][me] == me and bb.SYMMETRY_MASKS[k][opp] == opp
    )


# Canonical transposition keys (see bb.canonical_key), filled in as positions are met. This memo of a
# pure function of the position is shared by all searches; it changes no search's visits or counts.
_CANONICAL_KEYS: dict[int, int] = {}


def _canonical_key(me: int, opp: int) -> int:
    """Compute and remember a position's canonical key (a key is 0 only for the empty board)."""
    key = _CANONICAL_KEYS[me << 9 | opp] = bb.canonical_key(me, opp)
    return key


class _Kernels:
    """The negamax value functions of one search, sharing its counter and its transposition table.

    Two kernels: :meth:`minimax_child` and :meth:`alpha_beta_child`, whose table and threat rules are
    options chosen when the kernels are built. Each takes ``(me, opp, n, beta)``: the masks of the side
    to move and of the side that just moved, the number of marks on the board, and the upper end of the
    window (the lower end is -inf). ``opp`` has not won and the board is not full (the parent tests that
    inline, and counts the child either way).
    """

    def __init__(
        self,
        free_bits: list[tuple[int, ...]],
        win_scores: tuple[int, ...],
        *,
        transposition: bool,
        symmetry: bool,
        threats: bool,
    ) -> None:
        """Share ``free_bits[occupied]`` (the move order) and ``win_scores[marks]`` across the kernels.

        ``transposition``, ``symmetry`` and ``threats`` are :class:`SearchConfig`'s options; only
        :meth:`alpha_beta_child` reads them.
        """
        self.count = 0
        self.free_bits = free_bits
        self.win_scores = win_scores
        self.table: dict[int, tuple[int, int]] | None = {} if transposition else None
        self.canonical = symmetry
        self.threats = threats

    def minimax_child(self, me: int, opp: int, n: int, beta: int) -> int:
        """MINIMAX-VALUE (AIMA §5.2) in negamax form: every child is visited; ``beta`` is ignored."""
        wins, free_bits, win_scores = bb.WINS, self.free_bits, self.win_scores

        def value(me: int, opp: int, n: int) -> int:
            moves = free_bits[me | opp]
            self.count += len(moves)
            n1 = n + 1
            win = win_scores[n1]
            if n1 == 9:
                return win if wins[me | moves[0]] else 0
            best = -_INF
            for bit in moves:
                child = me | bit
                v = win if wins[child] else -value(opp, child, n1)
                if v > best:
                    best = v
            return best

        return value(me, opp, n)

    def alpha_beta_child(self, me: int, opp: int, n: int, beta: int) -> int:
        """ALPHA-BETA-SEARCH's MAX-VALUE/MIN-VALUE (AIMA §5.3) in fail-soft negamax form (Knuth & Moore 1975).

        With no option on, this is the textbook search: children in order, a terminal child counted and
        valued inline. With the table or the threat rules on, a position whose side to move can complete
        a line is valued as a win at once (the winning child is the one counted), so none of the children
        searched is terminal. The threat rules add the double-threat and forced-block rules of
        :class:`SearchConfig`; a chain of forced blocks is followed in a loop rather than by recursion, and
        ``sign`` is +1 when the side to move is the caller's side and -1 when it is the other side. The
        table is probed once those rules have not settled the position, and stores its exact value or
        bound after the children (Marsland 1986).
        """
        threat_cells, free_bits, win_scores = bb.THREATS, self.free_bits, self.win_scores
        table = self.table
        lookup = table.get if table is not None else None
        # 0: the textbook search; 1: an immediate win is taken first; 2: the threat rules too.
        rules = 2 if self.threats else 1 if table is not None else 0
        canonical = self.canonical
        keys = _CANONICAL_KEYS
        count = 0

        def value(me: int, opp: int, n: int, alpha: int, beta: int) -> int:
            nonlocal count
            sign = 1
            n += 1  # the marks on the board once the side to move has moved
            if rules:
                while True:
                    free = _FULL ^ (me | opp)
                    if threat_cells[me] & free:  # a line to complete: a win now (its child is counted)
                        count += 1
                        return sign * win_scores[n]
                    if n == 9:  # the last cell completes no line: a draw
                        count += 1
                        return 0
                    if rules == 1:
                        break
                    threats = threat_cells[opp] & free
                    if not threats:
                        break
                    if threats & (threats - 1):  # two threats cannot both be blocked: lost in two plies
                        return -sign * win_scores[n + 1]
                    count += 1  # one threat: the block is the only child searched
                    me, opp = opp, me | threats
                    alpha, beta = -beta, -alpha
                    sign = -sign
                    n += 1
            elif n == 9:  # the textbook search's last cell: its only child, counted and valued inline
                count += 1
                return win_scores[9] if _WINS[_FULL ^ opp] else 0

            key = 0
            if lookup is not None:
                key = me << 9 | opp
                if canonical:
                    key = keys.get(key) or _canonical_key(me, opp)
                entry = lookup(key)
                if entry is not None:
                    flag, stored = entry
                    if flag == _EXACT:
                        return sign * stored
                    if flag == _LOWER:
                        if stored >= beta:
                            return sign * stored
                        if stored > alpha:
                            alpha = stored
                    else:
                        if stored <= alpha:
                            return sign * stored
                        if stored < beta:
                            beta = stored
            alpha_in = alpha
            best = -_INF
            win = win_scores[n]
            for bit in free_bits[me | opp]:
                count += 1
                child = me | bit
                v = win if _WINS[child] else -value(opp, child, n, -beta, -alpha)
                if v > best:
                    best = v
                    if v > alpha:
                        alpha = v
                        if v >= beta:
                            break
            if table is not None:
                table[key] = (_UPPER if best <= alpha_in else _LOWER if best >= beta else _EXACT, best)
            return sign * best

        result = value(me, opp, n, -_INF, beta)
        self.count += count
        return result


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
    Computed with the memoised exact solver (:func:`engine.solver.best_move`), separate from (and not
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
