"""The games the engine plays, each an object that answers for itself.

A variant is what a player picks (``/ttt start variant:``). As python-chess's ``Board`` subclasses and OpenSpiel's
game objects do, each is an instance of a subclass of :class:`Variant` whose methods answer every question a caller
would otherwise ask of the game's name or dig out of its states: the mark on a cell, the winning line, where the next
move may go, how cells are named and parsed, the board as text, the time its bot's move takes, how each level plays
it, its hint, review and exact value, whether its search can be drawn. The rules are an AIMA game
(:class:`engine.protocol.Game`): the textbook searches in :mod:`engine.minimax.reference` run on any of them.

The registry that lists them by name is :mod:`engine.registry`. A game handed to a search worker is pickled by value
unless its class says otherwise (the built-in games pickle by name)."""

from __future__ import annotations

from typing import Any

from engine.protocol import Algorithm, Game
from engine.questions import N_
from engine.questions.analysis import AnalysisQuestions, MoveValues

__all__ = ["DEFAULT_VARIANT", "N_", "MoveValues", "Variant"]

DEFAULT_VARIANT = "3x3"
"""The game played when none is chosen (``/ttt start``, the console, a record without a game)."""


class Variant(AnalysisQuestions):
    """One game the engine plays. Subclasses set the class attributes and implement :meth:`mark` and :meth:`play`;
    every other method has a default that fits a plain board of cells. The methods are grouped by subject in
    :mod:`engine.questions` (the board, the bot's moves, the analysis).

    Attributes:
        name: the name players pick, e.g. ``"4x4"``; the key of the registry and of the records.
        title, description: the game's name and one-line description as people read them (gettext message ids).
        code: the game's code in a board button's ``custom_id`` (1-2 lowercase letters or digits; 3x3, whose
            format came first, has none).
        width, height: the board in cells (ultimate: the whole 9 x 9 grid).
        block: the side of the small boards when the board is a grid of them (ultimate: 3), else 0: such a board is
            drawn as a picture and played with a pad of one small board's buttons.
        game: the rules (:class:`engine.protocol.Game`).
        exact: true when the game's values are exact (its hints, reviews and perfect level), false for estimates.
        algorithms: the searches a player may pick for the bot's move at the top level, the default first.
        review_budget_ms: an estimated review's search budget per move, ms (``None``: an exact review). An
            estimated hint says its own budget (:attr:`engine.Hint.budget_ms`).
    """

    name: str
    title: str
    description: str
    code: str
    width: int
    height: int
    block: int = 0
    exact: bool = True
    algorithms: tuple[Algorithm, ...] = ("alpha-beta",)
    review_budget_ms: float | None = None
    game: Game[Any]

    def heading(self) -> str:
        """A board message's first line (a gettext message id with ``{variant}``, ``{x}`` and ``{o}``)."""
        return N_("**Tic-tac-toe {variant}** · {x} vs {o}")

    def short_title(self) -> str:
        """The game as records and ratings name it (a message id; by default its name, e.g. ``"4x4"``)."""
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
