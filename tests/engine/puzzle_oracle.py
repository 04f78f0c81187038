"""An independent plain check of puzzles, written for the tests and the benchmark.

It shares no code with the provers (:mod:`engine.mnk.proof` and :mod:`engine.connect_four.proof` use
the exact solvers, and :mod:`engine.ultimate.proof` its own move code, bound and ordering): it plays moves
only through the games' public rules (``initial_state``, ``player``, ``actions``, ``result``, ``terminal``,
``utility``: AIMA's protocol) and searches every move in natural order, AND/OR to a fixed number of the solver's
moves, deepening one move at a time (short wins are found first), memoised per (state, moves left). Nothing else
prunes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.protocol import Mark


class PlainOracle:
    """Forced wins within ``k`` moves of the side to move, for any game of :class:`engine.protocol.Game`."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.memo: dict[tuple[Any, int], bool] = {}

    def move_wins(self, state: Any, move: int, k: int) -> bool:
        """The side to move playing ``move`` wins within ``k`` of its moves, whatever the defender does."""
        g = self.game
        mover = g.player(state)
        child = g.result(state, move)
        if g.terminal(child):
            return self.won(child, mover)
        if k <= 1:
            return False
        for reply in g.actions(child):
            after = g.result(child, reply)
            if g.terminal(after) or not self.wins(after, k - 1):
                return False
        return True

    def won(self, state: Any, mover: Mark) -> bool:
        """``mover`` has won the finished game in ``state`` (utility is +1 when X won, -1 when O did)."""
        return self.game.utility(state) == (1 if mover is Mark.X else -1)

    def replay(self, moves: Sequence[int]) -> Any:
        """The state after ``moves`` from the initial state."""
        state = self.game.initial_state()
        for move in moves:
            state = self.game.result(state, move)
        return state

    def wins(self, state: Any, k: int) -> bool:
        """The side to move wins within ``k`` of its moves (``k`` may be 0: never)."""
        if k <= 0:
            return False
        key = (state, k)
        if key not in self.memo:
            moves = self.game.actions(state)
            self.memo[key] = any(self.move_wins(state, m, j) for j in range(1, k + 1) for m in moves)
        return self.memo[key]

    def check(self, moves: Sequence[int], solution: Sequence[int], replies: Sequence[int]) -> None:
        """Check a puzzle (0-based cells): at every solver turn the solution move is the only move winning in the
        moves left and there is no faster win; every reply holds out longest; the last move wins.

        Raises:
            AssertionError: the puzzle is wrong (the message says where).
        """
        g = self.game
        state = self.replay(moves)
        n = len(solution)
        assert len(replies) == n - 1, "one reply fewer than solver moves"
        for i, cell in enumerate(solution):
            k = n - i
            assert not self.wins(state, k - 1), f"move {i + 1}: a win in fewer than {k}"
            winners = [m for m in g.actions(state) if self.move_wins(state, m, k)]
            assert winners == [cell], f"move {i + 1}: the winning moves are {winners}, not only {cell}"
            mover = g.player(state)
            state = g.result(state, cell)
            if i == n - 1:
                assert g.terminal(state) and self.won(state, mover), "the last move does not win"
                return
            assert replies[i] in g.actions(state), f"reply {i + 1} is illegal"
            state = g.result(state, replies[i])
            assert not self.wins(state, k - 2), f"reply {i + 1} loses sooner than another"
