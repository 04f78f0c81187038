"""The bot's move on a variant other than 3x3, chosen in a worker process (arguments and result are picklable).

Every variant plays the engine's levels 1-8 (:func:`engine.levels.choose_move`): on 4x4 and 5x5 levels 1-7 search
a few plies deep with a heuristic evaluation and level 8 plays perfectly (the exact search and, on 5x5, its opening
book); on ultimate every level searches a budget of states, capped by the pool's time budget
(:data:`DEFAULT_BUDGET_MS`, less when the pool is busy).

The worker is given the moves, not a state, and replays them: what it searches is always a position that was
played.
"""

from __future__ import annotations

import random

from bot.games.game import BotMove
from bot.games.pool import DEFAULT_BUDGET_MS
from engine import levels
from engine.variants import VARIANTS, Variant
from engine.variants import variant as variant_named

__all__ = ["budget_for", "move_with", "variant_move"]


def budget_for(variant: str, budget_ms: float | None = None) -> float | None:
    """The time budget (ms) ``variant``'s search has when given at most ``budget_ms`` (``None``:
    :data:`DEFAULT_BUDGET_MS`); ``None`` for a solved variant, whose levels search a fixed depth or exactly."""
    if variant_named(variant).solved:
        return None
    return DEFAULT_BUDGET_MS if budget_ms is None else budget_ms


def variant_move(variant: str, moves: tuple[int, ...], level: int, budget_ms: float | None, seed: int) -> BotMove:
    """The bot's move after ``moves`` on ``variant`` at ``level`` (1-8), with at most ``budget_ms`` (``None``:
    :data:`DEFAULT_BUDGET_MS`; a smaller one when the pool was busy). Runs in a worker.

    Raises:
        UnknownVariantError: no such variant.
        ValueError: ``level`` is not 1-8.
        IllegalSequenceError: ``moves`` are not a legal game.
        GameOverError: the game after ``moves`` is over.
    """
    return move_with(variant_named(variant), moves, level, budget_ms, seed)


def move_with(rules: Variant, moves: tuple[int, ...], level: int, budget_ms: float | None, seed: int) -> BotMove:
    """:func:`variant_move` played by ``rules``: a variant, or one with a quicker player (the fallback's), which then
    plays level 8 of a solved variant in place of the engine's perfect player.

    Raises:
        ValueError, IllegalSequenceError, GameOverError: as :func:`variant_move`.
    """
    state = rules.replay(moves)
    cap = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    rng = random.Random(seed)
    quicker = rules is not VARIANTS.get(rules.name)
    if quicker and rules.solved and level == levels.TOP:
        chosen = rules.choose(state, budget_ms=cap, rng=rng)
    else:
        chosen = levels.choose_move(rules.name, state, level, rng=rng, budget_ms=cap)
    return BotMove(
        cell=chosen.cell,
        states=chosen.states,
        elapsed_ms=chosen.elapsed_ms,
        random=chosen.random,
        depth=chosen.depth if not rules.solved else None,
        budget_ms=budget_for(rules.name, budget_ms),
        reduced=budget_ms is not None,
        book=chosen.source == "book",
    )
