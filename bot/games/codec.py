"""A game written into a component ``custom_id`` and read back, so boards keep working after a restart.

Format (fields separated by ``:``)::

    ttt:<kind>:<game id>:<moves>:<options>:<X player>:<O player>:<states>

- ``kind``: ``0``-``8`` for a cell button, ``r`` for Resign, ``n`` for Rematch (a new game).
- ``game id``: a base-36 snowflake, 1-13 characters (:func:`bot.games.game.new_game_id`).
- ``moves``: the cells played so far (``0``-``8``), in order: the position, its ply and the game's
  history in at most nine characters. Two boards of one game compare by it: the longer is newer.
- ``options``: the bot's level (``1``-``8``), algorithm (``a`` alpha-beta, ``m`` minimax) and board
  mode (``b`` buttons, ``t`` text). Boards posted before the levels carry a difficulty there (``e``/``m``/``u``),
  read as its level (:data:`bot.records.LEVEL_OF_DIFFICULTY`: easy 2, medium 5, unbeatable 8).
- players: a user id (snowflake, up to 20 digits) or ``b`` for the bot.
- ``states``: the states the bot has evaluated in this game so far, in base 36.

The longest id is 82 characters, within Discord's limit of 100. Challenge prompts use
``ttt:a:<game id>:<user>`` (Accept) and ``ttt:d:...`` (Decline).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final, Literal

from bot.games.game import Algorithm, Game, Mode, to_base36
from bot.games.vocabulary import LEVEL_OF_DIFFICULTY, LEVELS
from engine import Difficulty, IllegalMoveError, initial_state, result, terminal, winner

__all__ = [
    "ANSWER_TEMPLATE",
    "CELL_TEMPLATE",
    "LEVEL_CODE",
    "MAX_CUSTOM_ID",
    "REMATCH_TEMPLATE",
    "RESIGN_TEMPLATE",
    "CodecError",
    "Kind",
    "decode",
    "encode",
    "from_match",
    "is_ours",
    "level_code",
]

Kind = int | Literal["r", "n"]
MAX_CUSTOM_ID: Final = 100
_BOT: Final = "b"

_LEGACY_DIFFICULTY: Final = {"e": Difficulty.EASY, "m": Difficulty.MEDIUM, "u": Difficulty.UNBEATABLE}
_FROM_LEVEL_CODE: Final = {str(level): level for level in LEVELS} | {
    code: LEVEL_OF_DIFFICULTY[difficulty] for code, difficulty in _LEGACY_DIFFICULTY.items()
}
LEVEL_CODE: Final = r"[1-8emu]"
"""A level's code in a ``custom_id``: its digit, or the difficulty letter of a board posted before the levels."""
_ALGORITHM: dict[Algorithm, str] = {"alpha-beta": "a", "minimax": "m"}
_MODE: dict[Mode, str] = {"buttons": "b", "text": "t"}
_FROM_ALGORITHM = {c: a for a, c in _ALGORITHM.items()}
_FROM_MODE = {c: m for m, c in _MODE.items()}

_PAYLOAD = (
    r"(?P<game>[0-9a-z]{1,13}):(?P<moves>[0-8]{0,9}):(?P<opts>[1-8emu][am][bt]):"
    r"(?P<x>b|\d{1,20}):(?P<o>b|\d{1,20}):(?P<states>[0-9a-z]{1,6})"
)
CELL_TEMPLATE: Final = rf"ttt:(?P<kind>[0-8]):{_PAYLOAD}"
RESIGN_TEMPLATE: Final = rf"ttt:(?P<kind>r):{_PAYLOAD}"
REMATCH_TEMPLATE: Final = rf"ttt:(?P<kind>n):{_PAYLOAD}"
ANSWER_TEMPLATE: Final = r"ttt:(?P<answer>[ad]):(?P<game>[0-9a-z]{1,13}):(?P<challenged>\d{1,20})"
_ANY_BOARD = re.compile(rf"ttt:(?P<kind>[0-8rn]):{_PAYLOAD}")
_ANY_ANSWER = re.compile(ANSWER_TEMPLATE)


class CodecError(ValueError):
    """A ``custom_id`` that is not one of ours, or that describes an impossible game."""


def encode(game: Game, kind: Kind) -> str:
    """The ``custom_id`` for a cell (``0``-``8``), Resign (``"r"``) or Rematch (``"n"``) button of ``game``.

    Raises:
        CodecError: ``kind`` or a field of ``game`` cannot be written in the format, or both sides are one player.
    """
    return encoder(game)(kind)


