"""The bot's move in any game, the one way: the game's own :meth:`engine.Variant.play` at the game's level, as the
engine's one move record (:class:`engine.EngineMove`). Runs in an executor or a search worker (arguments and result
are picklable: a built-in game pickles by name, another by value).

Where it runs is the game's answer to how long its move takes (:meth:`engine.Variant.answer_ms`): within
:data:`CALLBACK_BUDGET_MS` the move is searched inside the interaction's callback, under the channel's lock, and
committed with the player's move (in a thread, or beyond :data:`QUICK_MS` in a process); otherwise after the player's
move was committed, in the search pool under its budget. The worker is given the moves, not a state, and replays
them: what it searches is always a position that was played.
"""

from __future__ import annotations

import random
from dataclasses import replace
from enum import Enum
from typing import Any, Final

from bot.games.pool import DEFAULT_BUDGET_MS
from engine import Algorithm, EngineMove, IllegalMoveError, Variant

__all__ = [
    "CALLBACK_BUDGET_MS",
    "FALLBACK_BUDGET_MS",
    "QUICK_MS",
    "Pace",
    "bot_move",
    "fallback_move",
    "pace",
    "reply_pace",
]

CALLBACK_BUDGET_MS: Final = 500.0
"""The longest a bot's move may take to be answered inside the interaction's callback, under the channel's lock
(deferred first beyond :data:`QUICK_MS`): Discord waits 3 s for the first answer."""
QUICK_MS: Final = 10.0
"""A move (or a hint) that may take longer is searched in a process, and its interaction deferred first."""
FALLBACK_BUDGET_MS: Final = 50.0
"""The budget of the fallback move when the search failed twice, ms (:meth:`engine.Variant.quick_move`)."""


class Pace(Enum):
    """Where and how a bot's move is searched, from how long the game says it takes (:func:`pace`)."""

    QUICK = "quick"
    """Within :data:`QUICK_MS`: inside the interaction's callback, in a thread, not deferred."""
    DEFERRED = "deferred"
    """Within :data:`CALLBACK_BUDGET_MS`: inside the callback, in a process, the interaction deferred first."""
    POOLED = "pooled"
    """Longer: in the search pool under its budget, after the player's move was committed."""


def pace(kind: Variant, state: Any, level: int, algorithm: Algorithm) -> Pace:
    """How the bot's move in ``state`` is searched: the one place the bot asks the game how long its move may take
    (:meth:`engine.Variant.answer_ms`, ms), compared with :data:`QUICK_MS` and :data:`CALLBACK_BUDGET_MS`."""
    answer_ms = kind.answer_ms(state, level, algorithm)
    if answer_ms <= QUICK_MS:
        return Pace.QUICK
    return Pace.DEFERRED if answer_ms <= CALLBACK_BUDGET_MS else Pace.POOLED


def reply_pace(kind: Variant, state: Any, cell: int, level: int, algorithm: Algorithm) -> Pace | None:
    """The :func:`pace` of the bot's reply to a press on ``cell`` in ``state``; ``None`` for a cell that cannot be
    played. On a game played by column ``cell`` stands for the cell its column's disc falls to
    (:meth:`engine.Variant.move_at`)."""
    try:
        after = kind.game.result(state, kind.move_at(state, cell))
    except IllegalMoveError:
        return None
    return pace(kind, after, level, algorithm)


def bot_move(
    kind: Variant,
    moves: tuple[int, ...],
    level: int,
    algorithm: Algorithm,
    budget_ms: float | None,
    seed: int,
    state: Any = None,
) -> EngineMove:
    """The bot's move after ``moves`` in game ``kind`` at ``level`` (1-8) with ``algorithm``, with at most
    ``budget_ms`` (``None``: :data:`DEFAULT_BUDGET_MS` where the game searches under a budget; a smaller one when the
    pool was busy, which the move then says: ``reduced``). ``state`` is the position after ``moves`` when the caller
    holds it (a move searched inline, in the committed game); a worker replays the moves. Runs in a thread, a process
    or a search worker.

    Raises:
        ValueError: ``level`` is not 1-8.
        IllegalSequenceError: ``moves`` are not a legal game.
        GameOverError: the game after ``moves`` is over.
    """
    state = kind.replay(moves) if state is None else state
    cap = DEFAULT_BUDGET_MS if budget_ms is None else budget_ms
    chosen = kind.play(state, level, algorithm=algorithm, budget_ms=cap, rng=random.Random(seed))
    return _shown(kind, chosen, budget_ms)


def fallback_move(kind: Variant, moves: tuple[int, ...], level: int, seed: int) -> EngineMove:
    """The bot's move after ``moves`` when its search failed: the game's cheap move (:meth:`engine.Variant.quick_move`)
    within about :data:`FALLBACK_BUDGET_MS`, marked as a shorter search than usual. Runs in the bot's process.

    Raises:
        IllegalSequenceError, GameOverError: as :func:`bot_move`.
    """
    chosen = kind.quick_move(kind.replay(moves), level, random.Random(seed), FALLBACK_BUDGET_MS)
    return _shown(kind, chosen, FALLBACK_BUDGET_MS)


def _shown(kind: Variant, chosen: EngineMove, budget_ms: float | None) -> EngineMove:
    """The move with the budget it had: none on a game with exact values (whose moves the board shows without value
    or depth: :meth:`bot.games.match.Match.with_ai`), else the search's; ``reduced`` when it was cut."""
    if budget_ms is None:
        return chosen if kind.exact else replace(chosen, budget_ms=DEFAULT_BUDGET_MS)
    return replace(chosen, budget_ms=None if kind.exact else budget_ms, reduced=True)
