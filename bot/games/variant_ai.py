"""The bot's move on a variant other than 3x3, chosen in a worker process (arguments and result are picklable).

Difficulty per variant:

- **4x4 and 5x5** (solved: exact search and an opening book): as on 3x3, ``easy`` plays a uniformly random legal
  move with probability 0.5, ``medium`` 0.2, ``unbeatable`` never (:attr:`engine.Difficulty.random_move_rate`,
  through :meth:`engine.variants.Variant.choose`, which on 5x5 keeps to the book's cover for the first marks);
  the engine's move otherwise.
- **Ultimate** (searched under a time budget): the engine's levels, a budget and a noise
  (``engine.ultimate_play.LEVELS``: 100 ms, 300 ms and :data:`DEFAULT_BUDGET_MS`), through the same
  :meth:`~engine.variants.Variant.choose`; a busy pool's smaller budget caps the level's.

The worker is given the moves, not a state, and replays them: what it searches is always a position that was
played.
"""

from __future__ import annotations

import random

from bot.games.game import BotMove
from bot.games.pool import DEFAULT_BUDGET_MS
from engine import Difficulty
from engine.ultimate_play import LEVELS
from engine.variants import Variant
from engine.variants import variant as variant_named

__all__ = ["budget_for", "move_with", "variant_move"]


def budget_for(variant: str, difficulty: Difficulty, budget_ms: float | None = None) -> float | None:
    """The search budget (ms) ``variant`` plays ``difficulty`` with when given at most ``budget_ms`` (``None``:
    :data:`DEFAULT_BUDGET_MS`): ultimate's level budget (``engine.ultimate_play.LEVELS``) capped by it; ``None``
    for a solved variant, whose engine searches exactly."""
    cap = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    if variant_named(variant).solved:
        return None
    if variant == "ultimate":
        return min(LEVELS[difficulty][0], cap)
    return cap


def variant_move(
    variant: str, moves: tuple[int, ...], difficulty: Difficulty, budget_ms: float | None, seed: int
) -> BotMove:
    """The bot's move after ``moves`` on ``variant`` at ``difficulty``, with at most ``budget_ms`` (``None``: the
    level's own; a smaller one when the pool was busy). Runs in a worker.

    Raises:
        UnknownVariantError: no such variant.
        IllegalSequenceError: ``moves`` are not a legal game.
        GameOverError: the game after ``moves`` is over.
    """
    return move_with(variant_named(variant), moves, difficulty, budget_ms, seed)


def move_with(
    rules: Variant, moves: tuple[int, ...], difficulty: Difficulty, budget_ms: float | None, seed: int
) -> BotMove:
    """:func:`variant_move` played by ``rules`` (a variant, or one with a quicker player: the fallback's).

    Raises:
        IllegalSequenceError, GameOverError: as :func:`variant_move`.
    """
    state = rules.replay(moves)
    cap = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    chosen = rules.choose(state, difficulty, budget_ms=cap, rng=random.Random(seed))
    return BotMove(
        cell=chosen.cell,
        states=chosen.states,
        elapsed_ms=chosen.elapsed_ms,
        random=chosen.random,
        depth=chosen.depth,
        budget_ms=budget_for(rules.name, difficulty, budget_ms),
        reduced=budget_ms is not None,
        book=chosen.source == "book",
        expected=chosen.expected,
        value=None if rules.solved else chosen.value,
    )
