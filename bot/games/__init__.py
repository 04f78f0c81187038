"""The game flow without Discord: sessions, challenges, timers and the rules of play.

:class:`GameService` takes intents (a press, a move, a resignation...) and returns answers (a refusal,
or the new game plus what to show). The Discord cog and the console both drive it; nothing here
imports ``discord``.
"""

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
    VariantHinted,
)
from bot.games.codec import CodecError, Kind, decode, encode
from bot.games.game import Algorithm, BoardRef, EndReason, EngineMove, Game, Mode, Status, new_game_id
from bot.games.service import Actor, GameService

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
    "Game",
    "GameService",
    "Hinted",
    "Kind",
    "Mode",
    "NeedsHistory",
    "Posted",
    "Refusal",
    "Shown",
    "Status",
    "VariantHinted",
    "decode",
    "encode",
    "new_game_id",
]
