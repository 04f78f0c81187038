"""What a pressed board proves: checked against the game the bot stored, or, when nothing is stored, by itself.

A board's ``custom_id`` comes back through the client, so every field of it may be forged. After a restart:

- **A stored game** decides. The board must show the stored game's id, players and options, and its moves
  must be the stored moves (with the stored states count) or a prefix of them; the stored game is what resumes.
- **Nothing stored** (a DM after the database was lost, or a game whose first write a crash lost): the board
  is resumed only when it proves, by itself, that nobody can gain a record from it (:func:`proven`) and its
  states count is the one the bot's own searches give for its moves (:func:`states_of`), which needs a game whose
  counts are reproducible (:meth:`engine.Variant.counts_reproducible`). Such a game is never recorded.
"""

from __future__ import annotations

from bot.games.live import same_setup
from bot.games.match import Algorithm, Match
from engine import TOP_LEVEL, Mark, Variant

__all__ = ["extends", "matches", "proven", "states_of"]


def matches(board: Match, game: Match) -> bool:
    """True when ``board`` shows ``game`` (:func:`~bot.games.live.same_setup`) at its position or an earlier one,
    with the bot's own states count when the positions are the same."""
    if not same_setup(board, game) or game.moves[: len(board.moves)] != board.moves:
        return False
    return board.moves != game.moves or board.ai_states == game.ai_states


def extends(board: Match, stored: Match) -> bool:
    """True when ``board`` shows ``stored`` with moves after the stored ones (moves a crash kept from the store)."""
    return same_setup(board, stored) and board.moves[: len(stored.moves)] == stored.moves and board.ply > stored.ply


def proven(board: Match, user_id: int) -> bool:
    """True when ``board`` may be resumed with nothing stored to check it against, for ``user_id``: the game is
    against the bot, ``user_id`` is its one person, it is still running, and every move the board gives the bot
    keeps the bot's game-theoretic value (a move its unbeatable search could have played; AIMA §5.2), so the
    position is one the bot has not lost. The moves' legality is the codec's check.

    Only a board whose game gives exact values in microseconds (:meth:`engine.Variant.value`: 3x3) and counts its
    searches the same every time (:meth:`engine.Variant.counts_reproducible`, for the board's algorithm; its count is
    then checked with :func:`states_of`) can prove itself; any other board never does: after a restart with nothing
    stored it is refused (``UNVERIFIED``)."""
    kind, bot = board.kind, board.bot_mark
    value, rules = kind.value, kind.game
    state = rules.initial_state()
    if bot is None or value(state, bot) is None or board.mark_of(user_id) is not bot.other or board.over:
        return False
    if not kind.counts_reproducible(board.algorithm):
        return False
    for cell in board.moves:
        before = state
        state = rules.result(state, cell)
        if rules.terminal(before):
            return False
        now, then = value(state, bot), value(before, bot)
        if rules.player(before) is bot and (now is None or then is None or now.result != then.result):
            return False
    return True


def states_of(kind: Variant, moves: tuple[int, ...], bot: Mark, algorithm: Algorithm) -> int:
    """The states the bot's searches evaluate over a game of ``kind`` with ``moves`` where it plays ``bot`` at the top
    level with ``algorithm``: the sum of one search per bot move, from the position before it. Where the game's count
    depends on the position and the configuration only (:meth:`engine.Variant.counts_reproducible`; its random choice
    comes after), this is the count the bot showed while playing. Runs in an executor (3x3's plain minimax from the
    empty board is 549,945 states)."""
    rules = kind.game
    state = rules.initial_state()
    total = 0
    for cell in moves:
        if rules.player(state) is bot:
            total += kind.play(state, TOP_LEVEL, algorithm=algorithm).states
        state = rules.result(state, cell)
    return total
