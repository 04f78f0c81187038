"""The bot's move in any game as the engine's one move record (:class:`engine.players.EngineMove`), chosen in a
worker (arguments and result are picklable).

A game whose variant answers inline (:attr:`engine.variants.Variant.inline`: 3x3) is searched by :func:`decide` (the
counted alpha-beta or plain minimax at level 8); every other game by :func:`variant_move`: every variant plays the
engine's levels 1-8 (:func:`engine.levels.choose_move`): on 4x4 and 5x5 levels 1-7 search a few plies deep with a
heuristic evaluation and level 8 plays perfectly (the exact search and, on 5x5, its opening book); on ultimate levels
1-7 search a budget of MCTS iterations and level 8 for the whole of the pool's time budget (:data:`DEFAULT_BUDGET_MS`,
less when the pool is busy; both stop early on a proof). The worker is given the moves, not a state, and replays
them: what it searches is always a position that was played.
"""

from __future__ import annotations

import random
from dataclasses import replace

from bot.games.pool import DEFAULT_BUDGET_MS
from engine import SearchConfig, State, levels
from engine.minimax.search import ALGORITHM_CONFIGS
from engine.players import choose_move
from engine.protocol import Algorithm, Difficulty, EngineMove
from engine.variants import VARIANTS, Variant
from engine.variants import variant as variant_named

__all__ = ["budget_for", "config_for", "decide", "move_with", "variant_move"]

_THREE: Variant = next(v for v in VARIANTS.values() if v.inline)  # the game :func:`decide` searches (3x3)


def config_for(algorithm: Algorithm) -> SearchConfig:
    """The search configuration behind an ``algorithm`` option."""
    return ALGORITHM_CONFIGS[algorithm]


def decide(state: State, level: int, algorithm: Algorithm, seed: int | None = None) -> EngineMove:
    """Choose the bot's 3x3 move at ``level`` (runs in a worker): level 8 is the perfect search with ``algorithm``
    (:func:`engine.players.choose_move`: the counted alpha-beta or plain minimax), levels 1-7 the level's
    depth-limited alpha-beta (:func:`engine.levels.choose_move`).

    Raises:
        ValueError: ``level`` is not 1-8.
        GameOverError: the game in ``state`` is over.
    """
    rng = random.Random(seed)
    if level == levels.TOP:
        return choose_move(state, Difficulty.UNBEATABLE, rng=rng, config=config_for(algorithm))
    chosen = levels.choose_move(_THREE.name, state, level, rng=rng)
    return replace(chosen, value=None, depth=None, source="search")


def budget_for(variant: str, budget_ms: float | None = None) -> float | None:
    """The time budget (ms) ``variant``'s search has when given at most ``budget_ms`` (``None``:
    :data:`DEFAULT_BUDGET_MS`); ``None`` for a solved variant, whose levels search a fixed depth or exactly."""
    if variant_named(variant).solved:
        return None
    return DEFAULT_BUDGET_MS if budget_ms is None else budget_ms


def variant_move(variant: str, moves: tuple[int, ...], level: int, budget_ms: float | None, seed: int) -> EngineMove:
    """The bot's move after ``moves`` on ``variant`` at ``level`` (1-8), with at most ``budget_ms`` (``None``:
    :data:`DEFAULT_BUDGET_MS`; a smaller one when the pool was busy). Runs in a worker.

    Raises:
        UnknownVariantError: no such variant.
        ValueError: ``level`` is not 1-8.
        IllegalSequenceError: ``moves`` are not a legal game.
        GameOverError: the game after ``moves`` is over.
    """
    return move_with(variant_named(variant), moves, level, budget_ms, seed)


def move_with(rules: Variant, moves: tuple[int, ...], level: int, budget_ms: float | None, seed: int) -> EngineMove:
    """:func:`variant_move` played by ``rules``: a variant, or one with a quicker player (the fallback's), which then
    plays level 8 of a solved variant in place of the engine's perfect player. A solved variant's move carries no
    value and no depth (the board shows neither); an unsolved one's its search's.

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
    if rules.solved:
        chosen = replace(chosen, value=None, depth=None)
    return replace(chosen, budget_ms=budget_for(rules.name, budget_ms), reduced=budget_ms is not None)
