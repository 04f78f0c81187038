"""A game written into a component ``custom_id`` and read back, so boards keep working after a restart.

One codec for every registered game, keyed by its code (:attr:`engine.Variant.code`): a game of at most
:data:`MAX_CARRIED_CELLS` cells carries its moves in every button, a bigger one names its game by reference.

**A board that carries its game** (3x3, 4x4, 5x5; fields separated by ``:``)::

    ttt:<kind>:<game id>:<moves>:<code><options>:<X player>:<O player>:<states>

- ``kind``: a cell in decimal (``0``-``8``, ``0``-``15``, ``0``-``24``), ``r`` for Resign, ``n`` for Rematch, ``w`` for
  "How did it think?" on the bot's last move and ``h`` for the same on a hint (the search in the board's position).
- ``game id``: a base-36 snowflake, 1-13 characters (:func:`bot.games.match.new_game_id`).
- ``moves``: one base-36 digit per cell played, in order (``0``-``8``, ``0``-``f``, ``0``-``o``): the position, its
  ply and the game's history. Two boards of one game compare by it: the longer is newer.
- ``code``: the variant's code: none for 3x3 (its format predates the others), ``4``, ``5``.
- ``options``: the bot's level (``1``-``8``), algorithm (``a`` alpha-beta, ``m`` minimax) and board mode (``b``
  buttons, ``t`` text). Boards posted before the levels carry a difficulty there (``e``/``m``/``u``), read as its
  level (:data:`bot.records.LEVEL_OF_DIFFICULTY`: easy 2, medium 5, unbeatable 8).
- players: a user id (snowflake, up to 20 digits) or ``b`` for the bot.
- ``states``: the states the bot has evaluated in this game so far, in base 36: up to 6 digits on 3x3 (its
  longest id, every field at its widest, is then 82 characters), 13 on the others (a game between people counts
  none, so 5x5's longest is 95 with 20-digit user ids), within Discord's 100.

**A board that names its game** (ultimate's 81 cells, or any board over 25 cells: a picture of up to 19 x 19) carries
its code (``u`` on ultimate), the game id and a version, the number of moves played (1-3 digits); the running game
comes from memory or the records database::

    ttt:u:<kind>:<game id>:<version>      (the board message)
    ttt:up:<kind>:<game id>:<version>     (the private pad: an ephemeral message of the player to move)

- ``kind``: a cell ``0``-``80``, ``r``, ``n``, ``w``, ``h``, ``p0``-``p8`` (pick small board 0-8 when the player may
  play anywhere: on the private pad, never a move) or ``k`` (on the pad: back to the open boards); the pad has cells,
  ``p0``-``p8`` and ``k`` only. At most 26 characters.

A reference names a position only by the game's own moves, so a forged id can never put on the board a position
that was not played: the service resolves it against the game it holds or stored and refuses a version it never
committed. Challenge prompts use ``ttt:a:<game id>:<user>`` (Accept) and ``ttt:d:...`` (Decline). The regular
expressions of these layouts are in :mod:`bot.games.custom_ids`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from bot.games.custom_ids import (
    ANSWER_TEMPLATE,
    BOARD_TEMPLATE,
    CELL_TEMPLATE,
    LEVEL_CODE,
    MAX_CARRIED_CELLS,
    MNK_BOARD_TEMPLATE,
    REF_TEMPLATE,
    REMATCH_TEMPLATE,
    RESIGN_TEMPLATE,
)
from bot.games.match import Algorithm, BoardRef, Match, Mode, to_base36
from bot.vocabulary import LEVEL_OF_DIFFICULTY, LEVELS
from engine import VARIANTS, IllegalMoveError, Variant

__all__ = [
    "ANSWER_TEMPLATE",
    "BOARD_TEMPLATE",
    "CELL_TEMPLATE",
    "LEVEL_CODE",
    "MAX_CARRIED_CELLS",
    "MAX_CUSTOM_ID",
    "MNK_BOARD_TEMPLATE",
    "REF_TEMPLATE",
    "REMATCH_TEMPLATE",
    "RESIGN_TEMPLATE",
    "THINKING_KINDS",
    "BoardRef",
    "CodecError",
    "Kind",
    "decode",
    "encode",
    "encoder",
    "from_match",
    "is_ours",
    "level_code",
    "ref_encoder",
    "ref_from_match",
]

Kind = int | str
"""A button's kind: a cell (0-based int), ``"r"``, ``"n"``, ``"w"`` (the bot's last move: how did it think?), ``"h"``
(the search in the board's position, from a hint), and on a board by reference ``"k"`` or ``"p0"``-``"p8"``."""
THINKING_KINDS: Final = ("w", "h")
"""The kinds of the "How did it think?" buttons: on the bot's move, and on a hint."""
MAX_CUSTOM_ID: Final = 100
_BOT: Final = "b"
_B36: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_FIRST_STATES_DIGITS: Final = 6  # 3x3's format, the first: its states count has at most 6 digits

_LEGACY_DIFFICULTY: Final = {"e": "easy", "m": "medium", "u": "unbeatable"}
"""The letter of a difficulty (boards posted before the levels) and its name."""
_FROM_LEVEL_CODE: Final = {str(level): level for level in LEVELS} | {
    code: LEVEL_OF_DIFFICULTY[difficulty] for code, difficulty in _LEGACY_DIFFICULTY.items()
}
_ALGORITHM: dict[Algorithm, str] = {"alpha-beta": "a", "minimax": "m"}
_MODE: dict[Mode, str] = {"buttons": "b", "text": "t"}
_FROM_ALGORITHM = {c: a for a, c in _ALGORITHM.items()}
_FROM_MODE = {c: m for m, c in _MODE.items()}


def _carried(rules: Variant) -> bool:
    """True when ``rules``' boards carry their moves (small enough), false when they name their game by reference."""
    return rules.cells <= MAX_CARRIED_CELLS


_CODES: dict[str, Variant] = {}
"""The registered games by code, rebuilt when a game is registered."""


def _by_code(code: str) -> Variant | None:
    """The registered game whose ``custom_id`` code is ``code``."""
    if len(_CODES) != len(VARIANTS):
        _CODES.clear()
        _CODES.update((v.code, v) for v in VARIANTS.values())
    return _CODES.get(code)


_BOARD_RE: Final = re.compile(BOARD_TEMPLATE)
_REF_RE: Final = re.compile(REF_TEMPLATE)
_ANSWER_RE: Final = re.compile(ANSWER_TEMPLATE)


class CodecError(ValueError):
    """A ``custom_id`` that is not one of ours, or that describes an impossible game."""


def encode(game: Match, kind: Kind) -> str:
    """The ``custom_id`` of one button of ``game``'s board (see :func:`encoder`).

    Raises:
        CodecError: as :func:`encoder`, or ``kind`` is not a button of this board.
    """
    return encoder(game)(kind)


def encoder(game: Match) -> Callable[[Kind], str]:
    """The ``custom_id`` maker for the buttons of ``game``'s board, whatever its variant: everything after the kind is
    the same for every button, so it is written once. A board that carries its game takes a cell (0-based int),
    ``"r"`` or ``"n"``; a board by reference as :func:`ref_encoder`.

    Raises:
        CodecError: a field of ``game`` cannot be written in the format, or both sides are one player (the returned
            function raises it for a kind that is not a button of this board).
    """
    rules = game.kind
    if not _carried(rules):
        return ref_encoder(game)
    opts = rules.code + level_code(game) + _ALGORITHM[game.algorithm] + _MODE[game.mode]
    x, o = game.x_id, game.o_id
    if x == o:
        raise CodecError(f"cannot encode game {game.game_id!r}: the same player on both sides")
    moves = "".join(_B36[cell] for cell in game.moves)
    players = f"{_BOT if x is None else x}:{_BOT if o is None else o}"
    tail = f"{game.game_id}:{moves}:{opts}:{players}:{to_base36(game.ai_states)}"
    match = _BOARD_RE.fullmatch(f"ttt:r:{tail}")
    if match is None or len(match["states"]) > _states_digits(rules):
        raise CodecError(f"cannot encode game {game.game_id!r}: got {tail!r}")
    cells = rules.cells

    def make(kind: Kind) -> str:
        if not (
            kind in ("r", "n", *THINKING_KINDS)
            or (isinstance(kind, int) and not isinstance(kind, bool) and 0 <= kind < cells)
        ):
            raise CodecError(f"cannot encode kind {kind!r}: use a cell 0-{cells - 1}, 'r', 'n', 'w' or 'h'")
        return f"ttt:{kind}:{tail}"

    return make


def ref_encoder(game: Match, *, pad: bool = False) -> Callable[[Kind], str]:
    """The ``custom_id`` maker for the buttons of one board by reference (``pad``: of the private pad):
    ``make(kind)`` for a cell, ``"r"``, ``"n"``, ``"w"``, ``"h"`` (not on the pad), ``"k"`` or ``"p0"``-``"p8"``.

    Raises:
        CodecError: ``game``'s variant does not name its boards by reference (the returned function raises it for
            another kind).
    """
    rules = game.kind
    if _carried(rules):
        raise CodecError(f"cannot encode game {game.game_id!r} by reference: variant {game.variant!r}")
    tail = f"{game.game_id}:{game.ply}"
    cells = rules.cells
    controls = ("k",) if pad else ("r", "n", "k", *THINKING_KINDS)
    prefix = f"ttt:{rules.code}{'p' if pad else ''}:"

    def make(kind: Kind) -> str:
        if isinstance(kind, int) and not isinstance(kind, bool):
            if not 0 <= kind < cells:
                raise CodecError(f"cannot encode cell {kind!r}: use 0-{cells - 1}")
        elif not (kind in controls or (isinstance(kind, str) and re.fullmatch(r"p[0-8]", kind))):
            raise CodecError(f"cannot encode kind {kind!r}: use a cell, {', '.join(map(repr, controls))} or p0-p8")
        return f"{prefix}{kind}:{tail}"

    return make


def level_code(game: Match) -> str:
    """The code of ``game``'s level in its buttons' ids (``"1"``-``"8"``).

    Raises:
        CodecError: the level is not 1-8.
    """
    if game.level not in LEVELS:
        raise CodecError(f"cannot encode game {game.game_id!r}: level {game.level!r} is not 1-8")
    return str(game.level)


def is_ours(custom_id: str) -> bool:
    """True when ``custom_id`` has the shape of one of this bot's current buttons (a board of any variant, a private
    pad or a challenge answer)."""
    return any(pattern.fullmatch(custom_id) is not None for pattern in (_BOARD_RE, _REF_RE, _ANSWER_RE))


def decode(
    custom_id: str, *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[Match | BoardRef, Kind]:
    """Read a board button's ``custom_id`` into the game it carries (or the :class:`BoardRef` it names) and the
    button's kind. The game's place (channel, guild, message) is not in the id; the caller passes it.

    Raises:
        CodecError: the id is not a board button's, or describes an impossible game.
    """
    if (match := _BOARD_RE.fullmatch(custom_id)) is not None:
        return from_match(match, channel_id=channel_id, guild_id=guild_id, message_id=message_id)
    if (match := _REF_RE.fullmatch(custom_id)) is not None:
        return ref_from_match(match, channel_id=channel_id, guild_id=guild_id, message_id=message_id)
    raise CodecError(f"{custom_id!r} is not a tic-tac-toe board button")


def from_match(
    match: re.Match[str], *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[Match, Kind]:
    """The game a match of a carrying board's template shows (:data:`BOARD_TEMPLATE`, or one variant's:
    :data:`CELL_TEMPLATE`, :data:`MNK_BOARD_TEMPLATE`...), and the button's kind.

    A finished position becomes a game that is over (``win`` or ``draw``); a board whose game ended otherwise
    (resigned, abandoned) carries a Rematch button, which the caller reads from the kind.

    Raises:
        CodecError: a cell is off the board, the moves repeat a cell or go on after the game ended, no person
            plays, or both sides are one player.
    """
    opts = match["opts"]
    rules = _by_code(opts[:-3])
    if rules is None or not _carried(rules):
        raise CodecError(f"{match.string!r}: no variant has the code {opts[:-3]!r}")
    kind = _kind(match["kind"])
    moves = tuple(_B36.index(c) for c in match["moves"])
    if any(cell >= rules.cells for cell in moves) or (isinstance(kind, int) and kind >= rules.cells):
        raise CodecError(f"{match.string!r}: a cell is off the {rules.name} board")
    if len(match["states"]) > _states_digits(rules):
        raise CodecError(f"{match.string!r}: the states count is too long")
    state = rules.game.initial_state()
    try:
        for cell in moves:
            if rules.game.terminal(state):
                raise CodecError(f"moves {match['moves']!r} go on after the game ended")
            state = rules.game.result(state, cell)
    except IllegalMoveError as exc:
        raise CodecError(f"moves {match['moves']!r} are not a legal {rules.name} game: {exc}") from exc
    done = rules.game.terminal(state)
    game = Match(
        game_id=match["game"],
        channel_id=channel_id,
        x_id=None if match["x"] == _BOT else int(match["x"]),
        o_id=None if match["o"] == _BOT else int(match["o"]),
        level=_FROM_LEVEL_CODE[opts[-3]],
        algorithm=_FROM_ALGORITHM[opts[-2]],
        mode=_FROM_MODE[opts[-1]],
        moves=moves,
        state=state,
        guild_id=guild_id,
        message_id=message_id,
        status="over" if done else "playing",
        end_reason=("win" if rules.game.utility(state) else "draw") if done else None,
        ai_states=int(match["states"], 36),
        variant=rules.name,
    )
    if game.x_id is None and game.o_id is None:
        raise CodecError("a game needs at least one person")
    if game.x_id == game.o_id:
        raise CodecError(f"user {game.x_id} cannot play both sides")
    return game, kind


def ref_from_match(
    match: re.Match[str], *, channel_id: int = 0, guild_id: int | None = None, message_id: int | None = None
) -> tuple[BoardRef, Kind]:
    """The reference a match of :data:`REF_TEMPLATE` names, and the button's kind (``over`` when it is Rematch). A
    private pad's reference names no message (its own ``message_id`` is dropped).

    Raises:
        CodecError: the version or the cell is off the board, or a pad's button is Resign or Rematch.
    """
    rules = _by_code(match["variant"])
    if rules is None or _carried(rules):
        raise CodecError(f"{match.string!r}: no game named by reference has the code {match['variant']!r}")
    version = int(match["version"])
    kind = _kind(match["kind"])
    pad = bool(match["pad"])
    if version > rules.cells or (isinstance(kind, int) and kind >= rules.cells):
        raise CodecError(f"{match.string!r}: off the {rules.name} board")
    if pad and kind in ("r", "n", *THINKING_KINDS):
        raise CodecError(f"{match.string!r}: a private pad has no {kind!r} button")
    message_id = None if pad else message_id
    ref = BoardRef(rules.name, match["game"], version, channel_id, guild_id, message_id, over=kind == "n", pad=pad)
    return ref, kind


def _kind(raw: str) -> Kind:
    return int(raw) if raw.isdigit() else raw


def _states_digits(rules: Variant) -> int:
    """The most base-36 digits of a states count a board of ``rules`` carries: 6 in the first format (without a
    code: 3x3's), else 13 (any 63-bit count)."""
    return 13 if rules.code else _FIRST_STATES_DIGITS
