"""Why the service refuses an intent: English message ids (gettext msgids) with ``str.format`` placeholders, and
the refusals every part of the service gives (a busy channel, a stale board, a cell that cannot be played).

The Discord layer translates them by the interaction's locale and fills in the values.
"""

from __future__ import annotations

from bot.games.answers import Refusal
from bot.games.match import Match
from bot.i18n import N_
from engine import CellOutOfRangeError

NO_GAME = N_("No game is running in this channel — start one with /ttt start.")
NOT_YOUR_GAME = N_("This isn't your game — start your own with /ttt start.")
NOT_YOUR_TURN = N_("Not your turn.")
CELL_TAKEN = N_("That cell is taken — pick an empty one.")
GAME_OVER = N_("This game is over.")
BOARD_CHANGED = N_("The board changed before your move arrived — look again and retry.")
STALE_BOARD = N_("This board is out of date — use the latest one: {link}")
BUSY_GAME = N_("A game is already running in this channel: {link} — one game per channel.")
BUSY_CHALLENGE = N_("A challenge is waiting for an answer in this channel: {link} — one game per channel.")
BUSY_UNPLACED = N_("A game is already running in this channel — /ttt board shows it. One game per channel.")
"""A game or challenge runs in the channel but the message of its board is not known (being posted, or after a
restart)."""
SELF_CHALLENGE = N_("You can't challenge yourself — leave `opponent` empty to play me.")
BOT_CHALLENGE = N_("Bots can't accept challenges — leave `opponent` empty to play me.")
NOT_CHALLENGED = N_("Only {user} can answer this challenge — start your own game with /ttt start.")
CHALLENGE_CLOSED = N_("This challenge is no longer open.")
NO_HISTORY = N_(
    "I restarted and can't read this conversation's history to find the board. "
    "Press a button on the latest board, or start a new game with /ttt start."
)
BOARD_MISMATCH = N_(
    "This board doesn't match the game I saved (its players, options or moves) — /ttt board shows the saved game."
)
UNSAVED_MOVES = N_("This board shows moves I never saved, so it can't go on from here — the saved game: {link}")
"""After a restart: a board showing moves after those of the stored game. Values: ``link`` (a board showing the
stored game)."""
UNVERIFIED = N_(
    "I can't check this board against a game I saved, so I can't act on it — start a new game with /ttt start."
)
ELSEWHERE = N_("This board's game is played in another channel — use its own board there.")
"""A press or a look whose game the bot holds or stored in another channel than the press's (a button's ``custom_id``
carried to a message elsewhere): nothing changes."""
RECORDS_DOWN = N_("The records database is unavailable right now — games go on and are recorded later. Try again soon.")
NOT_SAVED = N_("Sorry, something went wrong on my side. The game is unchanged; /ttt board shows it.")
MINIMAX_TOO_SLOW = N_(
    "Plain minimax can't finish on {variant} in time for a reply: it would evaluate about {states} states. "
    "Choose alpha-beta (the default)."
)
"""Values: ``variant`` (its name, e.g. ``"4x4"``), ``states`` (int: Knuth's estimate of the states plain minimax
evaluates from the empty board, :func:`engine.estimate.minimax_states_estimate`)."""
NO_SUCH_CELL = N_("There is no such cell on this board: cells go from {first} to {last}.")
"""Values: ``first``, ``last`` (str: the first and last coordinates, e.g. ``"a1"``, ``"d4"``)."""
NO_SUCH_COLUMN = N_("There is no such column on this board: columns go from {first} to {last}.")
"""A game played by column (:meth:`engine.Variant.columns`). Values: ``first``, ``last`` (str: the first and last
columns as the board names them, e.g. ``"1"``, ``"7"``)."""
COLUMN_FULL = N_("That column is full — pick another one.")
"""A game played by column: the column's cells all hold a disc."""
NOT_A_MOVE = N_("{typed} is not a move on this board: choose {named}, or {other}.")
"""``/ttt move`` with a text that names no cell (or column) of the game's board. Values: ``typed`` (str: the text, as
typed: the Discord layer escapes and shortens it), ``named``, ``other`` (str: the ranges the game reads, the board's
own names first, :meth:`engine.Variant.typed_ranges`: ``"1-9"`` and ``"a1-c3"``, ``"1-7"`` and ``"a-g"``)."""
WRONG_BOARD = N_("You must play in the small board {board}.")
"""Ultimate: the cell is free but in another small board than the one the last move sent the player to. Values:
``board`` (str: the small board to play in by the cells it covers, e.g. ``"d4-f6"``)."""
CLOSED_BOARD = N_("That small board is already decided — play in an open one.")
"""Ultimate: the cell's small board is won or full (the player may play anywhere else)."""
BOT_THINKING = N_("I'm still thinking about my move — wait for it to appear on the board.")
"""A press, a move or a hint while the bot's search runs (``Match.thinking``)."""
SEARCH_BUSY = N_("I'm thinking about too many games at once right now — try your move again in a few seconds.")
"""The search pool's queue is full even for a short search: the move was not made (nothing changed)."""
NO_THINKING = N_("There is no search of mine to show on this board: it was not my move, or the game moved on.")
"""A "How did it think?" press whose board is not a position of the game held (a forged or stale button), or whose last
move was not the bot's."""
NOT_REPLAYABLE = N_(
    "I can't show how I thought here: my search in this position can't be recomputed and drawn. "
    "The button appears only where it can."
)
"""A "How did it think?" press (a stale or forged one: the button is shown only there) in a position whose search cannot
be recomputed (:meth:`engine.Variant.explains`). Names no game: which positions can be drawn is the game's answer."""
NO_HINT = N_("Hints aren't available for this game.")
"""A hint asked for a variant whose engine gives none."""
NO_HINT = N_("This game has no hint for this position: its engine gives no analysis of it.")
HINT_TOO_EARLY = N_("In this position hints start after {marks} moves: before that the exact analysis takes too long.")
"""A position before the marks from which its game's hint is fast (:meth:`engine.Variant.hint_marks`; 5x5: 4, 15 s
before that). Said in moves, which every game has (a game played by column has discs, not marks). Values: ``marks``
(int: the moves played from which hints start)."""


