"""The move record every player returns (:class:`EngineMove`), and the 3x3 difficulty levels: how often the AI
deliberately plays a random move instead of the search's.

The search runs at every level, so the bot can always say how many states it evaluated; the level
only decides whether its move is used.

- ``easy``: a uniformly random legal move with probability 0.5, otherwise the search's move.
- ``medium``: a random legal move with probability 0.2.
- ``unbeatable``: always the search's move (a random choice among equally good moves); it never loses.
"""

from __future__ import annotations

import random
from dataclasses import replace

from engine.minimax.search import DEFAULT, SearchConfig, search
from engine.protocol import Difficulty, EngineMove
from engine.tictactoe.rules import State, actions, player

__all__ = ["choose_move"]


def choose_move(
    state: State,
    difficulty: Difficulty = Difficulty.UNBEATABLE,
    *,
    rng: random.Random | None = None,
    config: SearchConfig = DEFAULT,
) -> EngineMove:
    """Choose the AI's 3x3 move in ``state`` at ``difficulty``, searching with ``config``: its ``states`` and
    ``elapsed_ms`` are the search's (the figures the bot reports), ``algorithm`` the config's; ``value`` is
    ``None`` (this player does not value the position).

    ``rng`` drives both the random blunders and the choice among equally good moves; pass a seeded
    ``random.Random`` for reproducible games.

    Raises:
        GameOverError: the game in ``state`` is already over.
    """
    rng = rng or random.Random()
    result = search(state, config=config, rng=rng)
    chosen = EngineMove(
        result.move, result.states, None, result.elapsed_ms, algorithm=config.algorithm, mark=player(state)
    )
    if difficulty.random_move_rate and rng.random() < difficulty.random_move_rate:
        return replace(chosen, cell=rng.choice(actions(state)), random=True)
    return chosen
