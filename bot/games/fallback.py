"""The bot's move when its search failed twice in the worker pool: cheap, bounded, computed in the bot's own
process (in a thread of the loop's default executor, see :meth:`bot.games.ai.AI.fallback_move`).

- **Ultimate**: the level's own search with a budget of :data:`FALLBACK_BUDGET_MS` (its first iteration, at most
  81 states, always completes).
- **4x4 and 5x5**, levels 1-7: the level's own depth-limited search (at most 3 plies: cheap).
- **4x4 and 5x5**, level 8: the exact solver is not run here: it is usually instant but may take seconds on 5x5 outside
  the opening book and cannot be stopped, and its C kernel is what may have killed the worker (a crash there
  would take the whole bot down). The book's move where the position is in it (so the game stays in
  the book's cover and the next search stays short); otherwise a one-ply tactical choice: complete a line of the
  bot's own, else block one of the player's, else take the free cell whose open lines weigh most.

The move is marked as a shorter search than usual (``reduced``), which the board says.
"""

from __future__ import annotations

import random
import time
from dataclasses import replace

from bot.games.moves import move_with
from engine import GameOverError, Mark
from engine.mnk import MnkState, TicTacToe
from engine.mnk_book import book_for
from engine.mnk_play import game_value
from engine.players import EngineMove
from engine.variants import Variant
from engine.variants import variant as variant_named

__all__ = ["FALLBACK_BUDGET_MS", "fallback_move", "quick_rules", "tactical_cell"]

FALLBACK_BUDGET_MS = 50.0
"""The fallback search's budget on ultimate, ms."""

_WIN, _BLOCK, _BUILD = 2, 1, 0  # a cell's rank in tactical_cell, best first


def fallback_move(variant: str, moves: tuple[int, ...], level: int, seed: int) -> EngineMove:
    """The bot's move after ``moves`` on ``variant`` at ``level``, chosen cheaply (see the module): within
    about :data:`FALLBACK_BUDGET_MS` on ultimate, under a millisecond on 4x4 and 5x5. ``seed`` draws its random
    choices. Runs in the bot's process, in a thread.

    Raises:
        UnknownVariantError: no such variant.
        IllegalSequenceError: ``moves`` are not a legal game.
        GameOverError: the game after ``moves`` is over.
    """
    return move_with(quick_rules(variant), moves, level, FALLBACK_BUDGET_MS, seed)


def quick_rules(variant: str) -> Variant:
    """``variant`` with a player that never runs the exact solver (m,n,k boards; see the module), else as it is.

    Raises:
        UnknownVariantError: no such variant.
    """
    rules = variant_named(variant)
    if not isinstance(rules.game, TicTacToe):
        return rules
    game = rules.game
    book = book_for(game)

    def quick_move(state: MnkState, budget_ms: float, rng: random.Random | None) -> EngineMove:
        started = time.perf_counter()
        entry = book.lookup(state) if book is not None and not game.terminal(state) else None
        if entry is not None:
            cell, score, states = entry
            value = game_value(score, game.cells, state.marks)
            elapsed_ms = (time.perf_counter() - started) * 1000.0
            return EngineMove(cell, states, value, elapsed_ms, source="book", mark=game.player(state))
        cell, states = tactical_cell(game, state, rng or random.Random())
        return EngineMove(cell, states, None, (time.perf_counter() - started) * 1000.0, mark=game.player(state))

    return replace(rules, best_move=quick_move)


def tactical_cell(game: TicTacToe, state: MnkState, rng: random.Random) -> tuple[int, int]:
    """A one-ply choice for the side to move on an m,n,k board, and the cells it weighed (its states).

    A cell that completes a line of the mover's wins; else one that completes a line of the opponent's is
    blocked; else the cell whose lines still open to a side weigh most (``4 ** marks`` of that side in each),
    ties drawn with ``rng``.

    Raises:
        GameOverError: the game in ``state`` is over.
    """
    free = game.actions(state)
    if not free:
        raise GameOverError("the game is over: there is no move to choose")
    mine, theirs = (state.x, state.o) if game.player(state) is Mark.X else (state.o, state.x)
    ranked: dict[tuple[int, int], list[int]] = {}
    for cell in free:
        rank, weight = _BUILD, 0
        for line in game.lines_through[cell]:
            own, other = (line & mine).bit_count(), (line & theirs).bit_count()
            if other == 0:
                rank = max(rank, _WIN if own == game.k - 1 else _BUILD)
                weight += 4**own
            if own == 0:
                rank = max(rank, _BLOCK if other == game.k - 1 else _BUILD)
                weight += 4**other
        ranked.setdefault((rank, weight), []).append(cell)
    return rng.choice(ranked[max(ranked)]), len(free)
