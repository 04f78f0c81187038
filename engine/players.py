"""The move record every player returns (:class:`EngineMove`), and the 3x3 difficulty levels: how often the AI
deliberately plays a random move instead of the search's.

The search runs at every level, so the bot can always say how many states it evaluated; the level
only decides whether its move is used.

- ``easy``: a uniformly random legal move with probability 0.5, otherwise the search's move.
- ``medium``: a random legal move with probability 0.2.
- ``unbeatable``: always the search's move (a random choice among equally good moves); it never loses.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, field, replace
from typing import Literal

from engine.game import Mark, State, actions, player
from engine.search import DEFAULT, Algorithm, SearchConfig, search
from engine.solver import GameValue

__all__ = ["Difficulty", "EngineMove", "Source", "choose_move"]

Source = Literal["search", "book"]


@dataclass(frozen=True, slots=True)
class EngineMove:
    """A move chosen by an engine, on any game: the one move record from the search to the board.

    Attributes:
        cell: the cell played, 0-based row by row over the whole board (0-8, 0-15, 0-24, 0-80).
        states: states the search evaluated (nodes visited) to choose it; for a book move, the states the
            solver evaluated when it proved the book entry.
        value: the position's exact value for the mover where the game is solved, or where the search proved it
            (ultimate: "win in N", "loss in N", "draw"), else ``None``.
        elapsed_ms: wall-clock milliseconds spent choosing.
        source: ``"search"``, or ``"book"`` for a move read from an opening book.
        random: true when a difficulty level played a random legal move instead of the engine's choice
            (``states`` and ``value`` are still the engine's, for the position before the move).
        depth: the depth of the search in plies where it is not exact: a level's depth-limited alpha-beta, or
            the deepest node an MCTS tree reached (ultimate); ``None`` for an exact search.
        expected: for an unsolved game, the mover's expected score (0-1, a draw 1/2) after the move, exactly
            1, 1/2 or 0 when proven (:mod:`engine.ultimate_scale`); ``None`` for a solved game.
        algorithm: the search that chose it (3x3 at full strength: the player's option; otherwise alpha-beta).
        budget_ms: the time budget the search had, ms (``None``: an exact or depth-limited search, no budget).
        reduced: true when the search had a smaller budget than its level's (the bot's search pool was busy).
        mark: the side that moved (keyword only).
    """

    cell: int
    states: int
    value: GameValue | None
    elapsed_ms: float
    source: Source = "search"
    random: bool = False
    depth: int | None = None
    expected: float | None = None
    algorithm: Algorithm = "alpha-beta"
    budget_ms: float | None = None
    reduced: bool = False
    mark: Mark = field(kw_only=True)

    @property
    def book(self) -> bool:
        """True for a move read from an opening book."""
        return self.source == "book"


class Difficulty(enum.Enum):
    """A difficulty level; ``random_move_rate`` is the probability of a random move."""

    EASY = "easy"
    MEDIUM = "medium"
    UNBEATABLE = "unbeatable"

    @property
    def random_move_rate(self) -> float:
        """Probability (0-1) of playing a uniformly random legal move instead of the search's."""
        return {"easy": 0.5, "medium": 0.2, "unbeatable": 0.0}[self.value]


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
