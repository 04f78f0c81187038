"""The games the engine plays, by name: every difference between them as data or a method of :class:`Variant`.

A variant is what a player picks: ``"3x3"`` (tic-tac-toe), ``"4x4"``, ``"5x5"`` (four in a row) and ``"ultimate"``.
As python-chess's ``VARIANTS`` and OpenSpiel's game types do, one value carries what a caller would otherwise ask the
name for: the rules (:class:`engine.protocol.Game`, so the textbook searches in :mod:`engine.minimax.reference` run
on any of them), the board's shape, how cells are named and parsed, the searches offered and whether they answer
inline, whether values are exact, the variant's player, hint (:class:`engine.hints.Hint`) and review
(:class:`engine.review.PlyReview`), its code in a component ``custom_id`` and the records' move format. Code above
the engine looks a variant up by name once (:func:`variant`) and never compares the name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from engine import hints
from engine.coordinates import cell_name, parse_cell
from engine.errors import IllegalMoveError, IllegalSequenceError, UnknownVariantError
from engine.hints import Hint
from engine.minimax.search import search
from engine.mnk import play as mnk_play
from engine.mnk.rules import TIC_TAC_TOE_4X4, TIC_TAC_TOE_5X5, MnkState, TicTacToe
from engine.protocol import Algorithm, Difficulty, EngineMove, Game, GameValue, Mark
from engine.review import REVIEW_BUDGET_MS, PlyReview, mnk_review, ultimate_review
from engine.review import review as tictactoe_review
from engine.tictactoe import rules as tictactoe
from engine.tictactoe.solver import value_for
from engine.ultimate import play as ultimate_play
from engine.ultimate.rules import UltimateState, UltimateTicTacToe

__all__ = ["SLOW_EMPTY_CELLS", "VARIANTS", "EngineMove", "Variant", "variant"]

SLOW_EMPTY_CELLS = 7
"""Plain minimax on 3x3 with at least this many empty cells evaluates tens of thousands of states or more
(549,945 from the empty board): tens of milliseconds to ~0.2 s."""


BestMove = Callable[[Any, float, "random.Random | None"], EngineMove]
"""``best_move(state, budget_ms, rng)``: the variant's player; ``rng`` breaks ties among equal moves."""

Levelled = Callable[[Any, Difficulty, float, random.Random], EngineMove]
"""``levelled(state, difficulty, budget_ms, rng)``: a variant's own way of playing a difficulty."""

Hinter = Callable[[Any], Hint]
"""``hinter(state)``: the variant's hint for the player to move (:mod:`engine.hints`)."""