def encoder(game: Game) -> Callable[[Kind], str]:
    """:func:`encode` for the buttons of one board: everything after the kind is the same for all eleven, so it
    is written once.

    Raises:
        CodecError: a field of ``game`` cannot be written in the format, or both sides are one player (the
            returned function raises it for a ``kind`` that is not a cell, ``"r"`` or ``"n"``).
    """
    opts = level_code(game) + _ALGORITHM[game.algorithm] + _MODE[game.mode]
    x, o = game.x_id, game.o_id
    if x == o:
        raise CodecError(f"cannot encode game {game.game_id!r}: the same player on both sides")
    players = f"{_BOT if x is None else x}:{_BOT if o is None else o}"
    payload = f"{game.game_id}:{''.join(map(str, game.moves))}:{opts}:{players}:{to_base36(game.ai_states)}"
    if not _PAYLOAD_RE.fullmatch(payload):
        raise CodecError(f"cannot encode game {game.game_id!r}: got {payload!r}")

    def encode_kind(kind: Kind) -> str:
        if kind not in _KINDS:
            raise CodecError(f"cannot encode kind {kind!r}: use a cell 0-8, 'r' or 'n'")
        return f"ttt:{kind}:{payload}"

    return encode_kind


_KINDS: Final = frozenset((*range(9), "r", "n"))


_PAYLOAD_RE = re.compile(_PAYLOAD)


def level_code(game: Game) -> str:
    """The code of ``game``'s level in its buttons' ids (``"1"``-``"8"``).

    Raises:
        CodecError: the level is not 1-8.
    """
    if game.level not in LEVELS:
        raise CodecError(f"cannot encode game {game.game_id!r}: level {game.level!r} is not 1-8")
    return str(game.level)


def is_ours(custom_id: str) -> bool:
    """True when ``custom_id`` has the shape of one of this bot's current buttons (variant boards included:
    :mod:`bot.games.variant_codec`)."""
    if _ANY_BOARD.fullmatch(custom_id) is not None or _ANY_ANSWER.fullmatch(custom_id) is not None:
        return True
    from bot.games.variant_codec import is_variant_id  # the variant codec builds on this module

    return is_variant_id(custom_id)


def decode(
    custom_id: str, *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[Game, Kind]:
    """Read a board button's ``custom_id`` (made by :func:`encode`) into its game and the button's kind.

    The game's place (channel, guild, message) is not in the id; the caller passes it.

    Raises:
        CodecError: the id is not a board button's, its moves are not a legal game, or both sides are one player.
    """
    match = _ANY_BOARD.fullmatch(custom_id)
    if match is None:
        raise CodecError(f"{custom_id!r} is not a tic-tac-toe board button")
    return from_match(match, channel_id=channel_id, guild_id=guild_id, message_id=message_id)


def from_match(
    match: re.Match[str], *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[Game, Kind]:
    """Build the game from a match of one of the board templates (as a ``DynamicItem`` receives it).

    A finished position becomes a game that is over (``win`` or ``draw``); a board whose game ended
    otherwise (resigned, abandoned) carries a Rematch button, which the caller reads from ``kind``.

    Raises:
        CodecError: the moves repeat a cell or go on after the game was won, or both sides are one player.
    """
    moves = tuple(int(c) for c in match["moves"])
    state = initial_state()
    try:
        for cell in moves:
            if terminal(state):
                raise CodecError(f"moves {match['moves']!r} go on after the game ended")
            state = result(state, cell)
    except IllegalMoveError as exc:
        raise CodecError(f"moves {match['moves']!r} are not a legal game: {exc}") from exc
    done = terminal(state)
    game = game_from_match(
        match,
        match["opts"],
        moves,
        state,
        done=done,
        won=done and winner(state) is not None,
        channel_id=channel_id,
        guild_id=guild_id,
        message_id=message_id,
    )
    raw = match["kind"]
    kind: Kind = int(raw) if raw.isdigit() else ("r" if raw == "r" else "n")
    return game, kind


def game_from_match(
    match: re.Match[str],
    opts: str,
    moves: tuple[int, ...],
    state: Any,
    *,
    done: bool,
    won: bool,
    channel_id: int,
    guild_id: int | None,
    message_id: int | None,
    variant: str = "3x3",
) -> Game:
    """The game a board button's id shows, once its moves are replayed into ``state``: the players and the states
    count from ``match``, the level, algorithm and board mode from the codes ``opts`` (in that order), over
    (``win`` when ``won``, else ``draw``) when ``done``. Shared by every variant's codec.

    Raises:
        CodecError: no person plays, or both sides are one player.
    """
    game = Game(
        game_id=match["game"],
        channel_id=channel_id,
        x_id=None if match["x"] == _BOT else int(match["x"]),
        o_id=None if match["o"] == _BOT else int(match["o"]),
        level=_FROM_LEVEL_CODE[opts[0]],
        algorithm=_FROM_ALGORITHM[opts[1]],
        mode=_FROM_MODE[opts[2]],
        moves=moves,
        state=state,
        guild_id=guild_id,
        message_id=message_id,
        status="over" if done else "playing",
        end_reason=("win" if won else "draw") if done else None,
        ai_states=int(match["states"], 36),
        variant=variant,
    )
    if game.x_id is None and game.o_id is None:
        raise CodecError("a game needs at least one person")
    if game.x_id == game.o_id:
        raise CodecError(f"user {game.x_id} cannot play both sides")
    return game
