"""The games the engine plays, by name, each with its rules, its board size and its move chooser.

A variant is what a player picks: ``"3x3"`` (tic-tac-toe), and the larger games added beside it. Every
variant's rules follow :class:`engine.protocol.Game`, so the textbook searches in :mod:`engine.minimax.reference` run
on any of them; ``best_move`` is the variant's own fast player.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine.coordinates import cell_name
from engine.errors import IllegalMoveError, IllegalSequenceError, UnknownVariantError
from engine.minimax.search import search
from engine.mnk import play as mnk_play
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.protocol import Difficulty, Game, GameValue, Mark
from engine.tictactoe import rules as tictactoe
from engine.tictactoe.solver import value_for
from engine.ultimate import play as ultimate_play
from engine.ultimate.rules import UltimateState, UltimateTicTacToe

__all__ = ["VARIANTS", "EngineMove", "Variant", "variant"]

Source = Literal["search", "book"]


@dataclass(frozen=True, slots=True)
class EngineMove:
    """A move chosen by a variant's engine.

    Attributes:
        cell: the cell played, 0-based row by row.
        states: states the search evaluated (nodes visited) to choose it; for a book move, the states the
            solver evaluated when it proved the book entry.
        value: the position's exact value for the mover where the game is solved, or where the search proved it
            (ultimate: "win in N", "loss in N", "draw"), else ``None``.
        elapsed_ms: wall-clock milliseconds spent choosing.
        source: ``"search"``, or ``"book"`` for a move read from an opening book.
        random: true when a difficulty level played a random legal move instead of the engine's choice
            (``states`` and ``value`` are still the engine's, for the position before the move).
        depth: for a search under a budget (ultimate), the deepest node its tree reached, in plies.
        expected: for an unsolved variant, the mover's expected score (0-1, a draw 1/2) after the move, exactly
            1, 1/2 or 0 when proven (:mod:`engine.ultimate.scale`); ``None`` for a solved variant.
    """

    cell: int
    states: int
    value: GameValue | None
    elapsed_ms: float
    source: Source = "search"
    random: bool = False
    depth: int | None = None
    expected: float | None = None


BestMove = Callable[[Any, float, "random.Random | None"], EngineMove]
"""``best_move(state, budget_ms, rng)``: the variant's player; ``rng`` breaks ties among equal moves."""

Levelled = Callable[[Any, Difficulty, float, random.Random], EngineMove]
"""``levelled(state, difficulty, budget_ms, rng)``: a variant's own way of playing a difficulty."""


@dataclass(frozen=True, slots=True)
class Variant:
    """One game the engine plays.

    Attributes:
        name: the name players pick, e.g. ``"3x3"``.
        width, height: the board in cells (ultimate: the whole 9 x 9 grid).
        game: the rules (:class:`engine.protocol.Game`).
        best_move: the variant's own player (see :data:`BestMove`).
        solved: true when ``best_move`` plays perfectly and gives exact values.
        random_from: the marks on the board from which a difficulty level may play a random move. On 5x5 it
            is 4: the opening book covers the positions the bot's own moves lead to, and a random move
            before 4 marks leaves it for a search of up to tens of seconds (measured: docs/engine.md).
        levelled: where set, how the variant plays a difficulty itself (ultimate: a budget and noise per
            level) instead of the random moves of ``random_move_rate``.
    """

    name: str
    width: int
    height: int
    game: Game[Any]
    best_move: BestMove
    solved: bool
    random_from: int = 0
    levelled: Levelled | None = None

    def replay(self, cells: Sequence[int]) -> Any:
        """The state after playing 0-based ``cells`` in order from the initial state.

        Raises:
            IllegalSequenceError: a cell cannot be played where it stands (the message numbers cells 1-based);
                ``ply`` is its 1-based place and ``__cause__`` the rules' own error (out of range, occupied...).
        """
        state = self.game.initial_state()
        for ply, cell in enumerate(cells, start=1):
            try:
                state = self.game.result(state, cell)
            except IllegalMoveError as err:
                raise IllegalSequenceError(f"move {ply} (cell {cell + 1}) cannot be played: {err}", ply, cell) from err
        return state

    def winner(self, state: Any) -> Mark | Literal["draw"] | None:
        """``Mark.X`` or ``Mark.O`` when that side has won, ``"draw"`` when the game ended drawn, else ``None``."""
        if not self.game.terminal(state):
            return None
        utility = self.game.utility(state)
        return Mark.X if utility > 0 else Mark.O if utility < 0 else "draw"

    def choose(
        self,
        state: Any,
        difficulty: Difficulty = Difficulty.UNBEATABLE,
        *,
        budget_ms: float = 1000.0,
        rng: random.Random | None = None,
    ) -> EngineMove:
        """The bot's move at ``difficulty``: the engine always searches (so its count can be shown), then with
        probability ``difficulty.random_move_rate`` a uniformly random legal move replaces its choice, once
        the board holds ``random_from`` marks (counted as cells without a legal move: m,n,k boards only).

        Raises:
            GameOverError: the game in ``state`` is over.
        """
        rng = rng or random.Random()
        if self.levelled is not None:
            return self.levelled(state, difficulty, budget_ms, rng)
        chosen = self.best_move(state, budget_ms, rng)
        early = self.random_from and self.width * self.height - len(self.game.actions(state)) < self.random_from
        if not early and difficulty.random_move_rate and rng.random() < difficulty.random_move_rate:
            return replace(chosen, cell=rng.choice(self.game.actions(state)), random=True)
        return chosen

    def cell_name(self, cell: int) -> str:
        """The coordinate people see for 0-based ``cell``, e.g. ``"b3"``."""
        return cell_name(cell, self.width)


def _tictactoe_move(state: tictactoe.State, budget_ms: float, rng: random.Random | None) -> EngineMove:
    result = search(state, rng=rng)
    return EngineMove(result.move, result.states, value_for(state, tictactoe.player(state)), result.elapsed_ms)


def _mnk_player(game: TicTacToe) -> BestMove:
    def best_move(state: MnkState, budget_ms: float, rng: random.Random | None) -> EngineMove:
        decision = mnk_play.choose_move(game, state, rng)
        return EngineMove(decision.move, decision.states, decision.value, decision.elapsed_ms, decision.source)

    return best_move


def _ultimate_move(state: UltimateState, budget_ms: float, rng: random.Random | None, noise: float = 0.0) -> EngineMove:
    decision = ultimate_play.choose_move(state, budget_ms, noise, rng)
    value = decision.assessment.value
    return EngineMove(
        decision.move,
        decision.states,
        value,
        decision.elapsed_ms,
        depth=decision.depth,
        expected=decision.assessment.expected,
    )


def _ultimate_level(state: UltimateState, difficulty: Difficulty, budget_ms: float, rng: random.Random) -> EngineMove:
    level_budget, noise = ultimate_play.LEVELS[difficulty]
    return _ultimate_move(state, min(level_budget, budget_ms), rng, noise)


VARIANTS: Mapping[str, Variant] = {
    "3x3": Variant("3x3", 3, 3, tictactoe, _tictactoe_move, solved=True),
    "4x4": Variant("4x4", 4, 4, TIC_TAC_TOE_4X4, _mnk_player(TIC_TAC_TOE_4X4), solved=True),
    "5x5": Variant("5x5", 5, 5, TIC_TAC_TOE_5X5, _mnk_player(TIC_TAC_TOE_5X5), solved=True, random_from=4),
    "ultimate": Variant("ultimate", 9, 9, UltimateTicTacToe(), _ultimate_move, solved=False, levelled=_ultimate_level),
}
"""Every variant by name."""


def variant(name: object) -> Variant:
    """The variant called ``name``.

    Raises:
        UnknownVariantError: no variant has that name; the message lists the known ones.
    """
    found = VARIANTS.get(name) if isinstance(name, str) else None
    if found is None:
        raise UnknownVariantError(f"unknown variant {name!r}: choose one of {', '.join(VARIANTS)}")
    return found
