"""The puzzle service, beside the game service: ``/ttt puzzle`` and the presses on a puzzle's board, decided and
stored without Discord. It takes intents (start a puzzle, press a button) and returns answers: a refusal (a message
id and its values) or the puzzle as it stands now (:class:`PuzzleShown`); the Discord layer shows them
(:mod:`bot.ui.puzzles`).

Only the player who asked may move; every press is checked against the running puzzle stored in the records database
(a button's ``custom_id`` only names it), under a lock per puzzle, so a puzzle survives a restart and a forged or
stale id changes nothing. A right move gets the stored defence; a move that also wins, only slower, is told so and
the player tries again, the attempt unrated from then on (lichess accepts any mate in one); a wrong one ends the
attempt with the engine's refutation and the solution; the first attempt at a puzzle rates the player and the puzzle.
"""

from __future__ import annotations

import asyncio
import datetime
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.puzzles.messages import (
    DAILY,
    DAILY_DONE,
    DAILY_FAILED,
    DAILY_OPEN,
    DAILY_SOLVED,
    ILLEGAL,
    NOT_YOURS,
    OVER,
    RATED,
    RECORDS_DOWN,
    REFUTED,
    RIGHT,
    SLOWER,
    SOLUTION,
    SOLVED,
    STALE,
    UNRATED,
    UNRATED_SLOWER,
    WRONG,
    Term,
)
from bot.puzzles.play import choose, daily, judge, position
from bot.records import PuzzleStore, RecordsUnavailableError
from bot.records.puzzle_values import Run, by_id
from engine import variant as variant_named

__all__ = ["REFUTE_BUDGET_MS", "Line", "PuzzleAnswer", "PuzzleRefusal", "PuzzleService", "PuzzleShown"]

REFUTE_BUDGET_MS = 300.0
"""The engine's budget for the answer that refutes a wrong move."""

Line = tuple[str, Mapping[str, Any]]
"""A line of a puzzle's message: a message id (:mod:`bot.puzzles.messages`) and its values."""


@dataclass(frozen=True, slots=True)
class PuzzleRefusal:
    """The intent was refused and nothing changed: message id ``key`` (:mod:`bot.puzzles.messages`) with ``values``,
    shown privately."""

    key: str
    values: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PuzzleShown:
    """The puzzle ``run`` as it stands after a start or a press: ``progress`` plies of its line shown, the puzzle's
    ``rating``, the ``lines`` saying what happened, ``live`` while the player may still move, and ``picture`` when
    the board's picture changed (a change of the small-board pad alone keeps it)."""

    run: Run
    progress: int
    rating: float
    lines: tuple[Line, ...] = ()
    live: bool = True
    picture: bool = True


PuzzleAnswer = PuzzleRefusal | PuzzleShown


