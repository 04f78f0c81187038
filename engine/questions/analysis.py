"""The questions a game answers about its analysis: hints, reviews, the explanation of a move ("How did it think?",
its stepper) and its puzzles."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from engine.hints import Hint, HintMove
from engine.protocol import Algorithm, GameValue, PuzzleKit
from engine.questions.moves import MoveQuestions
from engine.review import PlyReview, exact_review
from engine.tree.explain import Explanation
from engine.tree.node import SearchTree

__all__ = ["AnalysisQuestions", "MoveValues"]

MoveValues = tuple[tuple[tuple[int, GameValue], ...], int]
"""``(values, states)``: every legal move with its exact value for the player to move, and the states evaluated."""

_EXPECTED = {"win": 1.0, "draw": 0.5, "loss": 0.0}


class AnalysisQuestions(MoveQuestions):
    """The analysis' part of :class:`engine.Variant`: by default no exact values, no explanation and no puzzles."""

    def explains(self, cells: Sequence[int]) -> bool:
        """True when :func:`engine.tree.explain.explain` can recompute and draw the search after 0-based ``cells``."""
        return False

    def steps_through(self, cells: Sequence[int]) -> bool:
        """True when the alpha-beta search after 0-based ``cells`` can be walked node by node
        (:meth:`stepped`: the stepper of "How did it think?")."""
        return False

    def explain(
        self,
        cells: Sequence[int],
        played: int | None = None,
        algorithm: Algorithm = "alpha-beta",
        seed: int = 0,
        *,
        compare: bool | None = None,
        depth: int = 2,
        iterations: int | None = None,
    ) -> Explanation:
        """The search behind ``played`` (the bot's move after 0-based ``cells``; ``None``: the search's own best move,
        e.g. under a hint), recomputed and ready to draw and tell itself (:class:`engine.tree.explain.Explanation`).
        Deterministic: the same arguments give the same explanation. Where :meth:`explains` is true a game overrides
        this; by default no move is explained.

        Args:
            algorithm: the search asked for (one of :attr:`algorithms`).
            seed: a sampling search's seed.
            compare: ``None`` the picture the bot shows; ``True`` the other search's tree beside the asked one's,
                where the game has one; ``False`` the asked search alone, every state kept (the terminal's JSON).
            depth: the plies kept of a tree recorded only to be drawn beside (``compare``).
            iterations: a sampling search's iterations (``None``: the game's own).

        Raises:
            ValueError: the game explains no move there (:meth:`explains`), or not with these arguments.
            IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
        """
        raise ValueError(f"the search of {self.name!r} cannot be recomputed")

    def stepped(self, cells: Sequence[int], played: int | None = None) -> SearchTree:
        """The alpha-beta tree a stepper walks after 0-based ``cells``, explaining ``played`` as :meth:`explain`
        does (:meth:`engine.tree.explain.Explanation.stepped`). Deterministic, so a stepper recomputes it on every
        press.

        Raises:
            ValueError: the search cannot be stepped through there (:meth:`steps_through`).
            IllegalMoveError, GameOverError: ``cells`` are not a legal unfinished game.
        """
        tree = self.explain(cells, played, compare=False).stepped() if self.steps_through(cells) else None
        if tree is None:
            raise ValueError(f"the search of {self.name!r} cannot be stepped through here")
        return tree

    # -- hints and reviews ----------------------------------------------------------------------------------------

    def move_values(self, state: Any) -> MoveValues:
        """Every legal move's exact value for the player to move, and the states evaluated (exact games).

        Raises:
            GameOverError: the game is over.
            ValueError: the game has no exact values (it answers :meth:`hint_state` and :meth:`review` itself).
        """
        raise ValueError(f"{self.name}: no exact values")

    def hint_from(self) -> int:
        """The marks on the board from which a hint (and a review's labels) is fast; before them it is refused."""
        return 0

    def hint_marks(self, state: Any) -> int:
        """:meth:`hint_from` for the position ``state``: the marks from which a hint there is fast, 0 when it is fast
        now (a position an opening book answers); a hint before them is refused. By default :meth:`hint_from`."""
        return self.hint_from()

    def hint_ms(self, state: Any) -> float:
        """An upper bound of the wall time of :meth:`hint` in ``state``, ms (``math.inf``: none below a second)."""
        return math.inf

    def hint(self, moves: Sequence[int]) -> Hint:
        """The hint for the player to move after ``moves`` (0-based cells from the initial state): by default every
        legal move with its exact value (:meth:`move_values`).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game.
            GameOverError: the game is over.
            ValueError: fewer than :meth:`hint_marks` moves were played (its message says how many it needs).
        """
        state = self.replay(moves)
        if len(moves) < (marks := self.hint_marks(state)):
            raise ValueError(f"{self.name}: no hint in this position before {marks} marks")
        return self.hint_state(state)

    def hint_state(self, state: Any) -> Hint:
        """:meth:`hint` of a position given as a state."""
        started = time.perf_counter()
        values, states = self.move_values(state)
        moves = tuple(HintMove(cell, value, _EXPECTED[value.result]) for cell, value in values)
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return Hint(self.game.player(state), moves, exact=True, states=states, elapsed_ms=elapsed_ms)

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """Every move of a game (0-based cells from the initial state) valued and labelled, one :class:`PlyReview`
        per move from ply :meth:`hint_from` + 1 on: by default by :meth:`move_values` (:mod:`engine.review`).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game (raised before any search).
        """
        return exact_review(self.game, moves, self.move_values, self.hint_from())

    def puzzles(self) -> PuzzleKit | None:
        """A new kit of the game's puzzles (prover, miner's plies, checks, symmetry: :class:`PuzzleKit`), or ``None``
        (the default): the game offers none. A game that has one ships ``engine/puzzles/data/<name>.json``."""
        return None
