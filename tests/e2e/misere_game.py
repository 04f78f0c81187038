"""A misère game written outside the engine (docs/adding-a-game.md): 3x3 where whoever completes three in a row
loses. Its deciding line is the loser's (:meth:`engine.Variant.deciding_line`), so the boards paint it as a loss.

``TTT_GAMES=tests.e2e.misere_game:MISERE`` registers it at start-up (importing this module registers nothing). Its
rules follow AIMA's game protocol on top of the engine's 3x3 rules; every level is an exact negamax over the whole
game (AIMA §5.2), at most 549,945 positions from the empty board, memoised by position.
"""

from __future__ import annotations

import functools
import random
import time
from typing import Literal

from engine import EngineMove, GameOverError, Mark, Variant
from engine.tictactoe import rules
from engine.tictactoe.rules import State

__all__ = ["MISERE", "Misere", "MisereRules"]


class MisereRules:
    """3x3's rules (:mod:`engine.tictactoe.rules`) with the utility turned round: three in a row loses."""

    def initial_state(self) -> State:
        return rules.initial_state()

    def player(self, state: State) -> Mark:
        return rules.player(state)

    def actions(self, state: State) -> tuple[int, ...]:
        return rules.actions(state)

    def result(self, state: State, action: int) -> State:
        return rules.result(state, action)

    def terminal(self, state: State) -> bool:
        return rules.terminal(state)

    def utility(self, state: State) -> int:
        """+1 when X won (O completed a line), -1 when O won, 0 for a draw."""
        return -rules.utility(state)


RULES = MisereRules()


@functools.cache
def _negamax(state: State) -> int:
    """The exact score for the player to move: +1 a win, -1 a loss, 0 a draw."""
    if RULES.terminal(state):
        utility = RULES.utility(state)
        return utility if RULES.player(state) is Mark.X else -utility
    return max(-_negamax(RULES.result(state, a)) for a in RULES.actions(state))


class Misere(Variant):
    """Misère 3x3: whoever completes three in a row loses."""

    name = "misere"
    title = "misère 3x3"
    description = "Three in a row loses"
    code = "ms"
    width = height = 3

    def __init__(self) -> None:
        self.game = RULES

    def mark(self, state: State, cell: int) -> Mark | None:
        return state[cell]

    def winning_line(self, state: State) -> frozenset[int]:
        return rules.winning_cells(state)

    def play(
        self,
        state: State,
        level: int = 8,
        *,
        algorithm: Literal["minimax", "alpha-beta"] = "alpha-beta",
        budget_ms: float | None = None,
        rng: random.Random | None = None,
    ) -> EngineMove:
        if not 1 <= level <= 8:
            raise ValueError(f"level {level!r} is not one of 1-8")
        if RULES.terminal(state):
            raise GameOverError("the game is over")
        rng = rng if rng is not None else random.Random()
        started = time.perf_counter()
        scores = {a: -_negamax(RULES.result(state, a)) for a in RULES.actions(state)}
        best = max(scores.values())
        cell = rng.choice([a for a, s in scores.items() if s == best])
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(cell, len(scores), None, elapsed_ms, depth=1, mark=RULES.player(state))

    def rating(self, level: int) -> float:
        """A nominal ladder (never calibrated in matches)."""
        if not 1 <= level <= 8:
            raise KeyError(level)
        return 800.0 + 100.0 * level


MISERE = Misere()
