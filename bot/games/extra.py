"""Games written outside the repository: each ``module:attribute`` that ``TTT_GAMES`` names is registered at start-up
with :func:`engine.register`, before the commands are built (docs/adding-a-game.md); a plain ``module`` is imported
and may register its games itself."""

from __future__ import annotations

import importlib
import os
from collections.abc import Mapping

from engine import register

__all__ = ["GAMES_VARIABLE", "load_games"]

GAMES_VARIABLE = "TTT_GAMES"
"""The environment variable naming outside games, separated by commas: ``module:attribute`` for a game object
(e.g. ``mygames.rows:THREE_IN_A_ROW``), or a module that registers its games when imported."""


def load_games(environ: Mapping[str, str] | None = None) -> tuple[str, ...]:
    """Register every game ``TTT_GAMES`` names in ``environ`` (default: the process's); returns the entries.

    Raises:
        ImportError, AttributeError: an entry names no module or no object in it; ValueError: a game clashes with a
            registered one (its name or code), or is malformed; :class:`engine.UndrawableGameError` (a ValueError):
            no presenter draws its declared layout.
    """
    spec = (os.environ if environ is None else environ).get(GAMES_VARIABLE, "")
    entries = tuple(entry.strip() for entry in spec.split(",") if entry.strip())
    for entry in entries:
        module, _, attribute = entry.partition(":")
        loaded = importlib.import_module(module)
        if attribute:
            register(getattr(loaded, attribute))
    return entries
