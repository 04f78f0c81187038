"""Levels 1-8 for every game, 8 the strongest, each with a rating measured in matches.

How a level plays (:data:`SPECS`): the weaker levels search less, so their mistakes are those of a player who
looks fewer moves ahead.

- **3x3, 4x4, 5x5, Connect Four**: every level first looks at what is on the board at once, as every player does: it
  plays a win in one (level 8 too: the fastest win), else it blocks the opponent's single immediate threat, which
  levels 1 and 2 notice only with the probability :attr:`LevelSpec.sees` (a beginner blocks an obvious three almost
  always). Otherwise levels 1-7 search with depth-limited alpha-beta and a heuristic evaluation at the cut-off
  (:func:`engine.mnk.horizon.horizon_search`, :func:`engine.connect_four.horizon.horizon_move`), some with Gaussian
  noise on the root moves' scores (a close second choice is then often played, a move seen to lose never), so
  what they miss are forks and slower threats beyond their depth. Level 8 plays perfectly: it finds every move
  that keeps the position's exact value (the variant's solver, or its opening book's one move) and, among several,
  plays the one a depth-limited search (:data:`TIE_BREAK_DEPTH`) rates best (Connect Four: the nearest the
  centre), so it presses a weaker opponent instead of drawing at random. It never loses.
- **Ultimate**: every level is the variant's MCTS-Solver (:func:`engine.ultimate.play.choose_move`). Levels 1-7
  search a budget of iterations (one rollout each), so they play the same with the same seed on any machine; the
  weaker ones also add noise to the expected scores of the most searched moves. Level 8 searches until its time
  budget is spent (:data:`TOP_BUDGET_MS` unless the caller gives one) or the result is proved; a position with a
  single legal move answers at once (:func:`engine.ultimate.tree.search`). No level is perfect on ultimate.

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
import time
from dataclasses import dataclass, replace
from importlib import resources
from typing import Any

from engine.connect_four import play as connect_four
from engine.connect_four.rules import ConnectFourState
from engine.errors import GameOverError
from engine.minimax.search import search
from engine.mnk import play as mnk_play
from engine.mnk.horizon import horizon_search
from engine.mnk.rules import MnkState, TicTacToe
from engine.mnk.solver import initial_threats
from engine.protocol import LEVELS, TOP_LEVEL, EngineMove, GameValue, Mark, Source
from engine.registry import variant
from engine.tictactoe.rules import State, player
from engine.tictactoe.solver import value_for
from engine.ultimate.play import choose_move as ultimate_choose
from engine.ultimate.rules import UltimateState

__all__ = [
    "LEVELS",
    "SPECS",
    "TIE_BREAK_DEPTH",
    "TOP",
    "TOP_BUDGET_MS",
    "Level",
    "LevelSpec",
    "choose_move",
    "ladder",
    "table",
]

TOP = TOP_LEVEL
"""The strongest level, the default (:data:`engine.protocol.TOP_LEVEL`)."""
TOP_BUDGET_MS = 1000.0
"""Ultimate: the wall-clock budget (ms) of a level that searches for its time (:attr:`LevelSpec.timed`) when the
caller gives none; the bot and ``engine serve`` give 1,000 ms by default too."""

TIC_TAC_TOE_3X3 = TicTacToe(3, 3, 3)
TIE_BREAK_DEPTH = {"3x3": 3, "4x4": 1, "5x5": 3}
"""Per solved variant: the depth of the search that chooses among level 8's equally good moves (the depth whose
search, without noise, won the most games against the references: docs/levels.md)."""


@dataclass(frozen=True, slots=True)
class LevelSpec:
    """How a level searches.

    Attributes:
        depth: plies of the depth-limited search (m,n,k games), or ``None`` for the variant's full-strength player.
        noise: the standard deviation, in evaluation points, of the Gaussian added to each root move's score
            before the pick (0: the best move, ties drawn at random).
        iterations: ultimate: the budget of MCTS iterations (one rollout each) of one move's search.
        timed: ultimate: no iteration budget; the search runs until the time budget is spent or the result is
            proved.
        sees: m,n,k games: the probability (0-1) that the level notices a single immediate threat of the
            opponent (a line one mark short with its last cell free) and blocks it before searching.
        The noise of an ultimate level is in expected score (0-1) instead of evaluation points.
    """

    depth: int | None = None
    noise: float = 0.0
    iterations: int | None = None
    timed: bool = False
    sees: float = 1.0

    @property
    def search(self) -> str:
        """The level's search in words, e.g. ``"alpha-beta to depth 2, noise 16"``."""
        if self.timed:
            text = "MCTS for its whole time budget"
        elif self.iterations is not None:
            text = f"MCTS of {self.iterations:,} iterations"
        elif self.depth is None:
            return "perfect play"
        else:
            text = f"alpha-beta to depth {self.depth}"
        text = f"{text}, noise {self.noise:g}" if self.noise else text
        return f"{text}, blocks {self.sees:.0%}" if self.sees < 1 else text


