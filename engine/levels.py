"""Levels 1-8 of every game, 8 the strongest, each with a rating measured in matches: what the games share.

Each game declares how its levels play (:meth:`engine.Variant.level_specs`, one :class:`LevelSpec` per level) and
plays them itself (:meth:`engine.Variant.level_move`); the weaker levels search less, so their mistakes are those of
a player who looks fewer moves ahead. The built-in games say how in their own packages (:mod:`engine.mnk.levels` for
3x3, 4x4 and 5x5, :func:`engine.connect_four.play.level_move`, :func:`engine.ultimate.play.choose_move`) and their
tables in :mod:`engine.games`. This module holds what they share: the level's check (:func:`spec_at`), the time budget
of a level that searches for its time (:func:`time_cap`), the ratings (:func:`ladder`) and :func:`choose_move`, which
asks the registered game by name.

Ratings come from :file:`engine/levels.json`, written by ``benchmarks/levels_calibration.py``: Elo ratings fitted
by maximum likelihood against a fixed ladder of reference players (OpenSpiel's ``MCTSBot`` at several simulation
counts, and uniform random play), one scale per game, with the anchor, the commands, seeds and game counts
stored beside them (see ``docs/levels.md``). The table is frozen until the calibration is re-run.
"""

from __future__ import annotations

import functools
import json
import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from engine.protocol import LEVELS, TOP_LEVEL, EngineMove, LevelSpec
from engine.registry import VARIANTS, variant

__all__ = [
    "LEVELS",
    "SPECS",
    "TOP",
    "TOP_BUDGET_MS",
    "Level",
    "LevelSpec",
    "calibrated",
    "check_level",
    "choose_move",
    "ladder",
    "spec_at",
    "table",
    "time_cap",
]

TOP = TOP_LEVEL
"""The strongest level, the default (:data:`engine.protocol.TOP_LEVEL`)."""
TOP_BUDGET_MS = 1000.0
"""The wall-clock budget (ms) of a level that searches for its time (:attr:`LevelSpec.timed`) when the caller gives
none; the bot and ``engine serve`` give 1,000 ms by default too."""


class _Specs(Mapping[str, tuple[LevelSpec, ...]]):
    """Every registered game's levels 1-8 (:meth:`engine.Variant.level_specs`) by name, among the games that declare
    them: a live view of the registry."""

    def __getitem__(self, name: str) -> tuple[LevelSpec, ...]:
        found = VARIANTS[name].level_specs()
        if not found:
            raise KeyError(name)
        return found

    def __iter__(self) -> Iterator[str]:
        return (name for name, game in VARIANTS.items() if game.level_specs())

    def __len__(self) -> int:
        return sum(1 for _ in self)


SPECS: Mapping[str, tuple[LevelSpec, ...]] = _Specs()
"""Per registered game that declares its levels, levels 1-8 in order (:meth:`engine.Variant.level_specs`)."""


@dataclass(frozen=True, slots=True)
class Level:
    """One level of one game with its measured rating.

    Attributes:
        level: 1-8.
        rating: the Elo rating fitted from the calibration matches (see the module docstring).
        low, high: its 95 % interval.
        games: calibration games the level played.
        search: how the level searches, in words (:attr:`LevelSpec.search`).
    """

    level: int
    rating: int
    low: int
    high: int
    games: int
    search: str


@functools.cache
def table() -> dict[str, Any]:
    """The whole committed calibration (:file:`engine/levels.json`): every variant's levels, reference players,
    anchor, and the command, seeds and game counts that made it."""
    text = resources.files("engine").joinpath("levels.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


def calibrated() -> tuple[str, ...]:
    """The registered games whose levels :file:`engine/levels.json` rates, in :data:`engine.registry.VARIANTS`'
    order (a game written elsewhere rates its own levels: :meth:`engine.Variant.rating`)."""
    rated = table()["variants"]
    return tuple(name for name in VARIANTS if name in rated)


def ladder(name: str) -> tuple[Level, ...]:
    """Levels 1-8 of the registered game ``name`` as :file:`engine/levels.json` rates them, weakest first, each with
    its search in words from the game's :meth:`~engine.Variant.level_specs`.

    Raises:
        UnknownVariantError: no variant has that name.
        KeyError: the calibration has no ratings for it.
    """
    specs = variant(name).level_specs()
    rows = table()["variants"][name]["levels"]
    return tuple(
        Level(row["level"], row["rating"], row["low"], row["high"], row["games"], specs[row["level"] - 1].search)
        for row in rows
    )


def check_level(level: object) -> int:
    """``level`` when it is an int 1-8 (not a bool).

    Raises:
        ValueError: it is not.
    """
    if type(level) is not int or level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of 1-8")
    return level


def spec_at(specs: Sequence[LevelSpec], level: object) -> LevelSpec:
    """The spec of ``level`` (1-8) among a game's ``specs`` (levels 1-8 in order).

    Raises:
        ValueError: ``level`` is not an int 1-8.
    """
    return specs[check_level(level) - 1]


def time_cap(spec: LevelSpec, budget_ms: float | None) -> float:
    """The wall-clock cap, ms, of a level's search given the caller's ``budget_ms`` (``None``: none given): a timed
    level (:attr:`LevelSpec.timed`) searches for ``budget_ms`` or :data:`TOP_BUDGET_MS`; any other stops at its own
    budget, capped by ``budget_ms`` when given (``math.inf`` when not)."""
    if spec.timed:
        return TOP_BUDGET_MS if budget_ms is None else budget_ms
    return math.inf if budget_ms is None else budget_ms


def choose_move(
    name: str,
    state: Any,
    level: int = TOP,
    *,
    rng: random.Random | None = None,
    budget_ms: float | None = None,
) -> EngineMove:
    """The move of ``level`` (1-8) in ``state`` of the registered game ``name`` as its levels play it
    (:meth:`engine.Variant.level_move`).

    Deterministic given a seeded ``rng`` (it breaks ties and draws the noise), except a level that searches for its
    time; ``budget_ms`` caps a level's search (wall-clock ms) where the game searches under a budget. ``states`` is
    the nodes the searches visited (0 for a book move); ``value`` is exact at level 8 of a solved game unless cut
    short, else ``None``.

    Raises:
        ValueError: ``level`` is not 1-8.
        UnknownVariantError: no variant has that name.
        GameOverError: the game in ``state`` is over.
    """
    game = variant(name)
    rng = rng if rng is not None else random.Random()
    return game.level_move(state, check_level(level), rng=rng, budget_ms=budget_ms)
