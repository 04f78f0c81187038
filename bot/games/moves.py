"""The bot's moves as the game keeps them (:class:`AIMove`) and as a variant's engine returns them from a worker
(:class:`BotMove`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import Mark
from engine.protocol import Algorithm, GameValue

__all__ = ["AIMove", "BotMove"]


@dataclass(frozen=True, slots=True)
class AIMove:
    """The bot's last move and the search behind it: ``states`` evaluated in ``elapsed`` seconds.

    ``cell`` is 0-based over the whole board of the game's variant. ``depth`` is the deepest completed iteration
    of a search under a time budget (ultimate), in plies, else ``None``. ``budget_ms`` is the budget the search
    had (``None``: an exact search with no budget); ``reduced`` is True when the search pool was busy and the
    bot searched with a smaller budget than its level's (the board should say so). ``book`` is True for a move
    read from an opening book (its ``states`` are those the solver spent proving the entry). On ultimate,
    ``expected`` is the bot's expected score after the move (0-1, a draw 1/2: the engine's estimate) and ``value``
    the result its search proved ("win in N" plies), else ``None``.
    """

    mark: Mark
    cell: int
    states: int
    elapsed: float
    algorithm: Algorithm
    random: bool
    depth: int | None = None
    budget_ms: float | None = None
    reduced: bool = False
    book: bool = False
    expected: float | None = None
    value: GameValue | None = None


@dataclass(frozen=True, slots=True)
class BotMove:
    """A move chosen by a variant's engine in a worker (a plain picklable value; see :mod:`bot.games.ai`).

    ``cell`` 0-based over the whole board; ``states`` evaluated in ``elapsed_ms`` milliseconds; the other fields
    as in :class:`AIMove`.
    """

    cell: int
    states: int
    elapsed_ms: float
    random: bool = False
    depth: int | None = None
    budget_ms: float | None = None
    reduced: bool = False
    book: bool = False
    expected: float | None = None
    value: GameValue | None = None