Reviewer = Callable[[Sequence[int]], tuple[PlyReview, ...]]
"""``reviewer(moves)``: the variant's review of a game given as its cells (:mod:`engine.review`)."""


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
        algorithms: the searches a player may pick for the bot's full-strength move, the default first: 3x3
            offers alpha-beta and the counted plain minimax (:data:`engine.minimax.search.ALGORITHM_CONFIGS`); the
            others alpha-beta only (their own exact search or MCTS-Solver).
        inline: true when the bot's move is fast enough to answer in the interaction's callback, without a worker
            (3x3: well under a millisecond with alpha-beta; :meth:`slow` says when plain minimax is not).
        numbered: true when people see the cells as 1-based numbers (3x3's 1-9: :meth:`cell_label`) rather than
            coordinates; every board accepts both when parsing (:meth:`parse_cell`).
        block: the side of a small board when the board is a grid of small boards (ultimate: 3, a 3x3 grid of 3x3
            boards), else 0.
        code: the variant's code in a board button's ``custom_id`` (3x3: ``""``, its own format without a code;
            ``"4"``, ``"5"``; ``"u"``).
        by_reference: true when a board's ``custom_id`` names the game by id and version instead of carrying its
            moves (ultimate: 81 cells do not fit Discord's 100 characters).
        hinter: the variant's hint (:data:`Hinter`); see :meth:`hint`.
        hint_from: the marks on the board from which a hint is fast (5x5: 4, the opening book's plies; before that
            the exact analysis runs for minutes), else 0. A review labels the moves from that ply on.
        hint_budget_ms: the search budget of a hint, ms, for a variant whose hint is an estimate, else ``None``.
        reviewer: the variant's review (:data:`Reviewer`); see :meth:`review`.
        review_budget_ms: the search budget per reviewed move, ms, for a variant whose review is an estimate, else
            ``None``.
        value: ``value(state, mark)``, the position's exact value for ``mark`` where it takes microseconds, so every
            move of a game can be checked in a callback (3x3: :func:`engine.tictactoe.solver.value_for`), else
            ``None``.
    """

    name: str
    width: int
    height: int
    game: Game[Any]
    best_move: BestMove
    solved: bool
    random_from: int = 0
    levelled: Levelled | None = None
    algorithms: tuple[Algorithm, ...] = ("alpha-beta",)
    inline: bool = False
    numbered: bool = False
    block: int = 0
    code: str = ""
    by_reference: bool = False
    hinter: Hinter | None = None
    hint_from: int = 0
    hint_budget_ms: float | None = None
    reviewer: Reviewer | None = None
    review_budget_ms: float | None = None
    value: Callable[[Any, Mark], GameValue] | None = None

    @property
    def cells(self) -> int:
        """How many cells the whole board has (9, 16, 25, 81)."""
        return self.width * self.height

    @property
    def exact(self) -> bool:
        """True when the variant's values are exact (its hints, reviews and full-strength moves): ``solved``."""
        return self.solved

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
                raise IllegalSequenceError.at(ply, cell, err) from err
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

    def cell_label(self, cell: int) -> str:
        """How the board and its texts show 0-based ``cell``: its 1-based number on a :attr:`numbered` board
        (3x3: ``"5"``), else its coordinate (``"b3"``)."""
        return str(cell + 1) if self.numbered else self.cell_name(cell)

    def parse_cell(self, text: str) -> int:
        """The 0-based cell ``text`` names: a coordinate (``"b3"``, a1 the top left) or a 1-based number (``"7"``),
        on every board (:func:`engine.coordinates.parse_cell`).

        Raises:
            CellOutOfRangeError: ``text`` names no cell of this board; the message says what it accepts.
        """
        return parse_cell(text, self.width, self.height)

    def slow(self, state: Any, algorithm: Algorithm) -> bool:
        """True when an :attr:`inline` search in ``state`` with ``algorithm`` may take long enough (tens of ms or
        more) that an interaction should be deferred first: plain minimax, where offered, with at least
        :data:`SLOW_EMPTY_CELLS` empty cells. (A variant that is not inline is never searched in a callback.)"""
        if algorithm != "minimax" or algorithm not in self.algorithms:
            return False
        return len(self.game.actions(state)) >= SLOW_EMPTY_CELLS

    def hint(self, moves: Sequence[int]) -> Hint:
        """The hint for the player to move after ``moves`` (0-based cells from the initial state).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game.
            GameOverError: the game is over.
            ValueError: fewer than :attr:`hint_from` moves were played, or the variant has no hint.
        """
        if self.hinter is None:
            raise ValueError(f"{self.name}: no hint")
        if len(moves) < self.hint_from:
            raise ValueError(f"{self.name}: no hint before {self.hint_from} marks")
        return self.hinter(self.replay(moves))

    def review(self, moves: Sequence[int]) -> tuple[PlyReview, ...]:
        """Every move of a game (0-based cells from the initial state) valued and labelled, one :class:`PlyReview`
        per move from ply :attr:`hint_from` + 1 on (:mod:`engine.review`).

        Raises:
            IllegalSequenceError: ``moves`` are not a legal game (raised before any search).
            ValueError: the variant has no review.
        """
        if self.reviewer is None:
            raise ValueError(f"{self.name}: no review")
        return self.reviewer(tuple(moves))

    def moves_text(self, moves: Sequence[int]) -> str:
        """``moves`` as the records store them: one digit per cell on a board of at most 10 cells (3x3: ``"0412"``),
        else the cells separated by commas (``"0,15,3"``). :func:`moves_from_text` reads either back."""
        if self.cells <= 10:
            return "".join(map(str, moves))
        return ",".join(map(str, moves))

    def moves_from_text(self, text: str) -> tuple[int, ...]:
        """The moves stored as :meth:`moves_text` wrote them for a board of this size.

        Raises:
            ValueError: ``text`` is not digits (separated by commas on a board of more than 10 cells).
        """
        if not text:
            return ()
        if self.cells <= 10:
            return tuple(int(c) for c in text)
        return tuple(int(c) for c in text.split(","))


def _tictactoe_move(state: tictactoe.State, budget_ms: float, rng: random.Random | None) -> EngineMove:
    result = search(state, rng=rng)
    mover = tictactoe.player(state)
    return EngineMove(result.move, result.states, value_for(state, mover), result.elapsed_ms, mark=mover)


def _mnk_player(game: TicTacToe) -> BestMove:
    def best_move(state: MnkState, budget_ms: float, rng: random.Random | None) -> EngineMove:
        return mnk_play.choose_move(game, state, rng).as_move(game.player(state))

    return best_move


_ULTIMATE = UltimateTicTacToe()


def _ultimate_move(state: UltimateState, budget_ms: float, rng: random.Random | None, noise: float = 0.0) -> EngineMove:
    return ultimate_play.choose_move(state, budget_ms, noise, rng).as_move(_ULTIMATE.player(state))


def _ultimate_level(state: UltimateState, difficulty: Difficulty, budget_ms: float, rng: random.Random) -> EngineMove:
    level_budget, noise = ultimate_play.LEVELS[difficulty]
    return _ultimate_move(state, min(level_budget, budget_ms), rng, noise)


_5X5_EXACT_FROM = 4
"""5x5: the marks from which the exact analysis is fast (seconds at most, measured in docs/engine.md)."""

# fmt: off
VARIANTS: Mapping[str, Variant] = {
    "3x3": Variant(
        "3x3", 3, 3, tictactoe, _tictactoe_move, solved=True, algorithms=("alpha-beta", "minimax"), inline=True,
        numbered=True, hinter=hints.tictactoe_hint, reviewer=tictactoe_review, value=value_for,
    ),
    "4x4": Variant(
        "4x4", 4, 4, TIC_TAC_TOE_4X4, _mnk_player(TIC_TAC_TOE_4X4), solved=True, code="4",
        hinter=hints.mnk_hint(TIC_TAC_TOE_4X4), reviewer=mnk_review(TIC_TAC_TOE_4X4),
    ),
    "5x5": Variant(
        "5x5", 5, 5, TIC_TAC_TOE_5X5, _mnk_player(TIC_TAC_TOE_5X5), solved=True, random_from=4, code="5",
        hinter=hints.mnk_hint(TIC_TAC_TOE_5X5), hint_from=_5X5_EXACT_FROM,
        reviewer=mnk_review(TIC_TAC_TOE_5X5, _5X5_EXACT_FROM),
    ),
    "ultimate": Variant(
        "ultimate", 9, 9, _ULTIMATE, _ultimate_move, solved=False, levelled=_ultimate_level, block=3,
        code="u", by_reference=True, hinter=hints.ultimate_hint, hint_budget_ms=hints.HINT_BUDGET_MS,
        reviewer=ultimate_review, review_budget_ms=REVIEW_BUDGET_MS,
    ),
}
# fmt: on
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
