"""Encode a game into a component ``custom_id`` and back, so boards keep working after a restart.

Format (fields separated by ``:``)::

    ttt:<kind>:<game id>:<board>:<options>:<X player>:<O player>

- ``kind``: ``0``-``8`` for a cell button, ``r`` for Resign, ``n`` for Rematch (a new game).
- ``game id``: 6 lower-case hex digits.
- ``board``: nine characters of ``X``, ``O`` and ``.`` (:func:`engine.format_board`).
- ``options``: three letters: difficulty (``e``/``m``/``u``), algorithm (``a`` alpha-beta,
  ``m`` minimax) and board mode (``b`` buttons, ``t`` text).
- players: a user id (snowflake, up to 20 digits) or ``b`` for the bot.

The worst case (two 20-digit snowflakes) is 68 characters, within Discord's limit of 100.
Challenge prompts use ``ttt:a:`` (Accept) and ``ttt:d:`` (Decline) ids (see :class:`bot.views.ChallengeButton`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from engine import Difficulty, InvalidBoardError, State, format_board, parse_board

__all__ = [
    "BOT",
    "CELL_TEMPLATE",
    "MAX_CUSTOM_ID",
    "REMATCH_TEMPLATE",
    "RESIGN_TEMPLATE",
    "Algorithm",
    "CodecError",
    "GameCode",
    "Mode",
    "decode",
    "encode",
]

Algorithm = Literal["alpha-beta", "minimax"]
Mode = Literal["buttons", "text"]

MAX_CUSTOM_ID: Final = 100
BOT: Final = "b"
"""The marker that stands for the bot in place of a user id."""

_DIFFICULTY = {Difficulty.EASY: "e", Difficulty.MEDIUM: "m", Difficulty.UNBEATABLE: "u"}
_ALGORITHM: dict[Algorithm, str] = {"alpha-beta": "a", "minimax": "m"}
_MODE: dict[Mode, str] = {"buttons": "b", "text": "t"}

_PAYLOAD = r"(?P<game>[0-9a-f]{6}):(?P<board>[XO.]{9}):(?P<opts>[emu][am][bt]):(?P<x>b|\d{1,20}):(?P<o>b|\d{1,20})"
CELL_TEMPLATE: Final = rf"ttt:(?P<kind>[0-8]):{_PAYLOAD}"
RESIGN_TEMPLATE: Final = rf"ttt:(?P<kind>r):{_PAYLOAD}"
REMATCH_TEMPLATE: Final = rf"ttt:(?P<kind>n):{_PAYLOAD}"
_ANY = re.compile(rf"ttt:(?P<kind>[0-8rn]):{_PAYLOAD}")
_PAYLOAD_RE = re.compile(_PAYLOAD)


class CodecError(ValueError):
    """A ``custom_id`` that is not one of ours or describes an impossible game."""


@dataclass(frozen=True, slots=True)
class GameCode:
    """Everything a board message needs to rebuild its game: the state, the players and the options.

    ``x_id``/``o_id`` are user ids, ``None`` for the bot.
    """

    game_id: str
    state: State
    x_id: int | None
    o_id: int | None
    difficulty: Difficulty
    algorithm: Algorithm
    mode: Mode


def _player(value: int | None) -> str:
    return BOT if value is None else str(value)


def encode(code: GameCode, kind: int | Literal["r", "n"]) -> str:
    """The ``custom_id`` for a cell (``0``-``8``), Resign (``"r"``) or Rematch (``"n"``) button.

    Raises:
        CodecError: ``kind`` or a field of ``code`` cannot be written in the format.
    """
    if kind not in _KINDS:
        raise CodecError(f"cannot encode kind {kind!r}: use a cell 0-8, 'r' or 'n'")
    return f"ttt:{kind}:{_payload(code)}"


_KINDS: Final = frozenset((*range(9), "r", "n"))


@lru_cache(maxsize=1024)
def _payload(code: GameCode) -> str:
    """Everything after the kind; the same for all eleven buttons of a board, so it is built once."""
    opts = _DIFFICULTY[code.difficulty] + _ALGORITHM[code.algorithm] + _MODE[code.mode]
    payload = f"{code.game_id}:{format_board(code.state)}:{opts}:{_player(code.x_id)}:{_player(code.o_id)}"
    if not _PAYLOAD_RE.fullmatch(payload):
        raise CodecError(f"cannot encode {code!r}: got {payload!r}")
    return payload


def decode(custom_id: str) -> tuple[GameCode, int | Literal["r", "n"]]:
    """Parse a ``custom_id`` made by :func:`encode` into the game and the kind.

    Raises:
        CodecError: the id does not match the format or its board is impossible.
    """
    match = _ANY.fullmatch(custom_id)
    if match is None:
        raise CodecError(f"{custom_id!r} is not a tic-tac-toe custom_id")
    return from_match(match)


def from_match(match: re.Match[str]) -> tuple[GameCode, int | Literal["r", "n"]]:
    """Build the game from a match of one of the templates (as a ``DynamicItem`` receives it).

    Raises:
        CodecError: the board is impossible.
    """
    try:
        state = parse_board(match["board"])
    except InvalidBoardError as exc:
        raise CodecError(str(exc)) from exc
    opts = match["opts"]
    code = GameCode(
        game_id=match["game"],
        state=state,
        x_id=None if match["x"] == BOT else int(match["x"]),
        o_id=None if match["o"] == BOT else int(match["o"]),
        difficulty=next(d for d, c in _DIFFICULTY.items() if c == opts[0]),
        algorithm=next(a for a, c in _ALGORITHM.items() if c == opts[1]),
        mode=next(m for m, c in _MODE.items() if c == opts[2]),
    )
    raw = match["kind"]
    kind: int | Literal["r", "n"] = int(raw) if raw.isdigit() else ("r" if raw == "r" else "n")
    return code, kind
