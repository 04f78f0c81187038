"""The bot's move on a variant other than 3x3, chosen in a worker process (arguments and result are picklable).

Difficulty per variant:

- **4x4 and 5x5** (solved: exact search and an opening book): as on 3x3, ``easy`` plays a uniformly random legal
  move with probability 0.5, ``medium`` 0.2, ``unbeatable`` never (:attr:`engine.Difficulty.random_move_rate`,
  through :meth:`engine.variants.Variant.choose`, which on 5x5 keeps to the book's cover for the first marks);
  the engine's move otherwise.
- **Ultimate** (searched under a time budget): the engine's levels, a budget and a noise
  (``engine.ultimate_play.LEVELS``; :data:`DEFAULT_BUDGET_MS` at unbeatable).

The worker is given the moves, not a state, and replays them: what it searches is always a position that was
played.
"""

from __future__ import annotations

import random

from bot.games.game import BotMove
from bot.games.pool import DEFAULT_BUDGET_MS
from engine import Difficulty
from engine.variants import variant as variant_named

__all__ = ["LEVEL_BUDGET_MS", "budget_for", "variant_move"]

LEVEL_BUDGET_MS: dict[Difficulty, float] = {
    Difficulty.EASY: 100.0,
    Difficulty.MEDIUM: 300.0,
    Difficulty.UNBEATABLE: DEFAULT_BUDGET_MS,
}
"""A budgeted variant's search budget per difficulty, ms (the engine's levels)."""


def budget_for(variant: str, difficulty: Difficulty) -> float:
    """The search budget (ms) of ``variant`` at ``difficulty``: the level's for a searched variant, the default
    for a solved one (whose engine searches exactly, and takes the budget only as a bound)."""
    if variant_named(variant).solved:
        return DEFAULT_BUDGET_MS
    return LEVEL_BUDGET_MS[difficulty]


def variant_move(
    variant: str, moves: tuple[int, ...], difficulty: Difficulty, budget_ms: float | None, seed: int
) -> BotMove:
    """The bot's move after ``moves`` on ``variant`` at ``difficulty``, with ``budget_ms`` (``None``: the level's
    own; a smaller one when the pool was busy). Runs in a worker.

    Raises:
        UnknownVariantError: no such variant.
        IllegalSequenceError: ``moves`` are not a legal game.
        GameOverError: the game after ``moves`` is over.
    """
    rules = variant_named(variant)
    state = rules.replay(moves)
    rng = random.Random(seed)
    budget = budget_for(variant, difficulty) if budget_ms is None else min(budget_ms, budget_for(variant, difficulty))
    chosen = rules.choose(state, difficulty, budget_ms=budget, rng=rng)
    return BotMove(
        cell=chosen.cell,
        states=chosen.states,
        elapsed_ms=chosen.elapsed_ms,
        random=chosen.random,
        budget_ms=None if rules.solved else budget,
        reduced=budget_ms is not None,
        book=chosen.source == "book",
    )
