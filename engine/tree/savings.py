"""What each idea of the bot's 3x3 search saves, counted on one position: :func:`savings` runs plain minimax, the
textbook alpha-beta (AIMA §5.3, as in the seeds: cells in order, ±1 scores, a fresh window per root move), and then
the bot's enhancements added one at a time, in :data:`LADDER`'s order, until the configuration is the bot's own
(:data:`engine.minimax.config.DEFAULT`).

Each count is :func:`engine.minimax.search.search`'s, the count the bot and ``python -m engine tree`` show, so the
picture credits alpha-beta with what alpha-beta saved and each enhancement with its own share. The shares depend on
the order the ideas are added in (a table saves more once symmetry keys it, and so on), the two ends do not; an idea
may also cost states (depth-aware scores search on to find the fastest win, centre-first order can be unlucky).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.minimax.config import DEFAULT, TEXTBOOK_ALPHA_BETA, TEXTBOOK_MINIMAX, SearchConfig
from engine.minimax.search import search
from engine.tictactoe.rules import State, result

__all__ = ["LADDER", "Saving", "savings"]

LADDER: tuple[tuple[str, dict[str, Any]], ...] = (
    ("scores", {"scoring": "depth"}),
    ("ordering", {"ordering": "centre"}),
    ("window", {"root_window": "shared"}),
    ("table", {"transposition": True}),
    ("symmetry", {"symmetry": True}),
    ("threats", {"threats": True}),
)
"""The bot's enhancements, each a change of :class:`~engine.minimax.config.SearchConfig` made on top of the ones
before: depth-aware scores, centre-first move order, the shared root window, the transposition table, symmetry, the
threat rules. After the last the configuration is :data:`~engine.minimax.config.DEFAULT`."""


@dataclass(frozen=True, slots=True)
class Saving:
    """One rung: ``step`` (``"minimax"``, ``"alpha-beta"`` or a :data:`LADDER` name), its configuration and the
    states it evaluated in the position (``saved``: the rung above's states minus these; negative when it cost)."""

    step: str
    config: SearchConfig
    states: int
    saved: int


def savings(cells: Sequence[int], *, minimax_states: int | None = None) -> tuple[Saving, ...]:
    """Plain minimax, textbook alpha-beta, then each :data:`LADDER` step, on the 3x3 position after 0-based ``cells``.

    ``minimax_states``: plain minimax's count when already known (a recorded tree's), so it is not searched again
    (549,945 states from the empty board: 0.2 s with the C kernel, several seconds in pure Python).

    Raises:
        IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
    """
    state = State()
    for cell in cells:
        state = result(state, cell)
    first = minimax_states if minimax_states is not None else search(state, config=TEXTBOOK_MINIMAX).states
    rungs = [Saving("minimax", TEXTBOOK_MINIMAX, first, 0)]
    config = TEXTBOOK_ALPHA_BETA
    steps: list[tuple[str, SearchConfig]] = [("alpha-beta", config)]
    for name, change in LADDER:
        config = replace(config, **change)
        steps.append((name, config))
    assert config == DEFAULT, "the ladder must end at the bot's configuration"
    for name, config in steps:
        states = search(state, config=config).states
        rungs.append(Saving(name, config, states, rungs[-1].states - states))
    return tuple(rungs)
