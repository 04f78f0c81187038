"""The game flow without Discord: sessions, challenges, timers and the rules of play.

:class:`GameService` takes intents (a press, a move, a resignation...) and returns answers (a refusal,
or the new game plus what to show). The Discord cog and the console both drive it; nothing here
imports ``discord``.

The names below are imported when first used (PEP 562), so that importing the game's vocabulary
(:mod:`bot.games.vocabulary`), which :mod:`bot.records` does, or a spawned worker's module does not import the
service, which sits above the records.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.games.answers import (
        Answer,
        BotMoved,
        Challenged,
        Chosen,
        Declined,
        Hinted,
        NeedsHistory,
        Posted,
        Refusal,
        Shown,
    )
    from bot.games.codec import CodecError, Kind, decode, encode
    from bot.games.intents import Actor
    from bot.games.match import Algorithm, BoardRef, EndReason, EngineMove, Match, Mode, Status, new_game_id
    from bot.games.service import GameService

_HOMES = (
    "bot.games.answers",
    "bot.games.codec",
    "bot.games.match",
    "bot.games.intents",
    "bot.games.service",
)
"""The modules the names of ``__all__`` come from (the imports above, for the type checker)."""

__all__ = [
    "Actor",
    "Algorithm",
    "Answer",
    "BoardRef",
    "BotMoved",
    "Challenged",
    "Chosen",
    "CodecError",
    "Declined",
    "EndReason",
    "EngineMove",
    "GameService",
    "Hinted",
    "Kind",
    "Match",
    "Mode",
    "NeedsHistory",
    "Posted",
    "Refusal",
    "Shown",
    "Status",
    "decode",
    "encode",
    "new_game_id",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        for home in _HOMES:
            module = importlib.import_module(home)
            if hasattr(module, name):
                value = getattr(module, name)
                globals()[name] = value
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
