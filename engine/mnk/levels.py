"""How the levels play an m,n,k game (4x4, 5x5, and 3x3 through :data:`engine.mnk.rules.TicTacToe` ``(3, 3, 3)``).

Every level first looks at what is on the board at once, as every player does: it plays a win in one (level 8 too:
the fastest win), else it blocks the opponent's single immediate threat, which the weakest levels notice only with a
probability (``sees``: a beginner blocks an obvious three almost always). Otherwise levels 1-7 search with
depth-limited alpha-beta and a heuristic evaluation at the cut-off (:func:`engine.mnk.horizon.horizon_search`), some
with Gaussian noise on the root moves' scores (a close second choice is then often played, a move seen to lose never),
so what they miss are forks and slower threats beyond their depth. Level 8 finds every move that keeps the position's
exact value (the solver, or the opening book's one move) and, among several, plays the one a depth-limited search
rates best (:func:`press`), so it presses a weaker opponent instead of drawing at random. It never loses.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from engine.errors import GameOverError
from engine.mnk import play as mnk_play
from engine.mnk.horizon import horizon_search
from engine.mnk.rules import MnkState, TicTacToe
from engine.mnk.solver import initial_threats
from engine.protocol import EngineMove, GameValue, Mark

__all__ = ["at_once", "perfect_move", "press", "searched_move", "seen_at_once"]


def at_once(rules: TicTacToe, position: MnkState) -> tuple[int, int, int]:
    """``(wins, threats, free)`` masks: the cells that win at once for the side to move, those that would win at
    once for the opponent, and the empty cells."""
    me, opp = (position.x, position.o) if rules.player(position) is Mark.X else (position.o, position.x)
    free = rules.full ^ (me | opp)
    return initial_threats(rules, me) & free, initial_threats(rules, opp) & free, free


def seen_at_once(rules: TicTacToe, position: MnkState, sees: float, rng: random.Random) -> tuple[int, int] | None:
    """What every player sees before thinking further: ``(cell, cells examined)`` of a win in one (the first in
    natural order), else of the block of the opponent's single immediate threat when the level notices it
    (probability ``sees``, 0-1), else ``None`` (the level searches). With two threats or more the game is lost in one
    whatever is played; the search then chooses as it would anyway."""
    wins, threats, free = at_once(rules, position)
    if wins:
        return (wins & -wins).bit_length() - 1, free.bit_count()
    if threats.bit_count() == 1 and (sees >= 1 or rng.random() < sees):
        return threats.bit_length() - 1, free.bit_count()
    return None


def searched_move(
    rules: TicTacToe, position: MnkState, depth: int, noise: float, sees: float, rng: random.Random
) -> EngineMove:
    """A level below 8: what it sees at once (:func:`seen_at_once`), else alpha-beta to ``depth`` plies with
    ``noise`` evaluation points of Gaussian noise on the root moves (:func:`engine.mnk.horizon.horizon_search`).

    Raises:
        GameOverError: the game in ``position`` is over.
    """
    if rules.terminal(position):
        raise GameOverError("the game is over: there is no move to choose")
    started = time.perf_counter()
    seen = seen_at_once(rules, position, sees, rng)
    if seen is not None:
        cell, examined = seen
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(cell, examined, None, elapsed_ms, depth=1, mark=rules.player(position))
    found = horizon_search(rules, position, depth, rng, noise)
    return EngineMove(found.move, found.states, None, found.elapsed_ms, depth=depth, mark=rules.player(position))


def press(rules: TicTacToe, position: MnkState, best: Sequence[int], depth: int, rng: random.Random) -> tuple[int, int]:
    """``(move, states)``: among ``best``, the moves that keep the exact value, the one alpha-beta to ``depth`` plies
    rates best (ties drawn by ``rng``) and the states that search visited; a win in one replaces ``best`` (the
    fastest win keeps the value and ends the game now). A single move is played without a search (0 states)."""
    wins = at_once(rules, position)[0]
    if wins:
        best = tuple(cell for cell in range(rules.cells) if wins >> cell & 1)
    if len(best) == 1:
        return best[0], 0
    found = horizon_search(rules, position, depth, rng, moves=best)
    return found.move, found.states


def perfect_move(
    rules: TicTacToe, position: MnkState, depth: int, rng: random.Random, cap_ms: float | None = None
) -> EngineMove:
    """Level 8: a win in one (the first in natural order) before any search (nothing evaluated: the board says it
    wins at once), else the opening book's or the solver's best moves (:func:`engine.mnk.play.choose_move`), the most
    pressing of them (:func:`press` to ``depth`` plies). The solver stops itself at ``cap_ms`` (wall clock;
    ``None``: until it proves the value): the move is then cut short, with no cell (-1) and the states it evaluated.

    Raises:
        GameOverError: the game in ``position`` is over.
    """
    started = time.perf_counter()
    wins = at_once(rules, position)[0]
    if wins and not rules.terminal(position):
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        first = (wins & -wins).bit_length() - 1
        return EngineMove(first, 0, GameValue("win", 1), elapsed_ms, mark=rules.player(position))
    decision = mnk_play.choose_move(rules, position, rng, cap_ms=cap_ms)
    if decision.source == "cut short":
        return EngineMove(-1, decision.states, None, decision.elapsed_ms, "cut short", mark=rules.player(position))
    move, pressed = press(rules, position, decision.best_moves, depth, rng)
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return EngineMove(
        move,
        decision.states + pressed,
        decision.value,
        elapsed_ms,
        decision.source,
        book_states=decision.book_states,
        mark=rules.player(position),
    )