class PuzzleService:
    """Puzzles in the records database ``store``; ``rng`` draws a puzzle among the nearest to a player's rating,
    ``today`` says which day's daily puzzle is played (UTC)."""

    def __init__(
        self,
        store: PuzzleStore,
        rng: random.Random | None = None,
        today: Callable[[], datetime.date] = lambda: datetime.datetime.now(datetime.UTC).date(),
    ) -> None:
        self.store = store
        self._rng = rng or random.Random()
        self._today = today
        self._locks: dict[int, asyncio.Lock] = {}

    async def start(self, user_id: int, guild_id: int | None, variant: str, *, is_daily: bool) -> PuzzleAnswer:
        """A puzzle of ``variant`` for ``user_id``: near their puzzle rating, or the server's daily one (one try per
        player, place and day: a second is refused with the first one's result, or as still open)."""
        try:
            return await self._start(user_id, guild_id, variant, is_daily)
        except RecordsUnavailableError:
            return PuzzleRefusal(RECORDS_DOWN)

    async def press(self, user_id: int, run_id: int, ply: int, key: str) -> PuzzleAnswer:
        """A press on puzzle ``run_id``'s button ``key`` (a cell, ``b<board>`` or ``k``) drawn at ``ply``: refused
        unless it is the owner's, on the puzzle's current move; decided and stored under the puzzle's lock."""
        try:
            async with self._locks.setdefault(run_id, asyncio.Lock()):
                return await self._decide(user_id, run_id, ply, key)
        except RecordsUnavailableError:
            return PuzzleRefusal(RECORDS_DOWN)

    async def _start(self, user_id: int, guild_id: int | None, name: str, is_daily: bool) -> PuzzleAnswer:
        day = self._today().isoformat()
        lines: list[Line] = []
        solvers = 0
        if is_daily:
            puzzle = daily(name, self._today(), guild_id)
            solvers = await self.store.daily_solvers(guild_id, day, puzzle.id)
            lines.append((DAILY, {"day": day, "solvers": solvers}))
        ratings = await self.store.puzzle_ratings(name)
        if not is_daily:
            player = await self.store.player(user_id, name)
            puzzle = choose(name, player.rating, await self.store.attempted(user_id, name), ratings, self._rng)
        rating = ratings[puzzle.id].rating if puzzle.id in ratings else puzzle.rating
        run = await self.store.start(Run(0, user_id, guild_id, name, puzzle.id, daily=day if is_daily else None))
        if run is None:  # the player's daily try is taken (finished, still open, or asked at the same instant)
            done = await self.store.daily_result(user_id, guild_id, day, puzzle.id)
            if done is None:
                return PuzzleRefusal(DAILY_OPEN)
            result = Term(DAILY_SOLVED if done else DAILY_FAILED)
            return PuzzleRefusal(DAILY_DONE, {"result": result, "solvers": solvers})
        return PuzzleShown(run, 0, rating, tuple(lines))

    async def _decide(self, user_id: int, run_id: int, ply: int, key: str) -> PuzzleAnswer:
        run = await self.store.run(run_id)
        if run is None or run.puzzle_id not in by_id(run.variant):  # over, or no longer in the shipped set
            self._locks.pop(run_id, None)
            return PuzzleRefusal(OVER)
        if run.user_id != user_id:
            return PuzzleRefusal(NOT_YOURS, {"owner": f"<@{run.user_id}>"})
        if ply != run.progress:
            return PuzzleRefusal(STALE)
        puzzle = run.puzzle
        rules = variant_named(puzzle.variant)
        rated_now = (await self.store.puzzle_ratings(puzzle.variant)).get(puzzle.id)
        rating = rated_now.rating if rated_now else puzzle.rating
        if key == "k" or key.startswith("b"):
            board = -1 if key == "k" else int(key[1:])
            if board >= 0 and board not in rules.open_blocks(position(puzzle, ply)):
                return PuzzleRefusal(ILLEGAL)
            run = replace(run, progress=ply, pad=board)
            await self.store.advance(run)
            return PuzzleShown(run, ply, rating, picture=False)
        cell = int(key)
        try:
            verdict = await asyncio.to_thread(judge, puzzle, ply, cell, _refute(puzzle.variant))
        except ValueError:
            return PuzzleRefusal(ILLEGAL)
        name = rules.cell_label(cell)
        if verdict.outcome == "slower":  # a win, only slower: the player may try again, unrated from now on
            run = replace(run, rated=False)
            await self.store.advance(run)
            slower = (SLOWER, {"cell": name, "slower": verdict.wins_in, "n": puzzle.win_in - ply // 2})
            return PuzzleShown(run, ply, rating, (slower,), picture=False)
        if verdict.outcome == "right":
            assert verdict.reply is not None
            run = replace(run, progress=ply + 2, pad=-1)
            await self.store.advance(run)
            right = (RIGHT, {"cell": name, "reply": rules.cell_label(verdict.reply)})
            return PuzzleShown(run, ply + 2, rating, (right,))
        solved = verdict.outcome == "solved"
        attempt = await self.store.finish(run, solved)
        self._locks.pop(run_id, None)
        if attempt is None:
            return PuzzleRefusal(OVER)
        before, after = attempt
        lines: list[Line]
        if solved:
            lines, shown = [(SOLVED, {"cell": name})], len(puzzle.line)
        else:
            if verdict.reply is not None:
                lines = [(REFUTED, {"cell": name, "reply": rules.cell_label(verdict.reply)})]
            else:
                lines = [(WRONG, {"cell": name})]
            lines.append((SOLUTION, {"line": " ".join(rules.cell_label(c) for c in puzzle.line[ply:])}))
            shown = ply
        if after is not None:
            lines.append((RATED, {"before": round(before.rating), "after": round(after.rating)}))
        else:
            lines.append((UNRATED if run.rated else UNRATED_SLOWER, {}))
        return PuzzleShown(run, shown, rating, tuple(lines), live=False)


def _refute(name: str) -> Callable[[Any], int]:
    """The engine's answer to a wrong move in a puzzle of variant ``name`` (a search of :data:`REFUTE_BUDGET_MS`)."""
    rules = variant_named(name)

    def refute(state: Any) -> int:
        return rules.play(state, budget_ms=REFUTE_BUDGET_MS, rng=random.Random(0)).cell

    return refute