_3X3_SPECS = (  # measured: a depth-3 search without noise draws with level 8 in every game, so level 7 has noise
    LevelSpec(1, 128.0, sees=0.8),
    LevelSpec(1, 64.0, sees=0.93),
    LevelSpec(2, 64.0),
    LevelSpec(2, 16.0),
    LevelSpec(3, 16.0),
    LevelSpec(2, 4.0),
    LevelSpec(4, 4.0),
    LevelSpec(),
)
_4X4_SPECS = (  # measured: on 4x4 a one-ply search without noise presses hardest; deeper ones play safe and draw
    LevelSpec(1, 256.0, sees=0.8),
    LevelSpec(1, 128.0, sees=0.93),
    LevelSpec(1, 64.0),
    LevelSpec(1, 32.0),
    LevelSpec(1, 16.0),
    LevelSpec(1, 8.0),
    LevelSpec(1, 4.0),
    LevelSpec(),
)
_5X5_SPECS = (  # measured: on 5x5 each ply of depth wins games against the same references
    LevelSpec(1, 256.0, sees=0.8),
    LevelSpec(1, 64.0, sees=0.93),
    LevelSpec(1, 32.0),
    LevelSpec(2, 32.0),
    LevelSpec(2, 16.0),
    LevelSpec(3, 4.0),
    LevelSpec(3),
    LevelSpec(),
)

SPECS: dict[str, tuple[LevelSpec, ...]] = {
    "3x3": _3X3_SPECS,
    "4x4": _4X4_SPECS,
    "5x5": _5X5_SPECS,
    "ultimate": (
        LevelSpec(noise=0.2, iterations=50),
        LevelSpec(noise=0.1, iterations=200),
        LevelSpec(noise=0.05, iterations=600),
        LevelSpec(iterations=2_000),
        LevelSpec(iterations=6_000),
        LevelSpec(iterations=20_000),
        LevelSpec(iterations=60_000),
        LevelSpec(timed=True),
    ),
    "connect-four": (  # measured: depth 3 with noise 8 rated below depth 2 with noise 8 (docs/levels.md)
        LevelSpec(1, 128.0, sees=0.75),
        LevelSpec(1, 32.0, sees=0.9),
        LevelSpec(2, 32.0),
        LevelSpec(3, 8.0),
        LevelSpec(2, 2.0),
        LevelSpec(5, 2.0),
        LevelSpec(7),
        LevelSpec(),
    ),
}
"""Per variant, levels 1-8 in order."""


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


def ladder(name: str) -> tuple[Level, ...]:
    """Levels 1-8 of variant ``name`` (``"3x3"``, ``"connect-four"``...), weakest first.

    Raises:
        UnknownVariantError: no variant has that name.
    """
    variant(name)
    rows = table()["variants"][name]["levels"]
    return tuple(
        Level(row["level"], row["rating"], row["low"], row["high"], row["games"], SPECS[name][row["level"] - 1].search)
        for row in rows
    )


def _check_level(level: object) -> int:
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise ValueError(f"level {level!r} is not one of 1-8")
    return level