def busy(running: Match) -> Refusal:
    """A game or a challenge already runs in the channel: ``running``, linked to."""
    key = BUSY_CHALLENGE if running.status == "challenge" else BUSY_GAME
    return Refusal(key, {"link": running.jump_url})


def stale(game: Match) -> Refusal:
    """The pressed board is not ``game``'s current board: linked to."""
    return Refusal(STALE_BOARD, {"link": game.jump_url})


def changed(game: Match, board: Match) -> Refusal:
    """The pressed ``board`` shows ``game`` at another position: an earlier one on the same message (the board
    changed under the press), or another board."""
    newer = len(board.moves) < len(game.moves) and game.moves[: len(board.moves)] == board.moves
    return Refusal(BOARD_CHANGED) if newer and game.message_id == board.message_id else stale(game)


def typed_cell(game: Match | None, text: str) -> int | Refusal:
    """The 0-based cell ``text`` names on ``game``'s board (:meth:`engine.Variant.parse_cell`; a column's top cell on a
    game played by column), or ``NOT_A_MOVE`` for any other text; ``-1`` without a game (the move is then refused as
    any other). Every typed move is read here: ``/ttt move`` and the console."""
    if game is None:
        return -1
    try:
        return game.kind.parse_cell(text)
    except CellOutOfRangeError:
        named, other = game.kind.typed_ranges()
        return Refusal(NOT_A_MOVE, {"typed": text, "named": named, "other": other})


def cell_refusal(game: Match, cell: int) -> Refusal | None:
    """Why the player to move cannot play ``cell`` (0-based; on a game played by column, the cell its disc falls to:
    :meth:`engine.Variant.move_at`) in running ``game``, or ``None`` when it is legal: ``NO_SUCH_CELL`` (off the
    board), ``CELL_TAKEN``, on a game played by column ``NO_SUCH_COLUMN`` and ``COLUMN_FULL``, and on ultimate
    ``WRONG_BOARD`` (the last move sent the player to another small board) or ``CLOSED_BOARD`` (the cell's small
    board is decided)."""
    kind, state = game.kind, game.state
    if cell in kind.game.actions(state):
        return None
    if columns := kind.columns(state):
        if not 0 <= cell < kind.cells:
            return Refusal(NO_SUCH_COLUMN, {"first": kind.cell_label(0), "last": kind.cell_label(kind.cells - 1)})
        if columns[cell % kind.width] is None:
            return Refusal(COLUMN_FULL)
    if not 0 <= cell < kind.cells:
        return Refusal(NO_SUCH_CELL, {"first": kind.cell_name(0), "last": kind.cell_name(kind.cells - 1)})
    if kind.mark(state, cell) is not None:
        return Refusal(CELL_TAKEN)
    forced = kind.forced_block(state)
    if forced is not None:
        return Refusal(WRONG_BOARD, {"board": kind.block_name(forced)})
    return Refusal(CLOSED_BOARD)
