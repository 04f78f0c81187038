"""Rules the service applies on every variant: why a cell cannot be played, and what a :class:`BoardRef` shows."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.games import refusals
from bot.games.answers import Refusal
from bot.games.game import BoardRef, Game, initial_for
from engine.variants import VARIANTS

__all__ = ["cell_refusal", "occupied", "ref_view", "truncated", "unresolved"]


def occupied(state: Any, cell: int) -> bool:
    """True when ``cell`` holds a mark in ``state`` (a state indexable by cell, or a pair of masks ``x``, ``o``)."""
    getitem = getattr(state, "__getitem__", None)
    if getitem is not None:
        return getitem(cell) is not None
    return bool((state.x | state.o) >> cell & 1)


def cell_refusal(game: Game, cell: int) -> Refusal | None:
    """Why the player to move cannot play ``cell`` (0-based) in running ``game``, or ``None`` when it is legal:
    ``NO_SUCH_CELL`` (off the board), ``CELL_TAKEN``, and on ultimate ``WRONG_BOARD`` (the last move sent the
    player to another small board) or ``CLOSED_BOARD`` (the cell's small board is decided)."""
    if cell in game.rules.actions(game.state):
        return None
    board = VARIANTS[game.variant]
    if not 0 <= cell < game.cells:
        last = board.cell_name(game.cells - 1)
        return Refusal(refusals.NO_SUCH_CELL, {"first": board.cell_name(0), "last": last})
    if occupied(game.state, cell):
        return Refusal(refusals.CELL_TAKEN)
    forced = getattr(game.state, "forced_board", None)
    if forced is not None:
        return Refusal(refusals.WRONG_BOARD, {"board": forced})
    return Refusal(refusals.CLOSED_BOARD)


def truncated(game: Game, version: int) -> Game:
    """``game`` as it stood after its first ``version`` moves (a board shown before the last moves)."""
    moves = game.moves[:version]
    return replace(
        game,
        moves=moves,
        state=VARIANTS[game.variant].replay(moves),
        status="playing",
        end_reason=None,
        resigned=None,
        last_ai=None,
    )


def ref_view(ref: BoardRef, game: Game) -> Game | Refusal:
    """The board ``ref`` shows, from the game the bot holds or stored: ``game`` itself, or its position at the
    ref's version, on the ref's message. A version beyond the game's moves was never shown: ``BOARD_MISMATCH``."""
    if ref.variant != game.variant or ref.version > game.ply:
        return Refusal(refusals.BOARD_MISMATCH)
    view = game if ref.version == game.ply else truncated(game, ref.version)
    view = view.at(ref.message_id)
    return view.end("abandoned") if ref.over and not view.over else view


def unresolved(ref: BoardRef) -> Game:
    """A board of a game the bot neither holds nor stored, as an ended game with no players: it shows where a board
    was, and resumes nothing."""
    return Game(
        game_id=ref.game_id,
        channel_id=ref.channel_id,
        x_id=None,
        o_id=None,
        guild_id=ref.guild_id,
        message_id=ref.message_id,
        status="over",
        end_reason="abandoned",
        variant=ref.variant,
        state=initial_for(ref.variant),
    )
