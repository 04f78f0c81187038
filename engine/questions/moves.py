"""The questions a game answers about the bot's moves: how long one takes, how each level plays and is rated, where
its search runs, whether its count can be reproduced and what its search is called."""

from __future__ import annotations

import abc
import math
import random
from typing import Any

from engine.protocol import TOP_LEVEL, Algorithm, EngineMove, Kernel, LevelSpec
from engine.questions import N_
from engine.questions.board import BoardQuestions

__all__ = ["MoveQuestions"]


class MoveQuestions(BoardQuestions):
    """The bot's moves' part of :class:`engine.Variant`: every method has a default but :meth:`play`."""

    algorithms: tuple[Algorithm, ...] = ("alpha-beta",)

    # -- the bot's moves ------------------------------------------------------------------------------------------

    def answer_ms(self, state: Any, level: int, algorithm: Algorithm) -> float:
        """An upper bound of the wall time, ms, of :meth:`play` at ``level`` with ``algorithm`` in ``state``
        (``math.inf``: none below a second; the bot then searches in its worker pool)."""
        return math.inf

    @abc.abstractmethod
    def play(
        self,
        state: Any,
        level: int = TOP_LEVEL,
        *,
        algorithm: Algorithm = "alpha-beta",
        budget_ms: float | None = None,
        rng: random.Random | None = None,
    ) -> EngineMove:
        """The move of ``level`` (1-8, 8 the strongest) in ``state``; ``algorithm`` is the top level's search (one of
        :attr:`algorithms`), ``budget_ms`` caps a search that runs under a time budget, ``rng`` breaks ties and draws
        any noise (seeded: reproducible).

        Raises:
            ValueError: ``level`` is not 1-8.
            GameOverError: the game in ``state`` is over.
        """

    def capped_move(self, state: Any, level: int, cap_ms: float, rng: random.Random) -> EngineMove | None:
        """The move of ``level`` in ``state`` by a search that stops itself at ``cap_ms`` (wall clock), then cut short
        (``value`` ``None``), its ``states`` every search's for it; ``None`` (nothing searched) where the game's search
        cannot stop itself (the default). Raises :class:`~engine.errors.GameOverError` when the game is over."""
        return None

    def quick_move(self, state: Any, level: int, rng: random.Random, budget_ms: float) -> EngineMove:
        """A cheap move for when the bot's search failed: bounded by ``budget_ms`` and safe to run in the bot's own
        process (by default :meth:`play` under that budget).

        Raises:
            GameOverError: the game in ``state`` is over.
        """
        return self.play(state, level, budget_ms=budget_ms, rng=rng)

    def rating(self, level: int) -> float:
        """The rating measured for ``level`` (1-8) on this game (Elo, one scale per game).

        Raises:
            KeyError: no rating for ``level``.
        """
        raise KeyError(level)

    def level_specs(self) -> tuple[LevelSpec, ...]:
        """How levels 1-8 search, in order (:class:`engine.protocol.LevelSpec`; ``python -m engine levels`` prints
        them beside their ratings), or ``()`` when the game declares none (the default)."""
        return ()

    def level_move(self, state: Any, level: int, *, rng: random.Random, budget_ms: float | None = None) -> EngineMove:
        """The move of ``level`` (1-8) in ``state`` as the level was rated (:meth:`rating`; ``engine serve``,
        :func:`engine.levels.choose_move`); ``rng`` breaks ties and draws any noise, ``budget_ms`` caps a search
        under a time budget. By default :meth:`play` with its default search.

        Raises:
            ValueError: ``level`` is not 1-8.
            GameOverError: the game in ``state`` is over.
        """
        return self.play(state, level, budget_ms=budget_ms, rng=rng)

    def kernel(self) -> Kernel:
        """Where the game's search runs in this process: ``"C"`` (a compiled extension) or ``"Python"`` (the
        default); the bot logs it at start and exports it as a metric."""
        return "Python"

    def counts_reproducible(self, algorithm: Algorithm) -> bool:
        """True when :meth:`play` at :data:`~engine.protocol.TOP_LEVEL` with ``algorithm`` evaluates the same number of
        states (:attr:`engine.EngineMove.states`) every time it is asked about the same position: no cache or table
        kept from one search to the next, no time budget, any random choice made after the count. Only then may a
        board pressed after a restart with nothing stored be checked by counting its searches again; otherwise (the
        default, since a search memoised across calls counts less the second time) such a board cannot prove itself
        and is refused as unverified."""
        return False

    def search_name(self, algorithm: Algorithm, level: int = TOP_LEVEL) -> str:
        """The name of the search that plays ``level`` with ``algorithm``, as the board's move line, its header and
        ``/ttt help`` show it (a gettext message id; the field's term: ``"alpha-beta"``, ``"minimax"``,
        ``"negamax"``, ``"MCTS"``). By default the name of ``algorithm``: a game whose own search is another (a
        memoised negamax, a Monte Carlo tree search) says so here."""
        return N_("minimax") if algorithm == "minimax" else N_("alpha-beta")