def choose_move(
    name: str,
    state: Any,
    level: int = TOP,
    *,
    rng: random.Random | None = None,
    budget_ms: float | None = None,
    cap_ms: float | None = None,
) -> EngineMove:
    """The move of ``level`` (1-8) in ``state`` of variant ``name`` (a state of that variant's rules).

    Deterministic given a seeded ``rng`` (it breaks ties and draws the noise), except ultimate's level 8. On ultimate,
    levels 1-7 search a budget of MCTS iterations, which ``budget_ms`` (wall-clock ms) caps too, as the bot does;
    level 8 searches for ``budget_ms`` (default :data:`TOP_BUDGET_MS`) or until it proves the result. Connect Four's
    level 8 solves until it proves the value, for at most its cap or ``budget_ms`` when longer
    (:func:`engine.connect_four.play.level_move`), else it is cut short. ``cap_ms`` (wall-clock ms; 3x3 ignores it)
    caps level 8's exact search of 4x4, 5x5 and Connect Four, which stops itself there, cut short: the move is then
    level 7's. ``states`` is the nodes the searches visited (0 for a book move; cut short, both searches');
    ``value`` is exact at level 8 of a solved game unless cut short, else ``None``.

    Raises:
        ValueError: ``level`` is not 1-8.
        UnknownVariantError: no variant has that name.
        GameOverError: the game in ``state`` is over.
    """
    game = variant(name)
    spec = SPECS[name][_check_level(level) - 1]
    rng = rng if rng is not None else random.Random()
    if isinstance(state, UltimateState):
        if spec.timed:
            cap = TOP_BUDGET_MS if budget_ms is None else budget_ms
        else:
            cap = math.inf if budget_ms is None else budget_ms
        decision = ultimate_choose(state, cap, spec.noise, rng, iterations=spec.iterations)
        return decision.as_move(game.game.player(state))
    if isinstance(state, ConnectFourState):
        return connect_four.level_move(state, spec.depth, spec.noise, spec.sees, rng, budget_ms, cap_ms)
    rules = game.game if isinstance(game.game, TicTacToe) else TIC_TAC_TOE_3X3
    position = MnkState(state.x, state.o) if isinstance(state, State) else state
    if spec.depth is None:
        move = _perfect(name, rules, state, position, rng, cap_ms)
        if move.cut_short:  # level 7's move, after the states the exact search evaluated
            fallback = choose_move(name, state, TOP - 1, rng=rng)
            elapsed_ms = move.elapsed_ms + fallback.elapsed_ms
            return replace(fallback, states=move.states + fallback.states, elapsed_ms=elapsed_ms, source="cut short")
        return move
    if rules.terminal(position):
        raise GameOverError("the game is over: there is no move to choose")
    started = time.perf_counter()
    seen = _seen_at_once(rules, position, spec, rng)
    if seen is not None:
        cell, examined = seen
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        return EngineMove(cell, examined, None, elapsed_ms, depth=1, mark=rules.player(position))
    found = horizon_search(rules, position, spec.depth, rng, spec.noise)
    return EngineMove(found.move, found.states, None, found.elapsed_ms, depth=spec.depth, mark=rules.player(position))


def _at_once(rules: TicTacToe, position: MnkState) -> tuple[int, int, int]:
    """``(wins, threats, free)`` masks: the cells that win at once for the side to move, those that would win at
    once for the opponent, and the empty cells."""
    me, opp = (position.x, position.o) if rules.player(position) is Mark.X else (position.o, position.x)
    free = rules.full ^ (me | opp)
    return initial_threats(rules, me) & free, initial_threats(rules, opp) & free, free


def _seen_at_once(rules: TicTacToe, position: MnkState, spec: LevelSpec, rng: random.Random) -> tuple[int, int] | None:
    """What every player sees before thinking further: ``(cell, cells examined)`` of a win in one (the first in
    natural order), else of the block of the opponent's single immediate threat when the level notices it
    (probability :attr:`LevelSpec.sees`), else ``None`` (the level searches). With two threats or more the game
    is lost in one whatever is played; the search then chooses as it would anyway."""
    wins, threats, free = _at_once(rules, position)
    if wins:
        return (wins & -wins).bit_length() - 1, free.bit_count()
    if threats.bit_count() == 1 and (spec.sees >= 1 or rng.random() < spec.sees):
        return threats.bit_length() - 1, free.bit_count()
    return None


def _perfect(
    name: str, rules: TicTacToe, state: Any, position: MnkState, rng: random.Random, cap_ms: float | None
) -> EngineMove:
    """Level 8 on a solved game: a move that keeps the exact value, the most pressing of them (see the module). On
    4x4 and 5x5 a win in one (the first in natural order) is played before any search: nothing evaluated, and the
    board says it wins at once; 3x3's search applies the same rule itself, counted, as its recorded tree shows.
    Cut short at ``cap_ms`` (``None``: no cap), it has no cell (-1) and the states the solver evaluated."""
    started = time.perf_counter()
    book_states: int | None = None
    wins = _at_once(rules, position)[0]
    if wins and not isinstance(state, State) and not rules.terminal(position):
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        first = (wins & -wins).bit_length() - 1  # the first in natural order, as every level plays it
        return EngineMove(first, 0, GameValue("win", 1), elapsed_ms, mark=rules.player(position))
    if isinstance(state, State):
        result = search(state)
        best, states = result.best_moves, result.states
        value: GameValue | None = value_for(state, player(state))
        source: Source = "search"
    else:
        decision = mnk_play.choose_move(rules, position, rng, cap_ms=cap_ms)
        if decision.source == "cut short":
            return EngineMove(-1, decision.states, None, decision.elapsed_ms, "cut short", mark=rules.player(position))
        best, states, value, source = decision.best_moves, decision.states, decision.value, decision.source
        book_states = decision.book_states
    if wins:  # the fastest win: the value is kept and the game ends now
        best = tuple(cell for cell in range(rules.cells) if wins >> cell & 1)
    move = best[0]
    if len(best) > 1:
        found = horizon_search(rules, position, TIE_BREAK_DEPTH[name], rng, moves=best)
        move, states = found.move, states + found.states
    elapsed_ms = (time.perf_counter() - started) * 1000.0
    return EngineMove(move, states, value, elapsed_ms, source, book_states=book_states, mark=rules.player(position))
