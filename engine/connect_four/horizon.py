"""Connect Four's weaker levels (1-7): a win in one, a seen threat blocked, else depth-limited alpha-beta.

:func:`horizon_move` plays a win in one whenever there is one; it blocks the opponent's single immediate threat
with a level's probability; otherwise it runs negamax alpha-beta to a fixed depth with a heuristic at the cut-off
(AIMA §5.4; :mod:`engine.connect_four.heuristic`: windows of four and threat parity), and a Gaussian noise on the
root moves' scores lets a close second choice be played (a move seen to win or lose gets none). Moves are columns
(0-6) on the bitboards of :mod:`engine.connect_four.rules`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from engine.connect_four.heuristic import evaluate
from engine.connect_four.rules import BOARD, BOTTOM, CONNECT_FOUR, STRIDE, ConnectFourState, column_mask, has_four
from engine.connect_four.solver import CENTRE_FIRST, threat_cells
from engine.errors import GameOverError

__all__ = ["NOISE_MARGIN", "WIN", "horizon_move"]

WIN = 100_000
"""A win ``p`` plies below the root scores ``WIN - p`` (far above any heuristic score)."""
_INF = 1_000_000
_EXACT, _LOWER, _UPPER = 0, 1, 2
NOISE_MARGIN = 8
"""A root move whose score is this many standard deviations of the noise below the best one's is not searched
exactly (alpha-beta cuts it off): with the noise on both, it would be picked with a probability below 1e-8."""


def _sides(state: ConnectFourState) -> tuple[int, int]:
    """(the side to move's discs, the opponent's)."""
    return (state.x, state.o) if state.x.bit_count() == state.o.bit_count() else (state.o, state.x)


def _drops(occupied: int) -> list[int]:
    """The bit each non-full column's next disc takes, centre first."""
    found = []
    for column in CENTRE_FIRST:
        disc = (occupied + (1 << (column * STRIDE))) & column_mask(column)
        if disc:
            found.append(disc)
    return found


def _wins_at_once(me: int, occupied: int) -> list[int]:
    """The columns' next discs that complete four for ``me`` at once."""
    return [disc for disc in _drops(occupied) if has_four(me | disc)]


def horizon_move(
    state: ConnectFourState, depth: int, noise: float, sees: float, rng: random.Random
) -> tuple[int, int, int]:
    """A weaker level's move: ``(column, states, depth searched)`` (see the module's docstring). ``depth`` ≥ 1 plies,
    ``noise`` the standard deviation (evaluation points) added to each root score, ``sees`` the probability (0-1)
    of noticing the opponent's single immediate threat.

    Raises:
        GameOverError: the game is over.
        ValueError: ``depth`` is below 1.
    """
    if depth < 1:
        raise ValueError(f"depth {depth!r} must be at least 1")
    if CONNECT_FOUR.terminal(state):
        raise GameOverError("the game is over: there is no move to choose")
    me, opp = _sides(state)
    occupied = me | opp
    drops = _drops(occupied)
    wins = _wins_at_once(me, occupied)
    if wins:
        return _column(wins[0]), len(drops), 1
    threats = _wins_at_once(opp, occupied)
    if len(threats) == 1 and (sees >= 1 or rng.random() < sees):
        return _column(threats[0]), len(drops), 1
    counter = [0]
    value = _searcher(counter)
    scored = []
    margin = math.ceil(NOISE_MARGIN * noise) if noise > 0 else 1
    best = -_INF
    for disc in drops:
        counter[0] += 1
        draw = rng.gauss(0.0, noise) if noise > 0 else 0.0
        score = -value(opp, me | disc, depth - 1, -_INF, margin - best, 1)
        if score <= best - margin:  # an upper bound only: too far below the best to be picked
            continue
        best = max(best, score)
        scored.append((score + (draw if abs(score) < WIN // 2 else 0.0), disc))
    top = max(score for score, _ in scored)
    ties = [disc for score, disc in scored if score == top]
    return _column(rng.choice(ties) if noise <= 0 else ties[0]), counter[0], depth


def _column(disc: int) -> int:
    return (disc.bit_length() - 1) // STRIDE


def _searcher(counter: list[int]) -> Callable[[int, int, int, int, int, int], int]:
    """Negamax alpha-beta to a depth, the heuristic at the cut-off; a win ``p`` plies below the root scores
    ``WIN - p``.

    Where the depth left reaches them, the immediate tactics are read off the bitboards instead of searched, as the
    exact solvers do (Pons 2019, "anticipate direct losing moves"), with the same value as the full-width search:
    with a ply left, a win at once ends the node; with two, only the moves that do not lose at once are searched
    (the block of the opponent's one playable threat, and no disc under one of its threats), and with none of those
    left the node is lost in two plies. A transposition table (a position's key: the mover's discs plus every disc,
    as in Pons' solver) keeps each searched node's value or bound for the rest of the move's search: a position
    recurs at the same depth, as the discs on the board say how many plies were played since the root."""

    history: dict[int, int] = {}
    table: dict[int, tuple[int, int]] = {}

    def value(me: int, opp: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        if has_four(opp):
            return -(WIN - ply)
        occupied = me | opp
        drops = _drops(occupied)
        if not drops:
            return 0
        if depth == 0:
            return evaluate(me, opp)
        playable = (occupied + BOTTOM) & BOARD
        if threat_cells(me, occupied) & playable:
            return WIN - ply - 1
        if depth >= 2:
            theirs = threat_cells(opp, occupied)
            forced = theirs & playable
            if forced & (forced - 1):  # two threats: one block is not enough
                return -(WIN - ply - 2)
            safe = (forced or playable) & ~(theirs >> 1)
            drops = [disc for disc in drops if disc & safe]
            if not drops:
                return -(WIN - ply - 2)
        if depth < 2:
            return _best(me, opp, drops, depth, alpha, beta, ply)
        key = me + occupied
        if (stored := table.get(key)) is not None:
            bound, kind = stored
            if kind == _EXACT or (kind == _LOWER and bound >= beta) or (kind == _UPPER and bound <= alpha):
                return bound
        if depth >= 3 and len(drops) > 1:
            drops.sort(key=lambda disc: evaluate(opp, me | disc))
        elif len(drops) > 1:
            drops.sort(key=lambda disc: -history.get(disc, 0))
        best = _best(me, opp, drops, depth, alpha, beta, ply)
        table[key] = (best, _UPPER if best <= alpha else _LOWER if best >= beta else _EXACT)
        return best

    def _best(me: int, opp: int, drops: list[int], depth: int, alpha: int, beta: int, ply: int) -> int:
        best = -_INF
        for disc in drops:
            counter[0] += 1
            score = -value(opp, me | disc, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best = score
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[disc] = history.get(disc, 0) + depth * depth
                        break
        return best

    return value
