"""Difficulty levels: how often the AI deliberately plays a random move instead of the search's.

The search runs at every level, so the bot can always say how many states it evaluated; the level
only decides whether its move is used.

- ``easy``: a uniformly random legal move with probability 0.5, otherwise the search's move.
- ``medium``: a random legal move with probability 0.2.
- ``unbeatable``: always the search's move (a random choice among equally good moves); it never loses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.minimax.search import DEFAULT, SearchConfig, SearchResult, search
from engine.protocol import Difficulty
from engine.tictactoe.rules import State, actions

__all__ = ["Decision", "choose_move"]


@dataclass(frozen=True, slots=True)
class Decision:
    """The AI's move and the search behind it.

    Attributes:
        move: the cell played, 0-8.
        search: the search that ran (its ``states`` and ``elapsed`` are what the bot reports).
        random: true when the difficulty level replaced the search's move by a random one.
    """

    move: int
    search: SearchResult
    random: bool


def choose_move(
    state: State,
    difficulty: Difficulty = Difficulty.UNBEATABLE,
    *,
    rng: random.Random | None = None,
    config: SearchConfig = DEFAULT,
) -> Decision:
    """Choose the AI's move in ``state`` at ``difficulty``.

    ``rng`` drives both the random blunders and the choice among equally good moves; pass a seeded
    ``random.Random`` for reproducible games.

    Raises:
        GameOverError: the game in ``state`` is already over.
    """
    rng = rng or random.Random()
    result = search(state, config=config, rng=rng)
    if difficulty.random_move_rate and rng.random() < difficulty.random_move_rate:
        return Decision(move=rng.choice(actions(state)), search=result, random=True)
    return Decision(move=result.move, search=result, random=False)
